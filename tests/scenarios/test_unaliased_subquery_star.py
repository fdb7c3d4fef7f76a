"""A ``*`` over an unaliased subquery on user data (RisingWave's parser takes a subquery
without alias: parser.rs parse_table_factor), over a real socket: ``* EXCEPT`` over it,
NATURAL JOIN with it, and a name another FROM item shares refused clearly (never a column
silently taken from the wrong item).

After RisingWave's e2e_test/batch/basic/join.slt.part, subquery/subquery.slt.part and
top_n/group_top_n.slt.
"""

from __future__ import annotations

from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


async def test_star_over_unaliased_subqueries(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (x int, y int)")
    await client.run("INSERT INTO t VALUES (1, 2), (3, 4)")
    q = "SELECT * FROM t NATURAL JOIN (SELECT * FROM t WHERE 1=0)"
    assert await client.rows(q) == []
    q = "SELECT * FROM t NATURAL JOIN (SELECT * FROM t WHERE x = 1)"
    assert await client.rows(q) == [(1, 2)]
    q = "SELECT * EXCEPT (y) FROM (SELECT x, y, x + y AS z FROM t) ORDER BY x"
    assert await client.rows(q) == [(1, 3), (3, 7)]
    q = "SELECT * FROM t, (SELECT x + y AS s FROM t WHERE x = 1) ORDER BY x"
    assert await client.rows(q) == [(1, 2, 3), (3, 4, 3)]
    assert await cause(client, "SELECT * FROM t, (SELECT x FROM t)") == (
        "XX000",
        "\n\nCaused by:\n  Feature is not yet implemented: this wildcard on user data\nNo tracking"
        " issue yet. Feel free to submit a feature request at https://github.com/risingwavelabs"
        "/risingwave/issues/new?labels=type%2Ffeature&template=feature_request.yml\n",
    )


async def test_star_except_in_materialized_views(client: Client) -> None:
    """A materialized view's columns leave out what ``* EXCEPT`` names (they kept every
    column: dbt_rw_nexmark's q19 was created with ``rank_number`` and every read failed)."""
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
        "SELECT name FROM rw_catalog.rw_columns c JOIN rw_catalog.rw_materialized_views m"
        " ON c.relation_id = m.id WHERE m.name = 'e5' AND NOT c.is_hidden ORDER BY position"
    )
    assert cols == [("auction",), ("price",)]
    # a name no FROM item has: RisingWave's bind error, and no view is left behind
    assert await cause(client, "CREATE MATERIALIZED VIEW e4 AS SELECT * EXCEPT (nope) FROM b0") == (
        "XX000",
        " (recent errors listed first):\n  1: Failed to bind expression: nope\n"
        "  2: Item not found: Invalid column: nope\n",
    )
    assert (
        await client.rows("SELECT name FROM rw_catalog.rw_materialized_views WHERE name = 'e4'")
        == []
    )
