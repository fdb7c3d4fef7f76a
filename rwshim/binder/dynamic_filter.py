"""Which joins RisingWave's stream planner cannot plan: a join with no equality between its
two sides is a hash join of nothing, so it is planned as a temporal join (``proctime()``), as a
dynamic filter, or refused as a "streaming nested-loop join"
(optimizer/plan_node/logical_join.rs:1640-1656, ``ToStream for LogicalJoin``).

A dynamic filter (logical_join.rs:507-543 ``dynamic_filter_candidate``) needs an inner join
whose right side yields at most one row (``max_one_row``, plan_visitor/cardinality_visitor.rs)
and has one column, a join condition of exactly one comparison ``<``, ``<=``, ``>``, ``>=``
(expr/mod.rs:751-774 ``as_comparison_cond``) of a left expression with a right one (the
planner projects expressions and casts into the two sides: planner_test dynamic_filter.yaml,
"Complex expression on RHS", "unequal types"), and an output taken from the left side only
("Ensure error on output columns from inner").  A join of two FROM items keeps their order
(a multi-join is reordered only from three inputs: rule/merge_multijoin_rule.rs:24-26).

The cardinality of a scanned materialized view is the one its plan had at CREATE
(``TableCatalog::cardinality``, optimizer/mod.rs:848-855 ``compute_cardinality``), so a view's
is found again from its query, by the visitor's rules: a VALUES has its rows, a simple
aggregation at most one, a LIMIT / TopN its limit, a grouped aggregation, a projection, a filter,
a window, a dedup what its input has, a join the product of its sides, anything else unknown.

rwshim refuses only where this is certain; where its reading of the query runs out (a
subquery in a condition, a star it cannot expand, three or more joined items that RisingWave
reorders) the query is left to the planner that runs it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlglot import exp

from rwshim.binder.binder_checks import has_agg
from rwshim.binder.parse import parse
from rwshim.binder.relations import Relation, RelKind
from rwshim.binder.type_inference import is_srf
from rwshim.errors import NotSupported, RwError

# a relation by (schema or None for the search path, name), as the query's session sees it
Lookup = Callable[[str | None, str], Relation | None]

_HINT = (
    "The non-equal join in the query requires a nested-loop join executor, which could be very"
    " expensive to run. Consider rewriting the query to use dynamic filter as a substitute if"
    " possible.\nSee also: https://docs.risingwave.com/processing/sql/dynamic-filters"
)

# as_comparison_cond's comparisons (expr/mod.rs:754-757)
_COMPARISONS = (exp.LT, exp.LTE, exp.GT, exp.GTE)
# how deep views over views are followed
_DEPTH = 16


def nested_loop_refusal() -> NotSupported:
    """RisingWave's refusal of a join only a nested loop answers (logical_join.rs:1650-1656):
    also a FULL JOIN with no equality of its two sides (the data plane finds those)."""
    return NotSupported("streaming nested-loop join", _HINT)


@dataclass
class _Item:
    """One FROM item: the name its columns are qualified by, its column names (None when
    rwshim cannot list them), and whether it yields at most one row (None: unknown)."""

    alias: str
    columns: list[str] | None
    one_row: bool | None


def _ident(node: exp.Expr | None) -> str | None:
    if not isinstance(node, exp.Identifier):
        return None
    return str(node.this) if node.quoted else str(node.this).lower()


class _Reader:
    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup

    # -- cardinality (plan_visitor/cardinality_visitor.rs) --------------------------------

    def relation_one_row(self, rel: Relation, depth: int) -> bool | None:
        """``LogicalScan``: the table's cardinality (logical_scan.rs:146-149): unknown for a
        table or a source (stream_materialize.rs:221), the plan's for a materialized view; a
        view is its query, planned in place."""
        if rel.kind not in (RelKind.MATERIALIZED_VIEW, RelKind.VIEW):
            return False
        if rel.definition is None or depth > _DEPTH:
            return None
        try:
            tree = parse(rel.definition)
        except RwError:
            return None
        return self.one_row(tree, {}, depth + 1)

    def one_row(self, node: exp.Expr, ctes: dict[str, exp.Expr], depth: int) -> bool | None:
        """Whether the query ``node`` yields at most one row by the cardinality visitor's
        rules (True / False), or None where rwshim cannot tell."""
        if isinstance(node, exp.Subquery):
            return self.one_row(node.this, ctes, depth)
        if isinstance(node, exp.Values):
            return len(node.expressions) <= 1  # visit_logical_values (:62-64)
        if isinstance(node, (exp.Except, exp.Intersect)):
            return False  # the default: unknown (:56-59)
        if not isinstance(node, exp.Select):
            return None
        scope = self.with_ctes(node, ctes)
        if scope is None:
            return None
        ctes = scope
        limit = node.args.get("limit")
        count = limit.args.get("expression") if isinstance(limit, exp.Limit) else None
        if isinstance(count, exp.Literal) and not count.is_string and count.this in ("0", "1"):
            return True  # visit_logical_limit / visit_logical_top_n (:87-89, :99-124)
        group = node.args.get("group")
        if group is not None and any(
            isinstance(g, (exp.GroupingSets, exp.Rollup, exp.Cube)) for g in group.expressions
        ):
            return False  # LogicalExpand multiplies its input (:230-232)
        if group is None and any(has_agg(e, frozenset()) for e in node.expressions):
            return True  # a simple aggregation (visit_logical_agg :78-85)
        if any(is_srf(f) for e in node.expressions for f in e.find_all(exp.Func)):
            return False  # a ProjectSet: unknown
        frm = node.args.get("from_")
        if frm is None:
            return True  # one row of no columns
        card = self.item_one_row(frm.this, ctes, depth)
        for j in node.args.get("joins") or []:
            # inner / left / right / full: the product of the sides' at-most-one (:174-205)
            card = _and(card, self.item_one_row(j.this, ctes, depth))
        return card

    def item_one_row(self, item: exp.Expr, ctes: dict[str, exp.Expr], depth: int) -> bool | None:
        if isinstance(item, exp.Subquery):
            return self.one_row(item.this, ctes, depth)
        if isinstance(item, exp.Table) and isinstance(item.this, exp.Identifier):
            name = _ident(item.this)
            schema = _ident(item.args.get("db"))
            if name is None:
                return None
            if schema is None and name in ctes:
                return self.one_row(ctes[name], ctes, depth)
            rel = self.lookup(schema, name)
            return None if rel is None else self.relation_one_row(rel, depth)
        return False if isinstance(item, (exp.Table, exp.Unnest, exp.Lateral)) else None

    def with_ctes(self, node: exp.Expr, ctes: dict[str, exp.Expr]) -> dict[str, exp.Expr] | None:
        with_ = node.args.get("with_")
        if with_ is None:
            return ctes
        if with_.args.get("recursive"):
            return None
        out = dict(ctes)
        for cte in with_.expressions:
            name = _ident(cte.args.get("alias") and cte.args["alias"].this)
            if name is None or cte.args["alias"].columns:
                return None
            out[name] = cte.this
        return out

    # -- FROM items --------------------------------------------------------------------------

    def item(self, node: exp.Expr, ctes: dict[str, exp.Expr], depth: int) -> _Item | None:
        """A FROM item rwshim can read (a relation, a CTE, an aliased subquery), or None."""
        alias_node = node.args.get("alias")
        if isinstance(alias_node, exp.TableAlias) and alias_node.columns:
            return None
        alias = _ident(alias_node.this) if isinstance(alias_node, exp.TableAlias) else None
        if isinstance(node, exp.Subquery):
            if alias is None:
                return None
            return _Item(alias, _output_names(node.this), self.one_row(node.this, ctes, depth))
        if not (
            isinstance(node, exp.Table)
            and isinstance(node.this, exp.Identifier)
            and not node.args.get("joins")
            and node.args.get("when") is None
        ):
            return None
        name = _ident(node.this)
        schema = _ident(node.args.get("db"))
        if name is None or node.args.get("catalog") is not None:
            return None
        if schema is None and name in ctes:
            q = ctes[name]
            return _Item(alias or name, _output_names(q), self.one_row(q, ctes, depth))
        rel = self.lookup(schema, name)
        if rel is None:
            return None
        cols = [c.name for c in rel.visible_columns]
        return _Item(alias or name, cols, self.relation_one_row(rel, depth))


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


def _output_names(node: exp.Expr) -> list[str] | None:
    """The column names a query gives, or None where rwshim cannot tell (a star, a set
    operation, an unnamed expression)."""
    if isinstance(node, exp.Subquery):
        return _output_names(node.this)
    if not isinstance(node, exp.Select):
        return None
    out: list[str] = []
    for e in node.expressions:
        if isinstance(e, exp.Alias):
            name = _ident(e.args.get("alias"))
        elif isinstance(e, exp.Column) and not isinstance(e.this, exp.Star):
            name = _ident(e.this)
        else:
            return None
        if name is None:
            return None
        out.append(name)
    return out


def _conjuncts(node: exp.Expr | None) -> list[exp.Expr]:
    """The conjuncts of a condition, the factors common to every branch of an OR taken out as
    the planner takes them (expr/utils.rs:382-417 ``factorization_expr``: ``(a AND b) OR (a
    AND c)`` is ``a AND (b OR c)``; TPC-H q19's join key)."""
    if node is None:
        return []
    if isinstance(node, exp.Paren):
        return _conjuncts(node.this)
    if isinstance(node, exp.And):
        return _conjuncts(node.this) + _conjuncts(node.expression)
    if isinstance(node, exp.Or):
        branches = [_conjuncts(b) for b in _disjuncts(node)]
        texts = [{c.sql() for c in b} for b in branches]
        common = [c for c in branches[-1] if all(c.sql() in t for t in texts[:-1])]
        shared = {c.sql() for c in common}
        rests = [[c for c in b if c.sql() not in shared] for b in branches]
        if not common or any(not r for r in rests):
            return [*common] if common else [node]  # a branch of the common factors only: TRUE
        remaining = exp.or_(*(exp.and_(*r) for r in rests))
        return [*common, remaining]
    return [node]


def _disjuncts(node: exp.Expr) -> list[exp.Expr]:
    if isinstance(node, exp.Paren):
        return _disjuncts(node.this)
    if isinstance(node, exp.Or):
        return _disjuncts(node.this) + _disjuncts(node.expression)
    return [node]


def _sides(node: exp.Expr, items: list[_Item]) -> set[int] | None:
    """The indexes of the items ``node``'s columns read, or None where rwshim cannot tell (a
    subquery, a column no item or two items have, a star)."""
    if node.find(exp.Subquery, exp.Select, exp.Star) is not None:
        return None
    out: set[int] = set()
    for col in node.find_all(exp.Column):
        table = _ident(col.args.get("table"))
        name = _ident(col.this)
        if name is None or col.args.get("db") is not None:
            return None
        if table is not None:
            hits = [i for i, it in enumerate(items) if it.alias == table]
        else:
            if any(it.columns is None for it in items):
                return None
            hits = [i for i, it in enumerate(items) if name in (it.columns or [])]
        if len(hits) != 1:
            return None
        out.add(hits[0])
    return out


def _join_items(select: exp.Select) -> tuple[list[exp.Expr], list[exp.Expr]] | None:
    """The FROM items of an inner join of ``select`` (``,``, CROSS JOIN, [INNER] JOIN ... ON)
    and the ON conditions, or None for any other join (outer, USING, NATURAL, LATERAL)."""
    frm = select.args.get("from_")
    joins = select.args.get("joins") or []
    if frm is None or not joins:
        return None
    items = [frm.this]
    ons: list[exp.Expr] = []
    for j in joins:
        used = {k for k, v in j.args.items() if v is not None} - {"this", "kind", "on"}
        if used or j.args.get("kind") not in (None, "CROSS", "INNER"):
            return None
        items.append(j.this)
        if j.args.get("on") is not None:
            ons.append(j.args["on"])
    return items, ons


def _is_equi(cond: exp.Expr, items: list[_Item]) -> bool:
    """An equality (``=`` or ``IS NOT DISTINCT FROM``) of an expression of one item with one of
    another: a hash join key (utils/condition.rs split_eq_keys; the planner projects the
    expressions into the sides)."""
    if not isinstance(cond, (exp.EQ, exp.NullSafeEQ)):
        return False
    a, b = _sides(cond.this, items), _sides(cond.expression, items)
    return a is not None and b is not None and len(a) == 1 and len(b) == 1 and a != b


def _connected(n: int, edges: list[set[int]]) -> bool:
    seen = {0}
    grew = True
    while grew:
        grew = False
        for e in edges:
            if e & seen and not e <= seen:
                seen |= e
                grew = True
    return len(seen) == n


def _outside_join(select: exp.Select) -> list[exp.Expr]:
    """What reads the join's output above it: the select list, GROUP BY, HAVING, ORDER BY,
    DISTINCT ON, QUALIFY."""
    out: list[exp.Expr] = list(select.expressions)
    for key in ("group", "having", "order", "distinct", "qualify"):
        v = select.args.get(key)
        if v is not None:
            out.append(v)
    return out


def _select_refusal(
    select: exp.Select, reader: _Reader, ctes: dict[str, exp.Expr]
) -> NotSupported | None:
    found = _join_items(select)
    if found is None:
        return None
    nodes, ons = found
    items: list[_Item] = []
    for node in nodes:
        it = reader.item(node, ctes, 0)
        if it is None:
            return None
        items.append(it)
    where = select.args.get("where")
    conds = [c for on in ons for c in _conjuncts(on)] + _conjuncts(
        where.this if where is not None else None
    )
    sides: list[set[int]] = []
    for c in conds:
        s = _sides(c, items)
        if s is None:
            return None
        sides.append(s)
    edges = [s for s in sides if len(s) > 1]
    if not _connected(len(items), edges):
        # some join has no condition between its sides, in whatever order it is planned
        return nested_loop_refusal()
    if len(items) > 2:
        return None  # reordered into a join tree rwshim does not rebuild
    cross = [c for c, s in zip(conds, sides, strict=True) if len(s) > 1]
    if any(_is_equi(c, items) for c in cross):
        return None  # a hash join
    # a dynamic filter (logical_join.rs:507-543), else the refusal
    if len(cross) != 1 or not isinstance(cross[0], _COMPARISONS):
        return nested_loop_refusal()
    a, b = _sides(cross[0].this, items), _sides(cross[0].expression, items)
    if not (
        a is not None
        and b is not None
        and {frozenset(a), frozenset(b)} == {frozenset({0}), frozenset({1})}
    ):
        return nested_loop_refusal()
    for e in _outside_join(select):
        s = _sides(e, items)
        if s is None:
            return None
        if 1 in s:
            return nested_loop_refusal()  # output from the right side
    right = items[1].one_row
    if right is None:
        return None
    return None if right else nested_loop_refusal()


def nested_loop_join(query: str, lookup: Lookup) -> NotSupported | None:
    """RisingWave's refusal of a streaming job's inner join that is neither a hash join, a
    temporal join nor a dynamic filter, or None."""
    if "proctime" in query.lower():
        return None  # a temporal join (binder/temporal_join.py checks its nested loop)
    try:
        tree = parse(query)
    except RwError:  # the binder reports a query it cannot read
        return None
    reader = _Reader(lookup)
    ctes = reader.with_ctes(tree, {})
    if ctes is None:
        return None
    for select in tree.find_all(exp.Select):
        inner = reader.with_ctes(select, ctes)
        if inner is None:
            return None
        refused = _select_refusal(select, reader, inner)
        if refused is not None:
            return refused
    return None
