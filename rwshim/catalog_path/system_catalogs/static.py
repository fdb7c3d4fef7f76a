"""Static rows the catalog views read: RisingWave's builtin system catalogs and its type table.

``install_static(conn)`` creates and fills TEMP tables (copying the rows from an image of them,
static_image.py, when it can; else inserting them):

* ``rwshim_sys_relation(id, schema_name, name, kind, definition)``: every builtin catalog with
  RisingWave's id (``SYS_CATALOG_START_ID`` + rank by full name, system_catalog/mod.rs) and, for
  views, the definition RisingWave shows (view_catalog.rs ``create_sql``).
* ``rwshim_sys_column(relation_id, position, name, type_oid, is_pk)``: their columns, 1-based.
* ``rwshim_type(oid, typname, typinput, typelem, typarray, ord, display, udt, typlen)``: the rows
  of RisingWave's pg_type / rw_types (rw_types.rs ``RW_TYPE_DATA`` over
  src/common/src/types/postgres_type.rs ``for_all_base_types``) with each type's
  ``DataType`` display, ``pg_name`` and ``type_len``.
"""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING, Any

from rwshim.catalog_path.system_catalogs import static_image
from rwshim.catalog_path.system_catalogs.system_catalogs import (
    SYS_CATALOG_START_ID,
    SYSTEM_CATALOGS,
)
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# (oid, array oid, typname, typinput, DataType display, type_len) in for_all_base_types order.
BASE_TYPES: tuple[tuple[int, int, str, str, str, int], ...] = (
    (16, 1000, "bool", "boolin", "boolean", 1),
    (17, 1001, "bytea", "byteain", "bytea", -1),
    (20, 1016, "int8", "int8in", "bigint", 8),
    (21, 1005, "int2", "int2in", "smallint", 2),
    (23, 1007, "int4", "int4in", "integer", 4),
    (700, 1021, "float4", "float4in", "real", 4),
    (701, 1022, "float8", "float8in", "double precision", 8),
    (1043, 1015, "varchar", "varcharin", "character varying", -1),
    (1082, 1182, "date", "date_in", "date", 4),
    (1083, 1183, "time", "time_in", "time without time zone", 8),
    (1114, 1115, "timestamp", "timestamp_in", "timestamp without time zone", 8),
    (1184, 1185, "timestamptz", "timestamptz_in", "timestamp with time zone", 8),
    (1186, 1187, "interval", "interval_in", "interval", 16),
    (1700, 1231, "numeric", "numeric_in", "numeric", -1),
    (3802, 3807, "jsonb", "jsonb_in", "jsonb", -1),
    (1307, 1308, "variant", "variant_in", "variant", -1),
)

# (oid, typname, typinput, typelem, typarray, display, udt (pg_name), type_len)
TypeRow = tuple[int, str, str, int, int, str, str, int]


def type_rows() -> list[TypeRow]:
    """RW_TYPE_DATA in its order: base types, text, rw_int256, then the array types."""
    rows: list[TypeRow] = [
        (oid, name, inp, 0, arr, disp, name, size) for oid, arr, name, inp, disp, size in BASE_TYPES
    ]
    rows.append((25, "text", "textin", 0, 1009, "text", "text", -1))
    rows.append((1301, "rw_int256", "rw_int256_in", 0, 0, "rw_int256", "rw_int256", -1))
    rows.extend(
        (arr, "_" + name, "array_in", oid, 0, disp + "[]", "list", -1)
        for oid, arr, name, _inp, disp, _size in BASE_TYPES
    )
    return rows


def system_relation_rows() -> list[tuple[int, str, str, str, str | None]]:
    rows = []
    for rank, (schema, name, kind, _cols, _pk, view_sql, _file) in enumerate(SYSTEM_CATALOGS):
        definition = f"CREATE VIEW {schema}.{name} AS {view_sql}" if view_sql is not None else None
        rows.append((SYS_CATALOG_START_ID + rank, schema, name, kind, definition))
    return rows


def system_column_rows() -> list[tuple[int, int, str, int, int]]:
    rows = []
    for rank, (_schema, _name, _kind, cols, pk, _sql, _file) in enumerate(SYSTEM_CATALOGS):
        for pos, (col, oid) in enumerate(cols):
            rows.append((SYS_CATALOG_START_ID + rank, pos + 1, col, oid, int(pos in pk)))
    return rows


def system_catalog_id(schema: str, name: str) -> int:
    for rank, row in enumerate(SYSTEM_CATALOGS):
        if row[0] == schema and row[1] == name:
            return SYS_CATALOG_START_ID + rank
    raise KeyError(f"{schema}.{name}")


