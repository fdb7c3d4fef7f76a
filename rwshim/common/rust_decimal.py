"""RisingWave's decimal division, modelled exactly: rust_decimal 1.40.0's ``div_impl``
(src/ops/div.rs, RisingWave's Cargo.lock at 448c657 pins rust_decimal 1.40.0) over a value as
rust_decimal holds it (a sign, a 96-bit mantissa, a scale 0..28), in integer arithmetic.

rust_decimal divides as .NET's VarDecDiv does: the integer quotient of the mantissas first;
while a remainder is left, the quotient is scaled up by as many powers of ten as still fit in 96
bits (``find_scale``: at most 10^9 a step and never past scale 28) and the remainder's next
digits are added in; where no more fit, the last digit is rounded half to even; and a result
that had a remainder has trailing zeros stripped only by the steps ``unscale`` takes: 10^8
while the low 32 bits are zero, then 10^4, 10^2, 10^1 once each.  So ``1 / 3`` is
``0.3333333333333333333333333333`` (28 digits) and ``28972601 / 2`` is ``14486300.50``.

The limb-level operations of div.rs (``div32``, ``partial_divide_64``, ``partial_divide_96``)
compute the exact integer quotient and remainder; here they are Python's ``divmod``.  What
decides the digits is kept as the source writes it: ``find_scale``'s table and binary search
(src/ops/common.rs:73-150), the round-half-even test at the last digit, ``round_up``,
``unscale_from_overflow`` (a quotient past 96 bits divided by ten with a sticky bit) and
``unscale``.

RisingWave's own ``Decimal`` (src/common/src/types/decimal.rs) wraps this with NaN and the
infinities; the expression ``divide(decimal, decimal)`` (src/expr/impl/src/scalar/
arithmetic_op.rs:72-92 ``general_div``) raises ``Division by zero`` for a finite value over
zero and ``Numeric out of range`` for an overflow: ``rw_divide`` models that.  The data plane
runs the same algorithm as ``rwfn.dec_div`` (dataplane/plan/sqlfn/decimal_div.py).
"""

from __future__ import annotations

from typing import NamedTuple

MAX_SCALE = 28
MAX_MANTISSA = 2**96 - 1
_LOW64 = 2**64 - 1

# src/ops/common.rs:74-83 (find_scale's bounds: the largest high word that still fits)
_OVERFLOW_MAX_HI = (0, 429496729, 42949672, 4294967, 429496, 42949, 4294, 429, 42, 4)
_OVERFLOW_MAX_9_LOW64 = 5441186219426131129
# src/ops/common.rs:157-183 POWER_OVERFLOW_VALUES (lo, mid, hi): the largest values that do
# not overflow when multiplied by 10^(index + 1)
_POWER_OVERFLOW_VALUES = (
    (2576980377, 2576980377, 429496729),
    (687194767, 4123168604, 42949672),
    (2645699854, 1271310319, 4294967),
    (694066715, 3133608139, 429496),
    (2216890319, 2890341191, 42949),
    (2369172679, 4154504685, 4294),
    (4102387834, 2133437386, 429),
    (410238783, 4078814305, 42),
)


class RustDecimal(NamedTuple):
    """A rust_decimal value: sign, mantissa (< 2^96) and scale (0..28)."""

    negative: bool
    mantissa: int
    scale: int

    def __str__(self) -> str:
        """rust_decimal's Display (``to_str_internal``): the mantissa's digits with the point
        ``scale`` digits from the right, zeros before it as needed, no exponent."""
        digits = str(self.mantissa).rjust(self.scale + 1, "0")
        body = digits if self.scale == 0 else f"{digits[: -self.scale]}.{digits[-self.scale :]}"
        return f"-{body}" if self.negative and self.mantissa else body


class DivisionByZero(ArithmeticError):
    """``CalculationResult::DivByZero``."""


class DecimalOverflow(ArithmeticError):
    """``CalculationResult::Overflow``."""


def parse(text: str) -> RustDecimal:
    """A plain decimal literal (``-12.50``) as rust_decimal's ``from_str`` keeps it, for values
    that fit without rounding (more is refused: the model's callers never need it)."""
    s = text.strip()
    negative = s.startswith("-")
    s = s.lstrip("+-")
    whole, _, frac = s.partition(".")
    mantissa = int((whole or "0") + frac)
    if len(frac) > MAX_SCALE or mantissa > MAX_MANTISSA:
        raise ValueError(f"{text!r} does not fit rust_decimal without rounding")
    return RustDecimal(negative and mantissa != 0, mantissa, len(frac))


def find_scale(q: int, scale: int) -> int | None:
    """``Buf12::find_scale`` (src/ops/common.rs:73-150): how many powers of ten the quotient
    ``q`` may be scaled up by (at most 9, at most to scale 28), None where that cannot bring a
    negative scale to zero."""
    hi = q >> 64
    low64 = q & _LOW64
    if hi > _OVERFLOW_MAX_HI[1]:
        return None if scale < 0 else 0
    if scale > MAX_SCALE - 9:
        x = MAX_SCALE - scale
        if hi < _POWER_OVERFLOW_VALUES[x - 1][2]:
            return None if x + scale < 0 else x
    elif hi < _OVERFLOW_MAX_HI[9] or (hi == _OVERFLOW_MAX_HI[9] and low64 <= _OVERFLOW_MAX_9_LOW64):
        return 9
    # the binary search (it never answers 9)
    if hi > _OVERFLOW_MAX_HI[5]:
        if hi > _OVERFLOW_MAX_HI[3]:
            x = 1 if hi > _OVERFLOW_MAX_HI[2] else 2
        else:
            x = 3 if hi > _OVERFLOW_MAX_HI[4] else 4
    elif hi > _OVERFLOW_MAX_HI[7]:
        x = 5 if hi > _OVERFLOW_MAX_HI[6] else 6
    else:
        x = 7 if hi > _OVERFLOW_MAX_HI[8] else 8
    lo, mid, top = _POWER_OVERFLOW_VALUES[x - 1]
    if hi == top and low64 > (mid << 32 | lo):
        x -= 1
    return None if x + scale < 0 else x


