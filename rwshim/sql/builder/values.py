"""Names, SET values, WITH options and rate limits: the pieces every statement family reuses.

Mirrors the value half of src/sqlparser/src/parser.rs: ``parse_object_name`` and
``parse_identifier`` (parser.rs:4476-4562), ``parse_set_variable`` (parser.rs:4250-4290),
``parse_options`` / ``parse_sql_option`` (parser.rs:3021-3074), ``parse_value_and_obj_ref`` /
``parse_secret_ref`` (parser.rs:4198-4249), the backfill order (parser.rs:4291-4318) and
``parse_rate_limit_value`` (parser.rs:3470-3484); literals print as ast/value.rs's ``Value``.
"""

from __future__ import annotations

from typing import Any

from lark import Token as LarkToken

from rwshim.sql import statements as st
from rwshim.sql.builder.base import BuildBase, Ident, fold
from rwshim.sql.tokens import Kind, Token, unescape_c_style


def _unquote_literal(tok: Token) -> str:
    """A literal's value: E'' strings unescaped (their token keeps the raw text)."""
    return unescape_c_style(tok.value) if tok.kind is Kind.ESTRING else tok.value


def _value_display(t: Token) -> str:
    """A literal as RisingWave's ``Value`` prints it (ast/value.rs:55-115)."""
    if t.kind is Kind.STRING:
        return "'" + t.value.replace("'", "''") + "'"
    if t.kind is Kind.WORD:
        if t.quoted:
            return '"' + t.value + '"'
        return {"TRUE": "true", "FALSE": "false"}.get(t.upper, "NULL")
    return t.display()


class _SetItem(str):
    """One item of a SET value while it is built: its text and what it was written as."""

    kind: st.SetItemKind

    def __new__(cls, text: str, kind: st.SetItemKind) -> _SetItem:
        obj = super().__new__(cls, text)
        obj.kind = kind
        return obj


_LITERAL_KINDS: dict[Kind, st.SetItemKind] = {
    Kind.NUMBER: "number",
    Kind.ESTRING: "estring",
    Kind.DOLLAR: "dollar",
    Kind.NSTRING: "nstring",
    Kind.XSTRING: "xstring",
}


