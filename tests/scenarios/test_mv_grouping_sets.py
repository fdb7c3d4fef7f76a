"""Materialized views grouped by GROUPING SETS / ROLLUP / CUBE, over a real socket: their
columns are group keys (planner/select.rs plans a LogicalExpand under the aggregation), so
the grouping check takes them (e2e_test/streaming/grouping_sets/*.slt,
e2e_test/streaming/bug_fixes/issue_12620.slt); beside another GROUP BY item such an item is
refused (binder/select.rs:246-278).
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


async def test_grouping_sets_in_materialized_views(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE items (brand varchar, size varchar, sales int)")
    await client.run(
        "INSERT INTO items VALUES ('Foo', 'L', 10), ('Foo', 'M', 20), ('Bar', 'M', 15)"
    )
    await client.run(
        "CREATE MATERIALIZED VIEW c AS SELECT brand, size, sum(sales) AS s FROM items"
        " GROUP BY CUBE (brand, size)"
    )
    await client.run(
        "CREATE MATERIALIZED VIEW r AS SELECT brand, size, sum(sales) AS s FROM items"
        " GROUP BY ROLLUP (brand, size)"
    )
    await client.run(
        "CREATE MATERIALIZED VIEW g AS SELECT brand, size, sum(sales) AS s, grouping(brand) AS g1"
        " FROM items GROUP BY GROUPING SETS ((brand), (size), ())"
    )
    assert await client.rows(
        "SELECT brand, size, s FROM r ORDER BY brand NULLS LAST, size NULLS LAST"
    ) == [("Bar", "M", 15), ("Bar", None, 15), ("Foo", "L", 10), ("Foo", "M", 20),
          ("Foo", None, 30), (None, None, 45)]  # fmt: skip
    assert await client.rows("SELECT count(*) FROM c") == [(8,)]
    assert await client.rows(
        "SELECT brand, size, s, g1 FROM g ORDER BY brand NULLS LAST, size NULLS LAST"
    ) == [("Bar", None, 15, 0), ("Foo", None, 30, 0), (None, "L", 10, 1), (None, "M", 35, 1),
          (None, None, 45, 1)]  # fmt: skip
    await client.run("DELETE FROM items WHERE brand = 'Bar'")
    assert await client.rows("SELECT s FROM r WHERE brand IS NULL") == [(30,)]
    assert await cause(
        client,
        "CREATE MATERIALIZED VIEW bad AS SELECT brand, size, sum(sales) FROM items"
        " GROUP BY brand, ROLLUP (size)",
    ) == (
        "XX000",
        "\n\nCaused by:\n  Bind error: Only support one grouping item in group by clause\n",
    )
