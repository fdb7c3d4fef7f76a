"""RisingWave's ``to_jsonb`` (src/expr/impl/src/scalar/to_jsonb.rs) where PostgreSQL's differs:

- it is not strict: a NULL argument is the jsonb ``null`` (``to_jsonb(input: Option<_>)``,
  to_jsonb.rs:27-35 and the ``None => builder.add_null()`` arm, :44-53);
- ``real``, ``double precision`` and ``numeric`` become an f64 JSON number (to_jsonb.rs:114-151:
  ``builder.add_f64``, a decimal through ``F64::try_from``; non-finite values are the strings
  ``"Infinity"``, ``"-Infinity"``, ``"NaN"``).  PostgreSQL's jsonb keeps a numeric, so the
  value is stored as the shortest decimal of the f64 with at least one fractional digit, which
  marks it as a float for the rendering (dataplane/values.py renders every non-integer jsonb
  number as RisingWave prints an f64);
- ``timestamptz`` is RFC 3339 in UTC (``to_datetime_utc().to_rfc3339()``, :203-209: ``+00:00``,
  fractional seconds in 3 or 6 digits or none, chrono's AutoSi), ``timestamp`` is
  ``{date}T{time}`` (:193-198, chrono's NaiveTime: fractions in 3 or 6 digits) where
  PostgreSQL writes the session's offset and trims trailing zeros.

- a struct (a composite) is an object of its fields, each its own to_jsonb (``StructRef``,
  to_jsonb.rs:78), a list of one level an array of its elements' (``ListRef``), taken apart
  here with dynamic SQL (a field's or an element's type is known only when it runs); a row
  constructor is taken apart by the rewriter (dataplane/plan/structs.py).

A map (a composite of two arrays: dataplane/plan/maptype.py) or a list of maps goes to its
type's ``map_to_jsonb`` first (before the struct case, which would take the composite apart);
a map PostgreSQL's own ``to_jsonb`` still meets inside something else comes out as the two
arrays, which ``json_maps`` makes the object of its entries that RisingWave's is (to_jsonb.rs:
a map is an object, its keys as strings).

``rwfn.to_jsonb(anyelement)`` shadows PostgreSQL's own (same signature, rwfn first) and
dispatches on the argument's type itself, in PL/pgSQL (an SQL function's dead branches would
be constant-folded, casting a text constant to float8): typed overloads would draw integer
arguments to ``float8`` (PostgreSQL's preferred numeric type) through implicit casts.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, raise_rw, register

# the fraction of microseconds ``us`` as chrono prints it: none, 3 digits or 6.  The functions
# run with pg_catalog's operators only: rwfn's own overloads (first in a data session's
# search_path) make ``bigint % integer`` ambiguous
_FRACTION = """CASE WHEN us = 0 THEN ''
        WHEN us % 1000 = 0 THEN '.' || pg_catalog.lpad((us / 1000)::text, 3, '0')
        ELSE '.' || pg_catalog.lpad(us::text, 6, '0') END"""

SQL = f"""
CREATE OR REPLACE FUNCTION {F}.float8_jsonb(x float8) RETURNS jsonb LANGUAGE sql IMMUTABLE
    STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
    SELECT CASE WHEN x = 'Infinity'::float8 THEN '"Infinity"'::jsonb
        WHEN x = '-Infinity'::float8 THEN '"-Infinity"'::jsonb
        WHEN x = 'NaN'::float8 THEN '"NaN"'::jsonb
        WHEN pg_catalog.scale(x::text::numeric) = 0 THEN (x::text::numeric::text || '.0')::jsonb
        ELSE x::text::numeric::text::jsonb END $$;
CREATE OR REPLACE FUNCTION {F}.timestamp_jsonb(x timestamp) RETURNS jsonb LANGUAGE sql
    IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
    SELECT pg_catalog.to_jsonb(pg_catalog.to_char(x, 'YYYY-MM-DD"T"HH24:MI:SS') || {_FRACTION})
    FROM (SELECT pg_catalog.date_part('microseconds', x)::int8 % 1000000 AS us) s $$;
