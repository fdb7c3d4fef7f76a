"""Binding one statement: a query, an INSERT / UPDATE / DELETE, or the query of a CREATE ... AS.

``prepare`` parses a statement and binds it into a ``Prepared`` with the binder and the
lowering it is given: a query through ``Binder.bind_select``; DML as RisingWave's binder does
(binder/insert.rs, update.rs, delete.rs: the target found by ``resolve.resolve_dml_target``,
INSERT's column list and arity errors, UPDATE refusing a primary-key column, RETURNING over the
changed table), with the statement text assembled from lowered pieces.  ``analyze`` binds the
query of CREATE MATERIALIZED VIEW / VIEW / SINK AS / TABLE AS for its output columns and
upstream relations, and ``check_mv_aliases`` applies CREATE MATERIALIZED VIEW's alias rule
(handler/create_mv.rs:80-98).  Loaded on first use (it brings sqlglot); nothing here depends
on the engine.
"""

from __future__ import annotations

from sqlglot import exp

from rwshim.binder import types
from rwshim.binder.bind_expr import ExprBinder
from rwshim.binder.binder import Binder
from rwshim.binder.context import QueryContext
from rwshim.binder.parse import expr_text, ident, param_number, parse
from rwshim.binder.prepared import Prepared
from rwshim.binder.relations import Relation, RelationSource
from rwshim.binder.resolve import OutColumn, Scope, derive_alias, rename, resolve_dml_target
from rwshim.common import pgtypes
from rwshim.errors import BindError, BindExprError, ItemNotFound, NotImplementedError_


def prepare(sql_text: str, b: Binder, ctx: QueryContext, relations: RelationSource) -> Prepared:
    """Bind statement ``sql_text`` with binder ``b`` (its text, columns and parameter types;
    the caller adds decoders and client columns)."""
    tree = b.low.normalize(parse(sql_text))
    if isinstance(tree, exp.Insert):
        return _insert(tree, b, ctx, relations)
    if isinstance(tree, exp.Update):
        return _update(tree, b, ctx, relations)
    if isinstance(tree, exp.Delete):
        return _delete(tree, b, ctx, relations)
    if isinstance(
        tree, (exp.Select, exp.Union, exp.Except, exp.Intersect, exp.Values, exp.Subquery)
    ):
        bound = b.bind_select(tree)
        prep = Prepared("select", bound.sql, bound.columns, bound.param_oids)
        prep.upstreams = list(bound.upstreams)
        return prep
    raise NotImplementedError_(f"statement {type(tree).__name__} on the read path")


def analyze(query_text: str, b: Binder) -> tuple[list[OutColumn], list[int]]:
    """The output columns and the upstream relation ids of the query of a CREATE ... AS."""
    cols = b.query(parse(query_text), None)
    return cols, b.upstreams


def check_mv_aliases(query_text: str) -> None:
    """CREATE MATERIALIZED VIEW without a column list: every select item needs a derivable
    name or an alias (create_mv.rs:80-98)."""
    tree = parse(query_text)
    first = tree
    while isinstance(first, (exp.Union, exp.Except, exp.Intersect, exp.Subquery)):
        first = first.this
    if isinstance(first, exp.Select):
        for i, item in enumerate(first.expressions):
            if isinstance(item, (exp.Alias, exp.Star)) or (
                isinstance(item, exp.Column) and isinstance(item.this, exp.Star)
            ):
                continue
            if derive_alias(item) is None:
                raise BindError(
                    f"An alias must be specified for the {_ordinal(i + 1)} expression "
                    "(counting from 1) in result relation"
                )


def bind_default(b: Binder, expr_text: str) -> tuple[str, int]:
    """A column's DEFAULT expression as ``SELECT <expr>``: the engine's text and its type."""
    bound = b.bind_select(parse(f"SELECT {expr_text}"))
    return bound.sql, bound.columns[0].type_oid


def rename_columns(cols: list[OutColumn], names: list[str]) -> list[OutColumn]:
    """``cols`` under the names of a CREATE's column list."""
    return rename(cols, names)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _returning(tree: exp.Expr, rel: Relation, b: Binder) -> tuple[str, list[OutColumn]]:
    """RETURNING items bound over the changed table, unqualified (``bind_returning_list``,
    binder/select.rs:540)."""
    ret = tree.args.get("returning")
    if ret is None:
        return "", []
    sel = exp.Select(expressions=list(ret.expressions))
    sel.set("from_", exp.From(this=exp.Table(this=ident(rel.name), db=ident(rel.schema))))
    cols = b.query(sel, None)
    # RETURNING may only name the modified table's columns, without qualifier
    for c in sel.find_all(exp.Column):
        c.set("table", None)
    items = ", ".join(b.low.render(e) for e in sel.expressions)
    return items, cols


