"""REFRESH TABLE, VACUUM, BACKUP, ALTER COMPACTION GROUP, and the statements RisingWave
parses but has no handler for (TRUNCATE, ANALYZE, EXECUTE).

- REFRESH TABLE (refresh.rs): a table created REFRESHABLE only; rwshim has no refreshable
  source to reload, so a refreshable table answers as RisingWave does once the refresh is
  initiated (its notice);
- VACUUM [FULL] (vacuum.rs): only Iceberg engine tables and Iceberg sinks, which rwshim has
  none of, so every other object is refused with vacuum.rs's texts;
- BACKUP (backup.rs): superusers only; a meta snapshot of the single node's default
  ``memory`` backup storage, its id as the one row;
- ALTER COMPACTION GROUP (alter_compaction_group.rs): superusers only; a single node has
  compaction groups but rwshim no storage to compact: refused clearly;
- ALTER {MATERIALIZED VIEW | SINK} ... SET STREAMING_ENABLE_UNALIGNED_JOIN
  (alter_streaming_enable_unaligned_join.rs): a debug-build-only statement; rwshim answers as
  RisingWave's release build does;
- TRUNCATE, ANALYZE, EXECUTE, ALTER TABLE ... RENAME COLUMN / CONSTRAINT: RisingWave's own
  ``Unhandled statement`` answer (mod.rs:1012-1020, 1686).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common.names import display_name
from rwshim.common.outcome import Column, Outcome
from rwshim.errors import (
    CatalogNotFound,
    InvalidInputSyntax,
    NotImplementedError_,
    PermissionDenied,
    RwError,
    Uncategorized,
)
from rwshim.frontend.common import Handler, engine_name
from rwshim.sql import statements as st
from rwshim.sql.errors_text import expected_error
from rwshim.sql.tokens import tokenize

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend

_NAME = re.compile(r'(?is)^\s*\w+\s+(?:(FULL|TABLE)\s+)?((?:"[^"]*"|[^\s;]+))')


def _unhandled(display: str) -> NotImplementedError_:
    return NotImplementedError_(f"Unhandled statement: {display}")


def handle_truncate(fe: Frontend, stmt: st.Truncate, params: list[object]) -> Outcome:
    raise _unhandled(f"TRUNCATE TABLE {display_name(stmt.table.parts)}")


def handle_analyze(fe: Frontend, stmt: st.Analyze, params: list[object]) -> Outcome:
    m = _NAME.match(stmt.text)
    raise _unhandled(f"ANALYZE TABLE {m.group(2) if m else ''}")


def handle_alter_table_rename_column(
    fe: Frontend, stmt: st.AlterTableRenameColumn, params: list[object]
) -> Outcome:
    """mod.rs:315 looks the table up first (check_ban_ddl_for_iceberg_engine_table:
    get_created_table_by_name, util.rs:332-360, any table catalog: tables, materialized views,
    indexes); then mod.rs:1012-1020 has no handler for RENAME COLUMN / CONSTRAINT."""
    name = engine_name(stmt.name, fe.database)
    rel = fe.instance.engine.catalog.lookup(fe.ctx(), name, ("table", "materialized view", "index"))
    if rel is None or rel.status not in (None, "CREATED"):
        raise CatalogNotFound("table", name.name)
    raise _unhandled(stmt.display)


def handle_execute(fe: Frontend, stmt: st.Execute, params: list[object]) -> Outcome:
    raise _unhandled(f"EXECUTE {stmt.statement_name}")


async def handle_refresh(fe: Frontend, stmt: st.RefreshTable, params: list[object]) -> Outcome:
    """refresh.rs:33-110: the created table must be refreshable and a table."""
    ctx = fe.ctx()
    name = engine_name(stmt.table, fe.database)
    rel = fe.instance.engine.catalog.lookup(ctx, name, ("table", "materialized view", "index"))
    if rel is None or rel.status not in (None, "CREATED"):
        raise CatalogNotFound("table", name.name)
    reader = fe.instance.catalog_reader
    found = reader.relation(rel.id)
    assert found is not None  # just looked up
    shown = f"{reader.schema_name(rel.schema_id)}.{display_name(stmt.table.parts)}"
    if not found.refreshable:
        raise InvalidInputSyntax(
            f"Table '{shown}' is not refreshable. Only tables created with REFRESHABLE flag "
            "support manual refresh."
        )
    if rel.kind != "table":
        kind = {"materialized view": "MaterializedView", "index": "Index"}[rel.kind]
        raise InvalidInputSyntax(f"REFRESH is only supported for tables, got {kind}.")
    return Outcome(stmt.tag, notices=[f"REFRESH initiated for table '{shown}'"])


def handle_vacuum(fe: Frontend, stmt: st.Vacuum, params: list[object]) -> Outcome:
    """vacuum.rs:45-110: the created table (else sink) of that name must be Iceberg's."""
    m = _NAME.match(stmt.text)
    raw = m.group(2) if m else ""
    parts = tuple(
        p[1:-1] if p.startswith('"') else p.lower() for p in re.findall(r'"[^"]*"|[^.]+', raw)
    )
    ctx = fe.ctx()
    name = engine_name(st.ObjectName(parts or ("",)), fe.database)
    catalog = fe.instance.engine.catalog
    table = catalog.lookup(ctx, name, ("table", "materialized view", "index"))
    if table is not None and table.status in (None, "CREATED"):
        raise InvalidInputSyntax(
            "VACUUM can only be used on Iceberg engine tables or Iceberg sinks, but table "
            f"'{name.name}' uses Hummock engine"
        )
    sink = catalog.lookup(ctx, name, ("sink",))
    if sink is not None:
        connector = sink.connector
        if connector is None:
            raise InvalidInputSyntax(
                f"VACUUM can only be used on Iceberg sinks, but sink '{name.name}' has no "
                "connector type specified"
            )
        raise InvalidInputSyntax(
            f"VACUUM can only be used on Iceberg sinks, but sink '{name.name}' is of type "
            f"'{connector}'"
        )
    raise Uncategorized(f"object {name.name} not found")


