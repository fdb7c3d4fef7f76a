"""One walk over PostgreSQL's parse tree of a statement (``pglast.parser.parse_sql_json``, the
C parser: a few microseconds, where pglast's Python AST costs ~100 us and a deparse ~270 us).

It collects what routing and rewriting need, each with its byte offset in the UTF-8 text:
relation names (a bare name that matches a CTE in scope is the CTE: PostgreSQL's and
RisingWave's scoping, src/frontend/src/binder/relation/mod.rs bind_relation_by_name checks
the CTE context first), the query levels with their FROM items and stars, qualified column
references, parameters, session-dependent value functions (``current_user``...),
schema-qualified function calls and type names.  No name is resolved here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rwshim.sql import pgjson

Node = dict[str, Any]

SETOP_NONE = "SETOP_NONE"


class TreeError(Exception):
    """PostgreSQL's parser rejects the text (the caller reports it in RisingWave's words)."""


@dataclass(slots=True, eq=False)
class CteDef:
    name: str
    query: Node  # the CTE's statement node (SelectStmt for a query)
    colnames: tuple[str, ...]
    recursive: bool


@dataclass(slots=True, eq=False)
class Scope:
    """CTE names visible at a point of the statement (innermost first)."""

    parent: Scope | None
    ctes: dict[str, CteDef] = field(default_factory=dict)

    def find(self, name: str) -> CteDef | None:
        s: Scope | None = self
        while s is not None:
            found = s.ctes.get(name)
            if found is not None:
                return found
            s = s.parent
        return None


@dataclass(slots=True, eq=False)
class RelRef:
    """A relation name in FROM (or a DML target): ``parts`` as written, outermost first."""

    parts: tuple[str, ...]
    location: int
    alias: str | None
    colnames: tuple[str, ...]
    level: Level | None
    cte: CteDef | None = None
    target: str | None = None  # "insert" / "update" / "delete" for the DML target
    window: bool = False  # the input of a TUMBLE / HOP (spliced with the call)
    # PostgreSQL's alias for an unaliased reference whose name another relation of the
    # statement shares (``s1.users`` and ``s2.users``): plan/samename
    rename: str | None = None

    @property
    def name(self) -> str:
        return self.parts[-1]

    @property
    def exposed(self) -> str:
        """The name the PostgreSQL text refers to this item by."""
        if self.alias is not None:
            return self.alias
        return self.rename if self.rename is not None else self.parts[-1]


@dataclass(slots=True, eq=False)
class SubqueryItem:
    query: Node
    alias: str | None
    colnames: tuple[str, ...]
    level: Level | None  # the subquery's leftmost level (its output names)


@dataclass(slots=True, eq=False)
class FunctionItem:
    names: tuple[tuple[str, ...], ...]  # each function's qualified name
    alias: str | None
    colnames: tuple[str, ...]
    ordinality: bool


@dataclass(slots=True, eq=False)
class WindowItem:
    """RisingWave's TUMBLE(rel, ts, size [, offset]) / HOP(rel, ts, hop, size [, offset]):
    the relation's rows with window_start and window_end (src/frontend/src/binder/relation/
    window_table_function.rs)."""

    kind: str  # "tumble" | "hop" | "gap_fill" (plan/gapfill: the relation's columns only)
    input: RelRef  # the relation (its span lies inside the call's, spliced with it)
    location: int  # the call's name
    alias: str | None
    colnames: tuple[str, ...]


@dataclass(slots=True, eq=False)
class JoinItem:
    left: FromItem
    right: FromItem
    using: tuple[str, ...]
    natural: bool
    alias: str | None
    kind: str
    quals: Node | None = None  # the ON condition (an ASOF join's is rewritten: plan/asof)


@dataclass(slots=True, eq=False)
class OpaqueItem:
    """A FROM item whose columns this walk does not know (XMLTABLE, JSON_TABLE...)."""

    alias: str | None


FromItem = RelRef | SubqueryItem | FunctionItem | WindowItem | JoinItem | OpaqueItem


@dataclass(slots=True, eq=False)
class Star:
    """``*`` / ``t.*`` in a select list, RETURNING list or expression; location -1 is the
    implicit star of ``TABLE name``."""

    level: Level
    location: int
    qualifier: tuple[str, ...]  # () for a bare star
    in_expression: bool = False  # inside an expression (``ROW(t.*)``, ``f(t.*)``)


@dataclass(slots=True, eq=False)
class ColumnPath:
    """A qualified column reference (``t.c``, ``s.t.c``, ``db.s.t.c``)."""

    level: Level
    fields: tuple[str, ...]
    location: int


@dataclass(slots=True, eq=False)
class Level:
    """One SELECT (one arm of a set operation) or one DML statement: its FROM items and
    output list, for star expansion and output names."""

    parent: Level | None
    node: Node
    items: list[FromItem] = field(default_factory=list)
    stars: list[Star] = field(default_factory=list)
    targets: list[Node] = field(default_factory=list)  # ResTarget nodes of the output list
    values: list[Any] | None = None  # VALUES rows

    def relations(self) -> list[RelRef]:
        """The relation references of this level's FROM items (through joins)."""
        out: list[RelRef] = []

        def walk(item: FromItem) -> None:
            if isinstance(item, RelRef):
                out.append(item)
            elif isinstance(item, JoinItem):
                walk(item.left)
                walk(item.right)

        for it in self.items:
            walk(it)
        return out


