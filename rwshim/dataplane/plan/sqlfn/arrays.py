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

Lists of lists are PostgreSQL's multidimensional arrays (dataplane/plan/typemap), whose
functions see the innermost elements where RisingWave's see the inner lists:
- ``array_min`` / ``array_max`` / ``array_sum`` / ``array_distinct`` / ``array_replace`` and
  the containment functions of a list of lists are refused (``rw_flat``: not supported by
  rwshim), never answered over the innermost elements;
- ``array_append`` / ``array_prepend`` of a list to a list of lists (array.rs ``array_append``
  / ``array_prepend``: the element is one inner list) are PostgreSQL's ``||`` when the
  dimensions fit, else refused;
- ``array_length(a)`` and ``array_length(a, d)`` / ``array_upper(a, d)`` (array_length.rs;
  builtin_scalar.rs binds ``array_upper`` as ``ArrayLength``): the number of elements of the
  outer list, ``0`` for an empty one, NULL for a dimension below 1, ``Invalid parameter
  dimension: array_length for dimensions greater than 1 not supported`` above it;
  ``array_lower(a, d)`` (builtin_scalar.rs: ``CASE WHEN 0 < d AND d <= array_ndims(a) THEN 1
  END``); ``array_dims(a)``: ``[1:<length>]`` (array_length.rs), a list of lists refused as the
  binder refuses it (type_inference/func.rs ``ArrayDims``);
- ``rw_sub(a, i)``: the ``i``-th inner list of a list of lists (RisingWave's ``a[i]``,
  binder/expr/subscript.rs; NULL out of range), spliced for it by the rewriter (lists.py);
- ``array_ndims(a)`` is the depth of ``a``'s type (builtin_scalar.rs binds it as a constant):
  the rewriter gives it as a second argument when the text says it (a cast, an ``ARRAY``
  literal: dataplane/plan/lists.py); else the value's dimensions, and an empty or NULL value,
  whose depth PostgreSQL's array does not keep, is refused; ``pg_typeof(a, depth)``: the name
  of a list of lists' type (``integer[][]``), its depth from the text (lists.py).
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, raise_rw, register

NESTED_REFUSED = (
    "not supported by rwshim: {fn} of a list of lists (the data plane keeps lists of lists as "
    "PostgreSQL's multidimensional arrays, whose functions see the innermost elements)"
)
NDIMS_REFUSED = (
    "not supported by rwshim: array_ndims of an empty or NULL list (its number of dimensions "
    "is its RisingWave type's, which the data plane's PostgreSQL arrays do not keep)"
)
_LENGTH_DIM = (
    "Invalid parameter dimension: array_length for dimensions greater than 1 not supported"
)
_DIMS_NESTED = "Bind error: array_dims for dimensions greater than 1 not supported"


