"""Recovery rules of issue 14 over a real socket: a meta-node restart follows bootstrap
recovery whatever the store and keeps nothing of the previous run (rule 2), and the create
type of a plan with a non-backfillable input follows the planner's rule (rule 3)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import DRIVERS, Client, connect
from tests.scenarios.helpers import job, jobs, pending, run_ticking, table_with_rows


def chain(envelope: str, *causes: str) -> str:
    """RisingWave's pretty report under the pgwire envelope (thiserror-ext report.rs)."""
    if len(causes) == 1:
        return f"{envelope}\n\nCaused by:\n  {causes[0]}\n"
    lines = "".join(f"  {i}: {c}\n" for i, c in enumerate(causes, start=1))
    return f"{envelope}\n\nCaused by these errors (recent errors listed first):\n{lines}"


CREATE_MV = "/ddl_service.DdlService/CreateMaterializedView"


def grpc(call: str, code: str = "Internal error") -> str:
    return f"gRPC request to meta service (call `{call}`) failed: {code}"


Make = Callable[[], Awaitable[Client]]


@pytest.fixture(params=[(d, s) for d in DRIVERS for s in ("memory", "data-dir")])
async def sessions(
    request: pytest.FixtureRequest,
    rw_server_factory: Callable[..., Awaitable[Running]],
    tmp_path: Path,
) -> AsyncIterator[tuple[Make, Running]]:
    """Sessions of one driver on a manual-clock server whose meta store is in memory or in a
    data directory (``--data-dir``)."""
    driver, store = request.param
    server = await rw_server_factory(
        manual_clock=True, data_dir=tmp_path if store == "data-dir" else None
    )
    clients: list[Client] = []

    async def make() -> Client:
        c = await connect(driver, server)
        clients.append(c)
        return c

    yield make, server
    for c in clients:
        await c.close()


async def show_jobs(c: Client) -> list[tuple[object, ...]]:
    """SHOW JOBS as (Id, Create Type) pairs."""
    return [(r[0], r[2]) for r in await jobs(c)]


async def test_restart_with_a_foreground_create_in_flight_is_a_bootstrap(
    sessions: tuple[Make, Running],
) -> None:
    """A restarted meta node runs bootstrap recovery (barrier/worker.rs:367-402): it keeps
    Creating jobs that can be recovered, foreground ones too (clean_all_foreground_jobs_on_
    recovery is off, controller/catalog/mod.rs:637-708), and it has no session waiting on it,
    so the 30 s early-failure rule (stream_manager.rs:77, :416-440) cancels nothing, in memory
    as with a data directory.  A RECOVER later finds no such session either: the record of
    when the create began died with the old meta node."""
    make, _server = sessions
    a = await make()
    await table_with_rows(a, rows=1000)
    assert await a.run("set backfill_rate_limit = 1") == "SET_VARIABLE"
    create = await pending(a.fail("create materialized view m as select * from t"))
    b = await make()
    m_id, status, _ = await job(b, "m")
    assert status == "CREATING"
    assert await show_jobs(b) == [(m_id, "FOREGROUND")]

    assert await b.run("RWSHIM RESTART") == "RWSHIM"
    f = await asyncio.wait_for(create, 5)
    # rwshim's own text for the lost RPC (errors.MetaNodeRestarted).
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        chain(a.envelope, grpc(CREATE_MV), "meta node restarted"),
    )
    # The job survived the bootstrap, still foreground, still creating.
    assert await job(b, "m") == (m_id, "CREATING", "bounded(64)")
    assert await show_jobs(b) == [(m_id, "FOREGROUND")]

    # An ad-hoc recovery of the new meta node: no waiting session, no early cancel.
    assert await b.run("recover") == "RECOVER"
    assert await job(b, "m") == (m_id, "CREATING", "bounded(64)")

    # The permit the lost create held is free: another foreground create runs, and a
    # RECOVER within its first 30 s cancels it (the rule that did not apply to m).
    c = await make()
    assert await c.run("set backfill_rate_limit = 1") == "SET_VARIABLE"
    young = await pending(c.fail("create materialized view young as select * from t"))
    young_id, _, _ = await job(b, "young")
    assert await b.run("recover") == "RECOVER"
    f = await asyncio.wait_for(young, 5)
    assert (f.sqlstate, f.message) == (
        "XX000",
        chain(c.envelope, grpc(CREATE_MV), "failed to wait streaming job finish: adhoc recovery"),
    )
    assert await b.rows("select name from rw_materialized_views") == [("m",)]
    assert young_id not in [j for j, _ in await show_jobs(b)]

    # m goes on and finishes.
    assert await b.run("alter materialized view m set backfill_rate_limit = default") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await job(b, "m") == (m_id, "CREATED", "bounded(64)")


