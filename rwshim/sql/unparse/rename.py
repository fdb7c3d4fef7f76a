"""Definitions rewritten when a relation is renamed, as RisingWave's meta node does it
(src/meta/src/controller/rename.rs at 448c657):

- ``rename_relation``: ``alter_relation_rename`` (31-67), the created object's own name;
- ``rename_refs``: ``alter_relation_rename_refs`` (71-127) with its ``QueryRewriter``
  (146-467): a reference ``FROM a`` to the renamed relation becomes ``FROM new_a AS a`` (an
  existing alias is kept), so that column references need no rewrite.  The rewriter visits
  exactly what RisingWave's does (not a CASE, a LIMIT, an IN list, a FILTER, ...), and an index,
  a sink ``FROM`` or a subscription gets the new name whatever its old one.

Both parse the stored definition, edit the tree and print it again, as RisingWave does.
"""

from __future__ import annotations

from rwshim.sql.unparse import ddl_display
from rwshim.sql.unparse import display as d
from rwshim.sql.unparse import nodes as n
from rwshim.sql.unparse.ddl import DdlParser


def _parse(definition: str) -> n.Statement | n.Query:
    p = DdlParser(definition)
    out: n.Statement | n.Query
    out = p.parse_create() if p.peek_kw() == "CREATE" else p.parse_query()
    if not p.at_end():
        raise p.error("expected end of statement")
    return out


def _print(stmt: n.Statement | n.Query) -> str:
    return d.query(stmt) if isinstance(stmt, n.Query) else ddl_display.statement(stmt)


def _replace_last(name: n.ObjectName, to: str) -> None:
    name.parts[-1] = d.from_real_value(to)


def rename_relation(definition: str, new_name: str) -> str:
    """alter_relation_rename: the created object's name ends in ``new_name``."""
    if not definition:
        return definition
    stmt = _parse(definition)
    if isinstance(stmt, n.Query):
        raise ValueError("a query has no name to rename")
    _replace_last(stmt.name, new_name)
    return _print(stmt)


def rename_refs(definition: str, from_: str, to: str) -> str:
    """alter_relation_rename_refs: references to relation ``from_`` now name ``to``."""
    stmt = _parse(definition)
    rw = _Rewriter(from_, to)
    if isinstance(stmt, n.Query):
        rw.query(stmt)
    elif isinstance(stmt, (n.CreateView, n.CreateTable)) and stmt.query is not None:
        rw.query(stmt.query)
    elif isinstance(stmt, n.CreateTable) and stmt.cdc is not None:
        _replace_last(stmt.cdc[0], to)
    elif isinstance(stmt, n.CreateIndex):
        _replace_last(stmt.table, to)
    elif isinstance(stmt, n.CreateSubscription):
        _replace_last(stmt.from_name.name, to)
    elif isinstance(stmt, n.CreateSink):
        into = stmt.into_table
        if into is not None and into.name.parts[-1].real_value() == from_:
            _replace_last(into.name, to)
        elif stmt.from_name is not None:
            _replace_last(stmt.from_name.name, to)
        elif stmt.query is not None:
            rw.query(stmt.query)
    else:
        raise ValueError("only tables, sinks, subscriptions, views and indexes refer to others")
    return _print(stmt)


