"""The binder: a query's names resolved and its clauses bound, the tree rewritten for SQLite.

Binding follows RisingWave's binder: relations resolve through the search path with
``pg_catalog`` and ``rw_catalog`` implicitly first (search_path.rs:64-90) and a job that is
still being created is invisible to queries (table_or_source.rs:169-176, 218-222); a table is
read from ``rel_<id>``, a catalog relation from its ``<schema>__<name>`` view (once per
statement, as a MATERIALIZED CTE), a materialized view, view or index as its translated
defining query.  FROM items (tables, subqueries, VALUES, unnest/generate_series, TUMBLE/HOP),
select lists (``*`` expansion, set-returning functions), GROUP BY / ORDER BY (RisingWave's
name precedence), DISTINCT ON and the grouping checks are here; expressions are bound by
``expressions.ExprBinder``.
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
    NotImplementedError_,
    RwError,
)
from rwshim.query import types
from rwshim.query.context import SYSTEM_SCHEMAS, QueryContext
from rwshim.query.expressions import (
    ExprBinder,
    func_args,
    has_agg,
    is_agg,
    is_srf,
)
from rwshim.query.names import (
    UNNAMED_COLUMN,
    derive_alias,
    func_name,
)
from rwshim.query.parsing import (
    definition_query,
    expr_text,
    parse,
    to_sqlite,
)
from rwshim.query.relations import Relation, RelationSource, RelKind
from rwshim.query.scope import (
    UNKNOWN,
    OutColumn,
    Scope,
    Source,
    SystemRelation,
    call,
    ident,
    literal_default,
    rename,
    rename_outputs,
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
        self.materialize = {}
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
        """Find a relation as RisingWave's bind_catalog_relation_by_name does
        (table_or_source.rs:92-260): a named database must exist (and is read across), a
        system schema holds system catalogs, and a table catalog (table, materialized view,
        index) is visible only once created; sinks are not relations a query reads."""
        db_id = self.ctx.database_id
        if db is not None and db != self.ctx.database:
            found = self.relations.database_id(db)
            if found is None:
                raise CatalogNotFound("database", db)
            db_id = found
        if schema is not None:
            if schema in SYSTEM_SCHEMAS:
                sysrel = self.system(schema, name)
                if sysrel is not None:
                    return sysrel
                raise NotImplementedError_(
                    f"{schema}.{name} is not supported, please use `SHOW` commands for now.\n"
                    "`SHOW TABLES`,\n`SHOW MATERIALIZED VIEWS`,\n`DESCRIBE <table>`,\n"
                    "`SHOW COLUMNS FROM [table]`\n",
                    "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/1695",
                )
            rel = self.relations.relation(db_id, schema, name)
            if rel is not None and readable(rel):
                return rel
            raise CatalogNotFound("table or source", name)
        for path in self.ctx.resolved_path():
            if path in SYSTEM_SCHEMAS:
                sysrel = self.system(path, name)
                if sysrel is not None:
                    return sysrel
                continue
            if not self.relations.schema_exists(db_id, path):
                continue
            rel = self.relations.relation(db_id, path, name)
            if rel is not None and readable(rel):
                return rel
        raise CatalogNotFound("table or source", name)

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
            rename_outputs(inner, [c.name for c in rel.visible_columns])
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
            tx = ExprBinder(self, scope)
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
                tx = ExprBinder(self, scope)
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
                rename_outputs(item.this, [c.name for c in cols])
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
        tx = ExprBinder(self, scope.parent or Scope(None))
        if name == "generate_series":
            args = [fn.args.get("start"), fn.args.get("end"), fn.args.get("step")]
            if isinstance(fn, exp.Anonymous):
                args = list(fn.expressions)
            bound = [tx.bind_top(a) for a in args if a is not None]
            oid = bound[0][1] if bound[0][1] != UNKNOWN else pgtypes.INT4
            json_arr = call("rw_series", *[b[0] for b in bound])
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
            rename_outputs(sub, [c.name for c in cols])
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
        ordinality = offset is not None
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
        tx = ExprBinder(self, scope)
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
            exp.Table(this=call("json_each", new), alias=exp.TableAlias(this=ident(alias)))
        )
        return Source(alias, cols, refs=refs)

    def _select(self, node: exp.Select, outer: Scope | None) -> list[OutColumn]:
        scope = Scope(outer)
        self._with(node, scope)
        self._from_items(node, scope)
        tx = ExprBinder(self, scope)
        where = node.args.get("where")
        # RisingWave binds the select list before WHERE (binder/select.rs bind_select)
        items: list[exp.Expr] = []
        cols: list[OutColumn] = []
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
            if is_srf(expr):
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

    def _srf(
        self, node: exp.Select, fn: exp.Expr, scope: Scope, tx: ExprBinder
    ) -> tuple[exp.Expr, int]:
        """A set-returning function in the select list (unnest, generate_series,
        generate_subscripts) as a ``json_each`` joined to the FROM items: one output row per
        element, as PostgreSQL's ProjectSet gives for a single SRF."""
        name = func_name(fn)
        args = func_args(fn)
        bound = [tx.bind_top(a) for a in args]
        alias = f"__srf{len(node.args.get('joins') or [])}_{len(scope.sources)}"
        if name == "generate_series":
            source: exp.Expr = call("rw_series", *[b[0] for b in bound])
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
        table = exp.Table(this=call("json_each", source), alias=exp.TableAlias(this=ident(alias)))
        if node.args.get("from_") is None:
            node.set("from_", exp.From(this=table))
        else:
            node.append("joins", exp.Join(this=table))
        scope.sources.append(Source(alias, []))
        return col, oid

    def _distinct_on(self, node: exp.Select, scope: Scope, tx: ExprBinder) -> None:
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

    def _group_ref(self, e: exp.Expr, scope: Scope, tx: ExprBinder) -> exp.Expr:
        """GROUP BY item as RisingWave binds it (select.rs:448-490): an ordinal, else the
        expression over the input, and only if that fails a bare name of an output column."""
        if isinstance(e, exp.Literal) and not e.is_string:
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

    def _order_ref(self, e: exp.Expr, scope: Scope, tx: ExprBinder) -> exp.Expr:
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
        tx = ExprBinder(self, scope)
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


def _no_aggregate(node: exp.Expr, clause: str) -> None:
    """binder/expr/function/aggregate.rs:28-46 (clause names in TITLE CASE, bind_context.rs:64)."""
    if has_agg(node):
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
    if group is None and not any(has_agg(r) for r in roots):
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
            or is_agg(e)
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


def readable(rel: Relation) -> bool:
    if rel.kind in (RelKind.SINK, RelKind.INTERNAL):
        return False
    if rel.kind in (RelKind.SOURCE, RelKind.VIEW):
        return True
    return rel.created
