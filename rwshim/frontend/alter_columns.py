"""ALTER TABLE ... ADD / DROP / ALTER COLUMN, ALTER SOURCE ... ADD COLUMN, the connector
ALTERs (DROP CONNECTOR, REFRESH SCHEMA, FORMAT ... ENCODE, RESET) and ALTER [MATERIALIZED]
VIEW ... AS: the frontend's part (which columns a downstream job's query reads, bound by the
read path) handed to ``engine.alter_columns`` / ``engine.alter_connector``.

RisingWave: ``src/frontend/src/handler/alter_table_column.rs``, ``alter_source_column.rs``,
``alter_table_drop_connector.rs``, ``alter_table_with_sr.rs``, ``alter_source_with_sr.rs``,
``reset_source.rs``,
``handler/mod.rs`` (the dispatch of ``Statement::AlterTable`` / ``AlterSource`` /
``AlterView``: ``ALTER VIEW AS QUERY`` and, in a release build, ``ALTER MATERIALIZED VIEW AS
QUERY`` are not implemented, mod.rs:1212-1220).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import replace

from rwshim.common.outcome import Outcome
from rwshim.errors import NotImplementedError_, RwError
from rwshim.frontend.common import Handler, engine_name
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend


async def handle_alter_column(fe: Frontend, stmt: st.AlterColumn, params: list[object]) -> Outcome:
    engine = fe.instance.engine
    name = engine_name(stmt.name, fe.database)
    if stmt.kind == "SOURCE":
        return await fe.engine_call(
            stmt.tag, lambda: engine.alter_columns.alter_source_column(fe.ctx(), stmt, name)
        )
    qctx = replace(fe.query_context(), acl=None)  # the job reads as its owner made it

    def reads_of(dependent_id: int, relation_id: int) -> frozenset[str] | None:
        """The columns of ``relation_id`` the query of job ``dependent_id`` reads."""
        dependent = fe.instance.catalog_reader.relation(dependent_id)
        if dependent is None or not dependent.read_query:
            return None
        job = fe.instance.relations.relation_by_id(dependent_id)
        try:
            analysis = fe.instance.query.analyze(dependent.read_query, qctx, job)
        except RwError:
            return None
        return analysis.column_reads.get(relation_id, frozenset())

    def check_watermark(cols: list[tuple[str, str, int]], column: str, expr: str) -> None:
        from rwshim.frontend.eowc import check_watermark_type

        check_watermark_type(fe, cols, column, expr)

    return await fe.engine_call(
        stmt.tag,
        lambda: engine.alter_columns.alter_table_column(
            fe.ctx(), stmt, name, reads_of, check_watermark
        ),
    )


async def handle_alter_connector(
    fe: Frontend, stmt: st.AlterConnector, params: list[object]
) -> Outcome:
    name = engine_name(stmt.name, fe.database)
    return await fe.engine_call(
        stmt.tag, lambda: fe.instance.engine.alter_connector.alter(fe.ctx(), stmt, name)
    )


def handle_alter_view_query(fe: Frontend, stmt: st.AlterViewQuery, params: list[object]) -> Outcome:
    """mod.rs:1212-1220: refused before any look-up (the release build's answer)."""
    if stmt.kind == "VIEW":
        raise NotImplementedError_("ALTER VIEW AS QUERY")
    raise NotImplementedError_("ALTER MATERIALIZED VIEW AS QUERY")


HANDLERS: dict[type[st.Statement], Handler] = {
    st.AlterColumn: handle_alter_column,
    st.AlterConnector: handle_alter_connector,
    st.AlterViewQuery: handle_alter_view_query,
}
