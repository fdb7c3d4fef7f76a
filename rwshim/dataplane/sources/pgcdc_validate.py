"""postgres-cdc: the options of a source and the validation RisingWave runs against the upstream
PostgreSQL when a shared CDC source or a table on one is created.

RisingWave at 448c657:

- ``src/frontend/src/handler/create_source/validate.rs:193-233``: the options the frontend adds
  (``slot.name`` ``rw_cdc_<uuid>``, ``schema.name`` ``public``, ``publication.name``
  ``rw_publication_<uuid>``, ``publication.create.enable`` ``true``).
- ``java/connector-node/risingwave-connector-service/.../source/SourceValidateHandler.java``
  (the required options, ``'<name>' is not found`` / ``cannot be empty``),
  ``JniSourceValidateHandler.java`` (a StatusRuntimeException's message ``CODE: text``; any other
  exception ``Internal error: <message>``), ``source/common/PostgresValidator.java`` (the checks
  in their order: wal_level, the slot, superuser / replication role, SELECT privilege, the
  publication and ``ALTER PUBLICATION ... ADD TABLE``, the table, its key, its columns),
  ``validate_sql.properties`` (the queries, run here as they are written there),
  ``DbzSourceUtils.java:71-133`` (the publication a shared source creates).
- ``src/common/src/catalog/cdc_type_compatibility.rs:143-191`` (which upstream types a column
  of each RisingWave type accepts).
- The error's way up: ``src/connector/src/source/cdc/enumerator/mod.rs:115-151`` (``source
  validation failed``), ``src/meta/src/stream/source_manager.rs:463`` and
  ``source_manager/worker.rs:322`` (a source's ``failed to create source worker`` / ``failed to
  create SplitEnumerator``), ``src/meta/src/rpc/ddl_controller.rs:1058-1083`` (a table's, no
  context).

A SQL error of a check is pgjdbc's ``PSQLException`` message (``ERROR: <text>``, with its
Detail and Hint lines) under ``INTERNAL:``, as ValidatorUtils.internalError wraps it.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rwshim.dataplane.pgio import ConnectionLost, PgConn, PgFailure
from rwshim.errors import MetaRpcError

CREATE_SOURCE = "/ddl_service.DdlService/CreateSource"
CREATE_TABLE = "/ddl_service.DdlService/CreateTable"


class Invalid(Exception):
    """The connector node's answer: ``CODE: text`` or ``Internal error: ...``."""


def source_error(message: str) -> MetaRpcError:
    """A shared source's validation failure as the frontend shows it."""
    return MetaRpcError(
        CREATE_SOURCE, "failed to create source worker", "failed to create SplitEnumerator",
        "source validation failed", message,
    )  # fmt: skip


def table_error(message: str) -> MetaRpcError:
    """A CDC table's validation failure (validate_cdc_table_inner: no context of its own)."""
    return MetaRpcError(CREATE_TABLE, "source validation failed", message)


def with_defaults(options: Mapping[str, str]) -> dict[str, str]:
    """validate.rs:193-233: the options a postgres-cdc source is stored with."""
    out = dict(options)
    out.setdefault("slot.name", f"rw_cdc_{uuid.uuid4().hex}")
    out.setdefault("schema.name", "public")
    out.setdefault("publication.name", f"rw_publication_{uuid.uuid4().hex}")
    out.setdefault("publication.create.enable", "true")
    return out


_SSL = {"disabled": "disable", "preferred": "prefer", "required": "require"}


def conninfo(options: Mapping[str, str]) -> str:
    """libpq's connection string for the upstream (``ssl.mode``: RisingWave's names)."""

    def q(v: str) -> str:
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"

    ssl = options.get("ssl.mode", "prefer").lower()
    return (
        f"host={q(options.get('hostname', ''))} port={q(options.get('port', ''))}"
        f" user={q(options.get('username', ''))} password={q(options.get('password', ''))}"
        f" dbname={q(options.get('database.name', ''))} sslmode={_SSL.get(ssl, ssl)}"
        " connect_timeout=10"
    )


