"""Tables on a shared CDC source at CREATE (their columns and the frontend's rules), and for
postgres-cdc what meta checks against the upstream PostgreSQL before a shared source or a
table on one is made (the checks are rwshim/dataplane/sources/pgcdc_validate.py's).

RisingWave at 448c657: ``src/frontend/src/handler/create_source/validate.rs:193-233`` (the
options added to a postgres-cdc source), ``src/meta/src/stream/source_manager.rs:447-468`` (a
shared source's split enumerator, which validates), ``src/meta/src/rpc/ddl_controller.rs:
986-1083`` (validate_cdc_table), ``src/frontend/src/handler/create_table.rs:990-1112``
(derive_with_options_for_cdc_table: the source's options with the table's names).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rwshim.engine import ColumnSpec
from rwshim.errors import CatalogNotFound, InvalidInputSyntax, RwError
from rwshim.frontend import cdc_tables, connectors, variant_rules
from rwshim.frontend.common import engine_name
from rwshim.frontend.include_columns import connector_of, include_columns
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend
    from rwshim.sql.unparse import nodes


async def source(
    with_options: Sequence[tuple[str, str]], options: dict[str, str]
) -> tuple[tuple[str, str], ...]:
    """A shared postgres-cdc source: the options the frontend adds (validate.rs:193-233), then
    meta's validation against the upstream (pgcdc_validate.py), which creates its publication;
    the options it is stored with."""
    from rwshim.dataplane.sources import pgcdc_validate as pv
    from rwshim.sql.ast.base import OptionValue

    if any(getattr(v, "kind", "") == "secret" for _, v in with_options):
        raise RwError(
            "not supported by rwshim: a postgres-cdc source whose options are SECRETs (rwshim"
            " does not resolve them for the upstream connection)"
        )
    props = pv.with_defaults(options)
    try:
        await pv.validate(props, None)
    except pv.Invalid as e:
        raise pv.source_error(str(e)) from None
    added = tuple((k, OptionValue(v)) for k, v in props.items() if k not in options)
    return (*with_options, *added)


async def table(
    fe: Frontend, stmt: st.CreateTable, cols: Sequence[ColumnSpec], pk: Sequence[str]
) -> None:
    """meta's validate_cdc_table (ddl_controller.rs:986-1083) for a table on a postgres-cdc
    source: the source's options with the table's schema.name and table.name
    (derive_with_options_for_cdc_table), checked against the upstream."""
    from rwshim.dataplane.sources import pgcdc_validate as pv

    if stmt.cdc_source is None or stmt.cdc_table is None:
        return
    options = _source_options(fe, stmt.cdc_source)
    if connector_of(options) != "postgres-cdc":
        return
    schema, table = cdc_tables.postgres_table_name(stmt.cdc_table)
    props = {**options, "schema.name": schema, "table.name": table}
    generated = {c.name for c in cols if c.generated_expr is not None}
    columns = tuple((c.name, c.rw_type) for c in cols if c.name not in generated)
    try:
        await pv.validate(props, pv.TableSchema(schema, table, columns, tuple(pk)))
    except pv.Invalid as e:
        raise pv.table_error(str(e)) from None


async def made(fe: Frontend, with_options: Sequence[tuple[str, str]]) -> None:
    """After a postgres-cdc source was made: its slot, and the runtime that reads it."""
    from rwshim.dataplane.sources import pgcdc

    await pgcdc.create_slot(dict(with_options))
    fe.instance.sources.cdc  # noqa: B018 (its tables read the slot at the barriers)


def _source_options(fe: Frontend, name: st.ObjectName) -> dict[str, str]:
    """The WITH options a CDC source is stored with; RisingWave's not-found error."""
    import json

    engine = fe.instance.engine
    source_name = engine_name(name, fe.database)
    source = engine.catalog.lookup(fe.ctx(), source_name, ("source",))
    if source is None:
        raise CatalogNotFound("source", source_name.name)
    stored = engine.meta.val(
        "SELECT with_options FROM relation WHERE relation_id = ?", (source.id,)
    )
    options: dict[str, str] = json.loads(str(stored or "{}"))
    return options