def _unscale_from_overflow(value: int, scale: int, sticky: bool) -> tuple[int, int]:
    """``unscale_from_overflow`` (div.rs): a quotient that went past 96 bits divided by ten,
    rounded half to even with the rest of the remainder as a sticky bit."""
    scale -= 1
    if scale < 0:
        raise DecimalOverflow
    q, digit = divmod(value, 10)
    if digit > 5 or (digit == 5 and (sticky or q & 1)):
        q += 1
    return q, scale


def _round_up(q: int, scale: int) -> tuple[int, int]:
    """``round_up`` (div.rs): one more in the last digit; at 2^96, ``unscale_from_overflow``."""
    q += 1
    if q > MAX_MANTISSA:
        return _unscale_from_overflow(q, scale, True)
    return q, scale


def _unscale(q: int, scale: int) -> tuple[int, int]:
    """``unscale`` (div.rs): trailing zeros stripped by 10^8 while the low 32 bits are zero,
    then by 10^4, 10^2 and 10 once each."""
    while q & 0xFFFFFFFF == 0 and scale >= 8 and q % 100000000 == 0:
        q //= 100000000
        scale -= 8
    if q & 0xF == 0 and scale >= 4 and q % 10000 == 0:
        q //= 10000
        scale -= 4
    if q & 0x3 == 0 and scale >= 2 and q % 100 == 0:
        q //= 100
        scale -= 2
    if q & 0x1 == 0 and scale >= 1 and q % 10 == 0:
        q //= 10
        scale -= 1
    return q, scale


def div(a: RustDecimal, b: RustDecimal) -> RustDecimal:
    """``a / b`` as rust_decimal 1.40.0's ``div_impl`` computes it (src/ops/div.rs:228-560).
    Raises DivisionByZero or DecimalOverflow where it returns those."""
    if b.mantissa == 0:
        raise DivisionByZero
    if a.mantissa == 0:
        return RustDecimal(False, 0, 0)  # Decimal::ZERO
    scale = a.scale - b.scale
    divisor = b.mantissa
    q, r = divmod(a.mantissa, divisor)
    require_unscale = False
    while True:
        if r == 0:
            if scale >= 0:
                break
            power_scale = min(9, -scale)
        else:
            require_unscale = True
            if scale == MAX_SCALE:
                will_overflow = True
            else:
                found = find_scale(q, scale)
                if found is None:
                    raise DecimalOverflow
                power_scale = found
                will_overflow = power_scale == 0
            if will_overflow:
                # no more digits fit: round the last one half to even
                if 2 * r > divisor or (2 * r == divisor and q & 1):
                    q, scale = _round_up(q, scale)
                break
        power = 10**power_scale
        scale += power_scale
        q *= power  # increase_scale: bits past 96 are an overflow
        if q > MAX_MANTISSA:
            raise DecimalOverflow
        digits, r = divmod(r * power, divisor)
        q += digits  # add32: a carry out of 96 bits is undone by unscale_from_overflow
        if q > MAX_MANTISSA:
            q, scale = _unscale_from_overflow(q, scale, r != 0)
            break
    if require_unscale:
        q, scale = _unscale(q, scale)
    return RustDecimal(a.negative != b.negative and q != 0, q, scale)


# RisingWave's decimal values beyond rust_decimal's: Decimal::{NaN, PositiveInf, NegativeInf}
NAN = "NaN"
POS_INF = "Infinity"
NEG_INF = "-Infinity"
RwDecimal = RustDecimal | str


def rw_divide(a: RwDecimal, b: RwDecimal) -> RwDecimal:
    """The expression ``divide(decimal, decimal)``: ``general_div`` calls ``checked_div``
    (arithmetic_op.rs:72-92), which for two finite values is rust_decimal's (None: ``Division by
    zero`` when the divisor is zero, else ``Numeric out of range``, raised here as the model's
    exceptions) and otherwise RisingWave's ``impl Div for Decimal`` (decimal.rs:327-362)."""
    if isinstance(a, RustDecimal) and isinstance(b, RustDecimal):
        return div(a, b)
    if a == NAN or b == NAN:
        return NAN
    if isinstance(b, RustDecimal):
        if b.mantissa == 0:  # an infinity over zero keeps its sign
            return a
        if isinstance(a, RustDecimal):  # pragma: no cover - both finite is handled above
            return div(a, b)
        return a if not b.negative else (NEG_INF if a == POS_INF else POS_INF)
    # over an infinity: a finite value is 0, an infinity NaN
    return RustDecimal(False, 0, 0) if isinstance(a, RustDecimal) else NAN
