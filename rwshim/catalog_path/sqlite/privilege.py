"""``rw_has_privilege``: the runtime of has_table_privilege & co, answered from the meta
store's privileges on the executing connection.

RisingWave: ``src/frontend/src/expr/function_impl/has_privilege.rs`` (has_privilege_impl: the
owner holds everything, otherwise check_privilege_with_grant_option; parse_privilege: a comma
list of actions, each optionally ``WITH GRANT OPTION``; the errors are ExprError::InvalidParam),
``src/frontend/src/user/user_catalog.rs`` (check_privilege_with_grant_option).
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from rwshim.binder.context import USER_WILDCARD, QueryContext
from rwshim.catalog_path.system_catalogs.system_catalogs import SYS_CATALOG_START_ID
from rwshim.errors import ExprError

if TYPE_CHECKING:
    from rwshim.common.rwtypes import RwType

_ACTIONS = {"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "CONNECT", "USAGE", "EXECUTE"}
# allowed actions per kind (empty: any action, has_privilege.rs:50)
_ALLOWED = {
    "table": frozenset(),
    "any_column": frozenset({"SELECT", "INSERT", "UPDATE"}),
    "database": frozenset({"CREATE", "CONNECT"}),
    "schema": frozenset({"CREATE", "USAGE"}),
    "function": frozenset({"EXECUTE"}),
}


class _Invalid(Exception):
    """ExprError::InvalidParam (src/expr/core/src/error.rs:74-79)."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"Invalid parameter {name}: {reason}")


def _fmt(v: object) -> str:
    return "NULL" if v is None else f"'{v}'"


def has_privilege(
    conn: sqlite3.Connection,
    ctx: QueryContext,
    kind: str,
    func: str,
    user: object,
    obj: object,
    privileges: object,
) -> int | None:
    """One call of ``func``; NULL in, NULL out (the functions are strict)."""
    if user is None or obj is None or privileges is None:
        return None
    try:
        return int(_evaluate(conn, ctx, kind, user, obj, str(privileges)))
    except _Invalid as e:
        raise ExprError(f"{func}({_fmt(user)}, {_fmt(obj)}, {_fmt(privileges)})", str(e)) from None


def _parse(text: str, allowed: frozenset[str]) -> list[tuple[str, bool]]:
    """parse_privilege (has_privilege.rs:383-413)."""
    out = []
    for part in (p.strip() for p in text.split(",")):
        head, sep, _ = part.rpartition(" WITH GRANT OPTION")
        action, option = (head, True) if sep else (part, False)
        action = action.upper()
        if action not in _ACTIONS or (allowed and action not in allowed):
            raise _Invalid("privilege", f'unrecognized privilege type: "{part}"')
        out.append((action, option))
    return out


def _user(conn: sqlite3.Connection, user: object) -> tuple[int, bool]:
    """The user by name (varchar argument) or id (int4), as (id, is_super)."""
    if isinstance(user, int):
        row = conn.execute("SELECT user_id, is_super FROM rw_user WHERE user_id = ?", (user,))
    else:
        row = conn.execute("SELECT user_id, is_super FROM rw_user WHERE name = ?", (str(user),))
    found = row.fetchone()
    if found is None:
        raise _Invalid("user", f"User {user} not found")
    return int(found[0]), bool(found[1])


def _evaluate(
    conn: sqlite3.Connection, ctx: QueryContext, kind: str, user: object, obj: object, text: str
) -> bool:
    allowed = _ALLOWED[kind]
    if kind in ("table", "any_column"):
        # has_table_privilege_1: the privileges are parsed first; a system catalog is always
        # readable (has_privilege.rs:51-58)
        wanted = _parse(text, allowed)
        oid = int(str(obj))
        if kind == "table" and oid >= SYS_CATALOG_START_ID:
            return True
        owner = _owner(conn, ctx, oid, "oid", f"Table {oid} not found")
    elif kind == "database":
        oid = _database(conn, obj)
        owner = int(
            conn.execute("SELECT owner_id FROM database WHERE database_id = ?", (oid,)).fetchone()[
                0
            ]
        )
        wanted = _parse(text, allowed)
    elif kind == "schema":
        oid, owner = _schema(conn, ctx, obj)
        wanted = _parse(text, allowed)
    else:
        oid, owner = _function(conn, ctx, obj)
        wanted = _parse(text, allowed)
    uid, is_super = _user(conn, user)
    if uid == owner or is_super:
        return True
    for action, option in wanted:
        sql = "SELECT 1 FROM user_privilege WHERE user_id = ? AND oid = ? AND action = ?"
        if option:
            sql += " AND with_grant_option"
        if conn.execute(sql, (uid, oid, action)).fetchone() is None:
            return False
    return True


