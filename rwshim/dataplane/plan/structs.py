"""Structs on the data plane's text: where RisingWave's binder gives a ``ROW(...)`` a struct type
that PostgreSQL's anonymous record does not have.

- A comparison of a struct column with a row constructor holding another row constructor
  (``v = (1, (1, 3))``): RisingWave casts the row to the column's struct type to compare them
  (src/frontend/src/expr/type_inference/func.rs ``align_types`` over struct types, e2e_test/
  batch/types/struct/struct.slt.part); PostgreSQL compares a composite with a record field by
  field and refuses a composite field against a record one (``cannot compare dissimilar
  column types``).  The row is spliced as ``CAST(<row> AS <the column's composite>)``; the
  column's type is known when every relation of the statement having a column of that name
  agrees on it.
- ``ROW(...) = ROW(...)`` (and ``<>``): RisingWave compares two structs as values, a NULL field
  equal to a NULL field (``equal(struct, struct)``, src/expr/impl/src/scalar/cmp.rs over
  ``StructRef``'s ``PartialEq``, src/common/src/array/struct_array.rs:455-461); PostgreSQL
  compares two row constructors field by field in SQL's logic (a NULL field makes the answer
  NULL).  The operator is spliced as ``IS NOT DISTINCT FROM`` (``IS DISTINCT FROM``), which
  PostgreSQL expands field by field with RisingWave's answer (a struct column's comparisons
  are PostgreSQL's ``record_eq``, whose NULL fields are equal already).
- ``to_jsonb(ROW(a, b))``: RisingWave's to_jsonb of a struct is an object of its fields, each
  its own to_jsonb (src/expr/impl/src/scalar/to_jsonb.rs: ``StructRef::add_to``), an anonymous
  row's fields named ``f1``, ``f2``...; PostgreSQL's to_jsonb of a record writes the fields
  its own way (a float as ``0``, not RisingWave's ``0.0``).  The row is spliced as
  ``jsonb_build_object('f1', to_jsonb(a), ...)`` (rows within it likewise), so that each field
  goes through rwfn's to_jsonb (sqlfn/jsonb.py), which also takes a struct column's composite
  apart field by field.
- A field of a row constructor, ``(ROW(a, b)).f2``: RisingWave names an anonymous row's
  fields ``f1``, ``f2``, ... (binder/expr/mod.rs ``bind_row``: ``StructType::unnamed``, whose
  field names are ``f<i>``), PostgreSQL's record has no field names.  The field is spliced as
  the argument itself (its output name kept with ``AS f<i>`` when it is a whole select item);
  a field the row does not have is RisingWave's ``column "f3" not found in struct type``
  (binder/struct_field.rs:128-136).
- ``jsonb_agg((<expr>).*)``: RisingWave binds the fields of a struct expanded in jsonb_agg's
  argument as one row of them, under their names (binder/expr/function/mod.rs:869-913
  ``bind_jsonb_agg_arg``, ``wrap_wildcard_exprs_as_named_row``: an anonymous row's are
  ``f1``, ``f2``...), which is the struct itself; PostgreSQL refuses the expansion there (``row
  expansion via "*" is not supported here``).  The ``.*`` is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rwshim.binder.relations import Relation
from rwshim.common import rwtypes
from rwshim.dataplane.plan import tree, typemap
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.names import quote_ident
from rwshim.dataplane.plan.splice import SpliceError, Splicer, call_args, expr_end
from rwshim.errors import BindError, BindExprError

_COMPARISONS = frozenset({"=", "<>", "!=", "<", ">", "<=", ">="})
_FIELD = re.compile(rb"\s*\)\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)")
_UNNAMED = re.compile(r"f([1-9][0-9]*)")


def struct_columns(relations: Iterable[Relation]) -> dict[str, str | None]:
    """Column name -> the PostgreSQL composite of its struct type (None: not one type)."""
    out: dict[str, str | None] = {}
    for rel in relations:
        for c in rel.columns:
            pg: str | None = None
            if c.rw_type.lower().startswith("struct<"):
                try:
                    pg = typemap.pg_type(rwtypes.parse(c.rw_type))
                except (rwtypes.TypeSyntaxError, ValueError):
                    pg = None
            if c.name in out and out[c.name] != pg:
                out[c.name] = None
            else:
                out.setdefault(c.name, pg)
    return out


def splice(shape: tree.Shape, sp: Splicer, relations: Iterable[Relation]) -> None:
    if "jsonb_agg" in shape.func_names:
        _jsonb_agg_stars(shape, sp)
    rows = nodes(shape, "RowExpr")
    if not rows:
        return
    _row_fields(shape, sp)
    if "to_jsonb" in shape.func_names:
        _to_jsonb_rows(shape, sp)
    columns: dict[str, str | None] | None = None
    for expr in nodes(shape, "A_Expr"):
        if expr.get("kind") not in ("AEXPR_OP", "AEXPR_DISTINCT", "AEXPR_NOT_DISTINCT"):
            continue
        op = [n.get("String", {}).get("sval") for n in expr.get("name") or []]
        if op[-1:] and op[-1] not in _COMPARISONS:
            continue
        if _row_equality(shape.text, expr, op[-1] if op else "", sp):
            continue
        sides = (expr.get("lexpr"), expr.get("rexpr"))
        for col, row in (sides, sides[::-1]):
            if not (isinstance(row, dict) and "RowExpr" in row and isinstance(col, dict)):
                continue
            if not any("RowExpr" in a for a in row["RowExpr"].get("args") or []):
                continue  # PostgreSQL compares a composite with a flat record itself
            fields = col.get("ColumnRef", {}).get("fields") or []
            name = fields[-1].get("String", {}).get("sval") if fields else None
            if name is None:
                continue
            if columns is None:
                columns = struct_columns(relations)
            pg = columns.get(name)
            if pg is None:
                continue
            at = row["RowExpr"].get("location", -1)
            end, _ = call_args(shape.text, at)
            sp.insert(at, "CAST(")
            sp.insert(end, f" AS {pg})")


def _jsonb_agg_stars(shape: tree.Shape, sp: Splicer) -> None:
    """``jsonb_agg((<expr>).* ...)`` as ``jsonb_agg((<expr>) ...)`` (module docstring)."""
    text = shape.text
    for call in nodes(shape, "FuncCall"):
        names = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
        args = call.get("args") or []
        if names[-1:] != ["jsonb_agg"] or names[:-1] not in ([], ["pg_catalog"]):
            continue
        ind = args[0].get("A_Indirection") if len(args) == 1 else None
        if not ind or [list(i) for i in ind.get("indirection") or []] != [["A_Star"]]:
            continue
        at = text.find(b"(", call.get("location", -1)) + 1
        while text[at : at + 1].isspace():
            at += 1
        if text[at : at + 1] != b"(":
            raise SpliceError(f"no parenthesized expression at {at}")
        end, _ = call_args(text, at)
        star = re.match(rb"\s*\.\s*\*", text[end:])
        if star is None:
            raise SpliceError(f"no .* at {end}")
        sp.replace(end, end + star.end(), "")


def _to_jsonb_rows(shape: tree.Shape, sp: Splicer) -> None:
    for call in nodes(shape, "FuncCall"):
        names = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
        args = call.get("args") or []
        if names[-1:] != ["to_jsonb"] or names[:-1] not in ([], ["pg_catalog"]):
            continue
        if len(args) == 1 and "RowExpr" in args[0]:
            _row_object(shape.text, args[0]["RowExpr"], sp)


def _row_object(text: bytes, row: dict[str, object], sp: Splicer) -> None:
    """``ROW(a, b)`` (an argument of to_jsonb) as ``jsonb_build_object('f1', to_jsonb(a),
    'f2', to_jsonb(b))``: the row's opening replaced, each field wrapped (a string or NULL
    literal cast to varchar, the type RisingWave gives it)."""
    at = row.get("location", -1)
    args = row.get("args") or []
    if not isinstance(at, int) or not isinstance(args, list):
        raise SpliceError("no row")
    spans = field_spans(text, at)
    if len(spans) != len(args):
        raise SpliceError(f"no row of {len(args)} fields at {at}")
    opening = text.find(b"(", at)
    sp.replace(at, opening + 1, "pg_catalog.jsonb_build_object(")
    for i, ((start, stop), a) in enumerate(zip(spans, args, strict=True)):
        literal = isinstance(a, dict) and "A_Const" in a and "ival" not in a["A_Const"]
        literal = literal and "fval" not in a["A_Const"] and "boolval" not in a["A_Const"]
        sp.insert(start, f"'f{i + 1}', to_jsonb(" + ("CAST(" if literal else ""))
        sp.insert(stop, (" AS varchar)" if literal else "") + ")")
        if isinstance(a, dict) and "RowExpr" in a:
            _row_object(text, a["RowExpr"], sp)


def field_spans(text: bytes, at: int) -> list[tuple[int, int]]:
    """The spans of a row constructor's fields (brackets and parentheses within them kept)."""
    pos = text.find(b"(", at) + 1
    if pos <= 0:
        raise SpliceError(f"no row at {at}")
    out: list[tuple[int, int]] = []
    while True:
        while text[pos : pos + 1].isspace():
            pos += 1
        if text[pos : pos + 1] == b")":
            if out:
                raise SpliceError(f"a row's field is missing at {pos}")
            return out
        stop = expr_end(text, pos)
        out.append((pos, stop))
        after = stop
        while text[after : after + 1].isspace():
            after += 1
        if text[after : after + 1] == b")":
            return out
        pos = after + 1


