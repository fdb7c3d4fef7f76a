"""The server's own barrier loop (no manual clock): barriers at each database's
``barrier_interval_ms`` (system parameter, or ``ALTER DATABASE ... SET``, at least 50 ms as
RisingWave's OverrideValidate requires: system_param/mod.rs:451-453), decision 6."""

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
        assert await c.run("alter database dev set barrier_interval_ms = 50") == ("ALTER_DATABASE")
        db = instance.engine.catalog.database_id("dev")
        assert instance.engine.params.barrier_interval_ms(db) == 50
        barriers: list[float] = []
        instance.on_tick.append(lambda: barriers.append(time.monotonic()))
        # The loop keeps injecting barriers on its own (no timing bound: speed is measured in
        # bench/, not asserted here); a generous deadline only keeps a broken loop from hanging.
        deadline = time.monotonic() + 30
        while len(barriers) < 10 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert len(barriers) >= 10
        # And each database is due again within its own interval.
        assert all(ms <= 50 for d, ms in instance.engine.barrier.due_databases() if d == db)
        # A foreground create completes on the loop's barriers.
        assert await c.run("create materialized view mv as select * from t") == (
            "CREATE_MATERIALIZED_VIEW"
        )
    finally:
        await c.close()