def _owner(conn: sqlite3.Connection, ctx: QueryContext, oid: int, param: str, missing: str) -> int:
    """get_grant_object_by_oid in the current database (database_catalog.rs)."""
    row = conn.execute(
        "SELECT owner_id FROM visible_relation WHERE relation_id = ? AND database_id = ?",
        (oid, ctx.database_id),
    ).fetchone()
    if row is None:
        raise _Invalid(param, missing)
    return int(row[0])


def _database(conn: sqlite3.Connection, obj: object) -> int:
    if isinstance(obj, int):
        row = conn.execute("SELECT database_id FROM database WHERE database_id = ?", (obj,))
        if row.fetchone() is None:
            raise _Invalid("database", f"db_id not found: {obj}")
        return obj
    found = conn.execute("SELECT database_id FROM database WHERE name = ?", (str(obj),)).fetchone()
    if found is None:
        raise _Invalid("database", f"database not found: {obj}")
    return int(found[0])


def _schema(conn: sqlite3.Connection, ctx: QueryContext, obj: object) -> tuple[int, int]:
    if isinstance(obj, int):
        row = conn.execute(
            "SELECT schema_id, owner_id FROM schema WHERE schema_id = ? AND database_id = ?",
            (obj, ctx.database_id),
        ).fetchone()
        if row is None:
            raise _Invalid("schema", f"schema_id not found: {obj}")
    else:
        row = conn.execute(
            "SELECT schema_id, owner_id FROM schema WHERE name = ? AND database_id = ?",
            (str(obj), ctx.database_id),
        ).fetchone()
        if row is None:
            raise _Invalid("schema", f"schema not found: {obj}")
    return int(row[0]), int(row[1])


def _function(conn: sqlite3.Connection, ctx: QueryContext, obj: object) -> tuple[int, int]:
    """(id, owner) of a function by id, or by ``[schema.]name[(type, ...)]`` along the search
    path with exactly those argument types (has_privilege.rs get_function_id_by_name:
    parse_function_desc_str, then root_catalog.rs get_function_by_name_args; no argument list
    is no arguments); not found is ``function not found: name(type, ...)``."""
    if isinstance(obj, int):
        row = conn.execute(
            "SELECT function_id, owner_id FROM function WHERE function_id = ? AND database_id = ?",
            (obj, ctx.database_id),
        ).fetchone()
        if row is None:
            raise _Invalid("oid", f"Table {obj} not found")  # get_grant_object_by_oid
        return int(row[0]), int(row[1])
    import json  # not at import: `SELECT 1` reads no JSON

    from rwshim.common import rwtypes  # (its dataclass: not at start-up)

    text = str(obj).strip()
    head, _, rest = text.partition("(")
    parts = [_ident(p) for p in _split(head, ".")]
    wanted = [rwtypes.parse(t) for t in _split(rest.rpartition(")")[0], ",") if t.strip()]
    name = parts[-1]
    shown = f"{name}({', '.join(_type_name(t) for t in wanted)})"
    if len(parts) > 1:
        schemas = [parts[-2]]
    else:
        schemas = [ctx.user if s == USER_WILDCARD else s for s in ctx.search_path]
    for schema in schemas:
        rows = conn.execute(
            "SELECT f.function_id, f.owner_id, f.arg_types FROM function f"
            " JOIN schema sc ON sc.schema_id = f.schema_id"
            " WHERE f.database_id = ? AND sc.name = ? AND f.name = ? ORDER BY f.function_id",
            (ctx.database_id, schema, name),
        ).fetchall()
        for fid, owner, arg_types in rows:
            have = [rwtypes.parse(str(t[1])) for t in json.loads(arg_types)]
            if have == wanted:
                return int(fid), int(owner)
    raise _Invalid("function", f"function not found: {shown}")


def _split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside double quotes and parentheses."""
    out, cur, depth, quoted = [], "", 0, False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "()":
            depth += 1 if ch == "(" else -1
        elif not quoted and depth == 0 and ch == sep:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return out


def _ident(text: str) -> str:
    """One name part: a quoted one as written, else folded to lower case."""
    t = text.strip()
    if len(t) >= 2 and t[0] == t[-1] == '"':
        return t[1:-1].replace('""', '"')
    return t.lower()


def _type_name(t: RwType) -> str:
    """A type as RisingWave's DataType displays it (integer, character varying, ...)."""
    return t.scalar_name or str(t)
