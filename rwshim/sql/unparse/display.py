"""RisingWave's ``Display`` of its syntax tree: what it stores as a relation's definition.

Each function prints one node kind as the matching ``impl fmt::Display`` does:
``src/sqlparser/src/ast/mod.rs`` (Ident 209, ObjectName 249, Array 277, Expr 539-855,
WindowSpec 872, WindowFrame 937 — which never prints EXCLUDE —, FunctionArgExpr 3025,
FunctionArgList 3111, Function 3203, SqlOption 3298), ``query.rs`` (Query 94, SetExpr 137,
Select 239, Cte 363, SelectItem 398, TableFactor 487, TableAlias 540, Join 556, OrderByExpr
656, Fetch 679, Values 713, NamedWindow 733), ``data_type.rs`` (DataType 75), ``value.rs``
(Value 58, escape_single_quote_string 172); QuoteIdent, for names made from catalog values, is
rwshim.common.names'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rwshim.common.names import needs_quotes, quoted
from rwshim.sql.unparse import nodes as n


def from_real_value(value: str) -> n.Ident:
    """Ident::from_real_value: quoted when QuoteIdent would quote it (rwshim.common.names)."""
    return n.Ident(value, needs_quotes(value))


def ident(i: n.Ident) -> str:
    return quoted(i.value) if i.quoted else i.value


def object_name(name: n.ObjectName) -> str:
    return ".".join(ident(p) for p in name.parts)


def escape(s: str) -> str:
    return s.replace("'", "''")


def comma(items: Sequence[Any], fn: Callable[[Any], str]) -> str:
    return ", ".join(fn(x) for x in items)


# ---------------------------------------------------------------- data types and values


def data_type(t: n.DataType) -> str:
    if t.kind == "array":
        assert t.elem is not None
        return data_type(t.elem) + "[]"
    if t.kind == "struct":
        if not t.fields:
            return "STRUCT< >"  # a space, so that `<>` is not read as one token
        return "STRUCT<" + ", ".join(f"{ident(f)} {data_type(d)}" for f, d in t.fields) + ">"
    if t.kind == "map":
        assert t.key is not None and t.elem is not None
        return f"MAP({data_type(t.key)},{data_type(t.elem)})"
    return t.name


def value(v: n.Value) -> str:
    k = v.kind
    if k == "string":
        return f"'{escape(v.text)}'"
    if k == "estring":
        return f"E'{v.text}'"
    if k == "nstring":
        return f"N'{v.text}'"
    if k == "xstring":
        return f"X'{v.text}'"
    if k == "dquoted":
        return f'"{v.text}"'
    return v.text  # number, bool (lower-case), NULL, dollar (its source text)


def interval(v: n.Interval) -> str:
    out = f"INTERVAL '{escape(v.value)}'"
    if (
        v.leading_field == "SECOND"
        and v.leading_precision is not None
        and v.fractional_precision is not None
    ):
        return f"{out} SECOND ({v.leading_precision}, {v.fractional_precision})"
    if v.leading_field is not None:
        out += f" {v.leading_field}"
    if v.leading_precision is not None:
        out += f" ({v.leading_precision})"
    if v.last_field is not None:
        out += f" TO {v.last_field}"
    if v.fractional_precision is not None:
        out += f" ({v.fractional_precision})"
    return out


# ---------------------------------------------------------------- expressions


def _not(negated: bool) -> str:
    return "NOT " if negated else ""


def _like(e: n.Like) -> str:
    out = f"{expr(e.expr)} {_not(e.negated)}{e.op} {expr(e.pattern)}"
    return out if e.escape is None else f"{out} ESCAPE '{e.escape}'"


def _case(e: n.Case) -> str:
    out = "CASE"
    if e.operand is not None:
        out += f" {expr(e.operand)}"
    for c, r in zip(e.conditions, e.results, strict=True):
        out += f" WHEN {expr(c)} THEN {expr(r)}"
    if e.else_result is not None:
        out += f" ELSE {expr(e.else_result)}"
    return out + " END"


def _grouping(e: n.Grouping) -> str:
    if e.kind == "GROUPING SETS":
        return "GROUPING SETS (" + ", ".join(f"({comma(s, expr)})" for s in e.sets) + ")"
    parts = [expr(s[0]) if len(s) == 1 else f"({comma(s, expr)})" for s in e.sets]
    return f"{e.kind} (" + ", ".join(parts) + ")"


def _substring(e: n.Substring) -> str:
    out = f"SUBSTRING({expr(e.expr)}"
    if e.start is not None:
        out += f" FROM {expr(e.start)}"
    if e.length is not None:
        out += f" FOR {expr(e.length)}"
    return out + ")"


def _overlay(e: n.Overlay) -> str:
    out = f"OVERLAY({expr(e.expr)} PLACING {expr(e.new_substring)} FROM {expr(e.start)}"
    if e.count is not None:
        out += f" FOR {expr(e.count)}"
    return out + ")"


def _trim(e: n.Trim) -> str:
    out = "TRIM("
    if e.where is not None:
        out += f"{e.where} "
    if e.what is not None:
        out += f"{expr(e.what)} "
    return out + f"FROM {expr(e.expr)})"


def _range(e: n.ArrayRange) -> str:
    start = "" if e.start is None else expr(e.start)
    end = "" if e.end is None else expr(e.end)
    return f"{expr(e.obj)}[{start}:{end}]"


_EXPR: dict[type, Callable[[Any], str]] = {
    n.Identifier: lambda e: ident(e.ident),
    n.CompoundIdentifier: lambda e: ".".join(ident(p) for p in e.parts),
    n.FieldIdentifier: lambda e: f"({expr(e.expr)})." + ".".join(ident(p) for p in e.fields),
    n.IsCheck: lambda e: f"{expr(e.expr)} IS {e.what}",
    n.IsDistinctFrom: lambda e: f"{expr(e.left)} IS {_not(e.negated)}DISTINCT FROM {expr(e.right)}",
    n.IsJson: lambda e: (
        f"{expr(e.expr)} IS {_not(e.negated)}JSON{e.item_type}"
        + (" WITH UNIQUE KEYS" if e.unique_keys else "")
    ),
    n.InList: lambda e: f"{expr(e.expr)} {_not(e.negated)}IN ({comma(e.items, expr)})",
    n.InSubquery: lambda e: f"{expr(e.expr)} {_not(e.negated)}IN ({query(e.query)})",
    n.Between: lambda e: (
        f"{expr(e.expr)} {_not(e.negated)}BETWEEN {expr(e.low)} AND {expr(e.high)}"
    ),
    n.Like: _like,
    n.BinaryOp: lambda e: f"{expr(e.left)} {e.op} {expr(e.right)}",
    n.Quantified: lambda e: f"{e.kind}({expr(e.expr)})",
    n.UnaryOp: lambda e: f"{e.op} {expr(e.expr)}",
    n.Cast: lambda e: (
        f"{'TRY_CAST' if e.try_cast else 'CAST'}({expr(e.expr)} AS {data_type(e.data_type)})"
    ),
    n.AtTimeZone: lambda e: f"{expr(e.timestamp)} AT TIME ZONE {expr(e.zone)}",
    n.Extract: lambda e: f"EXTRACT({e.field} FROM {expr(e.expr)})",
    n.Substring: _substring,
    n.Position: lambda e: f"POSITION({expr(e.substring)} IN {expr(e.string)})",
    n.Overlay: _overlay,
    n.Trim: _trim,
    n.Collate: lambda e: f"{expr(e.expr)} COLLATE {object_name(e.collation)}",
    n.Nested: lambda e: f"({expr(e.expr)})",
    n.Value: value,
    n.Interval: interval,
    n.Parameter: lambda e: f"${e.index}",
    n.TypedString: lambda e: f"{data_type(e.data_type)} '{escape(e.value)}'",
    n.Case: _case,
    n.Exists: lambda e: f"EXISTS ({query(e.query)})",
    n.Subquery: lambda e: f"({query(e.query)})",
    n.Grouping: _grouping,
    n.Row: lambda e: f"ROW({comma(e.items, expr)})",
    n.Array: lambda e: f"{'ARRAY' if e.named else ''}[{comma(e.items, expr)}]",
    n.ArraySubquery: lambda e: f"ARRAY ({query(e.query)})",
    n.Index: lambda e: f"{expr(e.obj)}[{expr(e.index)}]",
    n.ArrayRange: _range,
    n.Lambda: lambda e: f"|{comma(e.args, ident)}| {expr(e.body)}",
    n.Map: lambda e: "MAP {" + ", ".join(f"{expr(k)}: {expr(v)}" for k, v in e.entries) + "}",
}


def expr(e: n.Expr) -> str:
    if isinstance(e, n.Function):
        return function(e)
    return _EXPR[type(e)](e)


def order_by(o: n.OrderByExpr) -> str:
    out = expr(o.expr)
    if o.asc is not None:
        out += " ASC" if o.asc else " DESC"
    if o.nulls_first is not None:
        out += " NULLS FIRST" if o.nulls_first else " NULLS LAST"
    return out


def _bound(b: n.FrameBound) -> str:
    if b.kind == "CURRENT ROW":
        return "CURRENT ROW"
    if b.offset is None:
        return f"UNBOUNDED {b.kind}"
    return f"{expr(b.offset)} {b.kind}"


def window_frame(f: n.WindowFrame) -> str:
    if f.gap is not None:
        return f"{f.units} WITH GAP {expr(f.gap)}"
    assert f.start is not None
    if f.end is not None:
        return f"{f.units} BETWEEN {_bound(f.start)} AND {_bound(f.end)}"
    return f"{f.units} {_bound(f.start)}"


def window_spec(w: n.WindowSpec) -> str:
    parts = []
    if w.partition_by:
        parts.append(f"PARTITION BY {comma(w.partition_by, expr)}")
    if w.order_by:
        parts.append(f"ORDER BY {comma(w.order_by, order_by)}")
    if w.frame is not None:
        parts.append(window_frame(w.frame))
    return " ".join(parts)


def wildcard(w: n.Wildcard) -> str:
    if w.expr is not None:
        return f"({expr(w.expr)})" + "".join(f".{ident(f)}" for f in w.fields) + ".*"
    out = "*" if w.prefix is None else f"{object_name(w.prefix)}.*"
    if w.except_ is not None:
        out += f" EXCEPT ({comma(w.except_, expr)})"
    return out


def secret_ref(s: n.SecretRef) -> str:
    return object_name(s.name) + (" AS FILE" if s.as_file else "")


def function_arg(a: n.FunctionArg) -> str:
    if isinstance(a.arg, n.Wildcard):
        text = wildcard(a.arg)
    elif isinstance(a.arg, n.SecretRef):
        text = "SECRET " + secret_ref(a.arg)
    else:
        text = expr(a.arg)
    return text if a.name is None else f"{ident(a.name)} => {text}"


def function(f: n.Function) -> str:
    args = "DISTINCT " if f.distinct else ""
    if f.variadic:
        args += "".join(f"{function_arg(a)}, " for a in f.args[:-1])
        args += f"VARIADIC {function_arg(f.args[-1])}"
    else:
        args += comma(f.args, function_arg)
    if f.order_by:
        args += f" ORDER BY {comma(f.order_by, order_by)}"
    if f.ignore_nulls:
        args += " IGNORE NULLS"
    out = ("AGGREGATE:" if f.scalar_as_agg else "") + f"{object_name(f.name)}({args})"
    if f.within_group is not None:
        out += f" WITHIN GROUP (ORDER BY {order_by(f.within_group)})"
    if f.filter is not None:
        out += f" FILTER (WHERE {expr(f.filter)})"
    if isinstance(f.over, n.Ident):
        out += f" OVER {ident(f.over)}"
    elif f.over is not None:
        out += f" OVER ({window_spec(f.over)})"
    return out


# ---------------------------------------------------------------- queries


def table_alias(a: n.TableAlias) -> str:
    out = ident(a.name)
    return out + (f" ({comma(a.columns, ident)})" if a.columns else "")


def _alias(a: n.TableAlias | None) -> str:
    return "" if a is None else f" AS {table_alias(a)}"


def table_factor(t: n.TableFactor) -> str:
    if isinstance(t, n.TableRef):
        return object_name(t.name) + t.as_of + _alias(t.alias)
    if isinstance(t, n.Derived):
        return ("LATERAL " if t.lateral else "") + f"({query(t.query)})" + _alias(t.alias)
    if isinstance(t, n.TableFunction):
        out = f"{object_name(t.name)}({comma(t.args, function_arg)})"
        return out + (" WITH ORDINALITY" if t.with_ordinality else "") + _alias(t.alias)
    return f"({table_with_joins(t.inner)})"


def join(j: n.Join) -> str:
    if j.op == "CROSS JOIN":
        return f" CROSS JOIN {table_factor(j.relation)}"
    out = f" {'NATURAL ' if j.natural else ''}{j.op} {table_factor(j.relation)}"
    if j.on is not None:
        out += f" ON {expr(j.on)}"
    elif j.using is not None:
        out += f" USING({comma(j.using, ident)})"
    return out


def table_with_joins(t: n.TableWithJoins) -> str:
    return table_factor(t.relation) + "".join(join(j) for j in t.joins)


def select_item(s: n.SelectItem) -> str:
    if isinstance(s.expr, n.Wildcard):
        return wildcard(s.expr)
    text = expr(s.expr)
    return text if s.alias is None else f"{text} AS {ident(s.alias)}"


def select(s: n.Select) -> str:
    if s.distinct is True:
        out = "SELECT DISTINCT"
    elif isinstance(s.distinct, list):
        out = f"SELECT DISTINCT ON ({comma(s.distinct, expr)})"
    else:
        out = "SELECT"
    out += f" {comma(s.projection, select_item)}"
    if s.from_:
        out += f" FROM {comma(s.from_, table_with_joins)}"
    if s.selection is not None:
        out += f" WHERE {expr(s.selection)}"
    if s.group_by:
        out += f" GROUP BY {comma(s.group_by, expr)}"
    if s.having is not None:
        out += f" HAVING {expr(s.having)}"
    if s.window:
        out += " WINDOW " + ", ".join(
            f"{ident(w.name)} AS ({window_spec(w.spec)})" for w in s.window
        )
    return out


def set_expr(s: n.SetExpr) -> str:
    if isinstance(s, n.Select):
        return select(s)
    if isinstance(s, n.Values):
        return "VALUES " + ", ".join(f"({comma(r, expr)})" for r in s.rows)
    if isinstance(s, n.QueryBody):
        return f"({query(s.query)})"
    corr = ""
    if s.corresponding is True:
        corr = " CORRESPONDING"
    elif isinstance(s.corresponding, list):
        corr = f" CORRESPONDING BY ({comma(s.corresponding, ident)})"
    all_ = " ALL" if s.all else ""
    return f"{set_expr(s.left)} {s.op}{all_}{corr} {set_expr(s.right)}"


def cte(c: n.Cte) -> str:
    if c.query is not None:
        return f"{table_alias(c.alias)} AS ({query(c.query)})"
    assert c.changelog is not None
    return f"{table_alias(c.alias)} AS changelog from {object_name(c.changelog.name)}"


def query(q: n.Query) -> str:
    out = ""
    if q.with_ is not None:
        out = "WITH " + ("RECURSIVE " if q.recursive else "") + comma(q.with_, cte) + " "
    out += set_expr(q.body)
    if q.order_by:
        out += f" ORDER BY {comma(q.order_by, order_by)}"
    if q.limit is not None:
        out += f" LIMIT {expr(q.limit)}"
    if q.offset is not None:
        out += f" OFFSET {q.offset}"
    if q.fetch is not None:
        ties, quantity = q.fetch
        ext = "WITH TIES" if ties else "ONLY"
        out += f" FETCH FIRST {quantity} ROWS {ext}" if quantity else f" FETCH FIRST ROWS {ext}"
    return out
