"""A materialized view over ``LEFT JOIN LATERAL (subquery)``: the subquery sees the items
before it (binder/relation/mod.rs:643-656; e2e_test/streaming/bug_fixes/issue_15075.slt), over
a real socket, as rows come.
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


async def test_lateral_aggregate_per_row(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE o (k varchar, lim int)")
    await client.run("CREATE TABLE i (k varchar, v int)")
    await client.run("INSERT INTO o VALUES ('a', 2), ('b', 10)")
    await client.run("INSERT INTO i VALUES ('a', 1), ('a', 3), ('b', 4)")
    await client.run(
        "CREATE MATERIALIZED VIEW m AS SELECT o.k, b.s FROM o LEFT JOIN LATERAL"
        " (SELECT sum(i.v) FILTER (WHERE i.v <= o.lim) AS s FROM i WHERE i.k = o.k) AS b ON TRUE"
    )
    assert await client.rows("SELECT * FROM m ORDER BY k") == [("a", 1), ("b", 4)]
    await client.run("INSERT INTO i VALUES ('b', 5)")
    assert await client.rows("SELECT * FROM m ORDER BY k") == [("a", 1), ("b", 9)]