async def columns(
    fe: Frontend, stmt: st.CreateTable, node: nodes.CreateTable
) -> tuple[list[ColumnSpec], list[str], connectors.Additions]:
    """The (None, Some(cdc_table)) arm of handle_create_table_plan (create_table.rs:
    1378-1492): the table's own checks, its source, the external table's name, its columns and
    INCLUDE columns (the CDC backfill kinds, named after the source's connector)."""
    from rwshim.frontend.create import _check_column_exprs, table_columns

    cdc_tables.check_table_on_cdc_source(node)
    assert stmt.cdc_source is not None and stmt.cdc_table is not None
    options = _source_options(fe, stmt.cdc_source)
    cdc_tables.check_cdc_external_table(options, stmt.cdc_table)
    connector = connector_of(options) or ""
    if node.wildcard_idx is not None:
        # bind_cdc_table_schema_externally (create_table.rs:1619-1644) reads them upstream
        if connector != "postgres-cdc":
            raise RwError(
                f"rwshim reaches no upstream database of {connector}: a CDC table whose columns"
                " are read from it (`*`) is not emulated"
            )
        cols, pk = table_columns(await _discovered(options, stmt.cdc_table))
    else:
        cdc_tables.check_cdc_defaults(node.columns)
        cols, pk = table_columns(stmt.columns_text)
        variant_rules.cdc_table(cols)  # bind_cdc_table_schema (create_table.rs:1648-1653)
        _check_column_exprs(fe, stmt.name, cols, pk)
    _scan_options(stmt)
    included = include_columns(connector, node.include, None, cdc_backfill=True)
    names = [c.name for c in cols]
    for _, c in included:
        if c.name in names:
            raise InvalidInputSyntax(f'column "{c.name}" specified more than once')
        names.append(c.name)
    return cols, pk, connectors.Additions([c for _, c in included])


async def _discovered(options: dict[str, str], external: str) -> str:
    """The column list of the upstream table (bind_cdc_table_schema_externally's ``failed to
    auto derive table schema`` around ExternalTableImpl::connect's error)."""
    from rwshim.dataplane.sources import pgcdc_validate as pv

    schema, table = cdc_tables.postgres_table_name(external)
    try:
        listed, keys = await pv.discover(options, schema, table)
    except pv.DeriveFailed as e:
        raise RwError("failed to auto derive table schema", str(e)) from None
    key = ", ".join('"' + k.replace('"', '""') + '"' for k in keys)
    return f"({listed}, PRIMARY KEY ({key}))"


def source_ids(fe: Frontend, stmt: st.CreateTable) -> list[int]:
    """The shared source a CDC table is created on: it depends on it (the table's job reads
    it in RisingWave; here a dependency row, so DROP SOURCE and RENAME see the table)."""
    if stmt.cdc_source is None:
        return []
    name = engine_name(stmt.cdc_source, fe.database)
    found = fe.instance.engine.catalog.lookup(fe.ctx(), name, ("source",))
    return [] if found is None else [found.id]


def _scan_options(stmt: st.CreateTable) -> None:
    """CdcScanOptions from the table's WITH options (optimizer/plan_node/generic/cdc_scan.rs:
    66-85): Rust's bool / u32 parses, ``Invalid value for <key>``."""
    options = dict(stmt.with_options)
    snapshot = options.get("snapshot")
    if snapshot is not None and snapshot not in ("true", "false"):
        raise RwError("Invalid value for snapshot")
    for key in ("snapshot.interval", "snapshot.batch_size"):
        value = options.get(key)
        if value is not None:
            digits = value[1:] if value.startswith("+") else value
            if not (digits.isascii() and digits.isdigit()) or int(digits) >= 2**32:
                raise RwError(f"Invalid value for {key}")
