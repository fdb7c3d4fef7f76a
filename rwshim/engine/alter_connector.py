"""ALTER TABLE ... DROP CONNECTOR | REFRESH SCHEMA and ALTER SOURCE ... REFRESH SCHEMA | FORMAT
... ENCODE ... | RESET: the look-ups and refusals in RisingWave's order and texts, and what
rwshim can do without the external systems (a table without its connector; a CDC source's
offsets, which rwshim does not keep).  A schema registry is never reached: the forms that
would read one are refused saying so.

RisingWave: ``src/frontend/src/handler/alter_table_drop_connector.rs``,
``alter_table_with_sr.rs`` (handle_refresh_schema), ``alter_source_with_sr.rs``
(handle_alter_source_with_sr, check_format_encode, handler_refresh_schema),
``reset_source.rs``, ``create_source/external_schema.rs`` (schema_has_schema_registry).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rwshim.engine.catalog import Catalog, Rel
from rwshim.engine.kinds import TABLE_NAMESPACE
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.errors import (
    CatalogNotFound,
    HandlerPanicked,
    InternalError,
    InvalidInputSyntax,
    NotImplementedError_,
    NotSupported,
    ProtocolError,
    RwError,
)
from rwshim.lazy import lazy_module
from rwshim.sql import statements as st
from rwshim.sql.unparse import parse_create
from rwshim.sql.unparse.cursor import UnparseError

if TYPE_CHECKING:
    from rwshim.sql.unparse import ddl_display
    from rwshim.sql.unparse import display as d
    from rwshim.sql.unparse import nodes as n
else:
    ddl_display = lazy_module("rwshim.sql.unparse.ddl_display")
    d = lazy_module("rwshim.sql.unparse.display")
    n = lazy_module("rwshim.sql.unparse.nodes")

# the WITH options a table keeps without its connector (alter_table_drop_connector.rs:34-35)
_TABLE_PROPS = frozenset(("commit_checkpoint_interval", "retention_seconds"))
# Debug of the parser's Format / Encode (ast/statement.rs), by their keywords
_FORMAT = {
    "NATIVE": "Native", "NONE": "None", "DEBEZIUM": "Debezium",
    "DEBEZIUM_MONGO": "DebeziumMongo", "MAXWELL": "Maxwell", "CANAL": "Canal",
    "UPSERT": "Upsert", "PLAIN": "Plain",
}  # fmt: skip
_ENCODE = {
    "AVRO": "Avro", "CSV": "Csv", "PROTOBUF": "Protobuf", "JSON": "Json", "BYTES": "Bytes",
    "NATIVE": "Native", "TEMPLATE": "Template", "PARQUET": "Parquet", "NONE": "None",
    "TEXT": "Text",
}  # fmt: skip
NO_REGISTRY = (
    "rwshim reaches no schema registry: reading a source's or table's schema from one "
    "(REFRESH SCHEMA, FORMAT ... ENCODE ... with a registry) is not emulated"
)


def _native() -> n.FormatEncode:
    """FORMAT NATIVE ENCODE NATIVE (built on use: the syntax tree's classes load lazily)."""
    return n.FormatEncode("NATIVE", "NATIVE")


def has_schema_registry(fmt: n.FormatEncode) -> bool:
    """schema_has_schema_registry (external_schema.rs:466-475)."""
    if fmt.encode in ("AVRO", "PROTOBUF"):
        return True
    if fmt.encode == "JSON":
        keys = {d.object_name(o.name) for o in fmt.options}
        return bool(keys & {"schema.location", "schema.registry"})
    return False


def _format_encode(text: str) -> n.FormatEncode:
    """FORMAT ... ENCODE ... [(...)] as RisingWave's parser reads it."""
    node = parse_create(f"CREATE SOURCE s (a INT) WITH (connector = 'x') FORMAT {text}")
    assert isinstance(node, n.CreateSource) and node.format_encode is not None
    return node.format_encode


class AlterConnector:
    """Connector-level ALTERs of tables and sources."""

    def __init__(self, meta: Meta, catalog: Catalog) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog

    def alter(self, ctx: Context, stmt: st.AlterConnector, name: ObjectName) -> Result:
        if stmt.kind == "TABLE" and stmt.operation == "DROP CONNECTOR":
            return self._drop_connector(ctx, name)
        if stmt.kind == "TABLE":
            return self._refresh_table(ctx, name, ".".join(stmt.name.parts))
        source = self._source(ctx, name)
        if stmt.operation == "RESET":
            return self._reset(source)
        definition = self._parsed(source)
        if not isinstance(definition, n.CreateSource):
            if stmt.operation == "REFRESH SCHEMA":
                # get_format_encode_from_source's `unreachable!()` on a table's source
                # (alter_source_with_sr.rs:170-180): pgwire reports the panic
                raise HandlerPanicked("internal error: entered unreachable code")
            return self._alter_with_sr(source, n.CreateSource(n.ObjectName([])), _native())
        if stmt.operation == "REFRESH SCHEMA":
            fmt = definition.format_encode
            if fmt is None:
                fmt = _native()  # into_v2_with_warning of none
        else:
            fmt = _format_encode(stmt.format_encode)
        return self._alter_with_sr(source, definition, fmt)

    # ------------------------------------------------------------------ look-ups

    def _source(self, ctx: Context, name: ObjectName) -> Rel:
        """fetch_source_catalog_with_db_schema_id; a table with connector's source is found
        by the table's name (rwshim keeps one catalog row for both)."""
        rel = self.catalog.lookup(ctx, name, ("source",))
        if rel is None:
            table = self.catalog.lookup(ctx, name, ("table",))
            if table is not None and table.connector is not None:
                rel = table
        if rel is None:
            raise CatalogNotFound("source", name.name)
        self.catalog.check_drop_alter(ctx, rel)
        return rel

    def _parsed(self, rel: Rel) -> n.CreateTable | n.CreateSource:
        try:
            node = parse_create(rel.definition)
        except UnparseError as e:
            raise InternalError(f"the definition of {rel.name} does not parse: {e}") from None
        assert isinstance(node, (n.CreateTable, n.CreateSource))
        return node

    # ------------------------------------------------------------------ tables

    def _drop_connector(self, ctx: Context, name: ObjectName) -> Result:
        """handle_alter_table_drop_connector: the table keeps its columns and rows and loses
        its connector, FORMAT ... ENCODE, watermarks and the WITH options of the connector."""
        rel = self.catalog.lookup(ctx, name, TABLE_NAMESPACE)
        if rel is None:
            raise CatalogNotFound("table", name.name)
        self.catalog.check_drop_alter(ctx, rel)
        if rel.kind != "table" or rel.connector is None:
            raise ProtocolError(f"Table {name.name} is not associated with a connector")
        node = self._parsed(rel)
        assert isinstance(node, n.CreateTable)
        if node.include:
            self._include_as_columns(rel, node)
        node.with_options = [
            o for o in node.with_options if d.object_name(o.name).lower() in _TABLE_PROPS
        ]
        node.format_encode = None
        node.watermarks = []
        options = {
            k: v
            for k, v in json.loads(
                str(
                    self.meta.val(
                        "SELECT with_options FROM relation WHERE relation_id = ?", (rel.id,)
                    )
                    or "{}"
                )
            ).items()
            if k.lower() in _TABLE_PROPS
        }
        # the associated source is dropped with the connector
        # (drop_table_associated_source, controller/streaming_job.rs:2040-2045)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE relation SET connector = NULL, format = NULL, row_encode = NULL,"
                " with_options = ?, format_encode_options = '{}', secret_refs = '{}',"
                " connection_id = NULL, definition = ?, primary_table_id = NULL"
                " WHERE relation_id = ?",
                (json.dumps(options, sort_keys=True), ddl_display.statement(node), rel.id),
            )
        return Result()

    def _include_as_columns(self, rel: Rel, node: n.CreateTable) -> None:
        """rewrite_table_definition (alter_table_drop_connector.rs:67-125): each INCLUDE
        column, in catalog order, becomes a plain column definition (its name as an unquoted
        identifier, its type's AST) and the INCLUDE clauses go."""
        from rwshim.sql.unparse import purify

        types = dict(
            self.conn.execute(
                "SELECT name, rw_type FROM relation_column WHERE relation_id = ?", (rel.id,)
            ).fetchall()
        )
        connector = (rel.connector or "").lower()
        for item in reversed(node.include):
            name = purify.include_column_name("s3_v2" if connector == "s3" else connector, item)
            if name not in types:
                continue
            try:
                dt = purify.type_ast(str(types[name]))
            except UnparseError:
                raise RwError(
                    f"rwshim cannot show the type {types[name]} of the INCLUDE column {name} "
                    "in a definition: DROP CONNECTOR of this table is not emulated"
                ) from None
            node.columns.append(n.ColumnDef(n.Ident(name), dt))
        node.include = []

    def _refresh_table(self, ctx: Context, name: ObjectName, shown: str) -> Result:
        """handle_refresh_schema (alter_table_with_sr.rs:36-65)."""
        rel = self.catalog.lookup(ctx, name, TABLE_NAMESPACE)
        if rel is None or rel.status not in (None, "CREATED"):
            raise CatalogNotFound("table", name.name)
        if rel.kind != "table":
            raise InvalidInputSyntax(f'"{shown}" is not a table or cannot be altered')
        self.catalog.check_drop_alter(ctx, rel)
        if self.meta.q1(
            "SELECT 1 FROM relation WHERE kind = 'sink' AND target_table_id = ?", (rel.id,)
        ):
            raise NotImplementedError_("alter table with incoming sinks")
        node = self._parsed(rel)
        if node.format_encode is None or not has_schema_registry(node.format_encode):
            raise NotSupported(
                "tables without schema registry cannot be refreshed",
                "try `ALTER TABLE .. ADD/DROP COLUMN ...` instead",
            )
        raise RwError(NO_REGISTRY)

    # ------------------------------------------------------------------ sources

    def _alter_with_sr(self, rel: Rel, node: n.CreateSource, fmt: n.FormatEncode) -> Result:
        """handle_alter_source_with_sr (alter_source_with_sr.rs:183-265)."""
        if rel.kind == "table":
            raise NotSupported(
                "alter table with connector using ALTER SOURCE statement",
                "try to use ALTER TABLE instead",
            )
        old = node.format_encode
        if old is None:
            raise NotSupported(
                "altering a legacy source which is not created using `FORMAT .. ENCODE ..` Clause",
                "try this feature by creating a fresh source",
            )
        if (fmt.format, fmt.encode) != (old.format, old.encode):
            raise NotImplementedError_(
                f"the original definition is FORMAT {_FORMAT.get(old.format, old.format)} "
                f"ENCODE {_ENCODE.get(old.encode, old.encode)}, and altering them is not "
                "supported yet"
            )
        if not has_schema_registry(fmt):
            raise NotSupported(
                "altering a source without schema registry",
                "try `ALTER SOURCE .. ADD COLUMN ...` instead",
            )
        if (rel.connector or "").endswith("-cdc"):
            raise NotImplementedError_("altering a cdc source is not supported")
        raise RwError(NO_REGISTRY)

    def _reset(self, rel: Rel) -> Result:
        """handle_reset_source (reset_source.rs:27-60): CDC sources only; rwshim keeps no
        offsets, so there is nothing to reset."""
        if rel.kind == "table":
            raise NotSupported(
                "reset CDC table using RESET SOURCE statement", "try to use RESET TABLE instead"
            )
        if not (rel.connector or "").endswith("-cdc"):
            raise NotSupported(
                "RESET SOURCE only supports CDC sources",
                "This operation is only for CDC sources when offset has expired",
            )
        return Result()
