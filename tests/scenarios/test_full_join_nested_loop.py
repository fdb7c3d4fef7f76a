"""FULL [OUTER] JOIN whose condition has no equality of its two sides, over a real socket: a
batch query answers it (RisingWave's nested-loop join, logical_join.rs:1600-1601), with
subquery sides, aliases and ``*``; a materialized view is refused as RisingWave's stream plan
refuses it (logical_join.rs:1640-1656), one with an equality too is made.

Values after RisingWave's e2e_test/batch/duckdb/join/full_outer/ files.
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
    await c.run("CREATE TABLE integers (i int, j int)")
    await c.run("INSERT INTO integers VALUES (1, 1), (3, 3)")
    await c.run("CREATE TABLE integers2 (k int, l int)")
    await c.run("INSERT INTO integers2 VALUES (1, 10), (2, 20)")


async def test_batch_non_equi_full_join(client: Client) -> None:
    await tables(client)
    q = "SELECT i, j, k, l FROM integers FULL OUTER JOIN integers2 ON integers.i < integers2.k"
    assert await client.rows(q + " ORDER BY 1, 2, 3, 4") == [
        (1, 1, 2, 20),
        (3, 3, None, None),
        (None, None, 1, 10),
    ]
    q = (
        "SELECT i, j, k, l FROM integers FULL OUTER JOIN (SELECT * FROM integers2 WHERE 1=0)"
        " integers2 ON integers.i < integers2.k ORDER BY 1, 2, 3, 4"
    )
    assert await client.rows(q) == [(1, 1, None, None), (3, 3, None, None)]
    q = (
        "SELECT * FROM integers FULL JOIN integers2"
        " ON integers.i + integers2.k + 9 <> integers.j + integers2.l ORDER BY 1, 2, 3, 4"
    )
    assert await client.rows(q) == [(1, 1, 2, 20), (3, 3, 2, 20), (None, None, 1, 10)]
    q = "SELECT count(*) FROM integers FULL OUTER JOIN integers2 ON integers.j + integers2.l <> 3"
    assert await client.rows(q) == [(4,)]
    # aliases, and a condition matching every row of both sides: no NULL-padded row
    q = "SELECT a.i, b.k FROM integers a FULL JOIN integers2 b ON a.i <> b.k ORDER BY 1, 2"
    assert await client.rows(q) == [(1, 2), (3, 1), (3, 2)]


async def test_mv_refuses_a_nested_loop_full_join(client: Client) -> None:
    await tables(client)
    sql = (
        "CREATE MATERIALIZED VIEW m AS SELECT i, k FROM integers FULL JOIN integers2"
        " ON integers.i < integers2.k"
    )
    assert await cause(client, sql) == (
        "XX000",
        "\n\nCaused by:\n  Not supported: streaming nested-loop join\nHINT: The non-equal join in"
        " the query requires a nested-loop join executor, which could be very expensive to run."
        " Consider rewriting the query to use dynamic filter as a substitute if possible.\n"
        "See also: https://docs.risingwave.com/processing/sql/dynamic-filters\n",
    )
    await client.run(
        "CREATE MATERIALIZED VIEW m AS SELECT i, k FROM integers FULL JOIN integers2"
        " ON integers.i = integers2.k AND integers.j < integers2.l"
    )
    assert await client.rows("SELECT * FROM m ORDER BY 1, 2") == [(1, 1), (3, None), (None, 2)]
    # a view is no stream plan: it reads as the batch query
    await client.run(
        "CREATE VIEW v AS SELECT * FROM integers FULL JOIN integers2 ON integers.i < integers2.k"
    )
    assert await client.rows("SELECT * FROM v ORDER BY 1, 2, 3, 4") == [
        (1, 1, 2, 20),
        (3, 3, None, None),
        (None, None, 1, 10),
    ]
