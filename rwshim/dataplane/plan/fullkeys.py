"""A streaming job's ``FULL [OUTER] JOIN`` drops its rows whose keys are all NULL.

RisingWave's stream plan of a full outer join filters its output "to maintain the stream
key's uniqueness": a row is kept only when some column of the left side's stream key, of the
right side's, or of an equi-join key of either side is not NULL
(src/frontend/src/optimizer/plan_node/logical_join.rs:1770-1801, ``LogicalFilter::
filter_out_all_null_keys``, logical_filter.rs:78-90; issue 8084: a row of NULL keys from
either side would be the same (NULL, NULL) row downstream).  So ``t FULL JOIN t ON t1.a =
t2.a`` over a NULL key gives no row (e2e_test/streaming/bug_fixes/issue_8084.slt), nor does a
join of two global aggregations' NULL keys (join/full_outer_join_global_agg.slt.part).  A batch
query keeps those rows.

The join is wrapped, keeping both sides' names visible to the rest of the query::

    A FULL JOIN B ON c   ->   (A FULL JOIN B ON c) JOIN (SELECT) AS _rw_fkN
                                  ON (A.k IS NOT NULL OR B.k IS NOT NULL OR ...)

A side's stream key is a table's primary key (else its ``_row_id``), or a materialized view's
as its query shows it (its GROUP BY columns, all its columns under DISTINCT, none for an
aggregation without GROUP BY).  Where rwshim cannot name a side's key or an equi-join key
(another kind of side, an equality of expressions, USING) the join is left as PostgreSQL
runs it: rwshim's limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlglot import exp

from rwshim.binder.binder_checks import has_agg
from rwshim.binder.parse import parse
from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.asof import condition_span
from rwshim.dataplane.plan.fulljoin import column_fields, column_side, conjuncts_of, join_spans
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import RwError
from rwshim.sql.tokens import Token, tokenize

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter


def splice(rw: _Rewriter) -> None:
    if not rw.streaming or b"full" not in rw.text.lower():
        return
    toks: list[Token] | None = None
    n = 0
    for _, item in rw.shape.joins():
        keys = _keys(rw, item)
        if not keys:
            continue
        if toks is None:
            toks = tokenize(rw.text.decode())
        spans = join_spans(rw.text, toks, item)
        if spans is None:
            continue
        a_span, _, _, on = spans
        cond = condition_span(rw.text, on)
        kept = " OR ".join(f"{k} IS NOT NULL" for k in keys)
        rw.sp.insert(a_span[0], "(")
        rw.sp.insert(cond[1], f") JOIN (SELECT) AS _rw_fk{n} ON ({kept})")
        n += 1


def _keys(rw: _Rewriter, item: tree.JoinItem) -> list[str] | None:
    """The columns of the filter (qualified PostgreSQL text), or None to leave the join."""
    if item.kind != "JOIN_FULL" or item.quals is None or item.using or item.natural:
        return None
    if item.alias is not None:
        return None
    a, b = item.left, item.right
    if not (_plain(a) and _plain(b)):
        return None
    assert isinstance(a, tree.RelRef) and isinstance(b, tree.RelRef)
    rel_a, rel_b = rw.routed.relation_of(a), rw.routed.relation_of(b)
    if not isinstance(rel_a, Relation) or not isinstance(rel_b, Relation):
        return None
    key_a, key_b = stream_key(rel_a), stream_key(rel_b)
    if key_a is None or key_b is None:
        return None
    names_a, names_b = rw.item_names(a), rw.item_names(b)
    pairs = _equalities(item.quals, (a.exposed, names_a), (b.exposed, names_b))
    if not pairs:
        return None  # no equi-join key rwshim can name (or a nested loop: plan/fulljoin)
    cols_a = key_a + [p[0] for p in pairs]
    cols_b = key_b + [p[1] for p in pairs]
    out = [f"{qi(a.exposed)}.{qi(c)}" for c in cols_a]
    out += [f"{qi(b.exposed)}.{qi(c)}" for c in cols_b]
    return list(dict.fromkeys(out))


def _plain(item: tree.FromItem) -> bool:
    return (
        isinstance(item, tree.RelRef)
        and item.location >= 0
        and not item.window
        and item.cte is None
        and not item.colnames
    )


def _equalities(
    quals: Any, a: tuple[str, list[str] | None], b: tuple[str, list[str] | None]
) -> list[tuple[str, str]] | None:
    """The (left column, right column) of each conjunct ``x = y`` / ``x IS NOT DISTINCT FROM
    y`` joining a column of one side to one of the other (the join's equi-join keys:
    EqJoinPredicate); None when such an equality is of expressions (the planner projects
    them into a key column rwshim does not name here)."""
    out: list[tuple[str, str]] = []
    for c in conjuncts_of(quals):
        ae = c.get("A_Expr")
        if ae is None:
            continue
        name = [n.get("String", {}).get("sval") for n in ae.get("name") or []]
        if not (
            (ae.get("kind") == "AEXPR_OP" and name[-1:] == ["="])
            or ae.get("kind") == "AEXPR_NOT_DISTINCT"
        ):
            continue
        operands = (ae.get("lexpr") or {}, ae.get("rexpr") or {})
        sides = []
        for operand in operands:
            found = {column_side(f, a, b) for f in column_fields(operand)}
            sides.append(found.pop() if len(found) == 1 else None)
        if None in sides or sides[0] == sides[1]:
            continue  # not an equality across the sides
        x, y = _plain_column(operands[0]), _plain_column(operands[1])
        if x is None or y is None:
            return None
        out.append((x, y) if sides[0] == "a" else (y, x))
    return out


def _plain_column(operand: Any) -> str | None:
    ref = operand.get("ColumnRef")
    if ref is None:
        return None
    fields = [f["String"]["sval"] for f in ref.get("fields") or [] if "String" in f]
    return fields[-1] if fields else None


def stream_key(rel: Relation) -> list[str] | None:
    """A side's stream key as column names of ``rel``, None when rwshim cannot tell."""
    if rel.kind == RelKind.TABLE:
        if rel.primary_key:
            return list(rel.primary_key)
        if any(c.hidden and c.name == "_row_id" for c in rel.columns):
            return ["_row_id"]
        return None
    if rel.kind != RelKind.MATERIALIZED_VIEW or rel.definition is None:
        return None
    try:
        q = parse(rel.definition)
    except RwError:
        return None
    if not isinstance(q, exp.Select) or q.args.get("with_") is not None:
        return None
    visible = [c.name for c in rel.visible_columns]
    items = q.expressions
    if len(items) != len(visible):
        return None
    group = q.args.get("group")
    distinct = q.args.get("distinct")
    if distinct is not None:
        return None if distinct.args.get("on") is not None else visible
    if group is None:
        # an aggregation without GROUP BY: one row, no key (generic/agg.rs stream_key)
        return [] if any(has_agg(e, frozenset()) for e in items) else None
    keys = []
    for g in group.expressions:
        pos = _output_position(g, items)
        if pos is None:
            return None
        keys.append(visible[pos])
    return keys


def _output_position(g: exp.Expr, items: list[exp.Expr]) -> int | None:
    """The output column a GROUP BY key is (as a plain column or an ordinal), or None."""
    if isinstance(g, exp.Literal) and not g.is_string and g.this.isdigit():
        i = int(g.this) - 1
        return i if 0 <= i < len(items) else None
    if not isinstance(g, exp.Column):
        return None
    for i, e in enumerate(items):
        inner = e.this if isinstance(e, exp.Alias) else e
        if isinstance(inner, exp.Column) and inner.name == g.name and inner.table == g.table:
            return i
    return None
