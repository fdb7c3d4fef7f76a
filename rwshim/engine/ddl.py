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

from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec.structs

from rwshim.common import pgtypes
from rwshim.engine import options as opts
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog, Rel
from rwshim.engine.jobs import Jobs
from rwshim.engine.kinds import DROP_HINT, TABLE_NAMESPACE
from rwshim.engine.secrets import Named, Refs, Secrets
from rwshim.engine.state import Meta
from rwshim.engine.subscriptions import Subscriptions
from rwshim.engine.types import ColumnSpec, Context, JobSpec, ObjectName, Result, Waiter
from rwshim.engine.waits import Waits
from rwshim.errors import (
    BindError,
    CatalogNotFound,
    DropDependedOn,
    InvalidInputSyntax,
    InvalidParameterValue,
    PermissionDenied,
    VariantKeyError,
)
from rwshim.lazy import lazy_module
from rwshim.sql import unparse

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# The WITH keys resolve_streaming_job_resource_type reads (create_mv.rs:57-66).
_RESOURCE_KEYS = ("resource_group", "cloud.serverless_backfill_enabled")


class Ddl:
    """CREATE and DROP of relations."""

    def __init__(
        self,
        meta: Meta,
        catalog: Catalog,
        waits: Waits,
        barrier: Barrier,
        jobs: Jobs,
        secrets: Secrets,
    ) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog
        self.waits = waits
        self.barrier = barrier
        self.jobs = jobs
        self.secrets = secrets
        # the subscriptions on a dropped relation (engine.subscriptions; set by the engine)
        self.subscriptions: Subscriptions | None = None

    def _references(
        self,
        ctx: Context,
        statement: str,
        with_options: Sequence[tuple[str, str]],
        format_encode_options: Sequence[tuple[str, str]] = (),
    ) -> tuple[dict[str, str], dict[str, str], dict[str, object]]:
        """The WITH and FORMAT ... ENCODE options with their SECRET / CONNECTION references
        resolved (engine.secrets), and the relation columns that record them."""
        refs = self.secrets.resolve(ctx, with_options, statement)
        fmt, fmt_refs = self.secrets.resolve_secret_refs(ctx, format_encode_options)
        extra = refs.columns()
        extra["format_secret_refs"] = Refs(secret_refs=fmt_refs).columns()["secret_refs"]
        return dict(refs.options), dict(fmt), extra

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
        version_columns: Sequence[str] = (),
        with_options: Sequence[tuple[str, str]] = (),
        connector: str | None = None,
        depends_on: Sequence[int] = (),
    ) -> Result:
        """CREATE TABLE (create_table.rs): a streaming job without backfill, always foreground;
        its rows live on the data plane (made from this catalog entry on first use).  A table
        without primary key gets the hidden ``_row_id`` (serial) as its last column and key
        (create_table.rs:437-446).  ``on_conflict`` is the statement's ON CONFLICT clause
        (``DO NOTHING``, ``DO UPDATE FULL``, ``OVERWRITE``, ``DO UPDATE IF NOT NULL``);
        ``version_columns`` its WITH VERSION COLUMN names."""
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
        check_version_columns(cols, version_columns)
        behaviour = conflict_behaviour(on_conflict, append_only, row_id_as_pk)
        if behaviour == "ignore" and version_columns:
            # optimizer/mod.rs:1100-1106
            raise InvalidParameterValue(
                "The with version column syntax cannot be used with the ignore behavior of on "
                "conflict"
            )
        ref_columns: dict[str, object] = {}
        if connector is None:
            if any(
                k.lower() == "connection" or getattr(v, "kind", "") == "secret"
                for k, v in with_options
            ):
                # create_table.rs:566-569
                raise InvalidParameterValue(
                    "Secret reference and Connection reference are not allowed in options when "
                    "creating table without external source"
                )
            options = dict(with_options)
        else:
            options, _, ref_columns = self._references(ctx, "table", with_options)
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
            depends_on=list(depends_on),
            extra={
                "append_only": int(append_only),
                "on_conflict": behaviour,
                "version_columns": json.dumps(list(version_columns)) if version_columns else None,
                "connector": connector,
                "with_options": json.dumps(options, sort_keys=True),
                **ref_columns,
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
        sql: str,
        upstream_ids: Sequence[int] = (),
        if_not_exists: bool = False,
    ) -> Result:
        """CREATE VIEW: catalog only (meta CreateView), no streaming job.  ``sql``: the view's
        query as RisingWave stores it (create_view.rs:110); its definition is
        ``ViewCatalog::create_sql`` (view_catalog.rs:68-74)."""
        schema_id, schema = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(existing, if_not_exists)
        definition = unparse.view_definition(schema, name.name, sql)
        with self.store.transaction():
            rid = self.store.next_id("object")
            self.catalog.insert_relation(
                rid, "view", name.name, schema_id, ctx, definition, columns,
                extra={"search_path": ctx.variables.get("search_path")},
            )  # fmt: skip
            self.catalog.insert_dependencies(rid, upstream_ids)
            self.catalog.privileges.apply_relation_defaults(rid)  # create_op.rs:601-602
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
        primary_key: Sequence[str] = (),
    ) -> Result:
        """CREATE SOURCE.  A Kafka source is shared (its own streaming job) when the session
        has ``streaming_use_shared_source`` on (create_source.rs); others are catalog only.
        Without a key the source gets the hidden ``_row_id`` (serial) last, its key
        (create_source.rs:1084-1085, bind_pk_and_row_id_on_relation with must_need_pk:
        create_table.rs:437-446)."""
        columns = list(columns)
        names = [c.name for c in columns]
        pk = [names.index(k) for k in primary_key if k in names]
        if not pk:
            columns.append(ColumnSpec("_row_id", pgtypes.INT8, "serial", is_hidden=True))
            pk = [len(columns) - 1]
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(existing, if_not_exists)
        options, fmt_options, ref_columns = self._references(
            ctx, "source", with_options, format_encode_options
        )
        connector = options.get("connector")
        # is_shareable_non_cdc_connector: get_connector lower-cases (with_options.rs:118-130)
        shared = str(connector or "").lower() == "kafka" and opts.bool_var(
            ctx, "streaming_use_shared_source"
        )
        extra: dict[str, object] = {
            "connector": connector,
            "is_shared": int(shared),
            "format": format,
            "row_encode": row_encode,
            "with_options": json.dumps(options, sort_keys=True),
            "format_encode_options": json.dumps(fmt_options, sort_keys=True),
            **ref_columns,
        }
        if shared:
            spec = JobSpec(
                kind="source",
                if_not_exists=if_not_exists,
                name=name.name,
                schema_id=schema_id,
                columns=list(columns),
                primary_key=pk,
                definition=definition,
                upstream_ids=[],
                options=options,
                extra=extra,
            )
            return self.jobs.create(ctx, spec)
        with self.store.transaction():
            rid = self.store.next_id("object")
            self.catalog.insert_relation(
                rid, "source", name.name, schema_id, ctx, definition, columns, pk, extra=extra
            )
            self.catalog.privileges.apply_relation_defaults(rid)  # create_op.rs:311-312
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
        read_query_template: str | None = None,
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
        allowed = opts.MV_WITH_KEYS
        if not self.meta.release.batch_refresh:
            # No batch-refresh MVs before 43f07e74cde: the key is an unknown option
            # (v3.0.3 create_mv.rs:412-417, v2.8.5 create_mv.rs:330).
            allowed = allowed - {"refresh.interval.sec"}
        options = opts.check_with_options(with_options, allowed)
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
            extra={
                "search_path": ctx.variables.get("search_path"),
                **self._read_query(read_query_template, ctx),
            },
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
        key_orders: Sequence[tuple[bool, bool]] = (),
        with_options: Sequence[tuple[str, str]] = (),
        distributed_by: Sequence[str] = (),
    ) -> Result:
        """CREATE INDEX (create_index.rs): an index table over a table or MV (arrangement
        backfill).  Of its WITH options the resource type's (``resource_group``,
        ``cloud.serverless_backfill_enabled``, create_index.rs:657-658) reach the job.
        ``key_orders`` is each key's (descending, nulls smallest), RisingWave's
        OrderType::from_bools of its ASC/DESC and NULLS FIRST/LAST (default: ascending, nulls
        largest)."""
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
        if ctx.user_id != base.owner_id and not self.catalog.users.is_super(ctx):
            # create_index.rs:160-166
            raise PermissionDenied(f'must be owner of table "{base.name}"')
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
        # DISTRIBUTED BY: bound as the keys are, duplicates dropped, a prefix of the keys
        # (duplicates dropped too) or refused (create_index.rs:304-349).
        dist_pos: list[int] = []
        for d in distributed_by:
            if d not in by_name:
                raise BindError(f"Failed to bind expression: {d}")
            if by_name[d][0] not in dist_pos:
                dist_pos.append(by_name[d][0])
        unique_keys = list(dict.fromkeys(key_pos))
        if unique_keys[: len(dist_pos)] != dist_pos:
            raise InvalidInputSyntax("Distributed by columns should be a prefix of index columns")
        from rwshim.common import rwtypes  # (lazy: a dataclass module, not for start-up)

        for i in key_pos:  # the index's key is its storage key (stream_materialize.rs:350-360)
            if rwtypes.contains_variant(base_cols[i].rw_type):
                raise VariantKeyError(
                    f'VARIANT column "{base_cols[i].name}" is part of the storage primary key'
                )
        cols = [base_cols[i] for i in key_pos + inc_pos]
        for pos, (desc, nulls_smallest) in enumerate(key_orders[: len(key_pos)]):
            cols[pos] = msgspec.structs.replace(
                cols[pos], pk_desc=desc, pk_nulls_smallest=nulls_smallest
            )
        # create_index.rs:352-353: CREATE on the index's schema
        schema_name = self.meta.val("SELECT name FROM schema WHERE schema_id = ?", (schema_id,))
        self.catalog.privileges.check_create_in_schema(ctx, schema_id, str(schema_name))
        spec = JobSpec(
            kind="index",
            if_not_exists=if_not_exists,
            name=name.name,
            schema_id=schema_id,
            columns=cols,
            primary_key=list(range(len(key_pos))),
            definition=definition,
            upstream_ids=[base.id],
            options={k: v for k, v in with_options if k in _RESOURCE_KEYS},
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
        read_query_template: str | None = None,
        has_values: bool = False,
        sink_type: str | None = None,
    ) -> Result:
        """CREATE SINK (create_sink.rs).  ``sink_type``: the type the frontend derived from
        the query's stream kind (frontend/sink_rules.py), when it did.  ``snapshot = 'false'``
        makes an UpstreamOnly sink; a sink INTO a table is a SinkIntoTable job with
        ArrangementBackfill.  ``has_values``: the plan of a CREATE SINK ... AS query has a
        Values leaf (never background)."""
        schema_id, _ = self.catalog.creation_schema(ctx, name)
        existing = self.catalog.check_duplicate(schema_id, name.name)
        if existing is not None:
            return self._if_not_exists_result(
                existing, if_not_exists, opts.background_create(ctx, "sink", has_values)
            )
        options, fmt_options, ref_columns = self._references(
            ctx, "sink", with_options, format_encode_options
        )
        target_id: int | None = None
        if into_table is not None:
            target = self.catalog.lookup(ctx, into_table, ("table",))
            if target is None:
                raise CatalogNotFound("table", into_table.name)
            target_id = target.id
        if sink_type is None:
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
                "format_encode_options": json.dumps(fmt_options, sort_keys=True),
                **ref_columns,
                **self._read_query(read_query_template, ctx),
            },
            has_values=has_values,
        )
        return self.jobs.create(ctx, spec)

    def _read_query(self, template: str | None, ctx: Context) -> dict[str, object]:
        """The read-query columns of a new materialized view or sink (schema v6)."""
        if template is None:
            return {}
        rendered = self.catalog.read_query(template, ctx.database_id)
        return {"read_query_template": template, "read_query": rendered}

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

        A creating materialized view, index or sink is found too and dropping it cancels it
        (drop_streaming_job, ddl_controller.rs:1871-1910); a created object goes through meta's
        drop_object (controller/catalog/drop_op.rs:23-330): RESTRICT refuses an object others
        depend on (check_object_refer_for_drop, controller/utils.rs:815-990) -- for a table or
        materialized view the indexes on it do not count, they go along, unless something
        depends on one of them --, CASCADE takes every dependent
        (get_referring_objects_cascade); sinks into a dropped table go too; no job still being
        created may go, nor anything in another database (drop_op.rs:213-262)."""
        found = self._drop_target(ctx, kind, name, if_exists)
        if isinstance(found, Result):
            return found
        rel = found
        if kind == "index":
            # drop_index.rs:46-55: the index's owner, not the schema's
            if not self.catalog.users.is_super(ctx) and ctx.user_id != rel.owner_id:
                raise PermissionDenied(f'must be owner of index "{rel.name}"')
        else:
            self.catalog.check_drop_alter(ctx, rel)
        if rel.status not in (None, "CREATED"):
            ids = [rel.id]
        elif cascade:
            ids = self.catalog.cascade_closure([rel.id])
        else:
            ids = self._restrict(rel)
        if rel.status in (None, "CREATED"):
            self.catalog.refuse_dropping_creating(ids, rel.kind)
            self.catalog.refuse_cross_database(ids, rel.database_id)
        with self.store.transaction():
            self.catalog.remove_relations(ids)
            if rel.is_job:
                self.barrier.barrier(rel.database_id)
        self.meta.commit_actions()
        return Result()

    def _drop_target(
        self, ctx: Context, kind: str, name: ObjectName, if_exists: bool
    ) -> Rel | Result:
        """The relation a DROP names, as each handler looks it up: DROP TABLE a created table
        (get_created_table_by_name), DROP MATERIALIZED VIEW / INDEX / SINK any, DROP SOURCE
        after refusing a created table of that name (drop_source.rs:36-41); another kind of
        the table namespace is the DROP hint (table_catalog.rs:389-400)."""
        namespace = TABLE_NAMESPACE if kind in TABLE_NAMESPACE else (kind,)
        if kind == "source":
            table = self.catalog.lookup(ctx, name, TABLE_NAMESPACE)
            if table is not None and table.status == "CREATED":
                raise InvalidInputSyntax(DROP_HINT[table.kind])
        rel = self.catalog.lookup(ctx, name, namespace)
        if rel is not None and kind == "table" and rel.status != "CREATED":
            rel = None
        if rel is None or rel.kind != kind:
            if rel is not None:
                raise InvalidInputSyntax(DROP_HINT[rel.kind])
            if if_exists:
                return Result([f'{kind} "{name.name}" does not exist, skipping'])
            raise CatalogNotFound(kind, name.name)
        return rel

    def _dependents(self, relation_id: int) -> list[Rel]:
        rows = self.conn.execute(
            "SELECT dependent_id FROM dependency WHERE referenced_id = ? ORDER BY dependent_id",
            (relation_id,),
        ).fetchall()
        return [d for d in (self.catalog.relation(int(r[0])) for r in rows) if d is not None]

    def _restrict(self, rel: Rel) -> list[int]:
        """What a RESTRICT drop removes: the object, and for a table or materialized view its
        indexes and the sinks into it (drop_op.rs:55-140); refused with meta's text when
        anything else depends on it or on one of those indexes."""
        dependents = self._dependents(rel.id)
        table_like = rel.kind in ("table", "materialized view")
        blocking = [d for d in dependents if not (table_like and d.kind == "index")]
        subs = self.subscriptions.drop_lines(rel.id) if self.subscriptions else []
        if blocking or subs:
            raise self._depended_on(rel, blocking, subs)
        indexes = [d for d in dependents if d.kind == "index"]
        for index in indexes:
            on_index = self._dependents(index.id)
            if on_index:
                raise self._depended_on(index, on_index)
        ids = [rel.id] + [d.id for d in indexes]
        ids += [
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM relation WHERE target_table_id = ?", (rel.id,)
            )
        ]
        return ids

    def _depended_on(
        self, rel: Rel, dependents: list[Rel], subscriptions: Sequence[str] = ()
    ) -> DropDependedOn:
        """check_object_refer_for_drop's error (controller/utils.rs:853-990): meta's object
        type (``table`` for a materialized view) and one line per dependent."""
        order = ("table", "materialized view", "sink", "view", "source", "index")
        dependents = sorted(
            dependents, key=lambda d: (order.index(d.kind) if d.kind in order else 9, d.id)
        )
        details = []
        for d in dependents:
            schema = self.catalog.schema_name(d.schema_id)
            word = "materialized view" if d.kind in ("table", "materialized view") else d.kind
            details.append(f"{word} {schema}.{d.name} depends on it")
        # subscriptions after views, before sources (utils.rs:853-990's arms)
        at = next(
            (i for i, d in enumerate(dependents) if d.kind in ("source", "index")), len(details)
        )
        details[at:at] = list(subscriptions)
        obj_type = "table" if rel.kind == "materialized view" else rel.kind
        return DropDependedOn(obj_type, details)

    # ------------------------------------------------------------------ DROP SECRET / CONNECTION

    def drop_secret_or_connection(
        self, ctx: Context, kind: str, name: ObjectName, *, if_exists: bool, cascade: bool
    ) -> Result:
        """DROP SECRET | CONNECTION (drop_secret.rs, drop_connection.rs; meta drop_object,
        drop_op.rs:52-94): RESTRICT refuses while a source, sink, table or connection uses it
        (controller/utils.rs:815-990: "HINT: DROP the dependent objects first."); CASCADE
        removes those users and what depends on them."""
        found = (
            self.secrets.secret_for_drop(ctx, name, if_exists)
            if kind == "secret"
            else self.secrets.connection_for_drop(ctx, name, if_exists)
        )
        if isinstance(found, Result):
            return found
        obj: Named = found
        rel_ids, conn_ids = self.secrets.dependents(obj.id)
        if not cascade and (rel_ids or conn_ids):
            details = self._dependent_lines(rel_ids)
            details += [f"connection {s}.{n} depends on it" for s, n in
                        self.secrets.connection_names(conn_ids)]  # fmt: skip
            raise DropDependedOn(kind, details, hint="HINT: DROP the dependent objects first.")
        # A connection that goes with a secret takes its own users along.
        for cid in list(conn_ids):
            more, _ = self.secrets.dependents(cid)
            rel_ids += [r for r in more if r not in rel_ids]
        ids = self.catalog.cascade_closure(rel_ids) if rel_ids else []
        self.catalog.refuse_dropping_creating(ids, kind)
        jobs = [r for r in (self.catalog.relation(i) for i in ids) if r is not None and r.is_job]
        with self.store.transaction():
            if ids:
                self.catalog.remove_relations(ids)
            if kind == "secret":
                self.secrets.remove([obj.id], conn_ids)
            else:
                self.secrets.remove([], [obj.id])
            for db in sorted({r.database_id for r in jobs}):
                self.barrier.barrier(db)
        self.meta.commit_actions()
        return Result()

    def _dependent_lines(self, ids: Sequence[int]) -> list[str]:
        """`<kind> <schema>.<name> depends on it` for relations (utils.rs:850-970)."""
        out = []
        for rid in ids:
            d = self.catalog.relation(rid)
            if d is None:
                continue
            schema = self.meta.val("SELECT name FROM schema WHERE schema_id = ?", (d.schema_id,))
            word = "materialized view" if d.kind in ("table", "materialized view") else d.kind
            out.append(f"{word} {schema}.{d.name} depends on it")
        return out


# types a version column cannot have (optimizer/mod.rs find_version_column_indices)
_NOT_COMPARABLE = ("jsonb", "variant", "bytea", "boolean")


def check_version_columns(columns: Sequence[ColumnSpec], names: Sequence[str]) -> None:
    """find_version_column_indices (optimizer/mod.rs:1386-1422): each version column is one of
    the table's columns, of a comparable type (not jsonb, variant, a list, a struct, bytea or
    boolean)."""
    by_name = {c.name: c for c in columns}
    for name in names:
        col = by_name.get(name)
        if col is None:
            raise InvalidInputSyntax(f"Version column {name} not found")
        rw_type = col.rw_type.lower()
        if rw_type in _NOT_COMPARABLE or rw_type.endswith("[]") or rw_type.startswith("struct"):
            raise InvalidInputSyntax(f"Version column {name} must be of a comparable data type")


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
