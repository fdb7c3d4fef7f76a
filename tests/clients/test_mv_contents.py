"""Materialized view contents over real sockets: joins, GROUP BY, DISTINCT and aggregates over
tables changed by INSERT, UPDATE and DELETE, an MV over an MV, and reading an MV that is still
being created (psycopg, autocommit, FLUSH after DML as RisingWave users do)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from decimal import Decimal

import psycopg
import pytest

from tests.conftest import ThreadRunning

SETUP = [
    "CREATE TABLE customers (id int PRIMARY KEY, name varchar, region varchar)",
    "CREATE TABLE orders (oid bigint PRIMARY KEY, cid int, amount numeric, qty int)",
    "CREATE MATERIALIZED VIEW order_lines AS SELECT o.oid, c.name, c.region, o.amount "
    "FROM orders o JOIN customers c ON o.cid = c.id",
    "CREATE MATERIALIZED VIEW by_region AS SELECT region, count(*) AS n, sum(amount) AS total, "
    "min(amount) AS lo, max(amount) AS hi FROM order_lines GROUP BY region",
    "CREATE MATERIALIZED VIEW regions AS SELECT DISTINCT region FROM customers",
    "CREATE MATERIALIZED VIEW stats AS SELECT count(*) AS n, count(DISTINCT cid) AS buyers, "
    "sum(qty) AS units, avg(qty) AS mean FROM orders",
    "CREATE MATERIALIZED VIEW unsold AS SELECT c.id, c.name FROM customers c "
    "LEFT JOIN orders o ON o.cid = c.id WHERE o.oid IS NULL",
]


@pytest.fixture
def conn(rw_thread_server: ThreadRunning) -> Iterator[psycopg.Connection]:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as c:
        for sql in SETUP:
            c.execute(sql)
        yield c


def q(conn: psycopg.Connection, sql: str) -> list[tuple[object, ...]]:
    return conn.execute(sql).fetchall()


def dml(conn: psycopg.Connection, sql: str) -> str:
    tag = conn.execute(sql).statusmessage or ""
    conn.execute("FLUSH")
    return tag


def test_mv_contents_follow_dml(conn: psycopg.Connection) -> None:
    assert q(conn, "SELECT * FROM by_region") == []
    assert q(conn, "SELECT * FROM stats") == [(0, 0, None, None)]

    assert dml(conn, "INSERT INTO customers VALUES (1, 'ann', 'eu'), (2, 'bob', 'us'), "
                     "(3, 'cid', 'eu'), (4, 'dan', 'apac')") == "INSERT 0 4"  # fmt: skip
    assert dml(conn, "INSERT INTO orders VALUES (10, 1, 5.50, 1), (11, 1, 4.50, 3), "
                     "(12, 2, 20, 2), (13, 3, 1.25, 4)") == "INSERT 0 4"  # fmt: skip

    assert q(conn, "SELECT * FROM order_lines ORDER BY oid") == [
        (10, "ann", "eu", Decimal("5.50")),
        (11, "ann", "eu", Decimal("4.50")),
        (12, "bob", "us", Decimal("20")),
        (13, "cid", "eu", Decimal("1.25")),
    ]
    assert q(conn, "SELECT * FROM by_region ORDER BY region") == [
        ("eu", 3, Decimal("11.25"), Decimal("1.25"), Decimal("5.50")),
        ("us", 1, Decimal("20"), Decimal("20"), Decimal("20")),
    ]
    assert q(conn, "SELECT region FROM regions ORDER BY region") == [("apac",), ("eu",), ("us",)]
    assert q(conn, "SELECT * FROM stats") == [(4, 3, 10, Decimal("2.5"))]
    assert q(conn, "SELECT * FROM unsold") == [(4, "dan")]

    # UPDATE moves bob to eu and reprices an order; DELETE drops cid's order and dan.
    assert dml(conn, "UPDATE customers SET region = 'eu' WHERE name = 'bob'") == "UPDATE 1"
    assert dml(conn, "UPDATE orders SET amount = amount * 2 WHERE oid = 10") == "UPDATE 1"
    assert dml(conn, "DELETE FROM orders WHERE cid = 3") == "DELETE 1"
    assert dml(conn, "DELETE FROM customers WHERE id = 4") == "DELETE 1"

    assert q(conn, "SELECT * FROM by_region ORDER BY region") == [
        ("eu", 3, Decimal("35.50"), Decimal("4.50"), Decimal("20")),
    ]
    assert q(conn, "SELECT region FROM regions ORDER BY region") == [("eu",)]
    assert q(conn, "SELECT * FROM stats") == [(3, 2, 6, Decimal("2"))]
    assert q(conn, "SELECT * FROM unsold") == [(3, "cid")]

    # Upsert on the primary key replaces the row: the join sees the new customer name.
    assert dml(conn, "INSERT INTO customers VALUES (1, 'anne', 'us')") == "INSERT 0 1"
    assert q(conn, "SELECT oid, name, region FROM order_lines ORDER BY oid") == [
        (10, "anne", "us"),
        (11, "anne", "us"),
        (12, "bob", "eu"),
    ]
    assert q(conn, "SELECT region, n, total FROM by_region ORDER BY region") == [
        ("eu", 1, Decimal("20")),
        ("us", 2, Decimal("15.50")),
    ]
    # An MV reads like a table: filters and joins over it.
    assert q(
        conn,
        "SELECT r.region, b.n FROM regions r LEFT JOIN by_region b USING (region) "
        "WHERE r.region LIKE '%u%' ORDER BY 1",
    ) == [("eu", 1), ("us", 2)]


def test_reading_a_creating_mv_fails_as_in_risingwave(conn: psycopg.Connection) -> None:
    dml(conn, "INSERT INTO customers SELECT g, 'c' || g, 'eu' FROM generate_series(1, 200) g")
    conn.execute("SET background_ddl = true")
    conn.execute("SET backfill_rate_limit = 0")
    assert (
        conn.execute("CREATE MATERIALIZED VIEW slow AS SELECT count(*) AS n FROM customers")
    ).statusmessage == "CREATE_MATERIALIZED_VIEW"
    assert q(conn, "SELECT status FROM rw_catalog.rw_materialized_views WHERE name = 'slow'") == [
        ("Creating",)
    ]
    # The binder only sees created tables (catalog_reader get_created_table_by_name).
    with pytest.raises(psycopg.errors.UndefinedObject) as info:
        q(conn, "SELECT * FROM slow")
    assert str(info.value) == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table or source not found: slow"
    )
    # Lift the rate limit: the backfill finishes and the MV reads its rows.
    conn.execute("ALTER MATERIALIZED VIEW slow SET BACKFILL_RATE_LIMIT = DEFAULT")
    deadline = time.monotonic() + 20
    while q(conn, "SELECT status FROM rw_materialized_views WHERE name = 'slow'") != [("Created",)]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert q(conn, "SELECT * FROM slow") == [(200,)]
    # An MV over a finished MV is created in the foreground and reads through both.
    conn.execute("SET background_ddl = false")
    conn.execute("SET backfill_rate_limit = DEFAULT")
    conn.execute("CREATE MATERIALIZED VIEW slow2 AS SELECT n * 2 AS n2 FROM slow")
    assert q(conn, "SELECT * FROM slow2") == [(400,)]
    dml(conn, "DELETE FROM customers WHERE id > 100")
    assert q(conn, "SELECT * FROM slow2") == [(200,)]
