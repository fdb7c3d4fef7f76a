"""The binder's checks and shapes that need no binder state: aggregates in a clause that takes
none and the grouping rule (optimizer/plan_node/logical_agg.rs:1040-1060, binder/select.rs),
the type of a set-returning function's output, a set-returning call's core, a field path, a
parenthesised join and a LATERAL subquery (binder/relation/mod.rs), ``now()`` calls, the
query a TUMBLE / HOP binds as (binder/relation/window_table_function.rs).  Pure functions of
the sqlglot tree, used by rwshim/binder/binder.py.
"""

from __future__ import annotations

from sqlglot import exp

from rwshim.binder import types
from rwshim.binder.lowering import Lowering
from rwshim.binder.parse import expr_text, ident
from rwshim.binder.resolve import Scope
from rwshim.binder.type_inference import UNKNOWN, func_name, is_srf
from rwshim.common import pgtypes
from rwshim.errors import BindError, BindExprError, InvalidInputSyntax, NotImplementedError_

# aggregates a query names by a function sqlglot has no class for (the lowering adds the
# names of the aggregate calls it produces)
_AGGREGATE_NAMES = frozenset(
    {
        "bool_and",
        "bool_or",
        "every",
        "count",
        "sum",
        "avg",
        "min",
        "max",
        "jsonb_agg",
        "jsonb_object_agg",
    }
)


def srf_type(name: str, bound: list[tuple[exp.Expr, int]]) -> int:
    """The element type of a set-returning function: generate_series of its first
    argument's type (int4 for untyped), generate_subscripts int4, unnest the array's element."""
    if name == "generate_series":
        return bound[0][1] if bound and bound[0][1] != UNKNOWN else pgtypes.INT4
    if name == "generate_subscripts":
        return pgtypes.INT4
    elem = types.element_of(bound[0][1]) or pgtypes.VARCHAR
    if name == "_pg_expandarray":
        # setof struct<x any, n int4> (expr/impl/src/table_function/pg_expandarray.rs)
        return types.struct_of((("x", elem), ("n", pgtypes.INT4)))
    return elem


def is_agg(node: exp.Expr, lowered: frozenset[str]) -> bool:
    if isinstance(node, (exp.AggFunc, exp.WithinGroup)):
        return True
    if isinstance(node, exp.Filter):
        # ``agg(...) FILTER (WHERE ...)``: the filter reads the rows being aggregated
        return is_agg(node.this, lowered)
    if not isinstance(node, exp.Anonymous):
        return False
    name = node.name.lower()
    return name in _AGGREGATE_NAMES or name in lowered


def has_agg(node: exp.Expr, lowered: frozenset[str]) -> bool:
    """An aggregate call at this query level (not inside a subquery or a window)."""
    if is_agg(node, lowered):
        return True
    if isinstance(node, (exp.Subquery, exp.Select, exp.Window, exp.Exists)):
        return False
    return any(has_agg(c, lowered) for c in node.iter_expressions())


def srf_core(node: exp.Expr) -> exp.Expr | None:
    """The set-returning call a select item is, unwrapping ``information_schema.`` (only
    ``_pg_expandarray`` lives there: binder/expr/function/mod.rs:96-110) and field access
    ``(f(...)).field``; None for any other item."""
    if isinstance(node, exp.Dot) and isinstance(node.this, exp.Paren):
        return srf_core(node.this.this)
    if (
        isinstance(node, exp.Dot)
        and isinstance(node.this, (exp.Identifier, exp.Var))
        and node.this.name.lower() == "information_schema"
        and isinstance(node.expression, exp.Func)
        and func_name(node.expression) == "_pg_expandarray"
    ):
        return node.expression
    return node if is_srf(node) else None


def field_path(node: exp.Expr) -> list[str]:
    """The fields read from an SRF item, outermost first: ``((f()).a).b`` -> [b, a]."""
    out: list[str] = []
    while isinstance(node, exp.Dot) and isinstance(node.this, exp.Paren):
        out.append(node.expression.name)
        node = node.this.this
    return out


def nested_join(item: exp.Expr) -> tuple[exp.Subquery, exp.Expr] | None:
    """``(a JOIN b ...)`` in FROM as sqlglot parses it: a Subquery without alias holding a
    relation that carries joins (or another nested join).  Returns the Subquery and that
    relation."""
    if not isinstance(item, exp.Subquery) or item.args.get("alias") is not None:
        return None
    inner = item.this
    if isinstance(inner, (exp.Table, exp.Subquery)) and inner.args.get("joins"):
        return item, inner
    if isinstance(inner, exp.Subquery) and nested_join(inner) is not None:
        return item, inner  # ((a JOIN b ...)): parentheses around a nested join
    return None


def no_aggregate(node: exp.Expr, clause: str, low: Lowering) -> None:
    """binder/expr/function/aggregate.rs:28-46 (clause names in TITLE CASE, bind_context.rs:64)."""
    if has_agg(node, low.aggregates):
        raise BindExprError(
            expr_text(node),
            InvalidInputSyntax(f"aggregate functions are not allowed in {clause}"),
        )


_GROUPING_ITEMS = (exp.GroupingSets, exp.Rollup, exp.Cube)