def _row_equality(text: bytes, expr: dict[str, object], op: str, sp: Splicer) -> bool:
    lexpr, rexpr = expr.get("lexpr"), expr.get("rexpr")
    if expr.get("kind") != "AEXPR_OP" or op not in ("=", "<>", "!="):
        return False
    if not (isinstance(lexpr, dict) and "RowExpr" in lexpr):
        return False
    if not (isinstance(rexpr, dict) and "RowExpr" in rexpr):
        return False
    at = expr.get("location", -1)
    written = text[at : at + 2] if isinstance(at, int) else b""
    width = 1 if op == "=" else 2  # ``<>`` is also written ``!=``
    if (op == "=" and written[:1] != b"=") or (op != "=" and written not in (b"<>", b"!=")):
        raise SpliceError(f"no operator {op} at {at}")
    assert isinstance(at, int)
    sp.replace(at, at + width, " IS NOT DISTINCT FROM " if op == "=" else " IS DISTINCT FROM ")
    return True


def _row_fields(shape: tree.Shape, sp: Splicer) -> None:
    text = shape.text
    # the select items that are a field of something: (its A_Indirection) -> the item
    items = {
        id(t["val"]["A_Indirection"]): t
        for level in shape.levels
        for t in level.targets
        if isinstance(t.get("val"), dict) and "A_Indirection" in t["val"]
    }
    for ind in nodes(shape, "A_Indirection"):
        row = ind.get("arg", {}).get("RowExpr")
        steps = ind.get("indirection") or []
        if row is None or len(steps) != 1 or "String" not in steps[0]:
            continue
        field = steps[0]["String"].get("sval", "")
        at = row.get("location", -1)
        end, spans = call_args(text, at)
        open_at = text.rfind(b"(", 0, at)
        m = _FIELD.match(text, end)
        if open_at < 0 or text[open_at + 1 : at].strip() or m is None:
            raise SpliceError(f"no field of a row at {at}")
        found = _UNNAMED.fullmatch(field)
        index = int(found.group(1)) - 1 if found else -1
        if not 0 <= index < len(spans):
            shown = _shown(text[open_at : m.end()].decode())
            raise BindExprError(shown, BindError(f'column "{field}" not found in struct type'))
        start, stop = spans[index]
        sp.replace(open_at, start, "(")
        sp.replace(stop, m.end(), ")")
        item = items.get(id(ind))
        if item is not None and not item.get("name"):
            sp.insert(m.end(), f" AS {quote_ident(field)}")


def _shown(expr: str) -> str:
    """The expression as RisingWave's Display prints it."""
    from rwshim.sql import unparse

    try:
        return unparse.print_query(f"SELECT {expr}").removeprefix("SELECT ")
    except unparse.UnparseError:
        return expr
