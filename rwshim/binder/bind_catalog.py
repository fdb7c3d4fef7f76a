"""Catalog rewrites: what RisingWave answers from its catalog, bound as catalog relation reads.

RisingWave evaluates these against its frontend catalog; rwshim binds them as (correlated)
subqueries over the catalog relations (rwshim/catalog_path/system_catalogs), so the answer follows
the catalog
whatever engine runs the statement:

- ``'name'::regclass`` (expr/function_impl/cast_regclass.rs): a constant naming a user
  relation is its id at bind time (an unknown name is ``relation "..." does not exist``),
  anything else a lookup in ``pg_class`` over the visible schemas; ``::regnamespace`` and
  ``regnamespace::text`` through ``pg_namespace``;
- ``pg_table_is_visible`` (expr/function_impl/pg_table_is_visible.rs:33-70: system catalogs
  always, other relations when their schema is on the search path, else NULL),
  ``pg_get_userbyid`` (pg_get_userbyid.rs), ``pg_get_viewdef`` (pg_get_viewdef.rs: the query
  of a view or materialized view, not its CREATE statement) and ``pg_get_indexdef``
  (pg_get_indexdef.rs);
- ``has_table_privilege`` & co (binder/expr/function/builtin_scalar.rs:669-740): the current
  user made the first argument when there are two, a table's name cast to ``regclass``, then
  ``rw_has_privilege(kind, function name, user, object, privileges)``, answered from the
  store's privileges at run time (expr/function_impl/has_privilege.rs).

The catalog relations themselves are resolved by resolve.py and read through the lowering's
``system_relation``; the templates below are PostgreSQL and bound like any query.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp

from rwshim.binder import types
from rwshim.binder.parse import lit_int
from rwshim.binder.resolve import SystemRelation
from rwshim.binder.type_inference import func_args, func_name
from rwshim.common import pgtypes
from rwshim.errors import CatalogNotFound, NotImplementedError_, RwError

if TYPE_CHECKING:
    from rwshim.binder.bind_expr import ExprBinder


def regclass(tx: ExprBinder, inner: exp.Expr) -> tuple[exp.Expr, int]:
    """``inner::regclass`` (an int4 oid)."""
    new, frm = tx.bind(inner)
    if frm in types.INTEGER_OIDS:
        return new, pgtypes.INT4
    if isinstance(new, exp.Literal) and new.is_string:
        const = _regclass_const(tx, new.this)
        if const is not None:
            return lit_int(const), pgtypes.INT4
    # by name at run time: through pg_class of the visible schemas
    path = ", ".join(f"'{s}'" for s in tx.b.ctx.resolved_path())
    sub = sqlglot.parse_one(
        "SELECT __rw_c.oid FROM pg_catalog.pg_class AS __rw_c "
        "JOIN pg_catalog.pg_namespace AS __rw_n ON __rw_n.oid = __rw_c.relnamespace "
        f"WHERE __rw_c.relname = ? AND __rw_n.nspname IN ({path})"
        # a table's associated source shares its name: the table is found first
        " ORDER BY __rw_c.relkind = 's' LIMIT 1",
        read="postgres",
    )
    sub.find(exp.Placeholder).replace(new)  # type: ignore[union-attr]
    tx.b.query(sub, tx.scope)
    return exp.Subquery(this=sub), pgtypes.INT4


def _regclass_const(tx: ExprBinder, text: str) -> int | None:
    """The oid of a user relation named by a constant; None for a system relation (looked
    up in pg_class at run time)."""
    parts = [p.strip('"') for p in text.split(".")]
    name = parts[-1]
    schema = parts[-2] if len(parts) >= 2 else None
    try:
        rel = tx.b.resolve_relation(None, schema, name, check=False)  # cast_regclass.rs
    except (CatalogNotFound, NotImplementedError_):
        found = _any_relation(tx, schema, name)
        if found is None:
            raise CatalogNotFound("relation", text) from None
        return found
    if isinstance(rel, SystemRelation):
        return None
    return rel.id


def _any_relation(tx: ExprBinder, schema: str | None, name: str) -> int | None:
    """A relation no query reads but a class name still names: get_id_by_class_name
    (catalog/root_catalog.rs:1233-1260) also finds sinks and jobs still being created, so
    ``has_table_privilege('s', ...)`` answers for a sink."""
    ctx = tx.b.ctx
    for path in [schema] if schema is not None else ctx.resolved_path():
        rel = tx.b.relations.relation(ctx.database_id, path, name)
        if rel is not None:
            return rel.id
    return None


def regnamespace(tx: ExprBinder, new: exp.Expr) -> exp.Expr:
    """A bound schema name as its ``regnamespace`` oid."""
    return _lookup(
        tx,
        new,
        "SELECT __rw_n.oid FROM pg_catalog.pg_namespace AS __rw_n WHERE __rw_n.nspname = ?",
    )


def nspname(tx: ExprBinder, new: exp.Expr) -> exp.Expr:
    """A bound ``regnamespace`` oid as the schema's name."""
    return _lookup(
        tx,
        new,
        "SELECT __rw_n.nspname FROM pg_catalog.pg_namespace AS __rw_n WHERE __rw_n.oid = ?",
    )


