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

from rwshim import pgtypes
from rwshim.engine import options as opts
from rwshim.engine.actors import Actors
from rwshim.engine.backfill import Backfill
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog, Rel
from rwshim.engine.fragments import Fragments
from rwshim.engine.jobs import Jobs
from rwshim.engine.params import Params
from rwshim.engine.recovery import Recovery
from rwshim.engine.scale import Scale
from rwshim.engine.state import Faults, Meta
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
    BindError,
    CatalogNotFound,
    InvalidInputSyntax,
)
from rwshim.store.store import Store


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
        self.jobs = Jobs(
            self.meta,
            self.catalog,
            self.waits,
            self.fragments,
            self.actors,
            self.backfill,
            self.barrier,
            self.recovery,
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
        result = self.jobs.create(ctx, spec)
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
            return self.jobs.create(ctx, spec)
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
        return self.jobs.create(ctx, spec)

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
        return self.jobs.create(ctx, spec)

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
        return self.jobs.create(ctx, spec)

    # ------------------------------------------------------------------ the create pipeline

    # ------------------------------------------------------------------ barriers and backfill

    # ------------------------------------------------------------------ removal

    # ------------------------------------------------------------------ DROP

    # ------------------------------------------------------------------ job resolution for ALTER

    # ------------------------------------------------------------------ reschedule

    # ------------------------------------------------------------------ rate limits

    # ------------------------------------------------------------------ pause / resume / recover

    # ------------------------------------------------------------------ job statements

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
