"""SHOW <objects> (tables, views, sources, sinks, databases, schemas, cluster, functions,
connections, columns, indexes, JOBS, PARAMETERS, PROCESSLIST, CURSORS), SHOW CREATE and
DESCRIBE.  The catalog answers come from ``rwshim/catalog_path/system_catalogs/show.py``; SHOW JOBS
and SHOW
PARAMETERS from the engine.

RisingWave: ``src/frontend/src/handler/show.rs`` (SHOW JOBS :413-420, PROCESSLIST :424-432,
:1119-1170), ``handler/describe.rs``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rwshim.catalog_path.system_catalogs import show
from rwshim.common import pgtypes
from rwshim.common.outcome import Column, Outcome
from rwshim.errors import NotImplementedError_
from rwshim.frontend import explain
from rwshim.frontend.common import FRONTEND_WORKER_ID, Handler, varchar_columns
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend

# SHOW <objects> -> the kind name show.show_objects takes.
_SHOW_OBJECT_KINDS = {
    "TABLES": "tables",
    "MATERIALIZED VIEWS": "materialized views",
    "VIEWS": "views",
    "SOURCES": "sources",
    "SINKS": "sinks",
    "INTERNAL TABLES": "internal tables",
    "SECRETS": "secrets",
    "SUBSCRIPTIONS": "subscriptions",
}


def handle_show_objects(fe: Frontend, stmt: st.ShowObjects, params: list[object]) -> Outcome:
    what = stmt.what.upper()
    conn = fe.instance.conn
    if what == "JOBS":
        r = fe.instance.engine.backfill.show_jobs()
        return Outcome(stmt.tag, r.columns, r.rows)
    if what == "PARAMETERS":
        r = fe.instance.engine.params.show_parameters()
        return Outcome("SHOW_VARIABLE", r.columns, r.rows)
    if what == "PROCESSLIST":
        return Outcome(stmt.tag, *_processlist(fe))
    if what in ("CURSORS", "SUBSCRIPTION CURSORS"):
        from rwshim.frontend import subscriptions

        if what == "CURSORS":
            return Outcome(stmt.tag, *subscriptions.cursor_rows(fe))
        return Outcome(stmt.tag, *subscriptions.subscription_cursor_rows(fe))
    sctx = fe.show_context()
    schema = stmt.schema
    if what in _SHOW_OBJECT_KINDS:
        cols, rows = show.show_objects(
            conn,
            sctx,
            _SHOW_OBJECT_KINDS[what],
            schema.name if schema else None,
            stmt.like,
            stmt.ilike,
            stmt.where is not None,
        )
    elif what == "DATABASES":
        cols, rows = show.show_databases(conn, sctx)
    elif what == "SCHEMAS":
        cols, rows = show.show_schemas(conn, sctx)
    elif what == "CLUSTER":
        cols, rows = show.show_cluster(conn, sctx)
    elif what == "FUNCTIONS":
        cols, rows = show.show_functions(conn, sctx, schema.name if schema else None)
    elif what == "CONNECTIONS":
        cols, rows = show.show_connections(conn, sctx, schema.name if schema else None)
    elif what == "COLUMNS" and schema is not None:
        cols, rows = show.show_columns(conn, sctx, schema.parts)
    elif what == "INDEXES" and schema is not None:
        cols, rows = show.show_indexes(conn, sctx, schema.parts)
    else:
        raise NotImplementedError_(f"SHOW {what}")
    return Outcome(stmt.tag, varchar_columns(cols), rows)


def _processlist(fe: Frontend) -> tuple[list[Column], list[tuple[object, ...]]]:
    """SHOW PROCESSLIST (show.rs:424-432, :1119-1170): one row per live session."""
    cols = [
        Column(n, pgtypes.VARCHAR)
        for n in ("Worker Id", "Id", "User", "Host", "Database", "Time", "Info")
    ]
    rows: list[tuple[object, ...]] = []
    registry = fe.instance.registry
    now = time.time()
    for p in registry.processes() if registry is not None else []:
        elapsed = (
            f"{int((now - p.statement_started) * 1000)}ms"
            if p.active and p.statement_started is not None
            else None
        )
        info = p.statement[:1024] if p.active and p.statement else None
        rows.append(
            (
                str(FRONTEND_WORKER_ID),
                f"{FRONTEND_WORKER_ID}:{p.pid}",
                p.user,
                p.client_addr,
                p.database,
                elapsed,
                info,
            )
        )
    return cols, rows


def handle_show_create(fe: Frontend, stmt: st.ShowCreate, params: list[object]) -> Outcome:
    cols, rows = show.show_create(
        fe.instance.conn, fe.show_context(), stmt.object_type.lower(), stmt.name.parts
    )
    return Outcome(stmt.tag, varchar_columns(cols), rows)


def handle_describe(fe: Frontend, stmt: st.Describe, params: list[object]) -> Outcome:
    if stmt.fragments:
        return explain.handle_describe_fragments(fe, stmt, params)
    cols, rows = show.describe(fe.instance.conn, fe.show_context(), stmt.name.parts)
    return Outcome(stmt.tag, varchar_columns(cols), rows)


HANDLERS: dict[type[st.Statement], Handler] = {
    st.ShowObjects: handle_show_objects,
    st.ShowCreate: handle_show_create,
    st.Describe: handle_describe,
}