@dataclass(frozen=True, slots=True)
class TableSchema:
    """What the table on the source gives the validator: its upstream table, its columns
    (name, RisingWave type text; no INCLUDE or generated column) and key."""

    schema: str
    table: str
    columns: tuple[tuple[str, str], ...]
    primary_key: tuple[str, ...]


def _required(props: Mapping[str, str], table: bool) -> None:
    """SourceValidateHandler.ensureRequiredProps and the postgres arm of validateSource."""

    def exists(name: str) -> None:
        if name not in props:
            raise Invalid(
                f"INVALID_ARGUMENT: '{name}' is not found. Please check the WITH properties"
            )

    def not_blank(name: str) -> None:
        exists(name)
        if not props[name].strip():
            raise Invalid(
                f"INVALID_ARGUMENT: '{name}' cannot be empty. Please check the WITH properties"
            )

    for name in ("hostname", "port", "database.name", "username"):
        not_blank(name)
    exists("password")
    if table:
        not_blank("table.name")
    for name in ("schema.name", "slot.name", "publication.name", "publication.create.enable"):
        not_blank(name)


def jdbc_message(e: PgFailure) -> str:
    """pgjdbc's ServerErrorMessage text of a PostgreSQL error."""
    err = e.error
    text = f"ERROR: {err.message}"
    if err.detail:
        text += f"\n  Detail: {err.detail}"
    if err.hint:
        text += f"\n  Hint: {err.hint}"
    return text


def _connect_message(e: ConnectionLost, props: Mapping[str, str]) -> str:
    """pgjdbc's message for a connection that failed (DriverManager.getConnection)."""
    text = str(e)
    if "Connection refused" in text:
        return (
            f"Connection to {props.get('hostname')}:{props.get('port')} refused. Check that the"
            " hostname and port are correct and that the postmaster is accepting TCP/IP"
            " connections."
        )
    for line in text.splitlines():
        if "FATAL:" in line:
            return "FATAL: " + line.split("FATAL:", 1)[1].strip()
    return "The connection attempt failed."


async def validate(props: Mapping[str, str], table: TableSchema | None) -> None:
    """validateSource for POSTGRES: raises Invalid with the connector node's message."""
    _required(props, table is not None)
    try:
        conn = await PgConn.connect(conninfo(props))
    except ConnectionLost as e:
        raise Invalid("Internal error: " + _connect_message(e, props)) from None
    try:
        v = _Validator(conn, props, table)
        for step in (v.db_config, v.privileges, v.table):
            try:
                await step()
            except PgFailure as e:
                raise Invalid("INTERNAL: " + jdbc_message(e)) from None
    except ConnectionLost as e:
        raise Invalid("Internal error: " + str(e)) from None
    finally:
        await conn.close()


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode()


