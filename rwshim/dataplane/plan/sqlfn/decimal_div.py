"""RisingWave's decimal division on PostgreSQL's numeric: ``rwfn.dec_div(numeric, numeric)``,
the operator ``rwfn./ (numeric, numeric)`` over it, and ``rwfn.rw_avg`` (the ``avg`` of an
integer or a decimal, which the data plane's rewrite makes of ``avg(x)``: plan/avg.py).

RisingWave's ``divide(decimal, decimal)`` (src/expr/impl/src/scalar/arithmetic_op.rs:72-92
``general_div``) is rust_decimal 1.40.0's division for two finite values: as many fractional
digits as a 96-bit mantissa and scale 28 allow, the last rounded half to even, then only some
trailing zeros dropped (``1::decimal / 3`` is ``0.3333333333333333333333333333``,
``28972601::decimal / 2`` is ``14486300.50``; PostgreSQL's ``0.33333333333333333333`` and
``14486300.500000000000``).  The function runs the algorithm of rust_decimal's ``div_impl``
step for step on the integer mantissas (rwshim/common/rust_decimal.py is the same model in
Python, checked against rust_decimal's vectors; tests check the two agree).  ``find_scale`` is
computed in its closed form: the most powers of ten, at most 9 and at most up to scale 28, by
which the quotient can be multiplied within 96 bits (common/rust_decimal.py's table and binary
search give that number; a test holds them equal).

A finite value over zero is ``Division by zero`` and a quotient past 96 bits ``Numeric out of
range`` (``ExprError::DivisionByZero`` / ``NumericOutOfRange``); NaN and the infinities divide
as RisingWave's ``impl Div for Decimal`` (src/common/src/types/decimal.rs:327-362).  A numeric
beyond rust_decimal's range (scale over 28, mantissa of 96 bits or more) is first fitted as
``rwfn.rw_decimal`` fits it.

``rwfn`` is first on a data session's search_path, so ``numeric / numeric`` (and an integer
with a numeric, through the exact-match operators of sqlfn/int256.py) is this operator; the
function names pg_catalog's operators where it divides for itself.
"""

from __future__ import annotations

from rwshim.dataplane.plan.sqlfn.common import F, once, raise_expr, register

