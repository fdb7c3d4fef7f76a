"""One session never blocks another: whatever a session holds open on the store (a portal
suspended by a row-limited Execute, a DECLAREd cursor, a large result streaming to a client
that reads slowly), other sessions' DROP TABLE goes through (SQLite refused it as
``database table is locked`` while any statement was active on the shared connection), and
the holder still gets every row it was owed."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import psycopg
import pytest

from tests import wirekit as fe
from tests.rel.serverproc import ServerProcess

READY = b"Z\x00\x00\x00\x05"


@pytest.fixture
def server() -> Iterator[ServerProcess]:
    sp = ServerProcess()
    with sp.connect() as c:
        c.execute("CREATE TABLE t (v int)")
        c.execute("INSERT INTO t SELECT * FROM generate_series(1, 1000)")
        c.execute("CREATE TABLE other (v int)")
    yield sp
    sp.kill()


class Raw:
    def __init__(self, port: int) -> None:
        self.s = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.buf = b""
        self.s.sendall(fe.startup({"user": "root", "database": "dev"}))
        self.until_ready()

    def until_ready(self) -> list[fe.Msg]:
        while READY not in self.buf or len(self.buf) < self.buf.index(READY) + 6:
            data = self.s.recv(1 << 16)
            assert data, "closed"
            self.buf += data
        end = self.buf.index(READY) + 6
        msgs, self.buf = fe.split(self.buf[:end]), self.buf[end:]
        return msgs


def _drops(sp: ServerProcess) -> None:
    with sp.connect() as c:
        assert c.execute("DROP TABLE other").statusmessage == "DROP_TABLE"
        assert c.execute("DROP TABLE t").statusmessage == "DROP_TABLE"
        c.execute("CREATE TABLE t2 (v int)")
        assert c.execute("INSERT INTO t2 VALUES (1)").statusmessage == "INSERT 0 1"


def test_suspended_portal_blocks_no_drop(server: ServerProcess) -> None:
    a = Raw(server.port)
    a.s.sendall(fe.parse("", "SELECT v FROM t ORDER BY v") + fe.bind("p", "") + fe.execute("p", 10))
    a.s.sendall(fe.SYNC)
    msgs = a.until_ready()
    assert [m.tag for m in msgs] == ["1", "2"] + ["D"] * 10 + ["s", "Z"]
    _drops(server)
    # The portal goes on from where it stopped, every row there.
    a.s.sendall(fe.execute("p", 0) + fe.SYNC)
    msgs = a.until_ready()
    rows = [int(m.body[6:]) for m in msgs if m.tag == "D"]
    assert rows == list(range(11, 1001))
    assert msgs[-2].body == b"SELECT 990\x00"


def test_open_cursor_blocks_no_drop(server: ServerProcess) -> None:
    with server.connect() as a:
        a.execute("BEGIN")
        a.execute("DECLARE c CURSOR FOR SELECT v FROM t ORDER BY v")
        assert a.execute("FETCH 3 FROM c").fetchall() == [(1,), (2,), (3,)]
        _drops(server)
        rest = a.execute("FETCH ALL FROM c").fetchall()
        assert rest == [(v,) for v in range(4, 1001)]


def test_slow_reader_blocks_no_drop() -> None:
    sp = ServerProcess()
    try:
        with sp.connect() as c:
            c.execute("CREATE TABLE big (v int, p varchar)")
            c.execute(
                "INSERT INTO big SELECT n, repeat('x', 100) FROM generate_series(1, 200000) AS g(n)"
            )
            c.execute("FLUSH")  # the rows are read below: a barrier must have committed them
            c.execute("CREATE TABLE other (v int)")
        # 23 MB of rows: more than the loopback socket's buffers hold (about 4 MB sent and 6 MB
        # received at most), so the server must wait for this client, which reads nothing
        # until the DROPs are done.  (A 4 KB receive buffer did the same with 5 MB, but then
        # every read waits for TCP's 200 ms window probe: 150 s for the answer.)
        slow = socket.create_connection(("127.0.0.1", sp.port), timeout=60)
        slow.sendall(fe.startup({"user": "root", "database": "dev"}))
        buf = b""
        while READY not in buf:
            buf += slow.recv(4096)
        slow.sendall(fe.query("SELECT v, p FROM big ORDER BY v"))
        time.sleep(0.5)  # the server fills the socket and waits for the client to read
        with sp.connect() as c:
            assert c.execute("DROP TABLE other").statusmessage == "DROP_TABLE"
            assert c.execute("DROP TABLE big").statusmessage == "DROP_TABLE"
        # The slow client still gets the whole answer.
        data = b""
        while not data.endswith(READY + b"I"):
            chunk = slow.recv(1 << 20)
            assert chunk
            data += chunk
        msgs = fe.split(data)
        assert sum(1 for m in msgs if m.tag == "D") == 200000
        assert [m.body for m in msgs if m.tag == "C"] == [b"SELECT 200000\x00"]
        slow.close()
    finally:
        sp.stop()


def test_cursor_error_stays_with_its_session(server: ServerProcess) -> None:
    # A cursor over rows that fail to compute fails where it is fetched, not in the
    # session whose DROP read it into memory.
    with server.connect() as a:
        a.execute("BEGIN")
        # (rows are read in batches of 1,000: the failing one is in a later batch)
        a.execute(
            "DECLARE c CURSOR FOR SELECT 10 / (n - 4000) FROM generate_series(1, 5000) AS g(n)"
        )
        assert a.execute("FETCH 1 FROM c").fetchall() == [(0,)]
        with server.connect() as b:
            assert b.execute("DROP TABLE other").statusmessage == "DROP_TABLE"
        with pytest.raises(psycopg.Error) as e:
            a.execute("FETCH ALL FROM c")
        assert "Division by zero" in str(e.value)


def test_open_data_read_blocks_no_other_data_statement() -> None:
    # A read held open on the data plane (a portal of a result far larger than one batch, a
    # cursor) keeps PostgreSQL's lock on its table until it ends: another session's DROP of
    # that table must not make every later data statement wait behind it (the drop waits
    # for the reader instead), and the reader still gets every row.
    sp = ServerProcess()
    try:
        with sp.connect() as c:
            c.execute("CREATE TABLE big (v int, p varchar)")
            c.execute(
                "INSERT INTO big SELECT n, repeat('x', 100) FROM generate_series(1, 200000) AS g(n)"
            )
            c.execute("CREATE TABLE held (v int)")
            c.execute("INSERT INTO held SELECT * FROM generate_series(1, 200000)")
            c.execute("FLUSH")
        a = Raw(sp.port)
        a.s.sendall(fe.parse("", "SELECT v FROM big ORDER BY v") + fe.bind("p", ""))
        a.s.sendall(fe.execute("p", 10) + fe.SYNC)
        assert [m.tag for m in a.until_ready()] == ["1", "2"] + ["D"] * 10 + ["s", "Z"]
        with sp.connect() as b:
            b.execute("BEGIN")
            b.execute("DECLARE c CURSOR FOR SELECT v FROM held ORDER BY v")
            assert b.execute("FETCH 2 FROM c").fetchall() == [(1,), (2,)]
            with sp.connect() as c:
                c.execute("SET statement_timeout = 60000")  # a hang fails, not blocks, the test
                assert c.execute("DROP TABLE big").statusmessage == "DROP_TABLE"
                assert c.execute("DROP TABLE held").statusmessage == "DROP_TABLE"
                c.execute("CREATE TABLE big (v int)")
                assert c.execute("INSERT INTO big VALUES (7)").statusmessage == "INSERT 0 1"
                c.execute("FLUSH")
                assert c.execute("SELECT v FROM big").fetchall() == [(7,)]
            rest = b.execute("FETCH ALL FROM c").fetchall()
            assert rest == [(v,) for v in range(3, 200001)]
            b.execute("COMMIT")
        a.s.sendall(fe.execute("p", 0) + fe.SYNC)
        msgs = a.until_ready()
        assert [int(m.body[6:]) for m in msgs if m.tag == "D"] == list(range(11, 200001))
        assert msgs[-2].body == b"SELECT 199990\x00"
        # The readers are done: the dropped tables' rows go at the next data statement.
        with sp.connect() as c:
            assert c.execute("SELECT count(*) FROM big").fetchone() == (1,)
    finally:
        sp.stop()
