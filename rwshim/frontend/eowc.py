"""The frontend's part of watermarks and EMIT ON WINDOW CLOSE: the binder's type check of a
watermark expression (CREATE TABLE / SOURCE, ALTER WATERMARK) and the planner's EOWC
requirement with its experimental notice (CREATE MATERIALIZED VIEW / SINK).

RisingWave: ``src/frontend/src/handler/create_source.rs:680-706`` (bind_source_watermark),
``handler/create_mv.rs:142-145`` and ``create_sink.rs:400-403`` (the notice),
``optimizer/plan_node/convert.rs:84-110`` and the refusals ``rwshim.dataplane.plan.watermarks``
models.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rwshim.common import rwtypes
from rwshim.common.names import quoted
from rwshim.engine import ColumnSpec
from rwshim.errors import BindError, NotImplementedError_, RwError
from rwshim.frontend.common import engine_name
from rwshim.sql import changelog_cte, session_frames
from rwshim.sql import statements as st
from rwshim.sql.columns import table_schema

if TYPE_CHECKING:
    from rwshim.binder.relations import Relation
    from rwshim.frontend.frontend import Frontend

NOTICE = "EMIT ON WINDOW CLOSE is currently an experimental feature. Please use it with caution."


def check(fe: Frontend, query: str, emit_on_window_close: bool = True, sink: bool = False) -> None:
    """RisingWave's planner refuses a SESSION frame outside EMIT ON WINDOW CLOSE
    (logical_over_window.rs:705-715), and an EMIT ON WINDOW CLOSE query without a watermark to
    close windows by (convert.rs:84-110, generic/agg.rs:155-191, logical_agg.rs:1468-1500,
    ...); rwshim refuses what it does not model (dataplane/plan/watermarks.py; a SESSION
    frame is computed by batch reads only, sql/session_frames.py)."""
    from rwshim.dataplane.plan import watermarks

    if sink and changelog_cte.mentions(query):  # (changelogs.py keeps logs per view only)
        raise RwError("not supported by rwshim: a sink reading a changelog CTE")
    if session_frames.mentions(query) and not emit_on_window_close:
        raise NotImplementedError_(
            "Session frame is not yet supported in general streaming mode. Please consider"
            " using Emit-On-Window-Close mode."
        )
    if not emit_on_window_close:
        return

    ctx = fe.query_context()
    relations = fe.instance.relations

    def lookup(parts: list[str]) -> Relation | None:
        rid = fe.instance.query.relation_id(ctx, parts)
        return None if rid is None else relations.relation_by_id(rid)

    watermarks.eowc_of(query, lookup)


def check_table_watermark(fe: Frontend, stmt: st.CreateTable, cols: Sequence[ColumnSpec]) -> None:
    """A new table's watermark expression returns its column's type."""
    marks = table_schema(stmt.columns_text).watermarks
    if not marks or fe.instance.engine.catalog.lookup(
        fe.ctx(), engine_name(stmt.name, fe.database)
    ):
        return
    visible = [(c.name, c.rw_type, c.type_oid) for c in cols if not c.is_hidden]
    check_watermark_type(fe, visible, *marks[0])


def check_watermark_type(
    fe: Frontend, cols: Sequence[tuple[str, str, int]], column: str, expr: str
) -> None:
    """bind_source_watermark (create_source.rs:680-706): the expression, bound over the
    table's columns (here a query over NULLs of them), returns the column's type."""
    col = next((c for c in cols if c[0] == column), None)
    if col is None or not col[1]:
        return
    nulls = ", ".join(f"NULL::{t} AS {quoted(n)}" for n, t, _ in cols)
    query = f"SELECT ({expr}) FROM (SELECT {nulls}) AS _w"
    try:
        found = fe.instance.query.analyze(query, fe.query_context())
    except RwError:
        return  # its own error comes with the statement (rwshim binds no more than that here)
    if found.columns and found.columns[0].type_oid != col[2]:
        got = rwtypes.rw_type_name(found.columns[0].type_oid)
        raise BindError(
            "The return value type of the watermark expression must be identical to the"
            " watermark column data type. Current data type of watermark return value:"
            f" `{got}`, column `{col[1]}`"
        )
