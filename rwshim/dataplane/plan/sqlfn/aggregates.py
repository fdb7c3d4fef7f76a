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


# ``first_value(v ORDER BY ...)`` / ``last_value(v ORDER BY ...)`` as aggregates
# (src/expr/impl/src/aggregate/first_last_value.rs): the value of the first (last) row in the
# call's order, NULL included.  ``seen`` tells a first row's NULL from no row; the value
# travels as text, as arg_min's does.  The aggregates shadow PostgreSQL's window functions of
# the same signature: used with OVER they aggregate the window frame, which is what the
# window functions return.
FIRST_LAST = f"""
{once(f"CREATE TYPE {F}.first_last_state AS (seen bool, v text)")}
CREATE OR REPLACE FUNCTION {F}.first_value_step(s {F}.first_last_state, v anyelement)
    RETURNS {F}.first_last_state LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF s.seen IS TRUE THEN
        RETURN s;
    END IF;
    RETURN ROW(true, v::text)::{F}.first_last_state;
END $$;
CREATE OR REPLACE FUNCTION {F}.last_value_step(s {F}.first_last_state, v anyelement)
    RETURNS {F}.first_last_state LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    RETURN ROW(true, v::text)::{F}.first_last_state;
END $$;
CREATE OR REPLACE FUNCTION {F}.first_last_final(s {F}.first_last_state, v anyelement)
    RETURNS anyelement LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    r ALIAS FOR $0;
BEGIN
    IF s.seen IS NOT TRUE OR s.v IS NULL THEN
        RETURN NULL;
    END IF;
    r := s.v;
    RETURN r;
END $$;
CREATE OR REPLACE AGGREGATE {F}.first_value(anyelement) (
    SFUNC = {F}.first_value_step, STYPE = {F}.first_last_state,
    FINALFUNC = {F}.first_last_final, FINALFUNC_EXTRA
);
CREATE OR REPLACE AGGREGATE {F}.last_value(anyelement) (
    SFUNC = {F}.last_value_step, STYPE = {F}.first_last_state,
    FINALFUNC = {F}.first_last_final, FINALFUNC_EXTRA
);
"""

register(FIRST_LAST)


# ``first_value(v IGNORE NULLS)`` / ``last_value(v IGNORE NULLS)`` over a window (RisingWave:
# binder/expr/function/window.rs:86-103; the executor skips NULLs in the frame): the rewriter
# adds a marker argument of the enum below (plan/ignore_nulls). A strict transition function
# never sees a NULL input: the state starts at the first non-NULL value (PostgreSQL's rule for
# a strict SFUNC without INITCOND), first_value keeps it, last_value takes each later one.
IGNORE_NULLS = f"""
{once(f"CREATE TYPE {F}.ignore_nulls AS ENUM ('ignore_nulls')")}
CREATE OR REPLACE FUNCTION {F}.first_value_ignore_nulls_step(
    s anyelement, v anyelement, m {F}.ignore_nulls
) RETURNS anyelement LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT s $$;
CREATE OR REPLACE FUNCTION {F}.last_value_ignore_nulls_step(
    s anyelement, v anyelement, m {F}.ignore_nulls
) RETURNS anyelement LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT v $$;
CREATE OR REPLACE AGGREGATE {F}.first_value(anyelement, {F}.ignore_nulls) (
    SFUNC = {F}.first_value_ignore_nulls_step, STYPE = anyelement
);
CREATE OR REPLACE AGGREGATE {F}.last_value(anyelement, {F}.ignore_nulls) (
    SFUNC = {F}.last_value_ignore_nulls_step, STYPE = anyelement
);
"""

register(IGNORE_NULLS)