class _Validator:
    """PostgresValidator's checks over one connection."""

    def __init__(self, conn: PgConn, props: Mapping[str, str], table: TableSchema | None) -> None:
        self.conn = conn
        self.props = props
        self.t = table
        self.user = props["username"]
        self.db = props["database.name"]
        self.pub = props["publication.name"]
        self.slot = props["slot.name"]
        self.superuser = False

    async def one(self, sql: str, *params: str) -> str | None:
        res = await self.conn.query(sql, [p.encode() for p in params])
        return _text(res.get_value(0, 0)) if res.ntuples else None

    async def column(self, sql: str, *params: str) -> list[str | None]:
        res = await self.conn.query(sql, [p.encode() for p in params])
        return [_text(res.get_value(r, 0)) for r in range(res.ntuples)]

    async def db_config(self) -> None:
        """validateDbConfig."""
        if await self.one("show wal_level") != "logical":
            raise Invalid(
                "INVALID_ARGUMENT: Postgres wal_level should be 'logical'.\n"
                "Please modify the config and restart your Postgres server."
            )
        found = await self.one(
            "SELECT slot_name FROM pg_replication_slots WHERE slot_name = $1 and database = $2",
            self.slot, self.db,
        )  # fmt: skip
        if found != self.slot:
            full = await self.one(
                "SELECT CASE WHEN (SELECT count(*) FROM pg_replication_slots) = (SELECT setting"
                " FROM pg_settings WHERE name='max_replication_slots')::int THEN 'true' ELSE"
                " 'false' END AS result;"
            )
            if full == "true":
                raise Invalid(
                    "FAILED_PRECONDITION: all replication slots are in use\n Hint: Free one or"
                    " increase max_replication_slots."
                )

    async def privileges(self) -> None:
        """validatePrivileges (standalone PostgreSQL; the RDS variant is not imitated)."""
        self.superuser = (
            await self.one("SELECT rolsuper FROM pg_roles WHERE rolname = $1", self.user) == "t"
        )
        if not self.superuser:
            for ok in await self.column(
                "SELECT rolreplication OR rolsuper FROM pg_roles WHERE rolname = $1", self.user
            ):
                if ok != "t":
                    raise Invalid(
                        "INVALID_ARGUMENT: Postgres user must be superuser or replication role"
                        " to start walsender."
                    )
        t = self.t
        if t is not None and not self.superuser:
            for ok in await self.column(
                "SELECT has_table_privilege($1, $2, 'SELECT')", self.user, _quoted(t)
            ):
                if ok != "t":
                    raise Invalid(
                        "INVALID_ARGUMENT: Postgres user must have select privilege on table"
                        f" '{t.schema}.{t.table}'"
                    )
        await self.publication()

    async def publication(self) -> None:
        """validatePublicationConfig."""
        exists = (
            await self.one("SELECT count(*) > 0 from pg_publication WHERE pubname = $1", self.pub)
            == "t"
        )
        if not exists and self.props["publication.create.enable"].lower() != "true":
            raise Invalid(
                f"INVALID_ARGUMENT: Publication '{self.pub}' doesn't exist and auto create is"
                " disabled"
            )
        t = self.t
        if t is None:
            if not exists:  # DbzSourceUtils.createPostgresPublicationInValidate
                await self.conn.script(
                    f"CREATE PUBLICATION {_ident(self.pub)} WITH ( publish_via_partition_root"
                    " = true );"
                )
            return
        partial = (
            await self.one(
                "SELECT count(*) > 0 FROM information_schema.columns WHERE table_name ="
                " 'pg_publication_tables' AND column_name = 'attnames'"
            )
            == "t"
        )
        partitions = await self.column(
            "SELECT c.relname AS partition_name FROM pg_inherits AS i JOIN pg_class AS c ON"
            " i.inhrelid = c.oid JOIN pg_class AS p ON i.inhparent = p.oid JOIN pg_namespace AS"
            " n ON p.relnamespace = n.oid WHERE n.nspname = $1 AND p.relname = $2;",
            t.schema, t.table,
        )  # fmt: skip
        if partitions and exists:
            via_root = await self.one(
                "SELECT pubviaroot from pg_publication WHERE pubname = $1", self.pub
            )
            if via_root != "t":
                raise Invalid(
                    f"INVALID_ARGUMENT: Table '{t.table}' has partitions, which requires"
                    f" publication '{self.pub}' to be created with `publish_via_partition_root"
                    " = true`. \nHint: you can run `SELECT pubviaroot from pg_publication WHERE"
                    f" pubname = '{self.pub}'` in the upstream Postgres to check."
                )
        generated = set(
            await self.column(
                "SELECT a.attname FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid JOIN"
                " pg_namespace n ON c.relnamespace = n.oid WHERE n.nspname = $1 AND c.relname ="
                " $2 AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated != ''",
                t.schema, t.table,
            )
        )  # fmt: skip
        covered = False
        if partial:
            found = await self.one(
                "SELECT attnames FROM pg_publication_tables WHERE schemaname = $1 AND tablename"
                " = $2 AND pubname = $3",
                t.schema, t.table, self.pub,
            )  # fmt: skip
            if found is not None:
                names = _pg_array(found)
                for name, _ in t.columns:
                    if name not in generated and name not in names:
                        raise Invalid(
                            f"INVALID_ARGUMENT: The publication '{self.pub}' does not cover all"
                            f" columns of the table '{t.schema}.{t.table}'"
                        )
                covered = True
        else:
            has = await self.one(
                "SELECT COUNT(*) > 0 AS count FROM pg_publication_tables WHERE schemaname ="
                " $1 AND tablename = $2 AND pubname = $3",
                t.schema, t.table, self.pub,
            )  # fmt: skip
            covered = has == "t"
        if covered:
            return
        if not self.superuser:
            await self.publication_privileges(t)
        if exists:  # alterPublicationIfNeeded: the publication's name is not quoted there
            await self.conn.script(f"ALTER PUBLICATION {self.pub} ADD TABLE {_quoted(t)}")

    async def publication_privileges(self, t: TableSchema) -> None:
        """validatePublicationPrivileges."""
        for ok in await self.column(
            "SELECT has_database_privilege($1, $2, 'create') FROM pg_roles WHERE rolname = $3",
            self.user, self.db, self.user,
        ):  # fmt: skip
            if ok != "t":
                raise Invalid(
                    f"INVALID_ARGUMENT: Postgres user must have create privilege on database"
                    f" '{self.db}'"
                )
        owner = await self.one(
            "SELECT tableowner FROM pg_tables WHERE schemaname = $1 and tablename = $2",
            t.schema, t.table,
        )  # fmt: skip
        is_owner = owner == self.user
        if not is_owner and owner is not None:
            # postgres.users_of_group: the members of the owner role, recursively
            is_owner = (
                await self.one("SELECT pg_has_role($1, $2, 'MEMBER')", self.user, owner) == "t"
            )
        if not is_owner:
            raise Invalid(
                f"INVALID_ARGUMENT: Postgres user must be the owner of table '{t.table}' to"
                " create/alter publication"
            )

    async def table(self) -> None:
        """validateTableSchema."""
        t = self.t
        if t is None:
            return
        exists = await self.one(
            "SELECT EXISTS ( SELECT FROM pg_tables WHERE schemaname = $1 AND tablename = $2)",
            t.schema, t.table,
        )  # fmt: skip
        if exists != "t":
            raise Invalid("INVALID_ARGUMENT: Postgres table or schema doesn't exist")
        pk = set(
            await self.column(
                "SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS data_type FROM"
                " pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum ="
                " ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary",
                _quoted(t),
            )
        )
        if len(t.primary_key) != len(pk):
            raise Invalid(
                "INVALID_ARGUMENT: Primary key mismatch: the SQL schema defines"
                f" {len(t.primary_key)} primary key columns, but the source table in Postgres"
                f" has {len(pk)} columns."
            )
        for name in t.primary_key:
            if name not in pk:
                raise Invalid(
                    "INVALID_ARGUMENT: Primary key mismatch: The primary key list of the source"
                    f" table in Postgres does not contain '{name}'.\nHint: If your primary key"
                    " contains uppercase letters, please ensure that the primary key in the DML"
                    " of RisingWave uses the same uppercase format and is wrapped with double"
                    ' quotes ("").'
                )
        res = await self.conn.query(
            "SELECT c.column_name, c.data_type, c.character_maximum_length, c.udt_name,"
            " a.atttypmod FROM information_schema.columns c JOIN pg_catalog.pg_namespace n ON"
            " n.nspname = c.table_schema JOIN pg_catalog.pg_class cls ON cls.relname ="
            " c.table_name AND cls.relnamespace = n.oid JOIN pg_catalog.pg_attribute a ON"
            " a.attrelid = cls.oid AND a.attname = c.column_name WHERE c.table_schema = $1 AND"
            " c.table_name = $2 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY"
            " c.ordinal_position",
            [t.schema.encode(), t.table.encode()],
        )
        upstream = {
            _text(res.get_value(r, 0)) or "": (
                _text(res.get_value(r, 1)) or "",
                _text(res.get_value(r, 2)),
                _text(res.get_value(r, 3)),
            )
            for r in range(res.ntuples)
        }
        for name, rw_type in t.columns:
            if name.startswith("_rw_"):
                continue
            info = upstream.get(name)
            if info is None:
                raise Invalid(
                    f"INVALID_ARGUMENT: Column '{name}' not found in the upstream database"
                )
            data_type, max_len, udt = info
            if not compatible(data_type, rw_type, None if max_len is None else int(max_len), udt):
                raise Invalid(f"INVALID_ARGUMENT: Incompatible data type of column {name}")


