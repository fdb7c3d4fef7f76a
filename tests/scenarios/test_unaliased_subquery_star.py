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
