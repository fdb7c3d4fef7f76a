"""Type mappings between RisingWave's catalog and PostgreSQL: the one registry the
RisingWave-only types (struct, map, rw_int256, vector, serial rules...) plug into.

- ``column_type(type_oid, rw_type)``: the PostgreSQL type of a table column;
- ``result_oid(pg_oid)``: the OID a client sees for a PostgreSQL result column (RisingWave has
  one string type, ``varchar``: src/frontend/src/binder/expr/mod.rs:1011-1024);
- ``QUERY_TYPE_NAMES``: type names RisingWave accepts in queries that PostgreSQL spells
  otherwise (spliced where the parse tree has a one-word type name).

Registering: ``register_column_type(rw_type_prefix, fn)`` and ``register_result_oid`` (used by
the breadth work; nothing else should special-case a type).
"""

from __future__ import annotations

from collections.abc import Callable

from rwshim import pgtypes
from rwshim.errors import NotImplementedError_

# rw_type (RisingWave's type name as the catalog stores it) -> PostgreSQL column type, for
# the types whose OID alone does not say it.
_COLUMN_TYPES: dict[str, Callable[[str], str]] = {
    # RisingWave's serial is a 64-bit id (src/common/src/types/serial.rs)
    "serial": lambda _: "bigint",
}

# PostgreSQL result OIDs that RisingWave reports as another type.
_RESULT_OIDS: dict[int, int] = {
    pgtypes.TEXT: pgtypes.VARCHAR,
    pgtypes.NAME: pgtypes.VARCHAR,
    pgtypes.BPCHAR: pgtypes.VARCHAR,
    pgtypes.CHAR: pgtypes.VARCHAR,
    pgtypes.UNKNOWN: pgtypes.VARCHAR,
    pgtypes.TEXT_ARRAY: pgtypes.VARCHAR_ARRAY,
    pgtypes.NAME_ARRAY: pgtypes.VARCHAR_ARRAY,
    pgtypes.BPCHAR_ARRAY: pgtypes.VARCHAR_ARRAY,
    pgtypes.CHAR_ARRAY: pgtypes.VARCHAR_ARRAY,
    pgtypes.JSON: pgtypes.JSONB,
    pgtypes.JSON_ARRAY: pgtypes.JSONB_ARRAY,
    # regclass and oid are int4 in RisingWave (binder/expr/mod.rs:995-998)
    pgtypes.OID: pgtypes.INT4,
    pgtypes.REGCLASS: pgtypes.INT4,
    # pg_typeof is a varchar literal of the type's name (binder/expr/function/
    # builtin_scalar.rs "pg_typeof"); PostgreSQL's answers a regtype
    pgtypes.REGTYPE: pgtypes.VARCHAR,
}

# One-word type names RisingWave's parser accepts and PostgreSQL does not know.
QUERY_TYPE_NAMES: dict[str, str] = {
    "double": "double precision",
    "string": "varchar",
}

# Types a data-plane column may have without a registered mapping: PostgreSQL's own.
_BUILTIN_COLUMN_OIDS = frozenset(
    {
        pgtypes.BOOL,
        pgtypes.INT2,
        pgtypes.INT4,
        pgtypes.INT8,
        pgtypes.FLOAT4,
        pgtypes.FLOAT8,
        pgtypes.NUMERIC,
        pgtypes.VARCHAR,
        pgtypes.TEXT,
        pgtypes.BYTEA,
        pgtypes.DATE,
        pgtypes.TIME,
        pgtypes.TIMESTAMP,
        pgtypes.TIMESTAMPTZ,
        pgtypes.INTERVAL,
        pgtypes.JSONB,
        pgtypes.UUID,
    }
)


def register_column_type(rw_type_prefix: str, fn: Callable[[str], str]) -> None:
    """Map catalog columns whose rw_type starts with ``rw_type_prefix`` (``struct<``,
    ``map(``...) to the PostgreSQL type ``fn(rw_type)`` returns."""
    _COLUMN_TYPES[rw_type_prefix] = fn


def register_result_oid(pg_oid: int, rw_oid: int) -> None:
    _RESULT_OIDS[pg_oid] = rw_oid


def column_type(type_oid: int, rw_type: str = "") -> str:
    """The PostgreSQL type of a column with this catalog type."""
    rw = rw_type.strip().lower()
    for prefix, fn in _COLUMN_TYPES.items():
        if rw == prefix or (prefix[-1:] in "<(" and rw.startswith(prefix)):
            return fn(rw)
    elem = pgtypes.BY_OID.get(type_oid)
    base = type_oid if elem is None or not elem.elem_oid else elem.elem_oid
    if base in _BUILTIN_COLUMN_OIDS:
        t = pgtypes.BY_OID[type_oid]
        # varchar without a length: RisingWave's varchar has none
        return t.display
    raise NotImplementedError_(
        f"columns of type {rw_type or type_oid} on the PostgreSQL data plane"
    )


def result_oid(pg_oid: int) -> int:
    """The OID a client sees for a PostgreSQL result column of type ``pg_oid``."""
    return _RESULT_OIDS.get(pg_oid, pg_oid)
