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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
ALTER_PARALLELISM = DDL + "AlterParallelism"
ALTER_BACKFILL_PARALLELISM = DDL + "AlterBackfillParallelism"
ALTER_FRAGMENT_PARALLELISM = DDL + "AlterFragmentParallelism"


@dataclass(frozen=True)
class Refusal:
    """Why a reschedule is refused: the error RisingWave returns and the creating jobs whose
    backfill causes it.  ``at_barrier``: the barrier worker's rejection (error 6), which only
    a reschedule that really changes the layout meets; the others refuse any value."""

    error: MetaRpcError
    causes: tuple[int, ...]
    at_barrier: bool = False


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
        self.reschedule(rel.id, target, deferred, ALTER_PARALLELISM)
        return Result([DEFERRED_NOTICE] if deferred else [])

    # ------------------------------------------------------------------ the refusal rules
    # Each is read-only: the ALTERs call them before they write anything, and whoever wants
    # to know whether an ALTER would be refused now (the dashboard) calls the same function.
    # ``graph`` lets a caller asking about many jobs load the graph once (Graph.load gives
    # every rule the same answer as Graph.load_around).

    def parallelism_refusal(
        self,
        job_id: int,
        *,
        deferred: bool = False,
        call: str = ALTER_PARALLELISM,
        graph: g.Graph | None = None,
    ) -> Refusal | None:
        """Error 1 (stream_manager.rs:918-940): SET PARALLELISM / SET RESOURCE_GROUP of a job
        that a creating unreschedulable backfill blocks (online; DEFERRED: legacy scans only),
        whatever the value."""
        graph = graph or g.Graph.load_around(self.conn, [job_id])
        creating = graph.creating_jobs()
        if not creating or job_id not in g.blocked_jobs(graph, creating, online=not deferred):
            return None
        causes = g.blocking_jobs(graph, creating, job_id, online=not deferred)
        return Refusal(RescheduleBlocked(call, job_id), tuple(causes))

    def backfill_parallelism_refusal(
        self, job_id: int, *, deferred: bool = False, graph: g.Graph | None = None
    ) -> Refusal | None:
        """Error 2 (stream_manager.rs:960-985): SET BACKFILL_PARALLELISM (not DEFERRED) of a
        creating job whose own backfill cannot be rescheduled online."""
        if deferred:
            return None
        graph = graph or g.Graph.load_around(self.conn, [job_id])
        creating = graph.creating_jobs()
        if not creating or job_id not in g.online_unreschedulable_jobs(graph, creating):
            return None
        return Refusal(BackfillNotOnlineReschedulable(job_id), (job_id,))

    def barrier_refusal(
        self,
        database_id: int,
        fragments: Iterable[int],
        call: str,
        *,
        graph: g.Graph | None = None,
    ) -> Refusal | None:
        """Error 6 (control.rs:1238-1266): the barrier worker rejects a reschedule that changes
        the layout of ``fragments`` (a database's fragments, with their NoShuffle ensembles)
        while in-flight snapshot-backfill jobs block one of the jobs it touches."""
        fragments = set(fragments)
        if not fragments:
            return None
        if graph is None:
            owners = self.conn.execute(
                "SELECT DISTINCT job_id FROM fragment WHERE fragment_id IN"
                f" ({','.join('?' * len(fragments))})",
                sorted(fragments),
            ).fetchall()
            graph = g.Graph.load_around(self.conn, [int(r[0]) for r in owners])
        rejected = g.barrier_rejected_jobs(graph, database_id, fragments)
        if not rejected:
            return None
        causes = g.barrier_blocking_jobs(graph, database_id, fragments)
        return Refusal(RescheduleRejectedAtBarrier(call, sorted(rejected)), tuple(causes), True)

    def fragment_refusals(self, job_id: int, *, graph: g.Graph | None = None) -> dict[int, Refusal]:
        """ALTER FRAGMENT <id> SET PARALLELISM for each fragment of a job: the refusal a change
        of the fragment's layout meets at the barrier (ALTER FRAGMENT has no error-1 check,
        stream_manager.rs:1076-1105), by fragment id; empty when none would be refused."""
        graph = graph or g.Graph.load_around(self.conn, [job_id])
        db = graph.job_database.get(job_id)
        if db is None:
            return {}
        out: dict[int, Refusal] = {}
        for fid in graph.fragments_of(job_id):
            ensemble = graph.no_shuffle_closure({fid})
            refusal = self.barrier_refusal(db, ensemble, ALTER_FRAGMENT_PARALLELISM, graph=graph)
            if refusal is not None:
                out[fid] = refusal
        return out

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
        blocked = self.parallelism_refusal(job_id, deferred=deferred, call=call)
        if blocked is not None:
            raise blocked.error
        row = self.meta.q1(
            "SELECT max_parallelism, database_id FROM streaming_job WHERE job_id = ?", (job_id,)
        )
        if row is None:
            raise Uncategorized(f"table id not found: {job_id}")
        max_p, db = int(row[0]), int(row[1])
        if group is None and target.kind == "Fixed" and (target.fixed or 0) > max_p:
            raise AlterParallelismExceedsMax(target.fixed or 0, max_p, backfill=False)
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
        refusal: Refusal | None = None
        with self.store.transaction():
            if deferred:
                self.conn.execute(
                    "UPDATE streaming_job SET reschedule_pending = 1 WHERE job_id = ?", (job_id,)
                )
            else:
                refusal = self.apply_reschedule(db, [job_id], call)
                if refusal is None:
                    self.barrier.barrier(db)
        self.meta.commit_actions()
        if refusal is not None:
            raise refusal.error

    def apply_reschedule(
        self,
        database_id: int,
        job_ids: Sequence[int],
        call: str,
        fragments: Iterable[int] | None = None,
    ) -> Refusal | None:
        """Resolve the intent against the live layout: identical -> no-op; else the
        barrier-level check (``barrier_refusal``); else re-render.  ``fragments``: what the
        reschedule touches (default: the jobs' fragments and their NoShuffle ensembles)."""
        graph = g.Graph.load_around(self.conn, job_ids)
        touched: set[int] = set()
        if fragments is None:
            for jid in job_ids:
                touched |= g.reschedule_fragments(graph, jid)
        else:
            touched = graph.no_shuffle_closure(set(fragments))
        jobs = {graph.fragments[f].job_id for f in touched}
        planned = self.actors.planned_actor_counts(jobs)
        changed = {f for f in touched if planned.get(f) != self.actors.actor_count(f)}
        refusal = None
        if changed:
            refusal = self.barrier_refusal(database_id, touched, call, graph=graph)
            if refusal is None:
                for jid in job_ids:
                    self.actors.render_job(jid)
        # Refused: the catalog already holds the new value; recovery will apply it.
        self.conn.executemany(
            "UPDATE streaming_job SET reschedule_pending = ? WHERE job_id = ?",
            [(int(refusal is not None), jid) for jid in job_ids],
        )
        return refusal

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
        job_id = rel.id
        blocked = self.backfill_parallelism_refusal(job_id, deferred=deferred)
        if blocked is not None:
            raise blocked.error
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
        refusal = None
        with self.store.transaction():
            if not deferred and status != "CREATED":
                refusal = self.apply_reschedule(db, [job_id], ALTER_BACKFILL_PARALLELISM)
                if refusal is None:
                    self.barrier.barrier(db)
        self.meta.commit_actions()
        if refusal is not None:
            raise refusal.error
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
        by_database: dict[int, tuple[list[int], list[int]]] = {}
        with self.store.transaction():
            for fid in fragment_ids:
                row = self.meta.q1(
                    "SELECT f.job_id, j.database_id FROM fragment f"
                    " JOIN streaming_job j ON j.job_id = f.job_id WHERE f.fragment_id = ?",
                    (fid,),
                )
                if row is None:
                    raise MetaRpcError(ALTER_FRAGMENT_PARALLELISM, f"fragment {fid} not found")
                jobs.add(int(row[0]))
                db_jobs, db_fragments = by_database.setdefault(int(row[1]), ([], []))
                if int(row[0]) not in db_jobs:
                    db_jobs.append(int(row[0]))
                db_fragments.append(fid)
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
        # One reschedule command per database (scale.rs reschedule_fragment_inplace), each
        # through its barrier, which may reject it (error 6); the first refusal ends the loop
        # (stream_manager.rs:1096-1102), and the catalog keeps the new values.
        refusal = None
        with self.store.transaction():
            for db, (db_jobs, db_fragments) in sorted(by_database.items()):
                refusal = self.apply_reschedule(
                    db, sorted(db_jobs), ALTER_FRAGMENT_PARALLELISM, db_fragments
                )
                if refusal is not None:
                    break
                self.barrier.barrier(db)
        self.meta.commit_actions()
        if refusal is not None:
            raise refusal.error
        return Result()

    def restore_after_backfill(self, job_id: int) -> None:
        """apply_post_backfill_parallelism (stream/scale.rs:1505-1577): a job created with a
        backfill parallelism goes back to its own once its backfill is done, unless a creating
        unreschedulable backfill blocks it (then recovery or the next reschedule applies it)."""
        row = self.meta.q1(
            "SELECT backfill_parallelism_kind FROM streaming_job WHERE job_id = ?", (job_id,)
        )
        if row is None or row[0] is None:
            return
        if self.parallelism_refusal(job_id) is None:
            self.actors.render_job(job_id)
            self.conn.execute(
                "UPDATE streaming_job SET reschedule_pending = 0 WHERE job_id = ?", (job_id,)
            )
