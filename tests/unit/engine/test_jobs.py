"""Job lifecycle: foreground/background, barriers and backfill progress, pause/resume, SHOW JOBS,
CANCEL JOBS, WAIT, DROP of a creating job, recovery (rw-engine-semantics §1, §3)."""

from __future__ import annotations

import pytest

from rwshim.engine.types import Context, ObjectName
from rwshim.errors import RwError
from tests.unit.engine.helpers import bg, ctx, make_engine, mv, rel_id, run_until_created, table


def test_table_is_created_at_its_first_barrier_and_foreground_mv_waits() -> None:
    e = make_engine()
    t = table(e, "t", rows=10)
    assert e.catalog.job_status(t) == "CREATED"
    r = mv(e, "m", [t])
    m = rel_id(e, "m")
    assert e.catalog.job_status(m) == "CREATING"
    assert r.wait is not None and not r.wait.done
    seen: list[bool] = []
    r.wait.add_done_callback(lambda w: seen.append(w.error is None))
    e.barrier.tick()
    assert e.catalog.job_status(m) == "CREATED" and seen == [True]


def test_background_create_returns_at_once_and_progress_follows_the_rate_limit() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    r = mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    assert r.wait is None
    stmt = "CREATE MATERIALIZED VIEW m AS SELECT * FROM up"
    assert e.backfill.show_jobs().rows == [(m, stmt, "BACKGROUND", "Snapshot [0.00% (0/100)]")]
    e.barrier.tick()  # 1 row/s per actor, 4 actors, 1 s barrier interval
    assert e.backfill.show_jobs().rows == [(m, stmt, "BACKGROUND", "Snapshot [4.00% (4/100)]")]
    e.throttle.alter_rate_limit(ctx(), "materialized view", ObjectName("m"), "backfill", 0)
    e.barrier.tick()
    e.barrier.tick()
    assert e.backfill.show_jobs().rows[0][3] == "Snapshot [4.00% (4/100)]"  # 0 stops progress
    e.throttle.alter_rate_limit(ctx(), "materialized view", ObjectName("m"), "backfill", None)
    e.barrier.tick()
    assert e.catalog.job_status(m) == "CREATED"
    assert e.backfill.show_jobs().rows == []


def test_normal_backfill_progress_strings() -> None:
    e = make_engine()
    t = table(e, "t", rows=300)
    mv(e, "m", [t], bg(streaming_use_snapshot_backfill="false"))
    m = rel_id(e, "m")
    e.barrier.tick()
    assert e.backfill.show_jobs().rows[0][3] == "1.33% (4/300)"
    e2 = make_engine()
    t2 = table(e2, "t")
    mv(e2, "m", [t2], bg())
    assert e2.backfill.show_jobs().rows[0][3] == "Snapshot [99.99%]"  # empty upstream
    e2.barrier.tick()
    assert e2.backfill.show_jobs().rows == []
    assert m > t


def test_pause_stops_normal_jobs_not_snapshot_backfill_ones_and_resume_continues() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "snap", [t], bg())  # snapshot backfill: its own partial graph, never paused
    snap = rel_id(e, "snap")
    mv(e, "arr", [t], bg(streaming_use_snapshot_backfill="false"))
    arr = rel_id(e, "arr")
    e.barrier.pause_database(ctx(), "dev")
    assert e.barrier.is_paused(1)
    e.barrier.tick()
    rows = {r[0]: r[3] for r in e.backfill.show_jobs().rows}
    # Commands get barriers too: the create of arr, the pause and the tick (4 rows each).
    assert rows == {snap: "Snapshot [12.00% (12/100)]", arr: "0.00% (0/100)"}
    # A normal (arrangement) create is admitted while paused; a foreground one waits.
    r = mv(e, "fg", [t], ctx(streaming_use_snapshot_backfill="false"))
    assert r.wait is not None and not r.wait.done
    e.barrier.tick()
    assert not r.wait.done
    e.barrier.resume_database(ctx(), "dev")
    e.barrier.tick()
    assert r.wait.done and r.wait.error is None


