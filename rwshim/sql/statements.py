"""Typed statements: one frozen dataclass per RisingWave statement kind rwshim recognises.

Each carries ``text`` (its own source text, trimmed) and knows the command tag RisingWave sends
for it: the Debug name of ``StatementType`` (src/utils/pgwire/src/pg_response.rs:34-127, chosen
as in pg_response.rs:255-345 and src/frontend/src/handler/mod.rs).  ``OWNER`` says which part
of rwshim gives the statement its behaviour: ``engine`` (issue 4), ``read`` (issue 5, the read
and DML path) or ``session`` (issue 3, this front end and the session).

Values keep what RisingWave's parser keeps: parallelism and SET values as text (the handlers
re-parse them), WITH options as ordered ``(key, value text)`` pairs, object names as
``(database, schema, name)`` folded as RisingWave folds identifiers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

Owner = Literal["engine", "read", "session", "control"]


@dataclass(frozen=True, slots=True)
class ObjectName:
    """A possibly qualified name; parts are folded (unquoted lower-cased, quoted kept)."""

    parts: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.parts[-1]

    @property
    def schema(self) -> str | None:
        return self.parts[-2] if len(self.parts) >= 2 else None

    @property
    def database(self) -> str | None:
        return self.parts[-3] if len(self.parts) >= 3 else None

    def triple(self) -> tuple[str | None, str | None, str]:
        return (self.database, self.schema, self.name)

    def __str__(self) -> str:
        return ".".join(self.parts)


def name(*parts: str) -> ObjectName:
    """Shorthand for tests and callers: ``name("s", "t")``."""
    return ObjectName(tuple(parts))


@dataclass(frozen=True, slots=True)
class SetValue:
    """The right-hand side of SET / ALTER ... SET PARALLELISM (parser.rs:4250-4288).

    ``kind`` is ``default``, ``single`` or ``list``; ``items`` are the values as the handler
    reads them: literals unquoted, identifiers as written, ``ident(args)`` as raw text.
    """

    kind: Literal["default", "single", "list"]
    items: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """What RisingWave's handlers turn the value into (`default` or items joined ', ')."""
        return "default" if self.kind == "default" else ", ".join(self.items)


class OptionValue(str):
    """A WITH option's value text, remembering what it was written as.

    ``kind`` is ``string`` ('' or E''), ``number``, ``bool``, ``null``, ``dollar``,
    ``nstring``, ``xstring``, ``secret`` (SECRET name), ``connection`` (a connection name) or
    ``backfill_order``; the handlers accept only some (rwshim.sql.with_options).
    """

    kind: str

    def __new__(cls, text: str, kind: str = "string") -> OptionValue:
        obj = super().__new__(cls, text)
        obj.kind = kind
        return obj


Options = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Statement:
    """Base: every statement has its source text; subclasses set TAG and OWNER."""

    text: str
    TAG: ClassVar[str] = "OTHER"
    OWNER: ClassVar[Owner] = "engine"

    @property
    def tag(self) -> str:
        return self.TAG


# --- queries and DML (read path) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Query(Statement):
    """SELECT / VALUES / WITH / (query): the text, for the read path to translate."""

    TAG: ClassVar[str] = "SELECT"
    OWNER: ClassVar[Owner] = "read"


@dataclass(frozen=True, slots=True)
class Insert(Statement):
    """INSERT INTO <table> ... [RETURNING ...]."""

    table: ObjectName
    returning: bool = False
    OWNER: ClassVar[Owner] = "read"

    @property
    def tag(self) -> str:
        return "INSERT_RETURNING" if self.returning else "INSERT"


@dataclass(frozen=True, slots=True)
class Update(Statement):
    """UPDATE <table> SET ... [RETURNING ...]."""

    table: ObjectName
    returning: bool = False
    OWNER: ClassVar[Owner] = "read"

    @property
    def tag(self) -> str:
        return "UPDATE_RETURNING" if self.returning else "UPDATE"


@dataclass(frozen=True, slots=True)
class Delete(Statement):
    """DELETE FROM <table> ... [RETURNING ...]."""

    table: ObjectName
    returning: bool = False
    OWNER: ClassVar[Owner] = "read"

    @property
    def tag(self) -> str:
        return "DELETE_RETURNING" if self.returning else "DELETE"


