"""CREATE: materialized views, views, tables, sources, sinks, indexes and the other objects.

Mirrors src/sqlparser/src/ast/mod.rs (``Statement::CreateView``, ``CreateTable``,
``CreateIndex``, ``CreateFunction``, ``CreateAggregate``, ``CreateSchema``,
``CreateDatabase``) and ast/statement.rs (``CreateSourceStatement``,
``FormatEncodeOptions``, ``CreateSinkStatement``, ``CreateSubscriptionStatement``,
``CreateConnectionStatement``, ``CreateSecretStatement``, ``CreateUserStatement``).
"""

from __future__ import annotations

from typing import ClassVar

from msgspec import Struct

from rwshim.sql.ast.base import ObjectName, Options, SetValue, Statement

__all__ = [
    "CreateConnection",
    "CreateDatabase",
    "CreateFunction",
    "CreateIndex",
    "CreateMaterializedView",
    "CreateSchema",
    "CreateSecret",
    "CreateSink",
    "CreateSource",
    "CreateSubscription",
    "CreateTable",
    "CreateUser",
    "CreateView",
    "FormatEncode",
    "IndexKey",
]


class CreateMaterializedView(Statement, frozen=True):
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


class CreateView(Statement, frozen=True):
    """CREATE [OR REPLACE] VIEW [IF NOT EXISTS] <name> [(cols)] AS <query>."""

    name: ObjectName
    query: str
    columns: tuple[str, ...] = ()
    if_not_exists: bool = False
    or_replace: bool = False
    with_options: Options = ()
    TAG: ClassVar[str] = "CREATE_VIEW"


class FormatEncode(Struct, frozen=True):
    format: str  # upper-case as RisingWave prints it: PLAIN, UPSERT, DEBEZIUM, ...
    encode: str  # JSON, AVRO, ...
    options: Options = ()


class CreateTable(Statement, frozen=True):
    """CREATE TABLE ... [(cols)] [APPEND ONLY] [ON CONFLICT ...] [WITH VERSION COLUMN (...)]
    [INCLUDE ...] [WITH (...)]
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
    version_columns: tuple[str, ...] = ()  # WITH VERSION COLUMN (...), each by its real value
    with_options: Options = ()
    format_encode: FormatEncode | None = None
    include: tuple[str, ...] = ()
    engine: str | None = None
    cdc_source: ObjectName | None = None  # FROM <source> TABLE '<external table>'
    cdc_table: str | None = None
    TAG: ClassVar[str] = "CREATE_TABLE"


class CreateSource(Statement, frozen=True):
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


class CreateSink(Statement, frozen=True):
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
    # INTO <table> (<columns>): the target's columns the sink's fill, by name (create_sink.rs
    # derive_default_column_project_for_sink); empty: by position
    into_columns: tuple[str, ...] = ()
    TAG: ClassVar[str] = "CREATE_SINK"


class CreateIndex(Statement, frozen=True):
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
    keys: tuple[IndexKey, ...] = ()  # the key columns as parse_order_by_expr reads them
    TAG: ClassVar[str] = "CREATE_INDEX"


class IndexKey(Struct, frozen=True):
    """One index key (ast/query.rs ``OrderByExpr``): the expression, ``name`` when it is a
    plain column (folded), ``asc`` (None: not written) and ``nulls_first`` (None: not
    written)."""

    expr: str
    name: str | None
    asc: bool | None = None
    nulls_first: bool | None = None

    @property
    def desc(self) -> bool:
        return self.asc is False

    @property
    def nulls_smallest(self) -> bool:
        """RisingWave's OrderType::from_bools (src/common/src/util/sort_util.rs:138-148):
        NULLS FIRST makes nulls the smallest value when ascending and the largest when
        descending, NULLS LAST the reverse; unwritten, nulls are the largest."""
        return self.nulls_first is not None and self.nulls_first != self.desc


class CreateSubscription(Statement, frozen=True):
    """CREATE SUBSCRIPTION [IF NOT EXISTS] <name> FROM <relation> WITH (...)."""

    name: ObjectName
    from_name: ObjectName
    if_not_exists: bool = False
    with_options: Options = ()
    TAG: ClassVar[str] = "CREATE_SUBSCRIPTION"


class CreateFunction(Statement, frozen=True):
    """CREATE [OR REPLACE] {FUNCTION | AGGREGATE} [IF NOT EXISTS] <name>(<args>) RETURNS ...

    ``RETURNS {<type> | TABLE (...)} [LANGUAGE ...] {AS ... | RETURN <expr> | USING ...}
    [WITH (...)]``, read in full by sql/function_def.py."""

    name: ObjectName
    if_not_exists: bool = False
    or_replace: bool = False
    aggregate: bool = False

    @property
    def tag(self) -> str:
        return "CREATE_AGGREGATE" if self.aggregate else "CREATE_FUNCTION"


class CreateConnection(Statement, frozen=True):
    """CREATE CONNECTION [IF NOT EXISTS] <name> WITH (...)."""

    name: ObjectName
    if_not_exists: bool = False
    with_options: Options = ()
    TAG: ClassVar[str] = "CREATE_CONNECTION"


class CreateSecret(Statement, frozen=True):
    """CREATE SECRET [IF NOT EXISTS] <name> [WITH (...)] [AS <value>]."""

    name: ObjectName
    if_not_exists: bool = False
    with_options: Options = ()
    # The value as written (OptionValue: kind 'string' / 'dstring' for a quoted one, else
    # the literal's kind); None without AS.
    credential: str | None = None
    TAG: ClassVar[str] = "CREATE_SECRET"


class CreateSchema(Statement, frozen=True):
    """CREATE SCHEMA [IF NOT EXISTS] <name> [AUTHORIZATION <user>]."""

    name: ObjectName
    if_not_exists: bool = False
    owner: str | None = None
    TAG: ClassVar[str] = "CREATE_SCHEMA"


class CreateDatabase(Statement, frozen=True):
    """CREATE DATABASE [IF NOT EXISTS] <name> [WITH] options (owner, resource group, ...).

    The options, each at most once: OWNER [=] <user>, RESOURCE_GROUP [=] <value>,
    BARRIER_INTERVAL_MS [=] <u32>, CHECKPOINT_FREQUENCY [=] <u64> (parser.rs:2026-2086).
    """

    name: ObjectName
    if_not_exists: bool = False
    owner: str | None = None  # WITH OWNER [=] <user>
    resource_group: SetValue | None = None
    barrier_interval_ms: int | None = None
    checkpoint_frequency: int | None = None
    TAG: ClassVar[str] = "CREATE_DATABASE"


class CreateUser(Statement, frozen=True):
    """CREATE USER <name> [WITH] options."""

    user: str
    TAG: ClassVar[str] = "CREATE_USER"
