"""Errors 3 and 5 (rw-engine-semantics §2.5, §3, §4.3): creates while a database is paused,
over both protocol paths, and the same statements succeeding once it is resumed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import psycopg
import pytest

from rwshim.errors import RUN_QUERY
from tests.conftest import Running, ThreadRunning
from tests.scenarios.conftest import Connect, engine
from tests.scenarios.drivers import Client, meta_error
from tests.scenarios.helpers import job, jobs, pending, run_ticking, table_with_rows

# src/meta/src/barrier/checkpoint/control.rs:1285-1300
PAUSED = "cannot create streaming job with snapshot backfill when paused"
# src/meta/src/barrier/checkpoint/state.rs:650-660
BATCH_REFRESH_PAUSED = "cannot create batch refresh job while database barrier is paused"


async def nothing_left(c: Client) -> None:
    """A create refused at its first barrier leaves no trace (its INITIAL job is aborted)."""
    assert await jobs(c) == []
    assert await c.rows("select ddl_id from rw_ddl_progress") == []
    assert await c.rows("select name from rw_materialized_views") == []
    assert await c.rows("select name from rw_sinks") == []
    assert await c.rows("select name from rw_streaming_jobs where status != 'CREATED'") == []


async def test_error3_mv_and_sink_while_paused_then_success_after_resume(
    client: Client, server: Running
) -> None:
    await table_with_rows(client)
    assert await client.run("alter database dev pause") == "ALTER_DATABASE"

    f = await client.fail("create materialized view mv as select * from t")
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        meta_error(client.envelope, "CreateMaterializedView", PAUSED),
    )
    f = await client.fail("create sink s as select * from t with (connector = 'blackhole')")
    assert (f.sqlstate, f.message) == (
        "XX000",
        meta_error(client.envelope, "CreateSink", PAUSED),
    )
    # Background creates wait for their first barrier too, so they see it as well.
    assert await client.run("set background_ddl = true") == "SET_VARIABLE"
    f = await client.fail("create materialized view mv as select * from t")
    assert f.message == meta_error(client.envelope, "CreateMaterializedView", PAUSED)
    await nothing_left(client)
    # Normal (non snapshot-backfill) jobs are not refused: a table, a sink with
    # snapshot = 'false' (upstream only), an index.
    assert await client.run("create table t2 (a int)") == "CREATE_TABLE"
    assert (
        await client.run(
            "create sink s2 as select * from t with (connector = 'blackhole', snapshot = 'false')"
        )
        == "CREATE_SINK"
    )
    assert await client.run("create index i on t (a)") == "CREATE_INDEX"

    assert await client.run("alter database dev resume") == "ALTER_DATABASE"
    assert await client.run("set background_ddl = false") == "SET_VARIABLE"
    assert (
        await run_ticking(client, server, "create materialized view mv as select * from t")
        == "CREATE_MATERIALIZED_VIEW"
    )
    assert (
        await run_ticking(
            client, server, "create sink s as select * from t with (connector = 'blackhole')"
        )
        == "CREATE_SINK"
    )
    assert (await job(client, "mv"))[1] == "CREATED"
    assert (await job(client, "s"))[1] == "CREATED"


async def test_paused_arrangement_backfill_create_waits_until_resume(
    client_factory: Connect, server: Running
) -> None:
    """With snapshot backfill off the create is accepted while paused; a foreground one keeps
    waiting (its actors start paused) and returns after RESUME."""
    a = await client_factory()
    b = await client_factory()
    await table_with_rows(a)
    assert await a.run("alter database dev pause") == "ALTER_DATABASE"
    assert await a.run("set streaming_use_snapshot_backfill = false") == "SET_VARIABLE"
    create = await pending(a.run("create materialized view mv as select * from t"))
    server.tick(5)
    await asyncio.sleep(0.05)
    assert not create.done()
    mv_id, status, _ = await job(b, "mv")
    assert status == "CREATING"
    assert await jobs(b) == [
        (mv_id, "create materialized view mv as select * from t", "FOREGROUND", "0.00% (0/100)")
    ]
    assert await b.rows("select backfill_type from rw_ddl_progress") == [("NORMAL_BACKFILL",)]

    # Another create waits for the creation permit the foreground one holds
    # (max_concurrent_creating_streaming_jobs = 1, ddl_controller.rs:1200-1208); its INITIAL
    # job is listed with 0.0% (manager.rs:59-104).
    assert await b.run("set streaming_use_snapshot_backfill = false") == "SET_VARIABLE"
    assert await b.run("set background_ddl = true") == "SET_VARIABLE"
    second = await pending(b.run("create materialized view bmv as select * from t"))
    c = await client_factory()
    assert [(r[0] > mv_id, r[3]) for r in await jobs(c)] == [
        (False, "0.00% (0/100)"),
        (True, "0.0%"),
    ]

    assert await c.run("alter database dev resume") == "ALTER_DATABASE"
    server.tick()
    assert await asyncio.wait_for(create, 5) == "CREATE_MATERIALIZED_VIEW"
    assert (await job(c, "mv"))[1] == "CREATED"
    # The background create got the permit and returned after its first barrier.
    assert await asyncio.wait_for(second, 5) == "CREATE_MATERIALIZED_VIEW"
    server.tick()
    assert (await job(c, "bmv"))[1] == "CREATED"
    assert await jobs(c) == []


async def test_pause_needs_a_superuser(client_factory: Connect, server: Running) -> None:
    root = await client_factory()
    assert await root.run("create user u") == "CREATE_USER"
    u = await client_factory(user="u")
    f = await u.fail("alter database dev pause")
    # ErrorCode::PermissionDenied provides no SQLSTATE (src/frontend/src/error.rs:184).
    assert (f.sqlstate, f.message) == (
        "XX000",
        f"{u.envelope}\n\nCaused by:\n  Permission denied: must be superuser to pause or resume"
        " streaming\n",
    )
    assert await root.run("alter system pause") == "ALTER_SYSTEM"


async def test_error3_for_batch_refresh_and_error5_with_the_fault(
    client: Client, server: Running
) -> None:
    await table_with_rows(client)
    create = "create materialized view br with (refresh.interval.sec = 5) as select * from t"
    assert await client.run("alter database dev pause") == "ALTER_DATABASE"
    # The admission check answers batch-refresh creates with error 3's text.
    f = await client.fail(create)
    assert (f.sqlstate, f.message) == (
        "XX000",
        meta_error(client.envelope, "CreateMaterializedView", PAUSED),
    )
    await nothing_left(client)

    faults = engine(server).faults
    server.call(lambda: setattr(faults, "skip_batch_refresh_admission", True))
    f = await client.fail(create)
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        meta_error(client.envelope, "CreateMaterializedView", BATCH_REFRESH_PAUSED),
    )
    await nothing_left(client)
    # Error 5 also fails the barrier injection (control.rs:1311-1330): the database goes
    # through its own recovery and comes back unpaused (checkpoint/recovery.rs:419).
    assert (
        server.call(
            lambda: engine(server).barrier.is_paused(engine(server).catalog.database_id("dev"))
        )
        is False
    )

    assert await client.run("alter database dev resume") == "ALTER_DATABASE"
    assert await run_ticking(client, server, create) == "CREATE_MATERIALIZED_VIEW"
    assert (await job(client, "br"))[1] == "CREATED"


async def test_recover_clears_the_pause(client: Client, server: Running) -> None:
    await table_with_rows(client)
    assert await client.run("alter system pause") == "ALTER_SYSTEM"
    f = await client.fail("create materialized view mv as select * from t")
    assert f.message == meta_error(client.envelope, "CreateMaterializedView", PAUSED)
    assert await client.run("recover") == "RECOVER"
    assert (
        await run_ticking(client, server, "create materialized view mv as select * from t")
        == "CREATE_MATERIALIZED_VIEW"
    )


async def test_pause_is_per_database(client_factory: Connect, server: Running) -> None:
    dev = await client_factory()
    assert await dev.run("create database other") == "CREATE_DATABASE"
    other = await client_factory(database="other")
    await table_with_rows(dev)
    await table_with_rows(other)
    assert await dev.run("alter database other pause") == "ALTER_DATABASE"
    assert (
        await run_ticking(dev, server, "create materialized view mv as select * from t")
        == "CREATE_MATERIALIZED_VIEW"
    )
    f = await other.fail("create materialized view mv as select * from t")
    assert f.message == meta_error(other.envelope, "CreateMaterializedView", PAUSED)


def test_fault_switch_and_barriers_on_a_thread_server(
    rw_thread_server_factory: Callable[..., ThreadRunning],
) -> None:
    """The same through a blocking client: the server runs on its own loop, so the fault switch
    and the barriers are driven there (``ThreadRunning.call`` / ``tick``)."""
    server = rw_thread_server_factory(manual_clock=True)
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute("create table t (a int)")
        conn.execute("insert into t select generate_series(1, 10)")
        conn.execute("alter database dev pause")
        faults = engine(server).faults
        server.call(lambda: setattr(faults, "skip_batch_refresh_admission", True))
        with pytest.raises(psycopg.errors.InternalError_) as info:
            conn.execute(
                "create materialized view br with (refresh.interval.sec = 5) as select * from t"
            )
        assert info.value.diag.message_primary == meta_error(
            RUN_QUERY, "CreateMaterializedView", BATCH_REFRESH_PAUSED
        )
        conn.execute("alter database dev resume")
        conn.execute("set background_ddl = true")
        conn.execute("set backfill_rate_limit = 1")
        conn.execute("create materialized view mv as select * from t")
        assert conn.execute("show jobs").fetchall()[0][3] == "Snapshot [0.00% (0/10)]"
        server.tick(2)
        assert conn.execute("show jobs").fetchall()[0][3] == "Snapshot [80.00% (8/10)]"
