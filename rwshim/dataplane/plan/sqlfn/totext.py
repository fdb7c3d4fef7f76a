"""RisingWave's text of a timestamp or timestamptz cast to a string type, as casts in the
data database.

RisingWave casts ``timestamptz`` to ``varchar`` with ``%Y-%m-%d %H:%M:%S%.f%:z`` in the
session's time zone (src/frontend/src/expr/session_timezone.rs rewrites the cast to
``cast_with_time_zone``; src/expr/impl/src/scalar/cast.rs) and ``timestamp`` with its ToText
(src/common/src/types/datetime.rs: chrono's NaiveTime display): the fraction of a second in 3
or 6 digits (none when zero) and the offset as ``+HH:MM``, where PostgreSQL prints
``.5`` and ``+00``.  The value's own rendering on the wire is rwshim's (dataplane/values.py);
these casts give ``x::varchar`` the same text, from PostgreSQL's output of it.

PostgreSQL has no pg_cast row for these (it converts through the output function), so one
made here is used instead.  A cast on built-in types needs a superuser: on a
``--postgres-url`` database whose user is not one, PostgreSQL's text stays.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, register

# PostgreSQL's ISO output: date, time, optional fraction, [offset hours[:minutes[:seconds]]], BC
_PARTS = r"^(\S+ \d\d:\d\d:\d\d)(?:\.(\d+))?(?:([+-]\d\d)(?::(\d\d)(?::\d\d)?)?)?( BC)?$"


def _fn(arg: str, out: str) -> str:
    return f"""
CREATE OR REPLACE FUNCTION {F}.rw_text(t {arg}) RETURNS varchar LANGUAGE sql STABLE STRICT
    PARALLEL SAFE AS $$
SELECT CASE WHEN m IS NULL THEN s ELSE
    m[1]
    || CASE WHEN m[2] IS NULL THEN '' WHEN pg_catalog.length(m[2]) <= 3
        THEN '.' || pg_catalog.rpad(m[2], 3, '0') ELSE '.' || pg_catalog.rpad(m[2], 6, '0') END
    || CASE WHEN m[3] IS NULL THEN '' ELSE m[3] || ':' || coalesce(m[4], '00') END
    || coalesce(m[5], '') END
FROM (SELECT s, pg_catalog.regexp_match(s, '{_PARTS}') AS m
      FROM (SELECT pg_catalog.textin(pg_catalog.{out}(t)) AS s) AS x) AS y
$$;
"""


def _cast(source: str, target: str) -> str:
    return (
        f"DO $cast$ BEGIN CREATE CAST ({source} AS {target}) WITH FUNCTION"
        f" {F}.rw_text({source}) AS ASSIGNMENT; EXCEPTION WHEN duplicate_object"
        " OR insufficient_privilege THEN NULL; END $cast$;\n"
    )


SQL = (
    _fn("timestamptz", "timestamptz_out")
    + _fn("timestamp", "timestamp_out")
    + "".join(
        _cast(source, target)
        for source in ("timestamptz", "timestamp")
        for target in ("varchar", "text")
    )
)

register(SQL)
