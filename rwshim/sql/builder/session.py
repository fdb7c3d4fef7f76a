"""SET, SET TIME ZONE, SET TRANSACTION and USE.

Mirrors src/sqlparser/src/parser.rs ``parse_set`` (parser.rs:5096-5166, with ast/mod.rs's
``SetTimeZoneValue``) and ``parse_use`` (parser.rs:6344).  The session's other statements
(transactions, PREPARE / EXECUTE, DISCARD) are PostgreSQL syntax (rwshim.sql.pgparser).
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken

from rwshim.errors import SqlParserError
from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase


class SessionRules(BuildBase):
    """SET and USE."""

    def set_stmt(self, c: list[Any]) -> st.Statement:
        modifier, body = c[1], c[2]
        local = modifier is not None and modifier.type == "LOCAL"
        if isinstance(body, st.SetVariable):
            return st.SetVariable(self.text, body.variable, body.value, local)
        if isinstance(body, st.SetTimeZone):
            return st.SetTimeZone(self.text, body.value, local, body.local_zone)
        assert isinstance(body, st.Statement)
        return body

    def set_variable(self, c: list[Any]) -> st.Statement:
        name_tok = c[0]
        value = c[2]
        # A quoted name keeps its case; RisingWave's handler folds config names anyway.
        return st.SetVariable(self.text, name_tok, value)

    def set_time_zone(self, c: list[Any]) -> st.Statement:
        if c[2] is None:
            return st.SetTimeZone(self.text, "", local_zone=True)
        return st.SetTimeZone(self.text, c[2])

    def tz_value(self, c: list[Any]) -> str | None:
        x = c[0]
        if isinstance(x, LarkToken):
            if x.type == "DEFAULT":
                return "UTC"
            if x.type == "LOCAL":
                return None
            if x.type == "INTERVAL":
                t = self.tok(c[1])
                if t.value != "+00:00":
                    raise SqlParserError('only support "+00:00" ')
                return "UTC"
            return self.tok(x).value
        return str(x)

    def set_transaction(self, c: list[Any]) -> st.Statement:
        return st.SetTransaction(self.text)

    def use(self, c: list[Any]) -> st.Statement:
        return st.Use(self.text, c[1])