async def test_restart_resets_the_previous_runs_switches(sessions: tuple[Make, Running]) -> None:
    """The fault switches, the manual clock's barrier schedule and the parallelism control are
    the meta node's process state: a restart starts them anew (README: faults are reset by a
    restart), whatever the store."""
    make, _server = sessions
    a = await make()
    assert await a.run("RWSHIM FAULT crash_after_catalog_write ON") == "RWSHIM"
    assert ("crash_after_catalog_write", True) in await a.rows("RWSHIM FAULTS")
    assert await a.run("RWSHIM RESTART") == "RWSHIM"
    assert ("crash_after_catalog_write", False) in await a.rows("RWSHIM FAULTS")
    await table_with_rows(a, rows=10)
    assert (await job(a, "t"))[1] == "CREATED"


async def test_mixed_plans_are_foreground_and_not_recoverable(
    sessions: tuple[Make, Running],
) -> None:
    """plan_can_use_background_ddl (src/frontend/src/optimizer/plan_node/utils.rs:471-499):
    a plan with a Values leaf (VALUES beside a table scan, a SELECT without FROM, a table
    function in FROM: TableFunctionToProjectSetRule) is foreground even with
    ``background_ddl`` on (stream_materialize.rs:135-142), and its Values fragment makes the
    job non-recoverable (fragment.rs:145-147): recovery deletes it while it creates, so a
    create that kept waiting past 30 s ends with the Catalog error of its vanished job
    (controller/catalog/mod.rs:1358-1372, stream_manager.rs:420-422)."""
    make, server = sessions
    a = await make()
    await table_with_rows(a, rows=1000)
    for sql in ("set background_ddl = true", "set backfill_rate_limit = 1"):
        assert await a.run(sql) == "SET_VARIABLE"
    create = await pending(
        a.fail("create materialized view mixed as select a from t union all values (1)")
    )
    b = await make()
    mixed_id, status, _ = await job(b, "mixed")
    assert status == "CREATING"
    assert await show_jobs(b) == [(mixed_id, "FOREGROUND")]
    flags = await b.rows(
        "select array_to_string(flags, ',') from rw_fragments"
        f" where table_id = {mixed_id} order by fragment_id"
    )
    assert ("VALUES",) in flags
    # Past the 30 s of the early-failure rule: a recovery does not fail the create, it
    # deletes the unrecoverable job, and the create's next wait finds it gone.
    assert await b.run("RWSHIM TICK 31") == "RWSHIM"
    assert not create.done()
    assert await b.run("recover") == "RECOVER"
    f = await asyncio.wait_for(create, 5)
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "42704",
        chain(
            a.envelope,
            "Catalog error",
            grpc(CREATE_MV, "Some requested entity was not found"),
            "streaming job id not found: may have been cancelled/dropped",
        ),
    )
    assert await b.rows("select name from rw_materialized_views") == []
    assert await jobs(b) == []

    # The same query without VALUES is a background job that recovery keeps.
    assert await a.run("create materialized view plain as select a from t") == (
        "CREATE_MATERIALIZED_VIEW"
    )
    plain_id, _, _ = await job(b, "plain")
    assert await show_jobs(b) == [(plain_id, "BACKGROUND")]
    assert await b.run("recover") == "RECOVER"
    assert (await job(b, "plain"))[1] == "CREATING"
    assert await b.run("drop materialized view plain") == "DROP_MATERIALIZED_VIEW"

    # Each non-backfillable input makes it foreground: it returns once Created.
    assert await a.run("set backfill_rate_limit = default") == "SET_VARIABLE"
    for name, query in (
        ("no_from", "select 1 as x"),
        ("series", "select g from generate_series(1, 3) as g"),
        ("joined", "select t.a from t join (values (1)) as v(x) on t.a = v.x"),
        ("in_values", "select a from t where a in (select 1)"),
    ):
        sql = f"create materialized view {name} as {query}"
        assert await run_ticking(a, server, sql) == "CREATE_MATERIALIZED_VIEW", name
        rows = await b.rows(
            f"select background_ddl from rw_materialized_views where name = '{name}'"
        )
        assert rows == [(False,)], name
    # A correlated table function reads the rows before it: no Values leaf, background.
    assert await a.run("create table arr (xs int[])") == "CREATE_TABLE"
    assert await a.run(
        "create materialized view lateral_fn as select x from arr, unnest(xs) x"
    ) == ("CREATE_MATERIALIZED_VIEW")
    assert await b.rows(
        "select background_ddl from rw_materialized_views where name = 'lateral_fn'"
    ) == [(True,)]