@dataclass(frozen=True, slots=True)
class Copy(Statement):
    """COPY <table> [(cols)] {FROM STDIN | TO STDOUT}."""

    table: ObjectName | None
    to_stdout: bool
    TAG: ClassVar[str] = "COPY"
    OWNER: ClassVar[Owner] = "read"


@dataclass(frozen=True, slots=True)
class Explain(Statement):
    """EXPLAIN [ANALYZE] [VERBOSE] [(options)] <statement>."""

    inner: Statement
    TAG: ClassVar[str] = "EXPLAIN"
    OWNER: ClassVar[Owner] = "read"


@dataclass(frozen=True, slots=True)
class DeclareCursor(Statement):
    """DECLARE <cursor> CURSOR FOR <query>."""

    cursor: str
    query: str
    TAG: ClassVar[str] = "DECLARE_CURSOR"
    OWNER: ClassVar[Owner] = "read"


@dataclass(frozen=True, slots=True)
class FetchCursor(Statement):
    """FETCH [FORWARD] {n | ALL} FROM <cursor>."""

    cursor: str
    count: int | None  # None = ALL
    TAG: ClassVar[str] = "FETCH_CURSOR"
    OWNER: ClassVar[Owner] = "read"


@dataclass(frozen=True, slots=True)
class CloseCursor(Statement):
    """CLOSE <cursor> | CLOSE ALL."""

    cursor: str | None  # None = ALL
    TAG: ClassVar[str] = "CLOSE_CURSOR"
    OWNER: ClassVar[Owner] = "read"


@dataclass(frozen=True, slots=True)
class Truncate(Statement):
    """TRUNCATE [TABLE] <table>."""

    table: ObjectName
    TAG: ClassVar[str] = "OTHER"
    OWNER: ClassVar[Owner] = "read"


# --- session statements (this issue) ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetVariable(Statement):
    """SET [SESSION | LOCAL] <name> {= | TO} {<value>[, ...] | DEFAULT}."""

    variable: str  # folded: unquoted lower-cased, quoted kept
    value: SetValue
    local: bool = False
    TAG: ClassVar[str] = "SET_VARIABLE"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class SetTimeZone(Statement):
    """SET [SESSION|LOCAL] TIME ZONE {DEFAULT | LOCAL | 'zone' | zone | INTERVAL '+00:00' ...}.

    ``value`` is what RisingWave's handler sets ``timezone`` to (handler/variable.rs:95-118):
    DEFAULT gives ``UTC``, a name its real value, a literal its text.  ``LOCAL`` (the server's
    own zone) leaves ``value`` empty with ``local_zone`` set: the server knows its zone.
    """

    value: str
    local: bool = False  # SET LOCAL (ignored by RisingWave)
    local_zone: bool = False
    TAG: ClassVar[str] = "SET_VARIABLE"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class SetTransaction(Statement):
    """SET TRANSACTION ... / SET SESSION CHARACTERISTICS AS TRANSACTION ..."""

    TAG: ClassVar[str] = "SET_TRANSACTION"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class ShowVariable(Statement):
    """SHOW <name> / SHOW ALL / SHOW PARAMETERS / SHOW TRANSACTION ISOLATION LEVEL."""

    variable: str  # e.g. "timezone", "all", "transaction_isolation"
    TAG: ClassVar[str] = "SHOW_VARIABLE"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class StartTransaction(Statement):
    """START TRANSACTION [modes]."""

    TAG: ClassVar[str] = "START_TRANSACTION"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Begin(Statement):
    """BEGIN [TRANSACTION | WORK] [modes] (no transaction is opened, as in RisingWave)."""

    TAG: ClassVar[str] = "BEGIN"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Commit(Statement):
    """COMMIT [TRANSACTION | WORK]."""

    TAG: ClassVar[str] = "COMMIT"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Rollback(Statement):
    """ROLLBACK [TRANSACTION | WORK]."""

    TAG: ClassVar[str] = "ROLLBACK"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Abort(Statement):
    """ABORT."""

    TAG: ClassVar[str] = "ABORT"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Prepare(Statement):
    """PREPARE <name> [(types)] AS <statement>."""

    statement_name: str
    TAG: ClassVar[str] = "PREPARE"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Execute(Statement):
    """EXECUTE <name> [(params)]."""

    statement_name: str
    TAG: ClassVar[str] = "OTHER"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Deallocate(Statement):
    """DEALLOCATE [PREPARE] {<name> | ALL}."""

    statement_name: str | None  # None = ALL
    TAG: ClassVar[str] = "DEALLOCATE"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Discard(Statement):
    """DISCARD ALL."""

    TAG: ClassVar[str] = "DISCARD"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Use(Statement):
    """USE <database>."""

    database: str
    TAG: ClassVar[str] = "USE"
    OWNER: ClassVar[Owner] = "session"


