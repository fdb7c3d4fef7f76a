"""The five errors of issue 4 and their siblings, as full texts (rw-engine-semantics §4.3)."""

from __future__ import annotations

import pytest

from rwshim.engine.types import ObjectName
from rwshim.errors import RwError
from tests.unit.engine.helpers import bg, ctx, make_engine, mv, rel_id, table

HEAD = "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"


def grpc(call: str, message: str) -> str:
    return (
        HEAD + f"  1: gRPC request to meta service (call `/ddl_service.DdlService/{call}`) failed: "
        "Internal error\n" + f"  2: {message}\n"
    )


def test_error_1_alter_parallelism_of_creating_snapshot_backfill_mv_and_its_upstream() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("m"), "2")
    assert ex.value.code == "XX000"
    assert ex.value.report() == grpc(
        "AlterParallelism",
        f"Cannot alter the job {m} because it is blocked by creating unreschedulable backfill jobs",
    )
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "2")
    assert ex.value.report() == grpc(
        "AlterParallelism",
        f"Cannot alter the job {t} because it is blocked by creating unreschedulable backfill jobs",
    )
    # Extended protocol: only the envelope changes.
    assert ex.value.report("Failed to execute the statement").startswith(
        "Failed to execute the statement\n\nCaused by these errors"
    )


def test_error_1_through_alter_resource_group_uses_its_own_call() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    with pytest.raises(RwError) as ex:
        e.scale.alter_resource_group(ctx(), "table", ObjectName("t"), "rg")
    assert ex.value.report() == grpc(
        "AlterResourceGroup",
        f"Cannot alter the job {t} because it is blocked by creating unreschedulable backfill jobs",
    )


def test_error_2_backfill_parallelism_of_creating_snapshot_backfill_job() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    m = rel_id(e, "m")
    with pytest.raises(RwError) as ex:
        e.scale.alter_backfill_parallelism(ctx(), "materialized view", ObjectName("m"), "2")
    assert ex.value.report() == grpc(
        "AlterBackfillParallelism",
        f"Cannot alter the job {m} because its creating backfill contains a scan type that does "
        "not support online rescheduling",
    )


@pytest.mark.parametrize(
    ("call", "kind"),
    [("CreateMaterializedView", "mv"), ("CreateSink", "sink")],
)
def test_error_3_snapshot_backfill_create_while_paused(call: str, kind: str) -> None:
    e = make_engine()
    t = table(e, "t", rows=3)
    e.barrier.pause_all(ctx())
    with pytest.raises(RwError) as ex:
        if kind == "mv":
            mv(e, "m", [t])
        else:
            e.ddl.create_sink(
                ctx(),
                ObjectName("s"),
                [],
                definition="CREATE SINK s FROM t WITH (connector = 'blackhole')",
                upstream_ids=[t],
                with_options=[("connector", "blackhole")],
            )
    assert ex.value.code == "XX000"
    assert ex.value.report() == grpc(
        call, "cannot create streaming job with snapshot backfill when paused"
    )
    # Nothing remains: the INITIAL job was aborted.
    assert e.backfill.show_jobs().rows == []
    assert e.catalog.lookup(ctx(), ObjectName("m" if kind == "mv" else "s")) is None


def test_error_3_text_also_for_batch_refresh_and_error_5_with_the_fault() -> None:
    e = make_engine()
    t = table(e, "t", rows=3)
    e.barrier.pause_all(ctx())
    with pytest.raises(RwError) as ex:
        mv(e, "m", [t], with_options=[("refresh.interval.sec", "10")])
    assert ex.value.report() == grpc(
        "CreateMaterializedView", "cannot create streaming job with snapshot backfill when paused"
    )
    e.faults.skip_batch_refresh_admission = True
    with pytest.raises(RwError) as ex:
        mv(e, "m", [t], with_options=[("refresh.interval.sec", "10")])
    assert ex.value.report() == grpc(
        "CreateMaterializedView", "cannot create batch refresh job while database barrier is paused"
    )
    # The failed injection sends the database through recovery: it comes back unpaused.
    assert not e.barrier.is_paused(1)


def test_error_4_alter_origin_both_variants() -> None:
    e = make_engine()
    table(e, "t", c=ctx(streaming_max_parallelism="4"))
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "8")
    assert ex.value.report() == grpc(
        "AlterParallelism", "specified parallelism 8 should not exceed max parallelism 4"
    )
    with pytest.raises(RwError) as ex:
        e.scale.alter_backfill_parallelism(ctx(), "table", ObjectName("t"), "8")
    assert ex.value.report() == grpc(
        "AlterBackfillParallelism",
        "specified backfill parallelism 8 should not exceed max parallelism 4",
    )
    # bounded(n) above the max is not rejected (only Fixed is checked).
    assert e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "bounded(1000)").notices == []


