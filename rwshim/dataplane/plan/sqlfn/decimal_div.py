"""RisingWave's decimal division on PostgreSQL's numeric: ``rwfn.dec_div(numeric, numeric)``,
the operator ``rwfn./ (numeric, numeric)`` over it, and ``rwfn.rw_avg`` (the ``avg`` of an
integer or a decimal, which the data plane's rewrite makes of ``avg(x)``: plan/avg.py).

RisingWave's ``divide(decimal, decimal)`` (src/expr/impl/src/scalar/arithmetic_op.rs:72-92
``general_div``) is rust_decimal 1.40.0's division for two finite values: as many fractional
digits as a 96-bit mantissa and scale 28 allow, the last rounded half to even, then only some
trailing zeros dropped (``1::decimal / 3`` is ``0.3333333333333333333333333333``,
``28972601::decimal / 2`` is ``14486300.50``; PostgreSQL's ``0.33333333333333333333`` and
``14486300.500000000000``).  ``rwfn.dec_div_steps`` runs the algorithm of rust_decimal's
``div_impl`` step for step on the integer mantissas (rwshim/common/rust_decimal.py is the same
model in Python, checked against rust_decimal's vectors; tests check the SQL agrees with it).
``find_scale`` is computed in its closed form: the most powers of ten, at most 9 and at most up
to scale 28, by which the quotient can be multiplied within 96 bits (common/rust_decimal.py's
table and binary search give that number; a test holds them equal).  ``rwfn.dec_div`` computes
the steps' outcome in closed form where the dividend's scale is at least the divisor's (a
quotient is a PL/pgSQL call per row, the fewer statements the faster): the digits end at scale
28 or where the quotient would pass 96 bits, exact at the first 9-digit step's end that leaves
no remainder, else rounded half to even there.

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
# 10^-k with display scale k, k = 0 .. 28: a mantissa times it is the value at that scale
# (the tables are constants of the expressions, folded once per plan: a DECLARE'd array
# would be read from its text on every call)
_NEG = "{" + ",".join(["1"] + ["0." + "0" * (k - 1) + "1" for k in range(1, 29)]) + "}"
_OVERFLOW = raise_expr("'Numeric out of range'")

_P = f"('{_POW}'::numeric[])"  # _P[k + 1] = 10^k
_N = f"('{_NEG}'::numeric[])"  # _N[k + 1] = 10^-k, display scale k
# the most powers of ten (at most 9) the quotient q can take within 96 bits
_MAXFIT = (
    "CASE "
    + " ".join(f"WHEN q <= {_MAX // 10**k} THEN {k}" for k in range(9, 0, -1))
    + " ELSE 0 END"
)
# unscale's steps after the 10^8 ones: 10^4, 10^2, 10 once each strip min(zeros, scale, 7)
_ZEROS7 = (
    "CASE "
    + " ".join(f"WHEN pg_catalog.mod(q, {10**k}) = 0 THEN {k}" for k in range(7, 0, -1))
    + " ELSE 0 END"
)


def _excess(lo: int, hi: int) -> str:
    """The fewest digits z in [lo, hi] to drop from the integer q so that it fits 96 bits
    (q < 2^96 * 10^z), as a binary search of CASE expressions."""
    if lo == hi:
        return str(lo)
    mid = (lo + hi) // 2
    below, above = _excess(lo, mid), _excess(mid + 1, hi)
    return f"CASE WHEN q < {2**96 * 10**mid} THEN {below} ELSE {above} END"


_UNSCALE = f"""
    -- unscale: 10^8 while the low 32 bits are zero, then 10^4, 10^2 and 10 once each
    WHILE s >= 8 AND pg_catalog.mod(q, 4294967296) = 0 AND pg_catalog.mod(q, 100000000) = 0
    LOOP
        q := pg_catalog.div(q, 100000000);
        s := s - 8;
    END LOOP;
    z := LEAST(s, {_ZEROS7});
    q := pg_catalog.div(q, {_P}[z + 1]);
    s := s - z;"""
_RESULT = f"""
    IF negative THEN
        RETURN OPERATOR(pg_catalog.-) (q * {_N}[s + 1]);
    END IF;
    RETURN q * {_N}[s + 1];"""

SQL = f"""
-- div.rs div_impl step by step on the mantissas am / bm (scale s = the dividend's scale less
-- the divisor's; am, bm > 0): the quotient, then the remainder's digits while they fit
CREATE OR REPLACE FUNCTION {F}.dec_div_steps(am numeric, bm numeric, s int, negative bool)
    RETURNS numeric LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    ps int;
    z int;
    q numeric;
    r numeric;
    d numeric;
    sticky bool;
    unscale bool := false;
BEGIN
    q := pg_catalog.div(am, bm);
    r := am - q * bm;
    LOOP
        IF r = 0 THEN
            EXIT WHEN s >= 0;
            ps := LEAST(9, -s);
        ELSE
            unscale := true;
            -- find_scale (src/ops/common.rs:73-150; at scale 28 none is asked: 0)
            ps := LEAST(9, 28 - s, {_MAXFIT});
            IF ps < 9 AND ps + s < 0 THEN
                {_OVERFLOW}
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
            q := q * {_P}[ps + 1];  -- increase_scale
            IF q > {_MAX} THEN
                {_OVERFLOW}
            END IF;
            d := r * {_P}[ps + 1];
            r := pg_catalog.mod(d, bm);
            q := q + pg_catalog.div(d, bm);  -- add32
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
    IF unscale THEN{_UNSCALE}
    END IF;{_RESULT}
END $$;

CREATE OR REPLACE FUNCTION {F}.dec_div(a numeric, b numeric) RETURNS numeric LANGUAGE plpgsql
    IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    sa int;
    sb int;
    s int;
    t int;
    z int;
    am numeric;
    bm numeric;
    q numeric;
    r numeric;
    x numeric;
    negative bool;
BEGIN
    IF a IN ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)
        OR b IN ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric) THEN
        -- decimal.rs:327-362 (impl Div for Decimal): NaN absorbs, a finite value over an
        -- infinity is 0, an infinity over an infinity NaN, over a finite value (zero too) an
        -- infinity of the divisor's sign
        RETURN CASE
            WHEN a = 'NaN'::numeric OR b = 'NaN'::numeric THEN 'NaN'::numeric
            WHEN b IN ('Infinity'::numeric, '-Infinity'::numeric) THEN
                CASE WHEN a IN ('Infinity'::numeric, '-Infinity'::numeric) THEN 'NaN'::numeric
                    ELSE 0::numeric END
            WHEN b >= 0 THEN a
            ELSE OPERATOR(pg_catalog.-) a END;
    END IF;
    -- both finite: rust_decimal's values (a numeric beyond them fitted as RisingWave would)
    sa := pg_catalog.scale(a);
    sb := pg_catalog.scale(b);
    IF sa > 28 OR sb > 28 THEN
        a := {F}.rw_decimal(a);
        b := {F}.rw_decimal(b);
        sa := pg_catalog.scale(a);
        sb := pg_catalog.scale(b);
    END IF;
    am := pg_catalog.trunc(pg_catalog.abs(a) * {_P}[sa + 1]);
    bm := pg_catalog.trunc(pg_catalog.abs(b) * {_P}[sb + 1]);
    IF am > {_MAX} OR bm > {_MAX} THEN
        a := {F}.rw_decimal(a);
        b := {F}.rw_decimal(b);
        sa := pg_catalog.scale(a);
        sb := pg_catalog.scale(b);
        am := pg_catalog.trunc(pg_catalog.abs(a) * {_P}[sa + 1]);
        bm := pg_catalog.trunc(pg_catalog.abs(b) * {_P}[sb + 1]);
    END IF;
    IF bm = 0 THEN
        {raise_expr("'Division by zero'")}
    END IF;
    IF am = 0 THEN
        RETURN 0::numeric;  -- Decimal::ZERO
    END IF;
    s := sa - sb;
    negative := (a < 0) <> (b < 0);
    IF s < 0 THEN
        RETURN {F}.dec_div_steps(am, bm, s, negative);
    END IF;
    r := pg_catalog.mod(am, bm);
    IF r = 0 THEN  -- exact at the dividend's scale: no unscale
        q := pg_catalog.div(am, bm);{_RESULT}
    END IF;
    -- A remainder: dec_div_steps's loop in closed form.  Its steps add 9 digits at a time from
    -- scale s until the last one, which ends at scale t: 28, or fewer where the quotient would
    -- pass 96 bits (find_scale's limit; a carry past 96 bits is one digit less, rounded).  The
    -- quotient is exact at the first step's end where no remainder is left, else rounded half
    -- to even at t.
    x := am * {_P}[29 - s];
    q := pg_catalog.div(x, bm);
    IF q > {_MAX} THEN
        t := 28 - {_excess(1, 28)};
        x := am * {_P}[t - s + 1];
        q := pg_catalog.div(x, bm);
    ELSE
        t := 28;
    END IF;
    r := x - q * bm;
    IF r = 0 THEN
        -- the first step's end (s + 9k) at or past the fewest digits that leave no remainder
        z := pg_catalog.length(q::text) - pg_catalog.length(pg_catalog.rtrim(q::text, '0'));
        z := LEAST(s + 9 * ((t - s - LEAST(z, t - s) + 8) / 9), t);
        q := pg_catalog.div(q, {_P}[t - z + 1]);
        t := z;
    ELSIF 2 * r > bm OR (2 * r = bm AND pg_catalog.mod(q, 2) = 1) THEN
        q := q + 1;
        IF q > {_MAX} THEN  -- rounded up to 2^96: the steps' double rounding
            RETURN {F}.dec_div_steps(am, bm, s, negative);
        END IF;
    END IF;
    s := t;{_UNSCALE}{_RESULT}
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