# --- SHOW forms answered from the catalog / engine ---------------------------------------


@dataclass(frozen=True, slots=True)
class ShowObjects(Statement):
    """SHOW TABLES / MATERIALIZED VIEWS / ... / JOBS / PROCESSLIST / PARAMETERS (SHOW_COMMAND)."""

    what: str  # upper-case object word(s): "TABLES", "MATERIALIZED VIEWS", "JOBS", ...
    schema: ObjectName | None = None  # FROM <schema> / FROM <table> for COLUMNS and INDEXES
    like: str | None = None
    ilike: str | None = None
    where: str | None = None
    TAG: ClassVar[str] = "SHOW_COMMAND"


@dataclass(frozen=True, slots=True)
class ShowCreate(Statement):
    """SHOW CREATE {TABLE | MATERIALIZED VIEW | VIEW | INDEX | SOURCE | SINK | SUBSCRIPTION |
    FUNCTION} <name>.
    """

    object_type: str  # "TABLE", "MATERIALIZED VIEW", "VIEW", "INDEX", "SOURCE", "SINK", ...
    name: ObjectName
    TAG: ClassVar[str] = "SHOW_COMMAND"


@dataclass(frozen=True, slots=True)
class DescribeFragment(Statement):
    """DESCRIBE FRAGMENT <id>."""

    fragment_id: int
    TAG: ClassVar[str] = "DESCRIBE"


@dataclass(frozen=True, slots=True)
class Describe(Statement):
    """DESCRIBE [FRAGMENTS] <name>."""

    name: ObjectName
    fragments: bool = False
    TAG: ClassVar[str] = "DESCRIBE"


# --- job management ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CancelJobs(Statement):
    """CANCEL {JOBS | JOB} <id>[, ...]."""

    job_ids: tuple[int, ...]
    TAG: ClassVar[str] = "CANCEL_COMMAND"


@dataclass(frozen=True, slots=True)
class Kill(Statement):
    """KILL '<process id>'."""

    process: str  # the worker:id text or number, as written (quotes stripped)
    TAG: ClassVar[str] = "KILL"


@dataclass(frozen=True, slots=True)
class Wait(Statement):
    """WAIT [TABLE | MATERIALIZED VIEW | SINK | INDEX <name>]."""

    object_type: str | None = None  # None, "TABLE", "MATERIALIZED VIEW", "SINK", "INDEX"
    name: ObjectName | None = None
    TAG: ClassVar[str] = "WAIT"


@dataclass(frozen=True, slots=True)
class Flush(Statement):
    """FLUSH."""

    TAG: ClassVar[str] = "FLUSH"


@dataclass(frozen=True, slots=True)
class Recover(Statement):
    """RECOVER: ad-hoc recovery (superuser only)."""

    TAG: ClassVar[str] = "RECOVER"


@dataclass(frozen=True, slots=True)
class RefreshTable(Statement):
    """REFRESH TABLE <name> (refreshable tables)."""

    table: ObjectName
    TAG: ClassVar[str] = "REFRESH_TABLE"


@dataclass(frozen=True, slots=True)
class Backup(Statement):
    """BACKUP: a meta snapshot."""

    TAG: ClassVar[str] = "BACKUP"


# --- ALTER --------------------------------------------------------------------------------

_ALTER_TAGS = {
    "TABLE": "ALTER_TABLE",
    "MATERIALIZED VIEW": "ALTER_MATERIALIZED_VIEW",
    "VIEW": "ALTER_VIEW",
    "INDEX": "ALTER_INDEX",
    "SINK": "ALTER_SINK",
    "SOURCE": "ALTER_SOURCE",
    "SCHEMA": "ALTER_SCHEMA",
    "DATABASE": "ALTER_DATABASE",
    "SUBSCRIPTION": "ALTER_SUBSCRIPTION",
    "FUNCTION": "ALTER_FUNCTION",
    "CONNECTION": "ALTER_CONNECTION",
    "SECRET": "ALTER_SECRET",
}

AlterKind = Literal["TABLE", "MATERIALIZED VIEW", "VIEW", "INDEX", "SINK", "SOURCE"]


