"""SHOW <objects>, SHOW CREATE and DESCRIBE: listings answered from the catalog and the engine.

Mirrors src/sqlparser/src/ast/mod.rs (``ShowObject``, ``ShowCreateType``,
``Statement::ShowObjects``, ``ShowCreateObject``, ``Describe``, ``DescribeFragment``) as
src/sqlparser/src/parser.rs reads them (``parse_show``, ``parse_show_create``,
``parse_describe``).
"""

from __future__ import annotations

from typing import ClassVar

from rwshim.sql.ast.base import ObjectName, Statement

__all__ = [
    "Describe",
    "DescribeFragment",
    "ShowCreate",
    "ShowObjects",
]


class ShowObjects(Statement, frozen=True):
    """SHOW TABLES / MATERIALIZED VIEWS / ... / JOBS / PROCESSLIST / PARAMETERS (SHOW_COMMAND)."""

    what: str  # upper-case object word(s): "TABLES", "MATERIALIZED VIEWS", "JOBS", ...
    schema: ObjectName | None = None  # FROM <schema> / FROM <table> for COLUMNS and INDEXES
    like: str | None = None
    ilike: str | None = None
    where: str | None = None
    TAG: ClassVar[str] = "SHOW_COMMAND"


class ShowCreate(Statement, frozen=True):
    """SHOW CREATE {TABLE | MATERIALIZED VIEW | VIEW | INDEX | SOURCE | SINK | SUBSCRIPTION |
    FUNCTION} <name>.
    """

    object_type: str  # "TABLE", "MATERIALIZED VIEW", "VIEW", "INDEX", "SOURCE", "SINK", ...
    name: ObjectName
    TAG: ClassVar[str] = "SHOW_COMMAND"


class DescribeFragment(Statement, frozen=True):
    """DESCRIBE FRAGMENT <id>."""

    fragment_id: int
    TAG: ClassVar[str] = "DESCRIBE"


class Describe(Statement, frozen=True):
    """DESCRIBE [FRAGMENTS] <name>."""

    name: ObjectName
    fragments: bool = False
    TAG: ClassVar[str] = "DESCRIBE"
