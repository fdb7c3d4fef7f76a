"""ALTER: one statement class per operation, shared by every object kind that accepts it.

Mirrors src/sqlparser/src/ast/ddl.rs (``AlterTableOperation``, ``AlterViewOperation``,
``AlterIndexOperation``, ``AlterSinkOperation``, ``AlterSourceOperation``,
``AlterSubscriptionOperation``, ``AlterDatabaseOperation``, ``AlterSchemaOperation``,
``AlterFragmentOperation``, ``AlterRateLimit``), ast/mod.rs (``Statement::Alter*``,
``AlterSystem``) and ast/statement.rs (``AlterUserStatement``).  RisingWave nests the
operation inside a per-kind statement; rwshim flattens it: ``kind`` says which object kind,
the class says which operation, and the tag follows the kind (pg_response.rs ``ALTER_*``).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from msgspec import field

from rwshim.sql.ast.base import ObjectName, Options, SetValue, Statement

__all__ = [
    "AlterBackfillParallelism",
    "AlterColumn",
    "AlterCompactionGroup",
    "AlterConnector",
    "AlterConnectorProps",
    "AlterDatabaseParam",
    "AlterDatabasePause",
    "AlterDefaultPrivileges",
    "AlterFragmentParallelism",
    "AlterFragmentRateLimit",
    "AlterFunction",
    "AlterKind",
    "AlterOperation",
    "AlterOwner",
    "AlterParallelism",
    "AlterRateLimit",
    "AlterRename",
    "AlterResetConfig",
    "AlterResourceGroup",
    "AlterRetention",
    "AlterSecretCredential",
    "AlterSetConfig",
    "AlterSetSchema",
    "AlterStreamingOption",
    "AlterSwap",
    "AlterSystem",
    "AlterSystemPause",
    "AlterTableRenameColumn",
    "AlterUser",
    "AlterViewQuery",
]


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


class _AlterObject(Statement, frozen=True):
    kind: str  # "TABLE", "MATERIALIZED VIEW", "VIEW", "INDEX", "SINK", "SOURCE", ...
    name: ObjectName

    @property
    def tag(self) -> str:
        return _ALTER_TAGS[self.kind]


class AlterParallelism(_AlterObject, frozen=True):
    """ALTER <kind> <name> SET PARALLELISM {TO|=} <value> [DEFERRED]."""

    value: SetValue = field(default_factory=lambda: SetValue("default"))
    deferred: bool = False


class AlterBackfillParallelism(_AlterObject, frozen=True):
    """ALTER <kind> <name> SET BACKFILL_PARALLELISM {TO|=} <value> [DEFERRED]."""

    value: SetValue = field(default_factory=lambda: SetValue("default"))
    deferred: bool = False


class AlterRateLimit(_AlterObject, frozen=True):
    """ALTER <kind> <name> SET <TYPE>_RATE_LIMIT {TO|=} {n|DEFAULT}; DEFAULT is -1 (none)."""

    rate_limit_type: str = "BACKFILL"  # SOURCE, BACKFILL, DML, SINK
    rate_limit: int = -1


class AlterResourceGroup(_AlterObject, frozen=True):
    """ALTER <kind> <name> {SET RESOURCE_GROUP {TO|=} v | RESET RESOURCE_GROUP} [DEFERRED]."""

    value: SetValue | None = None  # None = RESET
    deferred: bool = False


class AlterSetConfig(_AlterObject, frozen=True):
    """ALTER <kind> <name> SET CONFIG (k = v, ...)."""

    entries: Options = ()


class AlterResetConfig(_AlterObject, frozen=True):
    """ALTER <kind> <name> RESET CONFIG (k, ...)."""

    keys: tuple[str, ...] = ()


class AlterRename(_AlterObject, frozen=True):
    """ALTER <kind> <name> RENAME TO <new name>."""

    new_name: ObjectName = field(default_factory=lambda: ObjectName(("",)))


class AlterOwner(_AlterObject, frozen=True):
    """ALTER <kind> <name> OWNER TO <user>."""

    new_owner: str = ""


class AlterSetSchema(_AlterObject, frozen=True):
    """ALTER <kind> <name> SET SCHEMA <schema>."""

    new_schema: ObjectName = field(default_factory=lambda: ObjectName(("",)))


class AlterSwap(_AlterObject, frozen=True):
    """ALTER <kind> <name> SWAP WITH <other>."""

    target: ObjectName = field(default_factory=lambda: ObjectName(("",)))


class AlterRetention(_AlterObject, frozen=True):
    """ALTER SUBSCRIPTION <name> SET RETENTION {TO|=} <value>."""

    retention: str = ""


class AlterSecretCredential(_AlterObject, frozen=True):
    """ALTER SECRET <name> [WITH [(...)]] AS <value> (AlterSecretOperation::ChangeCredential)."""

    with_options: Options = ()
    credential: str | None = None


class AlterConnectorProps(_AlterObject, frozen=True):
    """ALTER {CONNECTION | SOURCE | SINK | TABLE} <name> CONNECTOR WITH (...)."""

    with_options: Options = ()


class AlterConnector(_AlterObject, frozen=True):
    """ALTER TABLE <name> {DROP CONNECTOR | REFRESH SCHEMA}; ALTER SOURCE <name> {REFRESH
    SCHEMA | RESET | FORMAT ... ENCODE ... [(...)]}.

    AlterTableOperation::DropConnector / RefreshSchema, AlterSourceOperation::RefreshSchema /
    ResetSource / FormatEncode (parser.rs:3302-3450, 3861-3990); ``format_encode`` is the
    text after FORMAT, as written."""

    operation: Literal["DROP CONNECTOR", "REFRESH SCHEMA", "RESET", "FORMAT"] = "REFRESH SCHEMA"
    format_encode: str = ""


class AlterOperation(_AlterObject, frozen=True):
    """The other ALTER forms, kept as text: ALTER FUNCTION."""

    operation: str = ""  # "ALTER FUNCTION"


class AlterColumn(_AlterObject, frozen=True):
    """ALTER TABLE <name> {ADD | DROP | ALTER} [COLUMN] ...; ALTER SOURCE <name> ADD [COLUMN] ...

    The forms: ``ADD [COLUMN] <column def>``, ``ADD <constraint>``, ``DROP [COLUMN] [IF
    EXISTS] <col> [CASCADE]``, ``ALTER [COLUMN] <col> <op>``, ``ALTER WATERMARK FOR <col> AS
    <expr> [WITH TTL]`` (``argument`` is the expression as written).

    AlterTableOperation::AddColumn / AddConstraint / DropColumn / AlterColumn and
    AlterSourceOperation::AddColumn (parser.rs:3302-3450, 3870-3874).  ``column`` is the
    column's real value, ``written`` its Ident Display; ``column_def`` the definition as
    written (ADD) or the constraint as written (ADD CONSTRAINT)."""

    action: Literal["ADD", "ADD CONSTRAINT", "DROP", "ALTER", "ALTER WATERMARK"] = "ADD"
    column: str = ""
    written: str = ""
    column_def: str = ""
    if_exists: bool = False
    cascade: bool = False
    alter: str = ""  # ALTER: SET NOT NULL, DROP NOT NULL, SET DEFAULT, DROP DEFAULT, SET DATA TYPE
    argument: str = ""  # SET DEFAULT's expression / SET DATA TYPE's type, as written
    using: str = ""  # SET DATA TYPE ... USING <expr>, as written
    with_ttl: bool = False  # ALTER WATERMARK FOR <col> AS <expr> WITH TTL


class AlterTableRenameColumn(_AlterObject, frozen=True):
    """ALTER TABLE <name> RENAME [COLUMN | CONSTRAINT] <old> TO <new>.

    AlterTableOperation::RenameColumn / RenameConstraint (parser.rs:3318-3334); ``display``
    is the statement as RisingWave's Display prints it (ast/ddl.rs:476-502)."""

    display: str = ""


