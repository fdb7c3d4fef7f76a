"""RisingWave's interval times / divided by a number (src/expr/impl/src/scalar/arithmetic_op.rs:
341-369 interval_float_div / interval_float_mul / float_interval_mul over Interval::div_float /
mul_float, src/common/src/types/interval.rs:271-343 from_floats).

RisingWave divides each unit (months, days, microseconds) as an f64 and carries the fractions
down as PostgreSQL's interval_div once did: months rounded to whole microseconds, their
fraction times 30 to days, the days' fraction to microseconds, each rounded half to even
(``round_ties_even``; PostgreSQL's ``round(float8)`` is ``rint``, the same).  PostgreSQL 18's
interval_div carries differently (``'1 month' / 32768`` is ``00:01:19.1424`` there,
``00:01:19.101562`` in RisingWave).  A zero divisor and any unit out of range are
``Numeric out of range`` (div_float's None, ExprError::NumericOutOfRange), not PostgreSQL's
``division by zero``.  The operators take ``float8`` as PostgreSQL's do, so an integer or
decimal operand resolves to them the same way; rwfn is first on the search path, so they
shadow pg_catalog's.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, once, raise_expr, register


def _op(sym: str, left: str, right: str, fn: str) -> str:
    return once(
        f"CREATE OPERATOR {F}.{sym} (LEFTARG = {left}, RIGHTARG = {right}, FUNCTION = {F}.{fn})"
    )


_OUT = raise_expr("'Numeric out of range'")

SQL = f"""
-- Interval::from_floats (interval.rs:271-324)
CREATE OR REPLACE FUNCTION {F}.interval_from_floats(mo float8, dy float8, us float8)
    RETURNS interval LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    upm constant float8 := 2592000000000;  -- USECS_PER_MONTH
    upd constant float8 := 86400000000;    -- USECS_PER_DAY
    m float8; mf float8; ld float8; ldf float8; d float8; df float8; dw float8; u float8;
    days bigint;
BEGIN
    m := pg_catalog.round(mo * upm) / upm;
    mf := m - pg_catalog.trunc(m);
    m := pg_catalog.trunc(m);
    IF m = 'NaN'::float8 OR m < -2147483648 OR m > 2147483647 THEN {_OUT} END IF;
    ld := pg_catalog.round(mf * 30 * upd) / upd;
    ldf := ld - pg_catalog.trunc(ld);
    ld := pg_catalog.trunc(ld);
    d := pg_catalog.round(dy * upd) / upd;
    df := d - pg_catalog.trunc(d);
    d := pg_catalog.trunc(d);
    IF d = 'NaN'::float8 OR d < -2147483648 OR d > 2147483647 THEN {_OUT} END IF;
    -- the fractions are split from the whole days before the carried days are added
    dw := pg_catalog.round((df + ldf) * upd) / upd;
    df := dw - pg_catalog.trunc(dw);
    dw := pg_catalog.trunc(dw);
    days := d::bigint + ld::bigint + dw::bigint;
    IF days < -2147483648 OR days > 2147483647 THEN {_OUT} END IF;
    u := pg_catalog.round(us + df * upd);
    IF u = 'NaN'::float8 OR u < -9223372036854775808 OR u >= 9223372036854775808 THEN
        {_OUT}
    END IF;
    RETURN pg_catalog.format('%s months %s days %s microseconds', m::int4, days, u::int8)
        ::interval;
END $$;

-- an interval's units (months, days, microseconds) as f64s, through ``f``
CREATE OR REPLACE FUNCTION {F}.interval_scaled(iv interval, k float8, divide boolean)
    RETURNS interval LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    mo float8;
    dy float8;
    us float8;
BEGIN
    IF divide AND k = 0 THEN {_OUT} END IF;
    mo := EXTRACT(YEAR FROM iv) * 12 + EXTRACT(MONTH FROM iv);
    dy := EXTRACT(DAY FROM iv);
    us := EXTRACT(EPOCH FROM iv - pg_catalog.make_interval(
        months => mo::int4, days => dy::int4)) * 1000000;
    IF divide THEN
        RETURN {F}.interval_from_floats(mo / k, dy / k, us / k);
    END IF;
    RETURN {F}.interval_from_floats(mo * k, dy * k, us * k);
END $$;

CREATE OR REPLACE FUNCTION {F}.interval_div(interval, float8) RETURNS interval LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.interval_scaled($1, $2, true) $$;
CREATE OR REPLACE FUNCTION {F}.interval_mul(interval, float8) RETURNS interval LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.interval_scaled($1, $2, false) $$;
CREATE OR REPLACE FUNCTION {F}.mul_interval(float8, interval) RETURNS interval LANGUAGE sql
    IMMUTABLE PARALLEL SAFE AS $$ SELECT {F}.interval_scaled($2, $1, false) $$;
{_op("/", "interval", "float8", "interval_div")}
{_op("*", "interval", "float8", "interval_mul")}
{_op("*", "float8", "interval", "mul_interval")}
"""

register(SQL)
