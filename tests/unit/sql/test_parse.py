"""statement text -> typed statement, for every grammar and value form in the spec."""

from __future__ import annotations

import pytest

from rwshim.errors import SqlParserError
from rwshim.sql import parse
from tests.unit.sql.cases import ALL_PARSE_CASES, PARSE_ERRORS, TAG_CASES


@pytest.mark.parametrize(("sql", "expected"), ALL_PARSE_CASES, ids=[c[0] for c in ALL_PARSE_CASES])
def test_statement(sql: str, expected: object) -> None:
    assert parse(sql) == [expected]


@pytest.mark.parametrize(("sql", "tag"), TAG_CASES, ids=[c[0] for c in TAG_CASES])
def test_command_tag(sql: str, tag: str) -> None:
    [stmt] = parse(sql)
    assert stmt.tag == tag


@pytest.mark.parametrize(("sql", "message"), PARSE_ERRORS, ids=[c[0] for c in PARSE_ERRORS])
def test_parse_error_text(sql: str, message: str) -> None:
    with pytest.raises(SqlParserError) as info:
        parse(sql)
    assert info.value.chain == [message]
    assert info.value.code == "XX000"


def test_parse_error_report_matches_risingwave_ui() -> None:
    # e2e_test/error_ui/simple/main.slt:1-9
    with pytest.raises(SqlParserError) as info:
        parse("selet 1;")
    assert info.value.report() == (
        "Failed to run the query\n\nCaused by:\n"
        "  sql parser error: expected statement, found: selet\nLINE 1: selet 1;\n        ^\n"
    )


def test_multi_statement_split_keeps_quoted_semicolons() -> None:
    sql = (
        '/* {"app": "dbt"} */\nset background_ddl = true;\nset streaming_parallelism = 4;'
        'create index if not exists "i;x" on t (a);  -- trailing; comment\n'
        "select 'a;b', E'c\\';d', $$e;f$$, $t$g;h$t$;;"
    )
    stmts = parse(sql)
    assert [type(s).__name__ for s in stmts] == [
        "SetVariable",
        "SetVariable",
        "CreateIndex",
        "Query",
    ]
    assert stmts[2].text == 'create index if not exists "i;x" on t (a)'
    assert stmts[3].text == "select 'a;b', E'c\\';d', $$e;f$$, $t$g;h$t$"


def test_empty_and_comment_only_strings_have_no_statements() -> None:
    assert parse("") == []
    assert parse(" ;; -- nothing\n") == []
    assert parse("/* a /* nested */ comment */") == []


def test_first_error_wins_and_is_located_in_the_whole_string() -> None:
    with pytest.raises(SqlParserError) as info:
        parse("select 1;\nALTER TABLE t SET PARALLELISM 4;\nselet")
    assert info.value.chain == [
        "sql parser error: expected TO or = after ALTER TABLE SET PARALLELISM, found: 4\n"
        "LINE 2: ALTER TABLE t SET PARALLELISM 4;\n                                      ^"
    ]
