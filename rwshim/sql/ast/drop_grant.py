"""DROP, GRANT, REVOKE and COMMENT ON: removing, granting on and annotating objects.

Mirrors src/sqlparser/src/ast/statement.rs (``DropStatement``, ``DropMode``) and
ast/mod.rs (``Statement::DropFunction``, ``Grant``, ``Revoke`` with ``Privileges`` and
``GrantObjects``, ``Comment`` with ``CommentObject``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rwshim.sql.ast.base import ObjectName, Statement

__all__ = [
    "Comment",
    "Drop",
    "Grant",
    "Revoke",
]


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
