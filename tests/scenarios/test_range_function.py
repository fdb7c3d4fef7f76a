"""``range(start, stop [, step])`` in FROM (generate_series without its end:
src/expr/impl/src/table_function/generate_series.rs), in a view's definition, a batch query
and a materialized view, over a real socket."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


async def test_range_in_from(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    # e2e_test/batch/duckdb/join/cross_product/test_cross_product_parallelism.test_slow.slt
    await client.run("CREATE VIEW integers AS SELECT * FROM range(0, 500, 1) tbl(i)")
    assert await client.rows("SELECT count(*), max(i) FROM integers") == [(500, 499)]
    assert await client.rows("SELECT * FROM range(5, 1, -2) t") == [(5,), (3,)]
    await client.run("CREATE TABLE tt (a int)")
    await client.run("CREATE MATERIALIZED VIEW mr AS SELECT a, r FROM tt, range(0, 2) r")
    await client.run("INSERT INTO tt VALUES (1)")
    assert await client.rows("SELECT * FROM mr ORDER BY r") == [(1, 0), (1, 1)]
