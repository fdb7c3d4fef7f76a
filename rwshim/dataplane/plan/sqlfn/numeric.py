"""RisingWave's numeric rules where PostgreSQL's differ.

- Floats never raise in RisingWave's trigonometric functions: out of their domain (or at
  infinity) they are NaN, as Rust's f64 functions are (src/expr/impl/src/scalar/
  trigonometric.rs); PostgreSQL raises ``input is out of range``.  ``coth`` is RisingWave's
  (NaN at 0).
- ``round(decimal, n)`` (src/expr/impl/src/scalar/round.rs round_digits: rust_decimal's
  round_dp keeps a value with no more than n fractional digits as it is: ``round(42, 1)`` is
  42, PostgreSQL's 42.0).
- RisingWave's decimal is rust_decimal: a 96-bit mantissa with at most 28 fractional digits
  (src/common/src/types/decimal.rs).  ``rw_decimal(x)`` fits a PostgreSQL numeric into it the
  way rust_decimal rounds a result (the most fractional digits that fit), or raises
  ``Numeric out of range``.  ``pow`` / ``^`` (arithmetic_op.rs pow_decimal, decimal.rs
  checked_powd), ``exp`` and ``sqrt`` of decimals give rust_decimal's precision, with trailing
  zeros dropped where rust_decimal computes an exact power.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, once, raise_expr, register

# RisingWave's decimal limit: rust_decimal's 96-bit mantissa
DECIMAL_MAX_MANTISSA = 2**96 - 1
DECIMAL_MAX_SCALE = 28

_NAN = "'NaN'::float8"


def _float_fn(name: str, nan_when: str) -> str:
    """``rwfn.<name>(float8)``: NaN where ``nan_when`` (over ``$1``) holds, else PostgreSQL's."""
    return f"""
CREATE OR REPLACE FUNCTION {F}.{name}(float8) RETURNS float8 LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT CASE WHEN {nan_when} THEN {_NAN} ELSE pg_catalog.{name}($1) END $$;
"""


_INF = "$1 IN ('Infinity'::float8, '-Infinity'::float8)"
_OUTSIDE_UNIT = "($1 < -1 OR $1 > 1)"

