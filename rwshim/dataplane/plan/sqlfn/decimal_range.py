"""RisingWave's decimal range where a cast or ``sum`` reaches it: rust_decimal holds a 96-bit
mantissa (at most 79228162514264337593543950335), PostgreSQL's numeric any size.

- ``real`` / ``double precision`` to ``decimal`` (src/expr/impl/src/scalar/cast.rs:118-131
  ``try_cast`` over ``Decimal::try_from(f32 / f64)``, src/common/src/types/decimal.rs:180-193:
  NaN and the infinities are the decimal's own, a finite float past the mantissa fails) is
  ``Casting to risingwave_common::types::decimal::Decimal out of range``
  (``ExprError::CastOutOfRange(type_name::<Decimal>())``, src/expr/core/src/error.rs:55).
  PostgreSQL's cast functions are pointed at these (as sqlfn/jsonb_casts.py does; on a
  ``--postgres-url`` database whose user is not a superuser PostgreSQL's casts stay).
- (``jsonb`` to ``decimal``, an f64 past the mantissa ``Numeric out of range``, is
  sqlfn/jsonb_casts.py's.)
- ``sum(decimal)`` adds with ``checked_add`` (src/expr/impl/src/aggregate/general.rs sum over
  Decimal's CheckedAdd): a total past the mantissa is ``Numeric out of range``; the total is
  checked once at the end here (PostgreSQL's ``numeric_add`` as the step, so the value and its
  scale are PostgreSQL's sum's), and fitted to rust_decimal's precision by ``rw_decimal``.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, raise_expr, register
from rwshim.dataplane.plan.sqlfn.numeric import DECIMAL_MAX_MANTISSA

_CAST_OUT = raise_expr("'Casting to risingwave_common::types::decimal::Decimal out of range'")


def _float_cast(src: str) -> str:
    return f"""
CREATE OR REPLACE FUNCTION {F}.{src}_to_numeric(x {src}) RETURNS numeric LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
    IF x <> 'NaN'::{src} AND pg_catalog.abs(x) <> 'Infinity'::{src}
            AND pg_catalog.abs(x::float8) > {DECIMAL_MAX_MANTISSA}::float8 THEN
        {_CAST_OUT}
    END IF;
    RETURN pg_catalog.numeric(x);
END $$;
DO $cast$ BEGIN
    UPDATE pg_catalog.pg_cast SET castfunc = '{F}.{src}_to_numeric({src})'::regprocedure
    WHERE castsource = '{src}'::regtype AND casttarget = 'numeric'::regtype;
EXCEPTION WHEN insufficient_privilege THEN NULL;
END $cast$;
"""


SQL = f"""
{_float_cast("float4")}
{_float_cast("float8")}
-- sum(decimal): PostgreSQL's numeric_add per row, the range checked on the total
CREATE OR REPLACE FUNCTION {F}.decimal_sum_final(x numeric) RETURNS numeric LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.rw_decimal(x) $$;
CREATE OR REPLACE AGGREGATE {F}.sum(numeric) (
    SFUNC = pg_catalog.numeric_add, STYPE = numeric, FINALFUNC = {F}.decimal_sum_final,
    COMBINEFUNC = pg_catalog.numeric_add, PARALLEL = SAFE
);
"""

register(SQL)
