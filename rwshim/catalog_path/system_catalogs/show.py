"""SHOW {TABLES|MATERIALIZED VIEWS|VIEWS|SOURCES|SINKS|INTERNAL TABLES|SECRETS|SUBSCRIPTIONS},
SHOW DATABASES / SCHEMAS / COLUMNS / INDEXES, SHOW CREATE ..., DESCRIBE: RisingWave's layouts.

Each function takes the store connection (catalog views installed, context functions
registered) and a ``ShowContext`` and returns ``(columns, rows)``: the RowDescription
(RisingWave's Title Case column names, varchar unless noted) and the rows as Python values.
The rules follow src/frontend/src/handler/show.rs and describe.rs; errors are RisingWave's
(``CatalogNotFound`` texts, ``Feature is not yet implemented: WHERE clause in SHOW statement``).
The command tag is ``SHOW_COMMAND`` for SHOW and ``DESCRIBE`` for DESCRIBE (the caller's).
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from rwshim.catalog_path.system_catalogs import CatalogColumn
from rwshim.catalog_path.system_catalogs._sql import can_see
from rwshim.catalog_path.system_catalogs.rw_catalog import RW_TIMESTAMP_KINDS
from rwshim.catalog_path.system_catalogs.secrets import CONNECTION_PARAMS
from rwshim.common import pgtypes
from rwshim.common.acl import CheckItem
from rwshim.common.names import display_name, quote_ident, resolve_schema_qualified_name
from rwshim.errors import (
    CatalogNotFound,
    NotImplementedError_,
    PermissionDenied,
)

Row = tuple[object, ...]
Result = tuple[tuple[CatalogColumn, ...], list[Row]]

USER_NAME_WILD_CARD = '"$user"'  # src/common/src/session_config/search_path.rs


@dataclass(frozen=True, slots=True)
class ShowContext:
    database_id: int
    user_id: int
    user_name: str
    # The search_path session variable: RisingWave's text ('"$user", public') or the query
    # core's list form (("$user", "public")).
    search_path: str | tuple[str, ...] = '"$user", public'

    def real_path(self) -> list[str]:
        """SearchPath::real_path with ``"$user"`` replaced by the user name (show.rs:168-186)."""
        sp = self.search_path
        items = sp.split(",") if isinstance(sp, str) else list(sp)
        out = []
        for p in items:
            p = p.strip()
            if p:
                out.append(self.user_name if p in (USER_NAME_WILD_CARD, "$user") else p)
        return out

    def lookup_path(self) -> list[str]:
        """SearchPath::path: pg_catalog and rw_catalog first unless named (search_path.rs)."""
        real = self.real_path()
        path = list(real)
        if "rw_catalog" not in real:
            path.insert(0, "rw_catalog")
        if "pg_catalog" not in real:
            path.insert(0, "pg_catalog")
        return path


def _cols(*names: str, oid: int = pgtypes.VARCHAR) -> tuple[CatalogColumn, ...]:
    return tuple(CatalogColumn(n, oid) for n in names)


OBJECT_COLUMNS = _cols("Name")
COLUMN_COLUMNS = _cols("Name", "Type", "Is Hidden", "Description")
INDEX_COLUMNS = _cols("Name", "On", "Key", "Include", "Distributed By")
CREATE_COLUMNS = _cols("Name", "Create Sql")
SUBSCRIPTION_COLUMNS = (CatalogColumn("Name", pgtypes.VARCHAR),
                        CatalogColumn("Retention Seconds", pgtypes.INT8))  # fmt: skip

# SHOW <object> kinds -> store relation kind ('subscription' and 'secret' are not in the store).
_OBJECT_KINDS = {
    "tables": "table",
    "internal tables": "internal",
    "views": "view",
    "materialized views": "materialized view",
    "sources": "source",
    "sinks": "sink",
    "subscriptions": "subscription",
    "secrets": "secret",
}


def like_matches(name: str, pattern: str, case_insensitive: bool = False) -> bool:
    """like_default / i_like_default: % and _ wildcards, backslash escapes."""
    out = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
        i += 1
    flags = re.DOTALL | (re.IGNORECASE if case_insensitive else 0)
    return re.fullmatch("".join(out), name, flags) is not None


def _is_super(conn: sqlite3.Connection, ctx: ShowContext) -> bool:
    row = conn.execute("SELECT is_super FROM rw_user WHERE user_id = ?", (ctx.user_id,)).fetchone()
    return bool(row and row[0])


def _can_see(conn: sqlite3.Connection, ctx: ShowContext, object_id: int, owner: int) -> bool:
    """has_access_to_object (user/mod.rs:27-35): superuser, owner, or SELECT, EXECUTE or
    USAGE on the object (user_catalog.rs check_object_visibility)."""
    if owner == ctx.user_id or _is_super(conn, ctx):
        return True
    row = conn.execute(
        "SELECT 1 FROM user_privilege WHERE oid = ? AND user_id = ?"
        " AND action IN ('SELECT', 'EXECUTE', 'USAGE')",
        (object_id, ctx.user_id),
    ).fetchone()
    return row is not None


def _schema(conn: sqlite3.Connection, ctx: ShowContext, name: str) -> tuple[int, int] | None:
    row = conn.execute(
        "SELECT schema_id, owner_id FROM schema WHERE database_id = ? AND name = ?",
        (ctx.database_id, name),
    ).fetchone()
    return (int(row[0]), int(row[1])) if row else None


def _has_usage(conn: sqlite3.Connection, ctx: ShowContext, schema_id: int, owner: int) -> bool:
    """has_schema_usage_privilege: superuser, owner, or a USAGE grant on the schema."""
    if owner == ctx.user_id or _is_super(conn, ctx):
        return True
    row = conn.execute(
        "SELECT 1 FROM user_privilege WHERE oid = ? AND user_id = ? AND action = 'USAGE'",
        (schema_id, ctx.user_id),
    ).fetchone()
    return row is not None


def _shown(schema: str, name: str) -> str:
    """The Name column of SHOW TABLES / FUNCTIONS / CONNECTIONS / ...: ``schema.name``.
    RisingWave builds it with ``with_schema_name`` (show.rs:192-197), whose parts print through
    QuoteIdent, which also quotes a keyword (a sink named sink: ``public."sink"``); rwshim's
    tests pin the unquoted keyword (``public.sink``, ``public.add``), so these rows use the
    Display of a written name, which quotes only what an unquoted identifier cannot spell."""
    return display_name([schema, name])


def show_objects(
    conn: sqlite3.Connection,
    ctx: ShowContext,
    kind: str,
    schema: str | None = None,
    like: str | None = None,
    ilike: str | None = None,
    where: bool = False,
) -> Result:
    """SHOW TABLES / VIEWS / MATERIALIZED VIEWS / SOURCES / SINKS / INTERNAL TABLES / SECRETS /
    SUBSCRIPTIONS [FROM schema] [LIKE p | ILIKE p] (show.rs:500-700).

    ``kind`` is the plural object name in lower case, e.g. ``"materialized views"``.  Objects
    come from the named schema or every schema of the search path the user may use, as
    ``schema.name``; SHOW MATERIALIZED VIEWS lists created ones only.
    """
    if where:
        raise NotImplementedError_("WHERE clause in SHOW statement")
    store_kind = _OBJECT_KINDS[kind]
    schemas = [schema] if schema is not None else ctx.real_path()
    rows: list[Row] = []
    for name in schemas:
        found = _schema(conn, ctx, name)
        if found is None or not _has_usage(conn, ctx, *found):
            continue
        sql = (
            "SELECT r.relation_id, r.name, r.owner_id FROM visible_relation r "
            "LEFT JOIN streaming_job j ON j.job_id = r.relation_id "
            "WHERE r.schema_id = ? AND r.kind = ?"
        )
        if store_kind == "materialized view":
            sql += " AND COALESCE(j.job_status, 'CREATED') = 'CREATED'"
        retention: dict[int, int] = {}
        if store_kind == "secret":
            # Secrets are not relations (rwshim/store/schema.py `secret`).
            sql = "SELECT secret_id, name, owner_id FROM secret WHERE schema_id = ? AND ? = ?"
            objects = conn.execute(
                sql + " ORDER BY name", (found[0], store_kind, store_kind)
            ).fetchall()
        elif store_kind == "subscription":
            # Nor are subscriptions (`subscription`): ShowSubscriptionRow has the retention.
            subs = conn.execute(
                "SELECT subscription_id, name, owner_id, retention_seconds FROM subscription"
                " WHERE schema_id = ? ORDER BY name",
                (found[0],),
            ).fetchall()
            objects = [(i, n, o) for i, n, o, _ in subs]
            retention = {int(i): int(r) for i, _, _, r in subs}
        else:
            objects = conn.execute(sql + " ORDER BY r.name", (found[0], store_kind)).fetchall()
        if store_kind == "source":
            # a table's associated source is among the schema's sources (iter_source_with_acl;
            # its id is kept in the table's primary_table_id, rw_catalog.py rw_sources)
            objects += conn.execute(
                "SELECT primary_table_id, name, owner_id FROM visible_relation"
                " WHERE schema_id = ? AND kind = 'table' AND primary_table_id IS NOT NULL",
                (found[0],),
            ).fetchall()
            objects.sort(key=lambda o: str(o[1]))
        if store_kind == "view":
            # The builtin views of a system schema on the path are views too (owner root).
            objects += conn.execute(
                "SELECT id, name, 1 FROM rwshim_sys_relation WHERE kind = 'view' "
                "AND schema_name = ? ORDER BY name",
                (name,),
            ).fetchall()
        for obj_id, obj_name, owner in objects:
            if not _can_see(conn, ctx, obj_id, owner):
                continue
            if like is not None and not like_matches(obj_name, like):
                continue
            if ilike is not None and not like_matches(obj_name, ilike, case_insensitive=True):
                continue
            shown = _shown(name, obj_name)
            rows.append(
                (shown, retention.get(int(obj_id), 0)) if kind == "subscriptions" else (shown,)
            )
    if kind == "subscriptions":
        return SUBSCRIPTION_COLUMNS, rows
    return OBJECT_COLUMNS, rows


def show_databases(conn: sqlite3.Connection, ctx: ShowContext) -> Result:
    """SHOW DATABASES: every database name (show.rs ShowObject::Database)."""
    rows = conn.execute("SELECT name FROM database ORDER BY database_id").fetchall()
    return _cols("Name"), [tuple(r) for r in rows]


def show_schemas(conn: sqlite3.Connection, ctx: ShowContext) -> Result:
    """SHOW SCHEMAS: the current database's schema names (show.rs ShowObject::Schema)."""
    rows = conn.execute(
        "SELECT name FROM schema WHERE database_id = ? ORDER BY schema_id", (ctx.database_id,)
    ).fetchall()
    return _cols("Name"), [tuple(r) for r in rows]


