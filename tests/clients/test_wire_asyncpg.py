"""asyncpg against rwshim: simple and prepared queries, binary results, cancellation."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from tests.conftest import Running


async def connect(server: Running, **kw: object) -> asyncpg.Connection:
    return await asyncpg.connect(
        host=server.host, port=server.port, user="root", database="dev", **kw
    )


async def test_simple_and_multi_statement_execute(rw_server: Running) -> None:
    conn = await connect(rw_server)
    try:
        # asyncpg reads "13.14.0" as major 13, micro 14 (clients.md §2.4)
        assert conn.get_server_version()[:3] == (13, 0, 14)
        assert await conn.execute("select 1; select 2") == "SELECT 1"
        assert await conn.execute("set application_name = 'a1'") == "SET_VARIABLE"
        assert await conn.fetchval("show application_name") == "a1"
        # RisingWave re-reports only a key equal to "APPLICATION_NAME" while the config reports
        # "application_name" (handler/variable.rs:62-68), so no ParameterStatus follows SET.
        assert conn.get_settings().application_name == ""
    finally:
        await conn.close()


async def test_prepared_with_parameters_and_binary_results(rw_server: Running) -> None:
    conn = await connect(rw_server)
    try:
        assert await conn.fetchval("select 1") == 1
        row = await conn.fetchrow(
            "select $1::int8 * 2 as n, $2::text || '!' as t, $3::float8 as f", 21, "hi", 0.5
        )
        assert dict(row) == {"n": 42, "t": "hi!", "f": 0.5}
        stmt = await conn.prepare("select $1::int4 + 1 as x")
        assert [a.name for a in stmt.get_parameters()] == ["int4"]
        assert [await stmt.fetchval(i) for i in range(3)] == [1, 2, 3]
        rows = await conn.fetch("select 1 as a union all select 2 union all select 3")
        assert [r["a"] for r in rows] == [1, 2, 3]
        with pytest.raises(asyncpg.PostgresError) as info:
            await conn.fetch("selet 1")
        assert info.value.sqlstate == "XX000"
        assert str(info.value) == (
            "Failed to prepare the statement\n\nCaused by:\n"
            "  sql parser error: expected statement, found: selet\nLINE 1: selet 1\n        ^\n"
        )
        assert await conn.fetchval("select 'still fine'") == "still fine"
    finally:
        await conn.close()


async def test_statement_cache_off_uses_unnamed_statements(rw_server: Running) -> None:
    conn = await connect(rw_server, statement_cache_size=0)
    try:
        for i in range(3):
            assert await conn.fetchval("select $1::int4", i) == i
    finally:
        await conn.close()


async def test_cancel_a_long_statement(rw_server: Running) -> None:
    conn = await connect(rw_server)
    try:
        start = time.monotonic()
        with pytest.raises(asyncio.TimeoutError):
            await conn.execute("select pg_sleep(20)", timeout=0.3)
        assert time.monotonic() - start < 5
        # asyncpg waited for 57014 + ReadyForQuery; the connection is usable again.
        assert await conn.fetchval("select 7") == 7
        with pytest.raises(asyncpg.QueryCanceledError) as info:
            task = asyncio.create_task(conn.fetchval("select pg_sleep(20)"))
            await asyncio.sleep(0.2)
            procs = rw_server.server.registry.processes()
            assert [p.statement for p in procs if p.active] == ["select pg_sleep(20)"]
            assert rw_server.server.registry.cancel(procs[0].pid, procs[0].key)
            await task
        assert (info.value.sqlstate, str(info.value)) == (
            "57014",
            "canceling statement due to user request",
        )
    finally:
        await conn.close()


async def test_transaction_follows_risingwaves_begin(rw_server: Running) -> None:
    conn = await connect(rw_server)
    try:
        notices: list[str] = []
        conn.add_log_listener(lambda _c, m: notices.append(f"{m.severity} {m.sqlstate}"))
        await conn.execute("BEGIN")
        assert not conn.is_in_transaction()  # RisingWave's plain BEGIN starts nothing
        await conn.execute("BEGIN READ ONLY")
        assert conn.is_in_transaction()
        await conn.execute("COMMIT")
        await asyncio.sleep(0.05)
        assert notices == ["NOTICE 00000"]
    finally:
        await conn.close()


async def test_cursor_in_a_read_only_transaction(rw_server: Running) -> None:
    """asyncpg cursors: a named portal fetched with row-limited Executes (PortalSuspended),
    inside BEGIN READ ONLY (the only BEGIN that reports 'T' in RisingWave)."""
    conn = await connect(rw_server)
    try:
        sql = (
            "with recursive c(x) as (select 1 union all select x + 1 from c where x < 1000) "
            "select x from c"
        )
        async with conn.transaction(readonly=True):
            got = [r["x"] async for r in conn.cursor(sql, prefetch=64)]
            cur = await conn.cursor(sql)
            assert [r["x"] for r in await cur.fetch(3)] == [1, 2, 3]
            assert (await cur.fetchrow())["x"] == 4
        assert got == list(range(1, 1001))
        assert len(await conn.fetch(sql)) == 1000
    finally:
        await conn.close()


async def test_pool_reset_and_its_workaround(rw_server: Running) -> None:
    """asyncpg's pool resets a released connection with ``SELECT pg_advisory_unlock_all();
    CLOSE ALL; UNLISTEN *; RESET ALL;`` in one Query; RisingWave parses the whole message first
    and has no UNLISTEN (parser.rs parse_statement), so release fails; a pool given its own
    ``reset`` (here ``CLOSE ALL``, which RisingWave has) works."""
    kw = {"host": rw_server.host, "port": rw_server.port, "user": "root", "database": "dev"}
    pool = await asyncpg.create_pool(min_size=1, max_size=1, **kw)  # type: ignore[arg-type]
    with pytest.raises(asyncpg.InternalServerError) as info:
        async with pool.acquire() as conn:
            assert await conn.fetchval("select 1") == 1
    assert str(info.value) == (
        "Failed to run the query\n\nCaused by:\n"
        "  sql parser error: expected statement, found: UNLISTEN\nLINE 3: UNLISTEN *;\n"
        "        ^\n"
    )
    pool.terminate()

    async def reset(conn: asyncpg.Connection) -> None:
        await conn.execute("CLOSE ALL")

    pool = await asyncpg.create_pool(min_size=1, max_size=1, reset=reset, **kw)  # type: ignore[arg-type]
    for _ in range(2):
        async with pool.acquire() as conn:
            assert await conn.fetchval("select 1") == 1
    await pool.close()


async def test_cursor_outside_a_transaction(rw_server: Running) -> None:
    """asyncpg refuses a cursor unless the server reports a transaction; RisingWave's plain
    BEGIN starts none (handler/transaction.rs:54-62): use ``transaction(readonly=True)``."""
    conn = await connect(rw_server)
    try:
        with pytest.raises(asyncpg.NoActiveSQLTransactionError) as info:
            async with conn.transaction():
                await conn.cursor("select 1")
        assert str(info.value) == "cursor cannot be created outside of a transaction"
    finally:
        await conn.close()
