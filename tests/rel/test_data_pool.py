"""The data plane's sessions share a pool of PostgreSQL connections (issue 27, item 4): 1,000
concurrent sessions each query a table, in memory and with ``--data-dir``; a full pool (a
small ``--data-pool-size``) makes a statement wait up to its statement_timeout and then answers
an error naming the limit; a cancel stops the cancelled session's statement and no other's,
also while it waits for a connection; cursors keep their rows, and give their connection back
when closed."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import asyncpg
import psycopg
import pytest

from tests.rel.serverproc import ServerProcess

SESSIONS = 1000
ROWS = 300

FULL = (
    "Failed to run the query\n\nCaused by:\n  the data plane's connection pool is full: all"
    " 2 of its PostgreSQL connections are in use by other sessions' statements (open cursors"
    " and portals keep theirs); waited 1 s (statement_timeout, or 30 s when it is 0).  Raise"
    " the limit with --data-pool-size (now 2)"
)
CANCELED = "canceling statement due to user request"


def _setup(sp: ServerProcess) -> None:
    with sp.connect() as c:
        c.execute("CREATE TABLE t (n int)")
        c.execute(f"INSERT INTO t SELECT n FROM generate_series(1, {ROWS}) AS g(n)")
        c.execute("FLUSH")


async def _many(port: int) -> list[tuple[int, int]]:
    """SESSIONS sessions, all connected at once, each querying the table."""
    sem = asyncio.Semaphore(100)  # (connects in waves: the client side's file descriptors)

    async def connect() -> Any:
        async with sem:
            return await asyncpg.connect(
                host="127.0.0.1", port=port, user="root", database="dev", timeout=60
            )

    conns = await asyncio.gather(*(connect() for _ in range(SESSIONS)))
    try:

        async def query(i: int, conn: Any) -> tuple[int, int]:
            row = await conn.fetchrow("SELECT count(*), sum(n) FROM t WHERE n > $1", i % ROWS)
            return int(row[0]), int(row[1])

        return await asyncio.gather(*(query(i, c) for i, c in enumerate(conns)))
    finally:
        await asyncio.gather(*(c.close() for c in conns))


@pytest.mark.parametrize("durable", [False, True], ids=["memory", "data-dir"])
def test_a_thousand_sessions_each_query_a_table(tmp_path: Path, durable: bool) -> None:
    args = ("--data-dir", str(tmp_path)) if durable else ()
    sp = ServerProcess(*args, "--max-connections", str(SESSIONS + 10))
    try:
        _setup(sp)
        got = asyncio.run(_many(sp.port))
        want = [
            (ROWS - k, sum(range(k + 1, ROWS + 1))) for k in (i % ROWS for i in range(SESSIONS))
        ]
        assert got == want
        # the server goes on: a new session reads and writes
        with sp.connect() as c:
            assert c.execute("INSERT INTO t VALUES (0)").statusmessage == "INSERT 0 1"
            c.execute("FLUSH")
            assert c.execute("SELECT count(*) FROM t").fetchone() == (ROWS + 1,)
    finally:
        assert sp.stop() == 0


def _declare(c: psycopg.Connection[Any], name: str) -> None:
    """A cursor with rows left unread in PostgreSQL (more than a chunk's 1,000): it keeps
    its connection.  (A smaller result is read to its end at once, and its connection given
    back: session.py, _Rows._complete.)"""
    c.execute(f"DECLARE {name} CURSOR FOR SELECT x.n FROM t x, t y ORDER BY x.n")
    assert c.execute(f"FETCH 2 FROM {name}").fetchall() == [(1,), (1,)]


def test_a_full_pool_waits_for_statement_timeout_then_names_the_limit() -> None:
    sp = ServerProcess("--data-pool-size", "2")
    try:
        _setup(sp)
        a, b, c = sp.connect(), sp.connect(), sp.connect()
        _declare(a, "ca")
        _declare(b, "cb")
        c.execute("SET statement_timeout = 1000")
        with pytest.raises(psycopg.Error) as err:
            c.execute("SELECT count(*) FROM t")
        assert (str(err.value), err.value.sqlstate) == (FULL, "53300")
        # the extended protocol's path waits alike (its Parse/Describe leases one too)
        with pytest.raises(psycopg.Error) as err2:
            c.execute("SELECT count(*) FROM t WHERE n > %s", [1])
        assert err2.value.sqlstate == "53300"
        # (its Parse is answered with PostgreSQL's Describe: the prepare's envelope)
        prepare = FULL.replace("Failed to run the query", "Failed to prepare the statement")
        assert str(err2.value) == prepare
        # the catalog needs no connection
        assert c.execute("SELECT name FROM rw_tables").fetchall() == [("t",)]
        # a closed cursor gives its connection back: the waiting statement gets it
        c.execute("SET statement_timeout = 0")
        threading.Timer(0.3, a.execute, ("CLOSE ca",)).start()
        assert c.execute("SELECT count(*) FROM t").fetchone() == (ROWS,)
        # the other cursor kept its rows all along
        assert b.execute(f"FETCH {ROWS} FROM cb").fetchall() == [(1,)] * (ROWS - 2) + [(2,)] * 2
        assert a.execute("SELECT count(*) FROM t WHERE n <= 10").fetchone() == (10,)
        # COMMIT drops a cursor too
        b.execute("COMMIT")
        a.execute("BEGIN READ ONLY")
        _declare(a, "cc")
        assert c.execute("SELECT max(n) FROM t").fetchone() == (ROWS,)
        for conn in (a, b, c):
            conn.close()
    finally:
        assert sp.stop() == 0


def _in_thread(fn: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(fn())
        except psycopg.Error as e:
            out.append(e)

    t = threading.Thread(target=run)
    t.start()
    return t, out


def test_cancel_stops_its_own_sessions_statement_only() -> None:
    sp = ServerProcess("--data-pool-size", "2")
    try:
        _setup(sp)
        a, b, c = sp.connect(), sp.connect(), sp.connect()
        # 8.1G rows (cancelled), and 162M: seconds on PostgreSQL
        long = "SELECT count(*) FROM t x, t y, t z, t w"
        ta, ra = _in_thread(lambda: a.execute(long).fetchone())
        tb, rb = _in_thread(lambda: b.execute(long + " WHERE w.n <= 6").fetchone())
        time.sleep(0.5)
        # c waits for a connection (both are busy); its cancel ends the wait
        tc, rc = _in_thread(lambda: c.execute("SELECT count(*) FROM t").fetchone())
        time.sleep(0.3)
        c.cancel()
        tc.join(30)
        assert isinstance(rc[0], psycopg.Error), rc
        assert (str(rc[0]), rc[0].sqlstate) == (CANCELED, "57014")
        a.cancel()
        ta.join(60)
        assert isinstance(ra[0], psycopg.Error), ra
        assert (str(ra[0]), ra[0].sqlstate) == (CANCELED, "57014")
        tb.join(120)
        assert rb == [(ROWS**3 * 6,)]  # the other session's statement ran to its end
        # every session goes on, on the pool's two connections
        assert a.execute("SELECT count(*) FROM t").fetchone() == (ROWS,)
        assert c.execute("SELECT count(*) FROM t").fetchone() == (ROWS,)
        assert b.execute("SELECT count(*) FROM t").fetchone() == (ROWS,)
        for conn in (a, b, c):
            conn.close()
    finally:
        assert sp.stop() == 0


def test_sessions_sharing_one_connection_keep_their_own_settings() -> None:
    """With one pooled connection every statement of two sessions runs on it in turn: each
    statement sees its own session's time zone and user, also when prepared and repeated
    (the kept run of dataplane/rerun.py)."""
    sp = ServerProcess("--data-pool-size", "1")
    try:
        _setup(sp)
        with sp.connect() as root:
            root.execute("CREATE USER alice")
            root.execute("GRANT SELECT ON t TO alice")
        tokyo = sp.connect()
        utc = psycopg.connect(
            host="127.0.0.1", port=sp.port, user="alice", dbname="dev", autocommit=True
        )
        tokyo.execute("SET TIME ZONE 'Asia/Tokyo'")
        hour = "SELECT extract(hour from '2020-01-01 00:00:00+00'::timestamptz), current_user"
        for i in range(6):
            for prepare in (False, True):
                q = f"{hour}, count(*) FROM t WHERE n > %s GROUP BY 1, 2"
                assert tokyo.execute(q, [i], prepare=prepare).fetchall() == [(9, "root", ROWS - i)]
                assert utc.execute(q, [i], prepare=prepare).fetchall() == [(0, "alice", ROWS - i)]
        tokyo.close()
        utc.close()
    finally:
        assert sp.stop() == 0


def test_postgres_out_of_connections_is_waited_for_then_named(tmp_path: Path) -> None:
    """Another client takes every free slot of the data plane's PostgreSQL (a real fault:
    its max_connections reached by connections rwshim does not own): a statement that needs
    a new connection waits for its statement_timeout and says that PostgreSQL is full; once
    a slot is free again it gets one."""
    sp = ServerProcess("--data-dir", str(tmp_path))
    hogs: list[psycopg.Connection[Any]] = []
    try:
        _setup(sp)
        a, b = sp.connect(), sp.connect()
        _declare(a, "ca")  # a's lease: b needs a connection of its own
        socket_dir = (tmp_path / "pg" / "postmaster.pid").read_text().splitlines()[4]
        while True:
            try:
                hogs.append(psycopg.connect(host=socket_dir, user="postgres", dbname="postgres"))
            except psycopg.OperationalError as e:
                assert "too many clients already" in str(e), str(e)
                break
            assert len(hogs) < 200
        b.execute("SET statement_timeout = 1000")
        with pytest.raises(psycopg.Error) as err:
            b.execute("SELECT count(*) FROM t")
        socket = f"{socket_dir}/.s.PGSQL.5432"
        assert (str(err.value), err.value.sqlstate) == (
            "Failed to run the query\n\nCaused by:\n  the data plane's PostgreSQL has no free"
            " connection (its max_connections): connection failed: connection to server on"
            f' socket "{socket}" failed: FATAL:  sorry, too many clients already; waited 1 s'
            " (statement_timeout, or 30 s when it is 0).  Raise PostgreSQL's max_connections,"
            " or lower --data-pool-size (now 64) so that rwshim stays within it",
            "53300",
        )
        b.execute("SET statement_timeout = 0")
        threading.Timer(0.3, hogs.pop().close).start()
        assert b.execute("SELECT count(*) FROM t").fetchone() == (ROWS,)
        assert a.execute("FETCH 1 FROM ca").fetchall() == [(1,)]
        a.close()
        b.close()
    finally:
        for h in hogs:
            h.close()
        assert sp.stop() == 0