# The static TEMP tables: (name, column definitions), in the order ``static_rows`` fills them.
TABLES: tuple[tuple[str, str], ...] = (
    (
        "rwshim_sys_relation",
        "id INTEGER PRIMARY KEY, schema_name TEXT, name TEXT, kind TEXT, definition TEXT",
    ),
    (
        "rwshim_sys_column",
        "relation_id INTEGER, position INTEGER, name TEXT, type_oid INTEGER, is_pk INTEGER, "
        "PRIMARY KEY (relation_id, position)",
    ),
    (
        "rwshim_type",
        "oid INTEGER PRIMARY KEY, typname TEXT, typinput TEXT, typelem INTEGER, "
        "typarray INTEGER, ord INTEGER, display TEXT, udt TEXT, typlen INTEGER",
    ),
)

StaticRows = tuple[tuple[tuple[object, ...], ...], ...]
_static_rows: StaticRows | None = None


def static_rows() -> StaticRows:
    """Each of ``TABLES``' rows, in its order (made once per process: they are constants,
    and making them is ~1 ms of every instance's start)."""
    global _static_rows
    if _static_rows is None:
        types = tuple(
            (r[0], r[1], r[2], r[3], r[4], i, r[5], r[6], r[7]) for i, r in enumerate(type_rows())
        )
        _static_rows = (tuple(system_relation_rows()), tuple(system_column_rows()), types)
    return _static_rows


def install_static(conn: sqlite3.Connection) -> None:
    """Create and fill the static TEMP tables (idempotent)."""
    exists = conn.execute(
        "SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND name = 'rwshim_type'"
    ).fetchone()
    if exists:
        return
    rows = static_rows()
    # The rows copied in SQLite from an attached image of them (static_image.py): a third of
    # the time inserting them one by one takes.  Not inside the caller's transaction (SQLite
    # detaches a database only outside one): then they are inserted.
    attached = not conn.in_transaction and static_image.attach(conn, TABLES, rows)
    try:
        # One transaction (nested in the caller's, if any): in autocommit each of the ~1,100
        # rows inserted would be a transaction of its own.
        conn.execute("SAVEPOINT rwshim_static")
        try:
            _fill(conn, rows, attached)
        except BaseException:
            conn.execute("ROLLBACK TO rwshim_static")
            conn.execute("RELEASE rwshim_static")
            raise
        conn.execute("RELEASE rwshim_static")
    finally:
        if attached:
            static_image.detach(conn)


def _fill(conn: sqlite3.Connection, rows: StaticRows, attached: bool) -> None:
    for (name, columns), table_rows in zip(TABLES, rows, strict=True):
        conn.execute(f"CREATE TEMP TABLE {name} ({columns})")
        if attached:
            copied = conn.execute(
                f"INSERT INTO temp.{name} SELECT * FROM {static_image.ATTACHED}.{name}"
            ).rowcount
            if copied == len(table_rows):
                continue
            conn.execute(f"DELETE FROM temp.{name}")  # (an image that does not hold them all)
        static_image.insert_rows(conn, f"temp.{name}", table_rows)


def _toml_value(v: Any) -> str:
    """A TOML value as the toml crate's ``Value::to_string`` prints it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return str(v)


def toml_flatten(text: str | None) -> str:
    """``rw_toml_flatten(text)``: a per-job config override (TOML) as a JSON array of
    [dot.separated.key, value] pairs in key order (rw_streaming_job_config.rs collect_config_kv);
    an empty array when absent or unparsable."""
    if not text:
        return "[]"
    import tomllib  # on first use: a start-up installs this function but parses no TOML

    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "[]"
    out: list[list[str]] = []

    def walk(prefix: list[str], t: dict[str, Any]) -> None:
        for k in sorted(t):
            v = t[k]
            if isinstance(v, dict):
                walk([*prefix, k], v)
            else:
                out.append([".".join([*prefix, k]), _toml_value(v)])

    walk([], table)
    return json.dumps(out)


_FORMAT_ENCODE = re.compile(r"\bFORMAT\s+([A-Za-z_]+)\s+ENCODE\s+([A-Za-z_]+)")


def definition_format(definition: str | None, part: int) -> str | None:
    """The FORMAT (``part`` 1) or ENCODE (2) word of a source's or connector table's stored
    definition: the statement's last ``FORMAT x ENCODE y`` clause, which RisingWave's parser
    fills in when the statement has none (``parse_format_encode_with_connector``,
    src/sqlparser/src/ast/statement.rs:234-300: NATIVE for datagen), so its catalog holds it
    even then (rw_sources' format / row_encode)."""
    found = _FORMAT_ENCODE.findall(definition or "")
    return str(found[-1][part - 1]).upper() if found else None


def install_functions(conn: sqlite3.Connection) -> None:
    """The helper functions the views call (pure, no context)."""
    conn.create_function("rw_toml_flatten", 1, toml_flatten, deterministic=True)
    conn.create_function("rw_definition_format", 2, definition_format, deterministic=True)
