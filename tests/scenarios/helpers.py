"""Small queries the scenarios share (what a user would type to look at their jobs)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from tests.conftest import Running
from tests.scenarios.drivers import Client

T = TypeVar("T")

DEFERRED_NOTICE = (
    "NOTICE",
    "00000",
    # src/frontend/src/handler/alter_parallelism.rs:62-64
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the "
    "meta, otherwise, the alter will not take effect.",
)


async def job(client: Client, name: str) -> tuple[int, str, str]:
    """(id, status, parallelism) of a streaming job from rw_streaming_jobs.  A CREATE another
    session has just sent may not have reached the catalog yet on a loaded machine (``pending``
    only waits 0.1 s): the job is looked for again for up to 30 s before the test fails."""
    sql = f"select id, status, parallelism from rw_streaming_jobs where name = '{name}'"
    rows = await client.rows(sql)
    for _ in range(600):
        if rows:
            break
        await asyncio.sleep(0.05)
        rows = await client.rows(sql)
    assert len(rows) == 1, rows
    jid, status, parallelism = rows[0]
    return int(jid), str(status), str(parallelism)


async def jobs(client: Client) -> list[tuple[Any, ...]]:
    """SHOW JOBS rows: (Id, Statement, Create Type, Progress)."""
    return await client.rows("show jobs")


async def jobs_listed(
    client: Client, count: int = 1, timeout: float = 10.0
) -> list[tuple[Any, ...]]:
    """SHOW JOBS once it lists ``count`` jobs (or its rows when ``timeout`` seconds ran out):
    another session's CREATE reaches the server when the machine lets it, which on a loaded
    machine can be later than ``pending``'s settle time."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        rows = await jobs(client)
        if len(rows) >= count or asyncio.get_running_loop().time() > deadline:
            return rows
        await asyncio.sleep(0.05)


async def table_with_rows(client: Client, name: str = "t", rows: int = 100) -> None:
    assert await client.run(f"create table {name} (a int)") == "CREATE_TABLE"
    assert (
        await client.run(f"insert into {name} select generate_series(1, {rows})")
        == f"INSERT 0 {rows}"
    )


async def creating_mv(client: Client, name: str = "mv", upstream: str = "t") -> int:
    """A background MV with a rate limit of 1 row/s per actor: it stays Creating."""
    assert await client.run("set background_ddl = true") == "SET_VARIABLE"
    assert await client.run("set backfill_rate_limit = 1") == "SET_VARIABLE"
    assert (
        await client.run(f"create materialized view {name} as select * from {upstream}")
        == "CREATE_MATERIALIZED_VIEW"
    )
    jid, status, _ = await job(client, name)
    assert status == "CREATING"
    return jid


async def run_ticking(client: Client, server: Running, sql: str, ticks: int = 50) -> str:
    """Run a statement that waits for barriers (a foreground CREATE, WAIT) while stepping the
    manual clock, one barrier at a time until it returns; return its tag."""
    task = asyncio.ensure_future(client.run(sql))
    for _ in range(ticks):
        await asyncio.sleep(0.02)
        if task.done():
            break
        server.tick()
    return await asyncio.wait_for(task, 5)


async def pending(aw: Awaitable[T], settle: float = 0.1) -> asyncio.Future[T]:
    """Start ``aw`` and check that it is still waiting after ``settle`` seconds."""
    fut = asyncio.ensure_future(aw)
    await asyncio.sleep(settle)
    assert not fut.done(), fut.result()
    return fut


async def cause(client: Client, sql: str) -> tuple[str, str]:
    """(SQLSTATE, the error's text after pgwire's envelope line) of a statement that must fail,
    whether it fails at Parse/Describe (asyncpg prepares every statement: a bind error comes
    with "Failed to prepare the statement") or at Execute."""
    from rwshim.errors import PREPARE_STATEMENT
    from tests.scenarios.drivers import AsyncpgClient

    if isinstance(client, AsyncpgClient):
        import asyncpg  # type: ignore[import-untyped]

        try:
            await client.conn.prepare(sql)
        except asyncpg.PostgresError as e:
            msg = str(e.message)
            assert msg.startswith(PREPARE_STATEMENT + "\n"), msg
            return str(e.sqlstate), msg[len(PREPARE_STATEMENT) :]
    f = await client.fail(sql)
    assert f.message.startswith(client.envelope + "\n"), f.message
    return f.sqlstate, f.message[len(client.envelope) :]
