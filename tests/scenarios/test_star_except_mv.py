"""``* EXCEPT (cols)`` in materialized views over a real socket: the view's catalog columns
leave out what the EXCEPT list names (binder/select.rs generate_except_indices), an unknown
name is RisingWave's bind error.  They kept every column: dbt_rw_nexmark's q19 was created with
``rank_number`` and every read failed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    # barriers on the wall clock: CREATE MATERIALIZED VIEW waits for its backfill's barrier
    return await rw_server_factory()


async def test_star_except_in_materialized_views(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE b0 (auction bigint, price bigint, x varchar)")
    await client.run("INSERT INTO b0 VALUES (1, 10, 'a'), (1, 20, 'b'), (2, 5, 'c')")
    await client.run("CREATE MATERIALIZED VIEW e1 AS SELECT * EXCEPT (x) FROM b0")
    assert await client.rows("SELECT * FROM e1 ORDER BY price") == [(2, 5), (1, 10), (1, 20)]
    await client.run(
        "CREATE MATERIALIZED VIEW q19 AS SELECT * EXCEPT (rank_number) FROM (SELECT *,"
        " ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM b0)"
        " WHERE rank_number <= 1"
    )
    assert await client.rows("SELECT * FROM q19 ORDER BY auction") == [(1, 20, "b"), (2, 5, "c")]
    await client.run("CREATE MATERIALIZED VIEW e5 AS SELECT b0.* EXCEPT (b0.x) FROM b0")
    cols = await client.rows(
        "SELECT c.name FROM rw_catalog.rw_columns c JOIN rw_catalog.rw_materialized_views m"
        " ON c.relation_id = m.id WHERE m.name = 'e5' AND NOT c.is_hidden ORDER BY c.position"
    )
    assert cols == [("auction",), ("price",)]
    # a name no FROM item has: RisingWave's bind error, and no view is left behind
    assert await cause(client, "CREATE MATERIALIZED VIEW e4 AS SELECT * EXCEPT (nope) FROM b0") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: nope\n"
        "  2: Item not found: Invalid column: nope\n",
    )
    assert (
        await client.rows("SELECT name FROM rw_catalog.rw_materialized_views WHERE name = 'e4'")
        == []
    )
