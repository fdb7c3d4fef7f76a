"""``UNION | EXCEPT | INTERSECT [ALL] CORRESPONDING [BY (cols)]`` over a real socket, in a batch
query and in a materialized view: the columns both sides name, in the left side's order (or the
BY list's), RisingWave's errors (binder/set_expr.rs:232-318) and its refusal of INTERSECT ALL /
EXCEPT ALL (set_expr.rs:351-358).

Values from RisingWave's e2e_test/batch/basic/union.slt.part.
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


async def tables(c: Client) -> None:
    await c.run("SET RW_IMPLICIT_FLUSH TO true")
    await c.run("CREATE TABLE t1 (v1 int, v2 bigint, v4 int)")
    await c.run("CREATE TABLE t2 (v1 int, v3 int, v4 int)")
    await c.run("INSERT INTO t1 VALUES (1, 2, 3)")
    await c.run("INSERT INTO t2 VALUES (1, 2, 3)")


async def test_batch_corresponding(client: Client) -> None:
    await tables(client)
    q = "SELECT * FROM t1 UNION ALL CORRESPONDING SELECT * FROM t2 ORDER BY v1"
    assert await client.rows(q) == [(1, 3), (1, 3)]
    q = "SELECT * FROM t1 UNION CORRESPONDING SELECT v4, v3 AS v1 FROM t2 ORDER BY v1"
    assert await client.rows(q) == [(1, 3), (2, 3)]
    q = "SELECT * FROM t1 UNION ALL CORRESPONDING BY (v4, v1) SELECT * FROM t2"
    assert await client.rows(q) == [(3, 1), (3, 1)]
    q = "SELECT * FROM t1 UNION CORRESPONDING BY (v4) SELECT * FROM t2"
    assert await client.rows(q) == [(3,)]
    # a chain: the second operation's left side is the first one's corresponding columns
    q = (
        "SELECT * FROM t1 UNION CORRESPONDING SELECT * FROM t2"
        " EXCEPT CORRESPONDING SELECT 9 AS v4, 1 AS v1"
    )
    assert await client.rows(q) == [(1, 3)]
    q = "SELECT 1 AS a, 2 AS b INTERSECT CORRESPONDING SELECT 2 AS b"
    assert await client.rows(q) == [(2,)]


async def test_mv_corresponding(client: Client) -> None:
    await tables(client)
    await client.run(
        "CREATE MATERIALIZED VIEW m AS SELECT * FROM t1 UNION ALL CORRESPONDING SELECT * FROM t2"
    )
    assert await client.rows("SELECT * FROM m") == [(1, 3), (1, 3)]
    await client.run("INSERT INTO t2 VALUES (5, 6, 7)")
    assert await client.rows("SELECT v1, v4 FROM m ORDER BY v1") == [(1, 3), (1, 3), (5, 7)]


@pytest.mark.parametrize(
    ("sql", "error"),
    [
        (
            "SELECT * FROM t1 UNION CORRESPONDING BY (vxx) SELECT * FROM t2",
            "Invalid input syntax: Column name `vxx` in CORRESPONDING BY is not found in a side "
            "of the UNION operation. It shall be included in both sides.",
        ),
        (
            "SELECT * FROM t1 UNION CORRESPONDING SELECT v3 AS vxx FROM t2",
            "Invalid input syntax: When CORRESPONDING is specified, at least one column of the "
            "left side shall have a column name that is the column name of some column of the "
            "right side in a UNION operation. Left side query column list: "
            '("v1", "v2", "v4"). Right side query column list: ("vxx").',
        ),
        (
            "SELECT v1, v2 AS v1 FROM t1 EXCEPT CORRESPONDING SELECT * FROM t2",
            "Invalid input syntax: Duplicated column name `v1` in a column list of the query in "
            'a EXCEPT operation. Column list of the query: ("v1", "v1").',
        ),
        (
            "SELECT * FROM t1 INTERSECT ALL CORRESPONDING SELECT * FROM t2",
            "Feature is not yet implemented: INTERSECT all\nNo tracking issue yet. Feel free to "
            "submit a feature request at https://github.com/risingwavelabs/risingwave/issues/"
            "new?labels=type%2Ffeature&template=feature_request.yml",
        ),
    ],
)
async def test_corresponding_errors(client: Client, sql: str, error: str) -> None:
    await tables(client)
    assert await cause(client, sql) == ("XX000", f"\n\nCaused by:\n  {error}\n")
    mv = f"CREATE MATERIALIZED VIEW m AS {sql}"
    assert await cause(client, mv) == ("XX000", f"\n\nCaused by:\n  {error}\n")
