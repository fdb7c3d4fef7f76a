"""An ``INSERT ... VALUES`` list literal of NULLs only: RisingWave types ``ARRAY[NULL, ...]`` as
``character varying[]`` (binder/expr/value.rs:118-140 bind_array: all-unknown elements align
to varchar), which an assignment cast takes to no other list type (binder/insert.rs:397-423
cast_on_insert: ``cannot cast type "character varying[]" to "<column type>"`` over the
element's ``... in Assign context``, under ``failed to cast the <n>th column`` when the row
has more than one value);
PostgreSQL types it ``text[]`` and words the mismatch as its own.

The check registers with ``checks.register`` (imported by ``checks`` itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rwshim.binder.relations import RelColumn
from rwshim.dataplane.plan import checks, tree
from rwshim.errors import CastError, RwError

_VARCHAR_LIST = "character varying[]"


def ordinal(i: int) -> str:
    """src/frontend/src/utils/mod.rs:213-225."""
    s = str(i)
    if s.endswith("1") and not s.endswith("11"):
        return s + "st"
    if s.endswith("2") and not s.endswith("12"):
        return s + "nd"
    if s.endswith("3") and not s.endswith("13"):
        return s + "rd"
    return s + "th"


def _nulls_only(value: Any) -> bool:
    arr = value.get("A_ArrayExpr") if isinstance(value, dict) else None
    elements = (arr or {}).get("elements") or []
    return bool(elements) and all((e.get("A_Const") or {}).get("isnull") for e in elements)


@checks.register
def _null_lists(shape: tree.Shape, cols: Sequence[RelColumn] | None) -> None:
    info = shape.insert
    if cols is None or info is None or info.values_rows is None:
        return
    names = [c for c, _ in info.columns] or [c.name for c in cols if not c.hidden]
    by_name = {c.name: c for c in cols}
    for row in info.values_rows:
        for i, (name, value) in enumerate(zip(names, row, strict=False)):
            col = by_name.get(name)
            if col is None or not col.rw_type.endswith("[]") or col.rw_type == _VARCHAR_LIST:
                continue
            if not _nulls_only(value):
                continue
            # cast_array casts the elements (type_inference/cast.rs:234-238): the list's
            # message over the element's, which alone names the context (:155-172)
            error = CastError(
                f'cannot cast type "{_VARCHAR_LIST}" to "{col.rw_type}"',
                f'cannot cast type "character varying" to "{col.rw_type[:-2]}" in Assign context',
            )
            if len(row) > 1:
                raise RwError(f"failed to cast the {ordinal(i + 1)} column", *error.chain)
            raise error