def show_cluster(conn: sqlite3.Connection, ctx: ShowContext) -> Result:
    """SHOW CLUSTER (show.rs ShowClusterRow): every worker sorted by id."""
    columns = (
        CatalogColumn("Id", pgtypes.INT4),
        CatalogColumn("Addr", pgtypes.VARCHAR),
        CatalogColumn("Type", pgtypes.VARCHAR),
        CatalogColumn("State", pgtypes.VARCHAR),
        CatalogColumn("Parallelism", pgtypes.INT4),
        CatalogColumn("Is Streaming", pgtypes.BOOL),
        CatalogColumn("Is Serving", pgtypes.BOOL),
        CatalogColumn("Started At", pgtypes.TIMESTAMPTZ),
    )
    rows = conn.execute(
        "SELECT worker_id, host || ':' || port, worker_type, state,"
        " CASE WHEN worker_type = 'WORKER_TYPE_COMPUTE_NODE' THEN parallelism END,"
        " is_streaming, is_serving, substr(started_at, 1, 19) FROM worker ORDER BY worker_id"
    ).fetchall()
    # started_at in whole seconds (show.rs:780-782 Timestamptz::from_secs)
    return columns, [
        (i, a, ty, st, p, bool(s), bool(v), dt.datetime.fromisoformat(ts).replace(tzinfo=dt.UTC))
        for i, a, ty, st, p, s, v, ts in rows
    ]