class AlterCompactionGroup(Statement, frozen=True):
    """ALTER COMPACTION GROUP <id>[, ...] SET <param> = <value>[, ...]."""

    TAG: ClassVar[str] = "ALTER_COMPACTION_GROUP"


class AlterDefaultPrivileges(Statement, frozen=True):
    """ALTER DEFAULT PRIVILEGES [FOR USER ..] [IN SCHEMA ..] {GRANT .. TO | REVOKE .. FROM} ..

    The full form: ``{GRANT <privileges> ON <object types> TO <users> [WITH GRANT OPTION] |
    REVOKE [GRANT OPTION FOR] <privileges> ON <object types> FROM <users> [CASCADE |
    RESTRICT]}`` (ast/mod.rs ``Statement::AlterDefaultPrivileges``,
    ``DefaultPrivilegeOperation``); applies to objects the target users create later.

    ``object_type`` is the PrivilegeObjectType's words: "TABLES", "SOURCES", "SINKS",
    "MATERIALIZED VIEWS", "VIEWS", "FUNCTIONS", "SECRETS", "CONNECTIONS", "SUBSCRIPTIONS" or
    "SCHEMAS"; ``grant_option`` is WITH GRANT OPTION (grant) or GRANT OPTION FOR (revoke).
    """

    target_users: tuple[str, ...] | None = None
    schemas: tuple[ObjectName, ...] | None = None
    grant: bool = True
    privileges: tuple[str, ...] = ()
    object_type: str = "TABLES"
    grantees: tuple[str, ...] = ()
    grant_option: bool = False
    cascade: bool = False
    TAG: ClassVar[str] = "ALTER_DEFAULT_PRIVILEGES"


