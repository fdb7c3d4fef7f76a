"""RisingWave's list functions PostgreSQL lacks (src/expr/impl/src/scalar/array_*.rs and the
names the binder maps to them, src/frontend/src/binder/expr/function/builtin_scalar.rs).

- ``array_min`` / ``array_max`` (array_min_max.rs): the least / greatest non-NULL element;
- ``array_sum`` (array_sum.rs): PostgreSQL's ``sum`` has the same result types (int2/int4 ->
  int8, int8 -> numeric, the others their own), NULL for no non-NULL element;
- ``array_join`` (builtin_scalar.rs: ArrayToString);
- ``array_distinct`` (array_distinct.rs): first occurrences, in order;
- ``array_contains`` / ``array_contained`` / ``array_overlaps`` and its aliases
  ``array_is_overlap`` / ``array_is_intersect`` (array_contain.rs): PostgreSQL's ``@>``,
  ``<@`` and ``&&``.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, register

SQL = f"""
CREATE OR REPLACE FUNCTION {F}.array_min(anyarray) RETURNS anyelement LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT x FROM pg_catalog.unnest($1) AS u(x) WHERE x IS NOT NULL
    ORDER BY x LIMIT 1 $$;
CREATE OR REPLACE FUNCTION {F}.array_max(anyarray) RETURNS anyelement LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT x FROM pg_catalog.unnest($1) AS u(x) WHERE x IS NOT NULL
    ORDER BY x DESC LIMIT 1 $$;
{
    "".join(
        f'''CREATE OR REPLACE FUNCTION {F}.array_sum({t}[]) RETURNS {r} LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT pg_catalog.sum(x) FROM pg_catalog.unnest($1) AS u(x) $$;
'''
        for t, r in (
            ("int2", "int8"),
            ("int4", "int8"),
            ("int8", "numeric"),
            ("float4", "float4"),
            ("float8", "float8"),
            ("numeric", "numeric"),
            ("interval", "interval"),
        )
    )
}
CREATE OR REPLACE FUNCTION {F}.array_join(anyarray, text) RETURNS varchar LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT pg_catalog.array_to_string($1, $2) $$;
CREATE OR REPLACE FUNCTION {F}.array_join(anyarray, text, text) RETURNS varchar LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT pg_catalog.array_to_string($1, $2, $3) $$;
CREATE OR REPLACE FUNCTION {F}.array_distinct(anyarray) RETURNS anyarray LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$
    SELECT CASE WHEN $1 IS NULL THEN NULL ELSE ARRAY(
        SELECT x FROM pg_catalog.unnest($1) WITH ORDINALITY AS u(x, o)
        GROUP BY x ORDER BY pg_catalog.min(o)) END $$;
CREATE OR REPLACE FUNCTION {F}.array_contains(anyarray, anyarray) RETURNS boolean LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT $1 @> $2 $$;
CREATE OR REPLACE FUNCTION {F}.array_contained(anyarray, anyarray) RETURNS boolean LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT $1 <@ $2 $$;
CREATE OR REPLACE FUNCTION {F}.array_overlaps(anyarray, anyarray) RETURNS boolean LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT $1 && $2 $$;
CREATE OR REPLACE FUNCTION {F}.array_is_overlap(anyarray, anyarray) RETURNS boolean LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT $1 && $2 $$;
CREATE OR REPLACE FUNCTION {F}.array_is_intersect(anyarray, anyarray) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT $1 && $2 $$;
"""

register(SQL)
