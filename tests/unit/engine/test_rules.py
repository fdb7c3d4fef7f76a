"""The decision rules of rw-engine-semantics §2 as tables of cases, driven through the engine."""

from __future__ import annotations

import pytest

from rwshim.engine import graph as g
from rwshim.engine.types import Context, ObjectName
from rwshim.errors import RwError
from tests.unit.engine.helpers import bg, ctx, make_engine, mv, rel_id, run_until_created, table


@pytest.mark.parametrize(
    ("scan_type", "online", "expected"),
    [
        ("UpstreamOnly", True, True),
        ("ArrangementBackfill", True, True),
        ("CrossDbSnapshotBackfill", True, True),
        ("SnapshotBackfill", True, False),
        ("SnapshotBackfill", False, True),
        ("Backfill", False, False),
        ("Chain", True, False),
        ("Rearrange", False, False),
    ],
)
def test_reschedulable_predicate(scan_type: str, online: bool, expected: bool) -> None:
    assert g.reschedulable(scan_type, online) is expected


def _blocked(e: object, online: bool) -> set[int]:
    from rwshim.engine.engine import Engine

    assert isinstance(e, Engine)
    graph = g.Graph.load(e.conn)
    return g.blocked_jobs(graph, graph.creating_jobs(), online)


def test_blocked_set_of_a_creating_snapshot_backfill_mv() -> None:
    e = make_engine()
    t = table(e, "t", rows=50)
    other = table(e, "other", rows=5)
    mv(e, "m2", [t], ctx(streaming_use_snapshot_backfill="false"))  # hash downstream of t
    e.barrier.tick()
    e.ddl.create_sink(
        ctx(),
        ObjectName("s"),
        [],
        definition="CREATE SINK s FROM t WITH (connector = 'blackhole', snapshot = 'false')",
        upstream_ids=[t],
        with_options=[("connector", "blackhole"), ("snapshot", "false")],
    )
    s = rel_id(e, "s")
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    # online: the job, its upstream, and the NoShuffle ensemble of the upstream (the
    # upstream-only sink); not the hash downstream m2, not the unrelated table.
    assert _blocked(e, online=True) == {m, t, s}
    assert other not in _blocked(e, online=True)
    # deferred: only legacy scans seed; this version never creates them.
    assert _blocked(e, online=False) == set()


def test_arrangement_backfill_creating_job_blocks_nothing() -> None:
    e = make_engine()
    t = table(e, "t", rows=50)
    mv(e, "m", [t], bg(streaming_use_snapshot_backfill="false"))
    m = rel_id(e, "m")
    assert e.catalog.job_status(m) == "CREATING"
    assert _blocked(e, online=True) == set()
    # Online alters of both succeed; the creating job's backfill parallelism re-renders now.
    e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "2")
    assert set(e.actors.rendered_parallelism(t).values()) == {2}
    e.scale.alter_backfill_parallelism(ctx(), "materialized view", ObjectName("m"), "bounded(3)")
    assert set(e.actors.rendered_parallelism(m).values()) == {3}


CASES = [
    # (statement, deferred, error?)  on a creating snapshot-backfill MV m over t
    ("parallelism", "m", False, "E1"),
    ("parallelism", "t", False, "E1"),
    ("parallelism", "m", True, None),
    ("parallelism", "t", True, None),
    ("backfill", "m", False, "E2"),
    ("backfill", "m", True, None),
    ("backfill", "t", False, None),  # t is not creating: error 2 looks at the job only
]


@pytest.mark.parametrize(("what", "target", "deferred", "error"), CASES)
def test_alter_rules_while_snapshot_backfill_mv_is_creating(
    what: str, target: str, deferred: bool, error: str | None
) -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    kind = "table" if target == "t" else "materialized view"
    job = rel_id(e, target)
    fn = e.scale.alter_parallelism if what == "parallelism" else e.scale.alter_backfill_parallelism
    if error is None:
        r = fn(ctx(), kind, ObjectName(target), "2", deferred=deferred)
        assert r.notices == ([g_notice()] if deferred else [])
        return
    with pytest.raises(RwError) as ex:
        fn(ctx(), kind, ObjectName(target), "2", deferred=deferred)
    msg = ex.value.chain[-1]
    if error == "E1":
        assert msg == (
            f"Cannot alter the job {job} because it is blocked by creating unreschedulable "
            "backfill jobs"
        )
    else:
        assert msg == (
            f"Cannot alter the job {job} because its creating backfill contains a scan type that "
            "does not support online rescheduling"
        )


