"""RisingWave-only scalar functions.

- ``int8recv(bytea)``: a big-endian int8 of exactly 8 bytes (src/expr/impl/src/scalar/
  cast.rs pgwire_recv: ``i64::from_be_bytes``, whose slice error reads ``could not convert
  slice to array``); ``int8send`` is PostgreSQL's own.
- ``gap_fill_add_float4/8(v, step, k)``: ``v`` plus ``step`` added ``k`` times in the type's
  own precision, as the gap-fill executor interpolates (src/common/src/gap_fill.rs
  apply_interpolation_step; plan/gapfill);
- ``regexp_matches(s, pattern [, flags])``: every match, with or without ``g``
  (src/expr/impl/src/table_function/regexp_matches.rs iterates ``captures_iter``), where
  PostgreSQL's returns the first match only unless ``g`` is given; a flag but ``c``, ``i``,
  ``g`` is refused (scalar/regexp.rs:115-134).
- ``jsonb_each(jsonb)`` / ``jsonb_each_text(jsonb)``: a value that is not an object is
  ``cannot deconstruct a jsonb <type>`` (src/expr/impl/src/table_function/jsonb.rs:41-55 over
  JsonbRef::object_key_values, src/common/src/types/jsonb.rs:399-407, whose type names are
  jsonb_typeof's), where PostgreSQL says ``cannot call jsonb_each on a non-object``.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, register

_BAD_OPTION = raise_expr("'invalid regular expression option: \"' || bad || '\"'")

SQL = f"""
CREATE OR REPLACE FUNCTION {F}.int8recv(bytea) RETURNS int8 LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
BEGIN
    IF pg_catalog.length($1) <> 8 THEN
        {raise_expr("'Parse error: could not convert slice to array'")}
    END IF;
    RETURN ('x' || pg_catalog.encode($1, 'hex'))::bit(64)::int8;
END $$;
CREATE OR REPLACE FUNCTION {F}.gap_fill_add_float8(v float8, step float8, k int4)
    RETURNS float8 LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    FOR i IN 1..k LOOP
        v := v + step;
    END LOOP;
    RETURN v;
END $$;
CREATE OR REPLACE FUNCTION {F}.gap_fill_add_float4(v float4, step float4, k int4)
    RETURNS float4 LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    FOR i IN 1..k LOOP
        v := v + step;
    END LOOP;
    RETURN v;
END $$;
CREATE OR REPLACE FUNCTION {F}.regexp_matches(text, text) RETURNS SETOF text[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT pg_catalog.regexp_matches($1, $2, 'g') $$;
CREATE OR REPLACE FUNCTION {F}.regexp_matches(text, text, text) RETURNS SETOF text[]
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    bad text := pg_catalog.substring($3, '[^cig]');
BEGIN
    IF bad IS NOT NULL THEN
        {_BAD_OPTION}
    END IF;
    RETURN QUERY SELECT pg_catalog.regexp_matches($1, $2, $3 || 'g');
END $$;
CREATE OR REPLACE FUNCTION {F}.jsonb_object_or_error(j jsonb) RETURNS jsonb LANGUAGE plpgsql
    IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF j IS NOT NULL AND pg_catalog.jsonb_typeof(j) <> 'object' THEN
        {raise_expr("'cannot deconstruct a jsonb ' || pg_catalog.jsonb_typeof(j)")}
    END IF;
    RETURN j;
END $$;
CREATE OR REPLACE FUNCTION {F}.jsonb_each(j jsonb, OUT key text, OUT value jsonb)
    RETURNS SETOF record LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT * FROM pg_catalog.jsonb_each({F}.jsonb_object_or_error(j)) $$;
CREATE OR REPLACE FUNCTION {F}.jsonb_each_text(j jsonb, OUT key text, OUT value text)
    RETURNS SETOF record LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT * FROM pg_catalog.jsonb_each_text({F}.jsonb_object_or_error(j)) $$;
"""

register(SQL)
