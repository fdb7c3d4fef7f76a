"""DROP, GRANT, REVOKE and COMMENT ON: removing, granting on and annotating objects.

Mirrors src/sqlparser/src/ast/statement.rs (``DropStatement``, ``DropMode``) and
ast/mod.rs (``Statement::DropFunction``, ``Grant``, ``Revoke`` with ``Privileges`` and
``GrantObjects``, ``Comment`` with ``CommentObject``).
"""

from __future__ import annotations

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


class Drop(Statement, frozen=True):
    """DROP <kind> [IF EXISTS] <name> [CASCADE | RESTRICT]."""

    object_type: str  # a key of _DROP_TAGS
    names: tuple[ObjectName, ...]
    if_exists: bool = False
    cascade: bool = False

    @property
    def tag(self) -> str:
        return _DROP_TAGS[self.object_type]


class Grant(Statement, frozen=True):
    """GRANT <privileges> ON <objects> TO <users> [WITH GRANT OPTION] [GRANTED BY <user>].

    ast/mod.rs ``Statement::Grant``; recorded by the engine, checked by every statement.
    ``privileges`` holds the action keywords (``("ALL",)`` for ALL [PRIVILEGES]; a column list
    is parsed and, as in RisingWave, not kept); ``object_type`` is the GrantObjects variant's
    words: "TABLE" (also without a keyword), "MATERIALIZED VIEW", "VIEW", "SOURCE", "SINK",
    "SECRET", "SUBSCRIPTION", "SCHEMA", "DATABASE", "FUNCTION", "CONNECTION", "SEQUENCE", or
    "ALL <plural> IN SCHEMA" (then ``objects`` are the schemas).  ``function_args`` holds, per
    object of a FUNCTION grant, the text inside its argument list (None: no list).
    """

    privileges: tuple[str, ...]
    object_type: str
    objects: tuple[ObjectName, ...]
    grantees: tuple[str, ...]
    with_grant_option: bool = False
    granted_by: str | None = None
    function_args: tuple[str | None, ...] = ()
    TAG: ClassVar[str] = "GRANT_PRIVILEGE"


class Revoke(Statement, frozen=True):
    """REVOKE [GRANT OPTION FOR] <privileges> ON <objects> FROM <users> [GRANTED BY] [CASCADE].

    ast/mod.rs ``Statement::Revoke`` (also ``RESTRICT``); fields as ``Grant``."""

    privileges: tuple[str, ...]
    object_type: str
    objects: tuple[ObjectName, ...]
    grantees: tuple[str, ...]
    granted_by: str | None = None
    revoke_grant_option: bool = False
    cascade: bool = False
    function_args: tuple[str | None, ...] = ()
    TAG: ClassVar[str] = "REVOKE_PRIVILEGE"


class Comment(Statement, frozen=True):
    """COMMENT ON <kind> <name> IS '<text>' | NULL."""

    object_type: str  # "TABLE", "COLUMN", ...
    target: ObjectName
    comment: str | None
    TAG: ClassVar[str] = "COMMENT"
