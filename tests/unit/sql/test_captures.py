"""Every statement the real clients sent (the wire captures, vendored in data/) parses.

The captures were taken against PostgreSQL, so a few are PostgreSQL statements RisingWave's
parser has no rule for; those must fail exactly as RisingWave fails them, and are listed here
with RisingWave's full message.  Any other failure fails the test.
"""

from __future__ import annotations

from rwshim.errors import SqlParserError
from rwshim.sql import parse
from tests.unit.sql.captures import captured_statements


def _stmt_err(word: str, line: str, lineno: int = 1) -> str:
    return (
        f"sql parser error: expected statement, found: {word}\n"
        f"LINE {lineno}: {line}\n{' ' * len(f'LINE {lineno}: ')}^"
    )


_DO1 = "do $$ begin raise exception 'boom' using detail='d1', hint='h1', errcode='22023'; end $$"
_DO2 = "do $$ begin raise notice 'hello' using detail='nd'; end $$"
_POOL = "SELECT pg_advisory_unlock_all();\nCLOSE ALL;\nUNLISTEN *;\nRESET ALL;"
# dbt-risingwave 1.11's incremental delete aliases its target; RisingWave rejects that
# (clients.md §7.2: "1.12 drops the target alias (RisingWave rejects it)").
_DBT_DELETES = [
    s for _, s in captured_statements() if "delete from" in s and "as DBT_INTERNAL_DEST" in s
]


def _alias_err(sql: str) -> str:
    lineno = next(i for i, ln in enumerate(sql.split("\n"), 1) if "as DBT_INTERNAL_DEST" in ln)
    line = sql.split("\n")[lineno - 1]
    prefix = f"LINE {lineno}: "
    col = line.index("as DBT_INTERNAL_DEST")
    return (
        f"sql parser error: expected end of statement, found: as\n{prefix}{line}\n"
        f"{' ' * (len(prefix) + col)}^"
    )


REJECTED_BY_RISINGWAVE = {
    **{sql: _alias_err(sql) for sql in _DBT_DELETES},
    _DO1: _stmt_err("do", _DO1),
    _DO2: _stmt_err("do", _DO2),
    _POOL: _stmt_err("UNLISTEN", "UNLISTEN *;", 3),
    'SAVEPOINT "_pg3_1"': _stmt_err("SAVEPOINT", 'SAVEPOINT "_pg3_1"'),
    'RELEASE "_pg3_1"': _stmt_err("RELEASE", 'RELEASE "_pg3_1"'),
}


def test_every_captured_statement_parses() -> None:
    stmts = captured_statements()
    assert len(stmts) > 150  # the captures are all there
    failures = []
    seen_rejections = set()
    for source, sql in stmts:
        try:
            parsed = parse(sql)
        except SqlParserError as e:
            if REJECTED_BY_RISINGWAVE.get(sql) == e.chain[0]:
                seen_rejections.add(sql)
                continue
            failures.append(f"{source}: {sql[:120]!r}\n    {e.chain[0]}")
            continue
        if not parsed:
            failures.append(f"{source}: {sql[:120]!r} gave no statement")
    assert failures == []
    assert seen_rejections == set(REJECTED_BY_RISINGWAVE)


def test_dbt_header_and_ddl_in_one_query() -> None:
    sql = next(s for _, s in captured_statements() if "create materialized view if not exists" in s)
    kinds = [type(s).__name__ for s in parse(sql)]
    assert kinds == ["SetVariable", "SetVariable", "CreateMaterializedView"]
