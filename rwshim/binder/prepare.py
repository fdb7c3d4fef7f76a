"""Binding one statement: a query, an INSERT / UPDATE / DELETE, or the query of a CREATE ... AS.

``prepare`` parses a statement and binds it into a ``Prepared`` with the binder and the
lowering it is given: a query through ``Binder.bind_select``; DML as RisingWave's binder does
(binder/insert.rs, update.rs, delete.rs: the target found by ``resolve.resolve_dml_target``,
INSERT's column list and arity errors, UPDATE refusing a primary-key column, RETURNING over the
changed table), for its errors and its parameter and RETURNING types only: DML runs on the
PostgreSQL data plane, which asks for the binder's text when PostgreSQL refuses a statement
(``Frontend._explain``), so a DML ``Prepared`` has no engine text.  ``analyze`` binds the
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
                isinstance(item, (exp.Column, exp.Dot))
                and isinstance(
                    item.this if isinstance(item, exp.Column) else item.expression, exp.Star
                )
            ):
                continue  # (a star, or a struct's ``(s).*``: named after its fields)
            if derive_alias(item) is None:
                raise BindError(
                    f"An alias must be specified for the {_ordinal(i + 1)} expression "
                    "(counting from 1) in result relation"
                )


def rename_columns(cols: list[OutColumn], names: list[str]) -> list[OutColumn]:
    """``cols`` under the names of a CREATE's column list."""
    return rename(cols, names)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _returning(tree: exp.Expr, rel: Relation, b: Binder) -> list[OutColumn] | None:
    """RETURNING items bound over the changed table (``bind_returning_list``,
    binder/select.rs:540): their columns, None without RETURNING."""
    ret = tree.args.get("returning")
    if ret is None:
        return None
    sel = exp.Select(expressions=list(ret.expressions))
    sel.set("from_", exp.From(this=exp.Table(this=ident(rel.name), db=ident(rel.schema))))
    return b.query(sel, None)


def _dml(kind: str, b: Binder, rel: Relation, returning: list[OutColumn] | None) -> Prepared:
    """A bound INSERT / UPDATE / DELETE: no engine text (it never runs in process)."""
    return Prepared(
        kind, "", returning or [], b.param_list(), target=rel, returning=returning is not None
    )


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
    return _dml("insert", b, rel, _returning(tree, rel, b))


def _update(tree: exp.Update, b: Binder, ctx: QueryContext, relations: RelationSource) -> Prepared:
    """binder/update.rs: SET only existing, non-key columns (a parameter typed by its
    column); FROM, WHERE and RETURNING bound over the table and the FROM items."""
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
    for assign in tree.expressions:
        col = assign.this
        cname = col.name
        if cname not in by_name:
            raise BindExprError(expr_text(col), ItemNotFound(f"Invalid column: {cname}"))
        if cname in rel.primary_key:
            raise BindError("update modifying the PK column is unsupported")
        tx.hint_param(assign.expression, types.external(by_name[cname].type_oid))
        tx.bind_top(assign.expression)
    where = tree.args.get("where")
    if where is not None:
        tx.bind_top(where.this)
    return _dml("update", b, rel, _returning(tree, rel, b))


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
    where = tree.args.get("where")
    if where is not None:
        ExprBinder(b, scope).bind_top(where.this)
    return _dml("delete", b, rel, _returning(tree, rel, b))