def _ident(name: str) -> str:
    return '"' + name + '"'  # quotePostgres: the name between double quotes, as it is


def _quoted(t: TableSchema) -> str:
    return f'"{t.schema}"."{t.table}"'


def _pg_array(text: str) -> list[str]:
    """A ``name[]`` value's text (``{a,"b c"}``) as its elements."""
    inner = text[1:-1]
    out: list[str] = []
    cur, quoted, i = "", False, 0
    while i < len(inner):
        ch = inner[i]
        if quoted:
            if ch == "\\":
                i += 1
                cur += inner[i]
            elif ch == '"':
                quoted = False
            else:
                cur += ch
        elif ch == '"':
            quoted = True
        elif ch == ",":
            out.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    if inner:
        out.append(cur)
    return out


def type_kind(rw_type: str) -> str:
    """RisingWave's PbTypeName of a column type's text."""
    t = rw_type.lower()
    if t.endswith("[]"):
        return "List"
    if t.startswith("struct"):
        return "Struct"
    if t.startswith("vector"):
        return "Vector"
    if t.startswith("map"):
        return "Map"
    return _KINDS.get(t, t)


_KINDS = {
    "boolean": "Boolean", "smallint": "Int16", "integer": "Int32", "bigint": "Int64",
    "real": "Float", "double precision": "Double", "character varying": "Varchar",
    "timestamp with time zone": "Timestamptz", "timestamp without time zone": "Timestamp",
    "time without time zone": "Time", "interval": "Interval", "bytea": "Bytea",
    "jsonb": "Jsonb", "date": "Date", "numeric": "Decimal", "rw_int256": "Int256",
    "serial": "Serial",
}  # fmt: skip