def group_keys(group: exp.Group | None) -> list[exp.Expr]:
    """The expressions of a GROUP BY clause, those of its one GROUPING SETS / ROLLUP / CUBE
    item included: the planner's group key is their union (LogicalAgg::create over
    GroupBy::GroupingSets / Rollup / Cube, planner/select.rs), so a column outside an aggregate
    may be any of them.  binder/select.rs:246-278 binds such an item only when it is the
    clause's one item: beside others it is the BindError ``Only support one grouping item in
    group by clause``."""
    if group is None:
        return []
    items = list(group.expressions)
    if len(items) > 1 and any(isinstance(g, _GROUPING_ITEMS) for g in items):
        raise BindError("Only support one grouping item in group by clause")
    out: list[exp.Expr] = []

    def flat(e: exp.Expr) -> None:
        if isinstance(e, (*_GROUPING_ITEMS, exp.Tuple)):
            for c in e.expressions:
                flat(c)
        elif isinstance(e, exp.Paren):
            flat(e.this)
        else:
            out.append(e)

    for g in items:
        if isinstance(g, _GROUPING_ITEMS):
            flat(g)
        else:
            out.append(g)
    return out


def check_grouping(node: exp.Select, scope: Scope, low: Lowering) -> None:
    """RisingWave's planner check (optimizer/plan_node/logical_agg.rs:1040-1060): in a grouped
    query every column outside an aggregate must be a GROUP BY expression (compared as the
    lowered expressions' text)."""
    group = node.args.get("group")
    items = [it.this if isinstance(it, exp.Alias) else it for it in node.expressions]
    having = node.args.get("having")
    roots = items + ([having.this] if having is not None else [])
    lowered = low.aggregates
    if group is None and not any(has_agg(r, lowered) for r in roots):
        return
    keys: set[str] = set()
    for g in group_keys(group):
        if isinstance(g, exp.Literal) and not g.is_string:
            g = items[int(g.this) - 1]
        keys.add(g.sql(dialect=low.dialect))
    local = {src.alias for src in scope.sources}

    def check(e: exp.Expr) -> None:
        if (
            e.sql(dialect=low.dialect) in keys
            or is_agg(e, lowered)
            or isinstance(e, (exp.Window, exp.Subquery, exp.Select, exp.Exists))
        ):
            return
        if isinstance(e, exp.Column) and e.table in local:
            raise InvalidInputSyntax(
                "column must appear in the GROUP BY clause or be used in an aggregate function"
            )
        for child in e.iter_expressions():
            check(child)

    for r in roots:
        check(r)


def is_now(e: exp.Expr) -> bool:
    """``now()`` as sqlglot reads it (CURRENT_TIMESTAMP)."""
    return isinstance(e, exp.CurrentTimestamp) or (
        isinstance(e, exp.Anonymous) and str(e.this).lower() == "now" and not e.expressions
    )


# the names RisingWave's AggType shows for aggregates called by another name (PbAggKind's
# as_str_name, lower case: expr/core/src/aggregate/def.rs:231-238)
_AGG_KIND_NAMES = {"stddev": "stddev_samp", "variance": "var_samp"}


def ignore_nulls_window(name: str) -> None:
    """``name(... IGNORE NULLS) OVER (...)``: only first_value / last_value take it; lag /
    lead not yet, any other window function never (binder/expr/function/window.rs:86-103)."""
    if name in ("first_value", "last_value"):
        return
    if name in ("lag", "lead"):
        raise NotImplementedError_(f"`IGNORE NULLS` is not supported for `{name}` yet")
    shown = _AGG_KIND_NAMES.get(name, name)
    raise InvalidInputSyntax(f"`IGNORE NULLS` is not allowed for `{shown}`")


def lateral_subquery(item: exp.Lateral) -> exp.Subquery | None:
    """``LATERAL (subquery) AS a`` as the Subquery FROM item it is, marked lateral (it sees
    the items before it: binder/relation/mod.rs:643-656 binds it with the lateral context
    visible), put in the Lateral's place; None for another LATERAL form."""
    sub = item.this
    if not isinstance(sub, exp.Subquery) or item.args.get("view"):
        return None
    sub.set("alias", item.args.get("alias"))
    sub.set("lateral", True)
    item.replace(sub)
    return sub


def window_query(name: str, args: list[exp.Expr], rel_sql: str) -> str:
    """The query TUMBLE(t, ts, size [, offset]) / HOP(t, ts, hop, size [, offset]) binds as:
    t's rows (as ``__rw_w``) with window_start and window_end, one row per row (TUMBLE) or per
    window containing it (HOP)."""
    ts = args[1]
    if isinstance(ts, exp.Column):
        ts = exp.Column(this=ts.this, table=ident("__rw_w"))
    ts_sql = ts.sql(dialect="postgres")
    rest = [a.sql(dialect="postgres") for a in args[2:]]
    if name == "tumble":
        size = rest[0]
        offset = f", {rest[1]}" if len(rest) > 1 else ""
        return (
            f"SELECT __rw_w.*, tumble_start({ts_sql}, {size}{offset}) AS window_start, "
            f"tumble_start({ts_sql}, {size}{offset}) + {size} AS window_end "
            f"FROM {rel_sql} AS __rw_w"
        )
    if len(rest) < 2:
        raise NotImplementedError_("hop with these arguments")
    hop, size = rest[0], rest[1]
    offset = f", {rest[2]}" if len(rest) > 2 else ""
    return (
        f"SELECT __rw_w.*, __rw_h.window_start, __rw_h.window_start + {size} AS "
        f"window_end FROM {rel_sql} AS __rw_w CROSS JOIN "
        f"unnest(rw_hop_starts({ts_sql}, {hop}, {size}{offset})) AS __rw_h(window_start)"
    )