def g_notice() -> str:
    from rwshim.engine.scale import DEFERRED_NOTICE

    return DEFERRED_NOTICE


def test_blocked_check_comes_before_the_max_parallelism_check() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "100000")
    assert ex.value.chain[-1].startswith(f"Cannot alter the job {t} because it is blocked")
    # DEFERRED skips the block but not the max check.
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "100000", deferred=True)
    assert (
        ex.value.chain[-1] == "specified parallelism 100000 should not exceed max parallelism 256"
    )


def test_the_same_alters_succeed_once_the_job_is_created() -> None:
    e = make_engine()
    t = table(e, "t", rows=10)
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    run_until_created(e, m)
    e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("m"), "2")
    e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "3")
    assert set(e.actors.rendered_parallelism(m).values()) == {2}
    assert set(e.actors.rendered_parallelism(t).values()) == {3}
    # Backfill parallelism of a created job: stored, layout unchanged.
    e.scale.alter_backfill_parallelism(ctx(), "materialized view", ObjectName("m"), "1")
    assert set(e.actors.rendered_parallelism(m).values()) == {2}


def test_deferred_parallelism_is_applied_by_recovery() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "2", deferred=True)
    assert e.actors.catalog_parallelism(t) == "2"
    assert set(e.actors.rendered_parallelism(t).values()) == {4}
    e.recovery.adhoc_recover(ctx())
    assert set(e.actors.rendered_parallelism(t).values()) == {2}


def test_backfill_parallelism_while_creating_then_restore_of_the_target() -> None:
    e = make_engine()
    t = table(e, "t", rows=40)
    c = bg(
        streaming_use_snapshot_backfill="false",
        streaming_parallelism_for_backfill="2",
        streaming_parallelism="3",
    )
    mv(e, "m", [t], c)
    m = rel_id(e, "m")
    assert (
        e.actors.catalog_parallelism(m) == "2"
    )  # catalogs show the backfill override while creating
    assert set(e.actors.rendered_parallelism(m).values()) == {2}
    run_until_created(e, m)
    assert e.actors.catalog_parallelism(m) == "3"
    assert set(e.actors.rendered_parallelism(m).values()) == {3}


def test_shared_source_ensemble_follows_the_source() -> None:
    e = make_engine()
    e.ddl.create_source(
        ctx(),
        ObjectName("src"),
        [],
        definition="CREATE SOURCE src (v INT) WITH (connector = 'kafka')",
        with_options=[("connector", "kafka")],
    )
    src = rel_id(e, "src")
    r = mv(e, "m", [src])
    assert r.notices == ['snapshot backfill disabled due to using shared source Some("src")']
    m = rel_id(e, "m")
    assert r.wait is not None and not r.wait.done  # foreground: waits for its source backfill
    e.barrier.tick()
    assert r.wait.done and r.wait.error is None
    assert e.catalog.job_status(m) == "CREATED"
    e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("m"), "2")
    assert set(e.actors.rendered_parallelism(m).values()) == {4}  # NoShuffle: keeps the source's
    e.scale.alter_parallelism(ctx(), "source", ObjectName("src"), "3")
    assert set(e.actors.rendered_parallelism(m).values()) == {3}


def test_cross_database_scan_is_normal_and_blocks_nothing() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    e.catalog.create_database(ctx(), "db2")
    db2 = e.catalog.database_id("db2")
    c2 = Context(database_id=db2, variables={"background_ddl": "true", "backfill_rate_limit": "1"})
    # a cross-database scan needs a subscription on its upstream (create_op.rs:625-663)
    with pytest.raises(RwError) as refused:
        mv(e, "x", [t], c2)
    assert refused.value.chain == ["Permission denied: Some upstream tables are not subscribed"]
    e.subscriptions.create(
        ctx(), ObjectName("s"), ObjectName("t"), [("retention", "1D")],
        "create subscription s from t with (retention = '1D')",
    )  # fmt: skip
    mv(e, "x", [t], c2)
    x = rel_id(e, "x", c2)
    assert e.catalog.job_status(x) == "CREATING"
    assert _blocked(e, online=True) == set()
    assert e.conn.execute(
        "SELECT job_type, backfill_type FROM streaming_job WHERE job_id = ?", (x,)
    ).fetchone() == ("Normal", "NORMAL_BACKFILL")


