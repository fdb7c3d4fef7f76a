"""A sink to an external PostgreSQL: ``connector = 'postgres'`` (RisingWave's native sink) and
``connector = 'jdbc'`` with a ``jdbc:postgresql://`` URL (its Java JDBC sink): the options,
the validation CREATE SINK runs against the target, and the writes.

- Options: postgres.rs:58-103 (``host``, ``port``, ``user``, ``password``, ``database``,
  ``table``, ``schema`` default ``public``, ``type`` append-only or upsert); JDBCSinkConfig.java
  (``jdbc.url`` with ``user`` / ``password`` in it or as options, ``table.name``,
  ``schema.name``, ``type``).
- Validation: postgres.rs:227-320 (upsert needs a key; no foreign key on the target; every
  sink column in the target with its type; the target's key equal to the sink's), wrapped by
  meta's ``failed to validate sink`` (src/meta/src/stream/sink.rs:26-37); JDBCSinkFactory.java
  validate (table, columns, key) through remote.rs's ``sink validation failed: ...``.
- Writes (postgres.rs:432-640, JDBCSink.java:148-170): per batch one transaction; upsert:
  ``DELETE ... WHERE (k...) in ((...))`` for the deletes, then ``INSERT ... on conflict (k...)
  do update set c = EXCLUDED.c`` (``do nothing`` when every column is a key column);
  append-only: ``INSERT``.  Identifiers double-quoted, ``"`` doubled (:643-645).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl, unquote, urlsplit

from rwshim.dataplane.pgio import ConnectionLost, PgConn, PgFailure
from rwshim.errors import MetaRpcError, RwError

CALL = "/ddl_service.DdlService/CreateSink"

# sea_type_to_rw_type (connector_common/postgres.rs:686-760) by PostgreSQL's udt name, as
# RisingWave's DataType Display names them
_PG_TO_RW = {
    "int2": "smallint",
    "int4": "integer",
    "int8": "bigint",
    "numeric": "numeric",
    "money": "numeric",
    "float4": "real",
    "float8": "double precision",
    "varchar": "character varying",
    "bpchar": "character varying",
    "text": "character varying",
    "uuid": "character varying",
    "xml": "character varying",
    "bytea": "bytea",
    "timestamp": "timestamp without time zone",
    "timestamptz": "timestamp with time zone",
    "date": "date",
    "time": "time without time zone",
    "timetz": "time without time zone",
    "interval": "interval",
    "bool": "boolean",
    "json": "jsonb",
    "jsonb": "jsonb",
    "pg_lsn": "bigint",
}


@dataclass(frozen=True, slots=True)
class Target:
    """Where a sink writes: a table of a PostgreSQL, and how."""

    connector: str  # 'postgres' or 'jdbc'
    conninfo: str
    database: str
    schema: str
    table: str
    append_only: bool
    key: tuple[str, ...]  # the sink's primary_key (downstream key)

    @property
    def qualified(self) -> str:
        return f"{_ident(self.schema)}.{_ident(self.table)}"


def _text(value: bytes | None) -> str:
    return "" if value is None else value.decode()


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _conninfo(host: str, port: str, user: str, password: str, database: str) -> str:
    def q(v: str) -> str:
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"

    return (
        f"host={q(host)} port={q(port)} user={q(user)} password={q(password)}"
        f" dbname={q(database)} connect_timeout=5"
    )


def _sink_error(text: str) -> RwError:
    """A SinkError raised while the sink is built: meta's ``Sink error: ...``."""
    return MetaRpcError(CALL, f"Sink error: config error: {text}")


