"""The Engine: RisingWave's catalog + meta node in one synchronous object (clock injected, no I/O).

Every DDL method takes plain values (a ``Context``, names, definition text, columns, upstream
relation ids, WITH options as pairs) and returns a ``Result`` or raises the ``RwError`` that
RisingWave would send.  Time moves only through ``tick()`` (a periodic barrier) and through
commands, which get their barrier at once, as in RisingWave.  State lives in the ``Store``; the
in-memory part is only what a restart loses in RisingWave too (waiting sessions, fault
switches).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rwshim import pgtypes
from rwshim.engine import options as opts
from rwshim.engine import parallelism as par
from rwshim.engine.actors import Actors
from rwshim.engine.backfill import Backfill
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog, Rel
from rwshim.engine.fragments import Fragments
from rwshim.engine.kinds import CREATE_CALL, DROP_HINT, TABLE_NAMESPACE
from rwshim.engine.params import Params
from rwshim.engine.recovery import Recovery
from rwshim.engine.scale import Scale
from rwshim.engine.state import Faults, Meta, SimulatedCrash
from rwshim.engine.throttle import Throttle
from rwshim.engine.types import (
    Clock,
    ColumnSpec,
    Context,
    JobSpec,
    ObjectName,
    Result,
    Waiter,
)
from rwshim.engine.users import Users
from rwshim.engine.waits import Waits
from rwshim.errors import (
    BatchRefreshWhenPaused,
    BindError,
    CatalogNotFound,
    CreateCancelled,
    CreateParallelismExceedsMax,
    DropDependedOn,
    InvalidInputSyntax,
    InvalidParameterValue,
    MetaCatalogDuplicated,
    MetaPermissionDenied,
    NotSupported,
    RwError,
    SessionConfigError,
)
from rwshim.results import Column
from rwshim.store.store import Store


@dataclass
class _Pending:
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


class Engine:
    """RisingWave's control plane over a ``Store``.  Construction runs bootstrap recovery."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        *,
        row_count: Callable[[int], int] | None = None,
        streaming_slots: int = 4,
        backfill_rows_per_second: int = 1_000_000,
    ) -> None:
        self.meta = Meta(
            store,
            clock,
            row_count=row_count,
            streaming_slots=streaming_slots,
            backfill_rows_per_second=backfill_rows_per_second,
        )
        self.store = store
        self.conn: sqlite3.Connection = store.conn
        self.users = Users(self.meta)
        self.waits = Waits(self.meta)
        self.catalog = Catalog(self.meta, self.users, self.waits)
        self.params = Params(self.meta, self.users, self.catalog, self.waits)
        self.actors = Actors(self.meta)
        self.fragments = Fragments(self.meta)
        self.backfill = Backfill(self.meta, self.params, self.catalog, self.actors, self.waits)
        self.barrier = Barrier(
            self.meta, self.users, self.params, self.catalog, self.backfill, self.waits
        )
        self.scale = Scale(self.meta, self.catalog, self.actors, self.barrier, self.backfill)
        self.throttle = Throttle(self.meta, self.catalog, self.barrier)
        self.recovery = Recovery(
            self.meta,
            self.users,
            self.params,
            self.catalog,
            self.waits,
            self.actors,
            self.barrier,
        )
        with self.store.transaction():
            self.params.ensure_defaults()
            self.actors.ensure_workers()
        self.recovery.recover(bootstrap=True)

    @property
    def clock(self) -> Clock:
        return self.meta.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.meta.clock = clock

    @property
    def faults(self) -> Faults:
        return self.meta.faults

    @property
    def on_barrier_wanted(self) -> Callable[[], None] | None:
        """Called after commit when a database is owed an early barrier (the server's loop)."""
        return self.barrier.on_barrier_wanted

    @on_barrier_wanted.setter
    def on_barrier_wanted(self, fn: Callable[[], None] | None) -> None:
        self.barrier.on_barrier_wanted = fn

    # ------------------------------------------------------------------ basics

    # ------------------------------------------------------------------ users & privileges

    # ------------------------------------------------------------------ name resolution

    # ------------------------------------------------------------------ databases, schemas, users

    # ------------------------------------------------------------------ relations: creation

    def _if_not_exists_result(
        self, existing: Rel, if_not_exists: bool, background: bool = False
    ) -> Result:
        """A name clash found by the frontend (session.rs:1055-1105).  ``background``: whether
        the new statement would be a background job."""
        if not if_not_exists:
            raise self.catalog.duplicate_error(existing)
        if existing.status is not None and existing.status != "CREATED":
            # The frontend defers to meta, which answers OK for a job still being created: a
            # foreground create waits for that job, a background one returns
            # (ddl_controller.rs:1145-1182).
            if not background:
                w = Waiter()
                self.waits.register(existing.id, w, "")
                return Result(wait=w)
            return Result()
        return Result([f'relation "{existing.name}" already exists, skipping'])

    def create_table(
        self,
        ctx: Context,
        name: ObjectName,
        columns: Sequence[ColumnSpec],
        *,
        definition: str,
        primary_key: Sequence[str] = (),
        if_not_exists: bool = False,
        append_only: bool = False,
        with_options: Sequence[tuple[str, str]] = (),
        connector: str | None = None,
    ) -> Result:
        """CREATE TABLE (create_table.rs): a streaming job without backfill, always foreground;
        its rows live in ``rel_<id>``.  A table without primary key gets the hidden ``_row_id``
        (serial) as its last column and key (create_table.rs:437-446)."""
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(existing, if_not_exists)
        cols = list(columns)
        seen: set[str] = set()
        for c in cols:
            if c.name in seen:
                raise InvalidInputSyntax(f'column "{c.name}" specified more than once')
            seen.add(c.name)
        names = [c.name for c in cols]
        pk: list[int] = []
        for k in primary_key:
            if k not in names:
                raise BindError(f'column "{k}" named in key does not exist')
            pk.append(names.index(k))
        if not pk:
            cols.append(ColumnSpec("_row_id", pgtypes.INT8, "serial", is_hidden=True))
            pk = [len(cols) - 1]
        options = dict(with_options)
        notices = ["APPEND ONLY TABLE is currently an experimental feature."] if append_only else []
        spec = JobSpec(
            kind="table",
            if_not_exists=if_not_exists,
            name=name.name,
            schema_id=schema_id,
            columns=cols,
            primary_key=pk,
            definition=definition,
            upstream_ids=[],
            options=options,
            extra={
                "append_only": int(append_only),
                "connector": connector,
                "with_options": json.dumps(options, sort_keys=True),
            },
        )
        result = self._create_job(ctx, spec)
        result.notices[:0] = notices
        return result

    def create_view(
        self,
        ctx: Context,
        name: ObjectName,
        columns: Sequence[ColumnSpec],
        *,
        definition: str,
        upstream_ids: Sequence[int] = (),
        if_not_exists: bool = False,
    ) -> Result:
        """CREATE VIEW: catalog only (meta CreateView), no streaming job."""
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(existing, if_not_exists)
        with self.store.transaction():
            rid = self.store.next_id("object")
            self.catalog.insert_relation(
                rid, "view", name.name, schema_id, ctx, definition, columns
            )
            self.catalog.insert_dependencies(rid, upstream_ids)
        return Result()

    def create_source(
        self,
        ctx: Context,
        name: ObjectName,
        columns: Sequence[ColumnSpec],
        *,
        definition: str,
        with_options: Sequence[tuple[str, str]] = (),
        format: str | None = None,
        row_encode: str | None = None,
        format_encode_options: Sequence[tuple[str, str]] = (),
        if_not_exists: bool = False,
    ) -> Result:
        """CREATE SOURCE.  A Kafka source is shared (its own streaming job) when the session
        has ``streaming_use_shared_source`` on (create_source.rs); others are catalog only."""
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(existing, if_not_exists)
        options = dict(with_options)
        connector = options.get("connector")
        shared = connector == "kafka" and opts.bool_var(ctx, "streaming_use_shared_source")
        extra: dict[str, object] = {
            "connector": connector,
            "is_shared": int(shared),
            "format": format,
            "row_encode": row_encode,
            "with_options": json.dumps(options, sort_keys=True),
            "format_encode_options": json.dumps(dict(format_encode_options), sort_keys=True),
        }
        if shared:
            spec = JobSpec(
                kind="source",
                if_not_exists=if_not_exists,
                name=name.name,
                schema_id=schema_id,
                columns=list(columns),
                primary_key=[],
                definition=definition,
                upstream_ids=[],
                options=options,
                extra=extra,
            )
            return self._create_job(ctx, spec)
        with self.store.transaction():
            rid = self.store.next_id("object")
            self.catalog.insert_relation(
                rid, "source", name.name, schema_id, ctx, definition, columns, extra=extra
            )
        return Result()

    def create_materialized_view(
        self,
        ctx: Context,
        name: ObjectName,
        columns: Sequence[ColumnSpec],
        *,
        definition: str,
        upstream_ids: Sequence[int],
        if_not_exists: bool = False,
        with_options: Sequence[tuple[str, str]] = (),
        has_values: bool = False,
        has_temporal_join: bool = False,
        primary_key: Sequence[int] = (),
    ) -> Result:
        """CREATE MATERIALIZED VIEW (create_mv.rs:186-420 and meta's create path).

        ``upstream_ids``: the relations the query reads (views included; the engine follows
        views to their streaming inputs).  ``has_values``: the plan has a VALUES leaf (not
        recoverable: never background).  ``has_temporal_join``: forbids snapshot backfill.
        """
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            bg = opts.bool_var(ctx, "background_ddl") and not has_values
            return self._if_not_exists_result(existing, if_not_exists, bg)
        options = opts.check_with_options(with_options, opts.MV_WITH_KEYS)
        spec = JobSpec(
            kind="materialized view",
            if_not_exists=if_not_exists,
            name=name.name,
            schema_id=schema_id,
            columns=list(columns),
            primary_key=list(primary_key),
            definition=definition,
            upstream_ids=list(upstream_ids),
            options=options,
            has_values=has_values,
            has_temporal_join=has_temporal_join,
        )
        return self._create_job(ctx, spec)

    def create_index(
        self,
        ctx: Context,
        name: ObjectName,
        table: ObjectName,
        *,
        definition: str,
        key_columns: Sequence[str],
        include_columns: Sequence[str] | None = None,
        if_not_exists: bool = False,
    ) -> Result:
        """CREATE INDEX (create_index.rs): an index table over a table or MV (arrangement
        backfill)."""
        # resolve_index_schema (create_index.rs:62-81): the created table first, then the
        # duplicate check in that table's schema.
        base = self.catalog.lookup(ctx, table, ("table", "materialized view"))
        if base is None or base.status != "CREATED":
            raise CatalogNotFound("table", table.name)
        schema_id = base.schema_id
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(
                existing, if_not_exists, opts.bool_var(ctx, "background_ddl")
            )
        base_cols = self.catalog.columns(base.id)
        by_name = {c.name: (i, c) for i, c in enumerate(base_cols)}
        key_pos: list[int] = []
        for k in key_columns:
            if k not in by_name:
                raise BindError(f"Failed to bind expression: {k}")
            key_pos.append(by_name[k][0])
        if include_columns is None:
            inc_pos = [i for i, c in enumerate(base_cols) if not c.is_hidden and i not in key_pos]
        else:
            inc_pos = [by_name[c][0] for c in include_columns if c in by_name]
        cols = [base_cols[i] for i in key_pos + inc_pos]
        spec = JobSpec(
            kind="index",
            if_not_exists=if_not_exists,
            name=name.name,
            schema_id=schema_id,
            columns=cols,
            primary_key=list(range(len(key_pos))),
            definition=definition,
            upstream_ids=[base.id],
            options={},
            extra={
                "primary_table_id": base.id,
                "index_key_columns": json.dumps(key_pos),
                "index_include_columns": json.dumps(inc_pos),
            },
        )
        return self._create_job(ctx, spec)

    def create_sink(
        self,
        ctx: Context,
        name: ObjectName,
        columns: Sequence[ColumnSpec],
        *,
        definition: str,
        upstream_ids: Sequence[int],
        with_options: Sequence[tuple[str, str]] = (),
        format_encode_options: Sequence[tuple[str, str]] = (),
        into_table: ObjectName | None = None,
        if_not_exists: bool = False,
    ) -> Result:
        """CREATE SINK (create_sink.rs).  ``snapshot = 'false'`` makes an UpstreamOnly sink;
        a sink INTO a table is a SinkIntoTable job with ArrangementBackfill."""
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(
                existing, if_not_exists, opts.bool_var(ctx, "background_ddl")
            )
        options = dict(with_options)
        target_id: int | None = None
        if into_table is not None:
            target = self.catalog.lookup(ctx, into_table, ("table",))
            if target is None:
                raise CatalogNotFound("table", into_table.name)
            target_id = target.id
        sink_type = options.get("type")
        if sink_type == "append-only" and options.get("force_append_only") == "true":
            sink_type = "force-append-only"
        spec = JobSpec(
            kind="sink",
            if_not_exists=if_not_exists,
            name=name.name,
            schema_id=schema_id,
            columns=list(columns),
            primary_key=[],
            definition=definition,
            upstream_ids=list(upstream_ids),
            options=options,
            extra={
                "connector": options.get("connector") if into_table is None else None,
                "sink_type": sink_type or ("append-only" if into_table is None else "upsert"),
                "target_table_id": target_id,
                "with_options": json.dumps(options, sort_keys=True),
                "format_encode_options": json.dumps(dict(format_encode_options), sort_keys=True),
            },
        )
        return self._create_job(ctx, spec)

    # ------------------------------------------------------------------ the create pipeline

    def _create_job(self, ctx: Context, spec: JobSpec) -> Result:
        notices: list[str] = []
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

        # Background (stream_materialize.rs:135-142, utils.rs:471-499).
        background = (
            spec.kind in ("materialized view", "sink", "index")
            and opts.bool_var(ctx, "background_ddl")
            and not spec.has_values
        )

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
        target = par.resolve_creation(spec.kind, specific, global_)
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
                extra=spec.extra,
            )
            self.catalog.insert_dependencies(job_id, spec.upstream_ids)
            self.conn.execute(
                "INSERT INTO streaming_job(job_id, database_id, job_status, create_type,"
                " job_type, backfill_type, parallelism_kind, parallelism_fixed,"
                " adaptive_parallelism_strategy, backfill_parallelism_kind,"
                " backfill_parallelism_fixed, backfill_adaptive_parallelism_strategy,"
                " max_parallelism, specific_resource_group, refresh_interval_sec, timezone)"
                " VALUES (?, ?, 'INITIAL', ?, 'Normal', 'NORMAL_BACKFILL', ?, ?, ?, ?, ?, ?, ?,"
                " ?, ?, ?)",
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
        self._start_job(pending)
        return Result(notices, wait=None if pending.waiter.done else pending.waiter, job_id=job_id)

    def _start_job(self, p: _Pending) -> None:
        """The part of a create that runs with the permit: validation, fragments, the barrier.
        Raises the RwError after aborting the INITIAL job."""
        job_id, spec, ctx, call = p.job_id, p.spec, p.ctx, p.call
        try:
            with self.store.transaction():
                # validate_specified_parallelism (ddl_controller.rs:363-388)
                if p.target.kind == "Fixed" and (p.target.fixed or 0) > p.max_parallelism:
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
                if spec.kind == "table":
                    self.catalog.create_data_table(job_id)
                self._admit_and_start(ctx.database_id, job_id, job_type, call)
        except BatchRefreshWhenPaused:
            # The failed apply also fails the barrier injection (control.rs:1311-1330): the
            # database goes through its own recovery, which comes back unpaused
            # (checkpoint/recovery.rs:419).
            self._abort_job(job_id)
            self.recovery.database_recovery(ctx.database_id)
            raise
        except RwError:
            self._abort_job(job_id)
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
            self._start_job(p)
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
        self.actors.render_job(job_id, with_ensembles=False)
        self.actors.store_policies([job_id])
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

    def _abort_job(self, job_id: int) -> None:
        """try_abort_creating_streaming_job: remove an INITIAL job entirely."""
        with self.store.transaction():
            self.catalog.remove_relations([job_id])
        self.meta.commit_actions()

    # ------------------------------------------------------------------ barriers and backfill

    # ------------------------------------------------------------------ removal

    # ------------------------------------------------------------------ DROP

    def drop_relation(
        self,
        ctx: Context,
        kind: str,
        name: ObjectName,
        *,
        if_exists: bool = False,
        cascade: bool = False,
    ) -> Result:
        """DROP TABLE | MATERIALIZED VIEW | VIEW | INDEX | SOURCE | SINK (drop_*.rs).

        Finds creating jobs too; dropping one cancels it.  Dependents make a RESTRICT drop fail
        with meta's PermissionDenied (controller/utils.rs:814-990); indexes go with their table.
        """
        namespace = TABLE_NAMESPACE if kind in TABLE_NAMESPACE else (kind,)
        rel = self.catalog.lookup(ctx, name, namespace)
        if rel is None or rel.kind != kind:
            if rel is not None:
                # table_catalog.rs:389-400
                raise InvalidInputSyntax(DROP_HINT[rel.kind])
            if if_exists:
                return Result([f'{kind} "{name.name}" does not exist, skipping'])
            raise CatalogNotFound(kind, name.name)
        self.catalog.check_drop_alter(ctx, rel)
        if cascade:
            ids = self.catalog.cascade_closure([rel.id])
        else:
            dependents = [
                self.catalog.relation(int(r[0]))
                for r in self.conn.execute(
                    "SELECT dependent_id FROM dependency WHERE referenced_id = ?"
                    " ORDER BY dependent_id",
                    (rel.id,),
                )
            ]
            blocking = [d for d in dependents if d is not None and d.kind != "index"]
            if blocking:
                order = ("table", "materialized view", "sink", "view", "source")
                blocking.sort(key=lambda d: (order.index(d.kind) if d.kind in order else 9, d.id))
                obj_type = {"materialized view": "table", "index": "index"}.get(rel.kind, rel.kind)
                details = []
                for d in blocking:
                    schema = self.meta.val(
                        "SELECT name FROM schema WHERE schema_id = ?", (d.schema_id,)
                    )
                    word = (
                        "materialized view" if d.kind in ("table", "materialized view") else d.kind
                    )
                    details.append(f"{word} {schema}.{d.name} depends on it")
                raise DropDependedOn(obj_type, details)
            ids = [rel.id] + [d.id for d in dependents if d is not None and d.kind == "index"]
            # Sinks into a dropped table go with it (drop_op.rs:98-140).
            ids += [
                int(r[0])
                for r in self.conn.execute(
                    "SELECT relation_id FROM relation WHERE target_table_id = ?", (rel.id,)
                )
            ]
        if rel.status in (None, "CREATED"):
            # A creating job itself is cancelled instead (drop_streaming_job,
            # ddl_controller.rs:1871-1910); a created object goes through drop_object.
            self.catalog.refuse_dropping_creating(ids, rel.kind)
        with self.store.transaction():
            self.catalog.remove_relations(ids)
            if rel.is_job:
                self.barrier.barrier(rel.database_id)
        self.meta.commit_actions()
        return Result()

    # ------------------------------------------------------------------ job resolution for ALTER

    # ------------------------------------------------------------------ reschedule

    # ------------------------------------------------------------------ rate limits

    # ------------------------------------------------------------------ pause / resume / recover

    # ------------------------------------------------------------------ job statements

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
            target = rel.id
        w = self.waits.wait(target)
        self.meta.commit_actions()
        return Result(wait=w)

    # ------------------------------------------------------------------ rename, swap, owner, schema

    # ------------------------------------------------------------------ parameters

    # ------------------------------------------------------------------ test control

    def restart(self, on_open: Callable[[Store], None] | None = None) -> Engine:
        """Test control: a meta-node restart.  A file store is closed and reopened (bootstrap
        recovery runs on open); an in-memory one cannot be reopened, so only recovery runs.
        Sessions waiting on this engine are gone with it: their waits fail.  ``on_open`` is
        called with a reopened store before recovery runs on it (so ``row_count`` can follow)."""
        self.waits.meta_restarted()
        if self.store.path is None:
            self.recovery.recover(bootstrap=True)
            return self
        data_dir = self.store.path.parent
        self.store.close()
        store = Store.open(data_dir)
        if on_open is not None:
            on_open(store)
        engine = Engine(
            store,
            self.meta.clock,
            row_count=self.meta.custom_row_count,
            streaming_slots=self.meta.streaming_slots,
            backfill_rows_per_second=self.meta.backfill_rows_per_second,
        )
        engine.on_barrier_wanted = self.on_barrier_wanted
        return engine
