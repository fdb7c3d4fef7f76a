"""The scale part's refusal rules as named, read-only functions (what the dashboard asks):
each gives the error its ALTER raises, names the creating jobs that cause it, and writes
nothing; ALTER FRAGMENT meets the barrier-level rejection (error 6) as RisingWave's does."""

from __future__ import annotations

import pytest

from rwshim.engine import graph as g
from rwshim.engine.engine import Engine
from rwshim.engine.scale import ALTER_FRAGMENT_PARALLELISM, Refusal
from rwshim.engine.types import ObjectName
from rwshim.errors import RwError
from tests.unit.engine.helpers import bg, ctx, make_engine, mv, rel_id, run_until_created, table
from tests.unit.engine.test_errors import grpc


def _dump(e: Engine) -> list[object]:
    """Everything a refusal check could write."""
    return [
        e.conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
        for t in ("streaming_job", "fragment", "fragment_relation", "actor", "barrier_state")
    ]


def _raised(fn: object, *args: object, **kw: object) -> RwError:
    assert callable(fn)
    with pytest.raises(RwError) as ex:
        fn(*args, **kw)
    return ex.value


def _fragments(e: Engine, job: int) -> list[int]:
    rows = e.conn.execute(
        "SELECT fragment_id FROM fragment WHERE job_id = ? ORDER BY 1", (job,)
    ).fetchall()
    return [int(r[0]) for r in rows]


def test_error_1_refusal_is_the_alters_error_and_writes_nothing() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    before = _dump(e)
    for job in (t, m):
        refusal = e.scale.parallelism_refusal(job)
        assert isinstance(refusal, Refusal)
        assert (refusal.causes, refusal.at_barrier) == ((m,), False)
        assert refusal.error.report() == grpc(
            "AlterParallelism",
            f"Cannot alter the job {job} because it is blocked by creating unreschedulable "
            "backfill jobs",
        )
    # DEFERRED: only legacy scans block.
    assert e.scale.parallelism_refusal(t, deferred=True) is None
    assert _dump(e) == before
    raised = _raised(e.scale.alter_parallelism, ctx(), "table", ObjectName("t"), "2")
    refusal = e.scale.parallelism_refusal(t)
    assert refusal is not None
    assert raised.report() == refusal.error.report()
    run_until_created(e, m)
    assert e.scale.parallelism_refusal(t) is None
    assert e.scale.parallelism_refusal(m) is None


def test_every_creating_job_that_blocks_is_a_cause() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    other = table(e, "other", rows=100)
    mv(e, "m1", [t], bg())
    mv(e, "m2", [t], bg())
    mv(e, "m3", [other], bg())
    m1, m2, m3 = rel_id(e, "m1"), rel_id(e, "m2"), rel_id(e, "m3")
    refusal = e.scale.parallelism_refusal(t)
    assert refusal is not None
    assert refusal.causes == (m1, m2)
    refusal = e.scale.parallelism_refusal(m3)
    assert refusal is not None
    assert refusal.causes == (m3,)
    # The causes are exactly the creating jobs whose blocked set holds the job.
    graph = g.Graph.load(e.conn)
    creating = graph.creating_jobs()
    assert {j for j in creating if t in g.blocked_jobs(graph, [j], True)} == {m1, m2}


def test_error_2_refusal_only_for_the_creating_job_itself() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    before = _dump(e)
    refusal = e.scale.backfill_parallelism_refusal(m)
    assert refusal is not None
    assert refusal.causes == (m,)
    assert refusal.error.report() == grpc(
        "AlterBackfillParallelism",
        f"Cannot alter the job {m} because its creating backfill contains a scan type that does "
        "not support online rescheduling",
    )
    assert e.scale.backfill_parallelism_refusal(t) is None
    assert e.scale.backfill_parallelism_refusal(m, deferred=True) is None
    assert _dump(e) == before
    raised = _raised(
        e.scale.alter_backfill_parallelism, ctx(), "materialized view", ObjectName("m"), "2"
    )
    assert raised.report() == refusal.error.report()


def test_error_6_refusal_of_a_hash_downstream_matches_the_alter() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m2", [t], ctx(streaming_use_snapshot_backfill="false"))
    m2 = rel_id(e, "m2")
    e.barrier.tick()
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    assert e.scale.parallelism_refusal(m2) is None
    graph = g.Graph.load(e.conn)
    refusal = e.scale.barrier_refusal(
        1, g.reschedule_fragments(graph, m2), "/ddl_service.DdlService/AlterParallelism"
    )
    assert refusal is not None
    assert (refusal.causes, refusal.at_barrier) == ((m,), True)
    raised = _raised(e.scale.alter_parallelism, ctx(), "materialized view", ObjectName("m2"), "2")
    assert raised.report() == refusal.error.report()


def test_alter_fragment_is_rejected_at_the_barrier_and_keeps_the_catalog_value() -> None:
    """ALTER FRAGMENT has no error-1 check, but its reschedule command meets the barrier's
    (stream_manager.rs:1076-1105, control.rs:1238-1266)."""
    e = make_engine()
    t = table(e, "t", rows=100)
    other = table(e, "other", rows=10)
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    tf, dml = _fragments(e, t)  # the table's MVIEW and its SOURCE/DML fragment
    before = _dump(e)
    refusals = e.scale.fragment_refusals(t)
    assert _dump(e) == before
    assert sorted(refusals) == [tf, dml]
    assert refusals[dml].error.report() == refusals[tf].error.report()
    assert refusals[tf].error.call == ALTER_FRAGMENT_PARALLELISM
    assert (refusals[tf].causes, refusals[tf].at_barrier) == ((m,), True)
    assert refusals[tf].error.report() == grpc(
        "AlterFragmentParallelism",
        f"cannot reschedule jobs {{{t}}} when creating jobs with unreschedulable backfill "
        "fragments",
    )
    assert e.scale.fragment_refusals(other) == {}
    raised = _raised(e.scale.alter_fragment_parallelism, ctx(), [tf], "2")
    assert raised.report() == refusals[tf].error.report()
    # The fragment's value was written before the barrier refused the command.
    assert e.conn.execute(
        "SELECT parallelism_override_fixed FROM fragment WHERE fragment_id = ?", (tf,)
    ).fetchone() == (2,)
    assert set(e.actors.rendered_parallelism(t).values()) == {4}
    # An unrelated table's fragment is not blocked.
    of, _ = _fragments(e, other)
    e.scale.alter_fragment_parallelism(ctx(), [of], "2")
    assert e.actors.actor_count(of) == 2
    run_until_created(e, m)
    assert e.scale.fragment_refusals(t) == {}
    e.scale.alter_fragment_parallelism(ctx(), [tf], "3")
    assert e.actors.actor_count(tf) == 3
