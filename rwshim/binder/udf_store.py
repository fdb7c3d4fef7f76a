"""The function catalog as the read path reads it: the user-defined functions a call names,
resolved along the session's search path (RisingWave's get_function_by_name_inputs over a
SchemaPath: the first schema holding a function of that name and arity wins;
src/frontend/src/catalog/root_catalog.rs, schema_catalog.rs:968-1000), and the inlining of
a statement's SQL functions (rwshim/binder/udf.py) with that look-up.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from rwshim.binder.context import USER_WILDCARD, QueryContext
from rwshim.common.acl import CheckItem, check_privileges
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json

    from rwshim.binder.udf import Lookup, Udf
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# rwshim.binder.udf (the inliner) is imported where a statement names a user function: every
# query asks ``function_names`` first, and a database without SQL functions never needs it.


def function_names(conn: sqlite3.Connection, database_id: int) -> frozenset[str]:
    """The names of the database's user-defined functions (lower-cased for the cheap test)."""
    try:
        rows = conn.execute(
            "SELECT DISTINCT name FROM function WHERE database_id = ?", (database_id,)
        ).fetchall()
    except sqlite3.OperationalError:  # a connection without the meta store's tables
        return frozenset()
    return frozenset(str(r[0]).lower() for r in rows)


def lookup(conn: sqlite3.Connection, ctx: QueryContext) -> Lookup:
    """The function look-up of ``ctx``'s database and search path."""
    from rwshim.binder.udf import Udf

    def find(schema: str | None, name: str, nargs: int) -> list[Udf]:
        if schema is not None:
            schemas = [schema]
        else:
            schemas = [ctx.user if s == USER_WILDCARD else s for s in ctx.search_path]
        for s in schemas:
            rows = conn.execute(
                "SELECT f.function_id, f.name, sc.name, f.kind, f.language, f.arg_names,"
                " f.arg_types, f.return_type, f.body, f.owner_id FROM function f"
                " JOIN schema sc ON sc.schema_id = f.schema_id"
                " WHERE f.database_id = ? AND sc.name = ? AND f.name = ?"
                " ORDER BY f.function_id",
                (ctx.database_id, s, name),
            ).fetchall()
            found = [
                Udf(
                    int(r[0]),
                    str(r[1]),
                    str(r[2]),
                    str(r[3]),
                    str(r[4]),
                    tuple(json.loads(r[5])),
                    tuple(str(t[1]) for t in json.loads(r[6])),
                    str(r[7]),
                    None if r[8] is None else str(r[8]),
                    int(r[9]),
                )
                for r in rows
            ]
            found = [u for u in found if len(u.arg_types) == nargs]
            if found:
                return found
        return []

    return find


def inline(conn: sqlite3.Connection, ctx: QueryContext, sql: str, names: frozenset[str]) -> str:
    """``sql`` with its SQL functions inlined (unchanged when it names none of ``names``)."""
    from rwshim.binder.udf import Inliner, may_call

    if not may_call(sql, names):
        return sql
    inliner = Inliner(
        lookup(conn, ctx), on_call=lambda u: check_execute(ctx, u), database=ctx.database
    )
    return inliner.statement(sql)


def check_execute(ctx: QueryContext, udf: Udf) -> None:
    """The binder's EXECUTE check of a call (function/mod.rs:262-276; a context without an
    ACL, a view's definition, checks nothing)."""
    acl = ctx.acl
    if acl is None or acl.is_super or acl.user_id == udf.owner_id:
        return
    check_privileges(acl, [CheckItem(udf.owner_id, "EXECUTE", udf.name, "function", udf.id)])


def callers(
    conn: sqlite3.Connection, function_id: int, contexts: list[tuple[int, str, QueryContext]]
) -> list[int]:
    """The relations (id, definition, the context it binds in) whose definition calls the
    function, directly or through the SQL functions it calls."""
    from rwshim.binder.udf import Inliner

    out = []
    for rid, definition, ctx in contexts:
        inliner = Inliner(lookup(conn, ctx), collect_only=True, database=ctx.database)
        inliner.statement(definition)
        if function_id in inliner.used:
            out.append(rid)
    return out


__all__ = ["callers", "function_names", "inline", "lookup"]
