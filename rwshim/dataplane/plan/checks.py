"""RisingWave's binder checks that PostgreSQL does not make: a statement PostgreSQL would run
but RisingWave refuses is refused here, before it reaches PostgreSQL, with RisingWave's text.
They read the parse tree (``tree.Shape.node``, PostgreSQL's JSON) of a statement routed to the
data plane.

- ordered-set aggregates (src/frontend/src/binder/expr/function/aggregate.rs
  decimal_to_float64): ``percentile_cont`` / ``percentile_disc`` take one direct argument
  castable to float64 (an array is not), constant (a column is ``variable as direct argument
  of ordered-set aggregate``, not implemented), between 0.0 and 1.0;
- HOP (src/frontend/src/planner/relation.rs plan_hop_window): slide and size interval
  literals, both positive, the size a whole multiple of the slide;
- UPDATE ... SET (a, b) = (x, DEFAULT) (src/frontend/src/binder/update.rs): only a whole
  ``= DEFAULT`` assigns defaults; inside a row ``DEFAULT`` is bound as an expression and fails;
- a date literal (``'…'::date``, ``DATE '…'``, a string inserted into a date column) must be
  ``YYYY-MM-DD`` (src/common/src/types/datetime.rs ``impl FromStr for Date``: speedate's
  RFC 3339 date), else ``Can't cast string to date (expected format is YYYY-MM-DD)``;
- a function RisingWave does not have (rw_functions_generated: the names its binder
  resolves; PostgreSQL's SQL-syntax forms such as ``TRIM(... FROM ...)`` aside) is
  ``function ... does not exist``, refused before PostgreSQL would run its own (``UnknownFunction``:
  the frontend asks the in-process binder for RisingWave's whole text, with argument types);
- ``proctime()`` outside a CREATE TABLE / SOURCE column (builtin_scalar.rs:896-904), the text
  the in-process binder gives (``ProctimeOutsideDdl``);
- a select-list alias RisingWave reserves (``_row_id...``, ``_rw_...``, system column names:
  catalog/mod.rs check_column_name_not_reserved, binder/select.rs:355);
- ``COLLATE`` other than "C" or "POSIX" (src/frontend/src/binder/expr/mod.rs bind_collate);
- ``to_timestamp`` of a constant text and pattern: the text's shape as chrono parses it
  (dataplane/plan/chrono.py; src/expr/impl/src/scalar/to_timestamp.rs), else ``Parse error: ...``;
- a list cast to a type with another number of dimensions (RisingWave's ``int[]`` and
  ``int[][]`` are different types: src/frontend/src/expr/type_inference/cast.rs cast_array):
  an ``ARRAY[...]`` literal of one depth cast to another is ``cannot cast type``.

Registering: ``register(fn)``; ``fn(shape, target_columns)`` raises RisingWave's error.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar

from rwshim.binder.relations import RelColumn
from rwshim.common import pgtypes, rwtypes
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.errors import LIMIT_INTEGER
from rwshim.errors import (
    BindError,
    BindExprError,
    ExprError,
    InvalidInputSyntax,
    ItemNotFound,
    NoFunction,
    NotImplementedError_,
    RwError,
)
from rwshim.sql import column_exprs, column_names

Node = dict[str, Any]
# (the statement's shape, the columns of its DML target or None)
Check = Callable[[tree.Shape, Sequence[RelColumn] | None], None]
_CHECKS: list[Check] = []


def register(fn: Check) -> Check:
    _CHECKS.append(fn)
    return fn


def check(shape: tree.Shape, target_columns: Sequence[RelColumn] | None = None) -> None:
    """Raise RisingWave's error if a binder rule refuses the statement."""
    global _INDEXED
    _INDEXED = None
    try:
        for fn in _CHECKS:
            fn(shape, target_columns)
    finally:
        _INDEXED = None


