"""A table's or source's definition purified from its catalog columns, as RisingWave shows it
(``try_purify_table_source_create_sql_ast``, src/frontend/src/catalog/purify.rs:52-224, used
by ``create_sql_purified`` for SHOW CREATE TABLE / SOURCE, rw_tables and rw_sources).

The column list is rebuilt from the catalog's user columns (a column typed in the statement
keeps its definition; one that is not, e.g. of ``CREATE TABLE AS``, gets its type's AST,
``DataTypeToAst``, src/frontend/src/utils/data_type.rs), a column with a default shows it as
its last option, the wildcard goes, and a table keyed by user columns shows its key as one
``PRIMARY KEY (...)`` constraint unless a column carries ``PRIMARY KEY``.  ``CREATE TABLE AS``
is stored without a definition, so its purified form starts from an empty ``CREATE TABLE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rwshim.sql.unparse import ddl_display
from rwshim.sql.unparse import display as d
from rwshim.sql.unparse import nodes as n
from rwshim.sql.unparse.cursor import UnparseError, deep

# rwshim's RisingWave type names (rwshim/common/rwtypes.py) -> DataTypeToAst's Display
_AST = {
    "boolean": "BOOLEAN",
    "smallint": "SMALLINT",
    "integer": "INT",
    "bigint": "BIGINT",
    "real": "REAL",
    "double precision": "DOUBLE",
    "numeric": "NUMERIC",
    "date": "DATE",
    "character varying": "CHARACTER VARYING",
    "time without time zone": "TIME",
    "timestamp without time zone": "TIMESTAMP",
    "timestamp with time zone": "TIMESTAMP WITH TIME ZONE",
    "interval": "INTERVAL",
    "jsonb": "JSONB",
    "bytea": "BYTEA",
    "rw_int256": "rw_int256",
}


@dataclass(frozen=True, slots=True)
class Column:
    """A user column of the catalog: its name, RisingWave type name, whether it has a
    default."""

    name: str
    rw_type: str
    has_default: bool = False


def type_ast(rw_type: str) -> n.DataType:
    """DataTypeToAst::to_ast for the types rwshim's columns take."""
    if rw_type.endswith("[]"):
        return n.DataType("array", elem=type_ast(rw_type[:-2]))
    text = _AST.get(rw_type)
    if text is None:
        raise UnparseError(f"no AST for the type {rw_type}")
    return n.DataType("simple", text)


def purify(
    stmt: n.CreateTable | n.CreateSource,
    columns: Sequence[Column],
    primary_key: Sequence[str],
    has_row_id: bool,
) -> None:
    """Purify ``stmt`` in place (purify.rs:84-224)."""
    stmt.wildcard_idx = None
    existing = {c.name.real_value(): c for c in stmt.columns}
    defs: list[n.ColumnDef] = []
    for col in columns:
        cdef = existing.get(col.name) or n.ColumnDef(
            d.from_real_value(col.name), type_ast(col.rw_type)
        )
        if col.has_default:
            defaults = [o for o in cdef.options if o.kind in ("default", "default_internal")]
            if len(defaults) > 1:
                raise UnparseError("multiple default value options found")
            cdef.options = [o for o in cdef.options if o not in defaults]
            expr = defaults[0].expr if defaults else None
            cdef.options.append(n.ColumnOption("default" if expr else "default_internal", expr))
        defs.append(cdef)
    stmt.columns = defs
    has_pk_option = any(o.kind == "primary" for c in defs for o in c.options)
    if not has_pk_option and not has_row_id:
        by_name = {c.name.real_value(): c.name for c in defs}
        idents = [by_name.get(k) or d.from_real_value(k) for k in primary_key]
        stmt.constraints = [f"PRIMARY KEY ({d.comma(idents, d.ident)})"]
        stmt.pk_constraint = idents


def include_column_name(connector: str, item: n.IncludeItem) -> str:
    """The name of an INCLUDE column: its alias, else gen_default_addition_col_name
    (src/connector/src/parser/additional_columns.rs:124-144): ``_rw_<connector>_<kind>``, the
    header's inner field, and the Debug of its bound type lower-cased (``varchar`` for
    CHARACTER VARYING and TEXT, ``bytea``; other types are refused at CREATE).  ``connector``
    is the lower-cased connector name the handler reads (``s3`` read as ``s3_v2``)."""
    if item.alias is not None:
        return item.alias.real_value()
    parts = ["_rw", connector, item.column_type.real_value()]
    if item.inner_field is not None:
        parts.append(item.inner_field)
    if item.header_type is not None:
        shown = d.data_type(item.header_type)
        parts.append("bytea" if shown == "BYTEA" else "varchar" if shown in _VARCHAR else shown)
    return "_".join(parts)


_VARCHAR = ("CHARACTER VARYING", "TEXT")


def include_column_names(stmt: n.CreateTable | n.CreateSource, connector: str | None) -> set[str]:
    """The INCLUDE columns' names of a stored definition (purify.rs leaves them out of the
    column list: they are the connector's, not the user's)."""
    name = (connector or "").lower()
    return {include_column_name("s3_v2" if name == "s3" else name, i) for i in stmt.include}


@deep
def purified_definition(
    stmt: n.CreateTable | n.CreateSource,
    columns: Sequence[Column],
    primary_key: Sequence[str],
    has_row_id: bool,
) -> str:
    """create_sql_purified: the purified statement's normalised text; when purifying fails,
    the definition as stored (the fallback of table_catalog.rs:293-297)."""
    stored = ddl_display.normalized(stmt)
    try:
        purify(stmt, columns, primary_key, has_row_id)
    except UnparseError:
        return stored
    return ddl_display.statement(stmt)


@deep
def table_as_definition(table_name: str, columns: Sequence[Column]) -> str:
    """The purified definition of a ``CREATE TABLE AS`` (stored empty; purify.rs starts from
    ``Statement::default_create_table`` of the catalog name, table_catalog.rs:306-312)."""
    skeleton = n.CreateTable(n.ObjectName([d.from_real_value(table_name)]))
    return purified_definition(skeleton, columns, (), True)