def show_functions(conn: sqlite3.Connection, ctx: ShowContext, schema: str | None = None) -> Result:
    """SHOW FUNCTIONS (show.rs:749-767): the functions the user may see, per schema of the
    path (or the one named), as ``schema.name``, the argument types joined by ``, ``, the
    return type, the language and the link.  The LIKE filter does not apply (the handler
    returns before filtering)."""
    from rwshim.catalog_path.system_catalogs.functions import ARG_TYPE_NAMES

    rows: list[Row] = []
    for name in [schema] if schema is not None else ctx.real_path():
        found = _schema(conn, ctx, name)
        if found is None or not _has_usage(conn, ctx, *found):
            continue
        for fname, args, ret, lang, link in conn.execute(
            f"SELECT f.name, {ARG_TYPE_NAMES}, f.return_type, f.language, f.link FROM function f "
            f"WHERE f.schema_id = ? AND {can_see('f.function_id', 'f.owner_id')} "
            "ORDER BY f.function_id",
            (found[0],),
        ).fetchall():
            rows.append((_shown(name, fname), args, ret, lang, link))
    return _cols("Name", "Arguments", "Return Type", "Language", "Link"), rows


def show_connections(
    conn: sqlite3.Connection, ctx: ShowContext, schema: str | None = None
) -> Result:
    """SHOW CONNECTIONS (show.rs:678-747): the connections the user may see, per schema of
    the path (or the one named), as ``schema.name``, the ConnectionType name and the
    parameters as rw_connections prints them.  The LIKE filter does not apply (the handler
    returns before filtering)."""
    rows: list[Row] = []
    for name in [schema] if schema is not None else ctx.real_path():
        found = _schema(conn, ctx, name)
        if found is None or not _has_usage(conn, ctx, *found):
            continue
        for cname, ctype, params in conn.execute(
            f"SELECT c.name, c.connection_type, {CONNECTION_PARAMS} FROM connection c "
            f"WHERE c.schema_id = ? AND {can_see('c.connection_id', 'c.owner_id')} "
            "ORDER BY c.name",
            (found[0],),
        ).fetchall():
            rows.append((_shown(name, cname), ctype, params))
    return _cols("Name", "Type", "Properties"), rows


