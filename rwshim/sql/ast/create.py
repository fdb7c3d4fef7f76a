"""CREATE: materialized views, views, tables, sources, sinks, indexes and the other objects.

Mirrors src/sqlparser/src/ast/mod.rs (``Statement::CreateView``, ``CreateTable``,
``CreateIndex``, ``CreateFunction``, ``CreateAggregate``, ``CreateSchema``,
``CreateDatabase``) and ast/statement.rs (``CreateSourceStatement``,
``FormatEncodeOptions``, ``CreateSinkStatement``, ``CreateSubscriptionStatement``,
``CreateConnectionStatement``, ``CreateSecretStatement``, ``CreateUserStatement``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

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
    keys: tuple[IndexKey, ...] = ()  # the key columns as parse_order_by_expr reads them
    TAG: ClassVar[str] = "CREATE_INDEX"


@dataclass(frozen=True, slots=True)
class IndexKey:
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


@dataclass(frozen=True, slots=True)
class CreateConnection(Statement):
    """CREATE CONNECTION [IF NOT EXISTS] <name> WITH (...)."""

    name: ObjectName
    if_not_exists: bool = False
    with_options: Options = ()
    TAG: ClassVar[str] = "CREATE_CONNECTION"


@dataclass(frozen=True, slots=True)
class CreateSecret(Statement):
    """CREATE SECRET [IF NOT EXISTS] <name> [WITH (...)] [AS <value>]."""

    name: ObjectName
    if_not_exists: bool = False
    with_options: Options = ()
    # The value as written (OptionValue: kind 'string' / 'dstring' for a quoted one, else
    # the literal's kind); None without AS.
    credential: str | None = None
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


@dataclass(frozen=True, slots=True)
class CreateUser(Statement):
    """CREATE USER <name> [WITH] options."""

    user: str
    TAG: ClassVar[str] = "CREATE_USER"
