"""Group keys come back as RisingWave's hash aggregation gives them: a decimal key
normalized (``219709.60`` -> ``219709.6``: src/common/src/hash/key.rs:531-535), a float key's
``-0`` as ``0``, for GROUP BY, DISTINCT and UNION in batch queries and materialized views; a
batch query grouping one table by a prefix of its primary key is a sort aggregation and keeps
the stored values (logical_agg.rs:1382-1386)."""

from __future__ import annotations

import pytest

from tests.datapath.conftest import Client


@pytest.fixture
def orders(db: Client) -> Client:
    db.run("CREATE TABLE hk_o (id int, price decimal, f float8)")
    db.run("INSERT INTO hk_o VALUES (1, 219709.60, -0.0), (2, 100.00, 1.5), (3, 100.0, 1.5)")
    yield db
    db.run("DROP TABLE IF EXISTS hk_o CASCADE")


def test_a_decimal_group_key_is_normalized(orders: Client) -> None:
    rows = orders.rows("SELECT price, count(*) FROM hk_o GROUP BY price ORDER BY 1")
    assert [(str(p), n) for p, n in rows] == [("100", 2), ("219709.6", 1)]
    # an expression over the key computes with the normalized key; aggregates read the rows
    rows = orders.rows("SELECT price::varchar, sum(price) FROM hk_o GROUP BY price ORDER BY 2")
    assert [(p, str(s)) for p, s in rows] == [("100", "200.00"), ("219709.6", "219709.60")]
    cur = orders.run("SELECT price::varchar, count(*) FROM hk_o GROUP BY price")
    assert [d.name for d in cur.description or ()] == ["price", "count"]


def test_distinct_union_and_a_float_key(orders: Client) -> None:
    rows = orders.rows("SELECT DISTINCT price FROM hk_o ORDER BY 1")
    assert [str(r[0]) for r in rows] == ["100", "219709.6"]
    rows = orders.rows("SELECT price FROM hk_o UNION SELECT 1.50 ORDER BY 1")
    assert [str(r[0]) for r in rows] == ["1.5", "100", "219709.6"]
    # UNION ALL aggregates nothing: the values as stored
    rows = orders.rows("SELECT price FROM hk_o UNION ALL SELECT 1.50 ORDER BY 1, 1")
    assert sorted(str(r[0]) for r in rows) == ["1.50", "100.0", "100.00", "219709.60"]
    rows = orders.rows("SELECT f::varchar, count(*) FROM hk_o GROUP BY f ORDER BY 2")
    assert rows == [("0", 1), ("1.5", 2)]


def test_sort_aggregation_over_a_primary_key_keeps_the_value(db: Client) -> None:
    db.run("CREATE TABLE hk_p (k decimal PRIMARY KEY, v int)")
    try:
        db.run("INSERT INTO hk_p VALUES (1.50, 1)")
        assert [str(r[0]) for r in db.rows("SELECT k, count(*) FROM hk_p GROUP BY k")] == ["1.50"]
        # grouped by more than the key's prefix: a hash aggregation
        rows = db.rows("SELECT k, v, count(*) FROM hk_p GROUP BY v, k")
        assert [str(r[0]) for r in rows] == ["1.5"]
        # a streaming job always aggregates by hash
        db.run("CREATE MATERIALIZED VIEW hk_m AS SELECT k, count(*) AS n FROM hk_p GROUP BY k")
        assert [(str(k), n) for k, n in db.rows("SELECT k, n FROM hk_m")] == [("1.5", 1)]
    finally:
        db.run("DROP TABLE IF EXISTS hk_p CASCADE")


def test_an_interval_key_is_justified(db: Client) -> None:
    """An interval's hash key is its total (30-day months, days, microseconds), read back
    justified (src/common/src/types/interval.rs:773-779, 854-874): '24 h' and '1 d' are one
    key, shown as '1 day' (e2e_test/streaming/bug_fixes/panic_on_interval_4575_comment.slt)."""
    db.run("CREATE TABLE hk_i (v interval)")
    try:
        db.run("INSERT INTO hk_i VALUES (interval '24 h'), (interval '1 d'), (interval '-25 h')")
        db.run("FLUSH")
        db.run("CREATE MATERIALIZED VIEW hk_im AS SELECT DISTINCT v FROM hk_i")
        assert sorted(str(r[0]) for r in db.rows("SELECT v::varchar FROM hk_im")) == [
            "-1 days -01:00:00",
            "1 day",
        ]
        rows = db.rows("SELECT v::varchar, count(*) FROM hk_i GROUP BY v ORDER BY 2")
        assert rows == [("-1 days -01:00:00", 1), ("1 day", 2)]
    finally:
        db.run("DROP TABLE IF EXISTS hk_i CASCADE")
