"""The SQL front end's constant-SELECT fast path gives the statement pglast's path gives.

``parse`` answers ``SELECT 1``-style statements without pglast (so it is not imported for
them); each case is also read through pglast (``check_pg`` / ``rw_restrictions`` / ``build``)
and the two statements must be equal.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rwshim.errors import SqlParserError
from rwshim.sql import parse, parse_cache_clear
from rwshim.sql import parser as sql_parser
from rwshim.sql import statements as st
from rwshim.sql.pgparser import blank_rw_query_syntax, build, check_pg, rw_restrictions
from rwshim.sql.tokens import Kind, tokenize

FAST = [
    "SELECT 1",
    "select 1",
    "SELECT   1",
    "SELECT -1",
    "SELECT 2147483648",
    "SELECT 99999999999999999999999",
    "SELECT 'x'",
    "SELECT ''",
    "SELECT 'it''s'",
    "SELECT 'a\\b'",
    "SELECT 1, 'a', 2",
    "SELECT 1,2",
    "SELECT 1 + 1",
    "SELECT 1+1",
    "SELECT 5 - 7",
    "SELECT 6*7",
]

SLOW = [
    "SELECT 1 AS a",
    "SELECT 1.5",
    "SELECT 1 + 2 * 3",
    "SELECT $1",
    "SELECT E'x'",
    "SELECT 1 /* c */",
    "SELECT 1 FROM t",
    "SELECT true",
    "SELECT 'x'::int",
    "SELECT (1)",
]


def _through_pglast(text: str) -> st.Statement:
    toks = tokenize(text)
    stop = toks[-1]
    assert stop.kind is Kind.EOF
    body = toks[:-1]
    node = check_pg(text, blank_rw_query_syntax(text), body, stop)
    rw_restrictions(text, node, body, stop)
    return build(node, text)


@pytest.mark.parametrize("text", FAST)
def test_fast_path_equals_pglast_path(text: str) -> None:
    assert sql_parser._CONSTANT_SELECT.fullmatch(text) is not None
    parse_cache_clear()
    assert parse(text) == [_through_pglast(text)]
    assert parse(text + ";") == [_through_pglast(text)]


@pytest.mark.parametrize("text", SLOW)
def test_other_selects_go_to_pglast(text: str) -> None:
    assert sql_parser._CONSTANT_SELECT.fullmatch(text) is None


def test_errors_still_come_from_the_full_path() -> None:
    # A trailing comma is not a constant SELECT: the error is pglast's, in RisingWave's form.
    assert sql_parser._CONSTANT_SELECT.fullmatch("SELECT 1,") is None
    parse_cache_clear()
    with pytest.raises(SqlParserError) as e:
        parse("SELECT 1,")
    assert str(e.value) == (
        "sql parser error: expected an expression, found: EOF\nLINE 1: SELECT 1,\n"
        "                 ^"
    )


def test_select_1_does_not_import_pglast_or_lark() -> None:
    script = (
        "import sys\n"
        "from rwshim.sql import parse\n"
        "print(parse('SELECT 1'), [m for m in ('pglast', 'lark') if m in sys.modules])\n"
        "parse('SELECT 1 AS a'); parse('SHOW TABLES')\n"
        "print([m for m in ('pglast', 'lark') if m in sys.modules])\n"
    )
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[Query(text='SELECT 1')] []", "['pglast', 'lark']"]