def test_recovery_clears_pause_and_pause_on_next_bootstrap_pauses() -> None:
    e = make_engine()
    table(e, "t")
    e.barrier.pause_all(ctx())
    e.recovery.adhoc_recover(ctx())
    assert not e.barrier.is_paused(1)
    e.params.alter_system_set(ctx(), "pause_on_next_bootstrap", "true")
    e.recovery.recover(bootstrap=True)
    assert e.barrier.is_paused(1)
    assert e.meta.system_param("pause_on_next_bootstrap") == "false"


def test_pause_needs_a_superuser_and_a_new_database_starts_unpaused() -> None:
    e = make_engine()
    table(e, "t")
    e.users.create_user(ctx(), "bob")
    bob = Context(user_id=e.users.user_id("bob") or 0)
    with pytest.raises(RwError) as ex:
        e.barrier.pause_all(bob)
    assert ex.value.chain == ["Permission denied: must be superuser to pause or resume streaming"]
    e.barrier.pause_all(ctx())
    e.catalog.create_database(ctx(), "later")
    assert not e.barrier.is_paused(e.catalog.database_id("later"))


def test_cancel_jobs_returns_the_cancelled_ids_and_fails_the_waiting_create() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    r = mv(e, "m", [t], ctx(backfill_rate_limit="1"))
    m = rel_id(e, "m")
    assert r.wait is not None
    res = e.jobs.cancel_jobs(ctx(), [m, 9999, t])
    assert [c.name for c in res.columns or []] == ["Id"]
    assert res.rows == [(str(m),)]
    assert r.wait.done and r.wait.error is not None
    assert r.wait.error.report() == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Scheduler error\n"
        "  2: gRPC request to meta service (call "
        "`/ddl_service.DdlService/CreateMaterializedView`) failed: The operation was cancelled\n"
        "  3: Cancelled: create\n"
    )
    assert e.catalog.lookup(ctx(), ObjectName("m")) is None


def test_drop_of_a_creating_mv_cancels_it() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    assert e.ddl.drop_relation(ctx(), "materialized view", ObjectName("m")).notices == []
    assert e.backfill.show_jobs().rows == []
    assert e.conn.execute("SELECT count(*) FROM fragment_relation").fetchone() == (1,)


def test_drop_that_would_remove_a_creating_job_is_refused() -> None:
    """drop_op.rs:212-230: DROP ... CASCADE, DROP SCHEMA ... CASCADE and DROP DATABASE refuse
    while a job they would remove is still being created; nothing is dropped."""
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    text = (
        "Permission denied: cannot drop 1 streaming job(s) that are still being created; "
        "please cancel them first"
    )
    with pytest.raises(RwError) as info:
        e.ddl.drop_relation(ctx(), "table", ObjectName("t"), cascade=True)
    assert info.value.chain == [text]
    with pytest.raises(RwError) as info:
        e.catalog.drop_schema(ctx(), "public", cascade=True)
    assert info.value.chain == [text]
    assert (
        e.catalog.job_status(t) == "CREATED" and e.catalog.job_status(rel_id(e, "m")) == "CREATING"
    )
    run_until_created(e, rel_id(e, "m"))
    assert e.ddl.drop_relation(ctx(), "table", ObjectName("t"), cascade=True).notices == []
    assert e.catalog.job_status(t) is None


def test_wait_completes_when_no_job_is_creating() -> None:
    e = make_engine()
    t = table(e, "t", rows=8)
    mv(e, "m", [t], bg())
    w = e.jobs.wait(ctx()).wait
    assert w is not None and not w.done
    run_until_created(e, rel_id(e, "m"))
    assert w.done and w.error is None
    assert e.jobs.wait(ctx()).wait is not None and e.jobs.wait(ctx()).wait.done  # type: ignore[union-attr]


