"""SHOW <objects>, SHOW CREATE, SHOW <variable> and DESCRIBE.

Mirrors src/sqlparser/src/parser.rs ``parse_show`` (parser.rs:5167-5335), ``parse_show_create``
(parser.rs:5371), ``parse_show_statement_filter`` (parser.rs:5402), ``parse_identifiers``
(parser.rs:4521, for SHOW <variable>) and ``parse_describe`` (parser.rs:4825).
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase, fold
from rwshim.sql.tokens import Kind


class ShowRules(BuildBase):
    """SHOW and DESCRIBE."""

    def show(self, c: list[Any]) -> st.Statement:
        if c[1] is None:
            return st.ShowVariable(self.text, "")
        out = c[1]
        assert isinstance(out, st.Statement)
        return out

    def from_schema(self, c: list[Any]) -> st.ObjectName:
        return st.ObjectName((c[1],))

    def filter_like(self, c: list[Any]) -> tuple[str, str]:
        return ("like", self.tok(c[1]).value)

    def filter_ilike(self, c: list[Any]) -> tuple[str, str]:
        return ("ilike", self.tok(c[1]).value)

    def filter_where(self, c: list[Any]) -> tuple[str, str]:
        return ("where", str(c[1]).strip())

    def _show(self, what: str, c: list[Any]) -> st.Statement:
        schema = next((x for x in c if isinstance(x, st.ObjectName)), None)
        flt = next((x for x in c if isinstance(x, tuple)), None)
        kw: dict[str, str] = {flt[0]: flt[1]} if flt else {}
        return st.ShowObjects(self.text, what, schema, **kw)

    def show_tables(self, c: list[Any]) -> st.Statement:
        return self._show("TABLES", c)

    def show_internal_tables(self, c: list[Any]) -> st.Statement:
        return self._show("INTERNAL TABLES", c)

    def show_sources(self, c: list[Any]) -> st.Statement:
        return self._show("SOURCES", c)

    def show_sinks(self, c: list[Any]) -> st.Statement:
        return self._show("SINKS", c)

    def show_subscriptions(self, c: list[Any]) -> st.Statement:
        return self._show("SUBSCRIPTIONS", c)

    def show_databases(self, c: list[Any]) -> st.Statement:
        return self._show("DATABASES", c)

    def show_schemas(self, c: list[Any]) -> st.Statement:
        return self._show("SCHEMAS", c)

    def show_views(self, c: list[Any]) -> st.Statement:
        return self._show("VIEWS", c)

    def show_materialized_views(self, c: list[Any]) -> st.Statement:
        return self._show("MATERIALIZED VIEWS", c)

    def show_columns(self, c: list[Any]) -> st.Statement:
        return self._show("COLUMNS", c)

    def show_secrets(self, c: list[Any]) -> st.Statement:
        return self._show("SECRETS", c)

    def show_connections(self, c: list[Any]) -> st.Statement:
        return self._show("CONNECTIONS", c)

    def show_functions(self, c: list[Any]) -> st.Statement:
        return self._show("FUNCTIONS", c)

    def show_indexes(self, c: list[Any]) -> st.Statement:
        return self._show("INDEXES", c)

    def show_cluster(self, c: list[Any]) -> st.Statement:
        return self._show("CLUSTER", c)

    def show_jobs(self, c: list[Any]) -> st.Statement:
        return self._show("JOBS", c)

    def show_processlist(self, c: list[Any]) -> st.Statement:
        return self._show("PROCESSLIST", c)

    def show_cursors(self, c: list[Any]) -> st.Statement:
        return self._show("CURSORS", c)

    def show_subscription_cursors(self, c: list[Any]) -> st.Statement:
        return self._show("SUBSCRIPTION CURSORS", c)

    def show_isolation(self, c: list[Any]) -> st.Statement:
        return st.ShowVariable(self.text, "transaction_isolation")

    def show_create_kind(self, c: list[LarkToken]) -> str:
        return " ".join(x.type for x in c)

    def show_create(self, c: list[Any]) -> st.Statement:
        return st.ShowCreate(self.text, c[1], c[2])

    def show_variable(self, c: list[Any]) -> st.Statement:
        # parse_identifiers (parser.rs:4521-4535): every word up to the end, other tokens skipped.
        start = self.tok(c[0])
        words = [fold(t) for t in self.toks[self.toks.index(start) :] if t.kind is Kind.WORD]
        return st.ShowVariable(self.text, " ".join(words))

    def describe(self, c: list[Any]) -> st.Statement:
        return st.Describe(self.text, c[-1], c[1] is not None)

    def describe_fragment(self, c: list[Any]) -> st.Statement:
        return st.DescribeFragment(self.text, self.u32_literal(c[2]))