# The nodes of the statement being checked by kind, taken in one walk of its tree (the checks
# ask for several kinds; a walk per kind was most of their cost): (its tree, the index).
_INDEXED: tuple[Any, dict[str, list[Node]]] | None = None


def nodes(shape: tree.Shape, kind: str) -> list[Node]:
    """``walk(shape.node, kind)``, in the same order, from one walk per statement."""
    global _INDEXED
    indexed = _INDEXED
    if indexed is None or indexed[0] is not shape.node:
        index: dict[str, list[Node]] = {}
        stack: list[Any] = [shape.node]
        while stack:
            v = stack.pop()
            if isinstance(v, list):
                stack.extend(reversed(v))
            elif isinstance(v, dict):
                for k, sub in v.items():
                    if isinstance(sub, dict):
                        index.setdefault(k, []).append(sub)
                        stack.append(sub)
                    elif isinstance(sub, list):
                        stack.append(sub)
        indexed = _INDEXED = (shape.node, index)
    return indexed[1].get(kind, [])


def walk(value: Any, kind: str) -> Iterator[Node]:
    """Every node of type ``kind`` (the unwrapped body) under ``value``."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            for k, sub in v.items():
                if k == kind and isinstance(sub, dict):
                    yield sub
                if isinstance(sub, (dict, list)):
                    stack.append(sub)


def _names(items: list[Node] | None) -> list[str]:
    return [it["String"]["sval"] for it in items or () if "String" in it]


def _const_string(node: Any) -> str | None:
    c = node.get("A_Const") if isinstance(node, dict) else None
    if c is None:
        return None
    sval = c.get("sval")
    return sval.get("sval", "") if isinstance(sval, dict) else None


# How many times a check read a number literal's value: a plan that depends on one is not
# shared by texts that differ only in their integer literals (query/pg/literals).
constant_reads = 0


def _const_number(node: Any) -> float | None:
    global constant_reads
    c = node.get("A_Const") if isinstance(node, dict) else None
    if c is None:
        return None
    for key, field in (("ival", "ival"), ("fval", "fval")):
        v = c.get(key)
        if isinstance(v, dict):
            constant_reads += 1
            try:
                return float(v.get(field, 0))
            except ValueError:
                return None
    return None


def _is_constant(node: Any) -> bool:
    """No column, parameter or subquery inside (RisingWave folds such an expression)."""
    return not any(True for kind in ("ColumnRef", "ParamRef", "SubLink") for _ in walk(node, kind))


# --- functions RisingWave does not have ------------------------------------------------------


class UnknownFunction(NoFunction):
    """A call of a function RisingWave's binder does not know (the frontend replaces this text
    with the in-process binder's, which names the argument types)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name}(...)")
        self.name = name


class QualifiedFunction(RwError):
    """A call named ``db.schema.f`` of another database than the current one, or with more
    parts (binder/expr/function/mod.rs:116-131; the current database's is ``schema.f``, which
    the rewrite writes).  The frontend replaces this text with the in-process binder's, which
    shows the root expression as written."""

    def __init__(self, parts: Sequence[str]) -> None:
        if len(parts) == 3:
            super().__init__(
                f"Bind error: Cross-database function call is not supported: {parts[2]}"
            )
        else:
            super().__init__(
                f"Feature is not yet implemented: qualified function {'.'.join(parts)}\n"
                "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/112"
            )


def qualified_functions(shape: tree.Shape, database: str) -> None:
    """Refuse a call qualified with another database (or more than three parts)."""
    for fr in shape.func_refs:
        if len(fr.parts) > 3 or (len(fr.parts) == 3 and fr.parts[0] != database):
            raise QualifiedFunction(fr.parts)


# functions PostgreSQL's grammar writes for syntax RisingWave has too (x SIMILAR TO p,
# x LIKE p ESCAPE e), as explicit calls
_PG_SYNTAX_CALLS = frozenset({"similar_to_escape", "like_escape"})


