"""Decimal division and ``avg`` answer rust_decimal's digits, as RisingWave's do: ``rwfn.dec_div``
(sqlfn/decimal_div.py) against the Python model of rust_decimal 1.40's division
(rwshim/common/rust_decimal.py, itself checked against rust_decimal's vectors), in batch
queries and in materialized views."""

from __future__ import annotations

import csv
import random
from decimal import Decimal
from pathlib import Path

from rwshim.common import rust_decimal as rd

from .conftest import Client, caused_by

_VECTORS = Path(__file__).parents[1] / "unit" / "data" / "rust_decimal_div.csv"


def _random_decimal(rng: random.Random) -> rd.RustDecimal:
    kind = rng.random()
    if kind < 0.3:
        mantissa = rng.randrange(0, 10 ** rng.randrange(1, 8))
    elif kind < 0.6:
        mantissa = rng.randrange(0, 10 ** rng.randrange(1, 20))
    elif kind < 0.8:
        mantissa = rng.randrange(0, rd.MAX_MANTISSA + 1)
    else:  # near the limits find_scale and the roundings turn on
        near = rng.choice(
            [rd.MAX_MANTISSA, rd.MAX_MANTISSA // 10, rd.MAX_MANTISSA // 10**9, 2**64, 2**32, 10**28]
        )
        mantissa = min(max(near + rng.randrange(-2, 3), 0), rd.MAX_MANTISSA)
    return rd.RustDecimal(rng.random() < 0.3, mantissa, rng.randrange(0, 29))


def _random_divisor(rng: random.Random) -> rd.RustDecimal:
    """Half the time a divisor whose quotients end (only 2s and 5s, and a few others): exact
    results at each of the steps' ends."""
    if rng.random() < 0.5:
        return _random_decimal(rng)
    mantissa = rng.choice(
        [2, 4, 5, 8, 16, 25, 32, 80, 125, 1024, 3125, 2**20, 5**12, 10**9, 2**7 * 5**3, 3, 12, 40]
    )
    return rd.RustDecimal(rng.random() < 0.3, mantissa, rng.randrange(0, 29))


def _expected(a: rd.RustDecimal, b: rd.RustDecimal) -> str | None:
    try:
        return str(rd.div(a, b))
    except ArithmeticError:
        return None


def _texts(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """Rows with their decimals as text: ``Decimal`` equality ignores the scale, which is
    what these tests are about."""
    return [tuple(str(v) if isinstance(v, Decimal) else v for v in r) for r in rows]


def _divide_all(db: Client, pairs: list[tuple[str, str]], cast: str = "decimal") -> list[str]:
    """``a / b`` of each pair in one query, as text (numeric's text is rust_decimal's Display
    for these values)."""
    values = ", ".join(f"({i}, '{a}'::{cast}, '{b}'::decimal)" for i, (a, b) in enumerate(pairs))
    rows = db.rows(f"SELECT (a / b)::varchar FROM (VALUES {values}) AS v (i, a, b) ORDER BY i")
    return [r[0] for r in rows]


def test_division_is_rust_decimals_on_random_values(db: Client) -> None:
    rng = random.Random(20261207)
    pairs: list[tuple[str, str]] = []
    expected: list[str] = []
    while len(pairs) < 3000:
        a, b = _random_decimal(rng), _random_divisor(rng)
        want = _expected(a, b)
        if want is not None:  # an error fails the whole query: the errors are tested below
            pairs.append((str(a), str(b)))
            expected.append(want)
    got = _divide_all(db, pairs)
    wrong = [(p, w, g) for p, w, g in zip(pairs, expected, got, strict=True) if w != g]
    assert wrong == []


def test_division_is_rust_decimals_on_its_own_vectors(db: Client) -> None:
    with _VECTORS.open(newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if not r["Error"]]
    got = _divide_all(db, [(r["D1"], r["D2"]) for r in rows])
    assert [(r["D1"], r["D2"], g) for r, g in zip(rows, got, strict=True)] == [
        (r["D1"], r["D2"], r["Result"]) for r in rows
    ]


def test_integers_with_decimals(db: Client) -> None:
    # the integer is a decimal to RisingWave's divide (the binder's implicit cast)
    assert _texts(
        db.rows(
            "SELECT 1::decimal / 3, 28972601::decimal / 2, 12443::bigint / 2::decimal, "
            "7::smallint / 2.0, 10 / 0.5, 2.0 / 2, 1 / 0.5"
        )
    ) == _texts(
        [
            (
                Decimal("0.3333333333333333333333333333"),
                Decimal("14486300.50"),
                Decimal("6221.50"),
                Decimal("3.5"),
                Decimal("20"),
                Decimal("1.0"),
                Decimal("2.0"),
            )
        ]
    )
    # an integer over an integer stays an integer division, a float a float one
    assert _texts(db.rows("SELECT 7 / 2, 7::float8 / 2, 1.5::decimal / 2::float8")) == _texts(
        [(3, 3.5, 0.75)]
    )


def test_errors_and_special_values(db: Client) -> None:
    assert db.error("SELECT 1::decimal / 0") == caused_by("Expr error", "Division by zero")
    assert db.error("SELECT 0::decimal / 0.00") == caused_by("Expr error", "Division by zero")
    assert db.error(f"SELECT {rd.MAX_MANTISSA}::decimal / 0.1") == caused_by(
        "Expr error", "Numeric out of range"
    )
    # decimal.rs:327-362 (impl Div for Decimal): the values rust_decimal has not
    assert _texts(
        db.rows(
            "SELECT ('Infinity'::decimal / 0)::varchar, ('-Infinity'::decimal / -2)::varchar, "
            "('NaN'::decimal / 0)::varchar, (1::decimal / '-Infinity'::decimal)::varchar, "
            "('Infinity'::decimal / 'Infinity'::decimal)::varchar"
        )
    ) == _texts([("Infinity", "Infinity", "NaN", "0", "NaN")])


def test_avg_is_sum_over_count(db: Client) -> None:
    db.run("CREATE TABLE t (k int, i int, v bigint, d decimal, f double precision)")
    db.run(
        "INSERT INTO t VALUES (1, 12443, 12443, 28972601, 1.5), (1, 0, 0, 0, 2.5), "
        "(2, 1, 1, 1, 1), (2, 1, 1, 1.5, 1), (2, 2, 2, 2.25, 1), (3, NULL, NULL, NULL, NULL)"
    )
    cur = db.run("SELECT k, avg(i), avg(v), avg(d), avg(f) FROM t GROUP BY k ORDER BY k")
    assert [d.name for d in cur.description or []] == ["k", "avg", "avg", "avg", "avg"]
    assert _texts(cur.fetchall()) == _texts([
        (1, Decimal("6221.50"), Decimal("6221.50"), Decimal("14486300.50"), 2.0),
        (2, Decimal("1.3333333333333333333333333333"), Decimal("1.3333333333333333333333333333"),
         Decimal("1.5833333333333333333333333333"), 1.0),
        (3, None, None, None, None),
    ])  # fmt: skip
    # DISTINCT, FILTER, a window, an avg inside a subquery of another's FILTER
    assert _texts(
        db.rows(
            "SELECT avg(DISTINCT v), avg(v) FILTER (WHERE k = 2), "
            "avg(v) FILTER (WHERE v < (SELECT avg(v) FROM t)) FROM t"
        )
    ) == _texts([(Decimal("3111.50"), Decimal("1.3333333333333333333333333333"), Decimal("1"))])
    assert _texts(
        db.rows(
            "SELECT k, v, avg(v) OVER (PARTITION BY k ORDER BY v) FROM t WHERE k = 2 ORDER BY v, d"
        )
    ) == _texts(
        [
            (2, 1, Decimal("1")),
            (2, 1, Decimal("1")),
            (2, 2, Decimal("1.3333333333333333333333333333")),
        ]
    )


def test_materialized_view_divides_as_risingwave(db: Client) -> None:
    db.run("CREATE TABLE bids (auction int, price bigint, qty decimal)")
    db.run("INSERT INTO bids VALUES (1, 12443, 2), (1, 0, 0), (2, 29356954, 7)")
    db.run(
        "CREATE MATERIALIZED VIEW per_auction AS SELECT auction, avg(price) AS mean, "
        "sum(price)::decimal / sum(qty) AS per_unit FROM bids GROUP BY auction"
    )
    assert _texts(db.rows("SELECT * FROM per_auction ORDER BY auction")) == _texts(
        [
            (1, Decimal("6221.50"), Decimal("6221.50")),
            (2, Decimal("29356954"), Decimal("4193850.5714285714285714285714")),
        ]
    )
    db.run("INSERT INTO bids VALUES (2, 0, 0), (3, 5, 0)")
    # a division by zero in a streaming job's expression is NULL (non-strict evaluation)
    assert _texts(db.rows("SELECT * FROM per_auction ORDER BY auction")) == _texts(
        [
            (1, Decimal("6221.50"), Decimal("6221.50")),
            (2, Decimal("14678477"), Decimal("4193850.5714285714285714285714")),
            (3, Decimal("5"), None),
        ]
    )
