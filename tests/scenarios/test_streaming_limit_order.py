"""A materialized view's LIMIT without ORDER BY keeps the rows RisingWave's TopN keeps: ordered
by the first column, ties broken by the input's stream key (the table's primary key, else its
row id: optimizer/plan_node/logical_limit.rs:121-145; e2e_test/streaming/bug_fixes/
limit_topn_tie_breaker.slt), over a real socket, as rows come and go.
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


async def test_limit_ties_break_by_the_stream_key(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (pk int PRIMARY KEY, v int)")
    await client.run("INSERT INTO t VALUES (2, 1), (1, 1), (3, 1), (4, 2)")
    await client.run("CREATE MATERIALIZED VIEW mv AS SELECT v, pk FROM t LIMIT 2")
    await client.run("CREATE MATERIALIZED VIEW mo AS SELECT pk FROM t LIMIT 2 OFFSET 1")
    assert await client.rows("SELECT v, pk FROM mv ORDER BY pk") == [(1, 1), (1, 2)]
    assert await client.rows("SELECT pk FROM mo ORDER BY pk") == [(2,), (3,)]
    await client.run("INSERT INTO t VALUES (0, 1)")
    assert await client.rows("SELECT v, pk FROM mv ORDER BY pk") == [(1, 0), (1, 1)]
    assert await client.rows("SELECT pk FROM mo ORDER BY pk") == [(1,), (2,)]
    await client.run("DELETE FROM t WHERE pk = 0")
    assert await client.rows("SELECT v, pk FROM mv ORDER BY pk") == [(1, 1), (1, 2)]


async def test_limit_over_a_table_without_key(client: Client) -> None:
    """Ties break by the row id: the rows inserted first."""
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE r (v int, w varchar)")
    await client.run("INSERT INTO r VALUES (5, 'a'), (1, 'b')")
    await client.run("INSERT INTO r VALUES (1, 'c'), (1, 'd')")
    await client.run("CREATE MATERIALIZED VIEW mr AS SELECT v, w FROM r LIMIT 2")
    await client.run("UPDATE r SET w = 'z' WHERE w = 'a'")
    assert await client.rows("SELECT v, w FROM mr ORDER BY w") == [(1, "b"), (1, "c")]


async def test_order_sensitive_aggregates_read_in_stream_key_order(client: Client) -> None:
    """generic/agg.rs:466-525: the materialized input state is ordered by the call's ORDER BY,
    then the input's stream key (e2e_test/streaming/aggregate/jsonb_agg.slt)."""
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE kv (k int PRIMARY KEY, g int, v varchar)")
    await client.run("INSERT INTO kv VALUES (3, 1, 'c'), (1, 1, 'a'), (2, 2, 'a')")
    await client.run(
        "CREATE MATERIALIZED VIEW ma AS SELECT string_agg(v, ',') AS s,"
        " array_agg(k ORDER BY v) AS ks, jsonb_object_agg(v, k) AS o FROM kv"
    )
    assert await client.rows("SELECT s, ks::varchar, o::varchar FROM ma") == [
        ("a,a,c", "{1,2,3}", '{"a": 2, "c": 3}')
    ]
    await client.run("INSERT INTO kv VALUES (0, 3, 'a')")
    assert await client.rows("SELECT s, ks::varchar, o::varchar FROM ma") == [
        ("a,a,a,c", "{0,1,2,3}", '{"a": 2, "c": 3}')
    ]
