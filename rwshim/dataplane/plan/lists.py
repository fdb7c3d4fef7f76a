"""Lists of lists on the data plane's text: what the text says about a list's depth, which
PostgreSQL's arrays do not keep in their type (``int[][]`` is ``int[]`` there, and a value
carries its dimensions).

A depth is known from the text for a cast to ``T[]...[]``, an ``ARRAY[...]`` literal (down its
first elements) and a column of the statement's relations whose catalog type is a list (when
every relation of the statement having a column of that name agrees on its depth).

- ``array_ndims(a)`` is bound by RisingWave as the depth of ``a``'s type, a constant
  (src/frontend/src/binder/expr/function/builtin_scalar.rs "array_ndims"); ``pg_typeof(a)`` is
  the type's name (builtin_scalar.rs "pg_typeof": ``integer[][]``).  With a known depth the call
  becomes rwfn's ``array_ndims(a, depth)`` / ``pg_typeof(a, depth)`` (its output name kept;
  the guard's arity check reads the user's one-argument call, and a call qualified ``rwfn.``
  is the rewriter's); ``array_ndims`` of an unknown depth is left to rwfn's
  ``array_ndims(a)``, which reads the value's dimensions (dataplane/plan/sqlfn/arrays.py).
- Subscripts: RisingWave applies ``a[i][j]`` one after the other, each to the list the one
  before gave (binder/expr/subscript.rs: ``a[i]`` of a list of lists is a list, a slice
  ``a[i:j]`` a list of the same type); PostgreSQL applies them together, one per dimension
  (with a slice among them, every one is a slice; ``v[1]`` of a two-level list is NULL).  The
  two agree when the subscripts are one slice, or one index per level; other subscripts of a
  list of known depth are spliced one step at a time: a slice as ``(a)[i:j]``, an index of a
  list of lists as ``rwfn.rw_sub(a, i)`` (sqlfn/arrays.py: the inner list), the last index of a
  list of scalars as ``(a)[i]``; where the text does not give the subscripts' brackets, and
  for a subscript of a scalar, refused.
- ``@>`` / ``<@`` / ``&&`` with a side of known depth above one are refused: RisingWave's
  (array_contain.rs) compare the inner lists, PostgreSQL's the innermost elements.
- An ``ARRAY[...]`` literal whose elements are all string literals (or NULL) is a list of
  varchar in RisingWave (binder/expr/value.rs:119-132 ``bind_array``: ``align_types`` of
  unknown literals is varchar), PostgreSQL's a ``text[]``, which its ``=`` does not compare
  with a ``varchar[]`` column (``operator does not exist: character varying[] = text[]``): it
  is spliced as ``(ARRAY[...]::varchar[])``.  Not under a cast (``ARRAY['1']::int[]`` casts
  each literal, value.rs:166-183 ``bind_array_cast``) nor as an INSERT's VALUES item (rwshim
  leaves those to the target column's type), nor in a text that reads no relation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rwshim.binder.relations import Relation
from rwshim.common import rwtypes
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.figure import figure_name
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA, quote_ident
from rwshim.dataplane.plan.splice import SpliceError, Splicer, bracket_end, call_args
from rwshim.errors import RwError

SUBSCRIPTS_REFUSED = (
    "not supported by rwshim: the subscripts {written} of a list of depth {depth}: RisingWave "
    "applies each subscript to the list the one before gave, the data plane's PostgreSQL "
    "arrays apply them one per dimension"
)

OPERATOR_REFUSED = (
    "not supported by rwshim: {op} of a list of lists (the data plane keeps lists of lists as "
    "PostgreSQL's multidimensional arrays, whose functions see the innermost elements)"
)

Depths = dict[str, int | None]  # column name -> its list depth (None: not one depth)


def type_depth(rw_type: str) -> int:
    """How many list levels a catalog type has (0: not a list)."""
    if "[" not in rw_type:
        return 0
    try:
        t: rwtypes.RwType | None = rwtypes.parse(rw_type)
    except (rwtypes.TypeSyntaxError, ValueError):
        return 0
    depth = 0
    while t is not None and t.kind == "list":
        depth += 1
        t = t.elem
    return depth


def column_depths(relations: Iterable[Relation]) -> Depths:
    out: Depths = {}
    for rel in relations:
        for c in rel.columns:
            d = type_depth(c.rw_type) or None
            if c.name in out and out[c.name] != d:
                out[c.name] = None
            else:
                out.setdefault(c.name, d)
    return out


def static_depth(node: Any, columns: Depths | None = None) -> int | None:
    """The list depth of an expression as the text gives it, None when it does not say."""
    if not isinstance(node, dict):
        return None
    if "TypeCast" in node:
        bounds = node["TypeCast"].get("typeName", {}).get("arrayBounds") or []
        return len(bounds) or None
    if "ColumnRef" in node:
        fields = node["ColumnRef"].get("fields") or []
        last = fields[-1].get("String", {}).get("sval") if fields else None
        return None if columns is None or last is None else columns.get(last)
    depth = 0
    while isinstance(node, dict) and "A_ArrayExpr" in node:
        depth += 1
        elements = node["A_ArrayExpr"].get("elements") or []
        if not elements:
            return None  # ARRAY[] has the type its context gives it
        node = elements[0]
    return depth or None


def splice(shape: tree.Shape, sp: Splicer, relations: Iterable[Relation]) -> None:
    """The rewrites and refusals above, on one statement."""
    splice_string_arrays(shape, sp)
    wanted = {"array_ndims", "pg_typeof"} & shape.func_names
    indirections = nodes(shape, "A_Indirection")
    operators = [
        e
        for e in nodes(shape, "A_Expr")
        if e.get("kind") == "AEXPR_OP"
        and [n.get("String", {}).get("sval") for n in e.get("name") or []][-1:]
        in (["@>"], ["<@"], ["&&"])
    ]
    if not wanted and not indirections and not operators:
        return
    columns = column_depths(relations)
    # the select items that are a subscript: their output name is kept (select.rs
    # derive_alias: an index's name is its base's, as PostgreSQL's FigureColname)
    items = {
        id(t["val"]["A_Indirection"]): t
        for level in shape.levels
        for t in level.targets
        if isinstance(t.get("val"), dict) and "A_Indirection" in t["val"] and not t.get("name")
    }
    for ind in indirections:
        end = _subscripts(shape.text, ind, columns, sp)
        item = items.get(id(ind))
        if end is not None and item is not None:
            sp.insert(end, f" AS {quote_ident(figure_name(item['val']))}")
    for e in operators:
        sides = (static_depth(e.get("lexpr"), columns), static_depth(e.get("rexpr"), columns))
        if any(d is not None and d > 1 for d in sides):
            op = e["name"][-1]["String"]["sval"]
            raise RwError(OPERATOR_REFUSED.format(op=op), sqlstate="0A000")
    for call in nodes(shape, "FuncCall") if wanted else ():
        names = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
        if names[-1:] not in (["array_ndims"], ["pg_typeof"]):
            continue
        if names[:-1] not in ([], ["pg_catalog"]):
            continue
        args = call.get("args") or []
        if len(args) != 1 or call.get("func_variadic"):
            continue
        depth = static_depth(args[0], columns)
        if depth is None or (names[-1] == "pg_typeof" and depth < 2):
            continue
        at = call.get("location", -1)
        end, _ = call_args(shape.text, at)
        if not names[:-1]:
            sp.insert(at, f"{FUNCTION_SCHEMA}.")
        elif names[-1] == "pg_typeof":  # (not one of functions.OVERRIDES)
            continue
        sp.insert(end - 1, f", {depth}")


def _string_leaves(node: Any) -> int | None:
    """The depth of an ARRAY literal whose leaves are all string literals or NULL (at least
    one string), else None."""
    depth, level, strings = 0, [node], False
    while level and all(isinstance(n, dict) and "A_ArrayExpr" in n for n in level):
        depth += 1
        level = [e for n in level for e in n["A_ArrayExpr"].get("elements") or []]
    for leaf in level:
        c = leaf.get("A_Const") if isinstance(leaf, dict) else None
        if c is None or not ("sval" in c or c.get("isnull")):
            return None
        strings = strings or "sval" in c
    return depth if strings else None


def splice_string_arrays(shape: tree.Shape, sp: Splicer) -> None:
    """``ARRAY['a', ...]`` typed as RisingWave types it (module docstring)."""
    arrays = nodes(shape, "A_ArrayExpr")
    if not arrays or not shape.relation_refs:
        # (a text over no relation runs as written: nothing it compares is a varchar[] column)
        return
    inner = {id(e.get("A_ArrayExpr")) for a in arrays for e in a.get("elements") or []}
    inner |= {id(c.get("arg", {}).get("A_ArrayExpr")) for c in nodes(shape, "TypeCast")}
    info = shape.insert
    for row in (info.values_rows or []) if info is not None else []:
        inner |= {id(v.get("A_ArrayExpr")) for v in row if isinstance(v, dict)}
    for a in arrays:
        if id(a) in inner:
            continue
        depth = _string_leaves({"A_ArrayExpr": a})
        start = a.get("location", -1)
        if depth is None or start < 0:
            continue
        try:
            end = bracket_end(shape.text, start)
        except SpliceError:
            continue
        sp.insert(start, "(")
        sp.insert(end, "::varchar" + "[]" * depth + ")")


def _subscripts(text: bytes, ind: dict[str, Any], columns: Depths, sp: Splicer) -> int | None:
    """Splice the subscripts of one indirection; where its text ends when it was spliced and
    ends with them (None: left as it is)."""
    subscripts = []
    steps_all = ind.get("indirection") or []
    for step in steps_all:
        if "A_Indices" not in step:
            break  # a field of the element: the subscripts before it are checked
        subscripts.append(step["A_Indices"])
    if not subscripts:
        return None
    depth = static_depth(ind.get("arg"), columns)
    if depth is None:
        return None
    slices = [s.get("is_slice", False) for s in subscripts]
    if len(subscripts) == 1 and slices[0]:
        return None
    if not any(slices) and len(subscripts) == depth:
        return None
    written = "".join(_subscript_text(text, s) for s in subscripts)
    refused = RwError(SUBSCRIPTS_REFUSED.format(depth=depth, written=written), sqlstate="0A000")
    # one step at a time, as RisingWave: a slice keeps the depth, an index of a list of lists
    # is rwfn.rw_sub's inner list, an index of a list of scalars its element (the last step)
    steps: list[tuple[str, str, str]] = []  # (prefix, for "[", for "]")
    level = depth
    for n, is_slice in enumerate(slices):
        if is_slice:
            steps.append(("(", ")[", "]"))
        elif level > 1:
            steps.append((f"{FUNCTION_SCHEMA}.rw_sub(", ", ", ")"))
            level -= 1
        elif n == len(slices) - 1:
            steps.append(("(", ")[", "]"))
        else:
            raise refused  # a subscript of a scalar: RisingWave's binder refuses it
    brackets = [_brackets(text, s) for s in subscripts]
    if any(b is None for b in brackets):
        raise refused
    start = _start(text, ind.get("arg"), brackets[0][0])  # type: ignore[index]
    if start is None:
        raise refused
    sp.insert(start, "".join(prefix for prefix, _, _ in reversed(steps)))
    for (_, opening, closing), span in zip(steps, brackets, strict=True):
        assert span is not None
        sp.replace(span[0], span[0] + 1, opening)
        sp.replace(span[1], span[1] + 1, closing)
    last = brackets[-1]
    assert last is not None
    return last[1] + 1 if len(steps_all) == len(subscripts) else None


def _leftmost(node: Any) -> int:
    """Where an expression's text starts, as far as its tree says (-1: unknown)."""
    if not isinstance(node, dict) or not node:
        return -1
    kind, inner = next(iter(node.items()))
    if not isinstance(inner, dict):
        return -1
    if kind in ("A_Expr",) and inner.get("lexpr") is not None:
        return _leftmost(inner["lexpr"])
    if kind == "TypeCast":
        return _leftmost(inner.get("arg"))
    loc = inner.get("location", -1)
    return loc if isinstance(loc, int) else -1


