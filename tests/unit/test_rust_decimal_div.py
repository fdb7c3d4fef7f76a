"""rwshim.common.rust_decimal: rust_decimal 1.40.0's division, checked against rust_decimal's
own vectors (tests/decimal_tests.rs it_divides_decimals; a sample of tests/generated/Div_*.csv,
copied into tests/unit/data/rust_decimal_div.csv: per generated file, up to 25 ordinary rows,
6 of each other kind (a divisor of smaller scale, a rounding, division by zero, overflow)) and
the values RisingWave's e2e files expect of ``avg`` and ``/``."""

from __future__ import annotations

import csv
import random
from decimal import Decimal
from pathlib import Path

import pytest

from rwshim.common.rust_decimal import (
    MAX_MANTISSA,
    NAN,
    NEG_INF,
    POS_INF,
    DecimalOverflow,
    DivisionByZero,
    RustDecimal,
    div,
    find_scale,
    parse,
    rw_divide,
)

_DATA = Path(__file__).parent / "data" / "rust_decimal_div.csv"


def _div(a: str, b: str) -> str:
    return str(div(parse(a), parse(b)))


# tests/decimal_tests.rs:797-849 it_divides_decimals (the results without legacy-ops)
IT_DIVIDES_DECIMALS = [
    ("6", "3", "2"),
    ("10", "2", "5"),
    ("2.2", "1.1", "2"),
    ("-2.2", "-1.1", "2"),
    ("12.88", "5.6", "2.3"),
    ("1023427554493", "43432632", "23563.562864276795382789603909"),
    ("10000", "3", "3333.3333333333333333333333333"),
    ("2", "3", "0.6666666666666666666666666667"),
    ("1", "3", "0.3333333333333333333333333333"),
    ("-2", "3", "-0.6666666666666666666666666667"),
    ("2", "-3", "-0.6666666666666666666666666667"),
    ("-2", "-3", "0.6666666666666666666666666667"),
    ("1234.5678", "0.1234567890123456", "9999.99926999999982999953127"),
    ("1234.567890123456789012345678", "1.234567890123456789012345678", "1000"),
    ("32.91625929004387114334488", "3.27629537", "10.046792359274942644546996384"),
    ("5000", "1000.26957490549", "4.9986524887277738570721416846"),
    ("6142.6941216127122745222131114", "2", "3071.3470608063561372611065557"),
    ("3071.3470608063561372611065557", "1228.87000756", "2.4993262443638869285360708423"),
    ("590.3274854004009467754255123", "53.68997202826239", "10.995116277759516850521689988"),
]


@pytest.mark.parametrize(("a", "b", "expected"), IT_DIVIDES_DECIMALS)
def test_it_divides_decimals(a: str, b: str, expected: str) -> None:
    assert _div(a, b) == expected


def test_division_by_zero_is_its_own_result() -> None:
    # tests/decimal_tests.rs:851-856 it_can_divide_by_zero
    with pytest.raises(DivisionByZero):
        div(parse("2"), parse("0"))


def test_generated_vectors() -> None:
    """Every sampled row: the same value (what the generated test checks) and the same text
    (the generated results carry .NET's scale, which rust_decimal's follows), or the error."""
    with _DATA.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) > 1500
    kinds = {"ok": 0, "divide_by_zero": 0, "overflow": 0}
    for row in rows:
        a, b = parse(row["D1"]), parse(row["D2"])
        if row["Error"] == "divide_by_zero":
            with pytest.raises(DivisionByZero):
                div(a, b)
        elif row["Error"] == "overflow":
            with pytest.raises(DecimalOverflow):
                div(a, b)
        else:
            assert row["Error"] == ""
            got = div(a, b)
            assert (str(got), Decimal(str(got))) == (row["Result"], Decimal(row["Result"])), row
        kinds[row["Error"] or "ok"] += 1
    assert min(kinds.values()) > 20, kinds


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # the e2e files' avg (sum::decimal / count): nexmark q4 / q6_group_top1 / q17,
        # over_window/generated/basic/mod.slt.part
        ("12443", "2", "6221.50"),
        ("28972601", "2", "14486300.50"),
        ("29356954", "7", "4193850.5714285714285714285714"),
        ("28972843", "3", "9657614.333333333333333333333"),
        ("419920", "2", "209960"),
        ("29357163", "8", "3669645.375"),
        # an exact result is kept at its scale when no remainder was ever met
        ("10.00", "2", "5.00"),
        ("1", "8", "0.125"),
        ("0.00", "3", "0"),
        ("-1", "3", "-0.3333333333333333333333333333"),
        # a divisor of larger scale: the first steps scale up without the overflow check
        ("1", "0.00000000000000000003", "33333333333333333333.333333333"),
        # ... and unscale strips at most 7 zeros of the 9 a step added (10^8 only while the
        # low 32 bits are zero)
        ("1", "0.5", "2.0"),
        # the quotient leaves 96 bits after a step (add32's carry): divided by ten, rounded
        ("23768448754279301278063185101", "3", "7922816251426433759354395034"),
        # rounding up the last digit reaches 2^96: divided by ten again
        ("55459713759985036315480765235", "7", "7922816251426433759354395034"),
    ],
)
def test_values(a: str, b: str, expected: str) -> None:
    assert _div(a, b) == expected