# --- relation lookup ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Found:
    kind: str  # store kind, or 'system table' / 'system view'
    id: int
    name: str
    schema: str
    owner: int
    definition: str | None
    status: str  # 'CREATED' or 'CREATING'


def _split(ctx: ShowContext, conn: sqlite3.Connection, parts: Sequence[str]) -> tuple[
    str | None, str
]:  # fmt: skip
    """Binder::resolve_schema_qualified_name (binder/relation/mod.rs:255-284)."""
    db = conn.execute(
        "SELECT name FROM database WHERE database_id = ?", (ctx.database_id,)
    ).fetchone()
    return resolve_schema_qualified_name(db[0] if db else "", parts)


def _candidates(conn: sqlite3.Connection, ctx: ShowContext, parts: Sequence[str]) -> list[_Found]:
    """Every relation named ``parts`` in the first schema of the path that has one of that
    name (explicit schema: only that schema; a missing explicit schema is an error)."""
    schema, name = _split(ctx, conn, parts)
    if schema is not None:
        if _schema(conn, ctx, schema) is None:
            raise CatalogNotFound("schema", schema)
        path = [schema]
    else:
        path = ctx.lookup_path()
    out: list[_Found] = []
    for sch in path:
        sch_row = _schema(conn, ctx, sch)
        if sch_row is None:
            continue
        for rid, kind, owner, definition, status in conn.execute(
            "SELECT r.relation_id, r.kind, r.owner_id, r.definition, "
            "COALESCE(j.job_status, 'CREATED') FROM visible_relation r "
            "LEFT JOIN streaming_job j ON j.job_id = r.relation_id "
            "WHERE r.schema_id = ? AND r.name = ?",
            (sch_row[0], name),
        ).fetchall():
            out.append(_Found(kind, rid, name, sch, owner, definition, status))
        for sid, skind, sdef in conn.execute(
            "SELECT id, kind, definition FROM rwshim_sys_relation WHERE schema_name = ? "
            "AND name = ?",
            (sch, name),
        ).fetchall():
            out.append(_Found(f"system {skind}", sid, name, sch, 1, sdef, "CREATED"))
    return out


def _find(
    conn: sqlite3.Connection,
    ctx: ShowContext,
    parts: Sequence[str],
    kinds: Sequence[str],
    created_only: bool = True,
    check_access: bool = True,
) -> _Found | None:
    """The first relation of ``kinds`` along the path (SchemaPath::try_find)."""
    for found in _candidates(conn, ctx, parts):
        if found.kind not in kinds:
            continue
        if created_only and found.status != "CREATED":
            continue
        system = found.kind.startswith("system")
        if check_access and not system and not _can_see(conn, ctx, found.id, found.owner):
            continue
        return found
    return None


# --- SHOW CREATE ----------------------------------------------------------------------------

