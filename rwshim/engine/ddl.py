"""DDL on relations: CREATE TABLE | MATERIALIZED VIEW | VIEW | INDEX | SOURCE | SINK and DROP of
them, with the rules RisingWave's frontend applies before meta sees the statement (the schema
it creates in, duplicate names and IF NOT EXISTS, columns and keys, index columns, WITH
options, a sink's target table) and the rules of a drop (the kind named, RESTRICT against
dependents, indexes and sinks that go with a table, creating jobs cancelled or refused).
A streaming job is handed on to ``Jobs.create``; a view or a non-shared source is catalog only.

RisingWave: ``src/frontend/src/handler/create_table.rs``, ``create_mv.rs:186-420``,
``create_view.rs``, ``create_index.rs``, ``create_source.rs``, ``create_sink.rs``,
``drop_*.rs``, ``src/frontend/src/session.rs:1055-1105`` (a name clash),
``src/frontend/src/catalog/table_catalog.rs:389-400`` (the DROP hint), and meta's side:
``src/meta/src/rpc/ddl_controller.rs:1145-1182`` (IF NOT EXISTS on a creating job),
``:1440-1910`` (drop_object, drop_streaming_job), ``src/meta/src/controller/utils.rs:
814-990`` (dependents), ``controller/catalog/drop_op.rs:98-140``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rwshim import pgtypes
from rwshim.engine import options as opts
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog, Rel
from rwshim.engine.jobs import Jobs
from rwshim.engine.kinds import DROP_HINT, TABLE_NAMESPACE
from rwshim.engine.state import Meta
from rwshim.engine.types import ColumnSpec, Context, JobSpec, ObjectName, Result, Waiter
from rwshim.engine.waits import Waits
from rwshim.errors import (
    BindError,
    CatalogNotFound,
    DropDependedOn,
    InvalidInputSyntax,
)


class Ddl:
    """CREATE and DROP of relations."""

    def __init__(
        self, meta: Meta, catalog: Catalog, waits: Waits, barrier: Barrier, jobs: Jobs
    ) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog
        self.waits = waits
        self.barrier = barrier
        self.jobs = jobs

    # ------------------------------------------------------------------ CREATE

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
        on_conflict: str | None = None,
        with_options: Sequence[tuple[str, str]] = (),
        connector: str | None = None,
    ) -> Result:
        """CREATE TABLE (create_table.rs): a streaming job without backfill, always foreground;
        its rows live on the data plane (made from this catalog entry on first use).  A table
        without primary key gets the hidden ``_row_id`` (serial) as its last column and key
        (create_table.rs:437-446).  ``on_conflict`` is the statement's ON CONFLICT clause
        (``DO NOTHING``, ``DO UPDATE FULL``, ``OVERWRITE``, ``DO UPDATE IF NOT NULL``)."""
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
        row_id_as_pk = not pk
        if not pk:
            cols.append(ColumnSpec("_row_id", pgtypes.INT8, "serial", is_hidden=True))
            pk = [len(cols) - 1]
        behaviour = conflict_behaviour(on_conflict, append_only, row_id_as_pk)
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
                "on_conflict": behaviour,
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
                rid, "view", name.name, schema_id, ctx, definition, columns,
                extra={"search_path": ctx.variables.get("search_path")},
            )  # fmt: skip
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
        views to their streaming inputs).  ``has_values``: the plan has a Values leaf (VALUES,
        a SELECT without FROM, an uncorrelated table function): not recoverable, so never
        background, and deleted by recovery while creating.  ``has_temporal_join``: forbids
        snapshot backfill.
        """
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            bg = opts.background_create(ctx, "materialized view", has_values)
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
            # the definition's names bind with the creating session's search_path
            extra={"search_path": ctx.variables.get("search_path")},
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
                existing, if_not_exists, opts.background_create(ctx, "index", False)
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
        has_values: bool = False,
    ) -> Result:
        """CREATE SINK (create_sink.rs).  ``snapshot = 'false'`` makes an UpstreamOnly sink;
        a sink INTO a table is a SinkIntoTable job with ArrangementBackfill.  ``has_values``:
        the plan of a CREATE SINK ... AS query has a Values leaf (never background)."""
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(
                existing, if_not_exists, opts.background_create(ctx, "sink", has_values)
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
            has_values=has_values,
        )
        return self.jobs.create(ctx, spec)

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


def conflict_behaviour(on_conflict: str | None, append_only: bool, row_id_as_pk: bool) -> str:
    """A table's ConflictBehavior as ``EitherOnConflict::to_behavior`` resolves it
    (src/frontend/src/handler/create_table.rs:671-705), in the store's words
    (relation.on_conflict)."""
    if append_only:
        if row_id_as_pk:
            return "no_check"
        if on_conflict is not None and on_conflict != "DO NOTHING":
            raise InvalidInputSyntax(
                "When PRIMARY KEY constraint applied to an APPEND ONLY table, "
                "the ON CONFLICT behavior must be DO NOTHING."
            )
        return "ignore"
    return {
        None: "overwrite",
        "DO UPDATE FULL": "overwrite",
        "OVERWRITE": "overwrite",
        "DO NOTHING": "ignore",
        "DO UPDATE IF NOT NULL": "if_not_null",
    }.get(on_conflict, "overwrite")