@dataclass(slots=True, eq=False)
class ValueFunc:
    op: str  # SVFOP_CURRENT_USER ...
    location: int


@dataclass(slots=True, eq=False)
class FuncRef:
    parts: tuple[str, ...]
    location: int


@dataclass(slots=True, eq=False)
class TypeRef:
    names: tuple[str, ...]
    location: int
    # where the cast's operand starts when it is a string literal, where it ends when it is
    # a parameter (-1 otherwise)
    literal: int = -1
    param_end: int = -1


@dataclass(slots=True, eq=False)
class InsertInfo:
    columns: tuple[tuple[str, int], ...]  # (name, location) of an explicit column list
    has_source: bool  # False: DEFAULT VALUES
    values_rows: list[list[Any]] | None  # the source when it is a bare VALUES list
    source: Node | None
    returning: list[Node]
    on_conflict: Node | None


@dataclass(slots=True, eq=False)
class UpdateInfo:
    assignments: list[tuple[str, int, bool]]  # (column, location, has indirection)
    returning: list[Node]


@dataclass(slots=True, eq=False)
class Shape:
    """What one statement is made of."""

    text: bytes
    kind: str  # "select", "insert", "update", "delete", or the node type of anything else
    node: Node
    refs: list[RelRef] = field(default_factory=list)  # every relation name, CTE refs included
    levels: list[Level] = field(default_factory=list)
    column_paths: list[ColumnPath] = field(default_factory=list)
    # ``t.c``: one qualifier (only rewritten when two relations share a name: plan/samename)
    short_paths: list[ColumnPath] = field(default_factory=list)
    value_funcs: list[ValueFunc] = field(default_factory=list)
    func_refs: list[FuncRef] = field(default_factory=list)
    func_names: set[str] = field(default_factory=set)  # every function called (last name part)
    type_refs: list[TypeRef] = field(default_factory=list)
    params: set[int] = field(default_factory=set)
    target: RelRef | None = None
    insert: InsertInfo | None = None
    update: UpdateInfo | None = None
    returning_level: Level | None = None
    # constructs the data plane refuses (reported with a clear error by the rewriter)
    unsupported: list[str] = field(default_factory=list)
    # byte offset of a star -> columns it leaves out (``* EXCEPT``, from the pre-pass)
    star_excludes: dict[int, frozenset[str]] = field(default_factory=dict)
    level_of: dict[int, Level] = field(default_factory=dict)  # id(SelectStmt node) -> level
    # ``c[i]...`` on a column: (level, the column's names, its location, the subscripts'
    # count), for a map column's access (plan/mapsyntax)
    subscripts: list[tuple[Level, tuple[str, ...], int, int]] = field(default_factory=list)

    @property
    def relation_refs(self) -> list[RelRef]:
        """References to real relations (not CTEs), in text order."""
        return sorted((r for r in self.refs if r.cte is None), key=lambda r: r.location)

    def joins(self) -> Iterator[tuple[Level, JoinItem]]:
        """Every join of the statement with its level, level by level, each before the joins
        of its sides."""
        for level in self.levels:
            stack: list[FromItem] = list(level.items)
            while stack:
                item = stack.pop()
                if isinstance(item, JoinItem):
                    stack.extend((item.left, item.right))
                    yield level, item


