"""``rwfn.hk(x)``: a group key as RisingWave's hash aggregation gives it back (plan/hashkeys.py):
a decimal normalized (src/common/src/hash/key.rs:531-535, rust_decimal's ``normalize``:
trailing fractional zeros dropped, PostgreSQL's ``trim_scale``), a float's ``-0`` as ``0``
(key.rs:499-518, ``normalized()``), an interval as the justified member of its class of equal
intervals (src/common/src/types/interval.rs:723-781,851-871: the key is the total of
microseconds, deserialized by ``as_justified``: all units of the total's sign, under a day of
microseconds and under 30 days, PostgreSQL's ``justify_interval``; so '30 days' and '1 mon'
are one group shown as ``1 mon``), any other type as it is.

The integer types and ``rw_int256`` (a domain over numeric) have identity overloads of their
own: an integer would otherwise match both the numeric and the polymorphic one (``function
hk(integer) is not unique``), and a domain would come back as its base type.  Each body is a
single SELECT, which PostgreSQL inlines.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, register
from rwshim.dataplane.plan.sqlfn.int256 import T as INT256  # (registered before hk)


def _fn(arg: str, result: str, body: str) -> str:
    return (
        f"CREATE OR REPLACE FUNCTION {F}.hk({arg}) RETURNS {result} LANGUAGE sql IMMUTABLE"
        f" PARALLEL SAFE AS $$ SELECT {body} $$;\n"
    )


SQL = "".join(
    [
        _fn("numeric", "numeric", "pg_catalog.trim_scale($1)"),
        _fn("float8", "float8", "CASE WHEN $1 = 0 THEN 0::float8 ELSE $1 END"),
        _fn("float4", "float4", "CASE WHEN $1 = 0 THEN 0::float4 ELSE $1 END"),
        _fn("interval", "interval", "pg_catalog.justify_interval($1)"),
        *(_fn(t, t, "$1") for t in ("int2", "int4", "int8", INT256)),
        _fn("anyelement", "anyelement", "$1"),
    ]
)

register(SQL)