def test_recovery_deletes_initial_jobs_and_keeps_creating_background_ones() -> None:
    from rwshim.engine.state import SimulatedCrash

    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "keep", [t], bg())
    e.faults.crash_after_catalog_write = True
    with pytest.raises(SimulatedCrash):
        mv(e, "lost", [t], bg())
    e.faults.crash_after_catalog_write = False
    assert e.conn.execute(
        "SELECT count(*) FROM streaming_job WHERE job_status = 'INITIAL'"
    ).fetchone() == (1,)
    assert e.catalog.lookup(ctx(), ObjectName("lost")) is None  # INITIAL: invisible
    e.recovery.adhoc_recover(ctx())
    assert e.conn.execute(
        "SELECT count(*) FROM streaming_job WHERE job_status = 'INITIAL'"
    ).fetchone() == (0,)
    assert e.catalog.job_status(rel_id(e, "keep")) == "CREATING"


def test_duplicate_names_while_creating_and_if_not_exists() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    with pytest.raises(RwError) as ex:
        mv(e, "m", [t])
    assert ex.value.chain == [
        "Catalog error",
        "materialized view named m already exists and is still being created",
    ]
    # Still creating: meta answers; a background statement returns, a foreground one waits.
    r = e.ddl.create_materialized_view(
        bg(), ObjectName("m"), [], definition="x", upstream_ids=[t], if_not_exists=True
    )
    assert r.notices == [] and r.wait is None
    r = e.ddl.create_materialized_view(
        ctx(), ObjectName("m"), [], definition="x", upstream_ids=[t], if_not_exists=True
    )
    assert r.notices == [] and r.wait is not None and not r.wait.done
    run_until_created(e, rel_id(e, "m"))
    assert r.wait.done and r.wait.error is None
    r = e.ddl.create_materialized_view(
        ctx(), ObjectName("m"), [], definition="x", upstream_ids=[t], if_not_exists=True
    )
    assert r.notices == ['relation "m" already exists, skipping']


def test_batch_refresh_checks() -> None:
    e = make_engine()
    t = table(e, "t", rows=3)
    with pytest.raises(RwError) as ex:
        mv(
            e,
            "m",
            [t],
            ctx(streaming_use_snapshot_backfill="false"),
            [("refresh.interval.sec", "5")],
        )
    assert ex.value.chain == [
        "Not supported: Batch refresh materialized view requires snapshot backfill\nHINT: Please "
        "enable snapshot backfill or remove `refresh.interval.sec` from the WITH clause."
    ]
    with pytest.raises(RwError) as ex:
        mv(e, "m", [t], with_options=[("refresh.interval.sec", "0")])
    assert ex.value.chain == [
        "Invalid parameter value: `refresh.interval.sec` must be larger than 0, but got: 0"
    ]
    with pytest.raises(RwError) as ex:
        mv(e, "m", [t], with_options=[("bogus", "1"), ("another", "2")])
    assert ex.value.chain == [
        'Protocol error: unexpected options in WITH clause: ["another", "bogus"]'
    ]
    mv(e, "m", [t], with_options=[("refresh.interval.sec", "5")])
    with pytest.raises(RwError) as ex:
        mv(e, "on_m", [rel_id(e, "m")])
    assert ex.value.chain == [
        "Permission denied: creating streaming jobs on batch refresh materialized views is not "
        "supported"
    ]


def test_progress_column_follows_the_barriers() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")

    def stored() -> str:
        return str(
            e.conn.execute("SELECT progress FROM streaming_job WHERE job_id = ?", (m,)).fetchone()[
                0
            ]
        )

    assert stored() == "Snapshot [0.00% (0/100)]"
    e.barrier.tick()
    assert stored() == "Snapshot [4.00% (4/100)]" == e.backfill.show_jobs().rows[0][3]
    run_until_created(e, m)
    assert e.backfill.ddl_progress() == []


