"""A create waiting for the creation permit whose job is cancelled gets its answer at once
(not when the permit frees), and leaves the queue."""

from __future__ import annotations

from tests.unit.engine.helpers import ctx, make_engine, mv, table


def test_cancelling_a_queued_create_answers_its_session_now() -> None:
    e = make_engine()
    t = table(e, "t", rows=8)
    holder = mv(e, "m", [t], ctx(backfill_rate_limit="1"))  # foreground: holds the permit
    queued = mv(e, "q", [t])
    assert queued.wait is not None and not queued.wait.done
    q = e.conn.execute("SELECT relation_id FROM relation WHERE name = 'q'").fetchone()[0]
    assert e.catalog.job_status(q) == "INITIAL"
    cancelled = e.jobs.cancel_jobs(ctx(), [q])
    assert cancelled.rows == [(str(q),)]
    assert queued.wait.done and queued.wait.error is not None
    assert queued.wait.error.report() == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Scheduler error\n"
        "  2: gRPC request to meta service (call `/ddl_service.DdlService/CreateMaterializedView`)"
        " failed: The operation was cancelled\n"
        "  3: Cancelled: create\n"
    )
    assert [p.job_id for p in e.waits.queue] == []
    assert holder.wait is not None and not holder.wait.done  # the permit holder runs on
