"""The tokenizer: RisingWave's token kinds, displays and locations."""

from __future__ import annotations

from rwshim.sql.tokens import Kind, tokenize


def test_display_of_each_kind() -> None:
    toks = tokenize("Ab \"Q\"\"x\" 'it''s' E'a\\'b' N'n' X'ff' $$d$$ $t$e$t$ $1 1.5e-3 :: != <> ;")
    shown = [t.display() for t in toks]
    assert shown == [
        "Ab",
        '"Q""x"',
        "'it's'",
        "E'a\\'b'",
        "N'n'",
        "X'ff'",
        "$$d$$",
        "$t$e$t$",
        "$1",
        "1.5e-3",
        "::",
        "<>",
        "<>",
        ";",
        "EOF",
    ]
    assert toks[1].value == 'Q"x' and toks[1].quoted


def test_locations_are_one_based_lines_and_character_columns() -> None:
    toks = tokenize("select\n  é, x")
    assert [(t.value, t.line, t.col) for t in toks[:-1]] == [
        ("select", 1, 1),
        ("é", 2, 3),
        (",", 2, 4),
        ("x", 2, 6),
    ]


def test_comments_are_skipped_and_nest() -> None:
    toks = tokenize("a -- one\n/* two /* three */ still */ b")
    assert [t.value for t in toks if t.kind is Kind.WORD] == ["a", "b"]


def test_period_and_numbers() -> None:
    assert [t.display() for t in tokenize("t.encoding .5 0x1F 1.")][:-1] == [
        "t",
        ".",
        "encoding",
        ".5",
        "0x1F",
        "1.",
    ]


def test_operator_split_before_comment_start() -> None:
    assert [t.display() for t in tokenize("a+-- c\n-b")][:-1] == ["a", "+", "-", "b"]
