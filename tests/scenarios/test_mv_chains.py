"""Chains of materialized views read through the data plane, over a real socket (psycopg's
simple protocol and asyncpg's extended one).

A user relation's PostgreSQL object is made from the catalog the first time a statement reads
it, with the objects of what it reads (rwshim.dataplane.plane.DataPlane.ensure).  One statement
reading several relations of one chain, or one relation twice, needs each shared object once:
RisingWave reads any of them at any time, whatever was read before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


async def test_two_mvs_of_one_chain_in_one_statement(client: Client) -> None:
    # the statement of the report, on a fresh server: neither MV was read before
    await client.run("CREATE MATERIALIZED VIEW a AS SELECT 1 id, 10 amount")
    await client.run("CREATE MATERIALIZED VIEW b AS SELECT id, amount * 10 d FROM a")
    assert await client.rows("SELECT * FROM b, a") == [(1, 100, 1, 10)]
    assert await client.rows("SELECT * FROM a, b") == [(1, 10, 1, 100)]


async def chain(c: Client, prefix: str, depth: int) -> list[str]:
    """A table and ``depth`` MVs each reading the one before; their names, table first.  The
    rows go in last: before that no data statement ran, so no MV's object is made yet (a CREATE
    counts its upstreams' rows once the data plane has started, which makes their objects)."""
    await c.run(f"CREATE TABLE {prefix}0 (k int PRIMARY KEY, v int)")
    for i in range(1, depth + 1):
        await c.run(
            f"CREATE MATERIALIZED VIEW {prefix}{i} AS SELECT k, v + 1 AS v FROM {prefix}{i - 1}"
        )
    await c.run(f"INSERT INTO {prefix}0 VALUES (1, 1), (2, 2)")
    await c.run("FLUSH")
    return [f"{prefix}{i}" for i in range(depth + 1)]


def join_all(names: list[str]) -> str:
    """One row per key: the v of each relation, in the order named."""
    first = names[0]
    joins = " ".join(f"JOIN {n} USING (k)" for n in names[1:])
    cols = ", ".join(f"{n}.v" for n in names)
    return f"SELECT {cols} FROM {first} {joins} ORDER BY k"


@pytest.mark.parametrize("order", ["deepest_first", "shallowest_first", "interleaved"])
async def test_a_chain_read_whole_in_one_statement(client: Client, order: str) -> None:
    names = await chain(client, "c", 4)
    picked = {
        "deepest_first": names[::-1],
        "shallowest_first": names,
        "interleaved": [names[4], names[1], names[0], names[3], names[2]],
    }[order]
    want = [tuple(r + names.index(n) for n in picked) for r in (1, 2)]
    assert await client.rows(join_all(picked)) == want
    # and again, with every object made
    assert await client.rows(join_all(picked)) == want


async def test_one_mv_read_twice_and_with_its_upstream(client: Client) -> None:
    names = await chain(client, "s", 2)
    assert await client.rows(
        "SELECT x.v, y.v, t.v FROM s2 x JOIN s2 y USING (k) JOIN s1 t USING (k) ORDER BY k"
    ) == [(3, 3, 2), (4, 4, 3)]
    assert names == ["s0", "s1", "s2"]


async def test_sessions_read_one_chain_at_once(client_factory: Connect) -> None:
    setup = await client_factory()
    names = await chain(setup, "p", 3)
    readers = [await client_factory() for _ in range(4)]
    # every reader reads a different mix of the chain, none made yet, all at the same time
    mixes = [names[::-1], [names[2], names[0]], [names[3], names[1]], names]
    results = await asyncio.gather(
        *(r.rows(join_all(mix)) for r, mix in zip(readers, mixes, strict=True))
    )
    for mix, rows in zip(mixes, results, strict=True):
        assert rows == [tuple(r + names.index(n) for n in mix) for r in (1, 2)]
