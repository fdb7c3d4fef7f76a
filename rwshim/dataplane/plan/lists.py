"""Lists of lists on the data plane's text: what the text says about a list's depth, which
PostgreSQL's arrays do not keep in their type (``int[][]`` is ``int[]`` there).

``array_ndims(a)`` is bound by RisingWave as the depth of ``a``'s type, a constant
(src/frontend/src/binder/expr/function/builtin_scalar.rs "array_ndims"): where the argument is
a cast to a list type or an ``ARRAY[...]`` literal, the call becomes rwfn's
``array_ndims(a, depth)`` (its output name kept; the guard's arity check reads the user's
one-argument call, and a call qualified ``rwfn.`` is the rewriter's); other
arguments are left to rwfn's ``array_ndims(a)``, which reads the value's dimensions
(dataplane/plan/sqlfn/arrays.py).
"""

from __future__ import annotations

from typing import Any

from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA
from rwshim.dataplane.plan.splice import Splicer, call_args


def static_depth(node: Any) -> int | None:
    """The list depth of an expression as its text gives it: a cast to ``T[]...[]``, or an
    ``ARRAY[...]`` literal (its nesting down its first elements); None when the text does not
    say."""
    if not isinstance(node, dict):
        return None
    if "TypeCast" in node:
        bounds = node["TypeCast"].get("typeName", {}).get("arrayBounds") or []
        return len(bounds) or None
    depth = 0
    while isinstance(node, dict) and "A_ArrayExpr" in node:
        depth += 1
        elements = node["A_ArrayExpr"].get("elements") or []
        if not elements:
            return None  # ARRAY[] has the type its context gives it
        node = elements[0]
    return depth or None


def splice_array_ndims(shape: tree.Shape, sp: Splicer) -> None:
    if "array_ndims" not in shape.func_names:
        return
    for call in nodes(shape, "FuncCall"):
        names = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
        if names[-1:] != ["array_ndims"] or names[:-1] not in ([], ["pg_catalog"]):
            continue
        args = call.get("args") or []
        if len(args) != 1 or call.get("func_variadic"):
            continue
        depth = static_depth(args[0])
        if depth is None:
            continue
        at = call.get("location", -1)
        end, _ = call_args(shape.text, at)
        if not names[:-1]:  # (``pg_catalog.`` is spliced to ``rwfn.``: functions.OVERRIDES)
            sp.insert(at, f"{FUNCTION_SCHEMA}.")
        sp.insert(end - 1, f", {depth}")
