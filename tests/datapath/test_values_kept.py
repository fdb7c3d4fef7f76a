"""Values the SQLite data path lost without a word (issue: no silent wrong values): a numeric
NaN read back as NULL, and generate_series stopping at 10,000,001 values.  On the data plane
they are RisingWave's answers: numeric NaN is a value (types/decimal.rs: Decimal::NaN, printed
``NaN``), and a series has every value it asks for."""

from __future__ import annotations

from decimal import Decimal

from .conftest import Client


def test_numeric_nan_is_kept_in_a_table_and_in_a_query(db: Client) -> None:
    db.run("CREATE TABLE n (v numeric)")
    assert db.tag("INSERT INTO n VALUES ('NaN'), (1.5), (NULL)") == "INSERT 0 3"
    rows = db.rows("SELECT v::varchar FROM n ORDER BY v NULLS LAST")
    assert rows == [("1.5",), ("NaN",), (None,)]  # NaN sorts above every number
    assert db.rows("SELECT count(*) FROM n WHERE v = 'NaN'") == [(1,)]
    (value,) = db.rows("SELECT 'NaN'::numeric")[0]
    assert isinstance(value, Decimal) and value.is_nan()


def test_generate_series_returns_every_value(db: Client) -> None:
    n = 10_000_005  # past the old path's silent stop at 10,000,001
    assert db.rows(f"SELECT count(*), max(g) FROM generate_series(1, {n}) AS g") == [(n, n)]