CREATE OR REPLACE FUNCTION {F}.json_maps(j jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
    PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
SELECT CASE pg_catalog.jsonb_typeof(j)
    WHEN 'object' THEN CASE
        WHEN j ? 'map$keys' AND j ? 'map$values'
            AND (SELECT pg_catalog.count(*) FROM pg_catalog.jsonb_object_keys(j)) = 2
        THEN (SELECT coalesce(pg_catalog.jsonb_object_agg(j -> 'map$keys' ->> i,
                                                          {F}.json_maps(j -> 'map$values' -> i)),
                              '{{}}')
              FROM pg_catalog.generate_series(0, pg_catalog.jsonb_array_length(j -> 'map$keys') - 1)
                  AS i)
        ELSE (SELECT coalesce(pg_catalog.jsonb_object_agg(key, {F}.json_maps(value)), '{{}}')
              FROM pg_catalog.jsonb_each(j)) END
    WHEN 'array' THEN (SELECT coalesce(pg_catalog.jsonb_agg({F}.json_maps(value) ORDER BY o), '[]')
                       FROM pg_catalog.jsonb_array_elements(j) WITH ORDINALITY AS e(value, o))
    ELSE j END $$;
CREATE OR REPLACE FUNCTION {F}.to_jsonb(x anyelement) RETURNS jsonb LANGUAGE plpgsql STABLE
    PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    t regtype := pg_catalog.pg_typeof(x);
    j jsonb;
BEGIN
    IF pg_catalog.num_nulls(x) = 1 THEN
        RETURN 'null'::jsonb;
    ELSIF t = 'float8'::regtype OR t = 'numeric'::regtype THEN
        RETURN {F}.float8_jsonb(x::text::float8);
    ELSIF t = 'float4'::regtype THEN
        RETURN {F}.float8_jsonb(x::text::float4::float8);
    ELSIF t = 'timestamptz'::regtype THEN
        RETURN pg_catalog.to_jsonb(({F}.timestamp_jsonb(
            x::text::timestamptz AT TIME ZONE 'UTC') #>> '{{}}') || '+00:00');
    ELSIF t = 'timestamp'::regtype THEN
        RETURN {F}.timestamp_jsonb(x::text::timestamp);
    ELSIF t::text = '{F}.variant' THEN
        -- a variant: its jsonb (to_jsonb.rs ToJsonb for VariantRef; sqlfn/variant.py)
        RETURN (x::text)::jsonb;
    ELSIF t::text LIKE '{F}.rw\\_m%' THEN
        -- a map or a list of maps: its type's own function (dataplane/plan/maptype.py)
        EXECUTE pg_catalog.format('SELECT {F}.map_to_jsonb($1::%s)', t) INTO j USING x;
        RETURN j;
    ELSIF t <> 'record'::regtype AND EXISTS (SELECT 1 FROM pg_catalog.pg_type
            WHERE oid = t AND typtype = 'c') THEN
        EXECUTE (SELECT 'SELECT pg_catalog.jsonb_build_object('
                || pg_catalog.string_agg(pg_catalog.format('%L, {F}.to_jsonb(($1).%I)',
                    a.attname, a.attname), ', ' ORDER BY a.attnum) || ')'
            FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.typrelid = a.attrelid
            WHERE ty.oid = t AND a.attnum > 0 AND NOT a.attisdropped)
            INTO j USING x;
        RETURN j;
    ELSIF EXISTS (SELECT 1 FROM pg_catalog.pg_type
            WHERE oid = t AND typcategory = 'A' AND typelem IN (
                SELECT oid FROM pg_catalog.pg_type
                WHERE typtype = 'c' OR oid IN ('float4'::regtype, 'float8'::regtype,
                    'numeric'::regtype, 'timestamp'::regtype, 'timestamptz'::regtype))) THEN
        -- (a list of lists is PostgreSQL's multidimensional array: left to its to_jsonb)
        EXECUTE 'SELECT CASE WHEN pg_catalog.array_ndims($1) = 1 THEN'
            ' (SELECT pg_catalog.jsonb_agg({F}.to_jsonb($1[i]) ORDER BY i)'
            ' FROM pg_catalog.generate_subscripts($1, 1) AS g(i)) END' INTO j USING x;
        IF j IS NOT NULL OR pg_catalog.cardinality(x::text::text[]) = 0 THEN
            RETURN COALESCE(j, '[]'::jsonb);
        END IF;
    END IF;
    j := pg_catalog.to_jsonb(x);
    -- a map inside a struct or a list: PostgreSQL's to_jsonb of its composite
    -- (dataplane/plan/maptype.py), made RisingWave's object of its entries (to_jsonb.rs)
    IF pg_catalog.strpos(j::text, '"map$keys"') > 0 THEN
        RETURN {F}.json_maps(j);
    END IF;
    RETURN j;
END $$;
"""

# jsonb_build_object's keys (src/expr/impl/src/scalar/jsonb_build.rs:96-105): a list, struct or
# jsonb is refused; a boolean is `true` / `false`; any other scalar is its ToText, which the
# data database's casts to varchar give (sqlfn/totext.py: timestamps as RisingWave prints
# them; floats by sqlfn/floattext.py's ryu layout), where PostgreSQL would take a timestamp's
# JSON form and its own float text.
_NOT_SCALAR = "'Invalid parameter args: key value must be scalar, not array, composite, or json'"
KEYS_SQL = f"""
CREATE OR REPLACE FUNCTION {F}.jsonb_key(x anyelement) RETURNS text LANGUAGE plpgsql STABLE
    PARALLEL SAFE AS $$
DECLARE
    t regtype := pg_catalog.pg_typeof(x);
BEGIN
    IF t::text LIKE '{F}.rw\\_m%' THEN
        {raise_rw("'not supported by rwshim: a map as a jsonb_build_object key'")}
    END IF;
    IF t IN ('json'::regtype, 'jsonb'::regtype, 'record'::regtype)
            OR EXISTS (SELECT 1 FROM pg_catalog.pg_type
                WHERE oid = t AND (typtype = 'c' OR typcategory = 'A')) THEN
        {raise_expr(_NOT_SCALAR)}
    END IF;
    IF t = 'float8'::regtype THEN
        RETURN {F}.rw_text(x::text::float8);  -- sqlfn/floattext.py
    ELSIF t = 'float4'::regtype THEN
        RETURN {F}.rw_text(x::text::float4);
    END IF;
    RETURN x::varchar;
END $$;
-- a string (and an untyped literal, which PostgreSQL resolves to the string overload)
CREATE OR REPLACE FUNCTION {F}.jsonb_key(x text) RETURNS text LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT x $$;
"""

register(SQL)
register(KEYS_SQL)