def handle_backup(fe: Frontend, stmt: st.Backup, params: list[object]) -> Outcome:
    """backup.rs:29-75: a meta snapshot; its id."""
    if not fe.is_superuser:
        raise PermissionDenied("only superusers can trigger adhoc backup")
    store = fe.instance.store
    with store.transaction():
        sid = store.next_id("meta_backup")
        fe.instance.conn.execute(
            "INSERT INTO meta_snapshot(snapshot_id, created_at) VALUES (?, ?)",
            (sid, fe.instance.engine.meta.now()),
        )
    return Outcome(stmt.tag, [Column("snapshot_id", pgtypes.INT8)], [(sid,)])


def handle_alter_compaction_group(
    fe: Frontend, stmt: st.AlterCompactionGroup, params: list[object]
) -> Outcome:
    """alter_compaction_group.rs:37-45: superusers only; then the group's storage config,
    which rwshim does not have.  A release without the statement fails it as its parser does
    (Release.alter_compaction_group)."""
    release = fe.instance.release
    if not release.alter_compaction_group:
        toks = tokenize(stmt.text)
        raise expected_error(stmt.text, toks[1], release.parse_expected("ALTER"))
    if not fe.is_superuser:
        raise PermissionDenied("must be superuser to execute ALTER COMPACTION GROUP command")
    raise RwError(
        "rwshim has no storage layer: compaction groups and their configuration are not emulated"
    )


def handle_alter_streaming_option(
    fe: Frontend, stmt: st.AlterStreamingOption, params: list[object]
) -> Outcome:
    """mod.rs:1204-1209 refuses a plain view before anything else; then
    alter_streaming_enable_unaligned_join.rs:29,79-81: outside debug builds (RisingWave's
    released binaries) the statement is refused without looking the name up."""
    if stmt.kind == "VIEW":
        raise Uncategorized(
            "ALTER VIEW SET STREAMING_ENABLE_UNALIGNED_JOIN is not supported. Only supported "
            "for materialized views"
        )
    raise Uncategorized("ALTER STREAMING ENABLE UNALIGNED JOIN is only supported in debug mode")


HANDLERS: dict[type[st.Statement], Handler] = {
    st.Truncate: handle_truncate,
    st.Analyze: handle_analyze,
    st.Execute: handle_execute,
    st.RefreshTable: handle_refresh,
    st.Vacuum: handle_vacuum,
    st.Backup: handle_backup,
    st.AlterCompactionGroup: handle_alter_compaction_group,
    st.AlterStreamingOption: handle_alter_streaming_option,
    st.AlterTableRenameColumn: handle_alter_table_rename_column,
}
