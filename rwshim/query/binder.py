"""Binder and translator: a PostgreSQL-dialect sqlglot AST bound to rwshim's relations and
rewritten, in place, into SQL that SQLite runs with PostgreSQL's answers.

Binding follows RisingWave's binder: relations resolve through the search path with
``pg_catalog`` and ``rw_catalog`` implicitly first (search_path.rs:64-90) and a job that is
still being created is invisible to queries (table_or_source.rs:169-176, 218-222); columns
resolve innermost scope first, then correlated outer scopes (binder/expr/column.rs:96-125);
an unnamed output column is named as ``derive_alias`` does (binder/select.rs:706-724), else
``?column?``.  Errors are RisingWave's texts, and every top-level expression failure is wrapped
in ``Failed to bind expression: <expr>`` (binder/expr/mod.rs:57-64).

Each rewrite turns one PostgreSQL construct into SQLite (see ``_Expr``'s handlers): casts into
``rw_cast``, ``~``/``OPERATOR(pg_catalog.~)`` into ``rw_regex``, ``= ANY(array)`` into
``rw_any_eq``, ``ARRAY[...]``/``ARRAY(SELECT ...)`` into JSON text, ``COLLATE
pg_catalog.default`` dropped, ``$n`` into ``?n``, integer arithmetic into the checked
``rw_arith``, ``LIKE`` with PostgreSQL's backslash escape, aggregates with ``ORDER BY``,
``generate_series``/``unnest`` in FROM into ``json_each``; names become the SQLite objects
(``rel_<id>`` tables, ``<schema>__<name>`` catalog views, materialized views and views
inlined as their translated defining query).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp

from rwshim import pgtypes
from rwshim.errors import (
    BindError,
    BindExprError,
    CatalogNotFound,
    InvalidInputSyntax,
    ItemNotFound,
    NoFunction,
    NotImplementedError_,
    RwError,
)
from rwshim.query import types
from rwshim.query.context import QueryContext
from rwshim.query.parse import (
    definition_query,
    expr_text,
    func_call,
    ident,
    lit_int,
    lit_str,
    param_number,
    parse,
)
from rwshim.query.relations import Relation, RelationSource, RelKind
from rwshim.query.resolve import (
    UNNAMED_COLUMN,
    OutColumn,
    Scope,
    Source,
    SystemRelation,
    derive_alias,
    lookup,
    rename,
    resolve_relation,
)
from rwshim.query.type_inference import (
    UNKNOWN,
    common_type,
    func_args,
    func_name,
    function_type,
    is_regclass,
    is_srf,
    literal_default,
    number_type,
    type_oid_of,
)


@dataclass(slots=True)
class Bound:
    """A translated statement."""

    sql: str
    columns: list[OutColumn]
    param_oids: list[int]
    upstreams: list[int]  # ids of user relations read (for MV dependencies)
    # the user-facing names of expressions without alias (None = had no derivable name)
    aliases: list[str | None] = field(default_factory=list)


# Functions whose pg_catalog-qualified or bare PostgreSQL name maps to a registered helper.
_RENAMED: dict[str, str] = {
    "version": "rw_version",
    "now": "rw_now",
    "current_database": "rw_current_database",
    "current_schemas": "rw_current_schemas",
    "concat": "rw_concat",
    "round": "rw_round",
    "date_part": "date_part",
    "string_agg": "rw_string_agg",
    # LEFT and RIGHT are join keywords in SQLite
    "left": "rw_left",
    "right": "rw_right",
    "array_agg": "rw_array_agg",
}

_KEYWORD_FUNCS = {
    "current_user",
    "session_user",
    "user",
    "current_role",
    "current_catalog",
    "current_schema",
}


def _cast_call(node: exp.Expr, from_oid: int, to_oid: int) -> exp.Expr:
    return func_call("rw_cast", node, lit_int(from_oid), lit_int(to_oid))


class Binder:
    """Binds and translates one statement for one context."""

    def __init__(
        self,
        ctx: QueryContext,
        relations: RelationSource,
        system: Callable[[str, str], SystemRelation | None],
        param_oids: list[int] | None = None,
        functions: frozenset[str] | None = None,
    ) -> None:
        self.ctx = ctx
        # names SQLite can call (builtins and registered); None = do not check
        self.functions = functions
        self.relations = relations
        self.system = system
        self.params: dict[int, int] = {}
        for i, oid in enumerate(param_oids or [], start=1):
            if oid:
                self.params[i] = oid
        self.max_param = len(param_oids or [])
        self.upstreams: list[int] = []
        self._expanding: list[int] = []
        # catalog views read by a SELECT, computed once per statement as MATERIALIZED CTEs
        # (a view joined or probed per row would otherwise be re-evaluated per row)
        self.materialize: dict[str, str] | None = None

    # --- statements ---------------------------------------------------------------------

    def bind_select(self, tree: exp.Expr) -> Bound:
        """Bind a query (SELECT / VALUES / WITH / set operation) and generate its SQLite."""
        # One relation read once, no join or subquery: SQLite flattens the view into the query
        # and evaluates it once anyway, so leave it a view (its indexes then serve the WHERE).
        single = (
            isinstance(tree, exp.Select)
            and len(list(tree.find_all(exp.Table))) == 1
            and tree.find(exp.Join, exp.Subquery, exp.With) is None
        )
        self.materialize = None if single else {}
        cols = self.query(tree, None)
        if self.materialize:
            ctes = [
                exp.CTE(
                    this=exp.Select(expressions=[exp.Star()]).from_(exp.Table(this=ident(view))),
                    alias=exp.TableAlias(this=ident(name)),
                    materialized=True,
                )
                for view, name in self.materialize.items()
            ]
            with_ = tree.args.get("with_")
            if with_ is None:
                tree.set("with_", exp.With(expressions=ctes))
            else:
                with_.set("expressions", ctes + list(with_.expressions))
        sql = to_sqlite(tree)
        return Bound(sql, cols, self.param_list(), self.upstreams)

    def param_list(self) -> list[int]:
        n = max([self.max_param, *self.params.keys()]) if self.params or self.max_param else 0
        return [self.params.get(i, pgtypes.VARCHAR) for i in range(1, n + 1)]

    # --- relations ----------------------------------------------------------------------

    def resolve_relation(
        self, db: str | None, schema: str | None, name: str
    ) -> Relation | SystemRelation:
        """A relation named in FROM, found by ``resolve.resolve_relation``."""
        return resolve_relation(self.ctx, self.relations, self.system, db, schema, name)

    def _table_source(self, node: exp.Table, scope: Scope) -> Source:
        name = node.name
        schema = node.db or None
        db = node.catalog or None
        alias = node.alias or name
        alias_cols = (
            [c.name for c in node.args["alias"].columns]
            if node.args.get("alias") and node.args["alias"].columns
            else []
        )
        if schema is None and db is None:
            cte = scope.find_cte(name)
            if cte is not None:
                cols = rename(cte, alias_cols)
                node.set("alias", exp.TableAlias(this=ident(alias)))
                return Source(alias, cols)
        rel = self.resolve_relation(db, schema, name)
        if isinstance(rel, SystemRelation):
            target = rel.sqlite_name
            if self.materialize is not None and isinstance(node.parent, (exp.From, exp.Join)):
                target = self.materialize.setdefault(rel.sqlite_name, f"__m_{rel.sqlite_name}")
            new = exp.Table(this=ident(target), alias=exp.TableAlias(this=ident(alias)))
            node.replace(new)
            return Source(alias, rename(list(rel.columns), alias_cols), rel.schema)
        return self._user_source(node, rel, alias, alias_cols)

    def _user_source(
        self, node: exp.Expr, rel: Relation, alias: str, alias_cols: list[str]
    ) -> Source:
        if rel.id not in self.upstreams:
            self.upstreams.append(rel.id)
        visible = [OutColumn(c.name, c.type_oid) for c in rel.visible_columns]
        cols = rename(visible, alias_cols)
        if rel.kind in (RelKind.MATERIALIZED_VIEW, RelKind.VIEW, RelKind.INDEX) and rel.definition:
            if rel.id in self._expanding:
                raise RwError(f'infinite recursion detected in rules for relation "{rel.name}"')
            self._expanding.append(rel.id)
            try:
                inner = definition_query(rel.definition)
                sub = Binder(self.ctx, self.relations, self.system, functions=self.functions)
                sub._expanding = self._expanding
                sub.materialize = self.materialize
                # upstreams are the relations named directly (RisingWave's dependencies)
                sub.query(inner, None)
            finally:
                self._expanding.pop()
            _rename_outputs(inner, [c.name for c in rel.visible_columns])
            new: exp.Expr = exp.Subquery(this=inner, alias=exp.TableAlias(this=ident(alias)))
        else:
            storage = rel.storage or f"rel_{rel.id}"
            if rel.kind == RelKind.SOURCE and rel.storage is None:
                # a source without a table holds no rows a batch query can read
                items = ", ".join(f'NULL AS "{c.name}"' for c in rel.visible_columns)
                new = exp.Subquery(
                    this=sqlglot.parse_one(f"SELECT {items or 'NULL'} WHERE 0", read="sqlite"),
                    alias=exp.TableAlias(this=ident(alias)),
                )
            else:
                new = exp.Table(this=ident(storage), alias=exp.TableAlias(this=ident(alias)))
        if alias_cols:
            pairs = ", ".join(
                f'"{alias}"."{c.name}" AS "{a.name}"' for c, a in zip(visible, cols, strict=False)
            )
            wrapper = sqlglot.parse_one(f"SELECT {pairs}", read="sqlite")
            assert isinstance(wrapper, exp.Select)
            wrapper.set("from_", exp.From(this=new))
            new = exp.Subquery(this=wrapper, alias=exp.TableAlias(this=ident(alias)))
        node.replace(new)
        return Source(alias, cols, rel.schema)

    # --- queries ------------------------------------------------------------------------

    def query(self, node: exp.Expr, outer: Scope | None) -> list[OutColumn]:
        """Bind a query node in place; returns its output columns."""
        if isinstance(node, exp.Subquery):
            return self.query(node.this, outer)
        if isinstance(node, (exp.Union, exp.Except, exp.Intersect)):
            scope = Scope(outer)
            self._with(node, scope)
            left = self.query(node.this, scope)
            right = self.query(node.expression, scope)
            if len(left) != len(right):
                # set_expr.rs:167-172
                op = {exp.Union: "UNION", exp.Except: "EXCEPT", exp.Intersect: "INTERSECT"}[
                    type(node)
                ]
                raise InvalidInputSyntax(f"each {op} query must have the same number of columns")
            cols = [
                OutColumn(a.name, a.type_oid if a.type_oid != UNKNOWN else b.type_oid)
                for a, b in zip(left, right, strict=True)
            ]
            scope.outputs = cols
            self._order_limit(node, scope)
            return cols
        if isinstance(node, exp.Values):
            return self._values(node, outer)
        if isinstance(node, exp.Select):
            return self._select(node, outer)
        raise NotImplementedError_(f"query form {type(node).__name__}")

    def _with(self, node: exp.Expr, scope: Scope) -> None:
        w = node.args.get("with_") or node.args.get("with")
        if not w:
            return
        for cte in w.expressions:
            name = cte.alias
            alias_cols = (
                [c.name for c in cte.args["alias"].columns] if cte.args["alias"].columns else []
            )
            body = cte.this
            if w.args.get("recursive") and isinstance(body, exp.Union):
                anchor = self.query(body.this, scope)
                scope.ctes[name] = rename(anchor, alias_cols)
                self.query(body.expression, scope)
                cols = scope.ctes[name]
            else:
                cols = rename(self.query(body, scope), alias_cols)
            scope.ctes[name] = cols

    def _values(self, node: exp.Values, outer: Scope | None) -> list[OutColumn]:
        scope = Scope(outer)
        oids: list[int] = []
        for row in node.expressions:
            tx = _Expr(self, scope)
            for i, item in enumerate(list(row.expressions)):
                new, oid = tx.bind_top(item)
                row.expressions[i] = new
                new.parent = row
                if i >= len(oids):
                    oids.append(oid)
                elif oids[i] == UNKNOWN:
                    oids[i] = oid
        cols = [OutColumn(f"column{i + 1}", literal_default(o)) for i, o in enumerate(oids)]
        alias = node.args.get("alias")
        if alias is not None and alias.columns:
            cols = rename(cols, [c.name for c in alias.columns])
        return cols

    def _from_items(self, node: exp.Select, scope: Scope) -> None:
        frm = node.args.get("from_")
        items: list[exp.Expr] = []
        if frm is not None:
            items.append(frm.this)
        joins = node.args.get("joins") or []
        for j in joins:
            items.append(j.this)
        for item in items:
            scope.sources.append(self._from_item(item, scope))
        for i, j in enumerate(joins):
            right = scope.sources[i + 1]
            left = scope.sources[: i + 1]
            if j.args.get("using"):
                names = [u.name for u in j.args["using"]]
            elif str(j.args.get("method") or "").upper() == "NATURAL":
                left_names = {c.name for src in left for c in src.columns}
                names = [c.name for c in right.columns if c.name in left_names]
            else:
                names = []
            for n in names:
                src = next((x for x in left if any(c.name == n for c in x.columns)), None)
                if src is None or not any(c.name == n for c in right.columns):
                    raise ItemNotFound(
                        f'column "{n}" specified in USING clause does not exist in '
                        f"{'left' if src is None else 'right'} table"
                    )
                scope.using.setdefault(n, src.alias)
        for j in joins:
            on = j.args.get("on")
            if on is not None:
                _no_aggregate(on, "Join On")
                tx = _Expr(self, scope)
                new, _ = tx.bind_top(on)
                j.set("on", new)

    def _from_item(self, item: exp.Expr, scope: Scope) -> Source:
        if isinstance(item, exp.Table):
            inner = item.this
            if isinstance(inner, exp.Func):
                return self._table_function(item, inner, scope)
            return self._table_source(item, scope)
        if isinstance(item, exp.Unnest):
            return self._unnest(item, scope)
        if isinstance(item, exp.Subquery):
            alias = item.alias or f"__rw_subquery{len(scope.sources)}"
            if not item.alias:
                item.set("alias", exp.TableAlias(this=ident(alias)))
            lateral_scope = scope if item.args.get("lateral") else scope.parent
            cols = self.query(item.this, lateral_scope)
            alias_node = item.args.get("alias")
            if alias_node is not None and alias_node.columns:
                names = [c.name for c in alias_node.columns]
                cols = rename(cols, names)
                _rename_outputs(item.this, [c.name for c in cols])
                item.set("alias", exp.TableAlias(this=ident(alias)))
            return Source(alias, cols)
        if isinstance(item, exp.Values):
            cols = self._values(item, scope.parent)
            alias = item.alias or f"__rw_values{len(scope.sources)}"
            names = [c.name for c in cols]
            sub = exp.Select(
                expressions=[
                    exp.Alias(this=exp.Column(this=ident(f"column{i + 1}")), alias=ident(n))
                    for i, n in enumerate(names)
                ]
            )
            values = item.copy()
            values.set("alias", None)
            sub.set("from_", exp.From(this=exp.Subquery(this=values)))
            item.replace(exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias))))
            return Source(alias, cols)
        if isinstance(item, exp.Lateral):
            raise NotImplementedError_("LATERAL")
        raise NotImplementedError_(f"FROM item {type(item).__name__}")

    def _table_function(self, item: exp.Table, fn: exp.Expr, scope: Scope) -> Source:
        name = func_name(fn)
        alias_node = item.args.get("alias")
        alias = alias_node.name if alias_node is not None and alias_node.name else name
        col_names = (
            [c.name for c in alias_node.columns]
            if alias_node is not None and (alias_node.columns)
            else []
        )
        tx = _Expr(self, scope.parent or Scope(None))
        if name == "generate_series":
            args = [fn.args.get("start"), fn.args.get("end"), fn.args.get("step")]
            if isinstance(fn, exp.Anonymous):
                args = list(fn.expressions)
            bound = [tx.bind_top(a) for a in args if a is not None]
            oid = bound[0][1] if bound[0][1] != UNKNOWN else pgtypes.INT4
            json_arr = func_call("rw_series", *[b[0] for b in bound])
            cname = col_names[0] if col_names else alias
            sub = sqlglot.parse_one(f'SELECT value AS "{cname}" FROM json_each(?)', read="sqlite")
            sub.find(exp.Placeholder).replace(json_arr)  # type: ignore[union-attr]
            item.replace(exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias))))
            return Source(alias, [OutColumn(cname, oid)])
        if name == "unnest":
            fargs: list[exp.Expr] = [
                a for a in (fn.expressions or [fn.this]) if isinstance(a, exp.Expr)
            ]
            return self._unnest_args(item, fargs, alias, col_names, False, None, scope)
        if name in ("tumble", "hop"):
            return self._time_window(item, fn, name, alias, col_names, scope)
        raise NotImplementedError_(f"table function {name}")

    def _time_window(
        self,
        item: exp.Table,
        fn: exp.Expr,
        name: str,
        alias: str,
        col_names: list[str],
        scope: Scope,
    ) -> Source:
        """RisingWave's TUMBLE(t, ts, size [, offset]) and HOP(t, ts, hop, size [, offset]):
        the relation's columns plus window_start and window_end (of the time column's type),
        one row per row (TUMBLE) or per window containing it (HOP)."""
        args = list(fn.expressions)
        if len(args) < 3 or not isinstance(args[0], (exp.Column, exp.Dot, exp.Table)):
            raise NotImplementedError_(f"{name} with these arguments")
        rel_sql = args[0].sql(dialect="postgres")
        ts = args[1]
        if isinstance(ts, exp.Column):
            ts = exp.Column(this=ts.this, table=ident("__rw_w"))
        ts_sql = ts.sql(dialect="postgres")
        rest = [a.sql(dialect="postgres") for a in args[2:]]
        if name == "tumble":
            size = rest[0]
            offset = f", {rest[1]}" if len(rest) > 1 else ""
            text = (
                f"SELECT __rw_w.*, tumble_start({ts_sql}, {size}{offset}) AS window_start, "
                f"tumble_start({ts_sql}, {size}{offset}) + {size} AS window_end "
                f"FROM {rel_sql} AS __rw_w"
            )
        else:
            if len(rest) < 2:
                raise NotImplementedError_("hop with these arguments")
            hop, size = rest[0], rest[1]
            offset = f", {rest[2]}" if len(rest) > 2 else ""
            text = (
                f"SELECT __rw_w.*, __rw_h.window_start, __rw_h.window_start + {size} AS "
                f"window_end FROM {rel_sql} AS __rw_w CROSS JOIN "
                f"unnest(rw_hop_starts({ts_sql}, {hop}, {size}{offset})) AS __rw_h(window_start)"
            )
        sub = parse(text)
        cols = self.query(sub, scope.parent)
        cols = rename(cols, col_names)
        if col_names:
            _rename_outputs(sub, [c.name for c in cols])
        item.replace(exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias))))
        return Source(alias, cols)

    def _unnest(self, item: exp.Unnest, scope: Scope) -> Source:
        alias_node = item.args.get("alias")
        alias = alias_node.name if alias_node is not None and alias_node.name else "unnest"
        col_names = (
            [c.name for c in alias_node.columns]
            if alias_node is not None and (alias_node.columns)
            else []
        )
        offset = item.args.get("offset")
        # sqlglot marks WITH ORDINALITY as offset=True (an alias node when named), and plain
        # unnest(...) as offset=False
        ordinality = offset is not None and offset is not False
        ord_name = offset.name if isinstance(offset, exp.Expr) and offset.name else ("ordinality")
        return self._unnest_args(
            item, list(item.expressions), alias, col_names, ordinality, ord_name, scope
        )

    def _unnest_args(
        self,
        item: exp.Expr,
        args: list[exp.Expr],
        alias: str,
        col_names: list[str],
        ordinality: bool,
        ord_name: str | None,
        scope: Scope,
    ) -> Source:
        tx = _Expr(self, scope)
        new, oid = tx.bind_top(args[0])
        elem = types.element_of(oid) or pgtypes.VARCHAR
        cname = col_names[0] if col_names else ("unnest" if alias == "unnest" else alias)
        cols = [OutColumn(cname, elem)]
        # json_each straight in FROM (not a derived table) so its argument may read the FROM
        # items before it, as a function in PostgreSQL's FROM implicitly LATERAL does
        refs: dict[str, Callable[[], exp.Expr]] = {
            cname: lambda: exp.Column(this=ident("value"), table=ident(alias))
        }
        if ordinality:
            oname = col_names[1] if len(col_names) > 1 else (ord_name or "ordinality")
            cols.append(OutColumn(oname, pgtypes.INT8))
            refs[oname] = lambda: exp.Add(
                this=exp.Column(this=ident("key"), table=ident(alias)),
                expression=exp.Literal.number(1),
            )
        item.replace(
            exp.Table(this=func_call("json_each", new), alias=exp.TableAlias(this=ident(alias)))
        )
        return Source(alias, cols, refs=refs)

    def _select(self, node: exp.Select, outer: Scope | None) -> list[OutColumn]:
        scope = Scope(outer)
        self._with(node, scope)
        self._from_items(node, scope)
        tx = _Expr(self, scope)
        where = node.args.get("where")
        # RisingWave binds the select list before WHERE (binder/select.rs bind_select)
        items: list[exp.Expr] = []
        cols: list[OutColumn] = []
        srfs = [
            e
            for e in (it.this if isinstance(it, exp.Alias) else it for it in node.expressions)
            if is_srf(e)
        ]
        zipped = self._srf_zip(node, srfs, scope, tx) if len(srfs) > 1 else {}
        for item in node.expressions:
            if isinstance(item, exp.Star) or (
                isinstance(item, exp.Column) and isinstance(item.this, exp.Star)
            ):
                qual = item.table if isinstance(item, exp.Column) else None
                expanded = self._expand_star(scope, qual or None)
                for src, c in expanded:
                    items.append(
                        exp.Alias(
                            this=src.ref(c.name),
                            alias=ident(c.name),
                        )
                    )
                    cols.append(c)
                continue
            if isinstance(item, exp.Alias):
                name: str | None = item.alias
                expr = item.this
            else:
                name = derive_alias(item)
                expr = item
            if id(expr) in zipped:
                new, oid = zipped[id(expr)]
            elif is_srf(expr):
                new, oid = self._srf(node, expr, scope, tx)
            else:
                new, oid = tx.bind_top(expr)
            out_name = name if name is not None else UNNAMED_COLUMN
            items.append(exp.Alias(this=new, alias=ident(out_name)))
            cols.append(OutColumn(out_name, literal_default(oid)))
        node.set("expressions", items)
        scope.outputs = cols
        if where is not None:
            _no_aggregate(where.this, "Where")
            new, _ = tx.bind_top(where.this)
            where.set("this", new)
        group = node.args.get("group")
        if group is not None:
            for i, g in enumerate(list(group.expressions)):
                group.expressions[i] = self._group_ref(g, scope, tx)
                group.expressions[i].parent = group
        having = node.args.get("having")
        if having is not None:
            new, _ = tx.bind_top(having.this)
            having.set("this", new)
        _check_grouping(node, scope)
        distinct = node.args.get("distinct")
        if distinct is not None and distinct.args.get("on") is not None:
            self._distinct_on(node, scope, tx)
            self._order_limit(node, scope, order=False)
            return cols
        self._order_limit(node, scope)
        return cols

    def _srf_zip(
        self, node: exp.Select, fns: list[exp.Expr], scope: Scope, tx: _Expr
    ) -> dict[int, tuple[exp.Expr, int]]:
        """Several set-returning functions in one select list run in lockstep, as in
        PostgreSQL 10+: as many rows as the longest, the shorter ones padded with NULL."""
        arrays: list[exp.Expr] = []
        oids: list[int] = []
        for fn in fns:
            name = func_name(fn)
            bound = [tx.bind_top(a) for a in func_args(fn)]
            if name == "generate_series":
                arrays.append(func_call("rw_series", *[b[0] for b in bound]))
                oids.append(bound[0][1] if bound and bound[0][1] != UNKNOWN else pgtypes.INT4)
            elif name == "generate_subscripts":
                arrays.append(
                    func_call(
                        "rw_series", exp.Literal.number(1), func_call("cardinality", bound[0][0])
                    )
                )
                oids.append(pgtypes.INT4)
            else:
                arrays.append(bound[0][0])
                oids.append(types.element_of(bound[0][1]) or pgtypes.VARCHAR)
        alias = f"__srfzip{len(scope.sources)}"
        table = exp.Table(
            this=func_call("json_each", func_call("rw_zip_index", *arrays)),
            alias=exp.TableAlias(this=ident(alias)),
        )
        if node.args.get("from_") is None:
            node.set("from_", exp.From(this=table))
        else:
            node.append("joins", exp.Join(this=table))
        scope.sources.append(Source(alias, []))
        out: dict[int, tuple[exp.Expr, int]] = {}
        for fn, arr, oid in zip(fns, arrays, oids, strict=True):
            index = exp.Add(
                this=exp.Column(this=ident("value"), table=ident(alias)),
                expression=exp.Literal.number(1),
            )
            out[id(fn)] = (func_call("rw_array_get", arr.copy(), index), oid)
        return out

    def _srf(self, node: exp.Select, fn: exp.Expr, scope: Scope, tx: _Expr) -> tuple[exp.Expr, int]:
        """A set-returning function in the select list (unnest, generate_series,
        generate_subscripts) as a ``json_each`` joined to the FROM items: one output row per
        element, as PostgreSQL's ProjectSet gives for a single SRF."""
        name = func_name(fn)
        args = func_args(fn)
        bound = [tx.bind_top(a) for a in args]
        alias = f"__srf{len(node.args.get('joins') or [])}_{len(scope.sources)}"
        if name == "generate_series":
            source: exp.Expr = func_call("rw_series", *[b[0] for b in bound])
            col: exp.Expr = exp.Column(this=ident("value"), table=ident(alias))
            oid = bound[0][1] if bound and bound[0][1] != UNKNOWN else pgtypes.INT4
        elif name == "generate_subscripts":
            source = bound[0][0]
            col = exp.Add(
                this=exp.Column(this=ident("key"), table=ident(alias)),
                expression=exp.Literal.number(1),
            )
            oid = pgtypes.INT4
        else:
            source = bound[0][0]
            col = exp.Column(this=ident("value"), table=ident(alias))
            oid = types.element_of(bound[0][1]) or pgtypes.VARCHAR
        table = exp.Table(
            this=func_call("json_each", source), alias=exp.TableAlias(this=ident(alias))
        )
        if node.args.get("from_") is None:
            node.set("from_", exp.From(this=table))
        else:
            node.append("joins", exp.Join(this=table))
        scope.sources.append(Source(alias, []))
        return col, oid

    def _distinct_on(self, node: exp.Select, scope: Scope, tx: _Expr) -> None:
        """``DISTINCT ON (k) ... ORDER BY o`` as ``row_number() OVER (PARTITION BY k ORDER BY
        o)`` in a derived table, keeping row 1 of each partition, then ordered by o."""
        distinct = node.args["distinct"]
        keys = [tx.bind_top(k)[0] for k in distinct.args["on"].expressions]
        names = [c.name for c in scope.outputs]
        outputs = [it.this for it in node.expressions]
        order = node.args.get("order")
        ordered: list[tuple[exp.Expr, bool]] = []
        if order is not None:
            for o in order.expressions:
                ref = self._order_ref(o.this, scope, tx)
                if isinstance(ref, exp.Literal) and not ref.is_string:
                    ref = outputs[int(ref.this) - 1].copy()
                ordered.append((ref, bool(o.args.get("desc"))))
        inner = node.copy()
        inner.set("distinct", None)
        for key in ("order", "limit", "offset"):
            inner.set(key, None)
        items = [exp.Alias(this=e.copy(), alias=ident(f"__c{i}")) for i, e in enumerate(outputs)]
        items += [
            exp.Alias(this=e.copy(), alias=ident(f"__o{j}")) for j, (e, _) in enumerate(ordered)
        ]
        window = exp.Window(
            this=exp.RowNumber(),
            partition_by=[k.copy() for k in keys],
            order=exp.Order(
                expressions=[exp.Ordered(this=e.copy(), desc=d, nulls_first=d) for e, d in ordered]
            )
            if ordered
            else None,
        )
        items.append(exp.Alias(this=window, alias=ident("__rw_rn")))
        inner.set("expressions", items)
        limit, offset = node.args.get("limit"), node.args.get("offset")
        for key in list(node.args):
            node.set(key, None)
        node.set(
            "expressions",
            [
                exp.Alias(this=exp.Column(this=ident(f"__c{i}")), alias=ident(n))
                for i, n in enumerate(names)
            ],
        )
        node.set(
            "from_",
            exp.From(this=exp.Subquery(this=inner, alias=exp.TableAlias(this=ident("__rw_d")))),
        )
        node.set(
            "where",
            exp.Where(
                this=exp.EQ(
                    this=exp.Column(this=ident("__rw_rn")), expression=exp.Literal.number(1)
                )
            ),
        )
        if ordered:
            node.set(
                "order",
                exp.Order(
                    expressions=[
                        exp.Ordered(this=exp.Column(this=ident(f"__o{j}")), desc=d, nulls_first=d)
                        for j, (_, d) in enumerate(ordered)
                    ]
                ),
            )
        node.set("limit", limit)
        node.set("offset", offset)

    def _expand_star(self, scope: Scope, qualifier: str | None) -> list[tuple[Source, OutColumn]]:
        out: list[tuple[Source, OutColumn]] = []
        if not scope.sources:
            raise BindError("SELECT * with no tables specified is not valid")
        found = False
        if qualifier is None and scope.using:
            # PostgreSQL: the USING/NATURAL columns once, first, then the others
            by_alias = {x.alias: x for x in scope.sources}
            for n, alias in scope.using.items():
                src = by_alias[alias]
                out.extend((src, c) for c in src.columns if c.name == n)
        for src in scope.sources:
            if qualifier is None or src.alias == qualifier:
                found = True
                out.extend(
                    (src, c)
                    for c in src.columns
                    if qualifier is not None or c.name not in scope.using
                )
        if not found:
            raise ItemNotFound(f'missing FROM-clause entry for table "{qualifier}"')
        return out

    def _group_ref(self, e: exp.Expr, scope: Scope, tx: _Expr) -> exp.Expr:
        """GROUP BY item as RisingWave binds it (select.rs:448-490): an ordinal, else the
        expression over the input, and only if that fails a bare name of an output column."""
        if isinstance(e, exp.Literal):
            if e.is_string or not e.this.isdigit():
                raise BindError("non-integer constant in GROUP BY")
            n = int(e.this)
            if not 1 <= n <= len(scope.outputs):
                raise BindError(f"GROUP BY position {n} is not in select list")
            return e
        try:
            return tx.bind_top(e.copy())[0]
        except RwError:
            if isinstance(e, exp.Column) and not e.table:
                for i, c in enumerate(scope.outputs):
                    if c.name == e.name:
                        return exp.Literal.number(i + 1)
            raise

    def _order_ref(self, e: exp.Expr, scope: Scope, tx: _Expr) -> exp.Expr:
        """ORDER BY item as RisingWave binds it (binder/query.rs:302-360): an output ordinal,
        a bare name of an output column (before any input column), or an expression.  A bare
        output name becomes the ordinal so SQLite cannot resolve it to an input column."""
        if isinstance(e, exp.Literal) and not e.is_string:
            n = int(e.this) if e.this.isdigit() else 0
            if not 1 <= n <= len(scope.outputs):
                raise InvalidInputSyntax(f"Invalid ordinal number in ORDER BY: {e.this}")
            return e
        if isinstance(e, exp.Column) and not e.table and not isinstance(e.this, exp.Star):
            hits = [i for i, c in enumerate(scope.outputs) if c.name == e.name]
            if len(hits) > 1:
                raise BindError(f'ORDER BY "{e.name}" is ambiguous')
            if hits:
                return exp.Literal.number(hits[0] + 1)
        return tx.bind_top(e)[0]

    def _order_limit(self, node: exp.Expr, scope: Scope, order: bool = True) -> None:
        tx = _Expr(self, scope)
        order_node = node.args.get("order") if order else None
        if order_node is not None:
            set_op = isinstance(node, (exp.Union, exp.Except, exp.Intersect))
            for o in order_node.expressions:
                if set_op and isinstance(o.this, exp.Column):
                    o.set("this", exp.Column(this=ident(o.this.name)))
                else:
                    o.set("this", self._order_ref(o.this, scope, tx))
                # PostgreSQL: NULLs last ascending, first descending; SQLite the opposite
                if o.args.get("nulls_first") is None or True:
                    desc = bool(o.args.get("desc"))
                    explicit = o.args.get("nulls_first")
                    o.set("nulls_first", explicit if explicit is not None else desc)
        for key in ("limit", "offset"):
            lim = node.args.get(key)
            if lim is not None and lim.args.get("expression") is not None:
                tx.hint_param(lim.expression, pgtypes.INT8)
                new, _ = tx.bind_top(lim.expression)
                lim.set("expression", new)


