"""Job statements over real connections: SHOW JOBS / rw_ddl_progress progress moving with the
barriers, FLUSH, WAIT, CANCEL JOBS, DROP of a creating job, RECOVER, and names taken by a job
still being created (rw-engine-semantics §1.1, §1.6, §2.7)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import asyncpg  # type: ignore[import-untyped]
import pytest

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import AsyncpgClient, Client, connect
from tests.scenarios.helpers import creating_mv, job, jobs, jobs_listed, pending, table_with_rows

STMT = "create materialized view mv as select * from t"
# What SHOW JOBS shows of it: the stored definition (list_creating_jobs,
# barrier/manager.rs:59-104), as the unparser prints it.
SHOWN = "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t"


def cancelled(c: Client) -> str:
    # MetaError::cancelled("create") through gRPC Cancelled -> SchedulerError
    # (src/meta/src/stream/stream_manager.rs:522-523, src/frontend/src/error.rs:222)
    return (
        f"{c.envelope}\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Scheduler error\n"
        "  2: gRPC request to meta service (call "
        "`/ddl_service.DdlService/CreateMaterializedView`) failed: The operation was cancelled\n"
        "  3: Cancelled: create\n"
    )


async def test_progress_moves_with_barriers_and_flush(client: Client, server: Running) -> None:
    await table_with_rows(client)
    # Two actors at 1 row/s each and a 1 s barrier interval: 2 rows per barrier.
    assert await client.run("set streaming_parallelism = 2") == "SET_VARIABLE"
    mv_id = await creating_mv(client)
    assert await jobs(client) == [(mv_id, SHOWN, "BACKGROUND", "Snapshot [0.00% (0/100)]")]
    server.tick()
    assert await jobs(client) == [(mv_id, SHOWN, "BACKGROUND", "Snapshot [2.00% (2/100)]")]
    assert await client.run("flush") == "FLUSH"
    assert await client.rows(
        "select ddl_id, ddl_statement, create_type, progress, is_serverless_backfill,"
        " backfill_type from rw_ddl_progress"
    ) == [(mv_id, SHOWN, "BACKGROUND", "Snapshot [4.00% (4/100)]", False, "SNAPSHOT_BACKFILL")]
    server.tick(3)
    assert (await jobs(client))[0][3] == "Snapshot [10.00% (10/100)]"
    # A longer barrier interval reads more rows per barrier.
    assert await client.run("alter database dev set barrier_interval_ms = 3000") == (
        "ALTER_DATABASE"
    )
    server.tick()
    assert (await jobs(client))[0][3] == "Snapshot [16.00% (16/100)]"
    # Rate limit 0 stops progress.
    assert await client.run("alter materialized view mv set backfill_rate_limit = 0") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    server.tick(3)
    assert (await jobs(client))[0][3] == "Snapshot [16.00% (16/100)]"

    # Arrangement backfill reports the plain form.
    assert await client.run("set streaming_use_snapshot_backfill = false") == "SET_VARIABLE"
    assert await client.run("create materialized view amv as select * from t") == (
        "CREATE_MATERIALIZED_VIEW"
    )
    amv_id, _, _ = await job(client, "amv")
    server.tick()
    assert (await jobs(client))[1] == (
        amv_id,
        "CREATE MATERIALIZED VIEW amv AS SELECT * FROM t",
        "BACKGROUND",
        "6.00% (6/100)",
    )
    assert await client.rows(
        f"select backfill_type from rw_ddl_progress where ddl_id = {amv_id}"
    ) == [("NORMAL_BACKFILL",)]


async def test_wait_returns_when_no_job_is_creating(
    client_factory: Connect, server: Running
) -> None:
    a = await client_factory()
    b = await client_factory()
    await table_with_rows(a)
    await creating_mv(a)
    wait = await pending(b.run("wait"))
    server.tick(2)
    await asyncio.sleep(0.05)
    assert not wait.done()
    assert await a.run("alter materialized view mv set backfill_rate_limit = default") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    server.tick()
    assert await asyncio.wait_for(wait, 5) == "WAIT"
    assert (await job(a, "mv"))[1] == "CREATED"
    assert await b.run("wait") == "WAIT"


async def test_names_of_jobs_being_created(client_factory: Connect, server: Running) -> None:
    a = await client_factory()
    await table_with_rows(a)
    mv_id = await creating_mv(a)
    duplicate = (
        f"{a.envelope}\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n"
        "  2: materialized view named mv already exists and is still being created\n"
    )
    f = await a.fail(STMT)
    assert (f.sqlstate, f.message) == ("42710", duplicate)
    f = await a.fail("create table mv (a int)")
    assert (f.sqlstate, f.message) == ("42710", duplicate)
    # IF NOT EXISTS on a job still being created: a background create returns at once, with
    # no "skipping" notice (meta answers OK, ddl_controller.rs:1145-1182).
    assert await a.run("create materialized view if not exists mv as select * from t") == (
        "CREATE_MATERIALIZED_VIEW"
    )
    assert await a.notices() == []
    # A foreground one waits for that job to be Created.
    b = await client_factory()
    fg = await pending(b.run("create materialized view if not exists mv as select * from t"))
    server.tick()
    await asyncio.sleep(0.05)
    assert not fg.done()
    assert await a.run("alter materialized view mv set backfill_rate_limit = default") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    server.tick()
    assert await asyncio.wait_for(fg, 5) == "CREATE_MATERIALIZED_VIEW"
    assert await job(a, "mv") == (mv_id, "CREATED", "bounded(64)")
    # Once Created: the ordinary texts.
    f = await a.fail(STMT)
    assert (f.sqlstate, f.message) == (
        "42710",
        duplicate.replace(" and is still being created", ""),
    )
    assert await a.run("create materialized view if not exists mv as select * from t") == (
        "CREATE_MATERIALIZED_VIEW"
    )
    assert await a.notices() == [("NOTICE", "00000", 'relation "mv" already exists, skipping')]


async def test_cancel_jobs(client_factory: Connect, server: Running) -> None:
    a = await client_factory()
    await table_with_rows(a)
    mv_id = await creating_mv(a)
    # Unknown and created ids are ignored.
    assert await a.simple("cancel jobs 987654") == "CANCEL_COMMAND"
    t_id, _, _ = await job(a, "t")
    assert await a.simple(f"cancel jobs {t_id}") == "CANCEL_COMMAND"
    assert [r[0] for r in await jobs(a)] == [mv_id]
    assert await a.simple(f"cancel jobs {mv_id}") == "CANCEL_COMMAND"
    assert await jobs(a) == []
    assert await a.rows("select name from rw_materialized_views") == []
    assert await a.rows("select name from rw_streaming_jobs") == [("t",)]
    # The name is free again.
    await creating_mv(a)
    assert await a.run("set background_ddl = false") == "SET_VARIABLE"

    # Cancelling a foreground create from another session fails the waiting CREATE.
    b = await client_factory()
    create = await pending(b.fail("create materialized view fmv as select * from t"))
    fmv_id = (await jobs(a))[-1][0]
    assert await a.simple(f"cancel jobs {fmv_id}") == "CANCEL_COMMAND"
    f = await asyncio.wait_for(create, 5)
    assert (f.sqlstate, f.message) == ("XX000", cancelled(b))
    assert [r[0] for r in await jobs(a)] == [(await job(a, "mv"))[0]]


async def test_drop_of_a_creating_job(client_factory: Connect, server: Running) -> None:
    a = await client_factory()
    await table_with_rows(a)
    await creating_mv(a)
    # Dropping the upstream with CASCADE would remove a job still being created: refused
    # (src/meta/src/controller/catalog/drop_op.rs:212-230), nothing dropped.
    refused = (
        f"{a.envelope}\n\nCaused by:\n  Permission denied: cannot drop 1 streaming job(s) that"
        " are still being created; please cancel them first\n"
    )
    for sql in ("drop table t cascade", "drop schema public cascade"):
        f = await a.fail(sql)
        assert (f.sqlstate, f.message) == ("XX000", refused)
    assert (await job(a, "mv"))[1] == "CREATING"
    # Dropping the creating job itself cancels it (ddl_controller.rs:1871-1910).
    assert await a.run("drop materialized view mv") == "DROP_MATERIALIZED_VIEW"
    assert await jobs(a) == []
    assert await a.rows("select name from rw_materialized_views") == []

    # A foreground create waiting on it fails as cancelled.
    assert await a.run("set background_ddl = false") == "SET_VARIABLE"
    create = await pending(a.fail(STMT))
    b = await client_factory()
    assert await b.run("drop materialized view mv") == "DROP_MATERIALIZED_VIEW"
    f = await asyncio.wait_for(create, 5)
    assert (f.sqlstate, f.message) == ("XX000", cancelled(a))
    assert await b.run("drop table t cascade") == "DROP_TABLE"
    assert await b.rows("select name from rw_streaming_jobs") == []


async def test_recover_keeps_background_jobs_and_applies_deferred_parallelism(
    client: Client, server: Running
) -> None:
    await table_with_rows(client)
    mv_id = await creating_mv(client)
    server.tick()
    assert await client.run("alter table t set parallelism = 1 deferred") == "ALTER_TABLE"
    t_id, _, _ = await job(client, "t")
    before = await client.rows(f"select parallelism from rw_fragments where table_id = {t_id}")
    assert before == [(4,), (4,)]
    assert await client.run("recover") == "RECOVER"
    # The background job survives recovery and keeps its progress.
    assert await jobs(client) == [(mv_id, SHOWN, "BACKGROUND", "Snapshot [8.00% (8/100)]")]
    # Recovery re-renders every job from the catalog: the DEFERRED value is applied.
    after = await client.rows(f"select parallelism from rw_fragments where table_id = {t_id}")
    assert after == [(1,), (1,)]


async def test_cancel_jobs_answers_one_row_per_cancelled_job(
    rw_server_factory: Callable[..., Awaitable[Running]],
) -> None:
    server = await rw_server_factory(manual_clock=True)
    c = await connect("psycopg", server)
    try:
        await table_with_rows(c)
        mv_id = await creating_mv(c)
        t_id, _, _ = await job(c, "t")
        assert await c.rows(f"cancel jobs 987654, {t_id}") == []
        assert await c.rows(f"cancel jobs {mv_id}, {mv_id}") == [(str(mv_id),)]
    finally:
        await c.close()


async def test_prepared_cancel_jobs_is_described_as_no_data(
    rw_server_factory: Callable[..., Awaitable[Running]],
) -> None:
    """RisingWave describes CANCEL JOBS as NoData (session.rs:1946-1980 infers no columns) and
    still sends its rows, which asyncpg refuses; with no row to send it completes."""
    server = await rw_server_factory(manual_clock=True)
    c = await connect("asyncpg", server)
    try:
        assert isinstance(c, AsyncpgClient)
        assert await c.rows("cancel jobs 987654") == []
        await table_with_rows(c)
        mv_id = await creating_mv(c)
        with pytest.raises(asyncpg.exceptions.ProtocolError) as info:
            await c.rows(f"cancel jobs {mv_id}")
        assert str(info.value) == (
            "the number of columns in the result row (1) is different from what was described (0)"
        )
    finally:
        await c.close()


async def test_cancelling_a_waiting_foreground_create_cancels_its_job(
    client_factory: Connect, server: Running
) -> None:
    """A CancelRequest for a foreground CREATE still waiting for its backfill cancels the job
    (cancel_queries_in_session + creating_streaming_job_tracker)."""
    a = await client_factory()
    b = await client_factory()
    await table_with_rows(a)
    assert await a.run("set backfill_rate_limit = 1") == "SET_VARIABLE"
    create = await pending(a.fail(STMT))
    assert [r[2] for r in await jobs_listed(b)] == ["FOREGROUND"]
    if isinstance(a, AsyncpgClient):
        # asyncpg sends a CancelRequest when the task running a query is cancelled.
        create.cancel()
        with pytest.raises(asyncio.CancelledError):
            await create
    else:
        await a.conn.cancel_safe()  # type: ignore[attr-defined]
        f = await asyncio.wait_for(create, 5)
        assert (f.sqlstate, f.message) == ("57014", "canceling statement due to user request")
    for _ in range(50):
        if await jobs(b) == []:
            break
        await asyncio.sleep(0.02)
    assert await jobs(b) == []
    assert await b.rows("select name from rw_materialized_views") == []
    assert await a.rows("select 1") == [(1,)]