def target(connector: str, options: Mapping[str, str], sink_type: str) -> Target:
    """The target of a ``postgres`` or ``jdbc`` sink from its options (the config errors of
    PostgresConfig::from_btreemap and JDBCSinkConfig)."""
    key = tuple(k.strip() for k in options.get("primary_key", "").split(",") if k.strip())
    if connector == "postgres":
        for field in ("host", "port", "user", "password", "database", "table", "type"):
            if field not in options:
                raise _sink_error(f"missing field `{field}`")
        if options["type"] not in ("append-only", "upsert"):
            raise _sink_error("`type` must be append-only, or upsert")
        return Target(
            "postgres",
            _conninfo(options["host"], options["port"], options["user"], options["password"],
                      options["database"]),
            options["database"], options.get("schema", "public"), options["table"],
            options["type"] == "append-only", key,
        )  # fmt: skip
    url = options.get("jdbc.url")
    if url is None:
        raise MetaRpcError(CALL, "failed to validate sink", "sink validation failed: missing"
                           " field `jdbc.url`")  # fmt: skip
    if not url.startswith("jdbc:postgresql://"):
        raise RwError(
            "not supported by rwshim: a jdbc sink to another database than PostgreSQL"
            f" ({url.split('//')[0]})"
        )
    parts = urlsplit(url[len("jdbc:") :])
    params = dict(parse_qsl(parts.query))
    database = unquote(parts.path.lstrip("/")) or "postgres"
    user = options.get("user", params.get("user", ""))
    password = options.get("password", params.get("password", ""))
    table = options.get("table.name")
    if table is None:
        raise MetaRpcError(CALL, "failed to validate sink", "sink validation failed: missing"
                           " field `table.name`")  # fmt: skip
    return Target(
        "jdbc",
        _conninfo(parts.hostname or "localhost", str(parts.port or 5432), user, password,
                  database),
        database, options.get("schema.name", "public"), table,
        sink_type in ("append-only", "force-append-only"), key,
    )  # fmt: skip


async def _columns(conn: PgConn, t: Target) -> tuple[dict[str, str], list[str], bool]:
    """The target's columns (name -> udt name), its key columns, whether it has a foreign key."""
    cols = await conn.query(
        "SELECT a.attname, t.typname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_type t ON t.oid = a.atttypid"
        " WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped"
        " ORDER BY a.attnum",
        [t.schema.encode(), t.table.encode()],
    )
    columns = {
        _text(cols.get_value(r, 0)): _text(cols.get_value(r, 1)) for r in range(cols.ntuples)
    }
    pk = await conn.query(
        "SELECT a.attname FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a"
        " ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey) WHERE i.indisprimary"
        " AND n.nspname = $1 AND c.relname = $2 ORDER BY array_position(i.indkey, a.attnum)",
        [t.schema.encode(), t.table.encode()],
    )
    fk = await conn.query(
        "SELECT EXISTS (SELECT 1 FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1"
        " AND c.relname = $2 AND k.contype = 'f')",
        [t.schema.encode(), t.table.encode()],
    )
    keys = [_text(pk.get_value(r, 0)) for r in range(pk.ntuples)]
    return columns, keys, fk.get_value(0, 0) == b"t"


async def validate(t: Target, columns: Sequence[str], rw_types: Sequence[str]) -> None:
    """CREATE SINK's validation against the target (the module's docstring)."""
    if t.connector == "postgres" and not t.append_only and not t.key:
        raise _validation(
            "config error: Primary key not defined for upsert Postgres sink (please define in"
            " `primary_key` field)"
        )
    try:
        conn = await PgConn.connect(t.conninfo)
    except ConnectionLost as e:
        if t.connector == "jdbc":
            raise _validation(
                "sink validation failed: INVALID_ARGUMENT: failed to connect to target database:"
                f" 08001: {e}"
            ) from None
        raise _validation(str(e)) from None
    try:
        found, keys, has_fk = await _columns(conn, t)
    except (PgFailure, ConnectionLost) as e:
        raise _validation(str(e)) from None
    finally:
        await conn.close()
    if t.connector == "jdbc":
        _validate_jdbc(t, found, keys, columns)
    else:
        _validate_postgres(t, found, keys, has_fk, columns, rw_types)


def _validation(*chain: str) -> RwError:
    return MetaRpcError(CALL, "failed to validate sink", *chain)


