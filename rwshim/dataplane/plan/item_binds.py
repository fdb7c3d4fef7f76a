"""Binder errors of a select-list item that PostgreSQL would word as its own, raised under the
item's bind error as RisingWave's binder raises them (binder/expr/mod.rs:57-64 bind_expr: the
item as RisingWave's parser prints it).  Other positions are left to PostgreSQL.

- An ``ARRAY[]`` not directly cast has no type (value.rs:118-122 bind_array: ``Bind error:
  cannot determine type of empty array`` with its hint; ``ARRAY[]::t[]`` binds as a cast).
- A list slice's bounds bind as ``integer`` in an implicit cast (src/frontend/src/binder/expr/
value.rs:242-270 ``bind_array_range_index``: ``cast_implicit(&DataType::Int32)``), so a bound
literal past ``integer`` (a ``bigint`` one, or a ``numeric`` one past ``bigint`` or with a
fraction: bind_number, value.rs:57-89) is ``cannot cast type "bigint" to "integer" in
Implicit context`` (type_inference/cast.rs:155-172), where PostgreSQL would report its
subscript's integer overflow.

The check registers with ``checks.register`` (imported by ``checks`` itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rwshim.binder.relations import RelColumn
from rwshim.dataplane.plan import checks, tree
from rwshim.errors import BindError, BindExprError, CastError, RwError

_I32 = 2**31
_I64 = 2**63


def bound_type(fval: str) -> str | None:
    """RisingWave's type of a number literal PostgreSQL read as a float constant, when it is
    not ``integer``."""
    try:
        v = int(fval)
    except ValueError:
        return "numeric"
    if -_I32 <= v < _I32:
        return None
    return "bigint" if -_I64 <= v < _I64 else "numeric"


_EMPTY_ARRAY = (
    "cannot determine type of empty array\nHINT:  Explicitly cast to the desired type, for "
    "example ARRAY[]::integer[]."
)


def _untyped_empty_array(node: Any) -> bool:
    return any(not a.get("elements") and _bare(node, a) for a in checks.walk(node, "A_ArrayExpr"))


def _bare(node: Any, array: Any) -> bool:
    """``array`` is not the direct argument of a cast anywhere in ``node``."""
    return not any(
        (c.get("arg") or {}).get("A_ArrayExpr") is array for c in checks.walk(node, "TypeCast")
    )


def _item_error(node: Any) -> RwError | None:
    if any(True for _ in checks.walk(node, "SubLink")):
        return None  # a subquery's items bind under their own root (left to PostgreSQL)
    if _untyped_empty_array(node):
        return BindError(_EMPTY_ARRAY)
    t = _wide_bound(node)
    if t is not None:
        return CastError(f'cannot cast type "{t}" to "integer" in Implicit context')
    return None


def _wide_bound(node: Any) -> str | None:
    for ind in checks.walk(node, "A_Indices"):
        if not ind.get("is_slice"):
            continue
        for side in ("lidx", "uidx"):
            fval = ((ind.get(side) or {}).get("A_Const") or {}).get("fval")
            if isinstance(fval, dict):
                t = bound_type(str(fval.get("fval", "")))
                if t is not None:
                    return t
    return None


def _item_text(text: str, index: int) -> str | None:
    """The select list's ``index``-th item as RisingWave prints it, None if unknown here."""
    from rwshim.sql.unparse import nodes as n
    from rwshim.sql.unparse.cursor import UnparseError
    from rwshim.sql.unparse.display import expr
    from rwshim.sql.unparse.query import parse_query

    try:
        body = parse_query(text.rstrip().rstrip(";")).body
    except UnparseError:
        return None
    if not isinstance(body, n.Select) or index >= len(body.projection):
        return None
    item = body.projection[index].expr
    return None if isinstance(item, n.Wildcard) else expr(item)


@checks.register
def _select_items(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    if shape.kind != "select":
        return
    for i, target in enumerate(shape.node.get("targetList") or []):
        error = _item_error(target)
        if error is None:
            continue
        shown = _item_text(shape.text.decode(), i)
        if shown is None:
            return
        raise BindExprError(shown, error)