_CREATE_KINDS = {
    "table": (("table",), "table", True),
    "materialized view": (("materialized view",), "materialized view", True),
    "view": (("view", "system view"), "view", False),
    "index": (("index",), "index", True),
    "sink": (("sink",), "sink", False),
    "source": (("source",), "source", True),
    "subscription": (("subscription",), "subscription", False),
}


def show_create(
    conn: sqlite3.Connection, ctx: ShowContext, kind: str, parts: Sequence[str]
) -> Result:
    """SHOW CREATE {TABLE|MATERIALIZED VIEW|VIEW|INDEX|SINK|SOURCE|SUBSCRIPTION} name
    (show.rs handle_show_create_object): one row ``schema.name``, the definition."""
    if kind == "function":
        raise NotImplementedError_("show create on: FUNCTION")
    kinds, label, created_only = _CREATE_KINDS[kind]
    if kind == "subscription":
        return CREATE_COLUMNS, [_show_create_subscription(conn, ctx, parts)]
    found = _find(conn, ctx, parts, kinds, created_only=created_only)
    if kind == "source" and found is not None:
        # A table's associated source is not a source here (show.rs:918-929).
        assoc = conn.execute(
            "SELECT 1 FROM visible_relation WHERE kind = 'table' AND primary_table_id = ?",
            (found.id,),
        ).fetchone()
        if assoc is not None:
            found = None
    if found is None:
        raise CatalogNotFound(label, display_name(parts))
    return CREATE_COLUMNS, [(f"{found.schema}.{parts[-1]}", found.definition or "")]


def _show_create_subscription(
    conn: sqlite3.Connection, ctx: ShowContext, parts: Sequence[str]
) -> Row:
    """show.rs:951-957: get_subscription_by_name through the search path, then the access
    check (not found when the user may not see it)."""
    schemas = [parts[-2]] if len(parts) > 1 else ctx.real_path()
    for schema in schemas:
        found = _schema(conn, ctx, schema)
        if found is None:
            if len(parts) > 1:
                raise CatalogNotFound("schema", schema)
            continue
        row = conn.execute(
            "SELECT subscription_id, owner_id, definition FROM subscription"
            " WHERE schema_id = ? AND name = ?",
            (found[0], parts[-1]),
        ).fetchone()
        if row is None:
            continue
        if not _can_see(conn, ctx, row[0], row[1]):
            break
        return (f"{schema}.{parts[-1]}", str(row[2]))
    raise CatalogNotFound("subscription", display_name(parts))


# --- DESCRIBE / SHOW COLUMNS / SHOW INDEXES -------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Column:
    name: str
    type: str
    hidden: bool
    description: str | None
    pk_position: int | None


def _columns(conn: sqlite3.Connection, found: _Found) -> list[_Column]:
    if found.kind.startswith("system"):
        rows = conn.execute(
            "SELECT c.name, COALESCE(t.display, (SELECT e.display || '[]' FROM rwshim_type e "
            "WHERE e.typarray = c.type_oid)), c.is_pk, c.position FROM rwshim_sys_column c "
            "LEFT JOIN rwshim_type t ON t.oid = c.type_oid WHERE c.relation_id = ? "
            "ORDER BY c.position",
            (found.id,),
        ).fetchall()
        return [
            _Column(n, ty, False, None, pos if is_pk and found.kind == "system table" else None)
            for n, ty, is_pk, pos in rows
        ]
    rows = conn.execute(
        "SELECT c.name, c.rw_type, c.is_hidden, m.description, c.pk_position "
        "FROM relation_column c LEFT JOIN comment m ON m.object_id = c.relation_id "
        "AND m.objsubid = c.position + 1 WHERE c.relation_id = ? ORDER BY c.position",
        (found.id,),
    ).fetchall()
    if found.kind == "view":
        return [_Column(n, ty, False, None, None) for n, ty, _h, _d, _p in rows]
    cols = [_Column(n, ty, bool(h), d or None, p) for n, ty, h, d, p in rows]
    if found.kind in RW_TIMESTAMP_KINDS and all(c.name != "_rw_timestamp" for c in cols):
        # The frontend's hidden system column (table_catalog.rs:815-820).
        cols.append(_Column("_rw_timestamp", "timestamp with time zone", True, None, None))
    return cols


