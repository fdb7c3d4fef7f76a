"""PostgreSQL builtin types as rwshim uses them: OIDs, names, sizes (and, in wire/, codecs).

Only builtin OIDs ever leave rwshim (clients.md §1 item 11): asyncpg runs a costly
introspection for any other OID.  This module is a leaf: everything may import it.
"""

from __future__ import annotations

from msgspec import Struct


class PgType(Struct, frozen=True):
    oid: int
    name: str  # pg_type.typname
    display: str  # format_type() rendering, e.g. "character varying"
    size: int  # typlen; -1 for varlena
    array_oid: int = 0
    elem_oid: int = 0  # for array types


_TYPES: tuple[PgType, ...] = (
    PgType(16, "bool", "boolean", 1, 1000),
    PgType(17, "bytea", "bytea", -1, 1001),
    PgType(18, "char", '"char"', 1, 1002),
    PgType(19, "name", "name", 64, 1003),
    PgType(20, "int8", "bigint", 8, 1016),
    PgType(21, "int2", "smallint", 2, 1005),
    PgType(22, "int2vector", "int2vector", -1, 1006),
    PgType(23, "int4", "integer", 4, 1007),
    PgType(24, "regproc", "regproc", 4, 1008),
    PgType(25, "text", "text", -1, 1009),
    PgType(26, "oid", "oid", 4, 1028),
    PgType(30, "oidvector", "oidvector", -1, 1013),
    PgType(114, "json", "json", -1, 199),
    PgType(194, "pg_node_tree", "pg_node_tree", -1, 0),
    PgType(700, "float4", "real", 4, 1021),
    PgType(701, "float8", "double precision", 8, 1022),
    PgType(705, "unknown", "unknown", -2, 0),
    PgType(1042, "bpchar", "character", -1, 1014),
    PgType(1043, "varchar", "character varying", -1, 1015),
    PgType(1082, "date", "date", 4, 1182),
    PgType(1083, "time", "time without time zone", 8, 1183),
    PgType(1114, "timestamp", "timestamp without time zone", 8, 1115),
    PgType(1184, "timestamptz", "timestamp with time zone", 8, 1185),
    PgType(1186, "interval", "interval", 16, 1187),
    PgType(1266, "timetz", "time with time zone", 12, 1270),
    PgType(1700, "numeric", "numeric", -1, 1231),
    PgType(2205, "regclass", "regclass", 4, 2210),
    PgType(2206, "regtype", "regtype", 4, 2211),
    PgType(2249, "record", "record", -1, 2287),
    PgType(2275, "cstring", "cstring", -2, 1263),
    PgType(2950, "uuid", "uuid", 16, 2951),
    PgType(3802, "jsonb", "jsonb", -1, 3807),
    PgType(4089, "regnamespace", "regnamespace", 4, 4090),
    PgType(3220, "pg_lsn", "pg_lsn", 8, 3221),
    PgType(1033, "aclitem", "aclitem", 12, 1034),
    PgType(28, "xid", "xid", 4, 1011),
    PgType(1790, "refcursor", "refcursor", -1, 2201),
    PgType(2278, "void", "void", 4, 0),
    PgType(2276, "any", '"any"', 4, 0),
    PgType(2277, "anyarray", "anyarray", -1, 0),
    # RisingWave's own type OIDs (src/common/src/types/postgres_type.rs to_oid)
    PgType(1301, "rw_int256", "rw_int256", -1, 1302),
    PgType(1303, "map", "map", -1, 1304),
    PgType(1305, "vector", "vector", -1, 1306),
    PgType(1307, "variant", "variant", -1, 1308),
)

BY_OID: dict[int, PgType] = {t.oid: t for t in _TYPES}
for _t in _TYPES:
    if _t.array_oid:
        BY_OID.setdefault(
            _t.array_oid,
            PgType(_t.array_oid, "_" + _t.name, _t.display + "[]", -1, 0, _t.oid),
        )
BY_NAME: dict[str, PgType] = {t.name: t for t in BY_OID.values()}

BOOL, BYTEA, CHAR, NAME, INT8, INT2, INT4, TEXT, OID = 16, 17, 18, 19, 20, 21, 23, 25, 26
JSON, FLOAT4, FLOAT8, UNKNOWN, BPCHAR, VARCHAR = 114, 700, 701, 705, 1042, 1043
DATE, TIME, TIMESTAMP, TIMESTAMPTZ, INTERVAL, NUMERIC = 1082, 1083, 1114, 1184, 1186, 1700
REGCLASS, REGTYPE, UUID, JSONB, REGNAMESPACE = 2205, 2206, 2950, 3802, 4089
TEXT_ARRAY, INT4_ARRAY, INT2_ARRAY, INT8_ARRAY, OID_ARRAY, NAME_ARRAY = (
    1009,
    1007,
    1005,
    1016,
    1028,
    1003,
)
VARCHAR_ARRAY, CHAR_ARRAY, BOOL_ARRAY, FLOAT8_ARRAY = 1015, 1002, 1000, 1022


def type_size(oid: int) -> int:
    t = BY_OID.get(oid)
    return t.size if t else -1


# --- value types the wire codecs understand (added by the wire server) ----------------------


class Interval(Struct, frozen=True):
    """A PostgreSQL interval: months, days and microseconds are kept apart, as PostgreSQL
    does (``1 mon`` is not ``30 days``).  ``datetime.timedelta`` is accepted too."""

    months: int = 0
    days: int = 0
    microseconds: int = 0


class RegOid(int):
    """An OID of a reg* type (regclass, regtype, regproc, regnamespace) that also knows its
    name: text output shows the name, binary output the number, as PostgreSQL does."""

    name: str

    def __new__(cls, oid: int, name: str) -> RegOid:
        self = super().__new__(cls, oid)
        self.name = name
        return self

    def __repr__(self) -> str:
        return f"RegOid({int(self)}, {self.name!r})"

    def __str__(self) -> str:
        return int.__repr__(self)


TIMETZ, INT2VECTOR, OIDVECTOR, REGPROC, XID, REGPROC_ARRAY = 1266, 22, 30, 24, 28, 1008
JSONB_ARRAY, JSON_ARRAY, UUID_ARRAY, NUMERIC_ARRAY, BYTEA_ARRAY = 3807, 199, 2951, 1231, 1001
FLOAT4_ARRAY, DATE_ARRAY, TIMESTAMP_ARRAY, TIMESTAMPTZ_ARRAY, INTERVAL_ARRAY = (
    1021,
    1182,
    1115,
    1185,
    1187,
)
TIME_ARRAY, BPCHAR_ARRAY, REGCLASS_ARRAY, REGTYPE_ARRAY = 1183, 1014, 2210, 2211
VOID, RECORD, CSTRING = 2278, 2249, 2275
