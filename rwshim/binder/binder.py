"""The binder: a query (SELECT / VALUES / WITH / set operation) bound to rwshim's relations.

Mirrors RisingWave's query binder: binder/query.rs (WITH, ORDER BY by output name or ordinal,
LIMIT/OFFSET), binder/set_expr.rs (UNION/EXCEPT/INTERSECT and their arity error),
binder/select.rs (the select list bound before WHERE, ``*`` expansion, GROUP BY by ordinal, then
expression, then output name, output names by ``derive_alias``), binder/values.rs, and
binder/relation/ (mod.rs FROM items and joins with USING/NATURAL, table_or_source.rs relations,
subquery.rs, table_function.rs for ``generate_series``/``unnest``,
window_table_function.rs for TUMBLE and HOP), plus the planner's grouping check
(optimizer/plan_node/logical_agg.rs:1040-1060).  Names resolve in resolve.py, expressions bind
in bind_expr.py; a materialized view, view or index reads as its defining query, bound in turn
(its own upstreams are not the statement's).  Errors are RisingWave's texts.

The tree is rewritten in place; everything whose form depends on the engine (the table holding
a relation's rows, catalog views, set-returning functions, DISTINCT ON, NULL order, the final
text) is asked of the ``Lowering`` the binder is given (lowering.py; today
``sqlite.lowering.SqliteLowering``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from msgspec.structs import replace
from sqlglot import exp

from rwshim.binder import set_ops, star_except, types, variant_keys
from rwshim.binder.bind_expr import ExprBinder
from rwshim.binder.binder_checks import (
    check_grouping,
    field_path,
    is_now,
    lateral_subquery,
    nested_join,
    no_aggregate,
    srf_core,
    srf_type,
    window_query,
)
from rwshim.binder.context import QueryContext
from rwshim.binder.lowering import Lowering
from rwshim.binder.parse import definition_query, ident, parse
from rwshim.binder.relations import Relation, RelationSource, RelKind, as_of
from rwshim.binder.resolve import (
    UNNAMED_COLUMN,
    OutColumn,
    Scope,
    Source,
    SystemRelation,
    derive_alias,
    from_item_scope,
    hidden_columns,
    rename,
    rename_outputs,
    resolve_relation,
    shown_names,
)
from rwshim.binder.type_inference import (
    TABLE_FUNCTIONS,
    UNKNOWN,
    func_args,
    func_name,
    literal_default,
)
from rwshim.common import pgtypes
from rwshim.errors import (
    BindError,
    InvalidInputSyntax,
    ItemNotFound,
    NotImplementedError_,
    RwError,
)
from rwshim.sql import column_names


@dataclass(slots=True)
class Bound:
    """A bound query: the engine's text, output columns, parameter types, upstreams."""

    sql: str
    columns: list[OutColumn]
    param_oids: list[int]
    upstreams: list[int]  # ids of user relations read (for MV dependencies)
    # the user-facing names of expressions without alias (None = had no derivable name)
    aliases: list[str | None] = field(default_factory=list)