SQL = "".join(
    [
        *(_float_fn(n, _INF) for n in ("sin", "cos", "tan", "cot", "sind", "cosd", "tand", "cotd")),
        *(_float_fn(n, _OUTSIDE_UNIT) for n in ("asin", "acos", "asind", "acosd")),
        _float_fn("acosh", "$1 < 1"),
        _float_fn("atanh", _OUTSIDE_UNIT),
        f"""
CREATE OR REPLACE FUNCTION {F}.coth(float8) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE WHEN $1 = 0 THEN {_NAN} ELSE pg_catalog.cosh($1) / pg_catalog.sinh($1) END $$;

CREATE OR REPLACE FUNCTION {F}.round(numeric, int4) RETURNS numeric LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT CASE WHEN $2 >= 0 AND $2 >= pg_catalog.scale($1) THEN $1
        ELSE pg_catalog.round($1, least($2, {DECIMAL_MAX_SCALE})) END $$;

CREATE OR REPLACE FUNCTION {F}.rw_decimal(x numeric, overflow text DEFAULT 'Numeric out of range')
    RETURNS numeric LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    s int;
    r numeric;
BEGIN
    IF x IS NULL OR x = 'NaN'::numeric OR x IN ('Infinity'::numeric, '-Infinity'::numeric) THEN
        RETURN x;
    END IF;
    s := least(pg_catalog.scale(x), {DECIMAL_MAX_SCALE});
    LOOP
        r := pg_catalog.round(x, s);
        IF pg_catalog.abs(r) * (10::numeric OPERATOR(pg_catalog.^) s) <= {DECIMAL_MAX_MANTISSA} THEN
            RETURN r;
        END IF;
        IF s = 0 THEN
            {raise_expr("overflow")}
        END IF;
        s := s - 1;
    END LOOP;
END $$;

-- pow_decimal (arithmetic_op.rs): PowError::ZeroNegative / NegativeFract / Overflow
CREATE OR REPLACE FUNCTION {F}.pow(numeric, numeric) RETURNS numeric LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
BEGIN
    IF $1 = 0 AND $2 < 0 THEN
        {raise_expr("'Invalid parameter pow: zero raised to a negative power is undefined'")}
    END IF;
    IF $1 < 0 AND $2 <> pg_catalog.trunc($2) THEN
        {
            raise_expr(
                "'Invalid parameter pow: a negative number raised to a non-integer power yields "
                "a complex result'"
            )
        }
    END IF;
    -- an integer exponent is rust_decimal's checked_powi: a negative one divides 1 by the
    -- positive power, which must fit its 96-bit mantissa (1e28 ^ -2 overflows)
    IF $2 < 0 AND $2 > '-Infinity'::numeric AND $2 = pg_catalog.trunc($2)
        AND pg_catalog.abs($1) < 'Infinity'::numeric
        AND pg_catalog.power(pg_catalog.abs($1), -$2) > {DECIMAL_MAX_MANTISSA} THEN
        {raise_expr("'Numeric out of range: overflow'")}
    END IF;
    RETURN {F}.rw_decimal(pg_catalog.trim_scale(pg_catalog.power(
        $1, $2)), 'Numeric out of range: overflow');
EXCEPTION WHEN numeric_value_out_of_range THEN
    {raise_expr("'Numeric out of range: overflow'")}
END $$;
CREATE OR REPLACE FUNCTION {F}.power(numeric, numeric) RETURNS numeric LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT {F}.pow($1, $2) $$;
{once(f"CREATE OPERATOR {F}.^ (LEFTARG = numeric, RIGHTARG = numeric, FUNCTION = {F}.pow)")}

-- Decimal::checked_exp: rust_decimal's precision (28 significant digits), an overflow past it
CREATE OR REPLACE FUNCTION {F}.exp(numeric) RETURNS numeric LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
BEGIN
    IF $1 = 0 THEN
        RETURN 1;
    END IF;
    RETURN {F}.rw_decimal(pg_catalog.exp(pg_catalog.round($1, 30)),
        'Numeric out of range: overflow');
EXCEPTION WHEN numeric_value_out_of_range THEN
    {raise_expr("'Numeric out of range: overflow'")}
END $$;

-- sqrt_decimal (arithmetic_op.rs): rust_decimal's sqrt, 28 significant digits
CREATE OR REPLACE FUNCTION {F}.sqrt(numeric) RETURNS numeric LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
DECLARE
    r numeric;
BEGIN
    IF $1 < 0 THEN
        {raise_expr("'Invalid parameter sqrt input: input cannot be negative value'")}
    END IF;
    r := {F}.rw_decimal(pg_catalog.sqrt(pg_catalog.round($1, 30)));
    -- rust_decimal's iteration ends on the exact root where there is one
    IF pg_catalog.trim_scale(r) * pg_catalog.trim_scale(r) = $1 THEN
        RETURN pg_catalog.trim_scale(r);
    END IF;
    RETURN r;
END $$;
-- sqrt_f64: a negative input is an error in RisingWave's words
{once(f"CREATE OPERATOR {F}.|/ (RIGHTARG = numeric, FUNCTION = {F}.sqrt)")}
CREATE OR REPLACE FUNCTION {F}.sqrt(float8) RETURNS float8 LANGUAGE plpgsql IMMUTABLE
    PARALLEL SAFE AS $$
BEGIN
    IF $1 < 0 THEN
        {raise_expr("'Invalid parameter sqrt input: input cannot be negative value'")}
    END IF;
    RETURN pg_catalog.sqrt($1);
END $$;
""",
    ]
)

register(SQL)