def _skip_back(text: bytes, pos: int) -> int:
    """The position of the last non-space character before ``pos`` (-1: none)."""
    pos -= 1
    while pos >= 0 and text[pos : pos + 1].isspace():
        pos -= 1
    return pos


def _brackets(text: bytes, sub: dict[str, Any]) -> tuple[int, int] | None:
    """The positions of a subscript's ``[`` and ``]``."""
    bounds = [b for b in (sub.get("lidx"), sub.get("uidx")) if b is not None]
    at = _leftmost(bounds[0]) if bounds else -1
    if at < 0:
        return None
    opening = _skip_back(text, at)
    if text[opening : opening + 1] != b"[":
        return None
    depth, i = 0, opening
    while i < len(text):
        c = text[i : i + 1]
        if c == b"'":
            i = text.find(b"'", i + 1)
            if i < 0:
                return None
        elif c in (b"[", b"("):
            depth += 1
        elif c in (b"]", b")"):
            depth -= 1
            if depth == 0:
                return (opening, i) if c == b"]" else None
        i += 1
    return None


def _start(text: bytes, arg: Any, first_bracket: int) -> int | None:
    """Where the subscripted expression starts: its leftmost token, or the parenthesis
    around it."""
    start = _leftmost(arg)
    if start < 0:
        return None
    end = _skip_back(text, first_bracket)
    while True:
        before = _skip_back(text, start)
        if before < 0 or text[before : before + 1] != b"(" or text[end : end + 1] != b")":
            return start
        start, end = before, _skip_back(text, end)


def _subscript_text(text: bytes, s: dict[str, Any]) -> str:
    def bound(node: Any) -> str:
        if not isinstance(node, dict):
            return ""
        c = node.get("A_Const", {})
        if "ival" in c:
            return str(c["ival"].get("ival", 0))
        return "…"

    if s.get("is_slice"):
        return f"[{bound(s.get('lidx'))}:{bound(s.get('uidx'))}]"
    return f"[{bound(s.get('uidx'))}]"
