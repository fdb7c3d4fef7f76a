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


def test_a_failing_table_function_gives_no_rows_in_a_view(db: Client) -> None:
    """RisingWave's streaming ProjectSet reports a table function's error and gives no rows
    for that input row, NULL beside another table function's rows (project_set.rs:186-215;
    e2e_test/streaming/bug_fixes/issue_11915.slt)."""
    db.run("CREATE TABLE sr (x int)")
    db.run(
        "CREATE MATERIALIZED VIEW srm AS SELECT x, generate_series(1, 2, x) AS g,"
        " generate_series(1, 3) AS r FROM sr"
    )
    db.run("CREATE MATERIALIZED VIEW srn AS SELECT x, generate_series(1, 2, x) AS g FROM sr")
    db.run("INSERT INTO sr VALUES (0), (1)")
    db.run("FLUSH")
    assert db.rows("SELECT * FROM srn ORDER BY g") == [(1, 1), (1, 2)]
    assert db.rows("SELECT * FROM srm ORDER BY x, r") == [
        (0, None, 1), (0, None, 2), (0, None, 3), (1, 1, 1), (1, 2, 2), (1, None, 3)
    ]  # fmt: skip
    # a batch query stays strict
    assert db.error("SELECT generate_series(1, 2, x) FROM sr") == caused_by(
        "Expr error", "Invalid parameter step: step size cannot equal zero"
    )
    db.run("DROP TABLE sr CASCADE")


def test_scalar_function_and_cte_window_in_views(db: Client) -> None:
    """A scalar function in FROM is one row (binder/relation/table_function.rs:95-158); the
    relation of TUMBLE may be a CTE (e2e_test/streaming/values.slt, issue_15198.slt)."""
    db.run("CREATE MATERIALIZED VIEW sfm AS SELECT * FROM abs(-1)")
    assert db.rows("SELECT * FROM sfm") == [(1,)]
    db.run(
        "CREATE MATERIALIZED VIEW twm AS WITH input AS (SELECT 1 AS id,"
        " to_timestamp('2024-01-01 01:30:02', 'YYYY-MM-DD HH24:MI:SS') AS ts)"
        " SELECT id, window_start FROM tumble(input, ts, interval '1 DAY', '+6 HOURS')"
    )
    cur = db.run("SELECT * FROM twm")
    assert [d.name for d in cur.description or []] == ["id", "window_start"]
    assert [(r[0], str(r[1])) for r in cur.fetchall()] == [(1, "2023-12-31 06:00:00+00:00")]
    db.run("DROP MATERIALIZED VIEW sfm")
    db.run("DROP MATERIALIZED VIEW twm")


def test_an_impure_table_function_is_refused_before_rwshims_limit(db: Client) -> None:
    """A user-defined table function is impure (pure.rs:85-88); on a retract stream the
    ProjectSet refuses it (table_function.rs:670-673) before rwshim's own refusal of a
    JavaScript function (e2e_test/streaming/impure_expr_materialize.slt)."""
    db.run("CREATE TABLE it (a int)")
    db.run(
        "CREATE FUNCTION rand_rows(n int) RETURNS TABLE (x int) LANGUAGE javascript AS $$"
        " export function* rand_rows(n) { yield { x: n }; } $$"
    )
    assert db.error("CREATE MATERIALIZED VIEW itm AS SELECT a, rand_rows(a) FROM it") == (
        caused_by(
            "Not supported: using an impure expression (user-defined table function "
            "`rand_rows`) in table function on a retract stream may lead to inconsistent "
            "results\nHINT: rewrite the query to extract the impure expression into the select "
            "list, or set `streaming_unsafe_allow_unmaterialized_impure_expr` to allow the "
            "behavior at the risk of inconsistent results or panics during execution"
        )
    )
    db.run("DROP FUNCTION rand_rows(int)")
    db.run("DROP TABLE it")