def test_restart_of_a_file_store_and_the_waits_of_lost_sessions(tmp_path: object) -> None:
    from pathlib import Path

    from rwshim.store.store import Store

    assert isinstance(tmp_path, Path)
    e = make_engine(Store.open(tmp_path))
    t = table(e, "t", rows=100)
    r = mv(e, "m", [t], ctx(backfill_rate_limit="1"))
    assert r.wait is not None
    e2 = e.restart()
    assert e2 is not e
    assert r.wait.done and r.wait.error is not None
    m = rel_id(e2, "m")
    assert e2.catalog.job_status(m) == "CREATING"  # foreground jobs survive recovery too
    e2.throttle.alter_rate_limit(ctx(), "materialized view", ObjectName("m"), "backfill", None)
    e2.barrier.tick()
    assert e2.catalog.job_status(m) == "CREATED"


def test_alter_database_pause_on_a_database_without_jobs_pauses_its_first_job() -> None:
    e = make_engine()
    e.barrier.pause_database(ctx(), "dev")
    t = table(e, "t", rows=10)  # a table is a Normal job: admitted, starts paused
    assert e.barrier.is_paused(1)
    with pytest.raises(RwError) as ex:
        mv(e, "m", [t])
    assert ex.value.chain[-1] == "cannot create streaming job with snapshot backfill when paused"
    # The cluster-wide pause, like risectl, leaves a database without jobs alone.
    e.catalog.create_database(ctx(), "empty")
    e.barrier.pause_all(ctx())
    assert not e.barrier.is_paused(e.catalog.database_id("empty"))


def test_bad_session_variable_text_is_a_session_config_error() -> None:
    e = make_engine()
    with pytest.raises(RwError) as ex:
        table(e, "t", c=ctx(streaming_parallelism="lots"))
    assert ex.value.chain == [
        "Failed to get or set session config",
        "Invalid value `lots` for `streaming_parallelism`",
        "Parse error: invalid digit found in string",
    ]


def test_sink_keeps_its_sink_and_backfill_rate_limits_apart() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    e.ddl.create_sink(
        bg(sink_rate_limit="7"),
        ObjectName("s"),
        [],
        definition="CREATE SINK s FROM t WITH (connector = 'blackhole')",
        upstream_ids=[t],
        with_options=[("connector", "blackhole")],
    )
    s = rel_id(e, "s")

    def limits() -> list[tuple[object, ...]]:
        return e.conn.execute(
            "SELECT rate_limit, backfill_rate_limit FROM fragment WHERE job_id = ?", (s,)
        ).fetchall()

    assert limits() == [(7, 1)]
    e.throttle.alter_rate_limit(ctx(), "sink", ObjectName("s"), "sink", None)
    assert limits() == [(None, 1)]
    fid = e.conn.execute("SELECT fragment_id FROM fragment WHERE job_id = ?", (s,)).fetchone()[0]
    e.throttle.alter_fragment_rate_limit(ctx(), [fid], 0)
    assert limits() == [(None, 0)]
    with pytest.raises(RwError) as ex:
        e.throttle.alter_fragment_rate_limit(ctx(), [fid, fid + 1], 0)
    assert ex.value.chain == [
        "Invalid input syntax: ALTER FRAGMENT ... SET rate limit supports exactly one fragment id"
    ]
    with pytest.raises(RwError) as ex:
        e.throttle.alter_rate_limit(ctx(), "sink", ObjectName("s"), "dml", 1)
    assert ex.value.chain == [
        "Invalid input syntax: ALTER SINK SET DML_RATE_LIMIT is not supported"
    ]


def test_upstream_only_sink_has_no_backfill_and_follows_its_upstream() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "2")
    e.ddl.create_sink(
        ctx(),
        ObjectName("s"),
        [],
        definition="CREATE SINK s FROM t WITH (connector = 'blackhole', snapshot = 'false')",
        upstream_ids=[t],
        with_options=[("connector", "blackhole"), ("snapshot", "false")],
    )
    s = rel_id(e, "s")
    assert e.catalog.job_status(s) == "CREATED"  # created at its first barrier, like a table
    assert set(e.actors.rendered_parallelism(s).values()) == {2}


