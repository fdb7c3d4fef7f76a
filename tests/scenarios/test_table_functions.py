"""RisingWave's table functions over a real socket: ``range(start, stop [, step])`` in FROM
(generate_series without its end: src/expr/impl/src/table_function/generate_series.rs) in a
view's definition, a batch query and a materialized view; ``regexp_matches`` returning every
match with or without ``g`` (table_function/regexp_matches.rs; values from
e2e_test/batch/basic/func.slt.part)."""

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


async def test_regexp_matches_returns_every_match(client: Client) -> None:
    rows = await client.rows(
        "SELECT regexp_matches('foobarbequebazfoobarbequebaz', 'bar((be)|(bo))(que)')::varchar"
    )
    assert rows == [("{be,be,NULL,que}",), ("{be,be,NULL,que}",)]
    rows = await client.rows("SELECT regexp_matches('abcabc', 'Bc', 'ici')::varchar")
    assert rows == [("{bc}",), ("{bc}",)]
    assert await cause(client, "SELECT regexp_matches('abcabc', 'Bc', 'x')::varchar") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n"
        '  2: invalid regular expression option: "x"\n',
    )
