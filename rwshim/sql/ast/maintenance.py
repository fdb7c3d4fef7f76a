"""VACUUM and ANALYZE: table maintenance, parsed by pglast and owned by the session.

Mirrors src/sqlparser/src/ast/mod.rs (``Statement::Vacuum``, ``Statement::Analyze``) as
src/sqlparser/src/parser.rs reads them (``parse_vacuum``, ``parse_analyze``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rwshim.sql.ast.base import Owner, Statement

__all__ = [
    "Analyze",
    "Vacuum",
]


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
