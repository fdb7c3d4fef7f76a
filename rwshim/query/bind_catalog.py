"""Catalog rewrites: what RisingWave answers from its catalog, bound as catalog relation reads.

RisingWave evaluates these against its frontend catalog; rwshim binds them as (correlated)
subqueries over the catalog relations (rwshim/query/catalog), so the answer follows the catalog
whatever engine runs the statement:

- ``'name'::regclass`` (expr/function_impl/cast_regclass.rs): a constant naming a user
  relation is its id at bind time (an unknown name is ``relation "..." does not exist``),
  anything else a lookup in ``pg_class`` over the visible schemas; ``::regnamespace`` and
  ``regnamespace::text`` through ``pg_namespace``;
- ``pg_table_is_visible`` (expr/function_impl/pg_table_is_visible.rs:33-70: system catalogs
  always, other relations when their schema is on the search path, else NULL),
  ``pg_get_userbyid`` (pg_get_userbyid.rs), ``pg_get_viewdef`` (pg_get_viewdef.rs: the query
  of a view or materialized view, not its CREATE statement) and ``pg_get_indexdef``
  (pg_get_indexdef.rs).

The catalog relations themselves are resolved by resolve.py and read through the lowering's
``system_relation``; the templates below are PostgreSQL and bound like any query.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp

from rwshim import pgtypes
from rwshim.errors import CatalogNotFound, NotImplementedError_
from rwshim.query import types
from rwshim.query.parse import lit_int
from rwshim.query.resolve import SystemRelation
from rwshim.query.type_inference import func_args, func_name

if TYPE_CHECKING:
    from rwshim.query.bind_expr import ExprBinder


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
        f"WHERE __rw_c.relname = ? AND __rw_n.nspname IN ({path}) LIMIT 1",
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
        rel = tx.b.resolve_relation(None, schema, name)
    except (CatalogNotFound, NotImplementedError_):
        raise CatalogNotFound("relation", text) from None
    if isinstance(rel, SystemRelation):
        return None
    return rel.id


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
    "pg_get_userbyid": (
        "SELECT COALESCE((SELECT __rw_r.rolname FROM pg_catalog.pg_roles AS __rw_r "
        "WHERE __rw_r.oid = ? LIMIT 1), 'unknown (OID=' || ? || ')')",
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
        if name == "pg_get_userbyid":
            args = [args[0], args[0].copy()]
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
