"""A scalar subquery in a materialized view over a real socket: RisingWave's stream plan has no
runtime one-row check, so a subquery not known to give at most one row is refused at CREATE
(optimizer/logical_optimization.rs:756-762) and nothing is made; a simple aggregation, LIMIT 1
or a query without FROM is known to; the same query runs in batch.

After RisingWave's e2e_test/batch/subquery/scalar_subquery.slt.part.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    return await rw_server_factory()


REFUSED = ("XX000", "\n\nCaused by:\n  Scalar subquery might produce more than one row.\n")


async def test_scalar_subqueries_in_mvs(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (x int)")
    await client.run("INSERT INTO t VALUES (114514)")
    assert await client.rows("SELECT (SELECT x FROM t) x, 1 one") == [(114514, 1)]
    for sql in (
        "CREATE MATERIALIZED VIEW mv AS SELECT (SELECT x FROM t) x, 1 one",
        "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t WHERE x >= (SELECT x FROM t)",
        "CREATE MATERIALIZED VIEW mv AS SELECT (SELECT max(x) FROM t GROUP BY x) m",
    ):
        assert await cause(client, sql) == REFUSED, sql
    await client.run(
        "CREATE MATERIALIZED VIEW mv AS SELECT (SELECT max(x) FROM t) m, (SELECT 1) one,"
        " x FROM t WHERE x IN (SELECT x FROM t)"
    )
    assert await client.rows("SELECT * FROM mv") == [(114514, 1, 114514)]