def _q(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


_NESTED_MSG = (
    _q(NESTED_REFUSED.split("{fn}")[0]) + " || fn || " + _q(NESTED_REFUSED.split("{fn}")[1])
)

LISTS_SQL = f"""
CREATE OR REPLACE FUNCTION {F}.rw_flat(a anyarray, fn text) RETURNS anyarray LANGUAGE plpgsql
    IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF pg_catalog.array_ndims(a) > 1 THEN
        {raise_rw(_NESTED_MSG)}
    END IF;
    RETURN a;
END $$;
CREATE OR REPLACE FUNCTION {F}.rw_sub(a anyarray, i int4) RETURNS anyarray LANGUAGE plpgsql
    IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    t text;
    r ALIAS FOR $0;
BEGIN
    IF a IS NULL OR i IS NULL OR i < 1 OR i > COALESCE(pg_catalog.array_length(a, 1), 0) THEN
        RETURN NULL;
    END IF;
    -- the slice of the i-th inner list, its outer braces taken off (a slice is 1-based)
    t := a[i:i]::text;
    EXECUTE pg_catalog.format('SELECT %L::%s', pg_catalog.substr(t, 2, pg_catalog.length(t) - 2),
        pg_catalog.pg_typeof(a)) INTO r;
    RETURN r;
END $$;
CREATE OR REPLACE FUNCTION {F}.rw_list_add(a anycompatiblearray, e anycompatiblearray,
    fn text, prepend boolean) RETURNS anycompatiblearray LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
BEGIN
    IF e IS NULL THEN
        -- a NULL element (an untyped NULL resolves here too); a NULL inner list has no
        -- place in a multidimensional array
        IF pg_catalog.array_ndims(a) > 1 THEN
            {raise_rw(_NESTED_MSG)}
        END IF;
        IF prepend THEN
            RETURN pg_catalog.array_prepend(NULL, a);
        END IF;
        RETURN pg_catalog.array_append(a, NULL);
    END IF;
    IF pg_catalog.cardinality(e) = 0 OR (COALESCE(pg_catalog.cardinality(a), 0) > 0
            AND pg_catalog.array_ndims(a) <> pg_catalog.array_ndims(e) + 1) THEN
        {raise_rw(_NESTED_MSG)}
    END IF;
    IF COALESCE(pg_catalog.cardinality(a), 0) = 0 THEN
        RETURN ARRAY[e];
    END IF;
    IF prepend THEN
        RETURN e || a;
    END IF;
    RETURN a || e;
END $$;
CREATE OR REPLACE FUNCTION {F}.array_replace(anycompatiblearray, anycompatible, anycompatible)
    RETURNS anycompatiblearray LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT pg_catalog.array_replace({F}.rw_flat($1, 'array_replace'), $2, $3) $$;
CREATE OR REPLACE FUNCTION {F}.array_append(anycompatiblearray, anycompatiblearray)
    RETURNS anycompatiblearray LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT {F}.rw_list_add($1, $2, 'array_append', false) $$;
CREATE OR REPLACE FUNCTION {F}.array_prepend(anycompatiblearray, anycompatiblearray)
    RETURNS anycompatiblearray LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT {F}.rw_list_add($2, $1, 'array_prepend', true) $$;
CREATE OR REPLACE FUNCTION {F}.array_length(anyarray) RETURNS int4 LANGUAGE sql IMMUTABLE
    STRICT PARALLEL SAFE AS $$ SELECT COALESCE(pg_catalog.array_length($1, 1), 0) $$;
CREATE OR REPLACE FUNCTION {F}.array_length(a anyarray, d int4) RETURNS int4
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    IF d <= 0 THEN
        RETURN NULL;
    END IF;
    IF d >= 2 THEN
        {raise_expr(_q(_LENGTH_DIM))}
    END IF;
    RETURN COALESCE(pg_catalog.array_length(a, 1), 0);
END $$;
CREATE OR REPLACE FUNCTION {F}.array_upper(anyarray, int4) RETURNS int4 LANGUAGE sql
    IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT {F}.array_length($1, $2) $$;
CREATE OR REPLACE FUNCTION {F}.array_dims(a anyarray) RETURNS varchar LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    IF pg_catalog.array_ndims(a) > 1 THEN
        {raise_rw(_q(_DIMS_NESTED))}
    END IF;
    RETURN '[1:' || COALESCE(pg_catalog.array_length(a, 1), 0) || ']';
END $$;
CREATE OR REPLACE FUNCTION {F}.array_ndims(a anyarray) RETURNS int4 LANGUAGE plpgsql
    IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    n int4 := pg_catalog.array_ndims(a);
BEGIN
    IF n IS NULL THEN
        {raise_rw(_q(NDIMS_REFUSED))}
    END IF;
    RETURN n;
END $$;
CREATE OR REPLACE FUNCTION {F}.array_ndims(anyarray, int4) RETURNS int4 LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT $2 $$;
CREATE OR REPLACE FUNCTION {F}.pg_typeof(anyarray, int4) RETURNS varchar LANGUAGE sql
    STABLE PARALLEL SAFE AS $$
    SELECT pg_catalog.format_type(pg_catalog.pg_typeof($1), NULL)
        || pg_catalog.repeat('[]', $2 - 1) $$;
CREATE OR REPLACE FUNCTION {F}.array_lower(a anyarray, d int4) RETURNS int4
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF d IS NULL OR d < 1 THEN
        RETURN NULL;
    END IF;
    IF d = 1 THEN
        RETURN 1;
    END IF;
    IF pg_catalog.array_ndims(a) IS NULL THEN
        {raise_rw(_q(NDIMS_REFUSED.replace("array_ndims", "array_lower")))}
    END IF;
    RETURN CASE WHEN d <= pg_catalog.array_ndims(a) THEN 1 END;
END $$;
"""

SQL = f"""
CREATE OR REPLACE FUNCTION {F}.array_min(anyarray) RETURNS anyelement LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT x FROM pg_catalog.unnest({F}.rw_flat($1, 'array_min')) AS u(x)
    WHERE x IS NOT NULL ORDER BY x LIMIT 1 $$;
CREATE OR REPLACE FUNCTION {F}.array_max(anyarray) RETURNS anyelement LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT x FROM pg_catalog.unnest({F}.rw_flat($1, 'array_max')) AS u(x)
    WHERE x IS NOT NULL ORDER BY x DESC LIMIT 1 $$;
{
    "".join(
        f'''CREATE OR REPLACE FUNCTION {F}.array_sum({t}[]) RETURNS {r} LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT pg_catalog.sum(x)
    FROM pg_catalog.unnest({F}.rw_flat($1, 'array_sum')) AS u(x) $$;
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
        SELECT x FROM pg_catalog.unnest({F}.rw_flat($1, 'array_distinct'))
        WITH ORDINALITY AS u(x, o)
        GROUP BY x ORDER BY pg_catalog.min(o)) END $$;
CREATE OR REPLACE FUNCTION {F}.array_contains(anyarray, anyarray) RETURNS boolean LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.rw_flat($1, 'array_contains') @>
    {F}.rw_flat($2, 'array_contains') $$;
CREATE OR REPLACE FUNCTION {F}.array_contained(anyarray, anyarray) RETURNS boolean LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.rw_flat($1, 'array_contained') <@
    {F}.rw_flat($2, 'array_contained') $$;
CREATE OR REPLACE FUNCTION {F}.array_overlaps(anyarray, anyarray) RETURNS boolean LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.rw_flat($1, 'array_overlaps') &&
    {F}.rw_flat($2, 'array_overlaps') $$;
CREATE OR REPLACE FUNCTION {F}.array_is_overlap(anyarray, anyarray) RETURNS boolean LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.rw_flat($1, 'array_is_overlap') &&
    {F}.rw_flat($2, 'array_is_overlap') $$;
CREATE OR REPLACE FUNCTION {F}.array_is_intersect(anyarray, anyarray) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.rw_flat($1, 'array_is_intersect') &&
    {F}.rw_flat($2, 'array_is_intersect') $$;
"""

register(LISTS_SQL)
register(SQL)
