"""The forms RisingWave's parser accepts and PostgreSQL's does not, rewritten for pglast
(rwshim.sql.lenient): offsets map back to the user's text, names map back to the keyword."""

from __future__ import annotations

import pytest

from rwshim.errors import SqlParserError
from rwshim.sql import parse
from rwshim.sql.lenient import pg_text, quote_keyword_relations
from rwshim.sql.tokens import Kind, tokenize


def _pg(text: str) -> str:
    return pg_text(text, [t for t in tokenize(text) if t.kind is not Kind.EOF]).text


def test_a_function_result_and_an_array_constructor_are_parenthesised() -> None:
    assert _pg("select f(x)[1], s.g(y)[1][2], array[1][1] from t") == (
        "select (f(x))[1], (s.g(y))[1][2], (array[1])[1] from t"
    )


def test_subscripts_pglast_already_reads_are_left_alone() -> None:
    text = "select x[1], (f(x))[1], t.c[2] from t where a in (1)"
    assert _pg(text) == text


def test_keyword_relation_names_become_same_length_placeholders() -> None:
    text = "select * from table join left on true, user"
    pg = pg_text(text, [t for t in tokenize(text) if t.kind is not Kind.EOF])
    assert pg.text == "select * from _able join _eft on true, _ser"
    assert pg.names == {14: "table", 25: "left", 39: "user"}


def test_a_keyword_inside_a_function_is_not_a_relation() -> None:
    for text in (
        "select extract(year from current_date)",
        "select substring('abc' from 1), trim(both from 'x')",
        "select * from generate_series(1, 2)",
        "select * from t where a is not distinct from null",
    ):
        assert quote_keyword_relations(text) == text


def test_the_read_path_gets_keyword_relations_quoted() -> None:
    assert quote_keyword_relations("INSERT INTO Table VALUES (1)") == (
        'INSERT INTO "table" VALUES (1)'
    )
    assert quote_keyword_relations("select * from a, join") == 'select * from a, "join"'


def test_an_error_after_an_inserted_parenthesis_points_at_the_users_text() -> None:
    with pytest.raises(SqlParserError) as e:
        parse("select f(x)[1] +")
    assert str(e.value) == (
        "sql parser error: expected an expression, found: EOF\n"
        "LINE 1: select f(x)[1] +\n"
        "                        ^"
    )
    with pytest.raises(SqlParserError) as e:
        parse("select f(x)[1] from t t2 t3")
    assert str(e.value) == (
        "sql parser error: expected end of statement, found: t3\n"
        "LINE 1: select f(x)[1] from t t2 t3\n"
        "                                 ^"
    )


def test_update_names_a_table_only_as_the_statement_verb() -> None:
    # changelog.slt:32: CTEs named add and update, read in a FROM list
    text = "with update as (select 1) select * from a, update where a.x = update.x"
    assert _pg(text) == text
    assert _pg("update user set a = 1") == "update _ser set a = 1"
    assert _pg("explain update user set a = 1") == "explain update _ser set a = 1"


def test_a_changelog_cte_and_a_session_frame_read_as_postgresql() -> None:
    # RisingWave's own forms (parser.rs:4916-4932, WindowFrameUnits::Session): the CTE's body
    # as (TABLE <name>), the frame blanked
    assert _pg("with p as changelog from t select * from p") == (
        "with p as (TABLE          t) select * from p"
    )
    assert _pg("select first_value(x) over (order by ts session with gap '1 m') from t") == (
        "select first_value(x) over (order by ts " + " " * 22 + ") from t"
    )
