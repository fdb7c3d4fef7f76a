"""The integer literals a parse or plan may be shared across (rwshim/sql/literals.py), and the
parser's sharing itself: a text of a known skeleton parses as if parsed on its own."""

from __future__ import annotations

import pytest

from rwshim.errors import SqlParserError
from rwshim.sql import literals, parse, parse_cache_clear
from rwshim.sql import statements as st


def test_a_text_is_cut_at_its_int4_literals() -> None:
    lits = literals.literals("SELECT v FROM kv WHERE k = 42 AND n < 7;")
    assert lits is not None
    assert lits.values == ("42", "7")
    assert lits.skeleton == ("SELECT v FROM kv WHERE k = ", " AND n < ", ";")
    assert literals.fill(lits, ("1", "2")) == "SELECT v FROM kv WHERE k = 1 AND n < 2;"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("SELECT v FROM kv", None),  # no literal
        ("SELECT 'a5', x1, $1 FROM kv", None),  # digits in a string, a name, a parameter
        ("SELECT 2147483648 FROM kv", None),  # beyond int4: PostgreSQL's FCONST
        ("SELECT 1.5, 1e3 FROM kv", None),  # not integers
        ("SELECT 0x1f, 2 FROM kv", None),  # not plain digits: the text is left alone
        ("SELECT 1_000, 2 FROM kv", None),
        ("SELECT 1a FROM kv", None),  # PostgreSQL's scanner refuses it
        ("SELECT v FROM kv WHERE k = 1 /* 2 */", ("1",)),  # a comment's digits are none
        ("SELECT -7, a[1] FROM kv", ("7", "1")),
    ],
)
def test_which_literals_are_cut(text: str, values: tuple[str, ...] | None) -> None:
    lits = literals.literals(text)
    assert (None if lits is None else lits.values) == values


def test_holes_find_each_marker_wherever_it_went() -> None:
    marks = literals.markers(3)
    assert len(set(marks)) == 3 and all(len(m) == 10 and int(m) < 2**31 for m in marks)
    text = f"INSERT INTO t VALUES ({marks[0]}, {marks[1]}) -- {marks[0]} {marks[2]}9"
    h = literals.holes(text, marks)
    assert literals.put(h, ("5", "6", "7")) == f"INSERT INTO t VALUES (5, 6) -- 5 {marks[2]}9"
    assert literals.mentions_marker(("x", f"a{marks[1]}"), marks)
    assert not literals.mentions_marker(("x", None), marks)


def test_shared_parses_keep_each_text() -> None:
    parse_cache_clear()
    first = parse("  SELECT v FROM kv WHERE k = 1 ;  ")
    second = parse("  SELECT v FROM kv WHERE k = 12345 ;  ")
    assert first == [st.Query("SELECT v FROM kv WHERE k = 1")]
    assert second == [st.Query("SELECT v FROM kv WHERE k = 12345")]
    assert parse("INSERT INTO kv VALUES (1, 'a') RETURNING k") == [
        st.Insert("INSERT INTO kv VALUES (1, 'a') RETURNING k", st.ObjectName(("kv",)), True)
    ]
    assert parse("INSERT INTO kv VALUES (22, 'a') RETURNING k") == [
        st.Insert("INSERT INTO kv VALUES (22, 'a') RETURNING k", st.ObjectName(("kv",)), True)
    ]


def test_an_error_is_the_texts_own_after_a_shared_parse() -> None:
    parse_cache_clear()
    parse("SELECT v FROM kv WHERE k = 1")
    with pytest.raises(SqlParserError) as e:
        parse("SELECT v FROM kv WHERE k = 1 AND")
    assert str(e.value) == (
        "sql parser error: expected an expression, found: EOF\n"
        "LINE 1: SELECT v FROM kv WHERE k = 1 AND\n"
        "                                        ^"
    )