def parse(text: str) -> Shape:
    """The shape of the one statement in ``text``; TreeError if PostgreSQL cannot parse it."""
    from pglast import parser as pg_parser  # not at import: `SELECT 1` never needs it

    try:
        # the SQL front end's parse of the same text, when it just made one (sql/pgjson)
        tree = pgjson.parse_once(text)
    except pg_parser.ParseError as e:
        raise TreeError(str(e)) from None
    stmts = tree.get("stmts") or []
    if len(stmts) != 1:
        raise TreeError(f"expected one statement, found {len(stmts)}")
    wrapped = stmts[0]["stmt"]
    ((kind, node),) = wrapped.items()
    shape = Shape(text.encode(), kind, node)
    _Walker(shape).statement(kind, node)
    return shape


def _names(items: list[Node] | None) -> tuple[str, ...]:
    """String nodes' values (name lists)."""
    out = []
    for it in items or ():
        s = it.get("String")
        if s is not None:
            out.append(s.get("sval", ""))
    return tuple(out)


def _alias(node: Node) -> tuple[str | None, tuple[str, ...]]:
    alias = node.get("alias")
    if not alias:
        return None, ()
    return alias.get("aliasname"), _names(alias.get("colnames"))


def _wrapped(value: Any) -> tuple[str, Node] | None:
    """(type, body) of a node as the JSON wraps it (``{"SelectStmt": {...}}``)."""
    if isinstance(value, dict) and len(value) == 1:
        ((k, v),) = value.items()
        if k[:1].isupper() and isinstance(v, dict):
            return k, v
    return None


