"""``GAP_FILL(rel, ts, interval [, LOCF(c) | INTERPOLATE(c) | KEEPNULL(c)] [, PARTITION_BY(c)])``
in a batch query and a materialized view, over a real socket (binder/relation/gap_fill.rs,
stream/src/executor/gap_fill.rs): one row per interval between consecutive rows, NULL by
default, the previous value for LOCF, a step added per row for INTERPOLATE (integers floored);
an insert inside a gap refills it.  Values from RisingWave's e2e_test/streaming/gap_fill.slt."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


def at(minute: int) -> dt.datetime:
    return dt.datetime(2024, 5, 21, 10, minute)


async def test_gap_fill(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE g (ts TIMESTAMP, value DOUBLE, n INT, PRIMARY KEY (ts))")
    await client.run(
        "INSERT INTO g VALUES ('2024-05-21 10:00:00', 10.0, 1), ('2024-05-21 10:02:00', 12.0, 2),"
        " ('2024-05-21 10:05:00', 15.0, 8)"
    )
    await client.run(
        "CREATE MATERIALIZED VIEW filled AS SELECT ts, value"
        " FROM GAP_FILL(g, ts, INTERVAL '1' MINUTE)"
    )
    assert await client.rows("SELECT * FROM filled ORDER BY ts") == [
        (at(0), 10.0), (at(1), None), (at(2), 12.0), (at(3), None), (at(4), None), (at(5), 15.0),
    ]  # fmt: skip
    await client.run("INSERT INTO g VALUES ('2024-05-21 10:04:00', 14.0, 4)")
    assert await client.rows("SELECT * FROM filled ORDER BY ts") == [
        (at(0), 10.0), (at(1), None), (at(2), 12.0), (at(3), None), (at(4), 14.0), (at(5), 15.0),
    ]  # fmt: skip
    rows = await client.rows(
        "SELECT g.ts, value, n FROM GAP_FILL(g, ts, INTERVAL '1' MINUTE, LOCF(value),"
        " INTERPOLATE(n)) ORDER BY ts"
    )
    assert rows == [
        (at(0), 10.0, 1), (at(1), 10.0, 1), (at(2), 12.0, 2), (at(3), 12.0, 3),
        (at(4), 14.0, 4), (at(5), 15.0, 8),
    ]  # fmt: skip
