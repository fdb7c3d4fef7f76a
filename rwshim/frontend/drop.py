"""DROP (databases, schemas, users, and every relation kind) and COMMENT ON: each name of a
DROP is its own engine operation, with its own barrier, as RisingWave drops them one by one.

RisingWave: ``src/frontend/src/handler/drop_database.rs``, ``drop_schema.rs``,
``drop_user.rs``, ``drop_table.rs``, ``drop_mv.rs``, ``drop_view.rs``, ``drop_index.rs``,
``drop_source.rs``, ``drop_sink.rs``, ``handler/comment.rs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.common.outcome import Outcome
from rwshim.engine.types import Result
from rwshim.errors import CatalogNotFound, NotImplementedError_, PermissionDenied
from rwshim.frontend.common import KINDS, Handler, engine_name
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend


async def handle_drop(fe: Frontend, stmt: st.Drop, params: list[object]) -> Outcome:
    if stmt.object_type in ("FUNCTION", "AGGREGATE"):
        from rwshim.frontend.functions import handle_drop_function

        return await handle_drop_function(fe, stmt, params)
    notices: list[str] = []
    for name in stmt.names:
        out = await fe.engine_call(stmt.tag, lambda n=name: _drop_one(fe, stmt, n))  # type: ignore[misc]
        notices.extend(out.notices)
    return Outcome(stmt.tag, notices=notices)


def _drop_one(fe: Frontend, stmt: st.Drop, name: st.ObjectName) -> Result:
    engine, ctx = fe.instance.engine, fe.ctx()
    if stmt.object_type == "DATABASE":
        return engine.catalog.drop_database(ctx, name.name, if_exists=stmt.if_exists)
    if stmt.object_type == "SCHEMA":
        return engine.catalog.drop_schema(
            ctx, name.name, if_exists=stmt.if_exists, cascade=stmt.cascade
        )
    if stmt.object_type == "USER":
        return engine.users.drop_user(ctx, name.name, if_exists=stmt.if_exists)
    if stmt.object_type in KINDS:
        return engine.ddl.drop_relation(
            ctx,
            KINDS[stmt.object_type],
            engine_name(name, fe.database),
            if_exists=stmt.if_exists,
            cascade=stmt.cascade,
        )
    if stmt.object_type in ("SECRET", "CONNECTION"):
        return engine.ddl.drop_secret_or_connection(
            ctx,
            stmt.object_type.lower(),
            engine_name(name, fe.database),
            if_exists=stmt.if_exists,
            cascade=stmt.cascade,
        )
    if stmt.object_type == "SUBSCRIPTION":
        return engine.subscriptions.drop(
            ctx, engine_name(name, fe.database), if_exists=stmt.if_exists, cascade=stmt.cascade
        )
    raise NotImplementedError_(f"DROP {stmt.object_type}")


async def handle_comment(fe: Frontend, stmt: st.Comment, params: list[object]) -> Outcome:
    target = stmt.target
    column: str | None = None
    if stmt.object_type == "COLUMN":
        column = target.name
        target = st.ObjectName(target.parts[:-1])
    catalog = fe.instance.engine.catalog
    ctx = fe.ctx()
    # comment.rs:45-86: CREATE on the schema the name gives (the search path's first schema
    # when unqualified), then the table, then its owner (or a superuser)
    catalog.creation_schema(ctx, engine_name(target, fe.database))
    rel = catalog.lookup(ctx, engine_name(target, fe.database))
    if rel is None:
        raise CatalogNotFound("table", target.name)
    if rel.owner_id != fe.user_id and not fe.is_superuser:
        raise PermissionDenied(f"must be owner of relation {rel.name}")
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.catalog.comment_on(fe.ctx(), rel.id, column, stmt.comment),
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.Drop: handle_drop,
    st.Comment: handle_comment,
}
