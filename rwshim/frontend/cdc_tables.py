"""CDC: the debezium columns of a shared CDC source, and the rules of a table created on
one (``CREATE TABLE ... FROM <source> TABLE '<name>'``) that need no upstream database.

RisingWave at 448c657: ``src/frontend/src/handler/create_source.rs`` (bind_all_columns with
SqlColumnStrategy::FollowChecked), ``src/common/src/catalog/column.rs``
(debezium_cdc_source_cols), ``src/frontend/src/handler/create_table.rs``
(handle_create_table_plan's CDC arm, sanity_check_for_table_on_cdc_source,
generated_columns_check_for_cdc_table, not_null_check_for_cdc_table,
derive_with_options_for_cdc_table, parse_postgres_cdc_external_table_name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rwshim.common import pgtypes
from rwshim.common.names import postgres_cdc_table_name
from rwshim.engine import ColumnSpec
from rwshim.errors import NotSupported, ProtocolError, RwError
from rwshim.frontend.include_columns import connector_of
from rwshim.sql.unparse import nodes as n


def has_option(c: n.ColumnDef, kind: str) -> bool:
    """Whether a column definition carries an option of ``kind`` (nodes.ColumnOption)."""
    return any(o.kind == kind for o in c.options)


def sql_pk_names(node: n.CreateTable | n.CreateSource) -> list[str]:
    """bind_sql_pk_names (create_table.rs:385-403): a PRIMARY KEY constraint's columns and
    the columns marked PRIMARY KEY."""
    pk = [i.real_value() for i in node.pk_constraint or []]
    pk += [c.name.real_value() for c in node.columns if has_option(c, "primary")]
    return pk


_DEBEZIUM_COLUMNS = (
    ColumnSpec("payload", pgtypes.JSONB, "jsonb"),
    ColumnSpec("_rw_offset", pgtypes.VARCHAR, "character varying", is_hidden=True),
    ColumnSpec("_rw_table_name", pgtypes.VARCHAR, "character varying", is_hidden=True),
)
_NO_COLUMNS_NOTICE = (
    'Neither wildcard ("*") nor regular (non-generated) columns appear in the user-defined '
    "schema from SQL. For backward compatibility, all columns from the source will be "
    'included at the beginning. For clarity, consider adding a wildcard ("*") to indicate '
    "where the columns from the source should be included, or specifying the columns you want "
    "to include from the source.\n" + " " * 24
)


def cdc_source_columns(
    node: n.CreateTable | n.CreateSource, columns: Sequence[ColumnSpec], notices: list[str]
) -> list[ColumnSpec]:
    """bind_all_columns with the columns of a shared CDC source (create_source.rs:233-338,
    SqlColumnStrategy::FollowChecked)."""
    generated = {c.name.real_value() for c in node.columns if has_option(c, "generated")}
    gen_cols = [c for c in columns if c.name in generated]
    if len(gen_cols) != len(columns):
        if node.wildcard_idx is not None:
            raise NotSupported(
                'When there\'s a wildcard ("*"), only generated columns are allowed in '
                "user-defined schema from SQL",
                "Remove the non-generated columns",
            )
        by_name = {c.name: c for c in _DEBEZIUM_COLUMNS}
        for col in columns:
            if col.name in generated:
                continue
            found = by_name.get(col.name)
            if found is None:
                raise ProtocolError(
                    f'Column "{col.name}" is defined in SQL but not found in the source'
                )
            if found.rw_type != col.rw_type:
                raise ProtocolError(
                    f'Data type mismatch for column "{col.name}". Defined in SQL as '
                    f'"{col.rw_type}", but found in the source as "{found.rw_type}"'
                )
        return list(columns)
    if node.wildcard_idx is None:
        notices.append(_NO_COLUMNS_NOTICE)
    at = min(node.wildcard_idx or 0, len(gen_cols))
    return [*gen_cols[:at], *_DEBEZIUM_COLUMNS, *gen_cols[at:]]


# --- create_table.rs: tables on a shared CDC source ---------------------------------------


def check_cdc_column_defs(columns: Sequence[n.ColumnDef], wildcard_idx: int | None) -> None:
    """generated_columns_check_for_cdc_table and not_null_check_for_cdc_table
    (create_table.rs:1506-1552)."""
    found_generated = False
    for c in columns:
        if has_option(c, "generated"):
            found_generated = True
        elif found_generated:
            raise NotSupported(
                "Non-generated column found after a generated column.",
                "Ensure that all generated columns appear at the end of the cdc table definition.",
            )
    if wildcard_idx is None and any(has_option(c, "not_null") for c in columns):
        raise NotSupported(
            "CDC table with NOT NULL constraint is not supported",
            "Please remove the NOT NULL constraint for columns",
        )


def check_table_on_cdc_source(node: n.CreateTable) -> None:
    """sanity_check_for_table_on_cdc_source (create_table.rs:1554-1617), then the column
    checks; the (Some, Some) arm of handle_create_table_plan (:1494-1501) first."""
    if node.format_encode is not None:
        raise NotSupported(
            "Data format and encoding format doesn't apply to table created from a CDC source",
            "Remove the FORMAT and ENCODE specification",
        )
    if node.wildcard_idx is not None and node.columns:
        raise NotSupported(
            "wildcard(*) and column definitions cannot be used together",
            "Remove the wildcard or column definitions",
        )
    if node.wildcard_idx is None and not sql_pk_names(node):
        raise NotSupported(
            "CDC table without primary key constraint is not supported",
            "Please define a primary key",
        )
    if node.append_only:
        raise NotSupported(
            "append only modifier on the table created from a CDC source",
            "Remove the APPEND ONLY clause",
        )
    if any(not w.with_ttl for w in node.watermarks):
        raise NotSupported(
            "non-TTL watermark defined on the table created from a CDC source",
            "Use `WATERMARK ... WITH TTL` instead.",
        )
    check_cdc_column_defs(node.columns, node.wildcard_idx)


def check_cdc_external_table(source_options: Mapping[str, str], external: str) -> None:
    """derive_with_options_for_cdc_table (create_table.rs:990-1112): the external table's
    name against the source's connector (anyhow errors: the message alone)."""
    database = source_options.get("database.name")
    if database is None:
        raise RwError("The source with properties does not contain 'database.name'")
    connector = connector_of(source_options)
    if connector == "mysql-cdc":
        if "." not in external:
            raise RwError(
                "The upstream table name must contain database name prefix, e.g. 'database.table'"
            )
        db = external.split(".", 1)[0]
        if db not in [x.strip() for x in database.split(",")]:
            raise RwError(
                f"The database name `{db}` in the FROM clause is not included in the database "
                f"name `{database}` in source definition"
            )
    elif connector == "postgres-cdc":
        postgres_table_name(external)
    elif connector == "sqlserver-cdc":
        parts = external.split(".")
        if len(parts) == 3 and parts[0] != database:
            raise RwError(
                f"The database name '{parts[0]}' in FROM clause does not match the database "
                f"name '{database}' specified in source definition. You can either use "
                "'schema.table' format (recommended) or ensure the database name matches."
            )
        if len(parts) == 1:
            raise RwError(
                f"Invalid table name format '{external}'. For SQL Server CDC, you must specify "
                f"the schema name. Use 'schema.table' format (e.g., 'dbo.{external}') or "
                f"'database.schema.table' format (e.g., '{database}.dbo.{external}')."
            )
        if len(parts) > 3:
            raise RwError(
                f"Invalid table name format '{external}'. Expected 'schema.table' or "
                "'database.schema.table'."
            )
    else:
        raise RwError(f"connector {connector} is not supported for cdc table")


def postgres_table_name(name: str) -> tuple[str, str]:
    """parse_postgres_cdc_external_table_name (create_table.rs:1115-1186), shared with the
    connector runtime (rwshim.common.names)."""
    try:
        return postgres_cdc_table_name(name)
    except ValueError as e:
        raise RwError(str(e)) from None


def check_cdc_defaults(columns: Sequence[n.ColumnDef]) -> None:
    """create_table.rs:1424-1447: no DEFAULT on a CDC table's columns."""
    if any(has_option(c, "default") or has_option(c, "default_internal") for c in columns):
        raise NotSupported(
            "Default value for columns defined on the table created from a CDC source",
            "Remove the default value expression in the column definitions",
        )
