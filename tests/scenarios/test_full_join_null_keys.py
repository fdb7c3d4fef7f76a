"""A materialized view's FULL JOIN drops the rows whose stream keys and join keys are all NULL
(optimizer/plan_node/logical_join.rs:1770-1801, filter_out_all_null_keys; a batch query keeps
them): e2e_test/streaming/bug_fixes/issue_8084.slt and
e2e_test/streaming/join/full_outer_join_global_agg.slt.part, over a real socket.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


async def test_null_primary_key_rows_are_dropped(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (a int PRIMARY KEY)")
    await client.run(
        "CREATE MATERIALIZED VIEW mv AS SELECT t1.* FROM t AS t1 FULL JOIN t AS t2 ON t1.a = t2.a"
    )
    await client.run("INSERT INTO t VALUES (NULL), (1)")
    assert await client.rows("SELECT * FROM mv") == [(1,)]
    # the batch query keeps both NULL rows
    assert await client.rows(
        "SELECT t1.a FROM t AS t1 FULL JOIN t AS t2 ON t1.a = t2.a ORDER BY 1"
    ) == [(1,), (None,), (None,)]


async def test_global_aggregations_joined_on_a_null_key(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (a int, b int)")
    await client.run("CREATE MATERIALIZED VIEW g AS SELECT max(a) AS ma, max(b) AS mb FROM t")
    await client.run("INSERT INTO t VALUES (1, NULL)")
    await client.run(
        "CREATE MATERIALIZED VIEW j AS SELECT g1.ma AS ma1 FROM g AS g1"
        " FULL OUTER JOIN g AS g2 ON g1.mb = g2.mb"
    )
    assert await client.rows("SELECT * FROM j") == []
    await client.run("INSERT INTO t VALUES (2, 5)")
    assert await client.rows("SELECT * FROM j") == [(2,)]


async def test_unmatched_rows_with_keys_are_kept(client: Client) -> None:
    """A row padded with NULLs keeps its own side's key: it stays."""
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE l (k int, v int)")
    await client.run("CREATE TABLE r (k int PRIMARY KEY, w int)")
    await client.run("INSERT INTO l VALUES (1, 10), (NULL, 20)")
    await client.run("INSERT INTO r VALUES (2, 30), (NULL, 40)")
    await client.run(
        "CREATE MATERIALIZED VIEW f AS SELECT l.v, r.w FROM l FULL JOIN r ON l.k = r.k"
    )
    # (NULL, 20) keeps l's row id; r's (NULL, 40) has only NULL keys and l's side padded
    assert await client.rows("SELECT * FROM f ORDER BY v NULLS LAST, w") == [
        (10, None),
        (20, None),
        (None, 30),
    ]
