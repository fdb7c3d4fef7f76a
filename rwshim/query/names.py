"""Output column names as RisingWave derives them, and PostgreSQL names of sqlglot's functions.

``derive_alias`` is RisingWave's rule for an unaliased select item (src/frontend/src/binder/
select.rs:706-770): a column's name, a function's name, ``case``/``extract``/``array``..., a
cast's type alias; otherwise the item is ``?column?``.
"""

from __future__ import annotations

from sqlglot import exp

from rwshim import pgtypes
from rwshim.query.parsing import type_oid_of

UNNAMED_COLUMN = "?column?"


# sqlglot models these operators as functions; RisingWave names them like any operator
_OPERATOR_FUNCS = (
    exp.JSONExtract,
    exp.JSONExtractScalar,
    exp.ArrayContainsAll,
    exp.ArrayContainedBy,
    exp.SimilarTo,
)


def derive_alias(node: exp.Expr) -> str | None:
    """RisingWave's name for an unaliased select item (binder/select.rs:706-724)."""
    if isinstance(node, _OPERATOR_FUNCS):
        return None
    if isinstance(node, exp.Column):
        if isinstance(node.this, exp.Star):
            return None
        return node.name
    if isinstance(node, exp.Dot):
        return derive_alias(node.expression)
    if isinstance(node, (exp.Cast, exp.TryCast)):
        inner = derive_alias(node.this)
        if inner is not None:
            return inner
        return type_alias(node.args["to"])
    if isinstance(node, exp.Extract):
        return "extract"
    if isinstance(node, exp.Case):
        return "case"
    if isinstance(node, exp.Interval):
        return "interval"
    if isinstance(node, exp.Array):
        return "array"
    if isinstance(node, exp.Tuple):
        return "row"
    if isinstance(node, exp.Bracket):
        return derive_alias(node.this)
    if isinstance(node, exp.Paren):
        return derive_alias(node.this)
    if isinstance(node, (exp.Collate,)):
        return None
    if isinstance(node, exp.Window):
        return derive_alias(node.this)
    if isinstance(node, exp.Filter):
        return derive_alias(node.this)
    if isinstance(node, exp.Anonymous):
        return node.name.lower()
    if isinstance(node, exp.Func):
        return func_name(node)
    return None


def type_alias(to: exp.Expr) -> str | None:
    """RisingWave's data_type_to_alias (binder/select.rs:728-770): the type as written for
    char/varchar/text/uuid/custom names, else the PostgreSQL type name; arrays by element."""
    while isinstance(to, exp.DataType) and to.this == exp.DataType.Type.ARRAY and to.expressions:
        to = to.expressions[0]
    if isinstance(to, exp.ObjectIdentifier):
        return to.name.lower()
    if isinstance(to, exp.DataType):
        written = {
            exp.DataType.Type.CHAR: "bpchar",
            exp.DataType.Type.NCHAR: "bpchar",
            exp.DataType.Type.TEXT: "text",
            exp.DataType.Type.UUID: "uuid",
            exp.DataType.Type.NAME: "name",
        }.get(to.this)
        if written is not None:
            return written
        if to.this == exp.DataType.Type.USERDEFINED:
            kind = to.args.get("kind")
            return kind.name if isinstance(kind, exp.Expr) else str(kind or "") or None
    t = pgtypes.BY_OID.get(type_oid_of(to))
    return t.name if t is not None else None


# sqlglot's function classes -> the PostgreSQL name a user wrote.
_CLASS_NAMES: dict[type[exp.Expr], str] = {
    exp.Count: "count",
    exp.Sum: "sum",
    exp.Avg: "avg",
    exp.Min: "min",
    exp.Max: "max",
    exp.ArrayAgg: "array_agg",
    exp.GroupConcat: "string_agg",
    exp.LogicalAnd: "bool_and",
    exp.LogicalOr: "bool_or",
    exp.Coalesce: "coalesce",
    exp.Nullif: "nullif",
    exp.Greatest: "greatest",
    exp.Least: "least",
    exp.Abs: "abs",
    exp.Round: "round",
    exp.Upper: "upper",
    exp.Lower: "lower",
    exp.Length: "length",
    exp.Substring: "substring",
    exp.Trim: "btrim",
    exp.StrPosition: "position",
    exp.Replace: "replace",
    exp.Left: "left",
    exp.Right: "right",
    exp.Concat: "concat",
    exp.ConcatWs: "concat_ws",
    exp.ArraySize: "array_length",
    exp.TimestampTrunc: "date_trunc",
    exp.DateTrunc: "date_trunc",
    exp.CurrentTimestamp: "now",
    exp.CurrentDate: "current_date",
    exp.CurrentUser: "current_user",
    exp.CurrentSchema: "current_schema",
    exp.CurrentVersion: "version",
    exp.Explode: "unnest",
    exp.ExplodingGenerateSeries: "generate_series",
    exp.GenerateSeries: "generate_series",
    exp.Pow: "power",
    exp.Sqrt: "sqrt",
    exp.Ceil: "ceil",
    exp.Floor: "floor",
    exp.Ln: "ln",
    exp.Exp: "exp",
    exp.Sign: "sign",
    exp.Mod: "mod",
    exp.Initcap: "initcap",
    exp.Repeat: "repeat",
    exp.Reverse: "reverse",
    exp.MD5: "md5",
    exp.Pad: "lpad",
    exp.RegexpReplace: "regexp_replace",
    exp.SplitPart: "split_part",
    exp.StartsWith: "starts_with",
    exp.ArrayToString: "array_to_string",
    exp.RowNumber: "row_number",
    exp.Lag: "lag",
    exp.Lead: "lead",
    exp.FirstValue: "first_value",
    exp.LastValue: "last_value",
    exp.Rand: "random",
    exp.UnixToTime: "to_timestamp",
    exp.TimeToStr: "to_char",
    exp.JSONObject: "json_build_object",
}


def func_name(node: exp.Expr) -> str:
    name = _CLASS_NAMES.get(type(node))
    if name is not None:
        if isinstance(node, exp.Pad):
            return "lpad" if node.args.get("is_left") else "rpad"
        return name
    if isinstance(node, exp.Anonymous):
        return node.name.lower()
    if isinstance(node, exp.Func):
        return node.sql_name().lower()
    return type(node).__name__.lower()
