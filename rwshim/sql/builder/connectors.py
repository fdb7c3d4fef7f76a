"""CREATE SOURCE / SINK / SUBSCRIPTION / CONNECTION / SECRET and FORMAT ... ENCODE.

The CREATE statements RisingWave parses in src/sqlparser/src/ast/statement.rs
(``CreateSourceStatement``, ``FormatEncodeOptions``, ``CreateSinkStatement``,
``CreateSubscriptionStatement``, ``CreateConnectionStatement``, ``CreateSecretStatement``),
reached from ``parse_create_source`` / ``_sink`` / ``_subscription`` / ``_connection``
(src/sqlparser/src/parser.rs:2127-2214) and ``parse_create_secret`` (parser.rs:2413).
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase
from rwshim.sql.errors_text import located
from rwshim.sql.tokens import Kind, Token


class ConnectorRules(BuildBase):
    """CREATE for the connector objects and their FORMAT ... ENCODE clause."""

    def format_encode(self, c: list[Any]) -> st.FormatEncode:
        return st.FormatEncode(c[1].upper(), c[3].upper(), c[4] or ())

    def create_source(self, c: list[Any]) -> st.Statement:
        _src, ine, name, cols, include, _with, opts, fe = c
        self.check_column_names(cols, definitions=True)
        if "webhook" in str(dict(opts or ()).get("connector", "")):
            # statement.rs:292-296
            raise located(
                self.sql,
                self._after_with_options(),
                "Source with webhook connector is not supported. Please use the `CREATE TABLE "
                "... WITH ...` statement instead.",
            )
        self.check_implied_format(opts or (), fe, cdc_job=True)
        return st.CreateSource(
            self.text,
            name,
            str(cols) if cols is not None else None,
            bool(ine),
            opts or (),
            fe,
            include or (),
        )

    def into_table(self, c: list[Any]) -> tuple[st.ObjectName, tuple[str, ...]]:
        cols = c[2] if len(c) > 2 else None
        self.check_column_names(cols, definitions=False)
        inner = str(cols).strip()[1:-1] if cols is not None else ""
        names = tuple(
            n[1:-1].replace('""', '"') if n.startswith('"') else n.lower()
            for n in (p.strip() for p in inner.split(","))
            if n
        )
        return c[1], names

    def sink_from_name(self, c: list[Any]) -> tuple[str, Any]:
        return ("from", c[1])

    def sink_as_query(self, c: list[Any]) -> tuple[str, Any]:
        return ("query", str(c[1]).strip())

    def create_sink(self, c: list[Any]) -> st.Statement:
        _sink, ine, name, (how, what), _emit, _with, opts, fe = c
        if not opts:
            # statement.rs:567-569: parser_err! at the token after the WITH (...) list
            raise located(self.sql, self._after_with_options(), "sink properties not provided")
        return self._sink(name, how, what, None, ine, opts, fe)

    def create_sink_into(self, c: list[Any]) -> st.Statement:
        _sink, ine, name, (into, into_columns), (how, what), _emit, _with, opts, fe = c
        return self._sink(name, how, what, into, ine, opts or (), fe, into_columns)

    def _sink(
        self,
        name: Any,
        how: str,
        what: Any,
        into: Any,
        ine: Any,
        opts: Any,
        fe: Any,
        into_columns: tuple[str, ...] = (),
    ) -> st.Statement:
        return st.CreateSink(
            self.text,
            name,
            what if how == "from" else None,
            what if how == "query" else None,
            into,
            bool(ine),
            opts,
            fe,
            into_columns,
        )

    def _after_with_options(self) -> Token:
        toks = self.toks
        depth = 0
        for i, t in enumerate(toks):
            v = t.value if t.kind is Kind.OP else ""
            if v == "(":
                depth += 1
            elif v == ")":
                depth -= 1
            elif (
                depth == 0 and t.upper == "WITH" and i + 1 < len(toks) and toks[i + 1].value == "("
            ):
                j = i + 2
                while j < len(toks) and not (toks[j].kind is Kind.OP and toks[j].value == ")"):
                    j += 1
                return toks[j + 1] if j + 1 < len(toks) else self.stop
        return self.stop

    def create_subscription(self, c: list[Any]) -> st.Statement:
        _sub, ine, name, _from, src, _with, opts = c
        return st.CreateSubscription(self.text, name, src, bool(ine), opts or ())

    def create_connection(self, c: list[Any]) -> st.Statement:
        _conn, ine, name, _with, opts = c
        if not opts:
            # statement.rs:834-849: parser_err! where the WITH (...) list would be
            raise located(
                self.sql, self._after_with_options(), "connection properties not provided"
            )
        return st.CreateConnection(self.text, name, bool(ine), opts or ())

    def create_secret(self, c: list[Any]) -> st.Statement:
        _secret, ine, name, _with, opts, _as, value = c
        return st.CreateSecret(self.text, name, bool(ine), opts or (), value)

    def secret_value(self, c: list[Any]) -> st.OptionValue:
        """ensure_parse_value (parser.rs): a literal; a double-quoted word is a
        DoubleQuotedString value, any other word is not a value."""
        lt = c[0]
        if isinstance(lt, LarkToken) and lt.type == "IDENT":
            t = self.tok(lt)
            if t.upper == "SECRET":
                raise self.err(t, "a concrete value rather than a secret reference")
            if not t.quoted:
                raise self.err(t, "a concrete value")
            return st.OptionValue(t.value, "dstring")
        t = self.tok(lt)
        if t.kind is Kind.STRING:
            return st.OptionValue(t.value, "string")
        kinds = {Kind.ESTRING: "estring", Kind.NUMBER: "number", Kind.DOLLAR: "dollar",
                 Kind.NSTRING: "nstring", Kind.XSTRING: "xstring"}  # fmt: skip
        return st.OptionValue(t.value, kinds.get(t.kind, "word"))
