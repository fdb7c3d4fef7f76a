"""RisingWave's aggregates PostgreSQL lacks.

``arg_min(v, k)`` / ``arg_max(v, k)``: RisingWave rewrites them to ``first_value(v ORDER BY k
[ASC|DESC], <the call's own ORDER BY>) FILTER (WHERE v IS NOT NULL AND k IS NOT NULL)``
(src/frontend/src/optimizer/plan_node/logical_agg.rs, PbAggKind::ArgMin / ArgMax).  Here one
aggregate per comparable key type: the state keeps the first row whose key is strictly
smaller (greater) than every earlier one, so rows the call's ORDER BY puts first win ties; the
value travels as text and comes back to its own type (PostgreSQL's text forms round-trip).
A key of a type RisingWave refuses (struct, list, map, vector, jsonb) is RisingWave's error.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, once, raise_rw, register

# the key types with an ordering (RisingWave's scalar types); others widen to one of these
KEY_TYPES = (
    "int2",
    "int4",
    "int8",
    "float4",
    "float8",
    "numeric",
    "text",
    "bool",
    "date",
    "time",
    "timestamp",
    "timestamptz",
    "interval",
    "bytea",
)
REFUSED_KEYS = ("anyarray", "jsonb", "record")


def _pair(kind: str, key: str) -> str:
    cmp = "<" if kind == "min" else ">"
    state = f"{F}.arg_{kind}_{key}_state"
    return f"""
{once(f"CREATE TYPE {state} AS (k {key}, v text)")}
CREATE OR REPLACE FUNCTION {F}.arg_{kind}_{key}_step(s {state}, v anyelement, k {key})
    RETURNS {state} LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF v IS NULL OR k IS NULL THEN
        RETURN s;
    END IF;
    IF s IS NULL OR k {cmp} s.k THEN
        RETURN ROW(k, v::text)::{state};
    END IF;
    RETURN s;
END $$;
CREATE OR REPLACE FUNCTION {F}.arg_{kind}_{key}_final(s {state}, v anyelement, k {key})
    RETURNS anyelement LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    r ALIAS FOR $0;
BEGIN
    IF s IS NULL THEN
        RETURN NULL;
    END IF;
    r := s.v;
    RETURN r;
END $$;
CREATE OR REPLACE AGGREGATE {F}.arg_{kind}(anyelement, {key}) (
    SFUNC = {F}.arg_{kind}_{key}_step, STYPE = {state},
    FINALFUNC = {F}.arg_{kind}_{key}_final, FINALFUNC_EXTRA
);
"""


def _refused(kind: str, key: str) -> str:
    message = (
        f"'arg_{kind} does not support struct, array, map, vector, jsonb for comparison "
        "argument, got ' || pg_catalog.pg_typeof(k)"
    )
    return f"""
CREATE OR REPLACE FUNCTION {F}.arg_{kind}_refused_step(s int4, v anyelement, k {key})
    RETURNS int4 LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN RETURN 0; END $$;
CREATE OR REPLACE FUNCTION {F}.arg_{kind}_refused_final(s int4, v anyelement, k {key})
    RETURNS anyelement LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    {raise_rw(message)}
END $$;
CREATE OR REPLACE AGGREGATE {F}.arg_{kind}(anyelement, {key}) (
    SFUNC = {F}.arg_{kind}_refused_step, STYPE = int4, INITCOND = '0',
    FINALFUNC = {F}.arg_{kind}_refused_final, FINALFUNC_EXTRA
);
"""


SQL = "".join(
    [
        *(_pair(kind, key) for kind in ("min", "max") for key in KEY_TYPES),
        *(_refused(kind, key) for kind in ("min", "max") for key in REFUSED_KEYS),
    ]
)

register(SQL)
