"""RisingWave's ``rw_int256`` (src/common/src/types/num256.rs, src/expr/impl/src/scalar/
int256.rs, arithmetic_op.rs) as a domain over numeric holding the integers of [-2^255,
2^255 - 1].

Arithmetic with another rw_int256 or an integer type stays rw_int256 (the binder's implicit
casts: int2/int4/int8 widen to int256), with integer division and remainder truncating toward
zero as Rust's do; an overflow is ``Numeric out of range``.  ``sum`` is rw_int256, ``avg`` and
the deviations double precision (RisingWave's aggregate signatures, src/expr/impl/src/
aggregate/general.rs).  ``hex_to_int256`` reads a 0x-prefixed hex string of up to 64 digits
as a two's-complement value (Int256::from_str_hex).

A domain over numeric is implicitly coerced from numeric, which would make ``numeric * int4``
ambiguous between PostgreSQL's operator and the (rw_int256, int4) ones: ``numeric`` with an
integer type gets exact-match operators computing what PostgreSQL's do (the integer widened to
numeric), so every such expression keeps PostgreSQL's meaning.

PostgreSQL sends a domain's base type in a row description, so a result column of this type
reaches the client as numeric; its values and ``pg_typeof`` are RisingWave's.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, once, raise_expr, register

INT256_MIN = -(2**255)
INT256_MAX = 2**255 - 1
T = f"{F}.rw_int256"
_INTS = ("int2", "int4", "int8")
# operator -> the numeric expression over $1, $2 (both numeric)
_OPS = {
    "+": "$1 OPERATOR(pg_catalog.+) $2",
    "-": "$1 OPERATOR(pg_catalog.-) $2",
    "*": "$1 OPERATOR(pg_catalog.*) $2",
    "/": "pg_catalog.div($1, $2)",
    "%": "pg_catalog.mod($1, $2)",
}
_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod"}


def _op(sym: str, left: str, right: str) -> str:
    fn = f"{F}.int256_{_NAMES[sym]}_{left.split('.')[-1]}_{right.split('.')[-1]}"
    return f"""
CREATE OR REPLACE FUNCTION {fn}(a {left}, b {right}) RETURNS {T} LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT {F}.to_int256({
        _OPS[sym].replace("$1", "a::numeric").replace("$2", "b::numeric")
    }) $$;
{once(f"CREATE OPERATOR {F}.{sym} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = {fn})")}"""


def _numeric_shim(sym: str, left: str, right: str) -> str:
    """``numeric <sym> intN`` (or the reverse) as ``numeric <sym> numeric`` computes it:
    PostgreSQL's operator, but RisingWave's decimal division for ``/`` (sqlfn/decimal_div.py:
    the integer is a decimal to RisingWave's ``divide``)."""
    fn = f"{F}.numeric_{_NAMES[sym]}_{left}_{right}"
    body = (
        f"{F}.dec_div(a::numeric, b::numeric)"
        if sym == "/"
        else f"a::numeric OPERATOR(pg_catalog.{sym}) b::numeric"
    )
    return f"""
CREATE OR REPLACE FUNCTION {fn}(a {left}, b {right}) RETURNS numeric LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT {body} $$;
{once(f"CREATE OPERATOR {F}.{sym} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = {fn})")}"""


def _float_agg(name: str, final: str) -> str:
    return f"""
CREATE OR REPLACE AGGREGATE {F}.{name}({T}) (
    SFUNC = {F}.int256_float8_accum, STYPE = float8[], FINALFUNC = pg_catalog.{final},
    INITCOND = '{{0,0,0}}'
);"""


SQL = f"""
{
    once(
        f"CREATE DOMAIN {T} AS numeric CHECK (VALUE = pg_catalog.trunc(VALUE) AND VALUE "
        f"BETWEEN {INT256_MIN} AND {INT256_MAX})"
    )
}
-- a numeric result into the domain, or RisingWave's overflow error
CREATE OR REPLACE FUNCTION {F}.to_int256(numeric) RETURNS {T} LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
BEGIN
    IF $1 < {INT256_MIN} OR $1 > {INT256_MAX} THEN
        {raise_expr("'Numeric out of range'")}
    END IF;
    RETURN $1::{T};
END $$;
{"".join(_op(s, T, T) for s in _OPS)}
{"".join(_op(s, T, i) + _op(s, i, T) for s in _OPS for i in _INTS)}
{
    "".join(
        _numeric_shim(s, "numeric", i) + _numeric_shim(s, i, "numeric") for s in _OPS for i in _INTS
    )
}
CREATE OR REPLACE FUNCTION {F}.int256_neg({T}) RETURNS {T} LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT {F}.to_int256(OPERATOR(pg_catalog.-) $1::numeric) $$;
{once(f"CREATE OPERATOR {F}.- (RIGHTARG = {T}, FUNCTION = {F}.int256_neg)")}
CREATE OR REPLACE FUNCTION {F}.abs({T}) RETURNS {T} LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT {F}.to_int256(pg_catalog.abs($1::numeric)) $$;
CREATE OR REPLACE FUNCTION {F}.int256_sum_final(numeric) RETURNS {T} LANGUAGE sql IMMUTABLE
    AS $$ SELECT {F}.to_int256($1) $$;
CREATE OR REPLACE AGGREGATE {F}.sum({T}) (
    SFUNC = pg_catalog.numeric_add, STYPE = numeric, FINALFUNC = {F}.int256_sum_final
);
CREATE OR REPLACE FUNCTION {F}.int256_float8_accum(float8[], {T}) RETURNS float8[]
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT pg_catalog.float8_accum($1, $2::float8) $$;
{_float_agg("avg", "float8_avg")}
{_float_agg("stddev_pop", "float8_stddev_pop")}
{_float_agg("stddev_samp", "float8_stddev_samp")}
{_float_agg("stddev", "float8_stddev_samp")}
{_float_agg("var_pop", "float8_var_pop")}
{_float_agg("var_samp", "float8_var_samp")}
{_float_agg("variance", "float8_var_samp")}
-- Int256::from_str_hex: "0x" and up to 64 hex digits, two's complement
CREATE OR REPLACE FUNCTION {F}.hex_to_int256(s varchar) RETURNS {T} LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
DECLARE
    digits text;
    v numeric := 0;
    i int;
BEGIN
    IF pg_catalog.lower(pg_catalog.left(s, 2)) <> '0x' THEN
        {
    raise_expr("'Parse error: failed to parse hex ''' || s || ''', invalid digit found in string'")
}
    END IF;
    digits := pg_catalog.lower(pg_catalog.substr(s, 3));
    IF digits = '' OR digits !~ '^[0-9a-f]+$' THEN
        {
    raise_expr("'Parse error: failed to parse hex ''' || s || ''', invalid digit found in string'")
}
    END IF;
    digits := pg_catalog.ltrim(digits, '0');
    IF pg_catalog.length(digits) > 64 THEN
        {
    raise_expr(
        "'Parse error: failed to parse hex ''' || s || ''', number too large to fit in target type'"
    )
}
    END IF;
    FOR i IN 1 .. pg_catalog.length(digits) LOOP
        v := v * 16::numeric
            + (pg_catalog.strpos('0123456789abcdef', pg_catalog.substr(digits, i, 1)) - 1)::numeric;
    END LOOP;
    IF v > {INT256_MAX} THEN
        v := v - {2**256};
    END IF;
    RETURN v::{T};
END $$;
"""

register(SQL)