class _Walker:
    def __init__(self, shape: Shape) -> None:
        self.shape = shape

    # --- statements -----------------------------------------------------------------------

    def statement(self, kind: str, node: Node) -> None:
        shape = self.shape
        if kind == "SelectStmt":
            shape.kind = "select"
            self.select(node, None, Scope(None))
        elif kind == "InsertStmt":
            shape.kind = "insert"
            self.insert(node)
        elif kind == "UpdateStmt":
            shape.kind = "update"
            self.update(node)
        elif kind == "DeleteStmt":
            shape.kind = "delete"
            self.delete(node)
        else:
            self.expr(node, None, Scope(None))

    def _target(self, node: Node, level: Level, what: str) -> RelRef:
        rv = node["relation"]
        alias, colnames = _alias(rv)
        parts = tuple(p for p in (rv.get("catalogname"), rv.get("schemaname")) if p)
        ref = RelRef((*parts, rv["relname"]), rv.get("location", -1), alias, colnames, level)
        ref.target = what
        self.shape.refs.append(ref)
        self.shape.target = ref
        level.items.append(ref)
        return ref

    def _returning(self, node: Node, level: Level, scope: Scope) -> list[Node]:
        clause = node.get("returningClause") or {}
        items = clause.get("exprs") or node.get("returningList") or []
        out = []
        for item in items:
            rt = item.get("ResTarget", item)
            out.append(rt)
            self.output_item(rt, level, scope)
        if items:
            self.shape.returning_level = level
        return out

    def insert(self, node: Node) -> None:
        scope = self.with_clause(node.get("withClause"), None, Scope(None))
        level = self.new_level(None, node)
        target = self._target(node, level, "insert")
        del target  # the target is in level.items (RETURNING reads it)
        cols = []
        for c in node.get("cols") or []:
            rt = c.get("ResTarget", c)
            if rt.get("indirection"):
                self.shape.unsupported.append("INSERT into a subscripted or field column")
            cols.append((rt.get("name", ""), rt.get("location", -1)))
        source = None
        values_rows = None
        wrapped = node.get("selectStmt")
        if wrapped is not None:
            source = wrapped.get("SelectStmt")
            if source is None:  # pragma: no cover - the grammar only allows a SelectStmt
                self.shape.unsupported.append("this INSERT source")
            else:
                self.select(source, None, scope)
                if _bare_values(source):
                    values_rows = [r["List"]["items"] for r in source["valuesLists"]]
        on_conflict = node.get("onConflictClause")
        if on_conflict is not None:
            self.expr(on_conflict, level, scope)
        returning = self._returning(node, level, scope)
        self.shape.insert = InsertInfo(
            tuple(cols), wrapped is not None, values_rows, source, returning, on_conflict
        )

    def update(self, node: Node) -> None:
        scope = self.with_clause(node.get("withClause"), None, Scope(None))
        level = self.new_level(None, node)
        self._target(node, level, "update")
        for item in node.get("fromClause") or []:
            level.items.append(self.from_item(item, level, scope))
        assignments = []
        for item in node.get("targetList") or []:
            rt = item.get("ResTarget", item)
            assignments.append(
                (rt.get("name", ""), rt.get("location", -1), bool(rt.get("indirection")))
            )
            val = rt.get("val")
            multi = val.get("MultiAssignRef") if isinstance(val, dict) else None
            if multi is None or int(multi.get("colno", 1)) == 1:
                # SET (a, b) = (SELECT ...): PostgreSQL's parse repeats the one source under
                # every column after the first; it is walked (and its text rewritten) once
                self.expr(val, level, scope)
            self.expr(rt.get("indirection"), level, scope)
        self.expr(node.get("whereClause"), level, scope)
        self.shape.update = UpdateInfo(assignments, self._returning(node, level, scope))

    def delete(self, node: Node) -> None:
        scope = self.with_clause(node.get("withClause"), None, Scope(None))
        level = self.new_level(None, node)
        self._target(node, level, "delete")
        for item in node.get("usingClause") or []:
            level.items.append(self.from_item(item, level, scope))
        self.expr(node.get("whereClause"), level, scope)
        self._returning(node, level, scope)

    # --- queries --------------------------------------------------------------------------

    def new_level(self, parent: Level | None, node: Node) -> Level:
        level = Level(parent, node)
        self.shape.levels.append(level)
        self.shape.level_of[id(node)] = level
        return level

    def with_clause(self, wc: Node | None, level: Level | None, scope: Scope) -> Scope:
        if not wc:
            return scope
        recursive = bool(wc.get("recursive"))
        inner = Scope(scope)
        defs: list[tuple[CteDef, Node]] = []
        for item in wc.get("ctes") or []:
            cte = item["CommonTableExpr"]
            wrapped = _wrapped(cte.get("ctequery"))
            body = wrapped[1] if wrapped else {}
            d = CteDef(cte["ctename"], body, _names(cte.get("aliascolnames")), recursive)
            defs.append((d, cte))
            if wrapped is None or wrapped[0] != "SelectStmt":
                self.shape.unsupported.append("a data-modifying statement in WITH")
        if recursive:
            for d, _ in defs:
                inner.ctes[d.name] = d
        for d, cte in defs:
            # A non-recursive CTE sees the CTEs before it (PostgreSQL's and RisingWave's rule).
            wrapped = _wrapped(cte.get("ctequery"))
            if wrapped is not None and wrapped[0] == "SelectStmt":
                self.select(wrapped[1], level, inner)
            elif wrapped is not None:
                self.expr(cte.get("ctequery"), level, inner)
            inner.ctes[d.name] = d
        return inner

    def select(self, node: Node, parent: Level | None, scope: Scope) -> Level:
        """Walk a SelectStmt; returns its leftmost level (whose outputs name the query's)."""
        scope = self.with_clause(node.get("withClause"), parent, scope)
        if node.get("op", SETOP_NONE) != SETOP_NONE:
            left = self.select(node["larg"], parent, scope)
            self.select(node["rarg"], parent, scope)
            self.shape.level_of[id(node)] = left
            for key in ("sortClause", "limitCount", "limitOffset"):
                self.expr(node.get(key), parent, scope)
            return left
        level = self.new_level(parent, node)
        if node.get("intoClause"):
            self.shape.unsupported.append("SELECT ... INTO")
        values = node.get("valuesLists")
        if values:
            level.values = [r["List"]["items"] for r in values]
            for row in level.values:
                self.expr(row, level, scope)
        for item in node.get("fromClause") or []:
            level.items.append(self.from_item(item, level, scope))
        for item in node.get("targetList") or []:
            self.output_item(item.get("ResTarget", item), level, scope)
        for key in (
            "whereClause",
            "groupClause",
            "havingClause",
            "windowClause",
            "sortClause",
            "distinctClause",
            "limitCount",
            "limitOffset",
            "lockingClause",
        ):
            self.expr(node.get(key), level, scope)
        return level

    def output_item(self, rt: Node, level: Level, scope: Scope) -> None:
        """One select-list / RETURNING item: a top-level star is expanded by the rewriter."""
        level.targets.append(rt)
        val = rt.get("val")
        cref = (val or {}).get("ColumnRef")
        if cref is not None and not rt.get("indirection"):
            fields = cref.get("fields") or []
            if fields and "A_Star" in fields[-1]:
                qual = _names(fields[:-1])
                level.stars.append(Star(level, cref.get("location", -1), qual))
                if len(qual) >= 2:
                    self.shape.column_paths.append(
                        ColumnPath(level, (*qual, "*"), cref.get("location", -1))
                    )
                return
        self.expr(val, level, scope)
        self.expr(rt.get("indirection"), level, scope)

    def from_item(self, item: Node, level: Level, scope: Scope) -> FromItem:
        wrapped = _wrapped(item)
        if wrapped is None:  # pragma: no cover - FROM items are always wrapped nodes
            return OpaqueItem(None)
        kind, node = wrapped
        if kind == "RangeVar":
            alias, colnames = _alias(node)
            parts = tuple(p for p in (node.get("catalogname"), node.get("schemaname")) if p)
            ref = RelRef(
                (*parts, node["relname"]), node.get("location", -1), alias, colnames, level
            )
            if not parts:
                ref.cte = scope.find(node["relname"])
            self.shape.refs.append(ref)
            return ref
        if kind == "RangeSubselect":
            alias, colnames = _alias(node)
            sub = _wrapped(node.get("subquery"))
            sub_level = None
            if sub is not None and sub[0] == "SelectStmt":
                sub_level = self.select(sub[1], level, scope)
                query = sub[1]
            else:  # pragma: no cover
                query = {}
            return SubqueryItem(query, alias, colnames, sub_level)
        if kind == "RangeFunction":
            window = self.window_item(node, level, scope)
            if window is not None:
                return window
            alias, colnames = _alias(node)
            names: list[tuple[str, ...]] = []
            for entry in node.get("functions") or []:
                items = entry.get("List", {}).get("items", [])
                if items:
                    call = items[0].get("FuncCall")
                    if call is not None:
                        names.append(_names(call.get("funcname")))
                    self.expr(items[0], level, scope)
            if not colnames and node.get("coldeflist"):
                colnames = tuple(
                    c["ColumnDef"]["colname"] for c in node["coldeflist"] if "ColumnDef" in c
                )
            return FunctionItem(tuple(names), alias, colnames, bool(node.get("ordinality")))
        if kind == "JoinExpr":
            left = self.from_item(node["larg"], level, scope)
            right = self.from_item(node["rarg"], level, scope)
            self.expr(node.get("quals"), level, scope)
            alias, _ = _alias(node)
            return JoinItem(
                left,
                right,
                _names(node.get("usingClause")),
                bool(node.get("isNatural")),
                alias,
                node.get("jointype", "JOIN_INNER"),
                node.get("quals"),
            )
        if kind == "RangeTableSample":
            inner = self.from_item(node["relation"], level, scope)
            self.expr(node.get("args"), level, scope)
            self.expr(node.get("repeatable"), level, scope)
            return inner
        self.expr(node, level, scope)
        alias, _ = _alias(node)
        return OpaqueItem(alias)

    def window_item(self, node: Node, level: Level, scope: Scope) -> WindowItem | None:
        """TUMBLE / HOP in FROM: its first argument names a relation."""
        functions = node.get("functions") or []
        if len(functions) != 1 or node.get("ordinality") or node.get("is_rowsfrom"):
            return None
        items = functions[0].get("List", {}).get("items", [])
        call = items[0].get("FuncCall") if items else None
        if call is None:
            return None
        name = _names(call.get("funcname"))
        if len(name) != 1 or name[0] not in ("tumble", "hop", "gap_fill"):
            return None
        args = call.get("args") or []
        first = args[0].get("ColumnRef") if args else None
        if first is None:
            return None
        parts = _names(first.get("fields"))
        if not parts or len(parts) != len(first.get("fields") or ()):
            return None
        alias, colnames = _alias(node)
        ref = RelRef(parts, first.get("location", -1), None, (), level, window=True)
        if len(parts) == 1:
            ref.cte = scope.find(parts[0])
        self.shape.refs.append(ref)
        # GAP_FILL's strategies (LOCF(c) ...) name columns, not functions (plan/gapfill)
        self.expr(args[1:3] if name[0] == "gap_fill" else args[1:], level, scope)
        return WindowItem(name[0], ref, call.get("location", -1), alias, colnames)

    # --- expressions ----------------------------------------------------------------------

    def expr(self, value: Any, level: Level | None, scope: Scope) -> None:
        if isinstance(value, list):
            for v in value:
                self.expr(v, level, scope)
            return
        if not isinstance(value, dict):
            return
        wrapped = _wrapped(value)
        if wrapped is None:
            for v in value.values():
                if isinstance(v, (dict, list)):
                    self.expr(v, level, scope)
            return
        kind, node = wrapped
        if kind in _LEAVES:
            return
        shape = self.shape
        if kind == "SubLink":
            self.expr(node.get("testexpr"), level, scope)
            sub = _wrapped(node.get("subselect"))
            if sub is not None and sub[0] == "SelectStmt":
                self.select(sub[1], level, scope)
            return
        if kind == "SelectStmt":
            self.select(node, level, scope)
            return
        if kind == "ColumnRef":
            fields = node.get("fields") or []
            loc = node.get("location", -1)
            if fields and "A_Star" in fields[-1]:
                if level is not None:
                    qual = _names(fields[:-1])
                    level.stars.append(Star(level, loc, qual, in_expression=True))
                    if len(qual) >= 2:
                        shape.column_paths.append(ColumnPath(level, (*qual, "*"), loc))
            elif len(fields) >= 3 and level is not None:
                shape.column_paths.append(ColumnPath(level, _names(fields), loc))
            elif len(fields) == 2 and level is not None:
                shape.short_paths.append(ColumnPath(level, _names(fields), loc))
            return
        if kind == "A_Indirection" and level is not None:
            arg = _wrapped(node.get("arg"))
            ind = node.get("indirection") or []
            if (
                arg is not None
                and arg[0] == "ColumnRef"
                and ind
                and all("A_Indices" in i and not i["A_Indices"].get("is_slice") for i in ind)
            ):
                fields = arg[1].get("fields") or []
                if fields and "A_Star" not in fields[-1]:
                    shape.subscripts.append(
                        (level, _names(fields), arg[1].get("location", -1), len(ind))
                    )
        if kind == "ParamRef":
            shape.params.add(int(node.get("number", 0)))
            return
        if kind == "SQLValueFunction":
            shape.value_funcs.append(ValueFunc(node.get("op", ""), node.get("location", -1)))
            return
        if kind == "FuncCall":
            parts = _names(node.get("funcname"))
            if parts:
                shape.func_names.add(parts[-1])
            if len(parts) > 1:
                shape.func_refs.append(FuncRef(parts, node.get("location", -1)))
            for key in ("args", "agg_order", "agg_filter", "over"):
                self.expr(node.get(key), level, scope)
            return
        if kind == "TypeCast":
            arg = node.get("arg")
            self.expr(arg, level, scope)
            self.type_name(node.get("typeName"))
            const = arg.get("A_Const") if isinstance(arg, dict) else None
            param = arg.get("ParamRef") if isinstance(arg, dict) else None
            if const is not None and "sval" in const and self.shape.type_refs:
                self.shape.type_refs[-1].literal = const.get("location", -1)
            elif param is not None and self.shape.type_refs and param.get("location", -1) >= 0:
                end = param["location"] + 1 + len(str(param.get("number", 0)))
                self.shape.type_refs[-1].param_end = end
            return
        if kind in ("RangeVar", "InsertStmt", "UpdateStmt", "DeleteStmt", "MergeStmt"):
            shape.unsupported.append(f"{kind} in this position")
            return
        for v in node.values():
            if isinstance(v, (dict, list)):
                self.expr(v, level, scope)

    def type_name(self, tn: Node | None) -> None:
        if not tn:
            return
        names = _names(tn.get("names"))
        if names:
            self.shape.type_refs.append(TypeRef(names, tn.get("location", -1)))
        self.expr(tn.get("typmods"), None, Scope(None))


# nodes with nothing inside that routing or rewriting reads (skipped: VALUES lists are made of
# them, and a 1000-row INSERT has thousands)
_LEAVES = frozenset({"A_Const", "String", "Integer", "Float", "Boolean", "BitString", "Null"})


def _bare_values(select: Node) -> bool:
    """A plain ``VALUES (...), ...`` (no ORDER BY / LIMIT / set operation)."""
    if not select.get("valuesLists"):
        return False
    return not any(select.get(k) for k in ("sortClause", "limitCount", "limitOffset", "withClause"))
