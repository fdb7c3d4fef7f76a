"""Errors 1, 2 and 4 (rw-engine-semantics §2.3, §2.4, §4.3) from the statements a user types,
over both protocol paths, and the same statements succeeding once the job is Created."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client, invalid_parameter, meta_error
from tests.scenarios.helpers import (
    DEFERRED_NOTICE,
    creating_mv,
    job,
    jobs,
    run_ticking,
    table_with_rows,
)


def error1(c: Client, job_id: int, call: str = "AlterParallelism") -> str:
    # src/meta/src/stream/stream_manager.rs:935-938
    return meta_error(
        c.envelope,
        call,
        f"Cannot alter the job {job_id} because it is blocked by creating unreschedulable "
        "backfill jobs",
    )


def error2(c: Client, job_id: int) -> str:
    # src/meta/src/stream/stream_manager.rs:968-982
    return meta_error(
        c.envelope,
        "AlterBackfillParallelism",
        f"Cannot alter the job {job_id} because its creating backfill contains a scan type that "
        "does not support online rescheduling",
    )


async def test_error1_on_creating_mv_and_its_upstream_then_success_once_created(
    client: Client, server: Running
) -> None:
    await table_with_rows(client)
    t_id, _, _ = await job(client, "t")
    mv_id = await creating_mv(client)

    f = await client.fail("alter materialized view mv set parallelism = 2")
    assert (f.severity, f.sqlstate, f.message) == ("ERROR", "XX000", error1(client, mv_id))
    f = await client.fail("alter table t set parallelism to 2")
    assert (f.sqlstate, f.message) == ("XX000", error1(client, t_id))
    # The blocked check comes before the max-parallelism check.
    f = await client.fail("alter materialized view mv set parallelism = 1000")
    assert f.message == error1(client, mv_id)
    # The resource-group alter takes the same path under its own call name.
    f = await client.fail("alter materialized view mv set resource_group = 'default'")
    assert f.message == error1(client, mv_id, "AlterResourceGroup")
    assert await client.notices() == []

    # DEFERRED only writes the catalog: no error, the notice.
    assert (
        await client.run("alter materialized view mv set parallelism = 3 deferred")
        == "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.notices() == [DEFERRED_NOTICE]
    assert await client.run("alter table t set parallelism = 2 deferred") == "ALTER_TABLE"
    assert await client.notices() == [DEFERRED_NOTICE]
    assert await job(client, "mv") == (mv_id, "CREATING", "3")
    assert await job(client, "t") == (t_id, "CREATED", "2")

    # Still blocked after barriers while the backfill is throttled.
    server.tick(3)
    assert (await job(client, "mv"))[1] == "CREATING"
    assert (await client.fail("alter table t set parallelism = 2")).message == error1(client, t_id)

    # Lift the rate limit: the ALTER's own barrier finishes the backfill.
    assert (
        await client.run("alter materialized view mv set backfill_rate_limit = default")
        == "ALTER_MATERIALIZED_VIEW"
    )
    server.tick()
    assert (await job(client, "mv"))[1] == "CREATED"
    assert await jobs(client) == []

    assert (
        await client.run("alter materialized view mv set parallelism = 2")
        == "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.run("alter table t set parallelism to 1") == "ALTER_TABLE"
    assert await client.notices() == []
    assert await job(client, "mv") == (mv_id, "CREATED", "2")
    assert await job(client, "t") == (t_id, "CREATED", "1")
    # The new parallelism is what actors run with.
    rows = await client.rows(f"select f.parallelism from rw_fragments f where f.table_id = {mv_id}")
    assert rows == [(2,)]


async def test_error1_scope_is_the_blocked_set_not_every_job(
    client: Client, server: Running
) -> None:
    """A table the creating MV does not read is not blocked; an arrangement-backfill MV never
    blocks (rw-engine-semantics §2.1)."""
    await table_with_rows(client)
    await table_with_rows(client, "other", 10)
    await creating_mv(client)
    assert await client.run("alter table other set parallelism = 2") == "ALTER_TABLE"

    assert await client.run("set streaming_use_snapshot_backfill = false") == "SET_VARIABLE"
    assert (
        await client.run("create materialized view amv as select * from other")
        == "CREATE_MATERIALIZED_VIEW"
    )
    assert (await job(client, "amv"))[1] == "CREATING"
    assert (
        await client.run("alter materialized view amv set parallelism = 2")
        == "ALTER_MATERIALIZED_VIEW"
    )
    assert (
        await client.run("alter materialized view amv set backfill_parallelism = 1")
        == "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.notices() == []


async def test_error2_backfill_parallelism_on_creating_mv(client: Client, server: Running) -> None:
    await table_with_rows(client)
    mv_id = await creating_mv(client)

    f = await client.fail("alter materialized view mv set backfill_parallelism = 2")
    assert (f.severity, f.sqlstate, f.message) == ("ERROR", "XX000", error2(client, mv_id))
    # Checked before the max-parallelism check too.
    f = await client.fail("alter materialized view mv set backfill_parallelism = 1000")
    assert f.message == error2(client, mv_id)
    # Error 2 looks at the job itself only: its (created) upstream is not refused.
    assert await client.run("alter table t set backfill_parallelism = 2") == "ALTER_TABLE"
    assert await client.notices() == []

    assert (
        await client.run("alter materialized view mv set backfill_parallelism = 2 deferred")
        == "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.notices() == [DEFERRED_NOTICE]
    # While Creating, rw_streaming_jobs shows the backfill override.
    assert await job(client, "mv") == (mv_id, "CREATING", "2")

    assert await client.run("alter materialized view mv set backfill_rate_limit = 0") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.run("alter materialized view mv set backfill_rate_limit = default") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    server.tick()
    assert await job(client, "mv") == (mv_id, "CREATED", "bounded(64)")
    assert (
        await client.run("alter materialized view mv set backfill_parallelism = 2")
        == "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.notices() == []


async def test_error4_create_origin(client: Client, server: Running) -> None:
    assert await client.run("set streaming_max_parallelism = 4") == "SET_VARIABLE"
    assert await client.run("set streaming_parallelism = 6") == "SET_VARIABLE"
    f = await client.fail("create table t (a int)")
    # src/meta/src/rpc/ddl_controller.rs:363-388 (bail_invalid_parameter!)
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        invalid_parameter(
            client.envelope, "specified parallelism 6 should not exceed max parallelism 4"
        ),
    )
    # The INITIAL job was aborted: nothing left, the name is free.
    assert await client.rows("select name from rw_tables") == []
    assert await jobs(client) == []
    assert await client.run("set streaming_parallelism = 4") == "SET_VARIABLE"
    assert await client.run("create table t (a int)") == "CREATE_TABLE"
    assert await job(client, "t") == ((await job(client, "t"))[0], "CREATED", "4")
    # Adaptive values are never checked against the maximum.
    assert await client.run("set streaming_parallelism = 'bounded(8)'") == "SET_VARIABLE"
    assert await client.run("create table t_bounded (a int)") == "CREATE_TABLE"

    # Backfill variant: only for a plan with a backfill scan (not a plain table).
    assert await client.run("set streaming_parallelism = default") == "SET_VARIABLE"
    assert await client.run("set streaming_parallelism_for_backfill = 6") == "SET_VARIABLE"
    assert await client.run("create table t2 (a int)") == "CREATE_TABLE"
    f = await client.fail("create materialized view mv as select * from t")
    assert f.message == invalid_parameter(
        client.envelope, "specified backfill parallelism 6 should not exceed max parallelism 4"
    )
    assert await client.rows("select name from rw_materialized_views") == []
    assert await client.run("set streaming_parallelism_for_backfill = 2") == "SET_VARIABLE"
    # A foreground create returns once the job is Created (after its barriers).
    assert (
        await run_ticking(client, server, "create materialized view mv as select * from t")
        == "CREATE_MATERIALIZED_VIEW"
    )
    assert (await job(client, "mv"))[1:] == ("CREATED", "bounded(64)")


async def test_error4_alter_origin_uses_the_jobs_stored_maximum(
    client: Client, server: Running
) -> None:
    assert await client.run("set streaming_max_parallelism = 4") == "SET_VARIABLE"
    assert await client.run("create table t (a int)") == "CREATE_TABLE"
    t_id, _, _ = await job(client, "t")
    # The session's maximum no longer matters: the job keeps the one it was created with.
    assert await client.run("set streaming_max_parallelism = 256") == "SET_VARIABLE"
    f = await client.fail("alter table t set parallelism to 8")
    # src/meta/src/stream/scale.rs:243-249
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        meta_error(
            client.envelope,
            "AlterParallelism",
            "specified parallelism 8 should not exceed max parallelism 4",
        ),
    )
    f = await client.fail("alter table t set backfill_parallelism = 8")
    # src/meta/src/stream/scale.rs:298-310
    assert f.message == meta_error(
        client.envelope,
        "AlterBackfillParallelism",
        "specified backfill parallelism 8 should not exceed max parallelism 4",
    )
    f = await client.fail("alter table t set parallelism = 8 deferred")
    assert f.message == meta_error(
        client.envelope,
        "AlterParallelism",
        "specified parallelism 8 should not exceed max parallelism 4",
    )
    assert await client.notices() == []
    assert await job(client, "t") == (t_id, "CREATED", "bounded(4)")
    assert await client.run("alter table t set parallelism = 4") == "ALTER_TABLE"
    assert await client.run("alter table t set parallelism = 'bounded(8)'") == "ALTER_TABLE"
    assert await job(client, "t") == (t_id, "CREATED", "bounded(8)")


async def test_two_sessions_see_the_same_block(client_factory: Connect, server: Running) -> None:
    """The block is cluster state: another session altering the upstream is refused too, and
    a DEFERRED alter from it succeeds with the notice on that session only."""
    a = await client_factory()
    b = await client_factory()
    await table_with_rows(a)
    mv_id = await creating_mv(a)
    f = await b.fail("alter materialized view mv set parallelism = 2")
    assert f.message == error1(b, mv_id)
    assert await b.run("alter materialized view mv set parallelism = 2 deferred") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await b.notices() == [DEFERRED_NOTICE]
    assert await a.notices() == []


async def test_error6_hash_downstream_of_a_scanned_table(client: Client, server: Running) -> None:
    """rw-engine-semantics §2.6: an MV that only hash-reads a table a creating snapshot-backfill
    MV scans passes error 1's check but is refused at the barrier (its upstream's dispatchers
    would change); the catalog keeps the new value, which applies once nothing blocks."""
    await table_with_rows(client)
    t_id, _, _ = await job(client, "t")
    assert (
        await run_ticking(client, server, "create materialized view m1 as select * from t")
        == "CREATE_MATERIALIZED_VIEW"
    )
    m1_id, _, _ = await job(client, "m1")
    await creating_mv(client)
    f = await client.fail("alter materialized view m1 set parallelism = 2")
    # src/meta/src/barrier/checkpoint/control.rs:1238-1266
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        meta_error(
            client.envelope,
            "AlterParallelism",
            f"cannot reschedule jobs {{{t_id}}} when creating jobs with unreschedulable "
            "backfill fragments",
        ),
    )
    # The catalog write (step 6) happened before the barrier refused the command (step 7).
    assert await job(client, "m1") == (m1_id, "CREATED", "2")
    fragments = f"select parallelism from rw_fragments where table_id = {m1_id}"
    assert await client.rows(fragments) == [(4,)]
    # DEFERRED never reaches the barrier.
    assert await client.run("alter materialized view m1 set parallelism = 2 deferred") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.notices() == [DEFERRED_NOTICE]

    assert await client.run("alter materialized view mv set backfill_rate_limit = default") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    server.tick()
    assert await jobs(client) == []
    assert await client.run("alter materialized view m1 set parallelism = 2") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.rows(fragments) == [(2,)]