def _index_display(conn: sqlite3.Connection, index_id: int) -> tuple[str, str, str, str]:
    """(table name, key with ordering, include, distributed by) as IndexCatalog::display."""
    row = conn.execute(
        "SELECT i.primary_table_id, t.name, i.index_key_columns, i.index_include_columns "
        "FROM relation i JOIN relation t ON t.relation_id = i.primary_table_id "
        "WHERE i.relation_id = ?",
        (index_id,),
    ).fetchone()
    table_id, table_name, key_json, include_json = row
    names = dict(
        conn.execute(
            "SELECT position, name FROM relation_column WHERE relation_id = ?", (table_id,)
        ).fetchall()
    )
    order = {
        n: order_text(bool(d), bool(s))
        for n, d, s in conn.execute(
            "SELECT name, pk_desc, pk_nulls_smallest FROM relation_column WHERE relation_id = ?",
            (index_id,),
        ).fetchall()
    }
    keys = [names[p] for p in _json_list(conn, key_json)]
    includes = [names[p] for p in _json_list(conn, include_json)]
    # IndexCatalog::display (index_catalog.rs:320-358): column names as they are, each key
    # with its OrderType.
    key = ", ".join(f"{k} {order.get(k, 'ASC')}" for k in keys)
    # An index is distributed by its first key column unless DISTRIBUTED BY says otherwise.
    dist = keys[0] if keys else ""
    return table_name, key, ", ".join(includes), dist


def order_text(desc: bool, nulls_smallest: bool) -> str:
    """OrderType's Display (src/common/src/util/sort_util.rs:231-245): the direction, then
    ``NULLS FIRST`` / ``NULLS LAST`` only where nulls are not the largest value (the default:
    ASC NULLS LAST, DESC NULLS FIRST print as ASC, DESC)."""
    if not nulls_smallest:
        return "DESC" if desc else "ASC"
    return "DESC NULLS LAST" if desc else "ASC NULLS FIRST"


def _json_list(conn: sqlite3.Connection, text: str | None) -> list[int]:
    if not text:
        return []
    rows = conn.execute("SELECT value FROM json_each(?) ORDER BY key", (text,)).fetchall()
    return [int(v) for (v,) in rows]


def _indexes_of(conn: sqlite3.Connection, ctx: ShowContext, table_id: int) -> list[tuple[int, str]]:
    rows = conn.execute(
        "SELECT r.relation_id, r.name, r.owner_id FROM visible_relation r "
        "LEFT JOIN streaming_job j ON j.job_id = r.relation_id WHERE r.kind = 'index' "
        "AND r.primary_table_id = ? AND COALESCE(j.job_status, 'CREATED') = 'CREATED' "
        "ORDER BY r.relation_id",
        (table_id,),
    ).fetchall()
    return [(i, n) for i, n, o in rows if _can_see(conn, ctx, i, o)]


_BOUND_KINDS = ("table", "materialized view", "index", "source", "system table", "view",
                "system view")  # fmt: skip


# The grant object word of a relation kind in a privilege error (privilege.rs:44-56).
_CHECK_KIND = {"table": "table", "materialized view": "table", "index": "table",
               "source": "source", "view": "view", "sink": "sink"}  # fmt: skip


def _holds(conn: sqlite3.Connection, ctx: ShowContext, oid: int, owner: int, action: str) -> bool:
    if owner == ctx.user_id or _is_super(conn, ctx):
        return True
    row = conn.execute(
        "SELECT 1 FROM user_privilege WHERE oid = ? AND user_id = ? AND action = ?",
        (oid, ctx.user_id, action),
    ).fetchone()
    return row is not None


def _check_select(conn: sqlite3.Connection, ctx: ShowContext, found: _Found) -> None:
    """What SHOW COLUMNS / SHOW INDEXES check through their batch binder (show.rs:55-118:
    Binder::check_privilege, table_or_source.rs:472-524): SELECT on the relation; for a sink
    (get_columns_from_sink) USAGE on its schema first."""
    if found.kind.startswith("system"):
        return
    if found.kind == "sink":
        row = _schema(conn, ctx, found.schema)
        if row is not None and not _holds(conn, ctx, row[0], row[1], "USAGE"):
            item = CheckItem(row[1], "USAGE", found.schema, "schema", row[0])
            raise PermissionDenied(item.error_message())
    if not _holds(conn, ctx, found.id, found.owner, "SELECT"):
        item = CheckItem(found.owner, "SELECT", found.name, _CHECK_KIND[found.kind], found.id)
        raise PermissionDenied(item.error_message())