class ValueRules(BuildBase):
    """Names and values (RisingWave-side value checks raise its parse errors)."""

    def ident(self, c: list[LarkToken]) -> str:
        t = self.tok(c[0])
        out = Ident(fold(t))
        out.tok = t
        return out

    def object_name(self, c: list[Any]) -> st.ObjectName:
        return st.ObjectName(
            tuple(
                x
                for x in c
                if isinstance(x, str) and not (isinstance(x, LarkToken) and x.type == "DOT")
            )
        )

    def object_names(self, c: list[Any]) -> tuple[st.ObjectName, ...]:
        return tuple(x for x in c if isinstance(x, st.ObjectName))

    def literal(self, c: list[LarkToken]) -> LarkToken:
        return c[0]

    def value_default(self, c: list[Any]) -> st.SetValue:
        return st.SetValue("default")

    def value_items(self, c: list[Any]) -> st.SetValue:
        items = [x for x in c if isinstance(x, _SetItem)]
        return st.SetValue(
            "single" if len(items) == 1 else "list",
            tuple(str(x) for x in items),
            tuple(x.kind for x in items),
        )

    def vs_literal(self, c: list[LarkToken]) -> _SetItem:
        # SetVariableValueSingle::to_string_unquoted (ast/mod.rs:3869-3878): quoted strings
        # lose their quotes, every other literal prints as its Value Display.
        t = self.tok(c[0])
        if t.kind is Kind.STRING:
            return _SetItem(t.value, "string")
        if t.kind is Kind.WORD:
            return _SetItem(_value_display(t), "null" if t.upper == "NULL" else "bool")
        return _SetItem(_value_display(t), _LITERAL_KINDS.get(t.kind, "string"))

    def vs_ident(self, c: list[Any]) -> _SetItem:
        # A word written "like this" is read as a string literal first (parser.rs:4208-4210);
        # `default` after a comma is rejected (parser.rs:4271-4273).
        t = c[0].tok
        if not t.quoted and t.value == "default":
            raise self.err(t, "parameter list value")
        return _SetItem(str(t.value), "dstring" if t.quoted else "ident")

    def vs_raw(self, c: list[Any]) -> _SetItem:
        name_tok = next(x for x in c if isinstance(x, Ident)).tok.display()
        args = [
            _value_display(self.tok(x))
            for x in c
            if isinstance(x, LarkToken) and x.type not in ("LPAR", "RPAR", "COMMA")
        ]
        return _SetItem(f"{name_tok}({', '.join(args)})", "raw")

    def to_eq(self, c: list[Any]) -> None:
        return None

    def options(self, c: list[Any]) -> st.Options:
        return tuple(x for x in c if isinstance(x, tuple))

    def option(self, c: list[Any]) -> tuple[str, str]:
        """``key = value`` (parser.rs:3046-3068): a literal (a "quoted" word is one) or
        ``SECRET name``; for the key
        ``connection`` a connection name (anything else is `expected identifier`), for
        ``backfill_order`` a strategy; any other word is `expected a concrete value`
        (parser.rs:4197-4234)."""
        key = ".".join(c[0].parts)
        form, value, tok = c[2]
        low = key.lower()
        if low == "connection" and form != "ident":
            raise self.err(tok, "identifier")
        if form == "ident" and tok.quoted and low not in ("connection", "backfill_order"):
            # A word written "like this" is Value::DoubleQuotedString for any other key
            # (parse_value_and_obj_ref, parser.rs:4208-4210); WITH refuses it later
            # (with_options.rs:575-585), ALTER ... SET CONFIG takes it as a string
            # (alter_streaming_config.rs:59-61).
            return (key, st.OptionValue(value, "dstring"))
        if form == "ident" and low not in ("connection", "backfill_order"):
            raise self.err(tok, "a concrete value")
        if form == "call" and low != "backfill_order":
            raise self.err(tok, "a concrete value")
        if form == "ident" and low != "connection":
            value = st.OptionValue(value, "backfill_order")
        return (key, value)

    def ov_literal(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        t = self.tok(c[0])
        kinds = {
            Kind.STRING: "string",
            Kind.ESTRING: "estring",
            Kind.NUMBER: "number",
            Kind.DOLLAR: "dollar",
            Kind.NSTRING: "nstring",
            Kind.XSTRING: "xstring",
        }
        if t.kind is Kind.WORD:
            if t.upper == "NULL":
                return ("literal", st.OptionValue("NULL", "null"), t)
            return ("literal", st.OptionValue(t.value.lower(), "bool"), t)
        return ("literal", st.OptionValue(_unquote_literal(t), kinds.get(t.kind, "string")), t)

    def ov_secret(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        name = c[1]
        as_file = c[2] is not None
        text = ".".join(name.parts) + (" AS FILE" if as_file else "")
        value = st.OptionValue(text, "secret", tuple(name.parts), as_file)
        return ("secret", value, self.tok(c[0]))

    def ov_ident(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        return ("ident", st.OptionValue(str(c[0]), "connection", (str(c[0]),)), c[0].tok)

    def ov_qualified(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        """A dotted name: only a connection (parse_object_name after `connection =`)."""
        parts = tuple(str(x) for x in c if not isinstance(x, LarkToken))
        return ("ident", st.OptionValue(".".join(parts), "connection", parts), c[0].tok)

    def ov_call(self, c: list[Any]) -> tuple[str, st.OptionValue, Token]:
        # backfill_order = FIXED(a -> b, ...) (parser.rs:4290-4316): kept as written.
        start = c[0].tok.start
        end = c[-1].end_pos
        return ("call", st.OptionValue(self.sql[start:end], "backfill_order"), c[0].tok)

    def rate_limit_kw(self, c: list[LarkToken]) -> str:
        return c[0].type.removesuffix("_RATE_LIMIT")

    def rate_value(self, c: list[LarkToken]) -> int:
        lt = c[0]
        if lt.type == "DEFAULT":
            return -1
        t = self.tok(lt)
        try:
            n = int(t.value)
        except ValueError:
            n = 1 << 40
        if not (-(1 << 31) <= n < (1 << 31)):
            raise self.err(self.after(lt), "number or DEFAULT")
        return n

    def rate_limit(self, c: list[Any]) -> tuple[str, int]:
        return (c[0], c[2])
