"""Scale: rescheduling a streaming job or fragment (ALTER ... SET PARALLELISM,
SET BACKFILL_PARALLELISM, SET RESOURCE_GROUP, ALTER FRAGMENT ... SET PARALLELISM), with the
rules that refuse one: the jobs a creating unreschedulable backfill blocks (error 1, error 2),
the max-parallelism checks (error 4b, 4c), the barrier-level rejection (error 6); DEFERRED,
which only records the intent; the post-backfill restore of a job created with a backfill
parallelism; and the automatic parallelism control that retries what failed.

Every reschedule that reaches the barrier goes the same way (``run_reschedule``): the new
value is committed first, then the command's intent is resolved against the live layout (an
identical layout is a no-op), refused at the barrier when it touches a job that in-flight
snapshot backfills block (error 6, after the commit: the catalog keeps the value), else the
actors are re-rendered.

RisingWave: ``src/meta/src/stream/stream_manager.rs:918-1102`` (reschedule_streaming_job,
its backfill variant, reschedule_fragments), ``src/meta/src/stream/scale.rs``
(reschedule_inplace :224-278, reschedule_backfill_parallelism_inplace :280-334,
reschedule_fragment_inplace :336-441, trigger_parallelism_control :1278-1363, the monitor
loop :1365-1503, apply_post_backfill_parallelism :1505-1577), ``src/meta/src/manager/
metadata.rs:704-790`` and ``barrier/checkpoint/control.rs:866-966, :1238-1266`` (the
blocked-set collectors), ``barrier/worker.rs:237-281`` (an identical layout is a no-op),
``src/meta/src/rpc/ddl_controller.rs:594-662``, ``src/frontend/src/handler/
alter_parallelism.rs``.  The graph rules themselves are ``engine/graph.py``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

from msgspec import Struct

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
    MetaCatalogNotFound,
    MetaInvalidParameter,
    MetaRpcError,
    NonReschedulableBackgroundJob,
    RescheduleBlocked,
    RescheduleRejectedAtBarrier,
    RescheduleRejectedWhileSnapshotBackfill,
    RwError,
)

DEFERRED_NOTICE = (
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the "
    "meta, otherwise, the alter will not take effect."
)

ALTER_PARALLELISM = DDL + "AlterParallelism"
ALTER_BACKFILL_PARALLELISM = DDL + "AlterBackfillParallelism"
ALTER_FRAGMENT_PARALLELISM = DDL + "AlterFragmentParallelism"


class Refusal(Struct, frozen=True):
    """Why a reschedule is refused: the error RisingWave returns and the creating jobs whose
    backfill causes it.  ``at_barrier``: the barrier worker's rejection (error 6), which only
    a reschedule that really changes the layout meets; the others refuse any value."""

    error: MetaRpcError
    causes: tuple[int, ...]
    at_barrier: bool = False


# The automatic parallelism control's ticker (config/meta.rs:870-876; env.rs:330): a run
# every 10 s while it is armed, on batches of 10 jobs.  Its first delay (30 s after the meta
# node starts) is not modelled: a restore right after a start happens at once.
CONTROL_PERIOD_MS = 10_000
CONTROL_BATCH_SIZE = 10


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
        # The monitor loop's state (scale.rs:1365-1503): whether the control is armed, and
        # when its ticker next fires (None: a tick is due).  Lost with the meta node.
        self.control_armed = False
        self._next_control_ms: int | None = None
        # RisingWave's scale monitor follows LocalNotification::StreamingJobBackfillFinished,
        # and runs its control on its own ticker (here: as time moves, at periodic barriers).
        backfill.on_finished.append(self._backfill_finished)
        barrier.on_periodic.append(self.poll_parallelism_control)

    def _graph(self, jobs: Iterable[int] | None) -> g.Graph:
        """``Graph.load_around(jobs)`` (``load`` for None), with the release's scan-type
        rule."""
        graph = g.Graph.load(self.conn) if jobs is None else g.Graph.load_around(self.conn, jobs)
        graph.upstream_only_reschedulable = self.meta.release.upstream_only_reschedulable
        return graph

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
        whatever the value.  The release decides which creating jobs count (all, or the
        background ones: v3.0.3:stream_manager.rs:800-803) and whether their neighbours are
        blocked too (v2.8.5:stream_manager.rs:806-821: only the creating job itself, with its
        own text)."""
        release = self.meta.release
        graph = graph or self._graph([job_id])
        creating = graph.creating_jobs(background_only=not release.reschedule_sees_foreground)
        if not creating:
            return None
        if not release.reschedule_blocks_neighbours:
            # collect_unreschedulable_backfill_jobs (v2.8.5:metadata.rs:714-735)
            if job_id in creating and graph.unreschedulable_fragments(job_id, not deferred):
                return Refusal(NonReschedulableBackgroundJob(call, job_id), (job_id,))
            return None
        if job_id not in g.blocked_jobs(graph, creating, online=not deferred):
            return None
        causes = g.blocking_jobs(graph, creating, job_id, online=not deferred)
        return Refusal(RescheduleBlocked(call, job_id), tuple(causes))

    def backfill_parallelism_refusal(
        self, job_id: int, *, deferred: bool = False, graph: g.Graph | None = None
    ) -> Refusal | None:
        """Error 2 (stream_manager.rs:960-985): SET BACKFILL_PARALLELISM (not DEFERRED) of a
        creating job whose own backfill cannot be rescheduled online.  v3.0.3
        (stream_manager.rs:837-870): a creating *background* job whose backfill cannot be
        rescheduled online, or offline with DEFERRED, gets the non-reschedulable text."""
        if self.meta.release.backfill_parallelism == "background":
            graph = graph or self._graph([job_id])
            creating = graph.creating_jobs(background_only=True)
            if job_id in creating and graph.unreschedulable_fragments(job_id, not deferred):
                return Refusal(
                    NonReschedulableBackgroundJob(ALTER_BACKFILL_PARALLELISM, job_id), (job_id,)
                )
            return None
        if deferred:
            return None
        graph = graph or self._graph([job_id])
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
            graph = self._graph([int(r[0]) for r in owners])
        if self.meta.release.barrier_refuses_any_reschedule:
            inflight = g.independent_inflight(graph, database_id)
            if not inflight:
                return None
            return Refusal(RescheduleRejectedWhileSnapshotBackfill(call), tuple(inflight), True)
        rejected = g.barrier_rejected_jobs(graph, database_id, fragments)
        if not rejected:
            return None
        causes = g.barrier_blocking_jobs(graph, database_id, fragments)
        return Refusal(RescheduleRejectedAtBarrier(call, sorted(rejected)), tuple(causes), True)

    def fragment_refusals(self, job_id: int, *, graph: g.Graph | None = None) -> dict[int, Refusal]:
        """ALTER FRAGMENT <id> SET PARALLELISM for each fragment of a job: the refusal a change
        of the fragment's layout meets at the barrier (ALTER FRAGMENT has no error-1 check,
        stream_manager.rs:1076-1105), by fragment id; empty when none would be refused."""
        graph = graph or self._graph([job_id])
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

    # ------------------------------------------------------------------ ALTER ... SET PARALLELISM

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

    def reschedule(
        self,
        job_id: int,
        target: par.Target,
        deferred: bool,
        call: str,
        *,
        group: str | None = None,
    ) -> None:
        """reschedule_streaming_job (stream_manager.rs:918-958): error 1, then
        reschedule_inplace (scale.rs:224-278: the job must exist, error 4b, the new value
        committed), then (not for DEFERRED) the reschedule command through the barrier."""
        # One read of the graph for the refusal, the policies and the reschedule: what they
        # write in between (the job's parallelism, fragment policies) is not part of it.
        graph = self._graph([job_id])
        blocked = self.parallelism_refusal(job_id, deferred=deferred, call=call, graph=graph)
        if blocked is not None:
            raise blocked.error
        row = self.meta.q1(
            "SELECT max_parallelism, database_id FROM streaming_job WHERE job_id = ?", (job_id,)
        )
        if row is None:
            raise MetaCatalogNotFound(call, "table", job_id)
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
            self.actors.store_policies([job_id], graph)
            if deferred:
                # The commands are dropped (stream_manager.rs:947); recovery applies them.
                self.conn.execute(
                    "UPDATE streaming_job SET reschedule_pending = 1 WHERE job_id = ?", (job_id,)
                )
        if not deferred:
            self.run_reschedule(db, [job_id], call, graph=graph)

    def run_reschedule(
        self,
        database_id: int,
        job_ids: Sequence[int],
        call: str,
        fragments: Iterable[int] | None = None,
        *,
        graph: g.Graph | None = None,
    ) -> None:
        """A RescheduleIntent command through the database's barrier, the one path of every
        reschedule (ALTER, ALTER FRAGMENT, the post-backfill restore, the parallelism
        control): resolved against the live layout, refused at the barrier (error 6, raised
        after the commit: the catalog keeps the new value), or applied with a barrier.
        ``graph``: ``Graph.load_around(job_ids)`` as it is now, when the caller has it."""
        with self.store.transaction():
            refusal = self.apply_reschedule(database_id, job_ids, call, fragments, graph=graph)
            if refusal is None:
                self.barrier.barrier(database_id)
        self.meta.commit_actions()
        if refusal is not None:
            raise refusal.error

    def apply_reschedule(
        self,
        database_id: int,
        job_ids: Sequence[int],
        call: str,
        fragments: Iterable[int] | None = None,
        *,
        graph: g.Graph | None = None,
    ) -> Refusal | None:
        """Resolve an intent against the live layout (inside a transaction): identical ->
        no-op (worker.rs:237-241, :279-281); else the barrier-level check
        (``barrier_refusal``; every fragment of the intent is rebuilt, so all of them count);
        else re-render.  ``fragments``: what the reschedule touches (default: the jobs'
        fragments and their NoShuffle ensembles, build_reschedule_intent_for_jobs,
        scale.rs:456-505).  A refused intent stays pending: recovery applies it."""
        if graph is None:
            graph = self._graph(job_ids)
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
                self.actors.render_jobs(jobs)
        self.conn.executemany(
            "UPDATE streaming_job SET reschedule_pending = ? WHERE job_id = ?",
            [(int(refusal is not None), jid) for jid in sorted(jobs | set(job_ids))],
        )
        return refusal

    def _jobs_of(self, fragments: Sequence[int] | set[int]) -> dict[int, int]:
        """fragment -> owning job, for the fragments that exist."""
        out: dict[int, int] = {}
        for fid in fragments:
            jid = self.meta.val("SELECT job_id FROM fragment WHERE fragment_id = ?", (fid,))
            if jid is not None:
                out[fid] = int(jid)
        return out

    # ------------------------------------------------------------------ BACKFILL_PARALLELISM

    def alter_backfill_parallelism(
        self,
        ctx: Context,
        kind: str,
        name: ObjectName,
        value: str | None,
        *,
        deferred: bool = False,
    ) -> Result:
        """ALTER <kind> <name> SET BACKFILL_PARALLELISM ... (reschedule_streaming_job_
        backfill_parallelism, stream_manager.rs:960-1002: error 2, then
        reschedule_backfill_parallelism_inplace, scale.rs:280-334: error 4c, the override
        stored or cleared); DEFAULT (None) clears the override."""
        rel = self.catalog.resolve_job(ctx, kind, name, "backfill_parallelism")
        target = par.parse_alter_backfill_value(value)
        call = ALTER_BACKFILL_PARALLELISM
        job_id = rel.id
        blocked = self.backfill_parallelism_refusal(job_id, deferred=deferred)
        if blocked is not None:
            raise blocked.error
        row = self.meta.q1(
            "SELECT max_parallelism, database_id FROM streaming_job WHERE job_id = ?", (job_id,)
        )
        if row is None:
            raise MetaCatalogNotFound(call, "table", job_id)
        max_p, db = int(row[0]), int(row[1])
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
        if not deferred:
            # A Created job's layout does not follow the override: the intent is a no-op.
            self.run_reschedule(db, [job_id], call)
        return Result([DEFERRED_NOTICE] if deferred else [])

    # ------------------------------------------------------------------ RESOURCE_GROUP

    def alter_resource_group(
        self,
        ctx: Context,
        kind: str,
        name: ObjectName,
        group: str | None,
        *,
        deferred: bool = False,
    ) -> Result:
        """ALTER <kind> <name> SET RESOURCE_GROUP ... (alter_resource_group.rs:23-55,
        ddl_service.rs:1653-1670): the same reschedule path as SET PARALLELISM, call
        AlterResourceGroup; None resets it.  SET and RESET need the ResourceGroup feature,
        checked first (alter_resource_group.rs:32)."""
        self.meta.check_feature("ResourceGroup")
        rel = self.catalog.resolve_job(ctx, kind, name, "resource group")
        self.reschedule(
            rel.id, par.Target.adaptive(), deferred, DDL + "AlterResourceGroup", group=group or ""
        )
        return Result([DEFERRED_NOTICE] if deferred else [])

    # ------------------------------------------------------------------ ALTER FRAGMENT

    def alter_fragment_parallelism(
        self,
        ctx: Context,
        fragment_ids: Sequence[int],
        value: str | None,
        *,
        is_ident: bool = False,
    ) -> Result:
        """ALTER FRAGMENT id[, ...] SET PARALLELISM (alter_parallelism.rs:107-122, :181-244;
        meta: ddl_service.rs:1277-1316, reschedule_fragments, stream_manager.rs:1076-1102, and
        reschedule_fragment_inplace, scale.rs:336-441).  No error 1, no max check, no DEFERRED
        on this path; its command still meets the barrier-level check (error 6)."""
        target = par.parse_fragment_value(value, is_ident=is_ident)
        call = ALTER_FRAGMENT_PARALLELISM
        if not fragment_ids:
            raise InvalidParameterValue("at least one fragment id must be provided")
        ids = list(dict.fromkeys(fragment_ids))
        owners = self._jobs_of(ids)
        for fid in ids:
            if fid not in owners:
                raise MetaCatalogNotFound(call, "fragment", fid)
        graph = self._graph({owners[f] for f in ids})
        desired = (None, None) if target is None else (target.kind, target.fixed)
        components: list[set[int]] = []
        entries_to_set: list[int] = []
        seen: set[int] = set()
        for fid in ids:
            if fid in seen:
                continue
            component = graph.no_shuffle_closure({fid})
            seen |= component
            entries = g.ensemble_entries(graph, component)
            if not set(entries) & set(ids):
                raise MetaInvalidParameter(
                    f"none of the entry fragments [{', '.join(map(str, entries))}] were "
                    "included in the reschedule request; provide at least one entry fragment id"
                )
            current = self.meta.q1(
                "SELECT parallelism_override_kind, parallelism_override_fixed FROM fragment"
                " WHERE fragment_id = ?",
                (entries[0],),
            )
            if current == desired:
                continue
            entries_to_set += entries
            components.append(component)
        if not components:
            return Result()
        fragments = set().union(*components)
        jobs = {graph.fragments[f].job_id for f in fragments}
        with self.store.transaction():
            self.conn.executemany(
                "UPDATE fragment SET parallelism_override_kind = ?, parallelism_override_fixed = ?"
                " WHERE fragment_id = ?",
                [(desired[0], desired[1], f) for f in entries_to_set],
            )
            self.actors.store_policies(jobs)
        # One command per database (build_reschedule_intent_for_fragments, scale.rs:507-559);
        # the first refusal ends the loop (stream_manager.rs:1096-1102).
        by_db: dict[int, set[int]] = {}
        for f in fragments:
            by_db.setdefault(graph.job_database[graph.fragments[f].job_id], set()).add(f)
        for db in sorted(by_db):
            db_jobs = sorted({graph.fragments[f].job_id for f in by_db[db]})
            self.run_reschedule(db, db_jobs, call, by_db[db])
        return Result()

    # ------------------------------------------------------------------ after a backfill

    def _backfill_finished(self, job_id: int) -> None:
        """StreamingJobBackfillFinished reaches the monitor after the finishing barrier
        committed (context_impl.rs:283-292): the restore runs as its own command."""
        self.meta.after_commit(lambda: self.restore_after_backfill(job_id))

    def restore_after_backfill(self, job_id: int) -> None:
        """apply_post_backfill_parallelism (stream/scale.rs:1505-1577): a job created with a
        backfill parallelism other than its own goes back to its own through the full
        reschedule (error 1, then the command and its barrier-level check).  When that fails
        the job keeps its backfill actors while the catalog shows its own parallelism, and
        the monitor arms the parallelism control (scale.rs:1469-1478), which retries."""
        row = self.meta.q1(
            "SELECT parallelism_kind, parallelism_fixed, adaptive_parallelism_strategy,"
            " backfill_parallelism_kind, backfill_parallelism_fixed,"
            " backfill_adaptive_parallelism_strategy FROM streaming_job WHERE job_id = ?",
            (job_id,),
        )
        if row is None or row[3] is None or tuple(row[:3]) == tuple(row[3:]):
            return  # gone, no override, or the override is the target: nothing to restore
        target = par.Target(str(row[0]), row[1], row[2])
        try:
            self.reschedule(job_id, target, False, ALTER_PARALLELISM)
        except RwError:
            self.control_armed = True
            self.poll_parallelism_control()

    # ------------------------------------------------------------------ parallelism control

    def poll_parallelism_control(self) -> None:
        """The monitor loop's ticker (scale.rs:1387-1430): when armed and a tick is due, run
        the control; its answer decides whether it stays armed, an error re-arms the ticker
        one period from now (``ticker.reset()``)."""
        if not self.control_armed:
            return
        now = self.meta.clock.now_ms()
        if self._next_control_ms is not None and now < self._next_control_ms:
            return
        self._next_control_ms = now + CONTROL_PERIOD_MS
        # A failure leaves it armed: retried at the next tick.
        with contextlib.suppress(RwError):
            self.control_armed = self.trigger_parallelism_control()

    def trigger_parallelism_control(self) -> bool:
        """trigger_parallelism_control (scale.rs:1278-1363): every streaming job not in
        error 1's set is re-rendered from the catalog, in batches of 10 jobs, one command per
        database and batch (so DEFERRED values and failed restores apply here).  Raises when a
        command fails at the barrier; returns whether jobs were blocked (keep trying)."""
        graph = self._graph(None)
        creating = graph.creating_jobs()
        blocked = g.blocked_jobs(graph, creating, online=True) if creating else set()
        per_db: dict[int, list[int]] = {}
        for jid in sorted(graph.job_database):
            per_db.setdefault(graph.job_database[jid], []).append(jid)
        ordered = sorted(
            ((i, db, jid) for db, jids in per_db.items() for i, jid in enumerate(jids)),
        )
        job_ids = [(db, jid) for _, db, jid in ordered if jid not in blocked]
        for start in range(0, len(job_ids), CONTROL_BATCH_SIZE):
            batch = job_ids[start : start + CONTROL_BATCH_SIZE]
            refused: MetaRpcError | None = None
            for db in sorted({db for db, _ in batch}):
                try:
                    self.run_reschedule(db, [j for d, j in batch if d == db], ALTER_PARALLELISM)
                except MetaRpcError as e:
                    refused = refused or e  # the other databases' commands still ran
            if refused is not None:
                raise refused
        return bool(blocked)
