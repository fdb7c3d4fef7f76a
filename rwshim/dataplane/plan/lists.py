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
  (with a slice among them, every one is a slice).  The two agree only when the subscripts are
  one slice, or one index per level; any other subscripts of a list of known depth are refused
  (PostgreSQL answers ``v[1]`` of a two-level list with NULL).
- ``@>`` / ``<@`` / ``&&`` with a side of known depth above one are refused: RisingWave's
  (array_contain.rs) compare the inner lists, PostgreSQL's the innermost elements.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rwshim.binder.relations import Relation
from rwshim.common import rwtypes
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA
from rwshim.dataplane.plan.splice import Splicer, call_args
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
    for ind in indirections:
        _check_subscripts(shape.text, ind, columns)
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


def _check_subscripts(text: bytes, ind: dict[str, Any], columns: Depths) -> None:
    subscripts = []
    for step in ind.get("indirection") or []:
        if "A_Indices" not in step:
            break  # a field of the element: the subscripts before it are checked
        subscripts.append(step["A_Indices"])
    if not subscripts:
        return
    depth = static_depth(ind.get("arg"), columns)
    if depth is None:
        return
    slices = [s.get("is_slice", False) for s in subscripts]
    if len(subscripts) == 1 and slices[0]:
        return
    if not any(slices) and len(subscripts) == depth:
        return
    written = "".join(_subscript_text(text, s) for s in subscripts)
    raise RwError(SUBSCRIPTS_REFUSED.format(depth=depth, written=written), sqlstate="0A000")


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
