"""Streaming jobs: the create pipeline shared by every streaming DDL (backfill type,
background or foreground, parallelism and its checks, the INITIAL catalog row, the creation
permit, fragments, admission and the first barrier that makes the job Creating; the abort of
a create that fails), and the statements that end or await creating jobs (CANCEL JOBS, WAIT).
The CREATE statements themselves are ``engine/ddl.py``; a job's finish is ``Backfill.finish``.

RisingWave: ``src/meta/src/rpc/ddl_controller.rs`` (create_streaming_job :1102-1260, the
permit, validate_specified_parallelism :363-388), ``src/meta/src/stream/stream_manager.rs``
(create_streaming_job :376-520, cancel_streaming_jobs :852), ``src/meta/src/controller/
streaming_job.rs`` (create_job_catalog :342, try_abort_creating_streaming_job :897), the
frontend's choice of backfill type and create type (``src/frontend/src/optimizer/mod.rs:
633-639, :1264-1349``, ``optimizer/plan_node/stream_materialize.rs:135-142``,
``utils.rs:471-499``), ``src/frontend/src/handler/cancel_job.rs``, ``wait.rs``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from msgspec import Struct, field

from rwshim.common import pgtypes
from rwshim.common.outcome import Column
from rwshim.engine import options as opts
from rwshim.engine import parallelism as par
from rwshim.engine.actors import Actors
from rwshim.engine.backfill import Backfill
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog, Rel
from rwshim.engine.fragments import Fragments
from rwshim.engine.kinds import CREATE_CALL, DROP_HINT
from rwshim.engine.recovery import Recovery
from rwshim.engine.state import Meta, SimulatedCrash
from rwshim.engine.types import Context, JobSpec, ObjectName, Result, Waiter
from rwshim.engine.waits import Waits
from rwshim.errors import (
    BatchRefreshWhenPaused,
    CatalogNotFound,
    CreateCancelled,
    CreateParallelismExceedsMax,
    InvalidInputSyntax,
    InvalidParameterValue,
    MetaCatalogDuplicated,
    MetaInvalidParameter,
    MetaPermissionDenied,
    NotSupported,
    RwError,
    SessionConfigError,
)
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON


class _Pending(Struct):
    """A create between its INITIAL catalog row and its first barrier (maybe waiting for the
    creation permit)."""

    job_id: int
    spec: JobSpec
    ctx: Context
    inputs: list[Rel]
    scan_type: str
    batch_refresh: bool
    call: str
    background: bool
    target: par.Target
    backfill: par.Target | None
    max_parallelism: int
    # Starts the create once it holds a permit (see waits.Queued).
    resume_with: Callable[[_Pending], None]
    waiter: Waiter = field(default_factory=Waiter)

    def resume(self) -> None:
        self.resume_with(self)


class Jobs:
    """The lifecycle of streaming jobs."""

    def __init__(
        self,
        meta: Meta,
        catalog: Catalog,
        waits: Waits,
        fragments: Fragments,
        actors: Actors,
        backfill: Backfill,
        barrier: Barrier,
        recovery: Recovery,
    ) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog
        self.waits = waits
        self.fragments = fragments
        self.actors = actors
        self.backfill = backfill
        self.barrier = barrier
        self.recovery = recovery
        # validate_cross_db_snapshot_backfill (engine.subscriptions), set by the engine
        self.cross_db_check: Callable[[list[int]], None] | None = None

    # ------------------------------------------------------------------ the create pipeline

    def _check_serverless_backfill(self, ctx: Context, spec: JobSpec) -> None:
        """resolve_streaming_job_resource_type (create_mv.rs:218-254): a job backfills
        serverless when ``cloud.serverless_backfill_enabled`` says so (Rust's bool parse, any
        other text false), else, without a resource group, when the session's
        ``enable_serverless_backfill`` is on; both with a resource group is refused.  Meta then
        refuses serverless backfill without a serverless backfill controller, which rwshim,
        as a RisingWave outside its cloud, has none of (ddl_controller.rs:389-404, :1130); the
        releases refuse it in the frontend (Release.serverless_refused_by_meta)."""
        group = spec.options.get("resource_group")
        given = spec.options.get("cloud.serverless_backfill_enabled")
        if given is not None:
            serverless = given == "true"
        else:
            # a Context made without session variables (the engine's own callers) has none
            on = bool(ctx.var("enable_serverless_backfill"))
            serverless = on and group is None and opts.bool_var(ctx, "enable_serverless_backfill")
        if group is not None and serverless:
            raise InvalidInputSyntax(
                "Please do not specify serverless backfilling and resource group together"
            )
        if serverless:
            text = (
                "Serverless Backfill is disabled. Use RisingWave cloud at "
                "https://cloud.risingwave.com/auth/signup to try this feature"
            )
            if self.meta.release.serverless_refused_by_meta:
                raise MetaInvalidParameter(text)
            raise InvalidInputSyntax(text)

    def create(self, ctx: Context, spec: JobSpec) -> Result:
        """Create the streaming job ``spec`` describes: decide its backfill type, create type
        and parallelism, write its INITIAL catalog row, then start it now or once it holds a
        creation permit.  The result's waiter completes when a foreground create is done."""
        notices: list[str] = []
        if spec.kind in ("materialized view", "index", "sink") and (
            spec.options.get("resource_group") is not None
        ):
            # resolve_streaming_job_resource_type (create_mv.rs:218-229), which CREATE
            # MATERIALIZED VIEW / INDEX / SINK call (create_mv.rs:362, create_index.rs:658,
            # create_sink.rs:722)
            self.meta.check_feature("ResourceGroup")
        if spec.kind in ("materialized view", "index", "sink"):
            self._check_serverless_backfill(ctx, spec)
        call = CREATE_CALL[spec.kind]
        inputs = self.catalog.streaming_inputs(spec.upstream_ids)
        for up in inputs:
            if up.job_type == "BatchRefresh":
                # streaming_job.rs:449-462 (PermissionDenied from meta)
                raise MetaPermissionDenied(
                    "creating streaming jobs on batch refresh materialized views is not supported"
                )
        shared_sources = [r for r in inputs if r.kind == "source" and r.is_shared]
        table_inputs = [r for r in inputs if r.kind in ("table", "materialized view", "index")]
        snapshot_on = opts.bool_var(ctx, "streaming_use_snapshot_backfill")

        # Backfill type (optimizer/mod.rs:633-639, :1264-1305, :1329-1349).
        forbid: str | None = None
        if spec.has_temporal_join:
            forbid = "snapshot backfill disabled due to temporal join"
        elif shared_sources:
            forbid = (
                "snapshot backfill disabled due to using shared source "
                f"Some({json.dumps(shared_sources[0].name)})"
            )
        refresh = spec.options.get("refresh.interval.sec")
        refresh_sec: int | None = None
        if refresh is not None:
            try:
                refresh_sec = int(refresh)
                if refresh_sec < 0:
                    raise ValueError
            except ValueError:
                raise InvalidParameterValue(
                    f"`refresh.interval.sec` must be a positive integer, but got: {refresh} "
                    "(error: invalid digit found in string)"
                ) from None
            if refresh_sec == 0:
                raise InvalidParameterValue(
                    "`refresh.interval.sec` must be larger than 0, but got: 0"
                )
            if not snapshot_on:
                raise NotSupported(
                    "Batch refresh materialized view requires snapshot backfill",
                    "Please enable snapshot backfill or remove `refresh.interval.sec` from the "
                    "WITH clause.",
                )
            if forbid is not None:
                raise NotSupported(
                    f"Batch refresh materialized view requires snapshot backfill, but {forbid}",
                    "Please rewrite the query to avoid operators that forbid snapshot backfill.",
                )
        if spec.kind == "materialized view":
            use_snapshot = snapshot_on and forbid is None
            if snapshot_on and forbid is not None:
                notices.append(forbid)
            scan_type = "SnapshotBackfill" if use_snapshot else "ArrangementBackfill"
        elif spec.kind == "sink":
            snap_opt = spec.options.get("snapshot", "true").lower()
            if snap_opt == "false":
                scan_type = "UpstreamOnly"
            elif spec.extra.get("target_table_id") is None and snapshot_on and forbid is None:
                scan_type = "SnapshotBackfill"
            else:
                scan_type = "ArrangementBackfill"
        else:
            scan_type = "ArrangementBackfill"
        if (
            scan_type == "ArrangementBackfill"
            and spec.kind != "table"
            and spec.extra.get("target_table_id") is None
            and self.meta.release.legacy_backfill_honoured
            and not opts.bool_var(ctx, "streaming_use_arrangement_backfill")
        ):
            # The releases honour the variable: the legacy no-shuffle Backfill scan
            # (should_use_arrangement_backfill, v3.0.3 optimizer/mod.rs:1194-1203); 448c657
            # ignores it (session_config/mod.rs:243-249).
            scan_type = "Backfill"

        # Create type: background only for a plan whose leaves all recover (utils.rs:471-499).
        background = opts.background_create(ctx, spec.kind, spec.has_values)

        # Parallelism (stream_fragmenter/parallelism.rs, mod.rs:205-240).
        var_kind = {
            "materialized view": "materialized_view",
            "table": "table",
            "source": "source",
            "sink": "sink",
            "index": "index",
        }[spec.kind]
        specific = opts.parallelism_var(ctx, f"streaming_parallelism_for_{var_kind}")
        global_ = opts.parallelism_var(ctx, "streaming_parallelism")
        if self.meta.release.bounded_default_parallelism:
            target = par.resolve_creation(spec.kind, specific, global_)
        else:
            target = par.resolve_creation_adaptive(specific, global_, self._strategy(ctx, var_kind))
        # has_any_backfill (stream_fragmenter/mod.rs:465-520): every scan but UpstreamOnly.
        has_backfill = bool(shared_sources) or any(
            not (spec.kind == "sink" and scan_type == "UpstreamOnly") for _ in table_inputs
        )
        backfill: par.Target | None = None
        if has_backfill:
            backfill = opts.parallelism_var(ctx, "streaming_parallelism_for_backfill")
        try:
            max_parallelism = int(ctx.var("streaming_max_parallelism"))
        except ValueError:
            raise SessionConfigError(
                f"Invalid value `{ctx.var('streaming_max_parallelism')}` for "
                "`streaming_max_parallelism`",
                "invalid digit found in string",
            ) from None
        resource_group = spec.options.get("resource_group")

        # Meta's duplicate check also sees INITIAL jobs (controller/utils.rs:717-783).
        hidden = self.meta.q1(
            "SELECT r.relation_id, r.kind, j.create_type FROM relation r JOIN streaming_job j"
            " ON j.job_id = r.relation_id WHERE r.schema_id = ? AND r.name = ?"
            " AND j.job_status = 'INITIAL'",
            (spec.schema_id, spec.name),
        )
        if hidden is not None:
            if spec.if_not_exists:
                if not background:
                    w = Waiter()
                    self.waits.register(int(hidden[0]), w, call)
                    return Result(notices, wait=w)
                return Result(notices)
            word = {"materialized view": "table"}.get(str(hidden[1]), str(hidden[1]))
            raise MetaCatalogDuplicated(call, word, spec.name)

        # Meta: catalog row INITIAL (create_job_catalog), one committed transaction.
        with self.store.transaction():
            job_id = self.store.next_id("object")
            extra = spec.extra
            if spec.kind == "table" and spec.extra.get("connector") is not None:
                # A table with a connector has an associated source, its own catalog object
                # made right after the table's (create_job_catalog, controller/
                # streaming_job.rs:557-571), listed by rw_sources, pg_class and SHOW SOURCES
                # (rw_catalog.py, show.py make its rows from the table's).
                extra = {**extra, "primary_table_id": self.store.next_id("object")}
            self.catalog.insert_relation(
                job_id,
                spec.kind,
                spec.name,
                spec.schema_id,
                ctx,
                spec.definition,
                spec.columns,
                spec.primary_key,
                created=False,
                extra=extra,
            )
            self.catalog.insert_dependencies(job_id, [*spec.upstream_ids, *spec.depends_on])
            self.conn.execute(
                "INSERT INTO streaming_job(job_id, database_id, job_status, create_type,"
                " job_type, backfill_type, parallelism_kind, parallelism_fixed,"
                " adaptive_parallelism_strategy, backfill_parallelism_kind,"
                " backfill_parallelism_fixed, backfill_adaptive_parallelism_strategy,"
                " max_parallelism, specific_resource_group, refresh_interval_sec, timezone,"
                " config_override)"
                " VALUES (?, ?, 'INITIAL', ?, 'Normal', 'NORMAL_BACKFILL', ?, ?, ?, ?, ?, ?, ?,"
                " ?, ?, ?, ?)",
                (
                    job_id,
                    ctx.database_id,
                    "BACKGROUND" if background else "FOREGROUND",
                    target.kind,
                    target.fixed,
                    target.strategy,
                    None if backfill is None else backfill.kind,
                    None if backfill is None else backfill.fixed,
                    None if backfill is None else backfill.strategy,
                    max_parallelism,
                    resource_group,
                    refresh_sec,
                    ctx.var("timezone"),
                    opts.initial_config_override(ctx),
                ),
            )
        if self.meta.faults.crash_after_catalog_write:
            raise SimulatedCrash(f"meta crashed after writing job {job_id}")
        pending = _Pending(
            job_id,
            spec,
            ctx,
            inputs,
            scan_type,
            refresh_sec is not None,
            call,
            background,
            target,
            backfill,
            max_parallelism,
            self._resume_queued,
        )
        if not self.waits.permit_available():
            # The creation permit (ddl_controller.rs:1200-1208) is held by foreground creates
            # until they finish: this create waits, its job INITIAL (SHOW JOBS lists it).
            self.waits.enqueue(pending)
            return Result(notices, wait=pending.waiter, job_id=job_id)
        self._start(pending)
        return Result(notices, wait=None if pending.waiter.done else pending.waiter, job_id=job_id)

    def _strategy(self, ctx: Context, var_kind: str) -> str | None:
        """v2.8.5's adaptive strategy of a new job: streaming_parallelism_strategy_for_<type>,
        else streaming_parallelism_strategy, else the system parameter
        (derive_parallelism_strategy, v2.8.5 stream_fragmenter/parallelism.rs:45-60)."""
        for name in (
            f"streaming_parallelism_strategy_for_{var_kind}",
            "streaming_parallelism_strategy",
        ):
            value = ctx.var(name)
            if value and value.lower() != "default":
                return value.upper()
        return self.meta.system_param("adaptive_parallelism_strategy")

    @staticmethod
    def _check_initial_parallelism(p: _Pending) -> None:
        """v2.8.5 (rpc/ddl_controller.rs:1801-1802, :1648-1653): the initial parallelism, the
        fixed backfill one or else the job's, against the maximum, with the plain text."""
        initial = p.backfill if p.backfill is not None and p.backfill.kind == "Fixed" else p.target
        if initial.kind == "Fixed" and (initial.fixed or 0) > p.max_parallelism:
            raise CreateParallelismExceedsMax(initial.fixed or 0, p.max_parallelism, backfill=False)

    def _start(self, p: _Pending) -> None:
        """The part of a create that runs with the permit: validation, fragments, the barrier.
        Raises the RwError after aborting the INITIAL job."""
        job_id, spec, ctx, call = p.job_id, p.spec, p.ctx, p.call
        try:
            with self.store.transaction():
                # validate_specified_parallelism (ddl_controller.rs:363-388)
                if not self.meta.release.create_checks_backfill_separately:
                    self._check_initial_parallelism(p)
                elif p.target.kind == "Fixed" and (p.target.fixed or 0) > p.max_parallelism:
                    raise CreateParallelismExceedsMax(
                        p.target.fixed or 0, p.max_parallelism, backfill=False
                    )
                if (
                    p.backfill is not None
                    and p.backfill.kind == "Fixed"
                    and (p.backfill.fixed or 0) > p.max_parallelism
                ):
                    raise CreateParallelismExceedsMax(
                        p.backfill.fixed or 0, p.max_parallelism, backfill=True
                    )
                job_type = self.fragments.build(
                    job_id, spec, ctx, p.inputs, p.scan_type, p.batch_refresh
                )
                if self.cross_db_check is not None:
                    self.cross_db_check(
                        [
                            int(r[0])
                            for r in self.conn.execute(
                                "SELECT scan_relation_id FROM fragment WHERE job_id = ?"
                                " AND scan_type = 'CrossDbSnapshotBackfill'",
                                (job_id,),
                            )
                        ]
                    )
                self._admit_and_start(ctx.database_id, job_id, job_type, call)
        except BatchRefreshWhenPaused:
            # The failed apply also fails the barrier injection (control.rs:1311-1330): the
            # database goes through its own recovery, which comes back unpaused
            # (checkpoint/recovery.rs:419).
            self.abort(job_id)
            self.recovery.database_recovery(ctx.database_id)
            raise
        except RwError:
            self.abort(job_id)
            raise
        self.meta.commit_actions()
        status = self.meta.val("SELECT job_status FROM streaming_job WHERE job_id = ?", (job_id,))
        if status is None:
            p.waiter.complete(CreateCancelled(call))
        elif status == "CREATED" or p.background:
            p.waiter.complete()
        else:
            self.waits.hold_permit(job_id, p.waiter, call)

    def _resume_queued(self, p: _Pending) -> None:
        """A queued create got its permit: it starts, unless its job went meanwhile."""
        if self.catalog.job_status(p.job_id) != "INITIAL":
            p.waiter.complete(CreateCancelled(p.call))
            return
        try:
            self._start(p)
        except RwError as e:
            p.waiter.complete(e)

    def _admit_and_start(self, database_id: int, job_id: int, job_type: str, call: str) -> None:
        """The create command reaching the barrier worker (control.rs:1191-1330): admission,
        apply (state.rs:650-660), then the first barrier, which makes the job CREATING and
        inserts the upstream edges (post_collect_job_fragments, streaming_job.rs:1204-1230)."""
        self.barrier.admit(database_id, job_type, call)
        self.backfill.start(self.fragments.connect_upstreams(job_id))
        self.barrier.barrier(database_id)
        epoch = self.barrier.epoch(database_id)
        self.conn.execute(
            "UPDATE streaming_job SET job_status = 'CREATING', creating_epoch = ? WHERE job_id = ?",
            (epoch, job_id),
        )
        # A new job takes its NoShuffle upstreams' current layout (no re-render of theirs).
        graph = self.actors.render_job(job_id, with_ensembles=False)
        self.actors.store_policies([job_id], graph)
        self.backfill.store_progress(job_id)
        scans = self.meta.val(
            "SELECT count(*) FROM fragment WHERE job_id = ? AND scan_relation_id IS NOT NULL"
            " AND backfill_done = 0",
            (job_id,),
        )
        if not scans:
            self.backfill.finish(job_id, int(epoch))
        elif self.meta.val(
            "SELECT create_type FROM streaming_job WHERE job_id = ?", (job_id,)
        ) == "FOREGROUND" and self.backfill.fits_one_barrier(
            database_id, job_id, self.barrier.is_paused(database_id)
        ):
            # The snapshot this job reads after its command barrier fits in one barrier's
            # budget, so the next barrier finishes it: the periodic loop injects that barrier
            # at once (due_databases) instead of letting the waiting session sit out a whole
            # interval of wall time.  Manual clocks and background jobs keep their schedule.
            self.barrier.request_early_barrier(database_id)

    def abort(self, job_id: int) -> None:
        """try_abort_creating_streaming_job: remove an INITIAL job entirely."""
        with self.store.transaction():
            self.catalog.remove_relations([job_id])
        self.meta.commit_actions()

    # ------------------------------------------------------------------ CANCEL JOBS, WAIT

    def cancel_jobs(self, ctx: Context, job_ids: Sequence[int]) -> Result:
        """CANCEL JOBS id, ... (cancel_job.rs:26-65): one varchar column Id, one row per job
        actually cancelled; unknown or created ids are ignored."""
        cancelled: list[int] = []
        with self.store.transaction():
            for jid in job_ids:
                row = self.meta.q1(
                    "SELECT database_id FROM streaming_job WHERE job_id = ? AND job_status !="
                    " 'CREATED'",
                    (jid,),
                )
                if row is None or jid in cancelled:
                    continue
                cancelled.append(jid)
                self.catalog.remove_relations(self.catalog.cascade_closure([jid]))
                self.barrier.barrier(int(row[0]))
        self.meta.commit_actions()
        return Result(columns=[Column("Id", pgtypes.VARCHAR)], rows=[(str(j),) for j in cancelled])

    def wait(self, ctx: Context, kind: str | None = None, name: ObjectName | None = None) -> Result:
        """WAIT [TABLE|MATERIALIZED VIEW|SINK|INDEX name] (wait.rs:26-90): completes when no job
        (or the named one) is creating."""
        target: int | None = None
        if kind is not None and name is not None:
            lookup = {
                "table": ("table", "materialized view", "index"),
                "materialized view": ("table", "materialized view", "index"),
                "index": ("table", "materialized view", "index"),
                "sink": ("sink",),
            }[kind]
            rel = self.catalog.lookup(ctx, name, lookup)
            if rel is None:
                raise CatalogNotFound({"materialized view": "table"}.get(kind, kind), name.name)
            if rel.kind != kind:
                raise InvalidInputSyntax(DROP_HINT[rel.kind])
            self.catalog.check_drop_alter(ctx, rel)  # wait.rs:47-84
            target = rel.id
        w = self.waits.wait(target)
        self.meta.commit_actions()
        return Result(wait=w)