class AlterStreamingOption(_AlterObject, frozen=True):
    """ALTER <kind> <name> SET STREAMING_ENABLE_UNALIGNED_JOIN {TO|=} bool."""

    option: str = ""
    enable: bool = False


class AlterViewQuery(_AlterObject, frozen=True):
    """ALTER [MATERIALIZED] VIEW <name> AS <query>."""

    query: str = ""


class AlterDatabaseParam(Statement, frozen=True):
    """ALTER DATABASE <name> SET <param> {=|TO} <value> (the handler accepts two params)."""

    database: ObjectName
    param: str
    value: SetValue
    TAG: ClassVar[str] = "ALTER_DATABASE"


class AlterDatabasePause(Statement, frozen=True):
    """rwshim extension (architecture.md decision 2): ALTER DATABASE <name> {PAUSE|RESUME}."""

    database: ObjectName
    pause: bool
    TAG: ClassVar[str] = "ALTER_DATABASE"


class AlterSystemPause(Statement, frozen=True):
    """rwshim extension (architecture.md decision 2): ALTER SYSTEM {PAUSE|RESUME}."""

    pause: bool
    TAG: ClassVar[str] = "ALTER_SYSTEM"


class AlterSystem(Statement, frozen=True):
    """ALTER SYSTEM SET <param> {=|TO} <value>|DEFAULT (system parameter or session default)."""

    param: str  # as written (its notice prints it so); fold it to look it up
    value: SetValue
    TAG: ClassVar[str] = "ALTER_SYSTEM"


class AlterFragmentParallelism(Statement, frozen=True):
    """ALTER FRAGMENT <id>[, ...] SET PARALLELISM {TO|=} <value> (no DEFERRED)."""

    fragment_ids: tuple[int, ...]
    value: SetValue
    TAG: ClassVar[str] = "ALTER_FRAGMENT"


class AlterFragmentRateLimit(Statement, frozen=True):
    """ALTER FRAGMENT <id>[, ...] SET [<TYPE>_]RATE_LIMIT ...; tag SET_VARIABLE (mod.rs:1621)."""

    fragment_ids: tuple[int, ...]
    rate_limit: int
    # SOURCE | BACKFILL | DML | SINK; plain RATE_LIMIT is BACKFILL (parser.rs:4108-4121)
    rate_limit_type: str = "BACKFILL"
    TAG: ClassVar[str] = "SET_VARIABLE"


class AlterUser(Statement, frozen=True):
    """ALTER USER <name> [WITH] options / RENAME TO <new name>."""

    user: str
    TAG: ClassVar[str] = "UPDATE_USER"


class AlterFunction(_AlterObject, frozen=True):
    """ALTER FUNCTION <name>[(<argtypes>)] {SET SCHEMA <schema> | OWNER TO <user>}
    (parser.rs:3960-3986 parse_alter_function)."""

    arg_types: tuple[str, ...] | None = None  # as written; None: no argument list
    operation: str = ""  # "SET SCHEMA" | "OWNER TO"
    target: str = ""  # the schema or the user, folded
