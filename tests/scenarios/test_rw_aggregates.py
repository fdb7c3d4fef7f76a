"""RisingWave's aggregates PostgreSQL lacks, in a batch query and a materialized view, over a
real socket.

``approx_percentile(q [, relative_error]) WITHIN GROUP (ORDER BY x [DESC])``: RisingWave's
bucket estimate to the last digit (src/expr/impl/src/aggregate/approx_percentile.rs), the
default relative error 0.01, DESC as ``1 - q``; values from RisingWave's
e2e_test/streaming/aggregate/shuffle_approx_percentile.slt.  ``first_value`` /
``last_value`` with ORDER BY as aggregates (aggregate/first_last_value.rs).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


QUERY = """SELECT
    approx_percentile(0.01, 0.01) WITHIN GROUP (ORDER BY p_col) AS p01,
    approx_percentile(0.1, 0.01) WITHIN GROUP (ORDER BY p_col) AS p10,
    approx_percentile(0.5) WITHIN GROUP (ORDER BY p_col) AS p50,
    approx_percentile(0.9, 0.01) WITHIN GROUP (ORDER BY p_col) AS p90,
    approx_percentile(0.99, 0.01) WITHIN GROUP (ORDER BY p_col DESC) AS p01_desc
FROM t GROUP BY grp_col"""


async def test_batch_and_materialized_view(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (p_col double, grp_col int)")
    await client.run("INSERT INTO t SELECT a, 1 FROM generate_series(-1000, 1000) t(a)")
    await client.run("INSERT INTO t VALUES (NULL, 1)")
    await client.run(f"CREATE MATERIALIZED VIEW m1 AS {QUERY}")
    first = (
        -982.5779489474152, -804.4614206837127, 0.0, 804.4614206837127, -982.5779489474152,
    )  # fmt: skip
    assert await client.rows(QUERY) == [first]
    assert await client.rows("SELECT * FROM m1") == [first]
    await client.run("INSERT INTO t SELECT 0.001, 1 FROM generate_series(1, 500)")
    await client.run("INSERT INTO t SELECT 0.0001, 1 FROM generate_series(1, 501)")
    assert await client.rows("SELECT * FROM m1") == [
        (
            -963.1209598593477,
            -699.3618972397041,
            0.00009999833511933609,
            699.3618972397041,
            -963.1209598593477,
        )
    ]
    await client.run("DELETE FROM t")
    assert await client.rows("SELECT * FROM m1") == []
    assert await client.rows(
        "SELECT approx_percentile(0.5) WITHIN GROUP (ORDER BY p_col) FROM t"
    ) == [(None,)]


async def test_first_and_last_value_as_ordered_aggregates(client: Client) -> None:
    # first_last_value.rs: the first (last) row's value in the call's order, NULL included
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE fl (k int, v int, s varchar, a int[])")
    await client.run(
        "INSERT INTO fl VALUES (1, 3, 'x', ARRAY[1, 2]), (1, 1, NULL, ARRAY[3]), (2, 5, 'y', NULL)"
    )
    q = (
        "SELECT k, first_value(s ORDER BY v), last_value(s ORDER BY v),"
        " first_value(a ORDER BY v DESC)::varchar FROM fl GROUP BY k"
    )
    assert await client.rows(q + " ORDER BY k") == [(1, None, "x", "{1,2}"), (2, "y", "y", None)]
    await client.run(
        "CREATE MATERIALIZED VIEW mfl AS SELECT k, first_value(s ORDER BY v) AS f,"
        " last_value(s ORDER BY v) AS l FROM fl GROUP BY k"
    )
    assert await client.rows("SELECT * FROM mfl ORDER BY k") == [(1, None, "x"), (2, "y", "y")]
    await client.run("DELETE FROM fl WHERE v = 1")
    assert await client.rows("SELECT * FROM mfl ORDER BY k") == [(1, "x", "x"), (2, "y", "y")]
    await client.run("INSERT INTO fl VALUES (1, 4, NULL, NULL)")
    # the window functions of the same name answer as before
    rows = await client.rows(
        "SELECT v, first_value(v) OVER (PARTITION BY k ORDER BY v),"
        " last_value(v) OVER (PARTITION BY k ORDER BY v) FROM fl ORDER BY v"
    )
    assert rows == [(3, 3, 3), (4, 3, 4), (5, 5, 5)]


async def test_jsonb_aggregates_in_a_materialized_view(client: Client) -> None:
    # e2e_test/streaming/aggregate/jsonb_agg.slt: jsonb_agg(boolean) binds in an MV
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE tj (v1 boolean, v2 int, v3 varchar)")
    await client.run("INSERT INTO tj VALUES (true, 1, 'a'), (NULL, 2, 'b')")
    await client.run(
        "CREATE MATERIALIZED VIEW mj AS SELECT jsonb_agg(v1 ORDER BY v2) AS j1 FROM tj"
    )
    await client.run(
        "CREATE MATERIALIZED VIEW mo AS SELECT v3, jsonb_object_agg(v3, v2) AS o FROM tj"
        " GROUP BY v3"
    )
    assert await client.rows("SELECT j1::varchar FROM mj") == [("[true, null]",)]
    assert await client.rows("SELECT v3, o::varchar FROM mo ORDER BY v3") == [
        ("a", '{"a": 1}'),
        ("b", '{"b": 2}'),
    ]


async def test_scalar_function_as_aggregate(client: Client) -> None:
    # ``aggregate:f(x)``: f over the group's array (e2e_test/streaming/aggregate/wrap_scalar.slt)
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE tw (a varchar, b int, c int)")
    await client.run(
        "INSERT INTO tw VALUES ('aaa', 1, 1), ('bbb', 0, 2), ('ccc', 0, 5), ('ddd', 1, 4)"
    )
    await client.run("CREATE MATERIALIZED VIEW mw1 AS SELECT aggregate:array_sum(c) AS res FROM tw")
    await client.run(
        "CREATE MATERIALIZED VIEW mw2 AS SELECT b, aggregate:array_max(c) AS res FROM tw GROUP BY b"
    )
    await client.run("INSERT INTO tw VALUES ('x', 1, 2), ('y', 3, 6)")
    assert await client.rows("SELECT * FROM mw1") == [(20,)]
    assert await client.rows("SELECT * FROM mw2 ORDER BY b") == [(0, 5), (1, 4), (3, 6)]
    rows = await client.rows("SELECT aggregate:array_sum(v) FROM (VALUES (3), (2), (1)) AS t(v)")
    assert rows == [(6,)]


async def test_sql_function_as_aggregate(client: Client) -> None:
    """``aggregate:f(x ORDER BY y)`` of a SQL function over an array: RisingWave looks the
    function up by the arguments' list types and binds its body (binder/expr/function/
    mod.rs:203-237), recording the dependency (e2e_test/streaming/aggregate/wrap_scalar.slt)."""
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE tw (a varchar, b int, c int)")
    await client.run(
        "INSERT INTO tw VALUES ('aaa', 1, 1), ('bbb', 0, 2), ('ccc', 0, 5), ('ddd', 1, 4)"
    )
    await client.run(
        "CREATE FUNCTION myjoin(text[]) RETURNS text LANGUAGE sql AS"
        " $$ SELECT array_join($1, ', '); $$"
    )
    await client.run(
        "CREATE MATERIALIZED VIEW mw3 AS"
        " SELECT b, aggregate:myjoin(a ORDER BY c) AS res FROM tw GROUP BY b"
    )
    assert await client.rows("SELECT * FROM mw3 ORDER BY b") == [(0, "bbb, ccc"), (1, "aaa, ddd")]
    await client.run("INSERT INTO tw VALUES ('x', 1, 2)")
    assert await client.rows("SELECT res FROM mw3 WHERE b = 1") == [("aaa, x, ddd",)]
    assert await cause(client, "DROP FUNCTION myjoin") == (
        "XX000",
        "\n\nCaused by:\n  Permission denied: function used by 1 other objects. \n"
        "DETAIL: materialized view public.mw3 depends on it\n"
        "HINT: DROP the dependent objects first.\n",
    )
