"""Bugs the fuzz suites found, pinned: each case as RisingWave answers it."""

from __future__ import annotations

import asyncpg
import pytest

from rwshim.errors import SqlParserError
from rwshim.sql import parse
from tests.conftest import Running


@pytest.mark.parametrize(
    ("sql", "found", "col"),
    [
        ("select", "EOF", 7),
        ("SELECT FROM information_schema.tables", "FROM", 8),
        ("(select)", ")", 8),
        ("select 1 union select", "EOF", 22),
        ("create materialized view mm as select from t", "from", 39),
        ("insert into t select", "EOF", 21),
    ],
)
def test_empty_select_list_is_a_parse_error(sql: str, found: str, col: int) -> None:
    # parse_select parses at least one select item (parser.rs:5014-5017); PostgreSQL and
    # pglast accept an empty list.
    with pytest.raises(SqlParserError) as e:
        parse(sql)
    assert str(e.value) == (
        f"sql parser error: expected an expression, found: {found}\n"
        f"LINE 1: {sql}\n{' ' * (len('LINE 1: ') + col - 1)}^"
    )


def test_quoted_select_word_is_not_a_select() -> None:
    assert [type(s).__name__ for s in parse('select "select" from t')] == ["Query"]


@pytest.mark.parametrize(
    ("sql", "rows"),
    [
        ("(select 1)", [(1,)]),
        ("((select 1 as a))", [(1,)]),
        ("(select 1) union (select 2) order by 1", [(1,), (2,)]),
        ("(select 1) except (select 1)", []),
        ("select * from ((select 1) union all (select 2)) x order by 1", [(1,), (2,)]),
    ],
)
async def test_parenthesized_queries(rw_server: Running, sql: str, rows: list[tuple[int]]) -> None:
    conn = await asyncpg.connect(rw_server.url())
    assert [tuple(r) for r in await conn.fetch(sql)] == rows
    await conn.close()


@pytest.mark.parametrize("sql", ["select ²", "select ٣", "select 1²", "values (¹)"])
def test_non_ascii_digits_end_tokenizing(sql: str) -> None:
    # str.isdigit() is True for them while the number scanner reads ASCII digits only: the
    # tokenizer used to loop forever on them, holding the whole server (found by the
    # live protocol fuzzer).  RisingWave's tokenizer starts a number only at '0'..='9'.
    from rwshim.sql.tokens import tokenize

    toks = tokenize(sql)
    assert toks[-1].end == len(sql) or toks[-1].start == len(sql)


async def test_non_ascii_digit_does_not_hold_the_server(rw_server: Running) -> None:
    conn = await asyncpg.connect(rw_server.url())
    with pytest.raises(asyncpg.PostgresError):
        await conn.execute("select ²")
    assert await conn.fetchval("select 1") == 1
    await conn.close()