_MAX = 2**96 - 1
_POW = "{" + ",".join(str(10**k) for k in range(29)) + "}"  # 10^0 .. 10^28, scale 0
# the largest quotient that 10^k still fits in 96 bits, k = 1 .. 9
_FIT = "{" + ",".join(str(_MAX // 10**k) for k in range(1, 10)) + "}"
# 10^-k with display scale k, k = 0 .. 28: a mantissa times it is the value at that scale
# (the tables are constants of the expressions, folded once per plan: a DECLARE'd array
# would be read from its text on every call)
_NEG = "{" + ",".join(["1"] + ["0." + "0" * (k - 1) + "1" for k in range(1, 29)]) + "}"
_OVERFLOW = raise_expr("'Numeric out of range'")

SQL = f"""
CREATE OR REPLACE FUNCTION {F}.dec_div(a numeric, b numeric) RETURNS numeric LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    sa int;
    sb int;
    s int;
    ps int;
    am numeric;
    bm numeric;
    q numeric;
    r numeric;
    d numeric;
    sticky bool;
    unscale bool := false;
BEGIN
    -- decimal.rs:327-362 (impl Div for Decimal) where a value is not finite
    IF a = 'NaN'::numeric OR b = 'NaN'::numeric THEN
        RETURN 'NaN'::numeric;
    END IF;
    IF b IN ('Infinity'::numeric, '-Infinity'::numeric) THEN
        IF a IN ('Infinity'::numeric, '-Infinity'::numeric) THEN
            RETURN 'NaN'::numeric;
        END IF;
        RETURN 0::numeric;
    END IF;
    IF a IN ('Infinity'::numeric, '-Infinity'::numeric) THEN
        IF b = 0 OR b > 0 THEN
            RETURN a;
        END IF;
        RETURN OPERATOR(pg_catalog.-) a;
    END IF;
    -- both finite: rust_decimal's values (a numeric beyond them fitted as RisingWave would)
    sa := pg_catalog.scale(a);
    sb := pg_catalog.scale(b);
    IF sa > 28 THEN
        a := {F}.rw_decimal(a);
        sa := pg_catalog.scale(a);
    END IF;
    IF sb > 28 THEN
        b := {F}.rw_decimal(b);
        sb := pg_catalog.scale(b);
    END IF;
    am := pg_catalog.trunc(pg_catalog.abs(a) * ('{_POW}'::numeric[])[sa + 1]);
    bm := pg_catalog.trunc(pg_catalog.abs(b) * ('{_POW}'::numeric[])[sb + 1]);
    IF am > {_MAX} THEN
        a := {F}.rw_decimal(a);
        sa := pg_catalog.scale(a);
        am := pg_catalog.trunc(pg_catalog.abs(a) * ('{_POW}'::numeric[])[sa + 1]);
    END IF;
    IF bm > {_MAX} THEN
        b := {F}.rw_decimal(b);
        sb := pg_catalog.scale(b);
        bm := pg_catalog.trunc(pg_catalog.abs(b) * ('{_POW}'::numeric[])[sb + 1]);
    END IF;
    IF bm = 0 THEN
        {raise_expr("'Division by zero'")}
    END IF;
    IF am = 0 THEN
        RETURN 0::numeric;  -- Decimal::ZERO
    END IF;
    -- div.rs div_impl: the quotient, then digits of the remainder while they fit
    s := sa - sb;
    q := pg_catalog.div(am, bm);
    r := am - q * bm;
    LOOP
        IF r = 0 THEN
            EXIT WHEN s >= 0;
            ps := LEAST(9, -s);
        ELSE
            unscale := true;
            IF s = 28 THEN
                ps := 0;
            ELSE
                -- find_scale (src/ops/common.rs:73-150)
                ps := LEAST(9, 28 - s);
                WHILE ps > 0 AND q > ('{_FIT}'::numeric[])[ps] LOOP
                    ps := ps - 1;
                END LOOP;
                IF ps < 9 AND ps + s < 0 THEN
                    {_OVERFLOW}
                END IF;
            END IF;
            IF ps = 0 THEN
                -- no digit more fits: the last one rounded half to even (round_up)
                IF 2 * r > bm OR (2 * r = bm AND pg_catalog.mod(q, 2) = 1) THEN
                    q := q + 1;
                    sticky := true;
                END IF;
                EXIT WHEN q <= {_MAX};  -- else 2^96: unscale_from_overflow below
            END IF;
        END IF;
        IF ps > 0 THEN
            s := s + ps;
            q := q * ('{_POW}'::numeric[])[ps + 1];  -- increase_scale
            IF q > {_MAX} THEN
                {_OVERFLOW}
            END IF;
            r := r * ('{_POW}'::numeric[])[ps + 1];
            d := pg_catalog.div(r, bm);
            r := r - d * bm;
            q := q + d;  -- add32
            sticky := r <> 0;
        END IF;
        IF q > {_MAX} THEN
            -- unscale_from_overflow: one digit less, rounded half to even (sticky remainder)
            s := s - 1;
            IF s < 0 THEN
                {_OVERFLOW}
            END IF;
            d := pg_catalog.mod(q, 10);
            q := pg_catalog.div(q, 10);
            IF d > 5 OR (d = 5 AND (sticky OR pg_catalog.mod(q, 2) = 1)) THEN
                q := q + 1;
            END IF;
            EXIT;
        END IF;
    END LOOP;
    IF unscale THEN
        -- unscale: 10^8 while the low 32 bits are zero, then 10^4, 10^2, 10 once each
        WHILE s >= 8 AND pg_catalog.mod(q, 4294967296) = 0 AND pg_catalog.mod(q, 100000000) = 0
        LOOP
            q := pg_catalog.div(q, 100000000);
            s := s - 8;
        END LOOP;
        IF s >= 4 AND pg_catalog.mod(q, 10000) = 0 THEN
            q := pg_catalog.div(q, 10000);
            s := s - 4;
        END IF;
        IF s >= 2 AND pg_catalog.mod(q, 100) = 0 THEN
            q := pg_catalog.div(q, 100);
            s := s - 2;
        END IF;
        IF s >= 1 AND pg_catalog.mod(q, 10) = 0 THEN
            q := pg_catalog.div(q, 10);
            s := s - 1;
        END IF;
    END IF;
    IF (a < 0) <> (b < 0) THEN
        RETURN OPERATOR(pg_catalog.-) (q * ('{_NEG}'::numeric[])[s + 1]);
    END IF;
    RETURN q * ('{_NEG}'::numeric[])[s + 1];
END $$;
{once(f"CREATE OPERATOR {F}./ (LEFTARG = numeric, RIGHTARG = numeric, FUNCTION = {F}.dec_div)")}

-- avg(x) is spliced to rwfn.avg(avg(x), sum(x), count(x)) (plan/avg.py): RisingWave's
-- CASE WHEN count = 0 THEN NULL ELSE sum::decimal / count END (logical_agg.rs:624-660) for
-- an integer or decimal argument (sum bigint or numeric), PostgreSQL's avg for the others
CREATE OR REPLACE FUNCTION {F}.avg(pg numeric, s bigint, n bigint) RETURNS numeric
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE WHEN n = 0 THEN NULL ELSE {F}.dec_div(s::numeric, n::numeric) END $$;
CREATE OR REPLACE FUNCTION {F}.avg(pg numeric, s numeric, n bigint) RETURNS numeric
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT CASE WHEN n = 0 THEN NULL ELSE {F}.dec_div(s, n::numeric) END $$;
CREATE OR REPLACE FUNCTION {F}.avg(pg anycompatible, s anyelement, n bigint)
    RETURNS anycompatible LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT pg $$;
"""

register(SQL)
