"""SET, SHOW <variable>, transactions, prepared statements, DISCARD and USE: the session's own.

Mirrors src/sqlparser/src/ast/mod.rs (``Statement::SetVariable``, ``SetTimeZone``,
``SetTransaction``, ``ShowVariable``, ``StartTransaction``, ``Begin``, ``Commit``,
``Rollback``, ``Abort``, ``Prepare``, ``Execute``, ``Deallocate``, ``Discard``, ``Use``) as
src/sqlparser/src/parser.rs reads them (``parse_set``, ``parse_start_transaction``,
``parse_begin``, ``parse_prepare``, ``parse_deallocate``, ``parse_use``).
"""

from __future__ import annotations

from typing import ClassVar

from rwshim.sql.ast.base import ObjectName, Owner, SetValue, Statement

__all__ = [
    "Abort",
    "Begin",
    "Commit",
    "Deallocate",
    "Discard",
    "Execute",
    "Prepare",
    "Rollback",
    "SetTimeZone",
    "SetTransaction",
    "SetVariable",
    "ShowVariable",
    "StartTransaction",
    "Use",
]


class SetVariable(Statement, frozen=True):
    """SET [SESSION | LOCAL] <name> {= | TO} {<value>[, ...] | DEFAULT}."""

    variable: str  # folded: unquoted lower-cased, quoted kept
    value: SetValue
    local: bool = False
    TAG: ClassVar[str] = "SET_VARIABLE"
    OWNER: ClassVar[Owner] = "session"


class SetTimeZone(Statement, frozen=True):
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


class SetTransaction(Statement, frozen=True):
    """SET TRANSACTION ... / SET SESSION CHARACTERISTICS AS TRANSACTION ..."""

    TAG: ClassVar[str] = "SET_TRANSACTION"
    OWNER: ClassVar[Owner] = "session"


class ShowVariable(Statement, frozen=True):
    """SHOW <name> / SHOW ALL / SHOW PARAMETERS / SHOW TRANSACTION ISOLATION LEVEL."""

    variable: str  # e.g. "timezone", "all", "transaction_isolation"
    TAG: ClassVar[str] = "SHOW_VARIABLE"
    OWNER: ClassVar[Owner] = "session"


class StartTransaction(Statement, frozen=True):
    """START TRANSACTION [modes]."""

    TAG: ClassVar[str] = "START_TRANSACTION"
    OWNER: ClassVar[Owner] = "session"


class Begin(Statement, frozen=True):
    """BEGIN [TRANSACTION | WORK] [modes] (no transaction is opened, as in RisingWave)."""

    TAG: ClassVar[str] = "BEGIN"
    OWNER: ClassVar[Owner] = "session"


class Commit(Statement, frozen=True):
    """COMMIT [TRANSACTION | WORK]."""

    TAG: ClassVar[str] = "COMMIT"
    OWNER: ClassVar[Owner] = "session"


class Rollback(Statement, frozen=True):
    """ROLLBACK [TRANSACTION | WORK]."""

    TAG: ClassVar[str] = "ROLLBACK"
    OWNER: ClassVar[Owner] = "session"


class Abort(Statement, frozen=True):
    """ABORT."""

    TAG: ClassVar[str] = "ABORT"
    OWNER: ClassVar[Owner] = "session"


class Prepare(Statement, frozen=True):
    """PREPARE <name> [(types)] AS <statement>."""

    statement_name: str
    TAG: ClassVar[str] = "PREPARE"
    OWNER: ClassVar[Owner] = "session"


class Execute(Statement, frozen=True):
    """EXECUTE <name> [(params)]."""

    statement_name: str
    TAG: ClassVar[str] = "OTHER"
    OWNER: ClassVar[Owner] = "session"


class Deallocate(Statement, frozen=True):
    """DEALLOCATE [PREPARE] {<name> | ALL}."""

    statement_name: str | None  # None = ALL
    TAG: ClassVar[str] = "DEALLOCATE"
    OWNER: ClassVar[Owner] = "session"


class Discard(Statement, frozen=True):
    """DISCARD ALL."""

    TAG: ClassVar[str] = "DISCARD"
    OWNER: ClassVar[Owner] = "session"


class Use(Statement, frozen=True):
    """USE <database>."""

    database: ObjectName  # as written: a database name must be one identifier (the handler)
    TAG: ClassVar[str] = "USE"
    OWNER: ClassVar[Owner] = "session"