def test_hold_backfill_and_the_barrier_schedule() -> None:
    e = make_engine()
    t = table(e, "t", rows=50)
    mv(e, "m", [t], bg(backfill_rate_limit="-1"))
    m = rel_id(e, "m")
    e.backfill.hold(m)
    e.barrier.tick()
    assert e.catalog.job_status(m) == "CREATING"
    e.backfill.hold(m, False)
    e.barrier.tick()
    assert e.catalog.job_status(m) == "CREATED"
    assert e.barrier.due_databases() == [(1, 1000)]
    e.clock.advance(400)  # type: ignore[attr-defined]
    assert e.barrier.due_databases() == [(1, 600)]
    e.params.alter_database_param(ctx(), "dev", "barrier_interval_ms", 100)
    assert e.barrier.due_databases() == [(1, 0)]
    epoch = e.conn.execute("SELECT epoch FROM barrier_state").fetchone()[0]
    e.barrier.tick(1)
    new_epoch = e.conn.execute("SELECT epoch FROM barrier_state").fetchone()[0]
    assert new_epoch > epoch and new_epoch >> 16 == e.clock.now_ms() - 1_617_235_200_000


def test_a_foreground_create_holds_the_creation_permit() -> None:
    """max_concurrent_creating_streaming_jobs = 1 (default): while a foreground create runs,
    the next create waits with its job INITIAL (ddl_controller.rs:1200-1208)."""
    e = make_engine()
    t = table(e, "t", rows=8)
    first = mv(e, "m", [t], ctx(backfill_rate_limit="1"))
    m = rel_id(e, "m")
    assert first.wait is not None and not first.wait.done
    second = e.ddl.create_table(ctx(), ObjectName("u"), [], definition="CREATE TABLE u")
    assert second.wait is not None and not second.wait.done
    assert e.catalog.lookup(ctx(), ObjectName("u")) is None  # INITIAL: invisible to the frontend
    u = e.conn.execute("SELECT relation_id FROM relation WHERE name = 'u'").fetchone()[0]
    assert [r[0::3] for r in e.backfill.show_jobs().rows] == [
        (m, "Snapshot [0.00% (0/8)]"),
        (u, "0.0%"),
    ]
    run_until_created(e, m)
    assert first.wait.done and second.wait.done and second.wait.error is None
    assert e.catalog.job_status(u) == "CREATED"
    # Background creates return after their first barrier and hold no permit.
    mv(e, "b1", [t], bg())
    assert mv(e, "b2", [t], bg()).wait is None
    # 0 means unlimited.
    e.params.alter_system_set(ctx(), "max_concurrent_creating_streaming_jobs", "0")
    mv(e, "f1", [t], ctx(backfill_rate_limit="1"))
    assert e.catalog.lookup(ctx(), ObjectName("f1")) is not None
    r = e.ddl.create_table(ctx(), ObjectName("w"), [], definition="CREATE TABLE w")
    assert r.wait is None and e.catalog.lookup(ctx(), ObjectName("w")) is not None


def test_a_queued_create_fails_with_the_error_it_meets_when_it_starts() -> None:
    e = make_engine()
    t = table(e, "t", rows=8)
    mv(e, "m", [t], ctx(backfill_rate_limit="1"))
    queued = mv(e, "snap", [t])
    assert queued.wait is not None and not queued.wait.done
    e.barrier.pause_database(ctx(), "dev")  # m is a snapshot-backfill job: it keeps running
    run_until_created(e, rel_id(e, "m"))
    assert queued.wait.done and queued.wait.error is not None
    assert queued.wait.error.chain[-1] == (
        "cannot create streaming job with snapshot backfill when paused"
    )
    assert e.conn.execute("SELECT count(*) FROM relation WHERE name = 'snap'").fetchone() == (0,)