def test_frontend_resolution_errors_of_alter_parallelism() -> None:
    e = make_engine()
    table(e, "t", rows=100)
    mv(e, "m", [rel_id(e, "t")], bg())
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(
            ctx(), "table", ObjectName("m"), "2"
        )  # creating MV via ALTER TABLE
    assert ex.value.chain == ["Catalog error", "table not found: m"]
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("t"), "2")
    assert ex.value.chain == [
        "Invalid input syntax: cannot alter parallelism of TABLE t by ALTER_MATERIALIZED_VIEW"
    ]
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "table", ObjectName("t", "nosuch"), "2")
    assert ex.value.chain == ["Catalog error", "schema not found: nosuch"]
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "sink", ObjectName("t"), "2")
    assert ex.value.chain == ["Catalog error", "sink not found: t"]
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "bounded(0)")
    assert ex.value.chain == [
        "Invalid input syntax: target parallelism must be a valid number, adaptive, bounded(n), "
        "or ratio(r): Invalid value for Bounded strategy: must be positive integer"
    ]


def test_deferred_on_a_creating_job_without_backfill_override_waits_for_recovery() -> None:
    """§2.8 note: completion restores only a backfill override; a DEFERRED target without one
    is applied at the next recovery."""
    e = make_engine()
    t = table(e, "t", rows=20)
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("m"), "2", deferred=True)
    run_until_created(e, m)
    assert e.actors.catalog_parallelism(m) == "2"
    assert set(e.actors.rendered_parallelism(m).values()) == {4}
    e.recovery.adhoc_recover(ctx())
    assert set(e.actors.rendered_parallelism(m).values()) == {2}


def _rule_answers(graph: g.Graph, job_id: int, database_id: int) -> tuple[object, ...]:
    creating = graph.creating_jobs()
    fragments = g.reschedule_fragments(graph, job_id)
    return (
        creating,
        g.blocked_jobs(graph, creating, online=True),
        g.blocked_jobs(graph, creating, online=False),
        g.online_unreschedulable_jobs(graph, creating),
        fragments,
        g.barrier_rejected_jobs(graph, database_id, fragments),
        {f: g.ensemble_roots(graph, f) for f in graph.fragments_of(job_id)},
    )


def test_the_graph_around_a_job_gives_the_whole_graphs_answers() -> None:
    e = make_engine()
    e.ddl.create_source(
        ctx(),
        ObjectName("src"),
        [],
        definition="CREATE SOURCE src (v INT) WITH (connector = 'kafka')",
        with_options=[("connector", "kafka")],
    )
    mv(e, "from_src", [rel_id(e, "src")])
    e.barrier.tick()
    t = table(e, "t", rows=50)
    table(e, "other", rows=5)
    mv(e, "m2", [t], ctx(streaming_use_snapshot_backfill="false"))
    e.barrier.tick()
    e.ddl.create_sink(
        ctx(),
        ObjectName("s"),
        [],
        definition="CREATE SINK s FROM t WITH (connector = 'blackhole', snapshot = 'false')",
        upstream_ids=[t],
        with_options=[("connector", "blackhole"), ("snapshot", "false")],
    )
    mv(e, "m", [t], bg(streaming_use_snapshot_backfill="true"))
    mv(e, "m3", [rel_id(e, "m2")], bg())
    assert e.catalog.job_status(rel_id(e, "m")) == "CREATING"
    whole = g.Graph.load(e.conn)
    assert len(whole.job_status) >= 8
    for job in whole.job_status:
        around = g.Graph.load_around(e.conn, [job])
        assert _rule_answers(around, job, 1) == _rule_answers(whole, job, 1), job
