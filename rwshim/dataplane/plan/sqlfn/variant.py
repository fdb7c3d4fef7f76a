"""RisingWave's ``variant`` (head only: src/common/src/types/variant.rs, src/expr/impl/src/
scalar/variant.rs, cast.rs ``cast(varchar|jsonb) -> variant`` / ``cast(variant) -> jsonb|
varchar``, to_jsonb.rs) on PostgreSQL.

RisingWave stores a Parquet Variant (a typed tree: null, boolean, int8..int64, double,
decimal16, string, binary, date, time, timestamp_micros, timestamp_ntz_micros, array, object
with fields sorted by name).  Here a value is the composite ``rwfn.variant`` of two fields:

- ``txt``: RisingWave's text of it (ToText, variant.rs:151-165: parquet-variant-json's
  ``to_json_string``, or serde_json's rendering of the lossy value when a double is not
  finite), computed once when the value is made, so a result column, ``::varchar`` and
  ``::jsonb`` read it as it is;
- ``tree``: the typed tree as ``json`` (its text kept as made): every node is ``[tag,
  payload]`` with the tag ``variant_typeof`` answers (variant.rs:350-375); a double's and a
  decimal's payload is its text, an object's a list of ``[name, node]`` sorted by the names'
  bytes (the variant's field order), the string-like leaves' the text they render as.

``json`` has no equality: PostgreSQL finds none for the composite either, so a GROUP BY,
DISTINCT, ORDER BY or set operation over a variant fails while it plans, as RisingWave refuses
them (optimizer/variant_key.rs): the backstop behind the binder's check, which gives
RisingWave's text first (binder/variant_keys.py, dataplane/session.py).  The
comment ``variant`` is how a result column of the type is known (dataplane/typecat.py); the
type's own name is RisingWave's (``rwfn`` is first in a data session's search_path), so
``x::variant`` needs no splice and an unaliased cast's column is named ``variant``
(binder/select.rs data_type_to_alias), a string literal or a parameter cast to it taking the
text cast (dataplane/plan/rewrite.py).

``'...'::variant`` parses JSON as serde_json does for ``VariantVal::from_str``: an integer
literal that fits i64 is int64, any other number a double, the last of duplicate keys wins
(variant.rs:177-229, append_json_value).  ``to_variant`` keeps the SQL type where Variant V1
has one (append_datum_value, variant.rs:651-724): smallint int16, integer int32, bigint int64,
real and double precision double (NaN one value, -0 as 0), numeric decimal16 normalised (its
NaN and infinities as strings), varchar string, bytea binary (base64 text), date, time,
timestamp timestamp_ntz_micros, timestamptz timestamp_micros (RFC 3339 in UTC); interval,
rw_int256 and vector as their text; lists, structs (fields by name) and maps (keys as text) as
arrays and objects.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, once, raise_expr, register

T = f"{F}.variant"

# a double's text (float8out, shortest round trip) as serde_json (ryu) prints an f64: the
# lossy rendering of a value holding a non-finite double (variant.rs:849-885)
_RYU = f"""
CREATE OR REPLACE FUNCTION {F}.variant_ryu(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE
    STRICT PARALLEL SAFE AS $$
DECLARE
    m text[];
    neg text;
    alld text;
    digits text;
    point int;
    n int;
BEGIN
    -- float8out: [-]d[.ddd][e[+-]xx]; the point sits after ``point`` of the digits
    m := pg_catalog.regexp_match(t, '^(-?)(\\d+)(?:\\.(\\d+))?(?:e([+-]\\d+))?$');
    IF m IS NULL THEN RETURN t; END IF;
    neg := m[1];
    alld := m[2] || coalesce(m[3], '');
    digits := pg_catalog.ltrim(alld, '0');
    point := pg_catalog.length(m[2]) + coalesce(m[4]::int, 0)
        - (pg_catalog.length(alld) - pg_catalog.length(digits));
    IF digits = '' THEN RETURN neg || '0.0'; END IF;
    digits := pg_catalog.rtrim(digits, '0');
    n := pg_catalog.length(digits);
    IF point >= n AND point <= 16 THEN
        RETURN neg || digits || pg_catalog.repeat('0', point - n) || '.0';
    ELSIF point > 0 AND point <= 16 THEN
        RETURN neg || pg_catalog.substr(digits, 1, point) || '.'
            || pg_catalog.substr(digits, point + 1);
    ELSIF point > -5 AND point <= 0 THEN
        RETURN neg || '0.' || pg_catalog.repeat('0', -point) || digits;
    ELSIF n = 1 THEN
        RETURN neg || digits || 'e' || (point - 1);
    ELSE
        RETURN neg || pg_catalog.substr(digits, 1, 1) || '.' || pg_catalog.substr(digits, 2)
            || 'e' || (point - 1);
    END IF;
END $$;
"""

_RENDER = f"""
CREATE OR REPLACE FUNCTION {F}.variant_render(n jsonb, lossy boolean) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    tag text := n ->> 0;
    p jsonb := n -> 1;
    s text;
BEGIN
    CASE tag
    WHEN 'null' THEN RETURN 'null';
    WHEN 'boolean', 'int8', 'int16', 'int32', 'int64' THEN RETURN p::text;
    WHEN 'double' THEN
        s := p #>> '{{}}';
        IF s IN ('NaN', 'Infinity', '-Infinity') THEN RETURN pg_catalog.to_json(s)::text; END IF;
        IF lossy THEN RETURN {F}.variant_ryu(s); END IF;
        -- Rust's Display of an f64: every digit, no exponent
        RETURN s::numeric::text;
    WHEN 'decimal16' THEN
        s := p #>> '{{}}';
        IF lossy AND s LIKE '%.%' THEN RETURN {F}.variant_ryu(s::float8::text); END IF;
        RETURN s;
    WHEN 'array' THEN
        RETURN '[' || coalesce((SELECT pg_catalog.string_agg({F}.variant_render(e, lossy), ','
            ORDER BY o) FROM pg_catalog.jsonb_array_elements(p) WITH ORDINALITY AS x(e, o)), '')
            || ']';
    WHEN 'object' THEN
        RETURN '{{' || coalesce((SELECT pg_catalog.string_agg(
            pg_catalog.to_json(e ->> 0)::text || ':' || {F}.variant_render(e -> 1, lossy), ','
            ORDER BY o) FROM pg_catalog.jsonb_array_elements(p) WITH ORDINALITY AS x(e, o)), '')
            || '}}';
    ELSE
        -- string, binary, date, time, timestamp_*: their JSON string
        RETURN pg_catalog.to_json(p #>> '{{}}')::text;
    END CASE;
END $$;

-- a value from its tree: its text (lossy when a double is not finite: variant.rs:151-165)
CREATE OR REPLACE FUNCTION {F}.variant_of(n jsonb) RETURNS {T} LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $$
    SELECT ROW({F}.variant_render(n, n::text ~ '"double", "(NaN|-?Infinity)"'), n::json)::{T}
$$;
"""

# serde_json's parse of JSON text into a tree (append_json_value, variant.rs:609-649)
_FROM_JSON = f"""
CREATE OR REPLACE FUNCTION {F}.variant_json_node(j json) RETURNS jsonb LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE SET extra_float_digits = 1 AS $$
DECLARE
    s text;
    d float8;
BEGIN
    CASE pg_catalog.json_typeof(j)
    WHEN 'null' THEN RETURN '["null", null]';
    WHEN 'boolean' THEN RETURN pg_catalog.jsonb_build_array('boolean', j::text::boolean);
    WHEN 'string' THEN RETURN pg_catalog.jsonb_build_array('string', j #>> '{{}}');
    WHEN 'number' THEN
        s := j::text;
        IF s ~ '^-?\\d+$' AND s::numeric BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
            RETURN pg_catalog.jsonb_build_array('int64', s::int8);
        ELSIF s ~ '^\\d+$' AND s::numeric <= 18446744073709551615 THEN
            RETURN pg_catalog.jsonb_build_array('decimal16', s);
        END IF;
        d := s::float8;
        IF d = 0 THEN d := 0; END IF;
        RETURN pg_catalog.jsonb_build_array('double', d::text);
    WHEN 'array' THEN
        RETURN pg_catalog.jsonb_build_array('array', coalesce((SELECT pg_catalog.jsonb_agg(
            {F}.variant_json_node(e) ORDER BY o)
            FROM pg_catalog.json_array_elements(j) WITH ORDINALITY AS x(e, o)), '[]'));
    ELSE
        -- the last of duplicate names wins (serde_json's Map::insert)
        RETURN pg_catalog.jsonb_build_array('object', coalesce((SELECT pg_catalog.jsonb_agg(
            pg_catalog.jsonb_build_array(k, {F}.variant_json_node(v)) ORDER BY k COLLATE "C")
            FROM (SELECT DISTINCT ON (k) k, v FROM pg_catalog.json_each(j)
                  WITH ORDINALITY AS x(k, v, o) ORDER BY k, o DESC) y), '[]'));
    END CASE;
END $$;

CREATE OR REPLACE FUNCTION {F}.variant_in(s text) RETURNS {T} LANGUAGE plpgsql IMMUTABLE
    STRICT PARALLEL SAFE AS $$
DECLARE
    j json;
BEGIN
    BEGIN
        j := pg_catalog.btrim(s, E' \\t\\n\\r')::json;
    EXCEPTION WHEN invalid_text_representation THEN
        RAISE EXCEPTION USING ERRCODE = 'RWERR', MESSAGE = 'not supported by rwshim: the text'
            ' of serde_json''s error for variant input that is not JSON';
    END;
    RETURN {F}.variant_of({F}.variant_json_node(j));
END $$;
CREATE OR REPLACE FUNCTION {F}.variant_in(s varchar) RETURNS {T} LANGUAGE sql IMMUTABLE
    STRICT PARALLEL SAFE AS $$ SELECT {F}.variant_in(s::text) $$;
CREATE OR REPLACE FUNCTION {F}.variant_from_jsonb(j jsonb) RETURNS {T} LANGUAGE sql IMMUTABLE
    STRICT PARALLEL SAFE AS $$ SELECT {F}.variant_of({F}.variant_json_node(j::text::json)) $$;
CREATE OR REPLACE FUNCTION {F}.variant_text(v {T}) RETURNS text LANGUAGE sql IMMUTABLE STRICT
    PARALLEL SAFE AS $$ SELECT (v).txt $$;
CREATE OR REPLACE FUNCTION {F}.variant_varchar(v {T}) RETURNS varchar LANGUAGE sql IMMUTABLE
    STRICT PARALLEL SAFE AS $$ SELECT (v).txt $$;
-- cast(variant) -> jsonb (cast.rs; VariantRef::to_jsonb: the lossy value, whose text is txt)
CREATE OR REPLACE FUNCTION {F}.variant_jsonb(v {T}) RETURNS jsonb LANGUAGE sql IMMUTABLE
    STRICT PARALLEL SAFE AS $$ SELECT (v).txt::jsonb $$;
"""

# to_variant(any) (append_datum_value, variant.rs:651-724)
_TO_VARIANT = f"""
CREATE OR REPLACE FUNCTION {F}.variant_shape(flat jsonb, dims int[]) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    chunk int := 1;
    out jsonb := '[]';
    i int;
BEGIN
    IF pg_catalog.array_length(dims, 1) = 1 THEN
        RETURN pg_catalog.jsonb_build_array('array', flat);
    END IF;
    FOR i IN 2 .. pg_catalog.array_length(dims, 1) LOOP chunk := chunk * dims[i]; END LOOP;
    FOR i IN 0 .. dims[1] - 1 LOOP
        out := out || pg_catalog.jsonb_build_array({F}.variant_shape(
            pg_catalog.jsonb_path_query_array(flat,
                ('$[' || i * chunk || ' to ' || (i + 1) * chunk - 1 || ']')::jsonpath),
            dims[2:]));
    END LOOP;
    RETURN pg_catalog.jsonb_build_array('array', out);
END $$;

CREATE OR REPLACE FUNCTION {F}.variant_node(x anyelement) RETURNS jsonb LANGUAGE plpgsql
    IMMUTABLE PARALLEL SAFE SET extra_float_digits = 1 AS $$
DECLARE
    t oid := pg_catalog.pg_typeof(x)::oid;
    typ record;
    d float8;
    n numeric;
    us int;
    s text;
    out jsonb := '[]';
    f record;
    node jsonb;
    keys text[];
    dims int[];
BEGIN
    IF pg_catalog.num_nulls(x) = 1 THEN RETURN '["null", null]'; END IF;
    CASE t
    WHEN 'bool'::regtype THEN RETURN pg_catalog.jsonb_build_array('boolean', x);
    WHEN 'int2'::regtype THEN RETURN pg_catalog.jsonb_build_array('int16', x);
    WHEN 'int4'::regtype THEN RETURN pg_catalog.jsonb_build_array('int32', x);
    WHEN 'int8'::regtype THEN RETURN pg_catalog.jsonb_build_array('int64', x);
    WHEN 'float4'::regtype, 'float8'::regtype THEN
        d := x::float8;
        IF d = 0 THEN d := 0; END IF;  -- -0 is 0 (normalize_double)
        RETURN pg_catalog.jsonb_build_array('double', d::text);
    WHEN 'numeric'::regtype THEN
        n := x::numeric;
        IF n = 'NaN' OR n = 'Infinity' OR n = '-Infinity' THEN
            RETURN pg_catalog.jsonb_build_array('string', n::text);
        END IF;
        RETURN pg_catalog.jsonb_build_array('decimal16', pg_catalog.trim_scale(n)::text);
    WHEN 'varchar'::regtype, 'text'::regtype, 'bpchar'::regtype, 'name'::regtype THEN
        RETURN pg_catalog.jsonb_build_array('string', x::text);
    WHEN 'bytea'::regtype THEN
        RETURN pg_catalog.jsonb_build_array('binary',
            pg_catalog.translate(pg_catalog.encode(x::text::bytea, 'base64'), E'\\n', ''));
    WHEN 'date'::regtype THEN
        RETURN pg_catalog.jsonb_build_array('date',
            pg_catalog.to_char(x::text::date, 'YYYY-MM-DD'));
    WHEN 'time'::regtype THEN
        us := extract(microseconds FROM x::text::time)::int % 1000000;
        s := pg_catalog.rtrim(pg_catalog.lpad(us::text, 6, '0'), '0');
        RETURN pg_catalog.jsonb_build_array('time',
            pg_catalog.to_char(x::text::time, 'HH24:MI:SS') || '.'
            || CASE WHEN s = '' THEN '0' ELSE s END);
    WHEN 'timestamp'::regtype THEN
        RETURN pg_catalog.jsonb_build_array('timestamp_ntz_micros',
            pg_catalog.to_char(x::text::timestamp, 'YYYY-MM-DD"T"HH24:MI:SS.US'));
    WHEN 'timestamptz'::regtype THEN
        -- chrono's to_rfc3339 of the UTC time: 3, 6 or 9 fraction digits as needed
        us := extract(microseconds FROM x::text::timestamptz)::int % 1000000;
        s := CASE WHEN us = 0 THEN ''
                  WHEN us % 1000 = 0 THEN '.' || pg_catalog.lpad((us / 1000)::text, 3, '0')
                  ELSE '.' || pg_catalog.lpad(us::text, 6, '0') END;
        RETURN pg_catalog.jsonb_build_array('timestamp_micros',
            pg_catalog.to_char(x::text::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
            || s || '+00:00');
    WHEN 'jsonb'::regtype THEN
        RETURN {F}.variant_json_node(x::text::json);
    WHEN 'interval'::regtype THEN
        RETURN pg_catalog.jsonb_build_array('string', x::text);
    ELSE
        NULL;
    END CASE;
    SELECT pt.typtype, pt.typelem, pt.typcategory, pt.typrelid, pt.typbasetype,
           pg_catalog.obj_description(pt.oid, 'pg_type') AS comment, pt.typname
        INTO typ FROM pg_catalog.pg_type pt WHERE pt.oid = t;
    IF typ.typname = 'variant' AND typ.comment = 'variant' THEN
        RETURN (x::{T}).tree::jsonb;
    END IF;
    IF typ.typtype = 'd' OR typ.typname = 'vector' THEN
        -- rw_int256, vector: their text (to_jsonb's form)
        RETURN pg_catalog.jsonb_build_array('string', x::text);
    END IF;
    IF typ.typcategory = 'A' THEN
        -- (``unnest(...) AS e``: e is the element, a composite one whole, as WITH
        -- ORDINALITY would not keep it; a function scan yields its rows in order)
        EXECUTE 'SELECT coalesce(pg_catalog.jsonb_agg({F}.variant_node(e) ORDER BY o), ''[]'')'
            ' FROM (SELECT e, pg_catalog.row_number() OVER () AS o'
            ' FROM pg_catalog.unnest($1) AS e) AS u' INTO out USING x;
        EXECUTE 'SELECT array_agg(pg_catalog.array_length($1, d) ORDER BY d) FROM'
            ' generate_series(1, coalesce(pg_catalog.array_ndims($1), 1)) AS d' INTO dims USING x;
        IF dims[1] IS NULL THEN RETURN '["array", []]'; END IF;
        RETURN {F}.variant_shape(out, dims);
    END IF;
    IF typ.typtype = 'c' AND typ.comment LIKE 'map(%' THEN
        EXECUTE 'SELECT coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_array(k::text,'
            ' {F}.variant_node(v)) ORDER BY k::text COLLATE "C"), ''[]'') FROM'
            ' unnest(($1)."map$keys", ($1)."map$values") AS u(k, v)' INTO out USING x;
        RETURN pg_catalog.jsonb_build_array('object', out);
    END IF;
    IF t = 'record'::regtype THEN
        RAISE EXCEPTION USING ERRCODE = 'RWERR', MESSAGE = 'not supported by rwshim: to_variant'
            ' of a ROW(...) without a struct type (cast it to one)';
    END IF;
    IF typ.typtype = 'c' THEN
        -- a struct: its fields by name (append_struct)
        FOR f IN SELECT a.attname::text AS name FROM pg_catalog.pg_attribute a
                 WHERE a.attrelid = typ.typrelid AND a.attnum > 0 AND NOT a.attisdropped
                 ORDER BY a.attname::text COLLATE "C" LOOP
            EXECUTE pg_catalog.format('SELECT {F}.variant_node(($1).%I)', f.name) INTO node USING x;
            out := out || pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_array(f.name, node));
        END LOOP;
        RETURN pg_catalog.jsonb_build_array('object', out);
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'RWERR', MESSAGE = 'not supported by rwshim: to_variant of '
        || pg_catalog.format_type(t, NULL);
END $$;

CREATE OR REPLACE FUNCTION {F}.to_variant(x anyelement) RETURNS {T} LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT {F}.variant_of({F}.variant_node(x)) $$;
-- an untyped literal or NULL is a varchar to RisingWave (a string, or the variant null);
-- PostgreSQL cannot give anyelement a type from it
CREATE OR REPLACE FUNCTION {F}.variant_node(x text) RETURNS jsonb LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$
    SELECT CASE WHEN x IS NULL THEN '["null", null]'::jsonb
                ELSE pg_catalog.jsonb_build_array('string', x) END $$;
CREATE OR REPLACE FUNCTION {F}.to_variant(x text) RETURNS {T} LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT {F}.variant_of({F}.variant_node(x)) $$;
-- an anonymous ROW(...)'s object from its [name, node] fields (dataplane/plan/structs.py)
CREATE OR REPLACE FUNCTION {F}.variant_object(fields jsonb) RETURNS {T} LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$
    SELECT {F}.variant_of(pg_catalog.jsonb_build_array('object', coalesce((SELECT
        pg_catalog.jsonb_agg(e ORDER BY (e ->> 0) COLLATE "C")
        FROM pg_catalog.jsonb_array_elements(fields) AS x(e)), '[]')))
$$;
"""

# variant_get / try_variant_get / variant_typeof (scalar/variant.rs; parse_path and
# access_path_strict, variant.rs:377-408, 907-976)
_ACCESS = f"""
CREATE OR REPLACE FUNCTION {F}.variant_path(path text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE
    STRICT PARALLEL SAFE AS $$
DECLARE
    p text := CASE WHEN pg_catalog.left(path, 1) = '$' THEN pg_catalog.substr(path, 2)
                   ELSE path END;
    i int := 1;
    len int := pg_catalog.length(p);
    c text;
    q text;
    tok text;
    toks jsonb := '[]';
    closed boolean;
    bad text := 'Invalid parameter variant_get: invalid variant path `' || path || '`';
BEGIN
    WHILE i <= len LOOP
        c := pg_catalog.substr(p, i, 1);
        i := i + 1;
        IF c = '.' THEN
            tok := '';
            WHILE i <= len AND pg_catalog.substr(p, i, 1) NOT IN ('.', '[') LOOP
                tok := tok || pg_catalog.substr(p, i, 1); i := i + 1;
            END LOOP;
            IF tok = '' THEN {raise_expr("bad")} END IF;
            toks := toks || pg_catalog.jsonb_build_array(tok);
        ELSIF c = '[' THEN
            IF pg_catalog.substr(p, i, 1) IN ('''', '"') THEN
                q := pg_catalog.substr(p, i, 1); i := i + 1;
                tok := ''; closed := false;
                WHILE i <= len LOOP
                    c := pg_catalog.substr(p, i, 1); i := i + 1;
                    IF c = q THEN closed := true; EXIT; END IF;
                    tok := tok || c;
                END LOOP;
                IF NOT closed OR pg_catalog.substr(p, i, 1) <> ']' THEN {raise_expr("bad")} END IF;
                i := i + 1;
                toks := toks || pg_catalog.jsonb_build_array(tok);
            ELSE
                tok := '';
                WHILE i <= len AND pg_catalog.substr(p, i, 1) <> ']' LOOP
                    tok := tok || pg_catalog.substr(p, i, 1); i := i + 1;
                END LOOP;
                IF i > len THEN {raise_expr("bad")} END IF;
                i := i + 1;
                -- an i32 (Rust's parse: an optional sign and digits)
                IF tok !~ '^[+-]?\\d+$' OR tok::numeric NOT BETWEEN -2147483648 AND 2147483647 THEN
                    {raise_expr("bad")}
                END IF;
                toks := toks || pg_catalog.jsonb_build_array(tok::int);
            END IF;
        ELSIF pg_catalog.jsonb_array_length(toks) = 0 THEN
            tok := c;
            WHILE i <= len AND pg_catalog.substr(p, i, 1) NOT IN ('.', '[') LOOP
                tok := tok || pg_catalog.substr(p, i, 1); i := i + 1;
            END LOOP;
            toks := toks || pg_catalog.jsonb_build_array(tok);
        ELSE
            {raise_expr("bad")}
        END IF;
    END LOOP;
    RETURN toks;
END $$;

CREATE OR REPLACE FUNCTION {F}.variant_get(v {T}, path text) RETURNS {T} LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    n jsonb := (v).tree::jsonb;
    tok jsonb;
    k int;
BEGIN
    FOR tok IN SELECT e FROM pg_catalog.jsonb_array_elements({F}.variant_path(path))
               WITH ORDINALITY AS x(e, o) ORDER BY o LOOP
        IF pg_catalog.jsonb_typeof(tok) = 'string' THEN
            IF n ->> 0 <> 'object' THEN RETURN NULL; END IF;
            SELECT e -> 1 INTO n FROM pg_catalog.jsonb_array_elements(n -> 1) AS x(e)
                WHERE e ->> 0 = tok #>> '{{}}';
            IF n IS NULL THEN RETURN NULL; END IF;
        ELSE
            IF n ->> 0 <> 'array' THEN RETURN NULL; END IF;
            k := tok::text::int;
            IF k < 0 THEN k := pg_catalog.jsonb_array_length(n -> 1) + k; END IF;
            IF k < 0 OR k >= pg_catalog.jsonb_array_length(n -> 1) THEN RETURN NULL; END IF;
            n := n -> 1 -> k;
        END IF;
    END LOOP;
    RETURN {F}.variant_of(n);
END $$;
CREATE OR REPLACE FUNCTION {F}.try_variant_get(v {T}, path text) RETURNS {T} LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    RETURN {F}.variant_get(v, path);
EXCEPTION WHEN SQLSTATE 'RWEXP' THEN
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION {F}.variant_typeof(v {T}) RETURNS varchar LANGUAGE sql IMMUTABLE
    STRICT PARALLEL SAFE AS $$ SELECT ((v).tree::jsonb ->> 0)::varchar $$;

"""

# cast_ok_base (frontend type_inference/cast.rs): varchar -> variant and jsonb <-> variant
# explicit, variant -> varchar in assignment
_CASTS = "".join(
    once(s)
    for s in (
        f"CREATE CAST (text AS {T}) WITH FUNCTION {F}.variant_in(text)",
        f"CREATE CAST (varchar AS {T}) WITH FUNCTION {F}.variant_in(varchar)",
        f"CREATE CAST (jsonb AS {T}) WITH FUNCTION {F}.variant_from_jsonb(jsonb)",
        f"CREATE CAST ({T} AS jsonb) WITH FUNCTION {F}.variant_jsonb({T})",
        f"CREATE CAST ({T} AS text) WITH FUNCTION {F}.variant_text({T}) AS ASSIGNMENT",
        f"CREATE CAST ({T} AS varchar) WITH FUNCTION {F}.variant_varchar({T}) AS ASSIGNMENT",
    )
)

SQL = (
    once(f"CREATE TYPE {T} AS (txt text, tree json)")
    + f"COMMENT ON TYPE {T} IS 'variant';\n"
    + _RYU
    + _RENDER
    + _FROM_JSON
    + _TO_VARIANT
    + _ACCESS
    + _CASTS
)

register(SQL)