def _lookup(tx: ExprBinder, new: exp.Expr, sql: str) -> exp.Expr:
    sub = sqlglot.parse_one(sql, read="postgres")
    sub.find(exp.Placeholder).replace(new)  # type: ignore[union-attr]
    tx.b.query(sub, tx.scope)
    return exp.Subquery(this=sub)


# aliases are prefixed so they never capture the caller's correlated names
_TEMPLATES: dict[str, tuple[str, int]] = {
    # RisingWave: system catalogs are always visible, others when their schema is on
    # the search path, else NULL (expr/function_impl/pg_table_is_visible.rs:33-70)
    "pg_table_is_visible": (
        "SELECT __rw_c.oid FROM pg_catalog.pg_class AS __rw_c JOIN "
        "pg_catalog.pg_namespace AS __rw_n ON __rw_n.oid = __rw_c.relnamespace "
        "WHERE __rw_n.nspname IN ({path}, 'information_schema')",
        pgtypes.BOOL,
    ),
    # the user's name, NULL for an id no user has (expr/function_impl/pg_get_userbyid.rs:25-34:
    # get_user_name_by_id is an Option; PostgreSQL's 'unknown (OID=n)' is not RisingWave's)
    "pg_get_userbyid": (
        "SELECT __rw_r.rolname FROM pg_catalog.pg_roles AS __rw_r WHERE __rw_r.oid = ? LIMIT 1",
        pgtypes.VARCHAR,
    ),
    # RisingWave answers with the query of a view or materialized view (handler
    # pg_get_viewdef.rs), not the whole CREATE statement
    "pg_get_viewdef": (
        "SELECT rw_view_query(__rw_r.definition) FROM rw_catalog.rw_relations AS __rw_r "
        "WHERE __rw_r.id = ? "
        "AND __rw_r.relation_type IN ('view', 'materialized view') LIMIT 1",
        pgtypes.VARCHAR,
    ),
    "pg_get_indexdef": (
        "SELECT __rw_r.definition FROM rw_catalog.rw_relations AS __rw_r "
        "WHERE __rw_r.id = ? LIMIT 1",
        pgtypes.VARCHAR,
    ),
}

CATALOG_FUNCTIONS = frozenset(_TEMPLATES)


def catalog_function(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """pg_table_is_visible / pg_get_userbyid / pg_get_viewdef ...: correlated subqueries
    over the catalog relations, so the answer follows the catalog."""
    name = func_name(node)
    args = [tx.bind(a)[0] for a in func_args(node)]
    path = ", ".join(f"'{s}'" for s in tx.b.ctx.resolved_path())
    template, oid = _TEMPLATES[name]
    sql = template.replace("{path}", path)
    try:
        sub = sqlglot.parse_one(sql, read="postgres")
        holes = list(sub.find_all(exp.Placeholder))
        for hole, arg in zip(holes, args, strict=False):
            hole.replace(arg)
        for hole in holes[len(args) :]:
            hole.replace(exp.Null())
        tx.b.query(sub, tx.scope)
        if name == "pg_table_is_visible":
            # an uncorrelated IN list, built once per statement rather than once per row
            visible = exp.In(this=args[0], query=exp.Subquery(this=sub))
            return exp.Case(
                ifs=[exp.If(this=visible, true=tx.low.boolean(True))], default=exp.Null()
            ), oid
    except (CatalogNotFound, NotImplementedError_):
        # the catalog relation it needs is not installed: PostgreSQL's neutral answer
        return (exp.Null() if oid == pgtypes.VARCHAR else tx.low.boolean(True)), oid
    return exp.Subquery(this=sub), oid


# has_*_privilege -> the kind of object its second argument names (has_privilege.rs)
PRIVILEGE_FUNCTIONS: dict[str, str] = {
    "has_table_privilege": "table",
    "has_any_column_privilege": "any_column",
    "has_database_privilege": "database",
    "has_schema_privilege": "schema",
    "has_function_privilege": "function",
}


def privilege_function(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """has_table_privilege / has_any_column_privilege / has_database_privilege /
    has_schema_privilege / has_function_privilege (builtin_scalar.rs:669-740)."""
    name = func_name(node)
    raw = list(func_args(node))
    bound = [tx.bind(a) for a in raw]
    if len(bound) == 2:
        raw.insert(0, exp.Literal.string(tx.b.ctx.user))
        bound.insert(0, (exp.Literal.string(tx.b.ctx.user), pgtypes.VARCHAR))
    if len(bound) != 3:
        raise RwError("Expr error", f"Too many/few arguments for pg_catalog.{name}()")
    kind = PRIVILEGE_FUNCTIONS[name]
    args = [b[0] for b in bound]
    if kind in ("table", "any_column") and bound[1][1] in types.STRING_OIDS | {pgtypes.UNKNOWN}:
        args[1] = regclass(tx, raw[1])[0]
    call = tx.low.call(
        "rw_has_privilege", [exp.Literal.string(kind), exp.Literal.string(name), *args]
    )
    return call, pgtypes.BOOL
