"""Materialized views read as their defining query on the data plane: their rows follow their
upstreams through INSERT, UPDATE and DELETE (an MV over an MV too), an index reads as its
columns, TUMBLE and HOP windows.  Ported from the in-process path's unit tests."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from .conftest import Client, caused_by


@pytest.fixture
def shop(db: Client) -> Client:
    db.run("CREATE TABLE customers (id int PRIMARY KEY, name varchar, region varchar)")
    db.run("CREATE TABLE orders (oid bigint PRIMARY KEY, cid int, amount numeric)")
    db.run("INSERT INTO customers VALUES (1, 'ann', 'eu'), (2, 'bob', 'us'), (3, 'cid', 'eu')")
    db.run("INSERT INTO orders VALUES (10, 1, 5.5), (11, 1, 4.5), (12, 2, 7)")
    return db


def test_join_group_by_mv_follows_dml(shop: Client) -> None:
    shop.run(
        "CREATE MATERIALIZED VIEW spend AS SELECT c.name, sum(o.amount) AS total, count(*) AS n "
        "FROM customers c JOIN orders o ON o.cid = c.id GROUP BY c.name"
    )
    cur = shop.run("SELECT * FROM spend ORDER BY name")
    assert [(d.name, d.type_code) for d in cur.description or []] == [
        ("name", 1043),
        ("total", 1700),
        ("n", 20),
    ]
    assert cur.fetchall() == [("ann", Decimal("10.0"), 2), ("bob", Decimal("7"), 1)]
    shop.run("INSERT INTO orders VALUES (13, 3, 1.25)")
    shop.run("UPDATE orders SET amount = 1 WHERE oid = 12")
    shop.run("DELETE FROM orders WHERE oid = 10")
    assert shop.rows("SELECT * FROM spend ORDER BY name") == [
        ("ann", Decimal("4.5"), 1),
        ("bob", Decimal("1"), 1),
        ("cid", Decimal("1.25"), 1),
    ]


def test_distinct_and_mv_over_mv(shop: Client) -> None:
    shop.run("CREATE MATERIALIZED VIEW regions AS SELECT DISTINCT region FROM customers")
    shop.run("CREATE MATERIALIZED VIEW region_count AS SELECT count(*) AS regions FROM regions")
    assert shop.rows("SELECT * FROM regions ORDER BY region") == [("eu",), ("us",)]
    assert shop.rows("SELECT regions FROM region_count") == [(2,)]
    shop.run("INSERT INTO customers VALUES (4, 'dan', 'apac')")
    assert shop.rows("SELECT regions FROM region_count") == [(3,)]
    shop.run("DELETE FROM customers WHERE region = 'us'")
    assert shop.rows("SELECT regions FROM region_count") == [(2,)]


def test_aggregates_over_changing_table(shop: Client) -> None:
    shop.run(
        "CREATE MATERIALIZED VIEW stats AS SELECT min(amount) AS lo, max(amount) AS hi, "
        "avg(amount) AS mean, count(DISTINCT cid) AS buyers FROM orders"
    )
    # avg of numeric is RisingWave's sum / count: rust_decimal's digits (test_decimal_div.py)
    ((lo, hi, mean, buyers),) = shop.rows("SELECT * FROM stats")
    assert (lo, hi, buyers) == (Decimal("4.5"), Decimal("7"), 2)
    assert str(mean) == "5.6666666666666666666666666667"
    shop.run("DELETE FROM orders")
    assert shop.rows("SELECT * FROM stats") == [(None, None, None, 0)]


def test_dropped_mv_is_not_found(db: Client) -> None:
    db.run("CREATE TABLE a (x int)")
    db.run("INSERT INTO a VALUES (1)")
    db.run("CREATE MATERIALIZED VIEW m AS SELECT x FROM a")
    assert db.rows("SELECT * FROM m") == [(1,)]
    db.run("DROP MATERIALIZED VIEW m")
    assert db.error("SELECT * FROM m") == caused_by("Catalog error", "table or source not found: m")


def test_backfill_reads_the_upstream_row_count(shop: Client) -> None:
    # The backfill model counts the upstream's rows on the data plane before the CREATE:
    # with a rate limit of 1 row/s per actor the job stays Creating over 3 rows.
    shop.run("SET background_ddl = true")
    shop.run("SET backfill_rate_limit = 1")
    shop.run("CREATE MATERIALIZED VIEW big AS SELECT o.oid FROM orders o")
    progress = shop.rows("SELECT progress FROM rw_catalog.rw_ddl_progress")
    assert progress and "/3)" in str(progress[0][0]), progress


def test_index_reads_as_its_columns_of_the_table(shop: Client) -> None:
    shop.run("CREATE INDEX idx_region ON customers(region)")
    cur = shop.run("SELECT * FROM idx_region ORDER BY id")
    names = [d.name for d in cur.description or []]
    assert names[0] == "region" and "id" in names
    assert [r[0] for r in cur.fetchall()] == ["eu", "us", "eu"]


def test_tumble_and_hop_windows(db: Client) -> None:
    db.run("CREATE TABLE ev (id int PRIMARY KEY, ts timestamp)")
    db.run(
        "INSERT INTO ev VALUES (1, '2024-01-01 00:00:30'), "
        "(2, '2024-01-01 00:01:10'), (3, '2024-01-01 00:01:50')"
    )
    m = dt.datetime(2024, 1, 1, 0, 0)
    db.run(
        "CREATE MATERIALIZED VIEW per_minute AS SELECT window_start, count(*) AS n "
        "FROM TUMBLE(ev, ts, INTERVAL '1 minute') GROUP BY window_start"
    )
    assert db.rows("SELECT * FROM per_minute ORDER BY 1") == [
        (m, 1),
        (m + dt.timedelta(minutes=1), 2),
    ]
    cur = db.run("SELECT * FROM tumble(ev, ts, INTERVAL '1 minute') WHERE id = 1")
    assert [(d.name, d.type_code) for d in cur.description or []] == [
        ("id", 23),
        ("ts", 1114),
        ("window_start", 1114),
        ("window_end", 1114),
    ]
    assert cur.fetchall() == [
        (1, dt.datetime(2024, 1, 1, 0, 0, 30), m, m + dt.timedelta(minutes=1))
    ]
    hop = db.rows(
        "SELECT window_start, window_end FROM hop(ev, ts, INTERVAL '1 minute', "
        "INTERVAL '2 minutes') WHERE id = 2 ORDER BY 1"
    )
    assert hop == [
        (m, m + dt.timedelta(minutes=2)),
        (m + dt.timedelta(minutes=1), m + dt.timedelta(minutes=3)),
    ]
