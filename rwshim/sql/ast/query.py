"""Queries, DML, COPY, EXPLAIN, cursors and TRUNCATE: the statements the read path answers.

Mirrors src/sqlparser/src/ast/mod.rs (``Statement::Query``, ``Insert``, ``Update``,
``Delete``, ``Copy``, ``Explain``, ``Truncate``), ast/query.rs (``Query``, kept here as text
for the read path to translate) and ast/statement.rs (``DeclareCursorStatement``,
``FetchCursorStatement``, ``CloseCursorStatement``); pglast parses them (rwshim.sql.pgparser).
"""

from __future__ import annotations

from typing import ClassVar

from rwshim.sql.ast.base import ObjectName, Owner, Statement

__all__ = [
    "CloseCursor",
    "Copy",
    "DeclareCursor",
    "DeclareSubscriptionCursor",
    "Delete",
    "Explain",
    "ExplainAnalyzeStreamJob",
    "FetchCursor",
    "Insert",
    "Query",
    "Truncate",
    "Update",
]


class Query(Statement, frozen=True):
    """SELECT / VALUES / WITH / (query): the text, for the read path to translate."""

    TAG: ClassVar[str] = "SELECT"
    OWNER: ClassVar[Owner] = "read"


class Insert(Statement, frozen=True):
    """INSERT INTO <table> ... [RETURNING ...]."""

    table: ObjectName
    returning: bool = False
    OWNER: ClassVar[Owner] = "read"

    @property
    def tag(self) -> str:
        return "INSERT_RETURNING" if self.returning else "INSERT"


class Update(Statement, frozen=True):
    """UPDATE <table> SET ... [RETURNING ...]."""

    table: ObjectName
    returning: bool = False
    OWNER: ClassVar[Owner] = "read"

    @property
    def tag(self) -> str:
        return "UPDATE_RETURNING" if self.returning else "UPDATE"


class Delete(Statement, frozen=True):
    """DELETE FROM <table> ... [RETURNING ...]."""

    table: ObjectName
    returning: bool = False
    OWNER: ClassVar[Owner] = "read"

    @property
    def tag(self) -> str:
        return "DELETE_RETURNING" if self.returning else "DELETE"


class Copy(Statement, frozen=True):
    """COPY <table> [(cols)] {FROM STDIN | TO STDOUT}."""

    table: ObjectName | None
    to_stdout: bool
    TAG: ClassVar[str] = "COPY"
    OWNER: ClassVar[Owner] = "read"


class Explain(Statement, frozen=True):
    """EXPLAIN [ANALYZE] [VERBOSE] [(options)] <statement>."""

    inner: Statement
    TAG: ClassVar[str] = "EXPLAIN"
    OWNER: ClassVar[Owner] = "read"


class ExplainAnalyzeStreamJob(Statement, frozen=True):
    """EXPLAIN ANALYZE [(options)] {TABLE | INDEX | MATERIALIZED VIEW | SINK} <name> | ID <n>.

    Statement::ExplainAnalyzeStreamJob, parser.rs:4768-4801."""

    target: str  # "TABLE", "INDEX", "MATERIALIZED VIEW", "SINK" or "ID"
    name: ObjectName | None
    job_id: int | None
    duration_secs: int | None
    TAG: ClassVar[str] = "EXPLAIN"


class DeclareCursor(Statement, frozen=True):
    """DECLARE <cursor> CURSOR FOR <query>."""

    cursor: str
    query: str
    TAG: ClassVar[str] = "DECLARE_CURSOR"
    OWNER: ClassVar[Owner] = "read"


class FetchCursor(Statement, frozen=True):
    """FETCH [FORWARD] {n | ALL} FROM <cursor> [WITH (timeout = '<interval>')]."""

    cursor: str
    count: int | None  # None = ALL
    # WITH (timeout = '...'): FetchCursorStatement's with_properties (a subscription cursor's)
    with_options: tuple[tuple[str, str], ...] = ()
    TAG: ClassVar[str] = "FETCH_CURSOR"
    OWNER: ClassVar[Owner] = "read"


class DeclareSubscriptionCursor(Statement, frozen=True):
    """DECLARE <cursor> SUBSCRIPTION CURSOR FOR <subscription> [SINCE <when> | FULL]."""

    # <when>: now() | proctime() | begin() | <unix ms> (DeclareCursor::Subscription,
    # ast/statement.rs:707-730; parser.rs parse_since)

    cursor: str
    subscription: ObjectName
    since: str  # "now" (also proctime() and no SINCE), "begin", "ms", "full"
    since_ms: int | None = None
    TAG: ClassVar[str] = "DECLARE_CURSOR"
    OWNER: ClassVar[Owner] = "read"


class CloseCursor(Statement, frozen=True):
    """CLOSE <cursor> | CLOSE ALL."""

    cursor: str | None  # None = ALL
    TAG: ClassVar[str] = "CLOSE_CURSOR"
    OWNER: ClassVar[Owner] = "read"


class Truncate(Statement, frozen=True):
    """TRUNCATE [TABLE] <table>."""

    table: ObjectName
    TAG: ClassVar[str] = "OTHER"
    OWNER: ClassVar[Owner] = "read"
