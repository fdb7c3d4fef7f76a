"""RisingWave's cast table between base types: in which context (implicit, assignment,
explicit) a cast is allowed (src/frontend/src/expr/type_inference/cast.rs ``CAST_TABLE``,
transcribed row by row), and its ``cannot cast`` texts for a struct cast field by field
(cast.rs ``cast_struct``).
"""

from __future__ import annotations

from rwshim.common import pgtypes, rwtypes

IMPLICIT, ASSIGN, EXPLICIT = "i", "a", "e"
_ORDER = {IMPLICIT: 0, ASSIGN: 1, EXPLICIT: 2}
CONTEXT_NAMES = {IMPLICIT: "Implicit", ASSIGN: "Assign", EXPLICIT: "Explicit"}

# cast.rs:322-340, columns in the rows' order (serial, whose OID the binder has not, aside)
_TYPES = (
    pgtypes.BOOL, pgtypes.INT2, pgtypes.INT4, pgtypes.INT8, pgtypes.NUMERIC, pgtypes.FLOAT4,
    pgtypes.FLOAT8, rwtypes.INT256_OID, pgtypes.DATE, pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ,
    pgtypes.TIME, pgtypes.INTERVAL, pgtypes.JSONB, pgtypes.BYTEA, pgtypes.VARCHAR,
)  # fmt: skip
_ROWS = (
    ". e            a",
    " .iiiiii       a",
    "ea.iiiii       a",
    " aa.iiii       a",
    " aaa.ii        a",
    " aaaa.i        a",
    " aaaaa.        a",
    "      e.       a",
    "        .ii    a",
    "        a.ia   a",
    "        aa.a   a",
    "           .i  a",
    "           a.  a",
    "eeeeeee      . a",
    "              .a",
    "eeeeeeeeeeeeeee.",
)
CAST_TABLE: dict[tuple[int, int], str] = {
    (src, dst): c
    for src, row in zip(_TYPES, _ROWS, strict=True)
    for dst, c in zip(_TYPES, row, strict=True)
    if c in _ORDER
}


def known(oid: int) -> bool:
    """Whether the table has this base type."""
    return oid in _TYPES or oid == pgtypes.TEXT


def cast_ok(src: int, dst: int, context: str) -> bool:
    """cast.rs ``cast_ok_base``: the same type, or a cast allowed in ``context``."""
    src, dst = _varchar(src), _varchar(dst)
    if src == dst:
        return True
    found = CAST_TABLE.get((src, dst))
    return found is not None and _ORDER[found] <= _ORDER[context]


def _varchar(oid: int) -> int:
    return pgtypes.VARCHAR if oid == pgtypes.TEXT else oid
