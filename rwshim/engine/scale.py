"""Scale: rescheduling a streaming job or fragment (ALTER ... SET PARALLELISM,
SET BACKFILL_PARALLELISM, SET RESOURCE_GROUP, ALTER FRAGMENT ... SET PARALLELISM), with the
rules that refuse one: the jobs a creating unreschedulable backfill blocks (error 1, error 2),
the max-parallelism checks (error 4b, 4c), the barrier-level rejection (error 6); DEFERRED,
which only records the intent; and the post-backfill restore of a job created with a backfill
parallelism.

RisingWave: ``src/meta/src/stream/stream_manager.rs:918-990`` (reschedule_streaming_job and
its blocked sets), ``src/meta/src/stream/scale.rs`` (reschedule_backfill_parallelism_inplace
:280-321, apply_post_backfill_parallelism :1505-1577), ``src/meta/src/manager/metadata.rs:
727`` and ``barrier/checkpoint/control.rs:901-990`` (the blocked-set collectors),
``src/meta/src/rpc/ddl_controller.rs:594-640``, ``src/frontend/src/handler/
alter_parallelism.rs``.  The graph rules themselves are ``engine/graph.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rwshim.engine import graph as g
from rwshim.engine import parallelism as par
from rwshim.engine.actors import Actors
from rwshim.engine.backfill import Backfill
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.errors import (
    DDL,
    AlterParallelismExceedsMax,
    BackfillNotOnlineReschedulable,
    InvalidParameterValue,
    MetaRpcError,
    RescheduleBlocked,
    RescheduleRejectedAtBarrier,
    Uncategorized,
)

DEFERRED_NOTICE = (
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the "
    "meta, otherwise, the alter will not take effect."
)


class Scale:
    """Rescheduling of streaming jobs and fragments."""

    def __init__(
        self, meta: Meta, catalog: Catalog, actors: Actors, barrier: Barrier, backfill: Backfill
    ) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog
        self.actors = actors
        self.barrier = barrier
        # RisingWave's scale monitor follows LocalNotification::StreamingJobBackfillFinished.
        backfill.on_finished.append(self.restore_after_backfill)

    def alter_parallelism(
        self,
        ctx: Context,
        kind: str,
        name: ObjectName,
        value: str | None,
        *,
        deferred: bool = False,
    ) -> Result:
        """ALTER <kind> <name> SET PARALLELISM {TO|=} <value> [DEFERRED].

        ``value`` is the value's unquoted text (None for DEFAULT).  Rules: rw-engine-semantics
        §2.3 (error 1, error 4b, error 6, the DEFERRED notice)."""
        rel = self.catalog.resolve_job(ctx, kind, name, "parallelism")
        target = par.parse_alter_value(value)
        self.reschedule(rel.id, target, deferred, DDL + "AlterParallelism")
        return Result([DEFERRED_NOTICE] if deferred else [])

    def reschedule(
        self,
        job_id: int,
        target: par.Target,
        deferred: bool,
        call: str,
        *,
        group: str | None = None,
    ) -> None:
        """The reschedule path of SET PARALLELISM and SET RESOURCE_GROUP: the blocked-set and
        max-parallelism checks, the new value committed, then (not for DEFERRED) the reschedule
        command through the barrier."""
        graph = g.Graph.load_around(self.conn, [job_id])
        creating = graph.creating_jobs()
        if creating and job_id in g.blocked_jobs(graph, creating, online=not deferred):
            raise RescheduleBlocked(call, job_id)
        row = self.meta.q1(
            "SELECT max_parallelism, database_id FROM streaming_job WHERE job_id = ?", (job_id,)
        )
        if row is None:
            raise Uncategorized(f"table id not found: {job_id}")
        max_p, db = int(row[0]), int(row[1])
        if group is None and target.kind == "Fixed" and (target.fixed or 0) > max_p:
            raise AlterParallelismExceedsMax(target.fixed or 0, max_p, backfill=False)
        rejected: set[int] = set()
        with self.store.transaction():
            if group is None:
                self.conn.execute(
                    "UPDATE streaming_job SET parallelism_kind = ?, parallelism_fixed = ?,"
                    " adaptive_parallelism_strategy = ? WHERE job_id = ?",
                    (target.kind, target.fixed, target.strategy, job_id),
                )
            else:
                self.conn.execute(
                    "UPDATE streaming_job SET specific_resource_group = ? WHERE job_id = ?",
                    (group or None, job_id),
                )
            self.actors.store_policies([job_id])
        # Step 7: run the reschedule command through the barrier (not for DEFERRED).
        with self.store.transaction():
            if deferred:
                self.conn.execute(
                    "UPDATE streaming_job SET reschedule_pending = 1 WHERE job_id = ?", (job_id,)
                )
            else:
                rejected = self.apply_reschedule(db, job_id)
                if not rejected:
                    self.barrier.barrier(db)
        self.meta.commit_actions()
        if rejected:
            raise RescheduleRejectedAtBarrier(call, sorted(rejected))

    def apply_reschedule(self, database_id: int, job_id: int) -> set[int]:
        """Resolve the intent against the live layout: identical -> no-op; else the
        barrier-level check (control.rs:1238-1266); else re-render.  Returns rejected jobs."""
        graph = g.Graph.load_around(self.conn, [job_id])
        fragments = g.reschedule_fragments(graph, job_id)
        jobs = {graph.fragments[f].job_id for f in fragments}
        planned = self.actors.planned_actor_counts(jobs)
        changed = {f for f in fragments if planned.get(f) != self.actors.actor_count(f)}
        if not changed:
            self.conn.execute(
                "UPDATE streaming_job SET reschedule_pending = 0 WHERE job_id = ?", (job_id,)
            )
            return set()
        rejected = g.barrier_rejected_jobs(graph, database_id, fragments)
        if rejected:
            # The catalog already holds the new value; recovery will apply it.
            self.conn.execute(
                "UPDATE streaming_job SET reschedule_pending = 1 WHERE job_id = ?", (job_id,)
            )
            return rejected
        self.actors.render_job(job_id)
        self.conn.execute(
            "UPDATE streaming_job SET reschedule_pending = 0 WHERE job_id = ?", (job_id,)
        )
        return set()

    def alter_backfill_parallelism(
        self,
        ctx: Context,
        kind: str,
        name: ObjectName,
        value: str | None,
        *,
        deferred: bool = False,
    ) -> Result:
        """ALTER <kind> <name> SET BACKFILL_PARALLELISM ... (rw-engine-semantics §2.3: error 2,
        error 4c); DEFAULT (None) clears the override."""
        rel = self.catalog.resolve_job(ctx, kind, name, "backfill_parallelism")
        target = par.parse_alter_backfill_value(value)
        call = DDL + "AlterBackfillParallelism"
        job_id = rel.id
        if not deferred:
            graph = g.Graph.load_around(self.conn, [job_id])
            creating = graph.creating_jobs()
            if creating and job_id in g.online_unreschedulable_jobs(graph, creating):
                raise BackfillNotOnlineReschedulable(job_id)
        row = self.meta.q1(
            "SELECT max_parallelism, database_id, job_status FROM streaming_job WHERE job_id = ?",
            (job_id,),
        )
        if row is None:
            raise Uncategorized(f"table id not found: {job_id}")
        max_p, db, status = int(row[0]), int(row[1]), str(row[2])
        if target is not None and target.kind == "Fixed" and (target.fixed or 0) > max_p:
            raise AlterParallelismExceedsMax(target.fixed or 0, max_p, backfill=True)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE streaming_job SET backfill_parallelism_kind = ?,"
                " backfill_parallelism_fixed = ?, backfill_adaptive_parallelism_strategy = ?"
                " WHERE job_id = ?",
                (
                    None if target is None else target.kind,
                    None if target is None else target.fixed,
                    None if target is None else target.strategy,
                    job_id,
                ),
            )
        rejected: set[int] = set()
        with self.store.transaction():
            if not deferred and status != "CREATED":
                rejected = self.apply_reschedule(db, job_id)
                if not rejected:
                    self.barrier.barrier(db)
        self.meta.commit_actions()
        if rejected:
            raise RescheduleRejectedAtBarrier(call, sorted(rejected))
        return Result([DEFERRED_NOTICE] if deferred else [])

    def alter_resource_group(
        self,
        ctx: Context,
        kind: str,
        name: ObjectName,
        group: str | None,
        *,
        deferred: bool = False,
    ) -> Result:
        """ALTER <kind> <name> SET RESOURCE_GROUP ... (ddl_service.rs:1653-1670): the same
        reschedule path as SET PARALLELISM, call AlterResourceGroup; None resets it."""
        rel = self.catalog.resolve_job(ctx, kind, name, "resource_group")
        self.reschedule(
            rel.id, par.Target.adaptive(), deferred, DDL + "AlterResourceGroup", group=group or ""
        )
        return Result([DEFERRED_NOTICE] if deferred else [])

    def alter_fragment_parallelism(
        self,
        ctx: Context,
        fragment_ids: Sequence[int],
        value: str | None,
        *,
        is_ident: bool = False,
    ) -> Result:
        """ALTER FRAGMENT id[, ...] SET PARALLELISM (alter_parallelism.rs:107-122, :181-244)."""
        target = par.parse_fragment_value(value, is_ident=is_ident)
        if not fragment_ids:
            raise InvalidParameterValue("at least one fragment id must be provided")
        jobs: set[int] = set()
        with self.store.transaction():
            for fid in fragment_ids:
                row = self.meta.q1("SELECT job_id FROM fragment WHERE fragment_id = ?", (fid,))
                if row is None:
                    raise MetaRpcError(
                        DDL + "AlterFragmentParallelism", f"fragment {fid} not found"
                    )
                jobs.add(int(row[0]))
                self.conn.execute(
                    "UPDATE fragment SET parallelism_override_kind = ?,"
                    " parallelism_override_fixed = ? WHERE fragment_id = ?",
                    (
                        None if target is None else target.kind,
                        None if target is None else target.fixed,
                        fid,
                    ),
                )
            self.actors.store_policies(jobs)
            for jid in sorted(jobs):
                self.actors.render_job(jid)
                db = self.meta.val("SELECT database_id FROM streaming_job WHERE job_id = ?", (jid,))
                self.barrier.barrier(int(db))
        self.meta.commit_actions()
        return Result()

    def restore_after_backfill(self, job_id: int) -> None:
        """apply_post_backfill_parallelism (stream/scale.rs:1505-1577): a job created with a
        backfill parallelism goes back to its own once its backfill is done, unless a creating
        unreschedulable backfill blocks it (then recovery or the next reschedule applies it)."""
        row = self.meta.q1(
            "SELECT backfill_parallelism_kind FROM streaming_job WHERE job_id = ?", (job_id,)
        )
        if row is not None and row[0] is not None:
            graph = g.Graph.load_around(self.conn, [job_id])
            creating = graph.creating_jobs()
            if job_id not in g.blocked_jobs(graph, creating, online=True):
                self.actors.render_job(job_id)
                self.conn.execute(
                    "UPDATE streaming_job SET reschedule_pending = 0 WHERE job_id = ?", (job_id,)
                )
