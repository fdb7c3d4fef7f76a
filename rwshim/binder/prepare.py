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

from rwshim.binder import casts, types
from rwshim.binder.bind_expr import ExprBinder
from rwshim.binder.binder import Binder
from rwshim.binder.context import QueryContext
from rwshim.binder.parse import expr_text, ident, param_number, parse
from rwshim.binder.prepared import Prepared
from rwshim.binder.relations import Relation, RelationSource
from rwshim.binder.resolve import (
    UNNAMED_COLUMN,
    OutColumn,
    Scope,
    derive_alias,
    rename,
    resolve_dml_target,
)
from rwshim.binder.type_inference import literal_default
from rwshim.errors import BindError, BindExprError, CastError, ItemNotFound, NotImplementedError_


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
    b.streaming = True
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
        if isinstance(col, exp.Tuple):
            _multi_assign(col, assign.expression, rel, b, tx, scope)
            continue
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


def _multi_assign(
    cols: exp.Tuple, value: exp.Expr, rel: Relation, b: Binder, tx: ExprBinder, scope: Scope
) -> None:
    """``SET (a, b) = (SELECT ...)`` / ``= ROW(...)`` (update.rs:200-240): the subquery's row
    is a struct cast to the columns' struct in the assignment context (unnamed, ``record``,
    when a column of it has no name: subquery.rs ``UpdateSet``)."""
    by_name = {c.name: c for c in rel.visible_columns}
    targets = []
    for c in cols.expressions:
        if c.name not in by_name:
            raise BindExprError(expr_text(c), ItemNotFound(f"Invalid column: {c.name}"))
        if c.name in rel.primary_key:
            raise BindError("update modifying the PK column is unsupported")
        targets.append((c.name, types.external(by_name[c.name].type_oid)))
    if isinstance(value, exp.Paren):
        value = exp.Tuple(expressions=[value.this])
    if isinstance(value, exp.Tuple):
        if len(value.expressions) != len(targets):
            raise BindError("number of columns does not match number of values")
        for v, (_, oid) in zip(value.expressions, targets, strict=True):
            tx.hint_param(v, oid)
            tx.bind_top(v)
        return
    if not isinstance(value, exp.Subquery):
        raise BindError(
            "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression"
        )
    out = b.query(value.this, scope)
    if len(out) != len(targets):
        raise BindError("number of columns does not match number of values")
    unnamed = any(o.name == UNNAMED_COLUMN for o in out)
    names = [f"f{i + 1}" if unnamed else o.name for i, o in enumerate(out)]
    for name, o, (target, oid) in zip(names, out, targets, strict=True):
        src = literal_default(types.external(o.type_oid))  # an untyped literal is a varchar
        if not (casts.known(src) and casts.known(oid)):
            continue  # (a struct or list field: left to PostgreSQL)
        if casts.cast_ok(src, oid, casts.ASSIGN):
            continue
        source = (
            "record"
            if unnamed
            else _struct_text(names, [literal_default(types.external(x.type_oid)) for x in out])
        )
        dest = _struct_text([t for t, _ in targets], [t for _, t in targets])
        raise CastError(
            f'cannot cast type "{source}" to "{dest}"',
            f'cannot cast struct field "{name}" to struct field "{target}"',
            f'cannot cast type "{types.format_type_name(src)}" to '
            f'"{types.format_type_name(oid)}" in Assign context',
        )


def _struct_text(names: list[str], oids: list[int]) -> str:
    """A struct type as RisingWave displays it (struct_type.rs Display)."""
    from rwshim.common.names import quote_ident

    inner = ", ".join(
        f"{quote_ident(n)} {types.format_type_name(o)}" for n, o in zip(names, oids, strict=True)
    )
    return f"struct<{inner}>"


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