def test_a_view_computes_in_its_creating_sessions_time_zone(db: Client) -> None:
    """A streaming job's expressions run in the time zone of the session that created it
    (src/stream/src/executor/actor.rs:118-130 expr_context; e2e_test/streaming/
    expr_context.slt), whatever the zone of the sessions writing its upstreams; make_timestamptz
    binds by RisingWave's signatures (make_time.rs:84-105: int4 x5, float8[, varchar])."""
    db.run("SET TimeZone TO 'America/New_York'")
    db.run("CREATE TABLE tz (ts timestamptz, x timestamp, n int)")
    db.run(
        "CREATE MATERIALIZED VIEW tzm AS SELECT ts::varchar AS a, x::timestamptz AS b,"
        " date_trunc('day', ts) AS c, make_timestamptz(n, n, n, n, n, n) AS d,"
        " make_timestamptz(n, n, n, n, n, n, 'Asia/Manila') AS e FROM tz"
    )
    db.run("SET TimeZone TO 'UTC'")
    db.run("INSERT INTO tz VALUES ('2020-01-01 03:00:00+00', '2020-01-01 03:00:00', 1)")
    rows = db.rows("SELECT a, b::varchar, c::varchar, d::varchar, e::varchar FROM tzm")
    assert rows == [
        (
            "2019-12-31 22:00:00-05:00", "2020-01-01 08:00:00+00:00",
            "2019-12-31 05:00:00+00:00", "0001-01-01 05:57:03+00:00",
            "0001-01-01 16:57:09+00:00",
        )
    ]  # fmt: skip
    assert db.error("CREATE MATERIALIZED VIEW tzn AS SELECT make_timestamptz(n, n) FROM tz") == (
        caused_by(
            "Failed to bind expression: make_timestamptz(n, n)",
            "function make_timestamptz(integer, integer) does not exist",
        )
    )
    db.run("DROP TABLE tz CASCADE")


def test_unordered_aggregates_see_the_stream_key_order(db: Client) -> None:
    """An order-sensitive aggregate without ORDER BY aggregates its input by the input's
    stream key (generic/agg.rs:398-434): the later of two rows with one key wins in
    jsonb_object_agg, whatever order another call's ORDER BY gives PostgreSQL's plan
    (e2e_test/streaming/aggregate/jsonb_agg.slt); jsonb_agg((row(...)).*) aggregates the row
    (function/mod.rs:869-913)."""
    db.run("CREATE TABLE oa (k varchar, v jsonb, o int)")
    db.run(
        "CREATE MATERIALIZED VIEW oam AS SELECT jsonb_object_agg(k, v) AS j,"
        " jsonb_agg(o ORDER BY o) AS os, array_agg(o) AS a FROM oa"
    )
    db.run("INSERT INTO oa VALUES ('b', NULL, 2), ('c', 'null', 1)")
    db.run("INSERT INTO oa VALUES ('b', '999', 0)")
    assert db.rows("SELECT j::varchar, os::varchar, a FROM oam") == [
        ('{"b": 999, "c": null}', "[0, 1, 2]", [2, 1, 0])
    ]
    rows = db.rows("SELECT jsonb_agg((row(o, k)).* ORDER BY o)::varchar FROM oa")
    assert rows == [('[{"f1": 0, "f2": "b"}, {"f1": 1, "f2": "c"}, {"f1": 2, "f2": "b"}]',)]
    db.run("DROP TABLE oa CASCADE")


def test_a_lateral_subquery_in_a_view(db: Client) -> None:
    """``LEFT JOIN LATERAL (SELECT ... o.c ...)``: RisingWave binds the subquery with the
    FROM items before it in scope and decorrelates it; PostgreSQL runs it as written
    (e2e_test/streaming/bug_fixes/issue_15075.slt)."""
    db.run("CREATE TABLE la (k int, x int)")
    db.run("CREATE TABLE lb (k int, y int)")
    db.run(
        "CREATE MATERIALIZED VIEW lam AS SELECT la.k, s.t FROM la LEFT JOIN LATERAL"
        " (SELECT sum(lb.y) FILTER (WHERE lb.y > la.x) AS t FROM lb WHERE lb.k = la.k) AS s"
        " ON TRUE"
    )
    db.run("INSERT INTO la VALUES (1, 6), (2, 2)")
    db.run("INSERT INTO lb VALUES (1, 10), (1, 5)")
    assert db.rows("SELECT * FROM lam ORDER BY k") == [(1, 10), (2, None)]
    db.run("DROP TABLE la CASCADE")
    db.run("DROP TABLE lb CASCADE")