def _validate_postgres(
    t: Target,
    found: Mapping[str, str],
    keys: Sequence[str],
    has_fk: bool,
    columns: Sequence[str],
    rw_types: Sequence[str],
) -> None:
    if has_fk:
        raise _validation(
            f'config error: Postgres sink does not support target table "{t.schema}"."{t.table}"'
            " with foreign key constraints. Please remove foreign key constraints from the"
            " target table or choose a different sink table."
        )
    if not t.append_only and not keys:
        raise _validation(
            f"failed to connect to database: {t.database}, schema: {t.schema}, table: {t.table}",
            "Postgres table should define the primary key for non-append-only tables",
        )
    if len(found) < len(columns):
        raise _validation(
            f"config error: Column count mismatch: Postgres table has {len(found)} columns, but"
            f" sink schema has {len(columns)} columns, sink should have less or equal columns to"
            " the Postgres table"
        )
    for name, rw_type in zip(columns, rw_types, strict=True):
        udt = found.get(name)
        if udt is None:
            raise _validation(
                f"config error: Column `{name}` not found in Postgres table `{t.table}`"
            )
        pg_rw = _PG_TO_RW.get(udt.lstrip("_"), "character varying")
        if udt.startswith("_"):
            pg_rw += "[]"
        ok = pg_rw == rw_type or (rw_type == "character varying" and pg_rw == "numeric")
        if not ok:
            raise _validation(
                f"config error: Column `{name}` in Postgres table `{t.table}` has type"
                f" `{pg_rw}`, but sink schema defines it as type `{rw_type}`"
            )
    sink_keys = set(t.key)
    if len(keys) != len(sink_keys):
        raise _validation(
            "config error: Primary key mismatch: Postgres table has primary key on columns"
            f" {_debug_list(keys)}, but sink schema defines primary key on columns"
            f" {_debug_set(t.key)}"
        )
    for name in keys:
        if name not in sink_keys:
            raise _validation(
                f"config error: Primary key mismatch: Postgres table has primary key on column"
                f" `{name}`, but sink schema does not define it as a primary key"
            )


def _debug_list(items: Sequence[str]) -> str:
    """Rust's Debug of a Vec<String>."""
    return "[" + ", ".join(f'"{i}"' for i in items) + "]"


def _debug_set(items: Sequence[str]) -> str:
    """Rust's Debug of a HashSet<&String> (its order is the hasher's: rwshim's is sorted)."""
    return "{" + ", ".join(f'"{i}"' for i in sorted(set(items))) + "}"


def _validate_jdbc(
    t: Target, found: Mapping[str, str], keys: Sequence[str], columns: Sequence[str]
) -> None:
    def fail(status: str, text: str) -> RwError:
        return _validation(f"sink validation failed: {status}: {text}")

    if not found:
        raise fail("INVALID_ARGUMENT", f"table not found: {t.table}")
    for name in columns:
        if name not in found:
            raise fail(
                "FAILED_PRECONDITION", f"table schema does not match, column not found: {name}"
            )
    if not t.append_only and (not keys or set(keys) != set(t.key)):
        raise fail(
            "INVALID_ARGUMENT",
            "JDBC table has no primary key or the primary key doesn't match the"
            " 'primary_key' option in the WITH clause",
        )


class Writer:
    """Writes batches of changes to one target, over a connection kept between them."""

    def __init__(self, t: Target, columns: Sequence[str]) -> None:
        self.target = t
        self.columns = tuple(columns)
        self._conn: PgConn | None = None

    def close_now(self) -> None:
        if self._conn is not None:
            self._conn.close_now()
            self._conn = None

    async def write(self, rows: Sequence[tuple[str, Sequence[bytes | None]]]) -> None:
        """One batch in one transaction, in the log's order (each barrier's deletes before its
        inserts, into_table.to_outbox; barriers in order).  Raises ConnectionLost or
        PgFailure; nothing of a failed batch stays."""
        conn = self._conn
        if conn is None or conn.closed:
            conn = self._conn = await PgConn.connect(self.target.conninfo)
        t = self.target
        cols = ", ".join(_ident(c) for c in self.columns)
        marks = ", ".join(f"${i + 1}" for i in range(len(self.columns)))
        insert = f"INSERT INTO {t.qualified} ({cols}) VALUES ({marks})"
        key_idx = [self.columns.index(k) for k in t.key if k in self.columns]
        if not t.append_only and key_idx:
            keys = ", ".join(_ident(self.columns[i]) for i in key_idx)
            others = [c for c in self.columns if c not in t.key]
            if others:
                sets = ", ".join(f"{_ident(c)} = EXCLUDED.{_ident(c)}" for c in others)
                insert += f" on conflict ({keys}) do update set {sets}"
            else:
                insert += f" on conflict ({keys}) do nothing"
            kmarks = ", ".join(f"${n + 1}" for n in range(len(key_idx)))
            delete = f"DELETE FROM {t.qualified} WHERE ({keys}) in (({kmarks}))"
        else:
            delete = ""
        try:
            await conn.script("BEGIN")
            for op, values in rows:
                if op == "I":
                    await conn.query(insert, list(values))
                elif delete:
                    await conn.query(delete, [values[i] for i in key_idx])
            await conn.script("COMMIT")
        except PgFailure:
            try:
                await conn.script("ROLLBACK")
            except (PgFailure, ConnectionLost):
                self.close_now()
            raise
        except ConnectionLost:
            self.close_now()
            raise
