"""Column types of CREATE TABLE / CREATE SOURCE: the type as written -> PostgreSQL OID and the
name RisingWave prints for it, with RisingWave's binder rules (``bind_data_type``,
src/frontend/src/binder/expr/mod.rs:1066-1160).
"""

from __future__ import annotations

from rwshim.common import pgtypes, rwtypes
from rwshim.errors import NotImplementedError_, NotSupported

# the scalar names RisingWave's parser accepts (pglast's canonical spellings among them) ->
# (OID, RisingWave's name): one table, rwtypes.SCALARS
_BASE: dict[str, tuple[int, str]] = rwtypes.SCALARS


def bind_column_type(type_name: str, type_text: str, array_dims: int = 0) -> tuple[int, str]:
    """(OID, RisingWave type name) of a column type, or RisingWave's binder error."""
    key = type_name.lower().strip()
    if key.startswith("pg_catalog."):
        key = key.removeprefix("pg_catalog.")
    if key in ("bpchar", "char", "character"):
        # bind_data_type: AstDataType::Char (expr/mod.rs:1084-1086)
        raise NotImplementedError_("CHAR is not supported, please use VARCHAR instead")
    if key == "serial":
        raise NotSupported("Column type SERIAL is not supported", "Please remove the SERIAL column")
    rw = _rw_only(type_text, array_dims)
    if rw is not None:
        return rw
    base = _BASE.get(key)
    if base is None or (key in ("numeric", "decimal") and "(" in type_text):
        raise NotImplementedError_(f"unsupported data type: {type_text.strip()}")
    oid, rw_name = base
    for _ in range(array_dims):
        t = pgtypes.BY_OID[oid]
        if not t.array_oid:
            raise NotImplementedError_(f"unsupported data type: {type_text.strip()}")
        oid, rw_name = t.array_oid, rw_name + "[]"
    return oid, rw_name


def _rw_only(type_text: str, array_dims: int) -> tuple[int, str] | None:
    """A RisingWave-only type (struct, map, rw_int256, vector, a list of lists): its OID and
    RisingWave's name of it (rwshim/common/rwtypes.py)."""

    low = type_text.lower()
    if array_dims <= 1 and not any(w in low for w in ("struct", "map", "int256", "vector")):
        return None
    try:
        t = rwtypes.parse(type_text.strip())
    except rwtypes.TypeSyntaxError:
        return None
    if any(x.kind == "map" for x in t.walk()):
        return None  # no map on the data plane yet: refused here, before any row is written
    return t.oid, t.display()


_RW_NAME: dict[int, str] = {oid: rw for oid, rw in _BASE.values()} | {1301: "rw_int256"}


def rw_type_name(oid: int) -> str:
    """The name RisingWave prints for a column of this OID (query output columns)."""
    name = _RW_NAME.get(oid)
    if name is not None:
        return name
    t = pgtypes.BY_OID.get(oid)
    if t is not None and t.elem_oid:
        return rw_type_name(t.elem_oid) + "[]"
    if oid in (pgtypes.OID, pgtypes.REGCLASS, pgtypes.REGTYPE, pgtypes.REGNAMESPACE):
        return "integer"
    # text, name, "char", unknown: RisingWave has one string type.
    return "character varying"
