"""The cast ``serial -> timestamptz`` (a row id's time) on the data plane (no I/O).

RisingWave's ``serial`` (the hidden ``_row_id``, a changelog CTE's ``_changelog_row_id``, and
the columns of views that select them) casts explicitly to ``timestamptz``, the time its row
id carries (src/expr/impl/src/scalar/cast.rs:167-172 ``serial_to_timestamptz``; the cast
table, src/frontend/src/expr/type_inference/cast.rs:342, row G).  On PostgreSQL a serial is a
``bigint``, which does not cast to a timestamp: a cast to ``timestamptz`` of a column reference
that names a serial column of the statement's relations is spliced as
``rwfn.serial_to_timestamptz(col)::timestamptz`` (dataplane/plan/row_ids.py).  Differs: a
view's column that selects a row id under another name is a bigint here.  Where the name
is a serial in one relation and another type in another, it is left to PostgreSQL (which
refuses a bigint, as RisingWave refuses an int8).
"""

from __future__ import annotations

from collections.abc import Iterable

from rwshim.binder.relations import Relation, RelColumn
from rwshim.binder.resolve import CHANGELOG_ROW_ID
from rwshim.common import pgtypes
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA
from rwshim.dataplane.plan.splice import Splicer, name_end
from rwshim.sql.column_names import ROW_ID_COLUMN_NAME

_TIMESTAMPTZ = (["pg_catalog", "timestamptz"], ["timestamptz"])


def _names(items: object) -> list[str]:
    out: list[str] = []
    for n in items if isinstance(items, list) else []:
        s = n.get("String", {}).get("sval") if isinstance(n, dict) else None
        if s is None:
            return []
        out.append(s)
    return out


def _serial(c: RelColumn) -> bool:
    """A serial column: a table's ``_row_id``, or a view's column under a name only a row id
    can have (``_row_id...`` is reserved, checks.py; ``_changelog_row_id`` is the changelog
    CTE's) -- rwshim's binder types a view's columns without ``serial``."""
    if c.rw_type == "serial":
        return True
    return c.type_oid == pgtypes.INT8 and (
        c.name == CHANGELOG_ROW_ID or c.name.startswith(ROW_ID_COLUMN_NAME)
    )


def serial_columns(relations: Iterable[Relation]) -> set[str]:
    """The column names that are serial in every relation having them."""
    serial: set[str] = set()
    other: set[str] = set()
    for rel in relations:
        for c in rel.columns:
            (serial if _serial(c) else other).add(c.name)
    return serial - other


def splice(shape: tree.Shape, sp: Splicer, relations: Iterable[Relation]) -> None:
    cols = serial_columns(relations)
    if not cols:
        return
    for cast in nodes(shape, "TypeCast"):
        type_name = cast.get("typeName", {})
        if _names(type_name.get("names")) not in _TIMESTAMPTZ or type_name.get("arrayBounds"):
            continue
        ref = cast.get("arg", {}).get("ColumnRef") if isinstance(cast.get("arg"), dict) else None
        if ref is None:
            continue
        fields = _names(ref.get("fields"))
        at = ref.get("location", -1)
        if not fields or fields[-1] not in cols or at < 0:
            continue
        end = name_end(shape.text, at, len(fields))
        sp.insert(at, f"{FUNCTION_SCHEMA}.serial_to_timestamptz(")
        sp.insert(end, ")")
