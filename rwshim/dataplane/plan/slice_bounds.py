"""A list slice's bounds bind as ``integer`` in an implicit cast (src/frontend/src/binder/expr/
value.rs:242-270 ``bind_array_range_index``: ``cast_implicit(&DataType::Int32)``), so a bound
literal past ``integer`` (a ``bigint`` one, or a ``numeric`` one past ``bigint`` or with a
fraction: bind_number, value.rs:57-89) is ``cannot cast type "bigint" to "integer" in
Implicit context`` (type_inference/cast.rs:155-172) under the select item's bind error
(binder/expr/mod.rs:57-64, the item as RisingWave's parser prints it).  PostgreSQL would
report its subscript's integer overflow instead.  Literal bounds of select-list items are
checked here; other bounds are PostgreSQL's.

The check registers with ``checks.register`` (imported by ``checks`` itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rwshim.binder.relations import RelColumn
from rwshim.dataplane.plan import checks, tree
from rwshim.errors import BindExprError, CastError

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


def _wide_bound(node: Any) -> str | None:
    for ind in checks.walk(node, "A_Indices"):
        if not ind.get("is_slice"):
            continue
        for side in ("lidx", "uidx"):
            fval = ((ind.get(side) or {}).get("A_Const") or {}).get("fval")
            if isinstance(fval, dict):
                checks.constant_reads += 1
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
def _slice_bounds(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    if shape.kind != "select":
        return
    for i, target in enumerate(shape.node.get("targetList") or []):
        t = _wide_bound(target)
        if t is None:
            continue
        shown = _item_text(shape.text.decode(), i)
        if shown is None:
            return
        raise BindExprError(
            shown, CastError(f'cannot cast type "{t}" to "integer" in Implicit context')
        )
