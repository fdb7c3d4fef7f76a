"""The RisingWave-only cursor forms, read from tokens: ``DECLARE c SUBSCRIPTION CURSOR FOR s
[SINCE ... | FULL]`` and the ``WITH (...)`` tail of ``FETCH``, which pglast does not know.

RisingWave: ``src/sqlparser/src/ast/statement.rs:707-730`` (DeclareCursorStatement),
``:757-775`` (FetchCursorStatement with_properties), ``src/sqlparser/src/parser.rs:3121-3160``
(parse_since: its texts).
"""

from __future__ import annotations

from rwshim.sql import statements as st
from rwshim.sql.errors_text import expected_error, located
from rwshim.sql.tokens import Kind, Token


def is_subscription_declare(toks: list[Token]) -> bool:
    return (
        len(toks) > 2
        and toks[0].upper == "DECLARE"
        and toks[2].kind is Kind.WORD
        and not toks[2].quoted
        and toks[2].upper == "SUBSCRIPTION"
    )


class _Reader:
    def __init__(self, sql: str, toks: list[Token], stop: Token) -> None:
        self.sql = sql
        self.toks = toks
        self.stop = stop
        self.i = 0

    def peek(self) -> Token:
        return self.toks[self.i] if self.i < len(self.toks) else self.stop

    def next(self) -> Token:
        t = self.peek()
        self.i += 1
        return t

    def word(self, value: str) -> bool:
        t = self.peek()
        if t.kind is Kind.WORD and not t.quoted and t.upper == value:
            self.i += 1
            return True
        return False

    def expect_word(self, value: str) -> None:
        if not self.word(value):
            raise expected_error(self.sql, self.peek(), value)

    def expect_op(self, value: str) -> None:
        t = self.peek()
        if t.kind is Kind.OP and t.value == value:
            self.i += 1
            return
        raise expected_error(self.sql, t, value)

    def ident(self) -> str:
        t = self.next()
        if t.kind is not Kind.WORD:
            raise expected_error(self.sql, t, "identifier")
        return t.value if t.quoted else t.value.lower()

    def object_name(self) -> st.ObjectName:
        parts = [self.ident()]
        while self.peek().kind is Kind.OP and self.peek().value == ".":
            self.i += 1
            parts.append(self.ident())
        return st.ObjectName(tuple(parts))

    def end(self) -> None:
        if self.i < len(self.toks):
            raise expected_error(self.sql, self.peek(), "end of statement")


def parse_subscription_declare(
    sql: str, text: str, toks: list[Token], stop: Token
) -> st.DeclareSubscriptionCursor:
    r = _Reader(sql, toks, stop)
    r.expect_word("DECLARE")
    name_tok = r.peek()
    cursor = r.ident()
    if r.peek().kind is Kind.OP and r.peek().value == ".":
        # parse_identifier_non_reserved: a cursor is not schema-bound
        raise expected_error(sql, r.peek(), "SUBSCRIPTION or CURSOR")
    del name_tok
    r.expect_word("SUBSCRIPTION")
    r.expect_word("CURSOR")
    r.expect_word("FOR")
    sub = r.object_name()
    since, ms = "now", None
    if r.word("SINCE"):
        t = r.next()
        if t.kind is Kind.WORD:
            word = t.value if t.quoted else t.value.lower()
            if word in ("proctime", "now", "begin"):
                r.expect_op("(")
                r.expect_op(")")
                since = "begin" if word == "begin" else "now"
            else:
                raise located(sql, t, f"Expected proctime(), begin() or now(), found: {word}")
        elif t.kind is Kind.NUMBER:
            if not t.value.isdigit() or int(t.value) >= 1 << 64:
                reason = (
                    "number too large to fit in target type"
                    if t.value.isdigit()
                    else "invalid digit found in string"
                )
                raise located(sql, t, f"Could not parse '{t.value}' as u64: {reason}")
            since, ms = "ms", int(t.value)
        else:
            raise expected_error(sql, t, "proctime(), begin() , now(), Number")
    elif r.word("FULL"):
        since = "full"
    r.end()
    return st.DeclareSubscriptionCursor(text, cursor, sub, since, ms)


def split_fetch_with(
    sql: str, toks: list[Token], stop: Token
) -> tuple[int, tuple[tuple[str, str], ...]]:
    """(the number of tokens before ``WITH``, the options) of a FETCH; (len(toks), ()) when it
    has none."""
    at = next(
        (i for i, t in enumerate(toks) if t.kind is Kind.WORD and not t.quoted
         and t.upper == "WITH"),
        None,
    )  # fmt: skip
    if at is None:
        return len(toks), ()
    r = _Reader(sql, toks, stop)
    r.i = at + 1
    r.expect_op("(")
    opts: list[tuple[str, str]] = []
    while True:
        key = r.object_name()
        r.expect_op("=")
        v = r.next()
        if v.kind in (Kind.STRING, Kind.NUMBER, Kind.WORD):
            opts.append((".".join(key.parts), v.value))
        else:
            raise expected_error(sql, v, "a value")
        if r.peek().kind is Kind.OP and r.peek().value == ",":
            r.i += 1
            continue
        break
    r.expect_op(")")
    r.end()
    return at, tuple(opts)
