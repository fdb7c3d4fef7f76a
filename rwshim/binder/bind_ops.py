"""Binding operators and casts: comparisons, arithmetic, concatenation, pattern matching.

Mirrors RisingWave's binder/expr/binary_op.rs (operators resolved by their operand types, the
result type from expr/type_inference/func.rs), binder/expr/mod.rs ``bind_cast`` (casts; a
string literal takes the other side's type, expr/type_inference/cast.rs); an operator no
signature accepts is ``function add(<types>) does not exist`` (the operator's function name,
expr/type_inference/func.rs ``infer_type_name``).  Each handler takes the
``ExprBinder`` and the node, binds the operands, decides the type, and asks the lowering for the
engine's form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from rwshim.binder import bind_catalog, types, variant_keys
from rwshim.binder.parse import func_call, param_number
from rwshim.binder.type_inference import UNKNOWN, at_bind, cast_type, is_regclass
from rwshim.common import pgtypes, rwtypes
from rwshim.errors import BindError, NoFunction, NotImplementedError_, NotSupported

if TYPE_CHECKING:
    from collections.abc import Callable

    from rwshim.binder.bind_expr import ExprBinder

    Handler = Callable[[ExprBinder, exp.Expr], tuple[exp.Expr, int]]


def compare(tx: ExprBinder, node: exp.Binary) -> tuple[exp.Expr, int]:
    right = node.expression
    if isinstance(right, exp.Anonymous) and right.name.upper() in ("ALL", "ANY", "SOME"):
        quant = exp.All if right.name.upper() == "ALL" else exp.Any
        right = quant(this=right.expressions[0])
        node.set("expression", right)
    if isinstance(right, (exp.Any, exp.All)):
        return _any(tx, node)
    lo, ro = tx.binary_operands(node)
    variant_keys.comparison(node, lo, ro)
    # an untyped string literal takes the other side's type (PostgreSQL's unknown
    # resolution), so it compares as a boolean, instant or interval rather than as text
    coerced = types.TEMPORAL_OIDS | {pgtypes.BOOL}
    for side, other in (("this", ro), ("expression", lo)):
        val = node.args[side]
        if isinstance(val, exp.Literal) and val.is_string and other in coerced:
            node.set(side, tx.low.convert(val, UNKNOWN, other))
    return node, pgtypes.BOOL


def _any(tx: ExprBinder, node: exp.Binary) -> tuple[exp.Expr, int]:
    quant = node.expression
    inner = quant.this
    while isinstance(inner, exp.Paren):
        inner = inner.this
    left_t = tx.peek_type(node.this)
    if isinstance(inner, (exp.Select, exp.Union, exp.Subquery)):
        new_l, _ = tx.bind(node.this)
        tx.b.query(inner, tx.scope)
        q = inner.this if isinstance(inner, exp.Subquery) else inner
        result: exp.Expr = exp.In(this=new_l, query=exp.Subquery(this=q))
        if isinstance(node, exp.NEQ) and isinstance(quant, exp.All):
            result = exp.Not(this=result)
        return result, pgtypes.BOOL
    if left_t is not None:
        tx.hint_param(inner, types.array_of(types.external(left_t)))
    new_l, lo = tx.bind(node.this)
    new_arr, ao = tx.bind(inner)
    if param_number(inner) is not None and lo != UNKNOWN:
        tx.hint_param(inner, types.array_of(types.external(lo)))
    call = tx.low.any_eq(new_l, new_arr)
    if isinstance(node, exp.EQ) and isinstance(quant, exp.Any):
        return call, pgtypes.BOOL
    if isinstance(node, exp.NEQ) and isinstance(quant, exp.All):
        return exp.Not(this=call), pgtypes.BOOL
    # the other comparisons, over elements whose stored values order as RisingWave's do
    # (binder/expr/binary_op.rs bind_binary_op under ANY/ALL: any comparable element type)
    elem = types.element_of(ao)
    op = _QUANTIFIED_OPS.get(type(node))
    if op is not None and elem in types.NUMERIC_OIDS | types.STRING_OIDS | {pgtypes.BOOL}:
        numeric = elem in types.NUMERIC_OIDS or elem == pgtypes.BOOL
        return tx.low.any_cmp(op, isinstance(quant, exp.All), new_l, new_arr, numeric), pgtypes.BOOL
    raise NotImplementedError_(f"{type(node).__name__} with {type(quant).__name__}")


_QUANTIFIED_OPS: dict[type[exp.Expr], str] = {
    exp.EQ: "=",
    exp.NEQ: "<>",
    exp.LT: "<",
    exp.LTE: "<=",
    exp.GT: ">",
    exp.GTE: ">=",
}


def arith(tx: ExprBinder, node: exp.Binary) -> tuple[exp.Expr, int]:
    lo, ro = tx.binary_operands(node)
    lo = pgtypes.INT4 if lo == UNKNOWN and isinstance(node.this, exp.Placeholder) else lo
    op = {exp.Add: "+", exp.Sub: "-", exp.Mul: "*", exp.Div: "/", exp.Mod: "%"}[type(node)]
    temporal = {lo, ro} & types.TEMPORAL_OIDS
    if temporal:
        return _temporal_arith(tx, node, op, lo, ro)
    if lo == UNKNOWN:
        lo = ro
    if ro == UNKNOWN:
        ro = lo
    result = types.wider_numeric(lo, ro)
    return tx.low.arith(node, op, result), result


def _temporal_arith(
    tx: ExprBinder, node: exp.Binary, op: str, lo: int, ro: int
) -> tuple[exp.Expr, int]:
    """Date and time arithmetic by operand types (RisingWave's signatures); anything else is
    ``function <add|subtract|...>(<types>) does not exist``."""
    a, b = node.this, node.expression
    instants = (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ, pgtypes.DATE)
    if op in "+-" and ro == pgtypes.INTERVAL and lo in instants:
        out = pgtypes.TIMESTAMP if lo == pgtypes.DATE else lo
        return tx.low.ts_add(a, b, 1 if op == "+" else -1), out
    if op == "+" and lo == pgtypes.INTERVAL and ro in instants:
        out = pgtypes.TIMESTAMP if ro == pgtypes.DATE else ro
        return tx.low.ts_add(b, a, 1), out
    if op == "-" and lo in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ) and ro == lo:
        return tx.low.ts_diff(a, b), pgtypes.INTERVAL
    if op == "-" and lo == pgtypes.DATE and ro == pgtypes.DATE:
        return tx.low.date_diff(a, b), pgtypes.INT4
    if op in "+-" and lo == pgtypes.DATE and ro in types.INTEGER_OIDS:
        return tx.low.date_add_days(a, b, 1 if op == "+" else -1), pgtypes.DATE
    # interval * / number, number * interval (src/expr/impl/src/scalar/arithmetic_op.rs
    # interval_float_op: multiply(interval, float8) and divide(interval, float8), the number
    # cast implicitly)
    numbers = (*types.INTEGER_OIDS, pgtypes.NUMERIC, pgtypes.FLOAT4, pgtypes.FLOAT8)
    if op in "*/" and lo == pgtypes.INTERVAL and ro in numbers:
        return tx.low.interval_mul(a, b, op == "/"), pgtypes.INTERVAL
    if op == "*" and ro == pgtypes.INTERVAL and lo in numbers:
        return tx.low.interval_mul(b, a, False), pgtypes.INTERVAL
    fname = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "%": "modulus"}[op]
    raise NoFunction(
        f"{fname}({rwtypes.DISPLAY.get(types.external(lo), 'unknown')}, "
        f"{rwtypes.DISPLAY.get(types.external(ro), 'unknown')})"
    )


def concat(tx: ExprBinder, node: exp.DPipe) -> tuple[exp.Expr, int]:
    lo, ro = tx.binary_operands(node)
    if types.is_array(lo) or types.is_array(ro):
        if types.is_array(lo) and types.is_array(ro):
            return tx.low.array_cat(node.this, node.expression), lo
        if types.is_array(lo):
            return tx.low.array_append(node.this, node.expression), lo
    parts = []
    for side, oid in ((node.this, lo), (node.expression, ro)):
        if oid not in types.STRING_OIDS and oid != UNKNOWN:
            side = tx.low.convert(side, oid, pgtypes.VARCHAR)
        parts.append(side)
    return exp.DPipe(this=parts[0], expression=parts[1]), pgtypes.VARCHAR


def regex(tx: ExprBinder, node: exp.Expr, ci: bool) -> tuple[exp.Expr, int]:
    new_l, _ = tx.bind(node.this)
    new_r, _ = tx.bind(node.expression)
    return tx.low.regex(new_l, new_r, ci), pgtypes.BOOL


def operator(tx: ExprBinder, node: exp.Operator) -> tuple[exp.Expr, int]:
    """``a OPERATOR(pg_catalog.op) b`` as the operator itself."""
    op = str(node.args.get("operator") or "").replace(" ", "").lower()
    op = op.removeprefix("pg_catalog.")
    if op in ("~", "~*", "!~", "!~*"):
        res, oid = regex(tx, node, "*" in op)
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
        return tx.bind(cls(this=node.this, expression=node.expression))
    raise NotImplementedError_(f"operator {op}")


def like(
    tx: ExprBinder, node: exp.Expr, escape: exp.Expr | None = None, ci: bool = False
) -> tuple[exp.Expr, int]:
    new_l, _ = tx.bind(node.this)
    new_r, _ = tx.bind(node.expression)
    esc = tx.bind(escape)[0] if escape is not None else None
    res = tx.low.like(new_l, new_r, esc, ci)
    # sqlglot keeps NOT LIKE / NOT ILIKE as the predicate's ``negate`` flag
    return (exp.Not(this=res) if node.args.get("negate") else res), pgtypes.BOOL


def escape(tx: ExprBinder, node: exp.Escape) -> tuple[exp.Expr, int]:
    inner = node.this
    return like(tx, inner, node.expression, isinstance(inner, exp.ILike))


def _collation_name(node: exp.Expr) -> str:
    """A collation's ``ObjectName::real_value``: its parts joined by '.', unquoted parts in
    lower case."""
    if isinstance(node, (exp.Column, exp.Dot)):
        return ".".join(_collation_name(p) for p in node.parts)
    if isinstance(node, exp.Identifier) and node.quoted:
        return node.name
    return node.name.lower()


def collate(tx: ExprBinder, node: exp.Collate) -> tuple[exp.Expr, int]:
    """binder/expr/mod.rs:1042-1063: only ``C`` and ``POSIX``, only on varchar."""
    if _collation_name(node.expression) not in ("C", "POSIX"):
        raise at_bind(
            NotImplementedError_("Collate collation other than `C` or `POSIX` is not implemented")
        )
    new, oid = tx.bind(node.this)
    if oid not in types.STRING_OIDS | {UNKNOWN}:
        name = rwtypes.DISPLAY.get(types.external(oid), "unknown")
        raise at_bind(
            NotSupported(
                f"{name} is not a collatable data type",
                "The only built-in collatable data types are `varchar`, please check your type",
            )
        )
    return tx.low.collate(node, new), oid


def cast(tx: ExprBinder, node: exp.Cast) -> tuple[exp.Expr, int]:
    to = cast_type(node.args["to"])
    if not tx.b.variant_type and variant_keys.contains_variant(to):
        # v3.0.3 / v2.8.5 bind_data_type: ``variant`` is an unknown type name
        raise at_bind(NotImplementedError_("unsupported data type: variant"))
    inner = node.this
    # a parameter cast to a reg* type is sent as the object's name
    reg = to in (types.REGTYPE_TAG, types.REGNAMESPACE_TAG) or is_regclass(node.args["to"])
    tx.hint_param(inner, pgtypes.VARCHAR if reg else types.external(to))
    if to == pgtypes.INT4 and is_regclass(node.args["to"]):
        return bind_catalog.regclass(tx, inner)
    new, frm = tx.bind(inner)
    to_node = node.args["to"]
    if isinstance(to_node, exp.ObjectIdentifier) and to_node.name.lower() == "regproc":
        # binder/expr/mod.rs:999-1009: only a varchar passes (unchanged)
        if frm not in types.STRING_OIDS | {UNKNOWN}:
            raise BindError(
                f"Can't cast {rwtypes.DISPLAY.get(types.external(frm), 'unknown')} to regproc"
            )
        return new, pgtypes.VARCHAR
    if to == types.REGTYPE_TAG and frm in types.STRING_OIDS | {UNKNOWN}:
        return func_call("to_regtype", new), to
    if to == types.REGNAMESPACE_TAG and frm in types.STRING_OIDS | {UNKNOWN}:
        return bind_catalog.regnamespace(tx, new), to
    if to in types.STRING_OIDS and frm == types.REGTYPE_TAG:
        return func_call("format_type", new, exp.Null()), pgtypes.VARCHAR
    if to in types.STRING_OIDS and frm == types.REGNAMESPACE_TAG:
        return bind_catalog.nspname(tx, new), pgtypes.VARCHAR
    return tx.low.cast(new, frm, to), to


def distinct_from(tx: ExprBinder, node: exp.Binary) -> tuple[exp.Expr, int]:
    tx.binary_operands(node)
    negated = isinstance(node, exp.NullSafeEQ)
    return tx.low.distinct_from(node.this, node.expression, negated), pgtypes.BOOL


def json_get(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """``->`` (jsonb) and ``->>`` (text)."""
    new, _ = tx.bind(node.this)
    node.set("this", new)
    if isinstance(node, exp.JSONExtractScalar):
        return tx.low.json_get(node, True), pgtypes.VARCHAR
    return tx.low.json_get(node, False), pgtypes.JSONB


def contains_all(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """``a @> b`` of arrays or jsonb."""
    a, ao = tx.bind(node.this)
    b, bo = tx.bind(node.expression)
    arrays = types.is_array(ao) or types.is_array(bo)
    return tx.low.contains(a, b, arrays), pgtypes.BOOL


def contained_by(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """``a <@ b``: ``b @> a``."""
    a, ao = tx.bind(node.this)
    b, bo = tx.bind(node.expression)
    arrays = types.is_array(ao) or types.is_array(bo)
    return tx.low.contains(b, a, arrays), pgtypes.BOOL


def similar_to(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    a, _ = tx.bind(node.this)
    b, _ = tx.bind(node.expression)
    return tx.low.similar(a, b), pgtypes.BOOL


HANDLERS: dict[type[exp.Expr], Handler] = {
    exp.EQ: compare,  # type: ignore[dict-item]
    exp.NEQ: compare,  # type: ignore[dict-item]
    exp.GT: compare,  # type: ignore[dict-item]
    exp.GTE: compare,  # type: ignore[dict-item]
    exp.LT: compare,  # type: ignore[dict-item]
    exp.LTE: compare,  # type: ignore[dict-item]
    exp.Add: arith,  # type: ignore[dict-item]
    exp.Sub: arith,  # type: ignore[dict-item]
    exp.Mul: arith,  # type: ignore[dict-item]
    exp.Div: arith,  # type: ignore[dict-item]
    exp.Mod: arith,  # type: ignore[dict-item]
    exp.DPipe: concat,  # type: ignore[dict-item]
    exp.RegexpLike: lambda tx, n: regex(tx, n, False),
    exp.RegexpILike: lambda tx, n: regex(tx, n, True),
    exp.Operator: operator,  # type: ignore[dict-item]
    exp.Like: lambda tx, n: like(tx, n),
    exp.ILike: lambda tx, n: like(tx, n, None, True),
    exp.Escape: escape,  # type: ignore[dict-item]
    exp.Collate: collate,  # type: ignore[dict-item]
    exp.Cast: cast,  # type: ignore[dict-item]
    exp.TryCast: cast,  # type: ignore[dict-item]
    exp.NullSafeEQ: distinct_from,  # type: ignore[dict-item]
    exp.NullSafeNEQ: distinct_from,  # type: ignore[dict-item]
    exp.JSONExtract: json_get,
    exp.JSONExtractScalar: json_get,
    exp.ArrayContainsAll: contains_all,
    exp.ArrayContainedBy: contained_by,
    exp.SimilarTo: similar_to,
}
