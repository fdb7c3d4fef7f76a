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
- ``get_bit`` / ``set_bit`` / ``get_byte`` / ``set_byte`` with RisingWave's checks and texts
  (src/expr/impl/src/scalar/bytea_bits.rs:27-136: ``Invalid parameter <fn>: index <n> out of
  valid range, 0..<max>``, ``value <v> is invalid, new bit must be 0 or 1``); the bits are
  PostgreSQL's (bit ``n % 8`` of byte ``n / 8``, a new byte's low 8 bits).
- ``gen_random_uuid()`` is a varchar (src/expr/impl/src/scalar/random.rs:28), PostgreSQL's a
  ``uuid`` (which ``~`` does not take).
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, register

_BAD_OPTION = raise_expr("'invalid regular expression option: \"' || bad || '\"'")


def _index_check(fn: str, size: str) -> str:
    text = f"'Invalid parameter {fn}: index ' || n || ' out of valid range, 0..' || ({size} - 1)"
    return f"""
    IF n < 0 OR n >= {size} THEN
        {raise_expr(text)}
    END IF;"""


_BAD_BIT = raise_expr(
    "'Invalid parameter set_bit: value ' || v || ' is invalid, new bit must be 0 or 1'"
)


def _bits(fn: str, args: str, result: str, size: str, body: str, extra: str = "") -> str:
    return f"""
CREATE OR REPLACE FUNCTION {F}.{fn}({args}) RETURNS {result} LANGUAGE plpgsql IMMUTABLE
    STRICT PARALLEL SAFE AS $$
BEGIN{_index_check(fn, size)}{extra}
    RETURN {body};
END $$;"""


_BYTEA_BITS = "".join(
    [
        _bits("get_bit", "b bytea, n int8", "int4", "pg_catalog.length(b)::int8 * 8",
              "pg_catalog.get_bit(b, n)"),
        _bits("set_bit", "b bytea, n int8, v int4", "bytea", "pg_catalog.length(b)::int8 * 8",
              "pg_catalog.set_bit(b, n, v)", f"""
    IF v <> 0 AND v <> 1 THEN
        {_BAD_BIT}
    END IF;"""),
        _bits("get_byte", "b bytea, n int4", "int4", "pg_catalog.length(b)",
              "pg_catalog.get_byte(b, n)"),
        _bits("set_byte", "b bytea, n int4, v int4", "bytea", "pg_catalog.length(b)",
              "pg_catalog.set_byte(b, n, v & 255)"),
    ]
)  # fmt: skip

SQL = f"""{_BYTEA_BITS}
CREATE OR REPLACE FUNCTION {F}.gen_random_uuid() RETURNS varchar LANGUAGE sql VOLATILE
    PARALLEL SAFE AS $$ SELECT pg_catalog.gen_random_uuid()::varchar $$;
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
