"""The server's own barrier loop (no manual clock): barriers at each database's
``barrier_interval_ms`` (system parameter, or ``ALTER DATABASE ... SET``), decision 6."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from tests.conftest import Running
from tests.scenarios.drivers import connect
from tests.scenarios.helpers import table_with_rows


async def test_barrier_loop_follows_the_database_interval(
    rw_server_factory: Callable[..., Awaitable[Running]],
) -> None:
    server = await rw_server_factory()
    instance = server.server.instance
    assert instance is not None
    c = await connect("asyncpg", server)
    try:
        await table_with_rows(c, rows=10)
        assert await c.run("alter database dev set barrier_interval_ms = 20") == ("ALTER_DATABASE")
        barriers: list[float] = []
        instance.on_tick.append(lambda: barriers.append(time.monotonic()))
        await asyncio.sleep(0.6)
        # About 30 barriers; a loop that polled at its 100 ms default would make about 6.
        assert len(barriers) >= 15, len(barriers)
        # A foreground create returns after about one interval.
        start = time.monotonic()
        assert await c.run("create materialized view mv as select * from t") == (
            "CREATE_MATERIALIZED_VIEW"
        )
        assert time.monotonic() - start < 0.5
    finally:
        await c.close()
