"""Bad input gets RisingWave's parse error and nothing else: never a Python traceback."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from rwshim.errors import SqlParserError
from rwshim.sql import parse
from tests.unit.sql.cases import ALL_PARSE_CASES

_WORDS = [
    "ALTER",
    "TABLE",
    "MATERIALIZED",
    "VIEW",
    "INDEX",
    "SINK",
    "SOURCE",
    "SET",
    "PARALLELISM",
    "BACKFILL_PARALLELISM",
    "TO",
    "=",
    "DEFERRED",
    "DEFAULT",
    "adaptive",
    "bounded",
    "(",
    ")",
    "4",
    "-1",
    "'x'",
    '"q"',
    ",",
    ";",
    "CREATE",
    "AS",
    "SELECT",
    "FROM",
    "WITH",
    "EMIT",
    "ON",
    "WINDOW",
    "CLOSE",
    "DROP",
    "IF",
    "EXISTS",
    "SHOW",
    "JOBS",
    "CANCEL",
    "WAIT",
    "FLUSH",
    "RECOVER",
    "KILL",
    "FORMAT",
    "ENCODE",
    "PLAIN",
    "JSON",
    "t",
    "s.t",
    "*",
    ".",
    "INSERT",
    "INTO",
    "VALUES",
    "DELETE",
    "UPDATE",
    "GRANT",
    "SELECT",
    "RESET",
    "CONFIG",
    "FRAGMENT",
    "SOURCE_RATE_LIMIT",
    "RATE_LIMIT",
    "DATABASE",
    "SYSTEM",
    "PAUSE",
    "RESUME",
    "E'\\n'",
    "$$",
    "$1",
    "--c\n",
    "/*",
    "*/",
    "1.5",
    "0x1F",
    "::",
    "WHERE",
    "BEGIN",
    "COMMIT",
    "EXPLAIN",
]


@settings(max_examples=400, deadline=None)
@given(hs.lists(hs.sampled_from(_WORDS), min_size=1, max_size=12))
def test_token_soup_parses_or_fails_as_risingwave(words: list[str]) -> None:
    sql = " ".join(words)
    try:
        parse(sql)
    except SqlParserError as e:
        assert e.chain[0].startswith("sql parser error: ")


@settings(max_examples=300, deadline=None)
@given(hs.sampled_from([sql for sql, _ in ALL_PARSE_CASES]), hs.data())
def test_every_prefix_of_a_valid_statement(sql: str, data: hs.DataObject) -> None:
    cut = data.draw(hs.integers(min_value=0, max_value=len(sql)))
    try:
        parse(sql[:cut])
    except SqlParserError as e:
        assert e.chain[0].startswith("sql parser error: ")
