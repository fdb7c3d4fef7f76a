"""Constant statements answered from their kept encoding (rwshim/server/shortcuts/replies.py), over
a real
server and real clients: the answer a client reads the tenth time is the first time's, in
every protocol mode and result format, and nothing a session observes is lost."""

from __future__ import annotations

import logging

import psycopg
import pytest

from rwshim.server.shortcuts.replies import ReplyCache
from tests.conftest import ThreadRunning

CONSTANTS = [
    ("SELECT 1", [(1,)], ["?column?"]),
    ("SELECT 'ok' AS status, 2 * 3, -7 AS n", [("ok", 6, -7)], ["status", "?column?", "n"]),
    ("select 9000000000 as big", [(9000000000,)], ["big"]),
]


def _kept(server: ThreadRunning) -> ReplyCache:
    """The server's cache of kept answers (read on its loop)."""

    def read() -> ReplyCache:
        instance = server.server.instance
        assert instance is not None
        return server.server.replies

    cache = server.call(read)
    assert isinstance(cache, ReplyCache)
    return cache


def _simple(conn: psycopg.Connection, sql: str) -> tuple[list[tuple[object, ...]], list[str]]:
    """One simple-protocol Query (PQexec) and its rows as text."""
    res = conn.pgconn.exec_(sql.encode())
    assert res.status == psycopg.pq.ExecStatus.TUPLES_OK, res.error_message
    names = [res.fname(i).decode() for i in range(res.nfields)]  # type: ignore[union-attr]
    rows = [
        tuple((res.get_value(r, c) or b"").decode() for c in range(res.nfields))
        for r in range(res.ntuples)
    ]
    return rows, names


@pytest.mark.parametrize(("sql", "rows", "names"), CONSTANTS)
def test_simple_query_answers_the_same_every_time(
    rw_thread_server: ThreadRunning, sql: str, rows: list[tuple[object, ...]], names: list[str]
) -> None:
    text_rows = [tuple(str(v) for v in row) for row in rows]
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as a:
        first = [_simple(a, sql) for _ in range(5)]
    assert sql in _kept(rw_thread_server).queries  # the later answers were the kept bytes
    # another session of the same server gets the kept answer too
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as b:
        again = [_simple(b, sql) for _ in range(5)]
    assert first + again == [(text_rows, names)] * 10


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("prepare", [False, True])
@pytest.mark.parametrize(("sql", "rows", "names"), CONSTANTS)
def test_extended_query_answers_in_the_formats_bound(
    rw_thread_server: ThreadRunning,
    sql: str,
    rows: list[tuple[object, ...]],
    names: list[str],
    binary: bool,
    prepare: bool,
) -> None:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        got = []
        for i in range(6):
            # alternate text and binary results so a kept text answer never serves binary
            as_binary = binary if i % 2 == 0 else not binary
            cur = conn.cursor(binary=as_binary)
            cur.execute(sql, prepare=prepare)
            assert cur.description is not None
            got.append(([tuple(r) for r in cur.fetchall()], [d.name for d in cur.description]))
    assert got == [(rows, names)] * 6
    kept = _kept(rw_thread_server)
    # psycopg sends a text query without parameters as a simple Query, a binary one as
    # Parse/Bind/Execute: both answers were kept, and the binary one for its formats
    assert sql in kept.queries or (sql, (0,) * len(names)) in kept.executes
    assert (sql, (1,) * len(names)) in kept.executes
    assert sql in kept.parses


def test_an_error_is_never_kept(rw_thread_server: ThreadRunning) -> None:
    message = (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Expr error\n"
        "  2: error while evaluating expression `general_add('2147483647', '1')`\n"
        "  3: Numeric out of range\n"
    )
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        for _ in range(3):
            res = conn.pgconn.exec_(b"SELECT 2147483647 + 1")
            assert res.status == psycopg.pq.ExecStatus.FATAL_ERROR
            assert (res.error_message or b"").decode() == f"ERROR:  {message}\n"
    assert "SELECT 2147483647 + 1" not in _kept(rw_thread_server).queries


def test_the_statement_log_sees_every_kept_statement(
    rw_thread_server: ThreadRunning, caplog: pytest.LogCaptureFixture
) -> None:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        for _ in range(2):  # kept before the log is on
            _simple(conn, "SELECT 5 AS shown")
        assert "SELECT 5 AS shown" in _kept(rw_thread_server).queries
        with caplog.at_level(logging.DEBUG, logger="rwshim.statement"):
            for _ in range(3):
                _simple(conn, "SELECT 5 AS shown")
    lines = [r.getMessage() for r in caplog.records if r.name == "rwshim.statement"]
    assert sum("SELECT 5 AS shown" in line for line in lines) == 3, lines