_VARCHAR_TYPES = frozenset(
    ("character varying", "character", "char", "text", "xml", "uuid", "inet", "cidr", "macaddr",
     "macaddr8", "int4range", "int8range", "numrange", "tsrange", "tstzrange", "daterange")
)  # fmt: skip


def compatible(data_type: str, rw_type: str, max_len: int | None, udt: str | None) -> bool:
    """postgres_source_column_type_compatible (cdc_type_compatibility.rs:143-191)."""
    pg = data_type.lower()
    k = type_kind(rw_type)
    simple = {
        "boolean": "Boolean", "smallint": "Int16", "integer": "Int32", "bigint": "Int64",
        "oid": "Int64", "real": "Float", "double precision": "Double",
        "timestamp with time zone": "Timestamptz", "timestamptz": "Timestamptz",
        "timestamp without time zone": "Timestamp", "timestamp": "Timestamp",
        "time with time zone": "Time", "timetz": "Time", "time without time zone": "Time",
        "time": "Time", "interval": "Interval", "bytea": "Bytea", "geometry": "Bytea",
        "geography": "Bytea", "json": "Jsonb", "jsonb": "Jsonb", "date": "Date",
        "money": "Decimal", "point": "Struct", "array": "List",
    }  # fmt: skip
    if pg == "bit":
        return (max_len is None or max_len == 1) and k == "Boolean"
    if pg in _VARCHAR_TYPES:
        return k == "Varchar"
    if pg == "numeric":
        return k in ("Decimal", "Int256", "Varchar")
    if pg == "user-defined":
        u = None if udt is None else udt.lower()
        if u == "citext":
            return k == "Varchar"
        if u in ("geometry", "geography"):
            return k == "Bytea"
        if u == "vector":
            return k == "Vector"
        if u in ("ltree", "hstore") or u is None:
            return False
        return k == "Varchar"
    return simple.get(pg) == k


def table_columns(
    columns: Sequence[tuple[str, str]], primary_key: Sequence[str], schema: str, table: str
) -> TableSchema:
    return TableSchema(schema, table, tuple(columns), tuple(primary_key))