@dataclass(frozen=True, slots=True)
class _AlterObject(Statement):
    kind: str  # "TABLE", "MATERIALIZED VIEW", "VIEW", "INDEX", "SINK", "SOURCE", ...
    name: ObjectName

    @property
    def tag(self) -> str:
        return _ALTER_TAGS[self.kind]


@dataclass(frozen=True, slots=True)
class AlterParallelism(_AlterObject):
    """ALTER <kind> <name> SET PARALLELISM {TO|=} <value> [DEFERRED]."""

    value: SetValue = field(default_factory=lambda: SetValue("default"))
    deferred: bool = False


@dataclass(frozen=True, slots=True)
class AlterBackfillParallelism(_AlterObject):
    """ALTER <kind> <name> SET BACKFILL_PARALLELISM {TO|=} <value> [DEFERRED]."""

    value: SetValue = field(default_factory=lambda: SetValue("default"))
    deferred: bool = False


@dataclass(frozen=True, slots=True)
class AlterRateLimit(_AlterObject):
    """ALTER <kind> <name> SET <TYPE>_RATE_LIMIT {TO|=} {n|DEFAULT}; DEFAULT is -1 (none)."""

    rate_limit_type: str = "BACKFILL"  # SOURCE, BACKFILL, DML, SINK
    rate_limit: int = -1


@dataclass(frozen=True, slots=True)
class AlterResourceGroup(_AlterObject):
    """ALTER <kind> <name> {SET RESOURCE_GROUP {TO|=} v | RESET RESOURCE_GROUP} [DEFERRED]."""

    value: SetValue | None = None  # None = RESET
    deferred: bool = False


@dataclass(frozen=True, slots=True)
class AlterSetConfig(_AlterObject):
    """ALTER <kind> <name> SET CONFIG (k = v, ...)."""

    entries: Options = ()


@dataclass(frozen=True, slots=True)
class AlterResetConfig(_AlterObject):
    """ALTER <kind> <name> RESET CONFIG (k, ...)."""

    keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AlterRename(_AlterObject):
    """ALTER <kind> <name> RENAME TO <new name>."""

    new_name: ObjectName = field(default_factory=lambda: ObjectName(("",)))


@dataclass(frozen=True, slots=True)
class AlterOwner(_AlterObject):
    """ALTER <kind> <name> OWNER TO <user>."""

    new_owner: str = ""


@dataclass(frozen=True, slots=True)
class AlterSetSchema(_AlterObject):
    """ALTER <kind> <name> SET SCHEMA <schema>."""

    new_schema: ObjectName = field(default_factory=lambda: ObjectName(("",)))


@dataclass(frozen=True, slots=True)
class AlterSwap(_AlterObject):
    """ALTER <kind> <name> SWAP WITH <other>."""

    target: ObjectName = field(default_factory=lambda: ObjectName(("",)))


@dataclass(frozen=True, slots=True)
class AlterOperation(_AlterObject):
    """The other ALTER forms, kept as text: columns (ADD/DROP/RENAME/ALTER COLUMN), CONNECTOR
    WITH, DROP CONNECTOR, REFRESH SCHEMA, FORMAT ... ENCODE, ALTER FUNCTION/CONNECTION/SECRET."""

    operation: str = ""  # "ADD COLUMN", "DROP COLUMN", "RENAME COLUMN", "ALTER COLUMN", ...


@dataclass(frozen=True, slots=True)
class AlterCompactionGroup(Statement):
    """ALTER COMPACTION GROUP <id>[, ...] SET <param> = <value>[, ...]."""

    TAG: ClassVar[str] = "ALTER_COMPACTION_GROUP"


@dataclass(frozen=True, slots=True)
class AlterDefaultPrivileges(Statement):
    """ALTER DEFAULT PRIVILEGES ... {GRANT | REVOKE} ..."""

    TAG: ClassVar[str] = "ALTER_DEFAULT_PRIVILEGES"


@dataclass(frozen=True, slots=True)
class AlterStreamingOption(_AlterObject):
    """ALTER <kind> <name> SET STREAMING_ENABLE_UNALIGNED_JOIN {TO|=} bool."""

    option: str = ""
    enable: bool = False


@dataclass(frozen=True, slots=True)
class AlterViewQuery(_AlterObject):
    """ALTER [MATERIALIZED] VIEW <name> AS <query>."""

    query: str = ""