class _Rewriter:
    """QueryRewriter: the visits of rename.rs:146-467, no more and no fewer."""

    def __init__(self, from_: str, to: str) -> None:
        self.from_ = from_
        self.to = to

    def query(self, q: n.Query) -> None:
        for c in q.with_ or []:
            if c.query is not None:
                self.query(c.query)
            elif c.changelog is not None and self._is_from(c.changelog.name):
                _replace_last(c.changelog.name, self.to)
        self.set_expr(q.body)
        for o in q.order_by:
            self.expr(o.expr)

    def _is_from(self, name: n.ObjectName) -> bool:
        return name.parts[-1].real_value() == self.from_

    def table_factor(self, t: n.TableFactor) -> None:
        if isinstance(t, n.TableRef):
            if self._is_from(t.name):
                if t.alias is None:
                    t.alias = n.TableAlias(d.from_real_value(self.from_))
                _replace_last(t.name, self.to)
        elif isinstance(t, n.Derived):
            self.query(t.query)
        elif isinstance(t, n.TableFunction):
            for a in t.args:
                self.function_arg(a)
        else:
            self.table_with_joins(t.inner)

    def table_with_joins(self, t: n.TableWithJoins) -> None:
        self.table_factor(t.relation)
        for j in t.joins:
            self.table_factor(j.relation)

    def set_expr(self, s: n.SetExpr) -> None:
        if isinstance(s, n.Select):
            if isinstance(s.distinct, list):
                for e in s.distinct:
                    self.expr(e)
            for item in s.projection:
                self.wildcard_or_expr(item.expr)
            for f in s.from_:
                self.table_with_joins(f)
            for opt in [s.selection, *s.group_by, s.having]:
                if opt is not None:
                    self.expr(opt)
            for w in s.window:
                self.window(w.spec)
        elif isinstance(s, n.QueryBody):
            self.query(s.query)
        elif isinstance(s, n.SetOperation):
            self.set_expr(s.left)
            self.set_expr(s.right)

    def window(self, w: n.WindowSpec) -> None:
        for e in w.partition_by:
            self.expr(e)
        for o in w.order_by:
            self.expr(o.expr)

    def wildcard_or_expr(self, e: n.Expr | n.Wildcard | n.SecretRef) -> None:
        if isinstance(e, n.Wildcard):
            if e.expr is not None:
                self.expr(e.expr)
            for x in e.except_ or []:
                self.expr(x)
        elif not isinstance(e, n.SecretRef):
            self.expr(e)

    def function_arg(self, a: n.FunctionArg) -> None:
        self.wildcard_or_expr(a.arg)

    def expr(self, e: n.Expr) -> None:
        for sub in _visited(e):
            if isinstance(sub, n.Query):
                self.query(sub)
            else:
                self.expr(sub)
        if isinstance(e, n.Function):
            for a in e.args:
                self.function_arg(a)
            for o in e.order_by:
                self.expr(o.expr)
            if isinstance(e.over, n.WindowSpec):
                self.window(e.over)


def _visited(e: n.Expr) -> list[n.Expr | n.Query]:
    """The children QueryRewriter::visit_expr walks into (rename.rs:344-448)."""
    if isinstance(e, (n.FieldIdentifier, n.IsCheck, n.IsJson, n.Quantified, n.UnaryOp)):
        return [e.expr]
    if isinstance(e, (n.InList, n.Cast, n.Extract, n.Substring, n.Overlay, n.Trim, n.Nested)):
        return [e.expr]
    if isinstance(e, (n.Index, n.ArrayRange)):
        return [e.obj]
    if isinstance(e, n.AtTimeZone):
        return [e.timestamp]
    if isinstance(e, n.Position):
        return [e.substring, e.string]
    if isinstance(e, n.InSubquery):
        return [e.expr, e.query]
    if isinstance(e, n.Between):
        return [e.expr, e.low, e.high]
    if isinstance(e, n.Like):
        return [e.expr, e.pattern]
    if isinstance(e, (n.IsDistinctFrom, n.BinaryOp)):
        return [e.left, e.right]
    if isinstance(e, (n.Exists, n.Subquery, n.ArraySubquery)):
        return [e.query]
    if isinstance(e, n.Grouping):
        return [x for s in e.sets for x in s]
    if isinstance(e, (n.Row, n.Array)):
        return list(e.items)
    if isinstance(e, n.Map):
        return [x for kv in e.entries for x in kv]
    if isinstance(e, n.Lambda):
        return [e.body]
    # Identifier, CompoundIdentifier, Collate, Value, Interval, Parameter, TypedString, Case,
    # Function (visited by the caller): no children walked
    return []
