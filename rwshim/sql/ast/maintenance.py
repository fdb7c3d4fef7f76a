"""VACUUM and ANALYZE: table maintenance, parsed by pglast and owned by the session.

Mirrors src/sqlparser/src/ast/mod.rs (``Statement::Vacuum``, ``Statement::Analyze``) as
src/sqlparser/src/parser.rs reads them (``parse_vacuum``, ``parse_analyze``).
"""

from __future__ import annotations

from typing import ClassVar

from rwshim.sql.ast.base import Owner, Statement

__all__ = [
    "Analyze",
    "Vacuum",
]


class Vacuum(Statement, frozen=True):
    """VACUUM [FULL] <name>."""

    TAG: ClassVar[str] = "VACUUM"
    OWNER: ClassVar[Owner] = "session"


class Analyze(Statement, frozen=True):
    """ANALYZE <table>."""

    TAG: ClassVar[str] = "OTHER"
    OWNER: ClassVar[Owner] = "session"
