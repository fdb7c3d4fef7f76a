"""DROP, GRANT and REVOKE.

Mirrors src/sqlparser/src/parser.rs ``parse_drop`` / ``parse_drop_function`` /
``parse_drop_aggregate`` (parser.rs:2428-2474, building ast/statement.rs's ``DropStatement``)
and ``parse_grant`` / ``parse_privileges`` / ``parse_grant_revoke_privileges_objects`` /
``parse_revoke`` (parser.rs:5650-5916).  COMMENT ON is PostgreSQL syntax (rwshim.sql.pgparser).
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase


class DropGrantRules(BuildBase):
    """DROP <kind> and GRANT / REVOKE <privileges> ON <objects>."""

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

    def privileges_all(self, c: list[Any]) -> tuple[str, ...]:
        return ("ALL",)

    def privileges_list(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(x for x in c if isinstance(x, str) and not isinstance(x, LarkToken))

    def privilege(self, c: list[Any]) -> str:
        x = c[0]
        return x.type if isinstance(x, LarkToken) else str(x).upper()

    def grant_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def grant_all_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def grant_objects(self, c: list[Any]) -> tuple[str, tuple[st.ObjectName, ...]]:
        return (c[0] or "TABLE", c[1])

    def grant_all_in_schema(self, c: list[Any]) -> tuple[str, tuple[st.ObjectName, ...]]:
        return (f"ALL {c[1]} IN SCHEMA", c[4])

    def grantee(self, c: list[Any]) -> str:
        return str(c[-1])

    def grantees(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(x for x in c if isinstance(x, str) and not isinstance(x, LarkToken))

    def grant(self, c: list[Any]) -> st.Statement:
        kind, objs = c[3]
        return st.Grant(self.text, c[1], kind, objs, c[5])

    def revoke(self, c: list[Any]) -> st.Statement:
        privs = next(
            x
            for x in c
            if isinstance(x, tuple)
            and all(isinstance(p, str) for p in x)
            and x
            and not isinstance(x[1] if len(x) > 1 else "", tuple)
        )
        kind, objs = next(
            x
            for x in c
            if isinstance(x, tuple)
            and len(x) == 2
            and isinstance(x[1], tuple)
            and x[1]
            and isinstance(x[1][0], st.ObjectName)
        )
        grantees = [x for x in c if isinstance(x, tuple)][-1]
        return st.Revoke(self.text, privs, kind, objs, grantees)