@register
def _unknown_functions(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    from rwshim.dataplane.plan import functions, rw_functions_generated

    # GAP_FILL in FROM and its strategies (LOCF(c) ...) are rewritten (plan/gapfill)
    skip: set[int] = set()
    for rf in nodes(shape, "RangeFunction"):
        for entry in rf.get("functions") or []:
            items = entry.get("List", {}).get("items", [])
            call = items[0].get("FuncCall") if items else None
            if call is not None and _names(call.get("funcname"))[-1:] == ["gap_fill"]:
                skip.add(id(call))
                skip.update(id(a["FuncCall"]) for a in call.get("args") or [] if "FuncCall" in a)
    for call in nodes(shape, "FuncCall"):
        if id(call) in skip:
            continue
        if call.get("funcformat") == "COERCE_SQL_SYNTAX":
            continue  # TRIM(... FROM ...), x AT TIME ZONE y ...: PostgreSQL's grammar
        names = _names(call.get("funcname"))
        if not names:
            continue
        name = names[-1]
        if name in rw_functions_generated.ALL or name in functions.IN_PROCESS:
            continue
        if name in _PG_SYNTAX_CALLS:
            continue
        raise UnknownFunction(name)


@register
def _collate(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    for clause in nodes(shape, "CollateClause"):
        name = _names(clause.get("collname"))
        if name[-1:] not in (["C"], ["POSIX"]):
            raise NotImplementedError_(
                "Collate collation other than `C` or `POSIX` is not implemented"
            )


@register
def _set_op_all(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    """INTERSECT ALL / EXCEPT ALL: ``bail_not_implemented!("{} all", op)`` (binder/
    set_expr.rs:351-358)."""
    top = [shape.node] if shape.kind == "select" else []
    for stmt in [*top, *nodes(shape, "SelectStmt")]:
        op = stmt.get("op")
        if stmt.get("all") and op in ("SETOP_INTERSECT", "SETOP_EXCEPT"):
            raise NotImplementedError_(f"{op.removeprefix('SETOP_')} all")


_I64 = re.compile(r"[+-]?[0-9]+")


@register
def _limit(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    """A constant LIMIT folded to bigint at bind time (binder/query.rs:200-237): a string
    literal parsed as RisingWave parses a bigint (str_parse: trimmed, Rust's i64 grammar), a
    negative value refused with the value; PostgreSQL would say neither so."""
    top = [shape.node] if shape.kind == "select" else []
    for stmt in [*top, *nodes(shape, "SelectStmt")]:
        const = (stmt.get("limitCount") or {}).get("A_Const")
        if const is None or const.get("isnull"):
            continue
        if "ival" in const:
            value = int((const.get("ival") or {}).get("ival", 0))
        elif "sval" in const:
            text = str(const["sval"].get("sval", ""))
            s = text.strip()
            if not _I64.fullmatch(s) or not -(2**63) <= int(s) < 2**63:
                why = (
                    "cannot parse integer from empty string"
                    if not s
                    else "invalid digit found in string"
                    if not _I64.fullmatch(s)
                    else "number too large to fit in target type"
                )
                quoted = text.replace("'", "''")
                raise RwError(
                    "Expr error",
                    f"{LIMIT_INTEGER},\nbut the evaluation of the expression returns error:Expr"
                    f" error: error while evaluating expression `str_parse('{quoted}')`: Parse"
                    f" error: bigint {why}",
                )
            value = int(s)
        else:
            continue
        if value < 0:
            raise RwError("Expr error", f"LIMIT must not be negative, but found: {value}")


# --- ordered-set aggregates -------------------------------------------------------------------

_ORDERED_SET = ("percentile_cont", "percentile_disc")


@register
def _ordered_set(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    for call in nodes(shape, "FuncCall"):
        names = _names(call.get("funcname"))
        if not names or names[-1] not in _ORDERED_SET or not call.get("agg_within_group"):
            continue
        kind = names[-1]
        for arg in call.get("args") or []:
            if "A_ArrayExpr" in arg or (
                "TypeCast" in arg and arg["TypeCast"].get("typeName", {}).get("arrayBounds")
            ):
                raise InvalidInputSyntax(f"direct arg in `{kind}` must be castable to float64")
            if not _is_constant(arg):
                raise NotImplementedError_(
                    "variable as direct argument of ordered-set aggregate",
                    "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/14079",
                )
            value = _const_number(arg)
            if value is not None and not 0.0 <= value <= 1.0:
                raise InvalidInputSyntax(f"direct arg in `{kind}` must between 0.0 and 1.0")


# --- HOP ----------------------------------------------------------------------------------------

_WINDOW_ARG = "Invalid arguments for HOP window function: window_size"


class HopRefused(BindError):
    """HOP's window arguments refused (binder/relation/window_table_function.rs, planner
    plan_window_table_function): raised for a batch query and for a streaming job alike."""


# PostgreSQL's interval input and RisingWave's interval text (interval.rs Display, which is
# PostgreSQL's): the wire layer's codecs, handed in by the data plane (this core imports no
# other layer).  Until then HOP arguments are not checked here (PostgreSQL reads them).
IntervalParse = Callable[[str], pgtypes.Interval]
IntervalText = Callable[[pgtypes.Interval], str]
_interval_codec: tuple[IntervalParse, IntervalText] | None = None


def use_interval_codec(parse: IntervalParse, text: IntervalText) -> None:
    global _interval_codec
    _interval_codec = (parse, text)


def _interval_literal(node: Any) -> pgtypes.Interval | None:
    cast = node.get("TypeCast") if isinstance(node, dict) else None
    if cast is None:
        return None
    if _names(cast.get("typeName", {}).get("names"))[-1:] != ["interval"]:
        return None
    text = _const_string(cast.get("arg"))
    if text is None or _interval_codec is None:
        return None
    if cast.get("typeName", {}).get("typmods"):
        return None  # `interval '30' minute`: PostgreSQL reads the unit; not checked here
    try:
        return _interval_codec[0](text)
    except ValueError:
        return None


def _usecs(iv: pgtypes.Interval) -> int:
    return (iv.months * 30 + iv.days) * 86_400_000_000 + iv.microseconds


def _exact_div(a: pgtypes.Interval, b: pgtypes.Interval) -> bool:
    """Interval::exact_div (src/common/src/types/interval.rs) is not None."""
    found: set[int] = set()
    for x, y in ((a.months, b.months), (a.days, b.days), (a.microseconds, b.microseconds)):
        if x == 0 and y == 0:
            continue
        if y == 0 or x % y != 0:
            return False
        found.add(x // y)
    return len(found) <= 1


@register
def _hop(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    if _interval_codec is None:
        return
    interval_str = _interval_codec[1]
    for rf in nodes(shape, "RangeFunction"):
        for entry in rf.get("functions") or []:
            items = entry.get("List", {}).get("items", [])
            call = items[0].get("FuncCall") if items else None
            if call is None or _names(call.get("funcname"))[-1:] != ["hop"]:
                continue
            args = call.get("args") or []
            if len(args) < 4:
                continue
            slide, size = _interval_literal(args[2]), _interval_literal(args[3])
            if slide is None or size is None:
                continue
            if _usecs(size) <= 0 or _usecs(slide) <= 0:
                raise HopRefused(
                    f"window_size {interval_str(size)} and window_slide {interval_str(slide)} "
                    "must be positive"
                )
            if not _exact_div(size, slide):
                raise HopRefused(
                    f"{_WINDOW_ARG} {interval_str(size)} cannot be divided by window_slide "
                    f"{interval_str(slide)}"
                )


# --- UPDATE ... SET (a, b) = (x, DEFAULT) --------------------------------------------------------


@register
def _update_row_default(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    if shape.kind != "update":
        return
    for target in shape.node.get("targetList") or []:
        val = target.get("ResTarget", {}).get("val", {})
        multi = val.get("MultiAssignRef")
        if multi is None:
            continue
        source = multi.get("source", {})
        row = source.get("RowExpr")
        if row is not None and any("SetToDefault" in a for a in row.get("args") or []):
            raise BindExprError("default", ItemNotFound("Invalid column: default"))


# --- date literals --------------------------------------------------------------------------------

_RFC3339_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def check_date_text(text: str) -> None:
    """RisingWave's text -> date (str_parse: trimmed, then speedate's RFC 3339 date)."""
    s = text.strip()
    m = _RFC3339_DATE.fullmatch(s)
    ok = False
    if m is not None:
        try:
            dt.date(int(m[1]), int(m[2]), int(m[3]))
            ok = True
        except ValueError:
            ok = False
    if not ok:
        raise ExprError(
            f"str_parse('{text}')",
            "Parse error: date Can't cast string to date (expected format is YYYY-MM-DD)",
        )


@register
def _date_literals(shape: tree.Shape, cols: Sequence[RelColumn] | None) -> None:
    for cast in nodes(shape, "TypeCast"):
        type_name = cast.get("typeName", {})
        if _names(type_name.get("names"))[-1:] == ["date"] and not type_name.get("arrayBounds"):
            text = _const_string(cast.get("arg"))
            if text is not None:
                check_date_text(text)
    for _, text in inserted_strings(shape, cols, (pgtypes.DATE,)):
        check_date_text(text)


def inserted_strings(
    shape: tree.Shape, cols: Sequence[RelColumn] | None, type_oids: tuple[int, ...]
) -> Iterator[tuple[RelColumn, str]]:
    """The string literals an ``INSERT ... VALUES`` gives columns of these types, with their
    column (a literal the column's type parses, where PostgreSQL's rules differ)."""
    info = shape.insert
    if cols is None or info is None or info.values_rows is None:
        return
    names = [c for c, _ in info.columns] or [c.name for c in cols if not c.hidden]
    by_name = {c.name: c for c in cols}
    for row in info.values_rows:
        for name, value in zip(names, row, strict=False):
            col = by_name.get(name)
            if col is None or col.type_oid not in type_oids:
                continue
            text = _const_string(value)
            if text is not None:
                yield col, text


# --- to_timestamp ------------------------------------------------------------------------------


@register
def _to_timestamp(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    from rwshim.dataplane.plan import chrono

    for call in nodes(shape, "FuncCall"):
        if _names(call.get("funcname"))[-1:] != ["to_timestamp"]:
            continue
        args = call.get("args") or []
        if len(args) != 2:
            continue
        text, pattern = _const_string(args[0]), _const_string(args[1])
        if text is None or pattern is None:
            continue
        err = chrono.scan(text, pattern)
        if err is not None:
            raise ExprError(f"char_to_timestamptz('{text}', '{pattern}')", f"Parse error: {err}")


# --- list dimensions ------------------------------------------------------------------------------


def _array_depth(node: Any) -> int:
    depth = 0
    while isinstance(node, dict) and "A_ArrayExpr" in node:
        depth += 1
        elements = node["A_ArrayExpr"].get("elements") or []
        node = next((e for e in elements if "A_ArrayExpr" in e), None)
        if node is None:
            break
    return depth


def _empty_array(node: Any) -> bool:
    """``ARRAY[]`` (down its first elements): it takes the type it is cast to, of any depth."""
    while isinstance(node, dict) and "A_ArrayExpr" in node:
        elements = node["A_ArrayExpr"].get("elements") or []
        if not elements:
            return True
        node = elements[0]
    return False


@register
def _list_dimensions(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    for cast in nodes(shape, "TypeCast"):
        bounds = cast.get("typeName", {}).get("arrayBounds") or []
        depth = _array_depth(cast.get("arg"))
        if not bounds or not depth or depth == len(bounds) or _empty_array(cast.get("arg")):
            continue
        base = _names(cast["typeName"].get("names"))[-1:]
        # RisingWave's name of the element type (pglast's names among rwtypes.SCALARS')
        elem = rwtypes.SCALARS.get(base[0], (0, base[0]))[1] if base else "?"
        source = _source_type(cast.get("arg"), depth)
        target = elem + "[]" * len(bounds)
        raise RwError(
            f'cannot cast type "{source}" to "{target}"',
            f'cannot cast type "{source[:-2]}" to "{target[:-2]}" in Explicit context',
            sqlstate="42846",
        )


def _source_type(node: Any, depth: int) -> str:
    """RisingWave's name of an ARRAY literal's type, as far as its first scalar element says
    (integer literals are integer, decimals numeric, strings character varying)."""
    inner = node
    while isinstance(inner, dict) and "A_ArrayExpr" in inner:
        elements = inner["A_ArrayExpr"].get("elements") or []
        inner = elements[0] if elements else None
    name = "integer"
    c = inner.get("A_Const", {}) if isinstance(inner, dict) else {}
    if "fval" in c:
        name = "numeric"
    elif "sval" in c:
        name = "character varying"
    elif "boolval" in c:
        name = "boolean"
    return name + "[]" * depth


class ProctimeOutsideDdl(UnknownFunction):
    """``proctime()`` in a query: RisingWave's binder allows it only when binding a CREATE
    TABLE / SOURCE (builtin_scalar.rs:896-904); the in-process binder has the whole text, with
    the root expression it is bound in."""

    sqlstate: ClassVar[str] = "XX000"

    def __init__(self) -> None:
        super().__init__("proctime")
        self.chain = [f"Invalid input syntax: {column_exprs.PROCTIME_ONLY_IN_DDL}"]


@register
def _proctime(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    for call in nodes(shape, "FuncCall"):
        names = _names(call.get("funcname"))
        if names and names[-1] == "proctime":
            raise ProctimeOutsideDdl()


class ReservedAlias(UnknownFunction):
    """A select-list alias RisingWave reserves; the in-process binder has the first error of
    the select list in RisingWave's order (an item before it may fail to bind first)."""

    sqlstate: ClassVar[str] = "XX000"

    def __init__(self, error: RwError) -> None:
        super().__init__("")
        self.chain = list(error.chain)


@register
def _reserved_aliases(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    """``expr AS <name>`` in a select list may not take a name RisingWave reserves
    (binder/select.rs:355, catalog/mod.rs check_column_name_not_reserved)."""
    selects = list(nodes(shape, "SelectStmt"))
    if shape.kind == "select":
        selects.append(shape.node)  # the statement itself (the unwrapped body)
    for select in selects:
        for target in select.get("targetList") or []:
            name = target.get("ResTarget", {}).get("name")
            if name is not None:
                try:
                    column_names.check_not_reserved(name)
                except RwError as e:
                    raise ReservedAlias(e) from None


@register
def _star_argument(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    """``f(*)``: the star binds as no argument at all (binder/expr/function/mod.rs:815), which
    only count takes; any other aggregate has no signature of no arguments (infer_type_name,
    expr/type_inference/func.rs:883-887: ``function f() does not exist``), under the
    expression's bind error."""
    for call in nodes(shape, "FuncCall"):
        names = _names(call.get("funcname"))
        if call.get("agg_star") and names and names[-1] != "count":
            raise BindExprError(f"{'.'.join(names)}(*)", NoFunction(f"{names[-1]}()"))


# checks of values PostgreSQL's types cannot hold (they register themselves)
from rwshim.dataplane.plan import (  # noqa: E402, F401
    decimal_literals,
    insert_values,
    item_binds,
    type_limits,
)