def test_overflow() -> None:
    with pytest.raises(DecimalOverflow):
        div(parse(str(MAX_MANTISSA)), parse("0.1"))
    with pytest.raises(DecimalOverflow):
        div(parse(str(MAX_MANTISSA)), parse("0.3"))


def test_find_scale_table_is_the_largest_power_that_fits() -> None:
    # find_scale answers the largest x <= 9 with q * 10^x < 2^96 (capped at 28 - scale)
    for q in (
        0,
        1,
        7,
        10**18,
        2**64 * 4 + 5441186219426131129,
        2**64 * 4 + 5441186219426131130,
        MAX_MANTISSA // 10,
        MAX_MANTISSA // 10 + 1,
        MAX_MANTISSA // 1000,
        MAX_MANTISSA,
    ):
        fits = max(x for x in range(10) if q * 10**x <= MAX_MANTISSA)
        for scale in (0, 10, 19, 20, 25, 27):
            assert find_scale(q, scale) == min(fits, 28 - scale), (q, scale)
    assert find_scale(MAX_MANTISSA, -1) is None
    assert find_scale(10**26, -5) is None  # fits 10^2 only: cannot reach scale 0
    assert find_scale(0, -20) == 9  # the early answer skips the check


def test_display() -> None:
    assert str(RustDecimal(True, 5, 3)) == "-0.005"
    assert str(RustDecimal(False, 0, 2)) == "0.00"
    assert str(RustDecimal(False, 1234, 0)) == "1234"
    assert str(parse("-0.00")) == "0.00"


def test_rw_divide_special_values() -> None:
    """decimal.rs:327-362: NaN absorbs, an infinity over zero keeps its sign, a finite value
    over an infinity is 0, an infinity over a finite value takes the divisor's sign."""
    one, zero, minus = parse("1"), parse("0"), parse("-2")
    assert rw_divide(NAN, zero) == NAN
    assert rw_divide(one, NAN) == NAN
    assert rw_divide(POS_INF, zero) == POS_INF
    assert rw_divide(NEG_INF, zero) == NEG_INF
    assert rw_divide(one, POS_INF) == RustDecimal(False, 0, 0)
    assert rw_divide(minus, NEG_INF) == RustDecimal(False, 0, 0)
    assert rw_divide(POS_INF, NEG_INF) == NAN
    assert rw_divide(POS_INF, minus) == NEG_INF
    assert rw_divide(NEG_INF, minus) == POS_INF
    assert rw_divide(NEG_INF, one) == NEG_INF
    with pytest.raises(DivisionByZero):
        rw_divide(one, zero)


def test_find_scale_closed_form() -> None:
    """rwfn.dec_div (sqlfn/decimal_div.py) computes find_scale as the most powers of ten, at
    most 9 and at most up to scale 28, that keep the quotient within 96 bits, None where that is
    under 9 and leaves the scale negative: the source's table and binary search agree."""
    rng = random.Random(7)
    for _ in range(20000):
        q = rng.choice(
            [
                rng.randrange(0, MAX_MANTISSA + 1),
                rng.randrange(0, 10 ** rng.randrange(1, 29)),
                MAX_MANTISSA // 10 ** rng.randrange(1, 10) + rng.randrange(-2, 3),
            ]
        )
        q = min(max(q, 0), MAX_MANTISSA)
        scale = rng.randrange(-28, 28)
        fits = max(x for x in range(10) if q * 10**x <= MAX_MANTISSA)
        x = min(9, 28 - scale, fits)
        assert find_scale(q, scale) == (None if x < 9 and x + scale < 0 else x), (q, scale)