class Binder:
    """Binds one statement for one context, lowering it with ``lowering``."""

    streaming, variant_type = False, True  # CREATE ... AS; the release's (variant_keys)

    def __init__(
        self,
        ctx: QueryContext,
        relations: RelationSource,
        system: Callable[[str, str], SystemRelation | None],
        lowering: Lowering,
        param_oids: list[int] | None = None,
    ) -> None:
        self.ctx = ctx
        # the form each construct takes on the engine that runs the statement
        self.low = lowering
        self.relations = relations
        self.system = system
        self.params: dict[int, int] = {}
        for i, oid in enumerate(param_oids or [], start=1):
            if oid:
                self.params[i] = oid
        self.max_param = len(param_oids or [])
        self.upstreams: list[int] = []
        # Whether the streaming plan of the query has a Values leaf (VALUES, a SELECT without
        # FROM, an uncorrelated table function in FROM): such a plan is not recoverable, so
        # its job is never background and recovery drops it while it is creating
        # (plan_can_use_background_ddl, src/frontend/src/optimizer/plan_node/utils.rs:471-499;
        # TableFunctionToProjectSetRule puts table functions over Values,
        # optimizer/rule/table_function_to_project_set_rule.rs).
        self.values_leaf = False
        self._expanding: list[int] = []
        # the columns read of each user relation, by relation id (a view's query counts as
        # the querying one's, since RisingWave plans a view inline)
        self.column_reads: dict[int, set[str]] = {}

    # --- statements ---------------------------------------------------------------------

    def bind_select(self, tree: exp.Expr) -> Bound:
        """Bind a query (SELECT / VALUES / WITH / set operation) and generate its text."""
        self.low.begin(tree)
        cols = self.query(tree, None)
        sql = self.low.finish(tree)
        return Bound(sql, cols, self.param_list(), self.upstreams)

    def param_list(self) -> list[int]:
        n = max([self.max_param, *self.params.keys()]) if self.params or self.max_param else 0
        return [self.params.get(i, pgtypes.VARCHAR) for i in range(1, n + 1)]

    # --- relations ----------------------------------------------------------------------

    def resolve_relation(
        self, db: str | None, schema: str | None, name: str, *, check: bool = True
    ) -> Relation | SystemRelation:
        """A relation named in FROM, found (and, with ``check``, privilege-checked for
        reading) by ``resolve.resolve_relation``."""
        return resolve_relation(
            self.ctx, self.relations, self.system, db, schema, name, check=check
        )

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
            in_from = isinstance(node.parent, (exp.From, exp.Join)) or bool(
                node.meta.get("rw_join_item")
            )
            node.replace(self.low.system_relation(rel, alias, in_from))
            return Source(alias, rename(list(rel.columns), alias_cols), rel.schema)
        return self._user_source(node, rel, alias, alias_cols)

    def _inlined(self, definition: str) -> str:
        """A view's definition with its SQL functions inlined (binder/udf.py), as the
        statement that reads it was."""
        conn = getattr(self.relations, "conn", None)
        if conn is None:
            return definition
        from rwshim.binder import udf_store

        names = udf_store.function_names(conn, self.ctx.database_id)
        if not names:
            return definition
        return udf_store.inline(conn, replace(self.ctx, acl=None), definition, names)

    def _user_source(
        self, node: exp.Expr, rel: Relation, alias: str, alias_cols: list[str]
    ) -> Source:
        if rel.id not in self.upstreams:
            self.upstreams.append(rel.id)
        visible = [
            OutColumn(c.name, types.column_oid(c.type_oid, c.rw_type)) for c in rel.visible_columns
        ]
        system = hidden_columns(rel)  # (a name binds them, a star skips them)
        hidden = frozenset(c.name for c in system)
        visible.extend(system)
        cols = rename(visible, alias_cols)
        if rel.kind in (RelKind.MATERIALIZED_VIEW, RelKind.VIEW, RelKind.INDEX) and rel.definition:
            if rel.id in self._expanding:
                raise RwError(f'infinite recursion detected in rules for relation "{rel.name}"')
            self._expanding.append(rel.id)
            try:
                inner = definition_query(self._inlined(rel.definition))
                # the definition reads as its owner made it: no privilege checks inside
                # (security invoker is disabled for views, table_or_source.rs:477-480; a
                # materialized view is its own state)
                sub = Binder(
                    replace(self.ctx, acl=None), as_of(self.relations, rel), self.system, self.low
                )
                sub._expanding = self._expanding
                if rel.kind == RelKind.VIEW:
                    sub.column_reads = self.column_reads
                # upstreams are the relations named directly (RisingWave's dependencies)
                try:
                    sub.query(inner, None)
                except RwError as e:
                    if rel.kind != RelKind.VIEW:
                        raise
                    # resolve_view_relation (binder/relation/table_or_source.rs:610-624): a
                    # view's query binds by name at each query
                    raise BindError(
                        f"failed to bind view {rel.name}, sql: {rel.definition}\n"
                        f"error: {e.compact()}"
                    ) from None
            finally:
                self._expanding.pop()
            if rel.kind == RelKind.VIEW and sub.values_leaf:
                # A view is planned inline; an MV or index is a scan of its table.
                self.values_leaf = True
            rename_outputs(inner, [c.name for c in rel.visible_columns])
            new: exp.Expr = exp.Subquery(this=inner, alias=exp.TableAlias(this=ident(alias)))
        else:
            new = self.low.user_relation(rel, alias)
        if alias_cols:
            new = self.low.relation_columns(
                new, alias, [c.name for c in visible], [c.name for c in cols]
            )
        node.replace(new)
        real = {c.name: v.name for c, v in zip(cols, visible, strict=False)}
        return Source(alias, cols, rel.schema, relation_id=rel.id, real_names=real, hidden=hidden)

    def note_read(self, src: Source, name: str) -> None:
        """``src``'s column ``name`` is read (a reference or a ``*``)."""
        if src.relation_id is not None and src.real_names is not None:
            real = src.real_names.get(name, name)
            self.column_reads.setdefault(src.relation_id, set()).add(real)

    # --- queries ------------------------------------------------------------------------

    def query(self, node: exp.Expr, outer: Scope | None) -> list[OutColumn]:
        """Bind a query node in place; returns its output columns."""
        if isinstance(node, exp.Subquery):
            return self.query(node.this, outer)
        if isinstance(node, (exp.Union, exp.Except, exp.Intersect)):
            scope = Scope(outer)
            self._with(node, scope)
            set_ops.corresponding(self, node, scope)
            left = self.query(node.this, scope)
            right = self.query(node.expression, scope)
            if len(left) != len(right):
                # set_expr.rs:167-172
                op = {exp.Union: "UNION", exp.Except: "EXCEPT", exp.Intersect: "INTERSECT"}[
                    type(node)
                ]
                raise InvalidInputSyntax(f"each {op} query must have the same number of columns")
            if node.args.get("distinct") is False and not isinstance(node, exp.Union):
                # set_expr.rs:351-358
                op = "INTERSECT" if isinstance(node, exp.Intersect) else "EXCEPT"
                raise NotImplementedError_(f"{op} all")
            cols = [
                OutColumn(a.name, a.type_oid if a.type_oid != UNKNOWN else b.type_oid)
                for a, b in zip(left, right, strict=True)
            ]
            variant_keys.set_op_keys(node, cols, self.streaming)
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
        self.values_leaf = True
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

    def from_items(self, node: exp.Select, scope: Scope) -> None:
        frm = node.args.get("from_")
        if frm is not None:
            self._join_tree(frm.this, node.args.get("joins") or [], scope)

    def _join_tree(self, first: exp.Expr, joins: list[exp.Expr], scope: Scope) -> None:
        """One FROM item and its joins (relation/join.rs ``bind_table_with_joins``): the
        relations of a nested join ``(a JOIN b ON ...)`` join the same scope, as RisingWave
        binds ``TableFactor::NestedJoin`` (relation/mod.rs:666) into the enclosing context."""
        start = len(scope.sources)
        self._table_factor(first, scope)
        for j in joins:
            left = scope.sources[start:]
            right_start = len(scope.sources)
            self._table_factor(j.this, scope)
            right = scope.sources[right_start:]
            right_names = {c.name for src in right for c in src.columns}
            if j.args.get("using"):
                names = [u.name for u in j.args["using"]]
            elif str(j.args.get("method") or "").upper() == "NATURAL":
                left_names = set(shown_names(left))  # (hidden ones are never common)
                names = [n for n in shown_names(right) if n in left_names]
            else:
                names = []
            for n in names:
                src = next((x for x in left if any(c.name == n for c in x.columns)), None)
                if src is None or n not in right_names:
                    raise ItemNotFound(
                        f'column "{n}" specified in USING clause does not exist in '
                        f"{'left' if src is None else 'right'} table"
                    )
                scope.using.setdefault(n, src.alias)
            # RisingWave binds a join's condition right after its right side, seeing only
            # the relations bound so far (relation/join.rs bind_table_with_joins)
            on = j.args.get("on")
            if on is not None:
                no_aggregate(on, "Join On", self.low)
                tx = ExprBinder(self, scope)
                new, _ = tx.bind_top(on)
                j.set("on", new)
                variant_keys.join_keys(new, scope.sources, start, right_start)

    def _table_factor(self, item: exp.Expr, scope: Scope) -> None:
        nested = nested_join(item)
        if nested is None:
            scope.sources.append(self._from_item(item, scope))
            return
        # ``(a JOIN b ON ...)``: sqlglot hangs the inner joins on the first relation; they
        # are taken off while it is bound (binding replaces its node) and put back on its
        # replacement, so the engine's text keeps the parenthesised join.
        holder, first = nested
        joins = list(first.args.get("joins") or [])
        first.set("joins", None)
        first.meta["rw_join_item"] = True  # a FROM relation, though its parent is no Join
        self._join_tree(first, joins, scope)
        holder.this.set("joins", joins)

    def _from_item(self, item: exp.Expr, scope: Scope) -> Source:
        if isinstance(item, exp.Table):
            inner = item.this
            if isinstance(inner, exp.Func):
                return self._table_function(item, inner, scope)
            return self._table_source(item, scope)
        if isinstance(item, exp.Unnest):
            return self._unnest(item, scope)
        if isinstance(item, exp.Subquery):
            if isinstance(item.this, exp.Table):
                # ``(a JOIN b) AS j``: RisingWave's parser takes no alias after a nested join
                # (parser.rs:5572-5577) and PostgreSQL's form is not bound here
                raise NotImplementedError_("an alias on a parenthesised join")
            alias = item.alias or f"__rw_subquery{len(scope.sources)}"
            if not item.alias:
                item.set("alias", exp.TableAlias(this=ident(alias)))
            lateral_scope = scope if item.args.get("lateral") else from_item_scope(scope)
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
            item.replace(self.low.values_relation(item, alias, [c.name for c in cols]))
            return Source(alias, cols)
        if isinstance(item, exp.Lateral):
            sub = lateral_subquery(item)
            if sub is None:
                raise NotImplementedError_("LATERAL")
            return self._from_item(sub, scope)
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
        if name in ("generate_series", "range"):
            args = [fn.args.get("start"), fn.args.get("end"), fn.args.get("step")]
            if isinstance(fn, exp.Anonymous):
                args = list(fn.expressions)
            self._note_table_function(name, [a for a in args if a is not None])
            bound = [tx.bind_top(a) for a in args if a is not None]
            oid = bound[0][1] if bound[0][1] != UNKNOWN else pgtypes.INT4
            cname = col_names[0] if col_names else alias
            item.replace(
                self.low.series_relation(
                    [b[0] for b in bound], cname, alias, exclusive=name == "range"
                )
            )
            return Source(alias, [OutColumn(cname, oid)])
        if name == "unnest":
            fargs: list[exp.Expr] = [
                a for a in (fn.expressions or [fn.this]) if isinstance(a, exp.Expr)
            ]
            self._note_table_function(name, fargs)
            return self._unnest_args(item, fargs, alias, col_names, False, None, scope)
        if name in ("tumble", "hop", "gap_fill"):
            if isinstance(fn, exp.GapFill):  # sqlglot's own node: the relation is ``this``
                fn = exp.Anonymous(this="gap_fill", expressions=[fn.this])
            first = fn.expressions[0] if fn.expressions else None
            if (alias_node is None or not alias_node.name) and isinstance(first, exp.Expr):
                # the input relation's name names the window's columns
                # (binder/relation/window_table_function.rs:118-120 bind_table_to_context)
                alias = first.name or name
            return self._time_window(item, fn, name, alias, col_names, scope)
        if name not in TABLE_FUNCTIONS and name != "_pg_expandarray":
            # a scalar function in FROM is one row of its value, its column named by the
            # alias or the function (binder/relation/table_function.rs:95-158; planned as
            # Values, planner/relation.rs:426-437)
            value, oid = tx.bind_top(fn)
            cname = col_names[0] if col_names else alias
            self.values_leaf = True
            row = exp.Values(expressions=[exp.Tuple(expressions=[value])])
            item.replace(self.low.values_relation(row, alias, [cname]))
            return Source(alias, [OutColumn(cname, literal_default(oid))])
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
        want = 1 if name == "gap_fill" else 3
        if len(args) < want or not isinstance(args[0], (exp.Column, exp.Dot, exp.Table)):
            raise NotImplementedError_(f"{name} with these arguments")
        rel_sql = args[0].sql(dialect="postgres")
        if name == "gap_fill":
            # GAP_FILL(t, ts, interval, ...): t's rows and the filled ones, t's columns
            # (binder/relation/gap_fill.rs; the data plane fills: dataplane/plan/gapfill)
            sub = parse(f"SELECT __rw_w.* FROM {rel_sql} AS __rw_w")
            cols = rename(self.query(sub, from_item_scope(scope)), col_names)
            if col_names:
                rename_outputs(sub, [c.name for c in cols])
            item.replace(exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias))))
            return Source(alias, cols)
        text = window_query(name, args, rel_sql)
        sub = parse(text)
        cols = self.query(sub, from_item_scope(scope))
        cols = rename(cols, col_names)
        if col_names:
            rename_outputs(sub, [c.name for c in cols])
        item.replace(exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias))))
        return Source(alias, cols)

    def _note_table_function(self, name: str, args: list[exp.Expr]) -> None:
        """A table function in FROM is a ProjectSet over Values unless it reads the rows
        before it (a correlated call goes over that input instead) or is
        ``generate_series(start, now(), step)``, which becomes a Now node
        (GenerateSeriesWithNowRule, optimizer/rule/stream/generate_series_with_now_rule.rs)."""
        if any(a.find(exp.Column) is not None for a in args):
            return
        if name == "generate_series" and len(args) == 3 and is_now(args[1]):
            return
        self.values_leaf = True

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
        self._note_table_function("unnest", list(item.expressions))
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
        table, value, position = self.low.unnest_relation(new, alias)
        refs: dict[str, Callable[[], exp.Expr]] = {cname: value}
        if ordinality:
            oname = col_names[1] if len(col_names) > 1 else (ord_name or "ordinality")
            cols.append(OutColumn(oname, pgtypes.INT8))
            refs[oname] = position
        item.replace(table)
        return Source(alias, cols, refs=refs)

    def _select(self, node: exp.Select, outer: Scope | None) -> list[OutColumn]:
        if node.args.get("from_") is None and not node.args.get("joins"):
            self.values_leaf = True  # a SELECT without FROM is planned over one-row Values
        scope = Scope(outer)
        self._with(node, scope)
        self.from_items(node, scope)
        tx = ExprBinder(self, scope)
        where = node.args.get("where")
        # RisingWave binds the select list before WHERE (binder/select.rs bind_select)
        items: list[exp.Expr] = []
        cols: list[OutColumn] = []
        srfs = [
            core
            for core in (
                srf_core(it.this if isinstance(it, exp.Alias) else it) for it in node.expressions
            )
            if core is not None
        ]
        zipped = self._srf_zip(node, srfs, scope, tx) if len(srfs) > 1 else {}
        for item in node.expressions:
            if isinstance(item, exp.Star) or (
                isinstance(item, exp.Column) and isinstance(item.this, exp.Star)
            ):
                qual = item.table if isinstance(item, exp.Column) else None
                expanded = star_except.apply(item, scope, self._expand_star(scope, qual or None))
                for src, c in expanded:
                    self.note_read(src, c.name)
                    items.append(
                        exp.Alias(
                            this=src.ref(c.name),
                            alias=ident(c.name),
                        )
                    )
                    cols.append(c)
                continue
            if (
                isinstance(item, exp.Dot)
                and isinstance(item.expression, exp.Star)
                and isinstance(item.this, exp.Paren)
            ):
                # ``(expr).*``: one column per field, named after it (binder/struct_field.rs
                # bind_wildcard_field)
                value, oid = tx.bind_top(item.this.this)
                fields = types.struct_fields(oid)
                if fields is None:
                    raise BindError(f'type "{types.format_type_name(oid)}" is not composite')
                for fname, _ in fields:
                    new, foid = tx.struct_field(value.copy(), oid, fname)
                    items.append(exp.Alias(this=new, alias=ident(fname)))
                    cols.append(OutColumn(fname, literal_default(foid)))
                continue
            if isinstance(item, exp.Alias):
                name: str | None = item.alias
                column_names.check_not_reserved(item.alias)  # binder/select.rs:355
                expr = item.this
            else:
                name = derive_alias(item)
                expr = item
            core = srf_core(expr)
            if core is not None and id(core) in zipped:
                new, oid = zipped[id(core)]
            elif core is not None:
                new, oid = self._srf(node, core, scope, tx)
            else:
                new, oid = tx.bind_top(expr)
            if core is not None:
                # ``(f(...)).field`` over a struct-valued SRF
                for field in reversed(field_path(expr)):
                    new, oid = tx.struct_field(new, oid, field)
            out_name = name if name is not None else UNNAMED_COLUMN
            items.append(exp.Alias(this=new, alias=ident(out_name)))
            cols.append(OutColumn(out_name, literal_default(oid)))
        node.set("expressions", items)
        scope.outputs = cols
        variant_keys.distinct_keys(node, items, cols)
        if where is not None:
            no_aggregate(where.this, "Where", self.low)
            new, _ = tx.bind_top(where.this)
            where.set("this", new)
        group = node.args.get("group")
        if group is not None:
            for i, g in enumerate(list(group.expressions)):
                group.expressions[i] = self._group_ref(g, scope, tx)
                group.expressions[i].parent = group
                variant_keys.group_key(group.expressions[i], items, cols, tx)
        having = node.args.get("having")
        if having is not None:
            new, _ = tx.bind_top(having.this)
            having.set("this", new)
        check_grouping(node, scope, self.low)
        distinct = node.args.get("distinct")
        if distinct is not None and distinct.args.get("on") is not None:
            self._distinct_on(node, scope, tx)
            self._order_limit(node, scope, order=False)
            return cols
        self._order_limit(node, scope)
        return cols

    def _srf_zip(
        self, node: exp.Select, fns: list[exp.Expr], scope: Scope, tx: ExprBinder
    ) -> dict[int, tuple[exp.Expr, int]]:
        """Several set-returning functions in one select list run in lockstep, as in
        PostgreSQL 10+: as many rows as the longest, the shorter ones padded with NULL."""
        calls: list[tuple[str, list[exp.Expr]]] = []
        oids: list[int] = []
        for fn in fns:
            name = func_name(fn)
            bound = [tx.bind_top(a) for a in func_args(fn)]
            calls.append((name, [b[0] for b in bound]))
            oids.append(srf_type(name, bound))
        alias = f"__srfzip{len(scope.sources)}"
        elements = self.low.srf_zip(node, calls, alias)
        scope.sources.append(Source(alias, []))
        return {id(fn): (e, oid) for fn, e, oid in zip(fns, elements, oids, strict=True)}

    def _srf(
        self, node: exp.Select, fn: exp.Expr, scope: Scope, tx: ExprBinder
    ) -> tuple[exp.Expr, int]:
        """A set-returning function in the select list (unnest, generate_series,
        generate_subscripts): one output row per element, as PostgreSQL's ProjectSet gives
        for a single SRF."""
        name = func_name(fn)
        bound = [tx.bind_top(a) for a in func_args(fn)]
        alias = f"__srf{len(node.args.get('joins') or [])}_{len(scope.sources)}"
        col = self.low.srf(node, name, [b[0] for b in bound], alias)
        scope.sources.append(Source(alias, []))
        return col, srf_type(name, bound)

    def _distinct_on(self, node: exp.Select, scope: Scope, tx: ExprBinder) -> None:
        """``DISTINCT ON (k) ... ORDER BY o``: the keys and the order items bound (an ordinal
        stands for its output expression), the rewrite left to the lowering."""
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
        self.low.distinct_on(node, keys, ordered, names)

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
                    if (qualifier is not None or c.name not in scope.using)
                    and c.name not in src.hidden
                )
        if not found:
            raise ItemNotFound(f'missing FROM-clause entry for table "{qualifier}"')
        return out

    def _group_ref(self, e: exp.Expr, scope: Scope, tx: ExprBinder) -> exp.Expr:
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

    def _order_ref(self, e: exp.Expr, scope: Scope, tx: ExprBinder) -> exp.Expr:
        """ORDER BY item as RisingWave binds it (binder/query.rs:302-360): an output ordinal,
        a bare name of an output column (before any input column), or an expression.  A bare
        output name becomes the ordinal so the engine cannot resolve it to an input column."""
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
                self.low.order_item(o)
            variant_keys.order_keys(node, scope.outputs, tx, self.streaming)
        for key in ("limit", "offset"):
            lim = node.args.get(key)
            if lim is not None and lim.args.get("expression") is not None:
                if key == "limit":
                    _check_limit_literal(lim.expression)
                tx.hint_param(lim.expression, pgtypes.INT8)
                new, _ = tx.bind_top(lim.expression)
                lim.set("expression", new)


def _check_limit_literal(expr: exp.Expr) -> None:
    """A literal LIMIT folded to bigint as RisingWave's binder folds it (binder/query.rs:
    200-237): out of bigint's range is the cast's error, below zero refused; other
    expressions are left to the engine."""
    neg = isinstance(expr, exp.Neg)
    lit = expr.this if neg else expr
    if not isinstance(lit, exp.Literal) or lit.is_string or not lit.this.isdigit():
        return
    value = -int(lit.this) if neg else int(lit.this)
    if not -(2**63) <= value <= 2**63 - 1:
        raise RwError(
            "Expr error",
            "expects an integer or expression that can be evaluated to an integer after LIMIT,"
            "\nbut the evaluation of the expression returns error:Casting to i64 out of range",
        )
    if value < 0:
        raise RwError("Expr error", f"LIMIT must not be negative, but found: {value}")
