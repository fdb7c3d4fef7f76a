"""SQLite storage: where user rows live and the column types that hold each RisingWave type.

User tables are the store's ``rel_<id>`` tables (``Relation.storage`` when the store named it
otherwise), declared with the affinity that keeps SQLite's comparison and arithmetic close to
PostgreSQL's for the value forms of rwshim/binder/types.py (integers and booleans INTEGER,
floats REAL, numeric NUMERIC, bytea BLOB, everything else TEXT).
"""

from __future__ import annotations

from rwshim.binder import types
from rwshim.binder.relations import Relation
from rwshim.common import pgtypes


def storage_table(rel: Relation) -> str:
    """The SQLite table holding the rows of ``rel``."""
    return rel.storage or f"rel_{rel.id}"


def sqlite_affinity(oid: int) -> str:
    """The declared SQLite column type that stores values of ``oid`` (for ``rel_<id>``)."""
    if oid in types.INTEGER_OIDS or oid == pgtypes.BOOL:
        return "INTEGER"
    if oid in types.FLOAT_OIDS:
        return "REAL"
    if oid == pgtypes.NUMERIC:
        return "NUMERIC"
    if oid == pgtypes.BYTEA:
        return "BLOB"
    return "TEXT"