def test_error_4_create_origin_both_variants_and_the_id_is_consumed() -> None:
    e = make_engine()
    c = ctx(streaming_max_parallelism="4", streaming_parallelism="6")
    with pytest.raises(RwError) as ex:
        table(e, "t", c=c)
    assert ex.value.code == "XX000"
    assert ex.value.report() == (
        "Failed to run the query\n\nCaused by:\n  Invalid parameter value: Invalid parameter: "
        "specified parallelism 6 should not exceed max parallelism 4\n"
    )
    t = table(e, "t")
    assert t == 7  # id 6 went to the aborted create, as in RisingWave's object sequence
    c = ctx(streaming_max_parallelism="4", streaming_parallelism_for_backfill="6")
    with pytest.raises(RwError) as ex:
        mv(e, "m", [t], c)
    assert ex.value.report() == (
        "Failed to run the query\n\nCaused by:\n  Invalid parameter value: Invalid parameter: "
        "specified backfill parallelism 6 should not exceed max parallelism 4\n"
    )
    # No backfill scan: the backfill variable is not sent, so no error.
    assert (
        e.ddl.create_materialized_view(
            c,
            ObjectName("k"),
            [],
            definition="CREATE MATERIALIZED VIEW k AS SELECT 1",
            upstream_ids=[],
        ).notices
        == []
    )


def test_error_6_hash_downstream_of_a_scanned_table_after_the_catalog_write() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    arr = ctx(streaming_use_snapshot_backfill="false")
    mv(e, "m2", [t], arr)  # created at once over an ArrangementBackfill scan
    m2 = rel_id(e, "m2")
    e.barrier.tick()
    assert e.catalog.job_status(m2) == "CREATED"
    mv(e, "m", [t], bg())  # snapshot backfill, creating
    with pytest.raises(RwError) as ex:
        e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("m2"), "2")
    assert ex.value.report() == grpc(
        "AlterParallelism",
        f"cannot reschedule jobs {{{t}}} when creating jobs with unreschedulable backfill "
        "fragments",
    )
    # The catalog write happened before the barrier rejected the command.
    assert e.actors.catalog_parallelism(m2) == "2"
    assert set(e.actors.rendered_parallelism(m2).values()) == {4}


def test_deferred_notice_and_no_error() -> None:
    e = make_engine()
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    r = e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "2", deferred=True)
    assert r.notices == [
        "DEFERRED is used, please ensure that automatic parallelism control is enabled on the "
        "meta, otherwise, the alter will not take effect."
    ]
    notice = r.notices
    r = e.scale.alter_backfill_parallelism(
        ctx(), "materialized view", ObjectName("m"), "2", deferred=True
    )
    assert r.notices == notice


def test_sqlstates_of_catalog_errors() -> None:
    e = make_engine()
    table(e, "t")
    with pytest.raises(RwError) as ex:
        table(e, "t")
    assert (ex.value.code, ex.value.report()) == (
        "42710",
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table named t already exists\n",
    )
    with pytest.raises(RwError) as ex:
        e.ddl.drop_relation(ctx(), "materialized view", ObjectName("nope"))
    assert ex.value.code == "42704"
    assert ex.value.chain == ["Catalog error", "materialized view not found: nope"]
    with pytest.raises(RwError) as ex:
        e.catalog.database_id("nodb")
    assert ex.value.code == "3D000"


def test_the_issue_scenario_end_to_end() -> None:
    """Background MV on a table with rows and a rate limit; ALTERs while it is creating fail,
    DEFERRED succeeds; once created the same ALTERs succeed; pause rejects a snapshot-backfill
    create, resume lets the same statement through."""
    e = make_engine()
    t = table(e, "t", rows=20)
    mv(e, "m", [t], bg())
    for fn in (
        lambda: e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("m"), "2"),
        lambda: e.scale.alter_backfill_parallelism(
            ctx(), "materialized view", ObjectName("m"), "2"
        ),
    ):
        with pytest.raises(RwError):
            fn()
    r = e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("m"), "2", deferred=True)
    assert len(r.notices) == 1 and r.notices[0].startswith("DEFERRED is used")
    for _ in range(10):
        e.barrier.tick()
    m = rel_id(e, "m")
    assert e.catalog.job_status(m) == "CREATED"
    assert e.scale.alter_parallelism(ctx(), "materialized view", ObjectName("m"), "3").notices == []
    assert (
        e.scale.alter_backfill_parallelism(ctx(), "materialized view", ObjectName("m"), "2").notices
        == []
    )
    e.barrier.pause_database(ctx(), "dev")
    with pytest.raises(RwError) as ex:
        mv(e, "m2", [t])
    assert ex.value.chain[-1] == "cannot create streaming job with snapshot backfill when paused"
    e.barrier.resume_database(ctx(), "dev")
    r = mv(e, "m2", [t])
    assert r.wait is not None
    e.barrier.tick()
    assert r.wait.done and r.wait.error is None