def _rename_outputs(q: exp.Expr, names: list[str]) -> None:
    """Give a bound query's outputs the names ``names`` (SQLite names derived tables' columns
    after the first SELECT of a set operation)."""
    while isinstance(q, (exp.Union, exp.Except, exp.Intersect, exp.Subquery)):
        q = q.this
    if isinstance(q, exp.Select):
        for item, n in zip(q.expressions, names, strict=False):
            if isinstance(item, exp.Alias):
                item.set("alias", ident(n))


def to_sqlite(node: exp.Expr) -> str:
    """SQLite text of a rewritten tree; a construct SQLite cannot express is an error rather
    than silently dropped (sqlglot's default is to warn and drop it)."""
    return node.sql(dialect="sqlite", unsupported_level=sqlglot.ErrorLevel.RAISE)


class _Expr:
    """Expression binding and rewriting inside one scope."""

    def __init__(self, binder: Binder, scope: Scope) -> None:
        self.b = binder
        self.scope = scope

    def bind_top(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        """Bind a root expression; errors get RisingWave's ``Failed to bind expression``."""
        original = expr_text(node)
        try:
            return self.bind(node)
        except BindExprError:
            raise
        except RwError as e:
            if e.chain and e.chain[0].startswith(
                ("Item not found", "Invalid reference", "internal error", "function ")
            ):
                raise BindExprError(original, e) from None
            raise

    def hint_param(self, node: exp.Expr, oid: int) -> None:
        """Record the type a ``$n`` parameter takes from its context (if not given)."""
        n = param_number(node)
        if n is not None and n not in self.b.params and oid not in (UNKNOWN,):
            self.b.params[n] = oid

    def bind(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        handler = _HANDLERS.get(type(node))
        if handler is not None:
            return handler(self, node)
        if isinstance(node, exp.Func):
            return self._func(node)
        if isinstance(node, (exp.Predicate, exp.Connector)):
            self._children(node)
            return node, pgtypes.BOOL
        self._children(node)
        return node, pgtypes.VARCHAR

    def _children(self, node: exp.Expr) -> list[int]:
        oids = []
        for key, value in list(node.args.items()):
            if isinstance(value, exp.Expr):
                new, oid = self.bind(value)
                if new is not value:
                    node.set(key, new)
                oids.append(oid)
            elif isinstance(value, list):
                out = []
                for v in value:
                    if isinstance(v, exp.Expr):
                        new, oid = self.bind(v)
                        out.append(new)
                        oids.append(oid)
                    else:
                        out.append(v)
                node.set(key, out)
        return oids

    # --- leaves --------------------------------------------------------------------------

    def _column(self, node: exp.Column) -> tuple[exp.Expr, int]:
        name = node.name
        table = node.table or None
        schema = node.db or None
        if isinstance(node.this, exp.Star):
            raise RwError("Bind error: * is only allowed in the select list")
        scope: Scope | None = self.scope
        err: RwError | None = None
        while scope is not None:
            try:
                src, col = lookup(scope, schema, table, name)
                return src.ref(col.name), col.type_oid
            except RwError as e:
                if err is None or isinstance(err, ItemNotFound):
                    err = e
                if not isinstance(e, ItemNotFound):
                    raise
            scope = scope.parent
        if table is None and name.lower() in _KEYWORD_FUNCS:
            return self._keyword_func(name.lower())
        if table is None and name == "ctid":
            return lit_str(""), pgtypes.VARCHAR
        # an output alias referenced in ORDER BY/GROUP BY inside an expression is not valid
        assert err is not None
        raise err

    def _keyword_func(self, name: str) -> tuple[exp.Expr, int]:
        if name in ("current_user", "session_user", "user", "current_role"):
            return func_call("rw_current_user"), pgtypes.VARCHAR
        if name == "current_catalog":
            return func_call("rw_current_database"), pgtypes.VARCHAR
        return func_call("rw_current_schema"), pgtypes.VARCHAR

    def _literal(self, node: exp.Literal) -> tuple[exp.Expr, int]:
        if node.is_string:
            return node, UNKNOWN
        text = node.this
        return node, number_type(text)

    def _param(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        n = param_number(node)
        assert n is not None
        self.b.max_param = max(self.b.max_param, n)
        # SQLite's numbered form (sqlglot would print ":n", which SQLite numbers by position)
        return exp.Var(this=f"?{n}"), self.b.params.get(n, UNKNOWN)

    # --- operators -----------------------------------------------------------------------

    def _binary_operands(self, node: exp.Binary) -> tuple[int, int]:
        left, right = node.this, node.expression
        # a parameter takes the type of the other side (PostgreSQL's unknown resolution)
        lt = self._peek_type(left)
        rt = self._peek_type(right)
        if param_number(left) is not None and rt not in (None, UNKNOWN):
            self.hint_param(left, rt)
        if param_number(right) is not None and lt not in (None, UNKNOWN):
            self.hint_param(right, lt)
        new_l, lo = self.bind(left)
        new_r, ro = self.bind(right)
        node.set("this", new_l)
        node.set("expression", new_r)
        if param_number(left) is not None and lo == UNKNOWN and ro != UNKNOWN:
            self.hint_param(left, ro)
            lo = ro
        if param_number(right) is not None and ro == UNKNOWN and lo != UNKNOWN:
            self.hint_param(right, lo)
            ro = lo
        return lo, ro

    def _peek_type(self, node: exp.Expr) -> int | None:
        """The type of a column reference or cast without binding it (for parameter hints)."""
        if isinstance(node, (exp.Cast, exp.TryCast)):
            return type_oid_of(node.args["to"])
        if isinstance(node, exp.Column) and not isinstance(node.this, exp.Star):
            scope: Scope | None = self.scope
            while scope is not None:
                try:
                    return lookup(scope, node.db or None, node.table or None, node.name)[1].type_oid
                except RwError:
                    scope = scope.parent
        return None

    def _compare(self, node: exp.Binary) -> tuple[exp.Expr, int]:
        right = node.expression
        if isinstance(right, exp.Anonymous) and right.name.upper() in ("ALL", "ANY", "SOME"):
            quant = exp.All if right.name.upper() == "ALL" else exp.Any
            right = quant(this=right.expressions[0])
            node.set("expression", right)
        if isinstance(right, (exp.Any, exp.All)):
            return self._any(node)
        lo, ro = self._binary_operands(node)
        # an untyped string literal takes the other side's type (PostgreSQL's unknown
        # resolution), so it compares as a boolean, instant or interval rather than as text
        coerced = types.TEMPORAL_OIDS | {pgtypes.BOOL}
        for side, other in (("this", ro), ("expression", lo)):
            val = node.args[side]
            if isinstance(val, exp.Literal) and val.is_string and other in coerced:
                node.set(side, _cast_call(val, UNKNOWN, other))
        return node, pgtypes.BOOL

    def _any(self, node: exp.Binary) -> tuple[exp.Expr, int]:
        quant = node.expression
        inner = quant.this
        while isinstance(inner, exp.Paren):
            inner = inner.this
        left_t = self._peek_type(node.this)
        if isinstance(inner, (exp.Select, exp.Union, exp.Subquery)):
            new_l, _ = self.bind(node.this)
            self.b.query(inner, self.scope)
            q = inner.this if isinstance(inner, exp.Subquery) else inner
            result: exp.Expr = exp.In(this=new_l, query=exp.Subquery(this=q))
            if isinstance(node, exp.NEQ) and isinstance(quant, exp.All):
                result = exp.Not(this=result)
            return result, pgtypes.BOOL
        if left_t is not None:
            self.hint_param(inner, types.array_of(types.external(left_t)))
        new_l, lo = self.bind(node.this)
        new_arr, _ao = self.bind(inner)
        if param_number(inner) is not None and lo != UNKNOWN:
            self.hint_param(inner, types.array_of(types.external(lo)))
        call = func_call("rw_any_eq", new_l, new_arr)
        if isinstance(node, exp.EQ) and isinstance(quant, exp.Any):
            return call, pgtypes.BOOL
        if isinstance(node, exp.NEQ) and isinstance(quant, exp.All):
            return exp.Not(this=call), pgtypes.BOOL
        raise NotImplementedError_(f"{type(node).__name__} with {type(quant).__name__}")

    def _arith(self, node: exp.Binary) -> tuple[exp.Expr, int]:
        lo, ro = self._binary_operands(node)
        lo = pgtypes.INT4 if lo == UNKNOWN and isinstance(node.this, exp.Placeholder) else lo
        op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "%"}[type(node)]
        temporal = {lo, ro} & types.TEMPORAL_OIDS
        if temporal:
            return self._temporal_arith(node, op, lo, ro)
        if lo == UNKNOWN:
            lo = ro
        if ro == UNKNOWN:
            ro = lo
        result = types.wider_numeric(lo, ro)
        if result in types.INTEGER_OIDS or result == pgtypes.NUMERIC or op in "/%":
            return func_call(
                "rw_arith", lit_str(op), lit_int(result), node.this, node.expression
            ), result
        return node, result

    def _temporal_arith(self, node: exp.Binary, op: str, lo: int, ro: int) -> tuple[exp.Expr, int]:
        a, b = node.this, node.expression
        if (
            op in "+-"
            and ro == pgtypes.INTERVAL
            and lo in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ, pgtypes.DATE)
        ):
            out = pgtypes.TIMESTAMP if lo == pgtypes.DATE else lo
            return func_call("rw_ts_add", a, b, lit_int(1 if op == "+" else -1)), out
        if (
            op == "+"
            and lo == pgtypes.INTERVAL
            and ro in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ, pgtypes.DATE)
        ):
            out = pgtypes.TIMESTAMP if ro == pgtypes.DATE else ro
            return func_call("rw_ts_add", b, a, lit_int(1)), out
        if op == "-" and lo in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ) and ro == lo:
            return func_call("rw_ts_diff", a, b), pgtypes.INTERVAL
        if op == "-" and lo == pgtypes.DATE and ro == pgtypes.DATE:
            return exp.Cast(
                this=exp.Sub(this=func_call("julianday", a), expression=func_call("julianday", b)),
                to=exp.DataType.build("int"),
            ), pgtypes.INT4
        if op in "+-" and lo == pgtypes.DATE and ro in types.INTEGER_OIDS:
            days = exp.Concat(expressions=[lit_str("+" if op == "+" else "-"), b, lit_str(" days")])
            return func_call("date", a, days), pgtypes.DATE
        from rwshim.query.casts import DISPLAY

        fname = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "%": "modulus"}[op]
        raise NoFunction(
            f"{fname}({DISPLAY.get(types.external(lo), 'unknown')}, "
            f"{DISPLAY.get(types.external(ro), 'unknown')})"
        )

    def _concat(self, node: exp.DPipe) -> tuple[exp.Expr, int]:
        lo, ro = self._binary_operands(node)
        if types.is_array(lo) or types.is_array(ro):
            if types.is_array(lo) and types.is_array(ro):
                return func_call("rw_array_cat", node.this, node.expression), lo
            if types.is_array(lo):
                return func_call("rw_array_append", node.this, node.expression), lo
        parts = []
        for side, oid in ((node.this, lo), (node.expression, ro)):
            if oid not in types.STRING_OIDS and oid != UNKNOWN:
                side = _cast_call(side, oid, pgtypes.VARCHAR)
            parts.append(side)
        return exp.DPipe(this=parts[0], expression=parts[1]), pgtypes.VARCHAR

    def _regex(self, node: exp.Expr, ci: bool) -> tuple[exp.Expr, int]:
        new_l, _ = self.bind(node.this)
        new_r, _ = self.bind(node.expression)
        return func_call("rw_regex", new_l, new_r, lit_int(1 if ci else 0)), pgtypes.BOOL

    def _operator(self, node: exp.Operator) -> tuple[exp.Expr, int]:
        op = str(node.args.get("operator") or "").replace(" ", "").lower()
        op = op.removeprefix("pg_catalog.")
        if op in ("~", "~*", "!~", "!~*"):
            res, oid = self._regex(node, "*" in op)
            return (exp.Not(this=res) if op.startswith("!") else res), oid
        simple = {
            "=": exp.EQ,
            "<>": exp.NEQ,
            "!=": exp.NEQ,
            "<": exp.LT,
            ">": exp.GT,
            "<=": exp.LTE,
            ">=": exp.GTE,
            "~~": exp.Like,
            "!~~": None,
        }
        cls = simple.get(op)
        if cls is not None:
            return self.bind(cls(this=node.this, expression=node.expression))
        raise NotImplementedError_(f"operator {op}")

    def _like(
        self, node: exp.Expr, escape: exp.Expr | None = None, ci: bool = False
    ) -> tuple[exp.Expr, int]:
        new_l, _ = self.bind(node.this)
        new_r, _ = self.bind(node.expression)
        esc = self.bind(escape)[0] if escape is not None else exp.Null()
        res: exp.Expr
        if not ci and escape is None and isinstance(new_r, exp.Literal) and "\\" not in new_r.this:
            res = exp.Like(this=new_l, expression=new_r)
        else:
            res = func_call("rw_like", new_l, new_r, esc, lit_int(1 if ci else 0))
        # sqlglot keeps NOT LIKE / NOT ILIKE as the predicate's ``negate`` flag
        return (exp.Not(this=res) if node.args.get("negate") else res), pgtypes.BOOL

    def _escape(self, node: exp.Escape) -> tuple[exp.Expr, int]:
        inner = node.this
        ci = isinstance(inner, exp.ILike)
        res, oid = self._like(inner, node.expression, ci)
        return res, oid

    def _collate(self, node: exp.Collate) -> tuple[exp.Expr, int]:
        # PostgreSQL's "default" collation is SQLite's BINARY: the clause is dropped
        return self.bind(node.this)

    def _cast(self, node: exp.Cast) -> tuple[exp.Expr, int]:
        to = type_oid_of(node.args["to"])
        inner = node.this
        # a parameter cast to a reg* type is sent as the object's name
        reg = to in (types.REGTYPE_TAG, types.REGNAMESPACE_TAG) or is_regclass(node.args["to"])
        self.hint_param(inner, pgtypes.VARCHAR if reg else types.external(to))
        if to == pgtypes.INT4 and is_regclass(node.args["to"]):
            return self._regclass(inner)
        new, frm = self.bind(inner)
        if to == types.REGTYPE_TAG and frm in types.STRING_OIDS | {UNKNOWN}:
            return func_call("to_regtype", new), to
        if to == types.REGNAMESPACE_TAG and frm in types.STRING_OIDS | {UNKNOWN}:
            return self._regnamespace(new), to
        if to in types.STRING_OIDS and frm == types.REGTYPE_TAG:
            return func_call("format_type", new, exp.Null()), pgtypes.VARCHAR
        if to in types.STRING_OIDS and frm == types.REGNAMESPACE_TAG:
            return self._nspname(new), pgtypes.VARCHAR
        if (
            frm == to
            or (to in types.STRING_OIDS and frm in types.STRING_OIDS)
            or (
                to in types.INTEGER_OIDS | {types.REGTYPE_TAG, types.REGNAMESPACE_TAG}
                and frm in types.INTEGER_OIDS | {types.REGTYPE_TAG, types.REGNAMESPACE_TAG}
                and to != pgtypes.INT2
            )
        ):
            return new, to
        return _cast_call(new, frm, to), to

    def _regclass(self, inner: exp.Expr) -> tuple[exp.Expr, int]:
        new, frm = self.bind(inner)
        if frm in types.INTEGER_OIDS:
            return new, pgtypes.INT4
        if isinstance(new, exp.Literal) and new.is_string:
            const = self._regclass_const(new.this)
            if const is not None:
                return lit_int(const), pgtypes.INT4
        # by name at run time: through pg_class of the visible schemas
        path = ", ".join(f"'{s}'" for s in self.b.ctx.resolved_path())
        sub = sqlglot.parse_one(
            "SELECT __rw_c.oid FROM pg_catalog.pg_class AS __rw_c "
            "JOIN pg_catalog.pg_namespace AS __rw_n ON __rw_n.oid = __rw_c.relnamespace "
            f"WHERE __rw_c.relname = ? AND __rw_n.nspname IN ({path}) LIMIT 1",
            read="postgres",
        )
        sub.find(exp.Placeholder).replace(new)  # type: ignore[union-attr]
        self.b.query(sub, self.scope)
        return exp.Subquery(this=sub), pgtypes.INT4

    def _regclass_const(self, text: str) -> int | None:
        """The oid of a user relation named by a constant; None for a system relation (looked
        up in pg_class at run time)."""
        parts = [p.strip('"') for p in text.split(".")]
        name = parts[-1]
        schema = parts[-2] if len(parts) >= 2 else None
        try:
            rel = self.b.resolve_relation(None, schema, name)
        except (CatalogNotFound, NotImplementedError_):
            raise CatalogNotFound("relation", text) from None
        if isinstance(rel, SystemRelation):
            return None
        return rel.id

    def _regnamespace(self, new: exp.Expr) -> exp.Expr:
        sub = sqlglot.parse_one(
            "SELECT __rw_n.oid FROM pg_catalog.pg_namespace AS __rw_n WHERE __rw_n.nspname = ?",
            read="postgres",
        )
        sub.find(exp.Placeholder).replace(new)  # type: ignore[union-attr]
        self.b.query(sub, self.scope)
        return exp.Subquery(this=sub)

    def _nspname(self, new: exp.Expr) -> exp.Expr:
        sub = sqlglot.parse_one(
            "SELECT __rw_n.nspname FROM pg_catalog.pg_namespace AS __rw_n WHERE __rw_n.oid = ?",
            read="postgres",
        )
        sub.find(exp.Placeholder).replace(new)  # type: ignore[union-attr]
        self.b.query(sub, self.scope)
        return exp.Subquery(this=sub)

    # --- composite -----------------------------------------------------------------------

    def _array(self, node: exp.Array) -> tuple[exp.Expr, int]:
        if len(node.expressions) == 1 and isinstance(
            node.expressions[0], (exp.Select, exp.Union, exp.Subquery)
        ):
            q = node.expressions[0]
            cols = self.b.query(q, self.scope)
            if isinstance(q, exp.Subquery):
                q = q.this
            elem = cols[0].type_oid if cols else pgtypes.VARCHAR
            agg = sqlglot.parse_one(
                'SELECT COALESCE(rw_array_agg("__v"), \'[]\') FROM ? AS "__a"', read="sqlite"
            )
            name = cols[0].name if cols else "?column?"
            _rename_outputs(q, ["__v"] + [c.name for c in cols[1:]])
            del name
            agg.find(exp.Placeholder).replace(exp.Subquery(this=q))  # type: ignore[union-attr]
            return exp.Subquery(this=agg), types.array_of(literal_default(elem))
        items = []
        elem = UNKNOWN
        for x in node.expressions:
            new, oid = self.bind(x)
            items.append(new)
            if elem == UNKNOWN:
                elem = oid
        return func_call("rw_array", *items), types.array_of(literal_default(elem))

    def _bracket(self, node: exp.Bracket) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        idx, _ = self.bind(node.expressions[0])
        # sqlglot stores PostgreSQL's 1-based subscript 0-based
        one_based: exp.Expr = (
            exp.Literal.number(int(idx.this) + 1)
            if isinstance(idx, exp.Literal) and not idx.is_string
            else exp.Add(this=idx, expression=exp.Literal.number(1))
        )
        return func_call("rw_array_get", new, one_based), types.element_of(oid) or pgtypes.VARCHAR

    def _subquery(self, node: exp.Subquery) -> tuple[exp.Expr, int]:
        cols = self.b.query(node.this, self.scope)
        return node, cols[0].type_oid if cols else pgtypes.VARCHAR

    def _exists(self, node: exp.Exists) -> tuple[exp.Expr, int]:
        self.b.query(node.this, self.scope)
        return node, pgtypes.BOOL

    def _in(self, node: exp.In) -> tuple[exp.Expr, int]:
        new, lo = self.bind(node.this)
        node.set("this", new)
        q = node.args.get("query")
        if q is not None:
            self.b.query(q, self.scope)
        out = []
        for x in node.expressions:
            self.hint_param(x, lo)
            out.append(self.bind(x)[0])
        node.set("expressions", out)
        return node, pgtypes.BOOL

    def _case(self, node: exp.Case) -> tuple[exp.Expr, int]:
        oids = []
        if node.this is not None:
            node.set("this", self.bind(node.this)[0])
        for ifn in node.args.get("ifs") or []:
            ifn.set("this", self.bind(ifn.this)[0])
            new, oid = self.bind(ifn.args["true"])
            ifn.set("true", new)
            oids.append(oid)
        default = node.args.get("default")
        if default is not None:
            new, oid = self.bind(default)
            node.set("default", new)
            oids.append(oid)
        return node, common_type(oids)

    def _paren(self, node: exp.Paren) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        return node, oid

    def _boolean(self, node: exp.Boolean) -> tuple[exp.Expr, int]:
        return exp.Literal.number(1 if node.this else 0), pgtypes.BOOL

    def _null(self, node: exp.Null) -> tuple[exp.Expr, int]:
        return node, UNKNOWN

    def _neg(self, node: exp.Neg) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        return node, oid

    def _not(self, node: exp.Not) -> tuple[exp.Expr, int]:
        new, _ = self.bind(node.this)
        node.set("this", new)
        return node, pgtypes.BOOL

    def _distinct_from(self, node: exp.Binary) -> tuple[exp.Expr, int]:
        self._binary_operands(node)
        call = func_call("rw_distinct", node.this, node.expression)
        if isinstance(node, exp.NullSafeEQ):
            return exp.Not(this=call), pgtypes.BOOL
        return call, pgtypes.BOOL

    def _json_get(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        """``->`` / ``->>``: sqlglot already turned the key into SQLite's JSON path."""
        new, _ = self.bind(node.this)
        node.set("this", new)
        if isinstance(node, exp.JSONExtractScalar):
            # ->> of an object or array is its jsonb text, spaced as RisingWave prints it
            as_json = exp.JSONExtract(**{k: v for k, v in node.args.items()})
            return func_call("rw_json_text", as_json), pgtypes.VARCHAR
        return node, pgtypes.JSONB

    def _contains_all(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        a, ao = self.bind(node.this)
        b, bo = self.bind(node.expression)
        if types.is_array(ao) or types.is_array(bo):
            return func_call("rw_array_contains_all", a, b), pgtypes.BOOL
        return func_call("rw_jsonb_contains", a, b), pgtypes.BOOL

    def _contained_by(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        a, ao = self.bind(node.this)
        b, bo = self.bind(node.expression)
        if types.is_array(ao) or types.is_array(bo):
            return func_call("rw_array_contains_all", b, a), pgtypes.BOOL
        return func_call("rw_jsonb_contains", b, a), pgtypes.BOOL

    def _similar_to(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        a, _ = self.bind(node.this)
        b, _ = self.bind(node.expression)
        return func_call("rw_similar", a, b), pgtypes.BOOL

    def _interval(self, node: exp.Interval) -> tuple[exp.Expr, int]:
        text = node.this.name if node.this is not None else ""
        unit = node.args.get("unit")
        if unit is not None:
            text = f"{text} {unit.name.lower()}"
        return _cast_call(lit_str(text), UNKNOWN, pgtypes.INTERVAL), pgtypes.INTERVAL

    def _bytestring(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        # sqlglot reads E'...' as a ByteString already unescaped
        return lit_str(node.this), UNKNOWN

    def _dot(self, node: exp.Dot) -> tuple[exp.Expr, int]:
        left = node.this
        if (
            isinstance(left, (exp.Identifier, exp.Var))
            and left.name.lower() == "pg_catalog"
            and (isinstance(node.expression, exp.Func))
        ):
            return self.bind(node.expression)
        if isinstance(node.expression, exp.Func):
            raise NoFunction(f"{left.name}.{func_name(node.expression)}")
        self._children(node)
        return node, pgtypes.VARCHAR

    def _window(self, node: exp.Window) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        for key in ("partition_by",):
            parts = node.args.get(key) or []
            node.set(key, [self.bind(p)[0] for p in parts])
        order = node.args.get("order")
        if order is not None:
            for o in order.expressions:
                o.set("this", self.bind(o.this)[0])
        return node, oid

    def _filter(self, node: exp.Filter) -> tuple[exp.Expr, int]:
        new, oid = self.bind(node.this)
        node.set("this", new)
        where = node.expression
        where.set("this", self.bind(where.this)[0])
        return node, oid

    # --- functions -----------------------------------------------------------------------

    def _func(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        name = func_name(node)
        special = _SPECIAL_FUNCS.get(name)
        if special is not None:
            return special(self, node)
        args = func_args(node)
        bound = [self.bind(a) for a in args]
        new_args = [b[0] for b in bound]
        oids = [b[1] for b in bound]
        oid = function_type(name, oids)
        if isinstance(node, exp.Anonymous):
            target = _RENAMED.get(name, name)
            if self.b.functions is not None and target not in self.b.functions:
                from rwshim.query.casts import DISPLAY

                sig = ", ".join(DISPLAY.get(types.external(o), "unknown") for o in oids)
                raise NoFunction(f"{name}({sig})")
            node.set("this", target)
            node.set("expressions", new_args)
            return node, oid
        if name in _RENAMED:
            return func_call(_RENAMED[name], *new_args), oid
        # a typed sqlglot node sqlite can print: rebind its children in place
        self._rebind_args(node, args, new_args)
        return node, oid

    def _rebind_args(self, node: exp.Expr, old: list[exp.Expr], new: list[exp.Expr]) -> None:
        mapping = {id(o): n for o, n in zip(old, new, strict=True)}
        for key, value in list(node.args.items()):
            if isinstance(value, exp.Expr) and id(value) in mapping:
                node.set(key, mapping[id(value)])
            elif isinstance(value, list):
                node.set(
                    key,
                    [mapping.get(id(v), v) if isinstance(v, exp.Expr) else v for v in value],
                )

    def _agg_ordered(
        self, node: exp.Expr, helper: str, extra: list[exp.Expr]
    ) -> tuple[exp.Expr, int]:
        this = node.this
        keys: list[exp.Expr] = []
        distinct = False
        if isinstance(this, exp.Order):
            for o in this.expressions:
                keys.append(self.bind(o.this)[0])
                keys.append(lit_int(1 if o.args.get("desc") else 0))
            this = this.this
        if isinstance(this, exp.Distinct):
            distinct = True
            this = this.expressions[0]
        new, oid = self.bind(this)
        bound_extra = [self.bind(x)[0] for x in extra]
        call = func_call(helper, new, *bound_extra, *keys)
        if distinct:
            call.set("expressions", [exp.Distinct(expressions=[new])])
        return call, oid

    def _array_agg(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        call, oid = self._agg_ordered(node, "rw_array_agg", [])
        return call, types.array_of(types.external(literal_default(oid)))

    def _string_agg(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        sep = node.args.get("separator")
        if isinstance(node, exp.Anonymous):
            args = node.expressions
            node = exp.GroupConcat(this=args[0], separator=args[1] if len(args) > 1 else None)
            sep = node.args.get("separator")
        call, _ = self._agg_ordered(node, "rw_string_agg", [sep if sep is not None else exp.Null()])
        return call, pgtypes.VARCHAR

    def _count(self, node: exp.Count) -> tuple[exp.Expr, int]:
        if node.this is not None and not isinstance(node.this, exp.Star):
            node.set("this", self.bind(node.this)[0])
        return node, pgtypes.INT8

    def _sum_avg(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        inner = node.this
        distinct = isinstance(inner, exp.Distinct)
        if distinct:
            inner = inner.expressions[0]
        new, oid = self.bind(inner)
        if distinct:
            node.set("this", exp.Distinct(expressions=[new]))
        else:
            node.set("this", new)
        is_avg = isinstance(node, exp.Avg)
        if oid in types.FLOAT_OIDS:
            return node, pgtypes.FLOAT8 if is_avg else oid
        if not is_avg and oid in (pgtypes.INT2, pgtypes.INT4):
            return node, pgtypes.INT8
        # numeric results are computed in decimal, as RisingWave's rust_decimal does
        arg: exp.Expr = exp.Distinct(expressions=[new]) if distinct else new
        return func_call("rw_avg_dec" if is_avg else "rw_sum_dec", arg), pgtypes.NUMERIC

    def _extract(self, node: exp.Extract) -> tuple[exp.Expr, int]:
        unit = node.this.name.lower() if node.this is not None else ""
        new, _ = self.bind(node.expression)
        return func_call("rw_extract", lit_str(unit), new), pgtypes.NUMERIC

    def _date_trunc(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        args = func_args(node)
        if isinstance(node, (exp.TimestampTrunc, exp.DateTrunc)):
            unit = node.args.get("unit")
            unit_text = unit.name.lower() if unit is not None else "day"
            new, oid = self.bind(node.this)
            out = pgtypes.TIMESTAMP if oid == pgtypes.DATE else oid
            return func_call("date_trunc", lit_str(unit_text), new), out
        u, _ = self.bind(args[0])
        new, oid = self.bind(args[1])
        return func_call("date_trunc", u, new), oid

    def _now(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return func_call("rw_now"), pgtypes.TIMESTAMPTZ

    def _current_date(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return func_call(
            "substr", func_call("rw_now"), exp.Literal.number(1), exp.Literal.number(10)
        ), pgtypes.DATE

    def _current_user(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return func_call("rw_current_user"), pgtypes.VARCHAR

    def _current_schema(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return func_call("rw_current_schema"), pgtypes.VARCHAR

    def _version(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        return func_call("rw_version"), pgtypes.VARCHAR

    def _round(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        args = func_args(node)
        bound = [self.bind(a) for a in args]
        return func_call("rw_round", *[b[0] for b in bound]), bound[0][1]

    def _concat_fn(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        bound = [self.bind(a) for a in func_args(node)]
        return func_call(
            "rw_concat",
            *[
                b[0]
                if b[1] in types.STRING_OIDS | {UNKNOWN}
                else _cast_call(b[0], b[1], pgtypes.VARCHAR)
                for b in bound
            ],
        ), pgtypes.VARCHAR

    def _catalog_predicate(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        """pg_table_is_visible / pg_get_userbyid / obj_description ...: correlated subqueries
        over the catalog views, so the answer follows the catalog."""
        name = func_name(node)
        args = [self.bind(a)[0] for a in func_args(node)]
        path = ", ".join(f"'{s}'" for s in self.b.ctx.resolved_path())
        # aliases are prefixed so they never capture the caller's correlated names
        templates = {
            # RisingWave: system catalogs are always visible, others when their schema is on
            # the search path, else NULL (expr/function_impl/pg_table_is_visible.rs:33-70)
            "pg_table_is_visible": (
                "SELECT __rw_c.oid FROM pg_catalog.pg_class AS __rw_c JOIN "
                "pg_catalog.pg_namespace AS __rw_n ON __rw_n.oid = __rw_c.relnamespace "
                f"WHERE __rw_n.nspname IN ({path}, 'information_schema')",
                pgtypes.BOOL,
            ),
            "pg_get_userbyid": (
                "SELECT COALESCE((SELECT __rw_r.rolname FROM pg_catalog.pg_roles AS __rw_r "
                "WHERE __rw_r.oid = ? LIMIT 1), 'unknown (OID=' || ? || ')')",
                pgtypes.VARCHAR,
            ),
            "obj_description": (
                "SELECT __rw_d.description FROM pg_catalog.pg_description AS __rw_d "
                "WHERE __rw_d.objoid = ? AND __rw_d.objsubid = 0 LIMIT 1",
                pgtypes.VARCHAR,
            ),
            "col_description": (
                "SELECT __rw_d.description FROM pg_catalog.pg_description AS __rw_d "
                "WHERE __rw_d.objoid = ? AND __rw_d.objsubid = ? LIMIT 1",
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
        sql, oid = templates[name]
        try:
            sub = sqlglot.parse_one(sql, read="postgres")
            holes = list(sub.find_all(exp.Placeholder))
            if name == "pg_get_userbyid":
                args = [args[0], args[0].copy()]
            for hole, arg in zip(holes, args, strict=False):
                hole.replace(arg)
            for hole in holes[len(args) :]:
                hole.replace(exp.Null())
            self.b.query(sub, self.scope)
            if name == "pg_table_is_visible":
                # an uncorrelated IN list SQLite builds once per statement, not once per row
                visible = exp.In(this=args[0], query=exp.Subquery(this=sub))
                return exp.Case(
                    ifs=[exp.If(this=visible, true=exp.Literal.number(1))], default=exp.Null()
                ), oid
        except (CatalogNotFound, NotImplementedError_):
            # the catalog relation it needs is not installed: PostgreSQL's neutral answer
            return (exp.Null() if oid == pgtypes.VARCHAR else exp.Literal.number(1)), oid
        return exp.Subquery(this=sub), oid

    def _generate_subscripts(self, node: exp.Expr) -> tuple[exp.Expr, int]:
        raise NotImplementedError_("generate_subscripts outside FROM")


_AGG_HELPERS = frozenset(
    {
        "rw_array_agg",
        "rw_string_agg",
        "bool_and",
        "bool_or",
        "every",
        "rw_sum_dec",
        "rw_avg_dec",
        "count",
        "sum",
        "avg",
        "min",
        "max",
        "total",
        "group_concat",
    }
)


def _is_agg(node: exp.Expr) -> bool:
    if isinstance(node, (exp.AggFunc, exp.WithinGroup)):
        return True
    return isinstance(node, exp.Anonymous) and node.name.lower() in _AGG_HELPERS


def _has_agg(node: exp.Expr) -> bool:
    """An aggregate call at this query level (not inside a subquery or a window)."""
    if _is_agg(node):
        return True
    if isinstance(node, (exp.Subquery, exp.Select, exp.Window, exp.Exists)):
        return False
    return any(_has_agg(c) for c in node.iter_expressions())


def _no_aggregate(node: exp.Expr, clause: str) -> None:
    """binder/expr/function/aggregate.rs:28-46 (clause names in TITLE CASE, bind_context.rs:64)."""
    if _has_agg(node):
        raise BindExprError(
            expr_text(node),
            InvalidInputSyntax(f"aggregate functions are not allowed in {clause}"),
        )


def _check_grouping(node: exp.Select, scope: Scope) -> None:
    """RisingWave's planner check (optimizer/plan_node/logical_agg.rs:1040-1060): in a grouped
    query every column outside an aggregate must be a GROUP BY expression."""
    group = node.args.get("group")
    items = [it.this if isinstance(it, exp.Alias) else it for it in node.expressions]
    having = node.args.get("having")
    roots = items + ([having.this] if having is not None else [])
    if group is None and not any(_has_agg(r) for r in roots):
        return
    keys: set[str] = set()
    for g in group.expressions if group is not None else []:
        if isinstance(g, exp.Literal) and not g.is_string:
            g = items[int(g.this) - 1]
        keys.add(g.sql(dialect="sqlite"))
    local = {src.alias for src in scope.sources}

    def check(e: exp.Expr) -> None:
        if (
            e.sql(dialect="sqlite") in keys
            or _is_agg(e)
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


_HANDLERS: dict[type[exp.Expr], Callable[[_Expr, exp.Expr], tuple[exp.Expr, int]]] = {
    exp.Column: _Expr._column,  # type: ignore[dict-item]
    exp.Literal: _Expr._literal,  # type: ignore[dict-item]
    exp.Parameter: _Expr._param,
    exp.Placeholder: _Expr._param,
    exp.EQ: _Expr._compare,  # type: ignore[dict-item]
    exp.NEQ: _Expr._compare,  # type: ignore[dict-item]
    exp.GT: _Expr._compare,  # type: ignore[dict-item]
    exp.GTE: _Expr._compare,  # type: ignore[dict-item]
    exp.LT: _Expr._compare,  # type: ignore[dict-item]
    exp.LTE: _Expr._compare,  # type: ignore[dict-item]
    exp.Add: _Expr._arith,  # type: ignore[dict-item]
    exp.Sub: _Expr._arith,  # type: ignore[dict-item]
    exp.Mul: _Expr._arith,  # type: ignore[dict-item]
    exp.Div: _Expr._arith,  # type: ignore[dict-item]
    exp.Mod: _Expr._arith,  # type: ignore[dict-item]
    exp.DPipe: _Expr._concat,  # type: ignore[dict-item]
    exp.RegexpLike: lambda s, n: s._regex(n, False),
    exp.RegexpILike: lambda s, n: s._regex(n, True),
    exp.Operator: _Expr._operator,  # type: ignore[dict-item]
    exp.Like: lambda s, n: s._like(n),
    exp.ILike: lambda s, n: s._like(n, None, True),
    exp.Escape: _Expr._escape,  # type: ignore[dict-item]
    exp.Collate: _Expr._collate,  # type: ignore[dict-item]
    exp.Cast: _Expr._cast,  # type: ignore[dict-item]
    exp.TryCast: _Expr._cast,  # type: ignore[dict-item]
    exp.Array: _Expr._array,  # type: ignore[dict-item]
    exp.Bracket: _Expr._bracket,  # type: ignore[dict-item]
    exp.Subquery: _Expr._subquery,  # type: ignore[dict-item]
    exp.Exists: _Expr._exists,  # type: ignore[dict-item]
    exp.In: _Expr._in,  # type: ignore[dict-item]
    exp.Case: _Expr._case,  # type: ignore[dict-item]
    exp.Paren: _Expr._paren,  # type: ignore[dict-item]
    exp.Boolean: _Expr._boolean,  # type: ignore[dict-item]
    exp.Null: _Expr._null,  # type: ignore[dict-item]
    exp.Neg: _Expr._neg,  # type: ignore[dict-item]
    exp.Not: _Expr._not,  # type: ignore[dict-item]
    exp.NullSafeEQ: _Expr._distinct_from,  # type: ignore[dict-item]
    exp.NullSafeNEQ: _Expr._distinct_from,  # type: ignore[dict-item]
    exp.Interval: _Expr._interval,  # type: ignore[dict-item]
    exp.JSONExtract: _Expr._json_get,
    exp.JSONExtractScalar: _Expr._json_get,
    exp.ArrayContainsAll: _Expr._contains_all,
    exp.ArrayContainedBy: _Expr._contained_by,
    exp.SimilarTo: _Expr._similar_to,
    exp.ByteString: _Expr._bytestring,
    exp.Dot: _Expr._dot,  # type: ignore[dict-item]
    exp.Window: _Expr._window,  # type: ignore[dict-item]
    exp.Filter: _Expr._filter,  # type: ignore[dict-item]
    exp.Count: _Expr._count,  # type: ignore[dict-item]
    exp.Sum: _Expr._sum_avg,
    exp.Avg: _Expr._sum_avg,
    exp.Extract: _Expr._extract,  # type: ignore[dict-item]
    exp.CurrentTimestamp: _Expr._now,
    exp.CurrentDate: _Expr._current_date,
    exp.CurrentUser: _Expr._current_user,
    exp.CurrentSchema: _Expr._current_schema,
    exp.CurrentVersion: _Expr._version,
    exp.Round: _Expr._round,
    exp.Concat: _Expr._concat_fn,
    exp.ArrayAgg: _Expr._array_agg,
    exp.GroupConcat: _Expr._string_agg,
    exp.TimestampTrunc: _Expr._date_trunc,
    exp.DateTrunc: _Expr._date_trunc,
}

_SPECIAL_FUNCS: dict[str, Callable[[_Expr, exp.Expr], tuple[exp.Expr, int]]] = {
    "pg_table_is_visible": _Expr._catalog_predicate,
    "pg_get_userbyid": _Expr._catalog_predicate,
    "obj_description": _Expr._catalog_predicate,
    "col_description": _Expr._catalog_predicate,
    "pg_get_viewdef": _Expr._catalog_predicate,
    "pg_get_indexdef": _Expr._catalog_predicate,
    "array_agg": _Expr._array_agg,
    "string_agg": _Expr._string_agg,
    "date_trunc": _Expr._date_trunc,
    "now": _Expr._now,
    "current_schema": _Expr._current_schema,
    "current_user": _Expr._current_user,
    "session_user": _Expr._current_user,
    "version": _Expr._version,
    "concat": _Expr._concat_fn,
    "round": _Expr._round,
}