@dataclass(frozen=True, slots=True)
class AlterDatabaseParam(Statement):
    """ALTER DATABASE <name> SET <param> {=|TO} <value> (the handler accepts two params)."""

    database: ObjectName
    param: str
    value: SetValue
    TAG: ClassVar[str] = "ALTER_DATABASE"


@dataclass(frozen=True, slots=True)
class AlterDatabasePause(Statement):
    """rwshim extension (architecture.md decision 2): ALTER DATABASE <name> {PAUSE|RESUME}."""

    database: ObjectName
    pause: bool
    TAG: ClassVar[str] = "ALTER_DATABASE"


@dataclass(frozen=True, slots=True)
class AlterSystemPause(Statement):
    """rwshim extension (architecture.md decision 2): ALTER SYSTEM {PAUSE|RESUME}."""

    pause: bool
    TAG: ClassVar[str] = "ALTER_SYSTEM"


@dataclass(frozen=True, slots=True)
class AlterSystem(Statement):
    """ALTER SYSTEM SET <param> {=|TO} <value>|DEFAULT (system parameter or session default)."""

    param: str  # as written (its notice prints it so); fold it to look it up
    value: SetValue
    TAG: ClassVar[str] = "ALTER_SYSTEM"


@dataclass(frozen=True, slots=True)
class AlterFragmentParallelism(Statement):
    """ALTER FRAGMENT <id>[, ...] SET PARALLELISM {TO|=} <value> (no DEFERRED)."""

    fragment_ids: tuple[int, ...]
    value: SetValue
    TAG: ClassVar[str] = "ALTER_FRAGMENT"


@dataclass(frozen=True, slots=True)
class AlterFragmentRateLimit(Statement):
    """ALTER FRAGMENT <id>[, ...] SET [<TYPE>_]RATE_LIMIT ...; tag SET_VARIABLE (mod.rs:1621)."""

    fragment_ids: tuple[int, ...]
    rate_limit: int
    TAG: ClassVar[str] = "SET_VARIABLE"


@dataclass(frozen=True, slots=True)
class AlterUser(Statement):
    """ALTER USER <name> [WITH] options / RENAME TO <new name>."""

    user: str
    TAG: ClassVar[str] = "UPDATE_USER"


# --- CREATE --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateMaterializedView(Statement):
    """CREATE [OR REPLACE] MATERIALIZED VIEW [IF NOT EXISTS] <name> [(cols)] [WITH (...)] AS
    <query> [EMIT ...].
    """

    name: ObjectName
    query: str
    columns: tuple[str, ...] = ()
    with_options: Options = ()
    if_not_exists: bool = False
    or_replace: bool = False
    emit_on_window_close: bool = False
    TAG: ClassVar[str] = "CREATE_MATERIALIZED_VIEW"


@dataclass(frozen=True, slots=True)
class CreateView(Statement):
    """CREATE [OR REPLACE] VIEW [IF NOT EXISTS] <name> [(cols)] AS <query>."""

    name: ObjectName
    query: str
    columns: tuple[str, ...] = ()
    if_not_exists: bool = False
    or_replace: bool = False
    with_options: Options = ()
    TAG: ClassVar[str] = "CREATE_VIEW"


@dataclass(frozen=True, slots=True)
class FormatEncode:
    format: str  # upper-case as RisingWave prints it: PLAIN, UPSERT, DEBEZIUM, ...
    encode: str  # JSON, AVRO, ...
    options: Options = ()


@dataclass(frozen=True, slots=True)
class CreateTable(Statement):
    """CREATE TABLE ... [(cols)] [APPEND ONLY] [ON CONFLICT ...] [INCLUDE ...] [WITH (...)]
    [FORMAT ... ENCODE ...] [AS <query>] [ENGINE = ...].
    """

    name: ObjectName
    columns_text: str | None = None  # "(...)" as written, incl. constraints and watermarks
    query: str | None = None  # CREATE TABLE ... AS <query>
    if_not_exists: bool = False
    or_replace: bool = False
    temporary: bool = False
    append_only: bool = False
    on_conflict: str | None = None
    with_options: Options = ()
    format_encode: FormatEncode | None = None
    include: tuple[str, ...] = ()
    engine: str | None = None
    cdc_source: ObjectName | None = None  # FROM <source> TABLE '<external table>'
    cdc_table: str | None = None
    TAG: ClassVar[str] = "CREATE_TABLE"


