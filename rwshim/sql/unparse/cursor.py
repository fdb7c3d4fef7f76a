"""The token cursor the printer's parsers share: RisingWave's ``Parser`` primitives
(``peek_token``, ``parse_keyword``, ``parse_keywords``, ``consume_token``, ``expect_*``,
``parse_comma_separated``, checkpoints; src/sqlparser/src/parser.rs:1718-1930) over the tokens
of rwshim/sql/tokens.py.

A word is a keyword when it is unquoted and its upper-case spelling is one of RisingWave's
keywords (tokenizer.rs ``Word::keyword``).  The statements reaching the printer were already
accepted by rwshim's parser, so a failure here means the printer does not know a form:
``UnparseError`` says which, and the caller refuses rather than store a wrong definition.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from rwshim.common.keywords_generated import ALL_KEYWORDS
from rwshim.errors import SqlParserError
from rwshim.sql.errors_text import expected_error, located
from rwshim.sql.limits import MAX_DEPTH
from rwshim.sql.tokens import Kind, Token, tokenize

T = TypeVar("T")
P = ParamSpec("P")

# The printer is a recursive descent (as RisingWave's parser and Display are) and takes up to
# nine Python frames per level of a statement (an argument list nested in an argument list;
# 2 for ``a+b+...``, 5 for parentheses: measured at 990 levels), so the default limit of 1,000
# frames refuses statements RisingWave accepts.  A statement reaches it only within the depth
# bound of rwshim/sql/limits.py, so this many frames always suffice; pure Python calls take
# little C stack, and the printer runs on the server's main thread (its 8 MiB stack).
_FRAMES = 12 * MAX_DEPTH + 2000


def deep(fn: Callable[P, T]) -> Callable[P, T]:
    """Run ``fn`` with the recursion limit raised to ``_FRAMES`` (restored afterwards; it is
    only ever raised, so a nested call keeps the outer one's)."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        old = sys.getrecursionlimit()
        if old >= _FRAMES:
            return fn(*args, **kwargs)
        sys.setrecursionlimit(_FRAMES)
        try:
            return fn(*args, **kwargs)
        finally:
            sys.setrecursionlimit(old)

    return run


class UnparseError(Exception):
    """The printer met a form it cannot read: ``what`` RisingWave's parser would say it
    expected (or its message) at ``token``."""

    def __init__(self, what: str, token: Token | None = None) -> None:
        found = "" if token is None else f", found: {_found(token)} (at offset {token.start})"
        super().__init__(what + found)
        self.what = what
        self.token = token

    def parser_error(self, sql: str) -> SqlParserError:
        """RisingWave's form of this failure in ``sql`` (the text the tokens came from):
        ``sql parser error: expected <what>, found: <token>`` and its location."""
        if self.token is None:
            return SqlParserError(f"sql parser error: {self.what}")
        if self.what.startswith("expected "):
            return expected_error(sql, self.token, self.what.removeprefix("expected "))
        return located(sql, self.token, self.what)


def _found(tok: Token) -> str:
    return "EOF" if tok.kind is Kind.EOF else tok.display()


def keyword(tok: Token) -> str | None:
    """The keyword a token is (tokenizer.rs: unquoted words found in ALL_KEYWORDS)."""
    if tok.kind is not Kind.WORD or tok.quoted:
        return None
    up = tok.value.upper()
    return up if up in ALL_KEYWORDS else None


class Cursor:
    """A position in a token list that ends with an EOF token."""

    def __init__(self, text: str, toks: list[Token] | None = None) -> None:
        self.text = text
        self.toks = toks if toks is not None else tokenize(text)
        if not self.toks or self.toks[-1].kind is not Kind.EOF:
            end = len(text)
            lines = self.toks[-1].lines if self.toks else None
            self.toks = [*self.toks, Token(Kind.EOF, "", end, end, lines=lines)]
        self.i = 0

    # --- looking -------------------------------------------------------------------------

    def peek(self, n: int = 0) -> Token:
        return self.toks[min(self.i + n, len(self.toks) - 1)]

    def peek_kw(self, n: int = 0) -> str | None:
        return keyword(self.peek(n))

    def peek_op(self, text: str, n: int = 0) -> bool:
        t = self.peek(n)
        return t.kind is Kind.OP and t.value == text

    def at_end(self) -> bool:
        t = self.peek()
        return t.kind is Kind.EOF or (t.kind is Kind.OP and t.value == ";")

    # --- taking --------------------------------------------------------------------------

    def next(self) -> Token:
        t = self.peek()
        if t.kind is not Kind.EOF:
            self.i += 1
        return t

    def parse_keyword(self, kw: str) -> bool:
        if self.peek_kw() == kw:
            self.i += 1
            return True
        return False

    def parse_keywords(self, *kws: str) -> bool:
        """All of ``kws`` in order, or nothing consumed (parser.rs parse_keywords)."""
        for n, kw in enumerate(kws):
            if self.peek_kw(n) != kw:
                return False
        self.i += len(kws)
        return True

    def parse_one_of(self, *kws: str) -> str | None:
        kw = self.peek_kw()
        if kw in kws:
            self.i += 1
            return kw
        return None

    def consume(self, op: str) -> bool:
        if self.peek_op(op):
            self.i += 1
            return True
        return False

    def expect(self, op: str) -> Token:
        if not self.peek_op(op):
            raise self.error(f"expected {op}")
        return self.next()

    def expect_keyword(self, *kws: str) -> None:
        if not self.parse_keywords(*kws):
            raise self.error(f"expected {' '.join(kws)}")

    def comma_separated(self, item: Callable[[], T]) -> list[T]:
        out = [item()]
        while self.consume(","):
            out.append(item())
        return out

    def maybe(self, attempt: Callable[[], T]) -> T | None:
        """``attempt`` from here, or None with the position restored (parser.rs maybe_parse)."""
        saved = self.i
        try:
            return attempt()
        except UnparseError:
            self.i = saved
            return None

    def error(self, what: str) -> UnparseError:
        return UnparseError(what, self.peek())