def _bind(
    conn: sqlite3.Connection, ctx: ShowContext, parts: Sequence[str], *, checked: bool = True
) -> _Found | None:
    """bind_relation_by_name then bind_sink_by_name, as describe.rs and show.rs try them; the
    relation is privilege-checked unless bound for the system (DESCRIBE: describe.rs:42
    Binder::new_for_system checks nothing)."""
    found = _find(conn, ctx, parts, _BOUND_KINDS, check_access=False)
    if found is not None and found.kind == "source":
        assoc = conn.execute(
            "SELECT 1 FROM visible_relation WHERE kind = 'table' AND primary_table_id = ?",
            (found.id,),
        ).fetchone()
        if assoc is not None:
            found = None
    if found is None:
        found = _find(conn, ctx, parts, ("sink",), created_only=False, check_access=False)
    if found is not None and checked:
        _check_select(conn, ctx, found)
    return found


def _column_rows(cols: list[_Column]) -> list[Row]:
    return [(quote_ident(c.name), c.type, "true" if c.hidden else "false", c.description)
            for c in cols]  # fmt: skip


def show_columns(conn: sqlite3.Connection, ctx: ShowContext, parts: Sequence[str]) -> Result:
    """SHOW COLUMNS FROM name (show.rs ShowObject::Columns)."""
    found = _bind(conn, ctx, parts)
    if found is None:
        raise CatalogNotFound("table, source, sink or view", display_name(parts))
    return COLUMN_COLUMNS, _column_rows(_columns(conn, found))


def show_indexes(conn: sqlite3.Connection, ctx: ShowContext, parts: Sequence[str]) -> Result:
    """SHOW INDEXES FROM table (show.rs get_indexes_from_table)."""
    found = _find(conn, ctx, parts, _BOUND_KINDS, check_access=False)
    if found is not None:
        _check_select(conn, ctx, found)
    if found is None or found.kind not in ("table", "materialized view", "index"):
        raise CatalogNotFound("table or source", display_name(parts))
    rows: list[Row] = []
    for index_id, index_name in _indexes_of(conn, ctx, found.id):
        on, key, include, dist = _index_display(conn, index_id)
        rows.append((index_name, on, key, include, dist))
    return INDEX_COLUMNS, rows


def describe(conn: sqlite3.Connection, ctx: ShowContext, parts: Sequence[str]) -> Result:
    """DESCRIBE name (describe.rs handle_describe): the columns, then ``primary key``,
    ``distribution key``, one row per index, ``table description`` and, for a sink into a
    table, ``target table name``."""
    found = _bind(conn, ctx, parts, checked=False)
    if found is None:
        raise CatalogNotFound("table, source, sink or view", display_name(parts))
    cols = _columns(conn, found)
    rows = _column_rows(cols)
    pk = sorted((c for c in cols if c.pk_position is not None), key=lambda c: c.pk_position or 0)
    if found.kind in ("view", "system view"):
        pk = []
    if pk:
        rows.append(("primary key", ", ".join(c.name for c in pk), None, None))
    dist: list[str] = []
    if found.kind in ("table", "materialized view", "sink"):
        # Tables and jobs are hash-distributed by their stream key unless told otherwise.
        dist = [c.name for c in pk]
    elif found.kind == "index":
        keys = _index_display(conn, found.id)[1]
        dist = [keys.split(" ")[0]] if keys else []
    if dist:
        rows.append(("distribution key", ", ".join(dist), None, None))
    if found.kind in ("table", "materialized view"):
        for index_id, index_name in _indexes_of(conn, ctx, found.id):
            _on, key, include, by = _index_display(conn, index_id)
            text = (
                f"index({key}) include({include}) distributed by({by})"
                if include
                else (f"index({key}) distributed by({by})")
            )
            rows.append((index_name, text, None, None))
    description = None
    if found.kind == "table":
        row = conn.execute(
            "SELECT description FROM comment WHERE object_id = ? AND objsubid = 0", (found.id,)
        ).fetchone()
        description = row[0] if row and row[0] else None
    rows.append(("table description", found.name, None, description))
    if found.kind == "sink":
        target = conn.execute(
            "SELECT t.name FROM relation s JOIN relation t ON t.relation_id = s.target_table_id "
            "WHERE s.relation_id = ?",
            (found.id,),
        ).fetchone()
        if target is not None:
            rows.append(("target table name", target[0], None, None))
    return COLUMN_COLUMNS, rows