@dataclass(frozen=True, slots=True)
class CreateSource(Statement):
    """CREATE SOURCE [IF NOT EXISTS] <name> [(cols)] [INCLUDE ...] [WITH (...)] [FORMAT ...
    ENCODE ...].
    """

    name: ObjectName
    columns_text: str | None = None
    if_not_exists: bool = False
    with_options: Options = ()
    format_encode: FormatEncode | None = None
    include: tuple[str, ...] = ()
    TAG: ClassVar[str] = "CREATE_SOURCE"


@dataclass(frozen=True, slots=True)
class CreateSink(Statement):
    """CREATE SINK [IF NOT EXISTS] <name> [INTO <table>] {FROM <name> | AS <query>} [WITH
    (...)] [FORMAT ... ENCODE ...].
    """

    name: ObjectName
    from_name: ObjectName | None = None
    query: str | None = None
    into_table: ObjectName | None = None
    if_not_exists: bool = False
    with_options: Options = ()
    format_encode: FormatEncode | None = None
    TAG: ClassVar[str] = "CREATE_SINK"


@dataclass(frozen=True, slots=True)
class CreateIndex(Statement):
    """CREATE [UNIQUE] INDEX [IF NOT EXISTS] <name> ON <relation> (cols) [INCLUDE (...)]
    [DISTRIBUTED BY (...)].
    """

    name: ObjectName
    table: ObjectName
    columns: tuple[str, ...] = ()  # key expressions as written (ASC/DESC kept)
    include: tuple[str, ...] = ()
    distributed_by: tuple[str, ...] = ()
    if_not_exists: bool = False
    unique: bool = False
    with_options: Options = ()
    TAG: ClassVar[str] = "CREATE_INDEX"


@dataclass(frozen=True, slots=True)
class CreateSubscription(Statement):
    """CREATE SUBSCRIPTION [IF NOT EXISTS] <name> FROM <relation> WITH (...)."""

    name: ObjectName
    from_name: ObjectName
    if_not_exists: bool = False
    with_options: Options = ()
    TAG: ClassVar[str] = "CREATE_SUBSCRIPTION"


@dataclass(frozen=True, slots=True)
class CreateFunction(Statement):
    """CREATE [OR REPLACE] {FUNCTION | AGGREGATE} [IF NOT EXISTS] <name> ... (body kept as text)."""

    name: ObjectName
    if_not_exists: bool = False
    or_replace: bool = False
    aggregate: bool = False

    @property
    def tag(self) -> str:
        return "CREATE_AGGREGATE" if self.aggregate else "CREATE_FUNCTION"


@dataclass(frozen=True, slots=True)
class CreateConnection(Statement):
    """CREATE CONNECTION [IF NOT EXISTS] <name> WITH (...)."""

    name: ObjectName
    if_not_exists: bool = False
    with_options: Options = ()
    TAG: ClassVar[str] = "CREATE_CONNECTION"


@dataclass(frozen=True, slots=True)
class CreateSecret(Statement):
    """CREATE SECRET [IF NOT EXISTS] <name> ..."""

    name: ObjectName
    if_not_exists: bool = False
    TAG: ClassVar[str] = "CREATE_SECRET"


@dataclass(frozen=True, slots=True)
class CreateSchema(Statement):
    """CREATE SCHEMA [IF NOT EXISTS] <name> [AUTHORIZATION <user>]."""

    name: ObjectName
    if_not_exists: bool = False
    owner: str | None = None
    TAG: ClassVar[str] = "CREATE_SCHEMA"


@dataclass(frozen=True, slots=True)
class CreateDatabase(Statement):
    """CREATE DATABASE <name> ..."""

    name: ObjectName
    if_not_exists: bool = False
    TAG: ClassVar[str] = "CREATE_DATABASE"


@dataclass(frozen=True, slots=True)
class CreateUser(Statement):
    """CREATE USER <name> [WITH] options."""

    user: str
    TAG: ClassVar[str] = "CREATE_USER"


# --- DROP / GRANT / COMMENT ---------------------------------------------------------------

