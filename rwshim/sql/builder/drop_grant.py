"""DROP (GRANT and REVOKE are ``privileges``'s).

Mirrors src/sqlparser/src/parser.rs ``parse_drop`` / ``parse_drop_function`` /
``parse_drop_aggregate`` (parser.rs:2428-2474, building ast/statement.rs's ``DropStatement``).
COMMENT ON is PostgreSQL syntax (rwshim.sql.pgparser).
"""

from __future__ import annotations

from typing import Any

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase


class DropGrantRules(BuildBase):
    """DROP <kind>."""

    def drop(self, c: list[Any]) -> st.Statement:
        _drop, kind, if_, _exists, name, behaviour = c
        return st.Drop(
            self.text,
            kind,
            (name,),
            if_ is not None,
            behaviour is not None and behaviour.type == "CASCADE",
        )

    def drop_function(self, c: list[Any]) -> st.Statement:
        return st.Drop(self.text, "FUNCTION", (), c[2] is not None)

    def drop_aggregate(self, c: list[Any]) -> st.Statement:
        return st.Drop(self.text, "AGGREGATE", (), c[2] is not None)

    def dk_table(self, c: list[Any]) -> str:
        return "TABLE"

    def dk_materialized_view(self, c: list[Any]) -> str:
        return "MATERIALIZED VIEW"

    def dk_view(self, c: list[Any]) -> str:
        return "VIEW"

    def dk_index(self, c: list[Any]) -> str:
        return "INDEX"

    def dk_source(self, c: list[Any]) -> str:
        return "SOURCE"

    def dk_sink(self, c: list[Any]) -> str:
        return "SINK"

    def dk_subscription(self, c: list[Any]) -> str:
        return "SUBSCRIPTION"

    def dk_schema(self, c: list[Any]) -> str:
        return "SCHEMA"

    def dk_database(self, c: list[Any]) -> str:
        return "DATABASE"

    def dk_user(self, c: list[Any]) -> str:
        return "USER"

    def dk_connection(self, c: list[Any]) -> str:
        return "CONNECTION"

    def dk_secret(self, c: list[Any]) -> str:
        return "SECRET"
