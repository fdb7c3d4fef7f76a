"""The query a materialized view (or a sink) reads, kept bound to the relations it was created
on whatever happens to their names.

RisingWave binds a materialized view's query once, at CREATE, to relation ids; renaming or
moving an upstream (``ALTER ... RENAME``, ``SET SCHEMA``, ``ALTER SCHEMA ... RENAME``) leaves
the running job untouched.  rwshim reads a materialized view as its query, so it keeps the
query as a *template*: the user's own query text plus, for every relation reference the
binder resolved, its character span, the relation id and the name as written.  ``render``
prints the template with each reference spelled as the relation's current qualified name
(``"schema"."name"``, with the database when it is another one), adding ``AS <written name>``
when the name changed and no alias was given, as rename.rs does for definitions, so column
references such as ``t.v1`` keep binding.  Nothing else of the user's text changes.

A name is a reference when RisingWave's binder would look it up in the catalog: a table
factor (or ``changelog FROM``) that is not an unqualified name of a CTE in scope
(binder/relation/mod.rs bind_relation_by_name); ``resolve`` says which relation it is
(None: a system catalog, left as written).
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from dataclasses import dataclass

from rwshim.common.names import quoted
from rwshim.sql.cache import TextLRU
from rwshim.sql.unparse import nodes as n
from rwshim.sql.unparse.cursor import UnparseError
from rwshim.sql.unparse.query import parse_query


@dataclass(frozen=True, slots=True)
class Ref:
    start: int
    end: int
    after: int  # where an alias goes
    relation_id: int
    written: str  # the last name part as written (its real value)
    aliased: bool


@dataclass(frozen=True, slots=True)
class Template:
    text: str
    refs: tuple[Ref, ...]

    def to_json(self) -> str:
        refs = [[r.start, r.end, r.after, r.relation_id, r.written, r.aliased] for r in self.refs]
        return json.dumps({"text": self.text, "refs": refs})

    @staticmethod
    def from_json(data: str) -> Template:
        obj = json.loads(data)
        refs = tuple(
            Ref(int(a), int(b), int(c), int(i), str(w), bool(al))
            for a, b, c, i, w, al in obj["refs"]
        )
        return Template(str(obj["text"]), refs)


@dataclass(frozen=True, slots=True)
class View:
    """What a reference to a view expands to: its stored SQL and column names."""

    sql: str
    columns: tuple[str, ...]


# (database, schema, name) parts as real values -> relation id, or None (not a user relation)
Resolve = Callable[[list[str]], int | None]
# relation id -> the view it is, None for any other relation
ViewOf = Callable[[int], View | None]
# relation id -> (database name, schema name, relation name), or None if it is gone
Locate = Callable[[int], tuple[str, str, str] | None]

_MAX_VIEW_DEPTH = 32


def template(query_text: str, resolve: Resolve, view_of: ViewOf | None = None) -> Template:
    """The template of ``query_text`` (a query as RisingWave parses one).

    A reference to a view is expanded in place, as RisingWave's binder expands it when the
    materialized view is created (binder/relation/table_or_source.rs:594-660): the view's SQL
    becomes ``(SELECT * FROM (<sql>) AS "<view>" ("<col>", ...))`` with the reference's alias
    (or its written name), its own references resolved in turn; so the materialized view reads
    what it was created on even when the view's upstreams move later.
    """
    return _template(query_text, resolve, view_of, 0)


def _template(text: str, resolve: Resolve, view_of: ViewOf | None, depth: int) -> Template:
    if depth > _MAX_VIEW_DEPTH:
        raise UnparseError("views nested too deeply")
    q = _QUERIES.get_or_make(text, lambda: parse_query(text))
    found: list[Ref] = []
    _Collector(resolve, found).query(q, frozenset())
    out: list[str] = []
    refs: list[Ref] = []
    pos = 0
    size = 0

    def emit(piece: str) -> None:
        nonlocal size
        out.append(piece)
        size += len(piece)

    for r in sorted(found, key=lambda r: r.start):
        view = view_of(r.relation_id) if view_of is not None else None
        emit(text[pos : r.start])
        if view is None:
            refs.append(
                Ref(
                    size,
                    size + r.end - r.start,
                    size + r.after - r.start,
                    r.relation_id,
                    r.written,
                    r.aliased,
                )
            )
            emit(text[r.start : r.end])
            pos = r.end
            continue
        inner = _template(view.sql, resolve, view_of, depth + 1)
        emit("(SELECT * FROM (")
        refs.extend(
            Ref(x.start + size, x.end + size, x.after + size, x.relation_id, x.written, x.aliased)
            for x in inner.refs
        )
        emit(inner.text)
        cols = ", ".join(quoted(c) for c in view.columns)
        emit(f") AS {quoted(r.written)} ({cols}))")
        if not r.aliased:
            emit(f" AS {quoted(r.written)}")
        pos = r.end
    emit(text[pos:])
    return Template("".join(out), tuple(refs))


# Parsed queries by text: the template only reads the tree (_Collector), and parsing is a
# pure function of the text (~0.3 ms for a one-line query; a view's SQL is parsed at every
# materialized view over it).
_QUERIES: TextLRU[n.Query] = TextLRU(8 * 1024 * 1024, factor=30)


def render(t: Template, locate: Locate, home_database: str) -> str:
    """The template's text with every reference spelled as its relation's current name."""
    out = []
    pos = 0
    for r in t.refs:
        where = locate(r.relation_id)
        if where is None:
            raise KeyError(r.relation_id)
        db, schema, name = where
        qualified = f"{quoted(schema)}.{quoted(name)}"
        if db != home_database:
            qualified = f"{quoted(db)}.{qualified}"
        out.append(t.text[pos : r.start])
        out.append(qualified)
        if not r.aliased and name != r.written:
            out.append(t.text[r.end : r.after])
            out.append(f" AS {quoted(r.written)}")
            pos = r.after
        else:
            pos = r.end
    out.append(t.text[pos:])
    return "".join(out)


class _Collector:
    """Every catalog reference of a query, CTE names in scope excluded."""

    def __init__(self, resolve: Resolve, refs: list[Ref]) -> None:
        self.resolve = resolve
        self.refs = refs

    def ref(self, t: n.TableRef, ctes: frozenset[str], *, alias_allowed: bool = True) -> None:
        """``alias_allowed`` False: a name no alias may follow (``AS changelog FROM <name>``,
        parser.rs:4924-4929), so a renamed one gets none."""
        parts = [p.real_value() for p in t.name.parts]
        if len(parts) == 1 and parts[0] in ctes:
            return
        rid = self.resolve(parts)
        if rid is not None:
            aliased = t.alias is not None or not alias_allowed
            self.refs.append(Ref(t.span[0], t.span[1], t.after, rid, parts[-1], aliased))

    def query(self, q: n.Query, ctes: frozenset[str]) -> None:
        scope = ctes
        for c in q.with_ or []:
            name = c.alias.name.real_value()
            inner = scope | {name} if q.recursive else scope
            if c.query is not None:
                self.query(c.query, inner)
            elif c.changelog is not None:
                self.ref(c.changelog, scope, alias_allowed=False)
            scope = scope | {name}
        self.set_expr(q.body, scope)
        for o in q.order_by:
            self.expr(o.expr, scope)
        if q.limit is not None:
            self.expr(q.limit, scope)

    def set_expr(self, s: n.SetExpr, ctes: frozenset[str]) -> None:
        if isinstance(s, n.Select):
            for e in s.distinct if isinstance(s.distinct, list) else []:
                self.expr(e, ctes)
            for item in s.projection:
                self.any(item.expr, ctes)
            for f in s.from_:
                self.table_with_joins(f, ctes)
            for opt in [s.selection, *s.group_by, s.having]:
                if opt is not None:
                    self.expr(opt, ctes)
            for w in s.window:
                self.window(w.spec, ctes)
        elif isinstance(s, n.Values):
            for row in s.rows:
                for e in row:
                    self.expr(e, ctes)
        elif isinstance(s, n.QueryBody):
            self.query(s.query, ctes)
        else:
            self.set_expr(s.left, ctes)
            self.set_expr(s.right, ctes)

    def table_with_joins(self, t: n.TableWithJoins, ctes: frozenset[str]) -> None:
        self.table_factor(t.relation, ctes)
        for j in t.joins:
            self.table_factor(j.relation, ctes)
            if j.on is not None:
                self.expr(j.on, ctes)

    def table_factor(self, t: n.TableFactor, ctes: frozenset[str]) -> None:
        if isinstance(t, n.TableRef):
            self.ref(t, ctes)
        elif isinstance(t, n.Derived):
            self.query(t.query, ctes)
        elif isinstance(t, n.TableFunction):
            for a in t.args:
                self.any(a.arg, ctes)
        else:
            self.table_with_joins(t.inner, ctes)

    def window(self, w: n.WindowSpec, ctes: frozenset[str]) -> None:
        for e in w.partition_by:
            self.expr(e, ctes)
        for o in w.order_by:
            self.expr(o.expr, ctes)
        if w.frame is not None:
            for b in (w.frame.start, w.frame.end):
                if b is not None and b.offset is not None:
                    self.expr(b.offset, ctes)
            if w.frame.gap is not None:
                self.expr(w.frame.gap, ctes)

    def any(self, e: n.Expr | n.Wildcard | n.SecretRef, ctes: frozenset[str]) -> None:
        if isinstance(e, n.Wildcard):
            if e.expr is not None:
                self.expr(e.expr, ctes)
            for x in e.except_ or []:
                self.expr(x, ctes)
        elif not isinstance(e, n.SecretRef):
            self.expr(e, ctes)

    def expr(self, e: n.Expr, ctes: frozenset[str]) -> None:
        for child in children(e):
            if isinstance(child, n.Query):
                self.query(child, ctes)
            elif isinstance(child, n.WindowSpec):
                self.window(child, ctes)
            elif isinstance(child, n.FunctionArg):
                self.any(child.arg, ctes)
            else:
                self.expr(child, ctes)


def children(e: n.Expr) -> list[n.Expr | n.Query | n.WindowSpec | n.FunctionArg]:
    """Every sub-expression, subquery, window and argument of ``e``."""
    out: list[n.Expr | n.Query | n.WindowSpec | n.FunctionArg] = []
    for name in e.__slots__:
        v = getattr(e, name)
        items = v if isinstance(v, list) else [v]
        for item in items:
            if isinstance(item, (tuple, list)):
                out.extend(x for x in item if _is_node(x))
            elif isinstance(item, n.OrderByExpr):
                out.append(item.expr)
            elif _is_node(item):
                out.append(item)
    return out


def _is_node(x: object) -> bool:
    return isinstance(x, (n.Query, n.WindowSpec, n.FunctionArg)) or type(x) in _EXPR_TYPES


_EXPR_TYPES = frozenset(typing.get_args(n.Expr))
