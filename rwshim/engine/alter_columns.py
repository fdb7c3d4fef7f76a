"""ALTER TABLE ... ADD / DROP / ALTER COLUMN and ALTER SOURCE ... ADD COLUMN: the checks in
RisingWave's order and texts, then the catalog change (columns, ids, the purified definition,
what points at column positions) in one store transaction.  The table's rows follow on the
data plane, which migrates ``rw."t<id>"`` to the new columns when next used
(rwshim/dataplane/plan/ddl.py ``table_migration``).

RisingWave: ``src/frontend/src/handler/alter_table_column.rs`` (handle_alter_table_column,
fetch_table_catalog_for_alter), ``alter_source_column.rs``, ``create_table.rs``
(generate_stream_graph_for_replace_table: ``alter primary key of table is not supported``;
bind_sql_pk_names), ``create_table/col_id_gen.rs`` (column ids never reused; only types
containing a struct change), ``handler/mod.rs`` (check_ban_ddl_for_iceberg_engine_table looks
the table up first), meta's ``stream/stream_graph/fragment.rs:1940-1970`` (a column a
downstream job reads cannot go).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rwshim.common import rwtypes
from rwshim.engine.catalog import Catalog, Rel
from rwshim.engine.kinds import TABLE_NAMESPACE
from rwshim.engine.state import Meta
from rwshim.engine.types import ColumnSpec, Context, ObjectName, Result
from rwshim.errors import (
    BindError,
    CatalogNotFound,
    InternalError,
    InvalidInputSyntax,
    MetaInvalidParameter,
    NotImplementedError_,
    NotSupported,
    RwError,
    Uncategorized,
)
from rwshim.lazy import lazy_module
from rwshim.sql import statements as st
from rwshim.sql.column_names import check_not_reserved
from rwshim.sql.unparse import parse_create
from rwshim.sql.unparse.cursor import UnparseError

if TYPE_CHECKING:
    from rwshim.sql import column_exprs
    from rwshim.sql import columns as sqlcols
    from rwshim.sql.unparse import ddl_display, purify
    from rwshim.sql.unparse import nodes as n
else:
    column_exprs = lazy_module("rwshim.sql.column_exprs")
    sqlcols = lazy_module("rwshim.sql.columns")
    ddl_display = lazy_module("rwshim.sql.unparse.ddl_display")
    purify = lazy_module("rwshim.sql.unparse.purify")
    n = lazy_module("rwshim.sql.unparse.nodes")

ISSUE_6903 = "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/6903"
DOWNSTREAM_READS = (
    "unable to drop the column due to being referenced by downstream materialized views or sinks"
)
# The columns a downstream job's query reads of a relation (None: it does not bind).
ReadsOf = Callable[[int, int], frozenset[str] | None]
# (columns as (name, RisingWave type, OID), watermark column, expression): raises when the
# expression does not return the column's type (the frontend binds it: create_source.rs:680-706)
WatermarkCheck = Callable[[list[tuple[str, str, int]], str, str], None]


@dataclass(frozen=True, slots=True)
class _Col:
    position: int
    column_id: int
    name: str
    type_oid: int
    rw_type: str
    hidden: bool
    generated: str | None


def written(name: ObjectName | st.ObjectName) -> str:
    """An ObjectName's Display as the statement wrote it (folded parts)."""
    if isinstance(name, st.ObjectName):
        return ".".join(name.parts)
    return name.name if name.schema is None else f"{name.schema}.{name.name}"


def _column_def(text: str) -> n.ColumnDef:
    """A column definition as RisingWave's parser reads it."""
    try:
        stmt = parse_create(f"CREATE TABLE t ({text})")
    except UnparseError:
        # A definition RisingWave's parser refuses (a reserved word as its type, such as
        # `ADD ADD COLUMN b int`: parser_v2/mod.rs identifier_non_reserved) that the front
        # end's reading let through: answered as CREATE TABLE answers the same column list
        # (its binder's refusal), never as an internal error.
        _bound(text)
        raise
    assert isinstance(stmt, n.CreateTable)
    if len(stmt.columns) != 1 or stmt.constraints or stmt.watermarks:
        raise InternalError(f"not one column definition: {text}")
    return stmt.columns[0]


