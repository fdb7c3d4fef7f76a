"""Non-ASCII digits do not start a number (tokenizer.rs:492 matches '0'..='9' only).

``str.isdigit`` is true for ``³`` or ``١`` while the number scanner reads ASCII digits only,
so such a character used to make the tokenizer loop forever (found by the protocol fuzzer).
"""

from __future__ import annotations

import pytest

from rwshim.errors import SqlParserError
from rwshim.sql import parse
from rwshim.sql.tokens import Kind, tokenize


@pytest.mark.parametrize("ch", ["³", "١", "５", "²"])
def test_non_ascii_digit_is_a_character_not_a_number(ch: str) -> None:
    toks = tokenize(f"SELECT {ch}")
    assert [(t.kind, t.value) for t in toks] == [
        (Kind.WORD, "SELECT"),
        (Kind.OP, ch),
        (Kind.EOF, ""),
    ]
    # the same token a non-digit symbol gives
    assert [(t.kind, t.start, t.end) for t in toks] == [
        (t.kind, t.start, t.end) for t in tokenize("SELECT §")
    ]


def _outcome(sql: str) -> str:
    try:
        return repr(parse(sql))
    except SqlParserError as e:
        return str(e)


@pytest.mark.parametrize("ch", ["³", "١"])
def test_statement_with_non_ascii_digit_reads_like_any_other_symbol(ch: str) -> None:
    # It returns (it used to hang) and reads as any other non-ASCII symbol does.
    assert _outcome(f"SELECT {ch}") == _outcome("SELECT §").replace("§", ch)