def test_meta_sees_initial_jobs_in_its_duplicate_check() -> None:
    e = make_engine()
    t = table(e, "t", rows=8)
    mv(e, "m", [t], ctx(backfill_rate_limit="1"))  # holds the permit
    queued = mv(e, "q", [t])
    with pytest.raises(RwError) as ex:
        mv(e, "q", [t])
    assert ex.value.report() == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n"
        "  2: gRPC request to meta service (call `/ddl_service.DdlService/CreateMaterializedView`)"
        " failed: Some entity that we attempted to create (e.g., file or directory) already "
        "exists\n"
        "  3: table named q already exists and is still being created\n"
    )
    again = e.ddl.create_materialized_view(
        ctx(), ObjectName("q"), [], definition="x", upstream_ids=[t], if_not_exists=True
    )
    assert again.wait is not None and not again.wait.done
    run_until_created(e, rel_id(e, "m"))
    q = rel_id(e, "q")
    run_until_created(e, q)
    assert queued.wait is not None and queued.wait.done and again.wait.done


def test_recover_fails_a_young_foreground_create_and_keeps_an_old_one() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    young = mv(e, "young", [t], ctx(backfill_rate_limit="1"))
    y = rel_id(e, "young")
    e.recovery.adhoc_recover(ctx())
    assert young.wait is not None and young.wait.done and young.wait.error is not None
    assert young.wait.error.chain[-1] == "failed to wait streaming job finish: adhoc recovery"
    assert e.catalog.relation(y) is None  # cancelled with the create
    old = mv(e, "old", [t], ctx(backfill_rate_limit="1"))
    o = rel_id(e, "old")
    e.clock.advance(31_000)  # type: ignore[attr-defined]
    e.recovery.adhoc_recover(ctx())
    assert old.wait is not None and not old.wait.done
    assert e.catalog.job_status(o) == "CREATING"
    e.throttle.alter_rate_limit(ctx(), "materialized view", ObjectName("old"), "backfill", None)
    e.barrier.tick()
    assert old.wait.done and old.wait.error is None


def test_create_result_names_its_job_for_a_session_cancel() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    r = mv(e, "m", [t], ctx(backfill_rate_limit="1"))
    assert r.job_id == rel_id(e, "m")
    assert e.jobs.cancel_jobs(ctx(), [r.job_id]).rows == [(str(r.job_id),)]
    assert r.wait is not None and r.wait.done and r.wait.error is not None


def test_foreground_create_within_one_barrier_budget_is_owed_an_early_barrier() -> None:
    e = make_engine(backfill_rows_per_second=10)
    wanted: list[bool] = []
    e.on_barrier_wanted = lambda: wanted.append(True)
    small = table(e, "small", rows=5)
    big = table(e, "big", rows=500)
    e.barrier.tick()
    assert e.barrier.due_databases() == [(1, 1000)]
    # 500 rows need more than one barrier (10 rows/s per actor over a 1 s interval): no debt.
    r_big = mv(e, "m_big", [big])
    assert r_big.wait is not None and not r_big.wait.done
    assert wanted == [] and e.barrier.due_databases() == [(1, 1000)]
    e.jobs.cancel_jobs(ctx(), [rel_id(e, "m_big")])
    # 5 rows fit in one barrier: the database is due now, and that barrier finishes the job.
    r = mv(e, "m_small", [small])
    m = rel_id(e, "m_small")
    assert e.catalog.job_status(m) == "CREATING" and r.wait is not None and not r.wait.done
    assert wanted == [True] and e.barrier.due_databases() == [(1, 0)]
    e.barrier.tick(1)
    assert e.catalog.job_status(m) == "CREATED" and r.wait.done
    assert e.barrier.due_databases() == [(1, 1000)]


def test_background_and_rate_limited_creates_keep_the_periodic_schedule() -> None:
    e = make_engine()
    wanted: list[bool] = []
    e.on_barrier_wanted = lambda: wanted.append(True)
    t = table(e, "t", rows=3)
    e.barrier.tick()
    mv(e, "m_bg", [t], bg(backfill_rate_limit="-1"))
    assert e.catalog.job_status(rel_id(e, "m_bg")) == "CREATING"
    mv(e, "m_paused", [t], Context(variables={"backfill_rate_limit": "0"}))
    assert e.catalog.job_status(rel_id(e, "m_paused")) == "CREATING"
    assert wanted == [] and e.barrier.due_databases() == [(1, 1000)]