def _insert(tree: exp.Insert, b: Binder, ctx: QueryContext, relations: RelationSource) -> Prepared:
    """binder/insert.rs: the target columns (each once, each existing), the source bound with
    parameters typed by their columns, the arity rules."""
    target = tree.this
    user_cols: list[str] = []
    if isinstance(target, exp.Schema):
        user_cols = [c.name for c in target.expressions]
        target = target.this
    assert isinstance(target, exp.Table)
    rel = resolve_dml_target(ctx, relations, target.db or None, target.name, True, action="INSERT")
    visible = [c for c in rel.columns if not c.hidden]
    by_name = {c.name: c for c in visible}
    seen: set[str] = set()
    for n in user_cols:
        if n in seen:
            raise BindError("Column specified more than once")
        seen.add(n)
        if n not in by_name:
            raise BindError(f"Column {n} not found in table {target.name}")
    cols = user_cols or [c.name for c in visible]
    source = tree.expression
    # INSERT INTO t (cols) (SELECT ...): the parentheses are not part of the query
    while isinstance(source, exp.Subquery) and not source.args.get("alias"):
        source = source.this
    if isinstance(source, exp.Values):
        for row in source.expressions:
            for item, cname in zip(row.expressions, cols, strict=False):
                pn = param_number(item)
                if pn is not None and pn not in b.params:
                    b.params[pn] = types.external(by_name[cname].type_oid)
    src_cols = b.query(source, None)
    if len(src_cols) > len(cols):
        raise BindError("INSERT has more expressions than target columns")
    if len(src_cols) < len(cols) and user_cols:
        raise BindError("INSERT has more target columns than expressions")
    cols = cols[: len(src_cols)]
    ret_sql, ret_cols = _returning(tree, rel, b)
    sql = b.low.render(source)
    return Prepared(
        "insert",
        sql,
        ret_cols,
        b.param_list(),
        target=rel,
        insert_columns=cols,
        source_oids=[c.type_oid for c in src_cols],
        returning_sql=ret_sql,
    )


def _update(tree: exp.Update, b: Binder, ctx: QueryContext, relations: RelationSource) -> Prepared:
    """binder/update.rs: SET only existing, non-key columns, each value converted to its
    column's type; FROM, WHERE and RETURNING bound over the table and the FROM items."""
    table = tree.this
    assert isinstance(table, exp.Table)
    rel = resolve_dml_target(ctx, relations, table.db or None, table.name, False, action="UPDATE")
    alias = table.alias or rel.name
    by_name = {c.name: c for c in rel.visible_columns}
    sel = exp.Select(expressions=[exp.Literal.number(1)])
    from_items: list[exp.Expr] = [
        exp.Table(
            this=ident(rel.name),
            db=ident(rel.schema),
            alias=exp.TableAlias(this=ident(alias)),
        )
    ]
    frm = tree.args.get("from_")
    if frm is not None:
        from_items.append(frm.this)
    sel.set("from_", exp.From(this=from_items[0]))
    if len(from_items) > 1:
        sel.set("joins", [exp.Join(this=x) for x in from_items[1:]])
    scope = Scope(None)
    b.from_items(sel, scope)
    tx = ExprBinder(b, scope)
    sets = []
    for assign in tree.expressions:
        col = assign.this
        cname = col.name
        if cname not in by_name:
            raise BindExprError(expr_text(col), ItemNotFound(f"Invalid column: {cname}"))
        if cname in rel.primary_key:
            raise BindError("update modifying the PK column is unsupported")
        target_oid = by_name[cname].type_oid
        tx.hint_param(assign.expression, types.external(target_oid))
        new, oid = tx.bind_top(assign.expression)
        if (oid != target_oid and oid != pgtypes.UNKNOWN) or (
            oid == pgtypes.UNKNOWN and not isinstance(new, exp.Null)
        ):
            new = b.low.convert(new, oid, target_oid)
        sets.append(f'"{cname}" = {b.low.render(new)}')
    where = tree.args.get("where")
    where_sql = ""
    if where is not None:
        new, _ = tx.bind_top(where.this)
        where_sql = " WHERE " + b.low.render(new)
    from_sql = ""
    joins = sel.args.get("joins") or []
    if joins:
        from_sql = " FROM " + ", ".join(b.low.render(j.this) for j in joins)
    ret_sql, ret_cols = _returning(tree, rel, b)
    storage = b.low.storage(rel)
    sql = f'UPDATE "{storage}" AS "{alias}" SET {", ".join(sets)}{from_sql}{where_sql}'
    if ret_sql:
        sql += " RETURNING " + ret_sql
    return Prepared("update", sql, ret_cols, b.param_list(), target=rel, returning_sql=ret_sql)


def _delete(tree: exp.Delete, b: Binder, ctx: QueryContext, relations: RelationSource) -> Prepared:
    """binder/delete.rs: WHERE and RETURNING bound over the table."""
    table = tree.this
    assert isinstance(table, exp.Table)
    rel = resolve_dml_target(ctx, relations, table.db or None, table.name, False, action="DELETE")
    alias = table.alias or rel.name
    sel = exp.Select(expressions=[exp.Literal.number(1)])
    sel.set(
        "from_",
        exp.From(
            this=exp.Table(
                this=ident(rel.name),
                db=ident(rel.schema),
                alias=exp.TableAlias(this=ident(alias)),
            )
        ),
    )
    scope = Scope(None)
    b.from_items(sel, scope)
    tx = ExprBinder(b, scope)
    where = tree.args.get("where")
    where_sql = ""
    if where is not None:
        new, _ = tx.bind_top(where.this)
        where_sql = " WHERE " + b.low.render(new)
    ret_sql, ret_cols = _returning(tree, rel, b)
    storage = b.low.storage(rel)
    sql = f'DELETE FROM "{storage}" AS "{alias}"{where_sql}'
    if ret_sql:
        sql += " RETURNING " + ret_sql
    return Prepared("delete", sql, ret_cols, b.param_list(), target=rel, returning_sql=ret_sql)