# sea_type_to_rw_type (src/connector/src/connector_common/postgres.rs:687-759) by udt name
_DISCOVERED = {
    "int2": "smallint", "int4": "integer", "int8": "bigint", "numeric": "numeric",
    "money": "numeric", "float4": "real", "float8": "double precision",
    "varchar": "character varying", "bpchar": "character varying", "text": "character varying",
    "bytea": "bytea", "timestamp": "timestamp", "timestamptz": "timestamp with time zone",
    "date": "date", "time": "time", "timetz": "time", "interval": "interval",
    "bool": "boolean", "point": "struct<x real, y real>", "uuid": "character varying",
    "xml": "character varying", "json": "jsonb", "jsonb": "jsonb", "pg_lsn": "bigint",
    "cidr": "character varying", "inet": "character varying", "macaddr": "character varying",
    "macaddr8": "character varying", "int4range": "character varying",
    "int8range": "character varying", "numrange": "character varying",
    "tsrange": "character varying", "tstzrange": "character varying",
    "daterange": "character varying", "geometry": "bytea", "geography": "bytea",
}  # fmt: skip
# SeaType's Debug of the types sea_type_to_rw_type refuses
_REFUSED = {
    "line": "Line", "lseg": "Lseg", "box": "Box", "path": "Path", "polygon": "Polygon",
    "circle": "Circle", "tsvector": "TsVector", "tsquery": "TsQuery",
}  # fmt: skip


class DeriveFailed(Exception):
    """bind_cdc_table_schema_externally's failure (its anyhow text)."""


async def discover(props: Mapping[str, str], schema: str, table: str) -> tuple[str, list[str]]:
    """A ``CREATE TABLE t (*) FROM <postgres-cdc source> TABLE 'schema.table'``: the upstream
    table's columns as a column list (``"name" type, ...``) and its key (PostgresExternalTable::
    connect, connector_common/postgres.rs:300-489; column defaults are not carried)."""
    try:
        conn = await PgConn.connect(conninfo(props))
    except ConnectionLost as e:
        raise DeriveFailed(str(e)) from None
    try:
        res = await conn.query(
            "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1),"
            " EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE n.nspname = $1 AND c.relname = $2)",
            [schema.encode(), table.encode()],
        )
        if res.get_value(0, 0) != b"t":
            raise DeriveFailed(f"PostgreSQL schema `{schema}` does not exist")
        if res.get_value(0, 1) != b"t":
            raise DeriveFailed(f"PostgreSQL table `{schema}`.`{table}` does not exist")
        cols = await conn.query(
            "SELECT a.attname, t.typname, t.typcategory = 'A', e.typname, t.typtype"
            " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n"
            " ON n.oid = c.relnamespace JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_type e"
            " ON e.oid = t.typelem AND t.typcategory = 'A' WHERE n.nspname = $1 AND c.relname"
            " = $2 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            [schema.encode(), table.encode()],
        )
        pk = await conn.query(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary"
            " ORDER BY array_position(i.indkey, a.attnum)",
            [f'"{schema}"."{table}"'.encode()],
        )
    except PgFailure as e:
        raise DeriveFailed(e.error.message) from None
    finally:
        await conn.close()
    parts: list[str] = []
    for r in range(cols.ntuples):
        name = _text(cols.get_value(r, 0)) or ""
        udt = _text(cols.get_value(r, 1)) or ""
        is_array = cols.get_value(r, 2) == b"t"
        elem = _text(cols.get_value(r, 3)) or ""
        rw = _rw_type(elem if is_array else udt)
        parts.append(f"{_ident_sql(name)} {rw}{'[]' if is_array else ''}")
    keys = [_text(pk.get_value(r, 0)) or "" for r in range(pk.ntuples)]
    if not keys:
        raise DeriveFailed(
            "Postgres table should define the primary key for non-append-only tables"
        )
    return ", ".join(parts), keys


def _rw_type(udt: str) -> str:
    refused = _REFUSED.get(udt)
    if refused is not None:
        raise DeriveFailed(f"{refused} data type is not supported")
    if udt in ("bit", "varbit"):
        raise DeriveFailed(f"{'Bit' if udt == 'bit' else 'VarBit'} data type is not supported")
    # an enum or other user-defined type: varchar (postgres.rs:745-755)
    return _DISCOVERED.get(udt, "character varying")


def _ident_sql(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