def _bound(text: str) -> tuple[ColumnSpec, sqlcols.ColumnDef]:
    """bind_sql_columns of one column definition."""
    schema = sqlcols.table_schema(f"({text})")
    c = schema.columns[0]
    oid, rw = rwtypes.bind_column_type(c.type_name, c.type_text, c.array_dims)
    spec = ColumnSpec(c.name, oid, rw, is_nullable=not c.not_null, default_expr=c.default)
    return spec, c


def reads_column(expression: str, column: str) -> bool:
    """Whether a column expression (a generated column's) names ``column``."""
    return bool(column_exprs.column_refs(expression, [column]))


def _has(cdef: n.ColumnDef, kind: str) -> bool:
    return any(o.kind == kind for o in cdef.options)


class AlterColumns:
    """Column changes of tables and sources."""

    def __init__(self, meta: Meta, catalog: Catalog) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.catalog = catalog

    # ------------------------------------------------------------------ look-ups

    def _table(self, ctx: Context, name: ObjectName, shown: str) -> Rel:
        """check_ban_ddl_for_iceberg_engine_table's look-up (any table catalog), then
        fetch_table_catalog_for_alter: a created table the user may alter."""
        rel = self.catalog.lookup(ctx, name, TABLE_NAMESPACE)
        if rel is None or rel.status not in (None, "CREATED"):
            raise CatalogNotFound("table", name.name)
        if rel.kind != "table":
            raise InvalidInputSyntax(f'"{shown}" is not a table or cannot be altered')
        self.catalog.check_drop_alter(ctx, rel)
        return rel

    def _columns(self, relation_id: int) -> list[_Col]:
        return [
            _Col(int(r[0]), int(r[1]), str(r[2]), int(r[3]), str(r[4]), bool(r[5]), r[6])
            for r in self.conn.execute(
                "SELECT position, column_id, name, type_oid, rw_type, is_hidden, generated_expr"
                " FROM relation_column WHERE relation_id = ? ORDER BY position",
                (relation_id,),
            )
        ]

    def _key(self, relation_id: int) -> list[str]:
        return [
            str(r[0])
            for r in self.conn.execute(
                "SELECT name FROM relation_column WHERE relation_id = ? AND pk_position IS NOT"
                " NULL ORDER BY pk_position",
                (relation_id,),
            )
        ]

    def _definition(self, rel: Rel) -> n.CreateTable | n.CreateSource:
        try:
            node = parse_create(rel.definition)
        except UnparseError as e:
            raise InternalError(f"the definition of {rel.name} does not parse: {e}") from None
        assert isinstance(node, (n.CreateTable, n.CreateSource))
        return node

    # ------------------------------------------------------------------ ALTER TABLE

    def alter_table_column(
        self,
        ctx: Context,
        stmt: st.AlterColumn,
        name: ObjectName,
        reads_of: ReadsOf,
        check_watermark: WatermarkCheck | None = None,
    ) -> Result:
        """handle_alter_table_column (and the ADD CONSTRAINT RisingWave has no handler for)."""
        shown = written(stmt.name)
        if stmt.action == "ADD CONSTRAINT":
            # mod.rs:1012-1020: parsed, no handler, once check_ban_ddl_for_iceberg_engine_table
            # found the table catalog (any kind)
            found = self.catalog.lookup(ctx, name, TABLE_NAMESPACE)
            if found is None or found.status not in (None, "CREATED"):
                raise CatalogNotFound("table", name.name)
            node = parse_create(f"CREATE TABLE t (x INT, {stmt.column_def})")
            assert isinstance(node, n.CreateTable)
            text = f"ALTER TABLE {shown} ADD {node.constraints[0]}"
            raise NotImplementedError_(f"Unhandled statement: {text}")
        rel = self._table(ctx, name, shown)
        if rel.connector == "webhook":
            if stmt.action == "ALTER WATERMARK":  # alter_watermark.rs:40-45
                raise BindError("ALTER WATERMARK on a table with webhook has not been implemented.")
            raise BindError(
                "Adding/dropping a column of a table with webhook has not been implemented."
            )
        node = self._definition(rel)
        assert isinstance(node, n.CreateTable)
        if stmt.action == "DROP" and self.meta.q1(
            "SELECT 1 FROM relation WHERE kind = 'sink' AND target_table_id = ?", (rel.id,)
        ):
            raise InvalidInputSyntax("dropping columns in target table of sinks is not supported")
        cols = self._columns(rel.id)
        if stmt.action == "ALTER WATERMARK":
            return self._watermark(rel, node, stmt, shown, cols, check_watermark)
        if stmt.action == "ADD":
            return self._add(rel, node, cols, stmt, shown)
        if stmt.action == "DROP":
            return self._drop(rel, node, cols, stmt, shown, reads_of)
        return self._alter(rel, node, cols, stmt, shown)

    def _add(
        self,
        rel: Rel,
        node: n.CreateTable,
        cols: list[_Col],
        stmt: st.AlterColumn,
        shown: str,
    ) -> Result:
        if any(c.name.real_value() == stmt.column for c in node.columns):
            raise InvalidInputSyntax(f'column "{stmt.column}" of table "{shown}" already exists')
        cdef = _column_def(stmt.column_def)
        if _has(cdef, "generated"):
            raise InvalidInputSyntax("alter table add generated columns is not supported")
        if _has(cdef, "not_null") and not _has(cdef, "default"):
            raise InvalidInputSyntax("alter table add NOT NULL columns must have default value")
        check_not_reserved(stmt.column)  # catalog/mod.rs:66-90, as bind_sql_columns
        spec, _ = _bound(stmt.column_def)
        if node.cdc is not None and rwtypes.contains_variant(spec.rw_type):
            # the replace plan binds a CDC table's columns again (create_table.rs:1648-1653)
            raise rwtypes.variant_column_refusal(spec.name, "on a table created from a CDC source")
        node.columns.append(cdef)
        self._check_key(rel, node)
        position = len(node.columns) - 1
        with self.store.transaction():
            self._keep_horizons(rel.id, max((c.column_id for c in cols), default=0))
            self._insert_column(rel.id, position, spec)
            self._set_definition(rel, node)
        return Result()

    def _keep_horizons(self, relation_id: int, largest: int) -> None:
        """The materialized views reading the table or source (directly or through views, which
        RisingWave plans inline) keep reading the columns they were planned with."""
        seen: set[int] = set()
        todo = [relation_id]
        while todo:
            for rid, kind, horizon in self.conn.execute(
                "SELECT r.relation_id, r.kind, r.column_horizon FROM dependency d JOIN relation r"
                " ON r.relation_id = d.dependent_id WHERE d.referenced_id = ?",
                (todo.pop(),),
            ).fetchall():
                if rid in seen:
                    continue
                seen.add(rid)
                if kind == "view":
                    todo.append(int(rid))
                elif kind == "materialized view":
                    cut = json.loads(horizon or "{}")
                    cut.setdefault(str(relation_id), largest)
                    self.conn.execute(
                        "UPDATE relation SET column_horizon = ? WHERE relation_id = ?",
                        (json.dumps(cut, sort_keys=True), rid),
                    )

    def _check_key(self, rel: Rel, node: n.CreateTable) -> None:
        """bind_sql_pk_names on the new definition, then generate_stream_graph_for_replace_table's
        ``alter primary key of table is not supported`` (create_table.rs:2429-2433)."""
        defs = sum(1 for c in node.columns if _has(c, "primary")) + (
            1 if node.pk_constraint is not None else 0
        )
        if defs > 1:
            raise BindError("multiple primary keys are not allowed")
        names = {c.name.real_value() for c in node.columns}
        if node.pk_constraint is not None:
            key = [i.real_value() for i in node.pk_constraint]
        else:
            key = [c.name.real_value() for c in node.columns if _has(c, "primary")]
        for k in key:
            if k not in names:
                raise BindError(f'column "{k}" named in key does not exist')
        old = self._key(rel.id)
        if old == ["_row_id"]:
            old = []
        if key != old:
            raise InvalidInputSyntax("alter primary key of table is not supported")

    def _drop(
        self,
        rel: Rel,
        node: n.CreateTable,
        cols: list[_Col],
        stmt: st.AlterColumn,
        shown: str,
        reads_of: ReadsOf,
    ) -> Result:
        if stmt.cascade:
            raise NotImplementedError_("drop column cascade", ISSUE_6903)
        for c in cols:
            if c.generated is not None and reads_column(c.generated, stmt.column):
                raise Uncategorized(
                    f'failed to drop column "{stmt.written}" because it\'s referenced by a '
                    f'generated column "{c.name}"'
                )
        kept = [c for c in node.columns if c.name.real_value() != stmt.column]
        if len(kept) == len(node.columns):
            if stmt.if_exists:
                return Result([f'column "{stmt.column}" does not exist, skipping'])
            raise InvalidInputSyntax(f'column "{stmt.column}" of table "{shown}" does not exist')
        node.columns = kept
        self._check_key(rel, node)
        gone = next(c for c in cols if c.name == stmt.column and not c.hidden)
        if self._read_downstream(rel, gone, reads_of):
            raise MetaInvalidParameter(DOWNSTREAM_READS)
        with self.store.transaction():
            self._delete_column(rel.id, gone.position)
            self._set_definition(rel, node)
        return Result()

    def _read_downstream(self, rel: Rel, gone: _Col, reads_of: ReadsOf) -> bool:
        """Whether a job downstream of the table (a materialized view, sink or index) reads
        the column (meta, fragment.rs:1940-1970: its scan's upstream columns)."""
        rows = self.conn.execute(
            "SELECT r.relation_id, r.kind, r.index_key_columns, r.index_include_columns"
            " FROM dependency d JOIN relation r ON r.relation_id = d.dependent_id"
            " WHERE d.referenced_id = ? AND r.kind IN ('materialized view', 'sink', 'index')",
            (rel.id,),
        ).fetchall()
        for rid, kind, keys, include in rows:
            if kind == "index":
                positions = json.loads(keys or "[]") + json.loads(include or "[]")
                if gone.position in positions:
                    return True
                continue
            reads = reads_of(int(rid), rel.id)
            if reads is None or gone.name in reads:
                return True
        return False

    def _alter(
        self,
        rel: Rel,
        node: n.CreateTable,
        cols: list[_Col],
        stmt: st.AlterColumn,
        shown: str,
    ) -> Result:
        if stmt.alter != "SET DATA TYPE" or stmt.using:
            raise NotImplementedError_(alter_column_display(stmt), ISSUE_6903)
        target = next((c for c in node.columns if c.name.real_value() == stmt.column), None)
        if target is None:
            raise InvalidInputSyntax(f'column "{stmt.column}" of table "{shown}" does not exist')
        new_type = _column_def(f"x {stmt.argument}").data_type
        spec, _ = _bound(f"x {stmt.argument}")
        current = next(c for c in cols if c.name == stmt.column and not c.hidden)
        if (spec.type_oid, spec.rw_type) != (current.type_oid, current.rw_type):
            if not _contains_struct(current.rw_type):
                raise Uncategorized(
                    f'column "{stmt.column}" cannot be altered; only types containing struct '
                    "can be altered"
                )
            raise RwError(
                "rwshim does not emulate changing the fields of a struct column "
                "(ALTER TABLE ... ALTER COLUMN ... TYPE of a type containing a struct)"
            )
        target.data_type = new_type
        with self.store.transaction():
            self._set_definition(rel, node)
        return Result()

    def _watermark(
        self,
        rel: Rel,
        node: n.CreateTable,
        stmt: st.AlterColumn,
        shown: str,
        cols: list[_Col],
        check: WatermarkCheck | None,
    ) -> Result:
        """handle_alter_watermark (alter_watermark.rs:33-90): the watermark's expression
        changes; the column, TTL and so the state schema stay."""
        mark = next((w for w in node.watermarks if w.column.real_value() == stmt.column), None)
        if mark is None:
            raise InvalidInputSyntax(
                f'no watermark defined on column "{stmt.column}" of table "{shown}"'
            )
        if mark.with_ttl != stmt.with_ttl:
            raise NotSupported(
                "toggling WITH TTL via ALTER WATERMARK is not supported",
                "drop and recreate the table",
            )
        if (
            check is not None
        ):  # the binder's type check (alter_watermark.rs -> bind_source_watermark)
            visible = [(c.name, c.rw_type, c.type_oid) for c in cols if not c.hidden]
            check(visible, stmt.column, stmt.argument)
        parsed = parse_create(f"CREATE TABLE t (x INT, WATERMARK FOR x AS {stmt.argument})")
        assert isinstance(parsed, n.CreateTable) and len(parsed.watermarks) == 1
        mark.expr = parsed.watermarks[0].expr
        with self.store.transaction():
            self._set_definition(rel, node)
        return Result()

    # ------------------------------------------------------------------ ALTER SOURCE

    def alter_source_column(self, ctx: Context, stmt: st.AlterColumn, name: ObjectName) -> Result:
        """handle_alter_source_column (alter_source_column.rs:31-128)."""
        rel = self.catalog.lookup(ctx, name, ("source",))
        if rel is None:
            table = self.catalog.lookup(ctx, name, ("table",))
            if table is not None and table.connector is not None:
                rel = table
        if rel is None:
            raise CatalogNotFound("source", name.name)
        self.catalog.check_drop_alter(ctx, rel)
        if rel.kind == "table":
            raise NotSupported(
                "alter table with connector with ALTER SOURCE statement",
                "try to use ALTER TABLE instead",
            )
        row = self.meta.q1(
            "SELECT row_encode, format_encode_options FROM relation WHERE relation_id = ?",
            (rel.id,),
        )
        assert row is not None
        encode = (row[0] or "NONE").upper()
        options = json.loads(row[1] or "{}")
        registry = any(k.startswith("schema.registry") for k in options)
        if encode in ("AVRO", "PROTOBUF") or (encode == "JSON" and registry):
            raise NotSupported(
                "alter source with schema registry",
                "try `ALTER SOURCE .. FORMAT .. ENCODE .. (...)` instead",
            )
        if encode not in ("JSON", "CSV", "BYTES", "PARQUET"):
            raise NotSupported(
                f"alter source with encode {encode.capitalize()}",
                "Only source with encode JSON | BYTES | CSV | PARQUET can be altered",
            )
        cols = self._columns(rel.id)
        if any(c.name == stmt.column for c in cols):
            raise InvalidInputSyntax(
                f'column "{stmt.column}" of source "{written(stmt.name)}" already exists'
            )
        check_not_reserved(stmt.column)  # catalog/mod.rs:66-90, as bind_sql_columns
        spec, _ = _bound(stmt.column_def)
        if encode != "PARQUET" and rwtypes.contains_variant(spec.rw_type):
            # alter_source_column.rs:103-111 (head): only PARQUET reads a variant
            raise rwtypes.variant_column_refusal(spec.name, "for this source encoding")
        node = self._definition(rel)
        node.columns.append(_column_def(stmt.column_def))
        with self.store.transaction():
            self._keep_horizons(rel.id, max((c.column_id for c in cols), default=0))
            # max_column_id(columns).next(): a source has no version of its own
            self._insert_column(rel.id, len(cols), spec, reuse_ids=True)
            self._set_definition(rel, node)
        return Result()

    # ------------------------------------------------------------------ catalog writes

    def _insert_column(
        self, relation_id: int, position: int, spec: ColumnSpec, reuse_ids: bool = False
    ) -> None:
        """The column at ``position``: the later ones, their comments (objsubid =
        position + 1) and the index positions naming them move one on."""
        row = self.meta.q1(
            "SELECT r.next_column_id, (SELECT max(column_id) FROM relation_column c"
            " WHERE c.relation_id = r.relation_id) FROM relation r WHERE r.relation_id = ?",
            (relation_id,),
        )
        assert row is not None
        column_id = int(row[1] or 0) + 1
        if row[0] is not None and not reuse_ids:
            column_id = max(column_id, int(row[0]))
        self._shift(relation_id, position, +1)
        self.conn.execute(
            "INSERT INTO relation_column(relation_id, position, column_id, name, type_oid,"
            " rw_type, is_hidden, is_nullable, pk_position, default_expr, generated_expr,"
            " pk_desc, pk_nulls_smallest) VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, ?, NULL, 0, 0)",
            (
                relation_id,
                position,
                column_id,
                spec.name,
                spec.type_oid,
                spec.rw_type,
                int(spec.is_nullable),
                spec.default_expr,
            ),
        )
        self.conn.execute(
            "UPDATE relation SET next_column_id = ? WHERE relation_id = ?",
            (column_id + 1, relation_id),
        )

    def _delete_column(self, relation_id: int, position: int) -> None:
        self.conn.execute(
            "DELETE FROM relation_column WHERE relation_id = ? AND position = ?",
            (relation_id, position),
        )
        self.conn.execute(
            "DELETE FROM comment WHERE object_id = ? AND objsubid = ?", (relation_id, position + 1)
        )
        row = self.meta.q1(
            "SELECT r.next_column_id, (SELECT max(column_id) FROM relation_column c"
            " WHERE c.relation_id = r.relation_id) FROM relation r WHERE r.relation_id = ?",
            (relation_id,),
        )
        assert row is not None
        if row[0] is None:
            # the dropped column's id is not handed out again (col_id_gen.rs)
            gone = self.meta.val(
                "SELECT coalesce(max(column_id), 0) FROM relation_column WHERE relation_id = ?",
                (relation_id,),
            )
            self.conn.execute(
                "UPDATE relation SET next_column_id = ? WHERE relation_id = ?",
                (max(int(gone or 0), int(row[1] or 0)) + 2, relation_id),
            )
        self._shift(relation_id, position + 1, -1)

    def _shift(self, relation_id: int, start: int, by: int) -> None:
        """Columns at ``start`` and after move ``by`` places (two steps: (relation_id,
        position) is unique at every row of an UPDATE)."""
        self.conn.execute(
            "UPDATE relation_column SET position = -position - 1 - ? WHERE relation_id = ?"
            " AND position >= ?",
            (by, relation_id, start),
        )
        self.conn.execute(
            "UPDATE relation_column SET position = -position - 1 WHERE relation_id = ?"
            " AND position < 0",
            (relation_id,),
        )
        self.conn.execute(
            "UPDATE comment SET objsubid = -(objsubid + ?) WHERE object_id = ? AND objsubid > ?",
            (by, relation_id, start),
        )
        self.conn.execute(
            "UPDATE comment SET objsubid = -objsubid WHERE object_id = ? AND objsubid < 0",
            (relation_id,),
        )
        for rid, keys, include in self.conn.execute(
            "SELECT relation_id, index_key_columns, index_include_columns FROM relation"
            " WHERE kind = 'index' AND primary_table_id = ?",
            (relation_id,),
        ).fetchall():
            moved = [
                json.dumps([p + by if p >= start else p for p in json.loads(v or "[]")])
                for v in (keys, include)
            ]
            self.conn.execute(
                "UPDATE relation SET index_key_columns = ?, index_include_columns = ?"
                " WHERE relation_id = ?",
                (*moved, rid),
            )

    def _set_definition(self, rel: Rel, node: n.CreateTable | n.CreateSource) -> None:
        """The definition purified from the new columns (create_sql_purified, purify.rs)."""
        included = purify.include_column_names(node, rel.connector)
        user = [
            purify.Column(str(r[0]), str(r[1]), r[2] is not None)
            for r in self.conn.execute(
                "SELECT name, rw_type, default_expr FROM relation_column WHERE relation_id = ?"
                " AND is_hidden = 0 ORDER BY position",
                (rel.id,),
            )
            if str(r[0]) not in included
        ]
        key = [k for k in self._key(rel.id) if k != "_row_id"]
        has_row_id = not key
        try:
            purify.purify(node, user, key, has_row_id)
        except UnparseError as e:
            raise InternalError(f"the definition of {rel.name} does not purify: {e}") from None
        self.conn.execute(
            "UPDATE relation SET definition = ? WHERE relation_id = ?",
            (ddl_display.statement(node), rel.id),
        )


def _contains_struct(rw_type: str) -> bool:
    return "struct" in rw_type


def alter_column_display(stmt: st.AlterColumn) -> str:
    """AlterColumnOperation's Display (ast/ddl.rs:910-930)."""
    if stmt.alter == "SET DEFAULT":
        return f"SET DEFAULT {_expr_display(stmt.argument)}"
    if stmt.alter == "SET DATA TYPE":
        shown = ddl_display.column_def(_column_def(f"x {stmt.argument}"))[2:]
        if stmt.using:
            return f"SET DATA TYPE {shown} USING {_expr_display(stmt.using)}"
        return f"SET DATA TYPE {shown}"
    return stmt.alter


def _expr_display(text: str) -> str:
    """An expression as RisingWave prints it (a DEFAULT option's Display)."""
    cdef = _column_def(f"x INT DEFAULT {text}")
    shown = ddl_display.column_def(cdef)
    return shown.split(" DEFAULT ", 1)[1]