_DROP_TAGS = {
    "TABLE": "DROP_TABLE",
    "MATERIALIZED VIEW": "DROP_MATERIALIZED_VIEW",
    "VIEW": "DROP_VIEW",
    "INDEX": "DROP_INDEX",
    "SOURCE": "DROP_SOURCE",
    "SINK": "DROP_SINK",
    "SUBSCRIPTION": "DROP_SUBSCRIPTION",
    "SCHEMA": "DROP_SCHEMA",
    "DATABASE": "DROP_DATABASE",
    "USER": "DROP_USER",
    "CONNECTION": "DROP_CONNECTION",
    "SECRET": "DROP_SECRET",
    "FUNCTION": "DROP_FUNCTION",
    "AGGREGATE": "DROP_AGGREGATE",
}


@dataclass(frozen=True, slots=True)
class Drop(Statement):
    """DROP <kind> [IF EXISTS] <name> [CASCADE | RESTRICT]."""

    object_type: str  # a key of _DROP_TAGS
    names: tuple[ObjectName, ...]
    if_exists: bool = False
    cascade: bool = False

    @property
    def tag(self) -> str:
        return _DROP_TAGS[self.object_type]


@dataclass(frozen=True, slots=True)
class Grant(Statement):
    """GRANT <privileges> ON [<kind>] <names> TO <users>."""

    privileges: tuple[str, ...]
    object_type: (
        str  # "TABLE", "MATERIALIZED VIEW", ..., "SCHEMA", "DATABASE", "ALL TABLES IN SCHEMA"
    )
    objects: tuple[ObjectName, ...]
    grantees: tuple[str, ...]
    TAG: ClassVar[str] = "GRANT_PRIVILEGE"


@dataclass(frozen=True, slots=True)
class Revoke(Statement):
    """REVOKE <privileges> ON [<kind>] <names> FROM <users>."""

    privileges: tuple[str, ...]
    object_type: str
    objects: tuple[ObjectName, ...]
    grantees: tuple[str, ...]
    TAG: ClassVar[str] = "REVOKE_PRIVILEGE"


@dataclass(frozen=True, slots=True)
class Comment(Statement):
    """COMMENT ON <kind> <name> IS '<text>' | NULL."""

    object_type: str  # "TABLE", "COLUMN", ...
    target: ObjectName
    comment: str | None
    TAG: ClassVar[str] = "COMMENT"


@dataclass(frozen=True, slots=True)
class Vacuum(Statement):
    """VACUUM [FULL] <name>."""

    TAG: ClassVar[str] = "VACUUM"
    OWNER: ClassVar[Owner] = "session"


@dataclass(frozen=True, slots=True)
class Analyze(Statement):
    """ANALYZE <table>."""

    TAG: ClassVar[str] = "OTHER"
    OWNER: ClassVar[Owner] = "session"


# --- rwshim's test-control extension (rwshim/control.py) -----------------------------------


@dataclass(frozen=True, slots=True)
class ControlTick(Statement):
    """RWSHIM TICK [n] [DATABASE name]: inject n barriers now (extension)."""

    count: int = 1
    database: str | None = None
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


@dataclass(frozen=True, slots=True)
class ControlClock(Statement):
    """RWSHIM CLOCK {MANUAL | AUTO}: stop or restart the periodic barriers (extension)."""

    manual: bool = True
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


@dataclass(frozen=True, slots=True)
class ControlBackfill(Statement):
    """RWSHIM {HOLD | RELEASE} BACKFILL job_id: stop or let go a job's backfill (extension)."""

    job_id: int = 0
    hold: bool = True
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


@dataclass(frozen=True, slots=True)
class ControlFault(Statement):
    """RWSHIM FAULT name {ON | OFF}: switch a documented fault (extension)."""

    name: str = ""
    on: bool = True
    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


@dataclass(frozen=True, slots=True)
class ControlFaults(Statement):
    """RWSHIM FAULTS: the fault switches and their state (extension)."""

    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


@dataclass(frozen=True, slots=True)
class ControlRestart(Statement):
    """RWSHIM RESTART: restart the meta node, running recovery (extension)."""

    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


@dataclass(frozen=True, slots=True)
class ControlJobs(Statement):
    """RWSHIM JOBS: every streaming job with state, parallelism and backfill (extension)."""

    TAG: ClassVar[str] = "RWSHIM"
    OWNER: ClassVar[Owner] = "control"


def all_statement_classes() -> list[type[Statement]]:
    """Every concrete statement class, in definition order."""
    out: list[type[Statement]] = []
    for obj in list(globals().values()):
        if (
            isinstance(obj, type)
            and issubclass(obj, Statement)
            and obj is not Statement
            and not obj.__name__.startswith("_")
        ):
            out.append(obj)
    return out
