"""ASOF joins, in a batch query and in a materialized view, over a real socket (psycopg's
simple protocol and asyncpg's extended one): the nearest right row of equal key on the
inequality's side, ties taken in the right table's key order, and RisingWave's refusals of a
condition (logical_join.rs:1466-1556), at CREATE, with nothing left behind.

Values from RisingWave's e2e_test/batch/join/asof_join.slt and
e2e_test/streaming/join/asof_join.slt.part.
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


COLS = "t1.v1, t1.v2, t1.v3, t2.v1, t2.v2, t2.v3"


async def tables(c: Client) -> None:
    await c.run("SET RW_IMPLICIT_FLUSH TO true")
    await c.run("CREATE TABLE t1 (v1 int, v2 int, v3 int PRIMARY KEY)")
    await c.run("CREATE TABLE t2 (v1 int, v2 int, v3 int PRIMARY KEY)")
    await c.run("INSERT INTO t1 VALUES (1, 2, 3), (2, 3, 4), (1, 2, 9)")
    await c.run("INSERT INTO t2 VALUES (1, NULL, 8), (1, 3, 4), (1, 2, 5), (1, 2, 6)")


async def test_batch_asof_inner_and_left(client: Client) -> None:
    await tables(client)
    q = f"SELECT {COLS} FROM t1 ASOF JOIN t2 ON t1.v1 = t2.v1 and t1.v2 < t2.v2"
    assert await client.rows(q + " ORDER BY t1.v1, t1.v3") == [
        (1, 2, 3, 1, 3, 4),
        (1, 2, 9, 1, 3, 4),
    ]
    q = f"SELECT {COLS} FROM t1 ASOF LEFT JOIN t2 ON t1.v1 = t2.v1 and t1.v2 < t2.v2"
    assert await client.rows(q + " ORDER BY t1.v1, t1.v3") == [
        (1, 2, 3, 1, 3, 4),
        (1, 2, 9, 1, 3, 4),
        (2, 3, 4, None, None, None),
    ]
    # the inequality written right side first, with <=: the smallest v2 not below, ties by key
    q = "SELECT t1.v3, t2.v3 FROM t1 ASOF LEFT JOIN t2 ON t2.v1 = t1.v1 AND t2.v2 >= t1.v2"
    assert await client.rows(q + " ORDER BY t1.v3") == [(3, 5), (4, None), (9, 5)]


async def test_mv_rematches_and_breaks_ties_by_key(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE l (k int, ts int, id int PRIMARY KEY)")
    await client.run("CREATE TABLE r (k int, ts int, id int PRIMARY KEY)")
    await client.run(
        "CREATE MATERIALIZED VIEW m AS SELECT l.id, r.ts, r.id AS rid"
        " FROM l ASOF JOIN r ON l.k = r.k AND l.ts > r.ts"
    )
    await client.run("INSERT INTO r VALUES (1, 5, 10), (1, 5, 30)")
    await client.run("INSERT INTO l VALUES (1, 10, 100)")
    assert await client.rows("SELECT * FROM m") == [(100, 5, 10)]
    await client.run("INSERT INTO r VALUES (1, 5, 5)")
    assert await client.rows("SELECT * FROM m") == [(100, 5, 5)]
    await client.run("INSERT INTO r VALUES (1, 7, 50)")
    assert await client.rows("SELECT * FROM m") == [(100, 7, 50)]
    await client.run("DELETE FROM r WHERE id = 50")
    assert await client.rows("SELECT * FROM m") == [(100, 5, 5)]
    await client.run("DELETE FROM r")
    assert await client.rows("SELECT * FROM m") == []


NO_EQ = "Invalid input syntax: AsOf join requires at least 1 equal condition"
NOT_ONE = "Invalid input syntax: AsOf join requires exactly 1 ineuquality condition"


@pytest.mark.parametrize(
    ("condition", "error"),
    [
        ("t1.v2 < t2.v2", NO_EQ),
        ("t1.v1 = t2.v1", NOT_ONE),
        ("t1.v1 = t2.v1 AND t1.v2 < t2.v2 AND t1.v3 < t2.v3", NOT_ONE),
        ("t1.v1 = t2.v1 AND t1.v2 * 2 < t2.v2", NOT_ONE),
    ],
)
async def test_refused_conditions(client: Client, condition: str, error: str) -> None:
    await tables(client)
    for sql in (
        f"SELECT * FROM t1 ASOF JOIN t2 ON {condition}",
        f"CREATE MATERIALIZED VIEW m AS SELECT t1.v3, t2.v3 AS r FROM t1 ASOF JOIN t2"
        f" ON {condition}",
    ):
        assert await cause(client, sql) == ("XX000", f"\n\nCaused by:\n  {error}\n")
    # the refused CREATE left nothing behind
    await client.run("CREATE MATERIALIZED VIEW m AS SELECT 1 AS x")


async def test_left_only_condition_of_a_left_join_is_refused(client: Client) -> None:
    # a left-only condition stays in an outer join's ON (planner_test asof_join.yaml:82-84)
    await tables(client)
    sql = "SELECT 1 FROM t1 ASOF LEFT JOIN t2 ON t1.v1 = t2.v1 AND t1.v2 < t2.v2 AND t1.v2 < 10"
    assert await cause(client, sql) == ("XX000", f"\n\nCaused by:\n  {NOT_ONE}\n")
    rows = await client.rows(
        "SELECT t1.v3, t2.v3 FROM t1 ASOF JOIN t2 ON t1.v1 = t2.v1 AND t1.v2 < t2.v2"
        " AND t1.v3 < 5 AND t2.v3 > 0"
    )
    assert rows == [(3, 4)]
