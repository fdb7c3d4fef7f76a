"""Memory is bounded by the input: a 10 MB string literal costs the server a small multiple of
10 MB (the tokenizer's string pattern kept a backtracking mark per character: 2.7 GB), a
message past ``--max-query-size`` is dropped unread and answered with RisingWave's
``max_single_query_size_bytes`` error while the session goes on, and the parse cache is
bounded by bytes.  Measured on a server process (RSS sampled while the statement runs)."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from rwshim.config import Config
from tests import wirekit as fe
from tests.rel.serverproc import ServerProcess

MB = 1_000_000
READY = b"Z\x00\x00\x00\x05I"
LIMIT = 20 * MB  # room for the 10 MB literals (the default is 8 MiB)


def _peak(sp: ServerProcess, fn: Callable[[], object]) -> tuple[int, object]:
    """(peak RSS growth while ``fn`` runs, its result)."""
    base = sp.rss()
    peak = [base]
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], sp.rss())
            time.sleep(0.005)

    t = threading.Thread(target=watch)
    t.start()
    try:
        out = fn()
    finally:
        stop.set()
        t.join()
    return peak[0] - base, out


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    sp = ServerProcess("--max-query-size", str(LIMIT))
    with sp.connect() as c:  # warm up: modules, grammar, catalogs
        c.execute("CREATE TABLE t (v varchar)")
        c.execute("SELECT length('x'), length(E'x'), length($$x$$)")
    yield sp
    sp.kill()


@pytest.mark.parametrize("quote", ["'{}'", "E'{}'", "$${}$$"], ids=["plain", "escape", "dollar"])
def test_ten_megabyte_literal_costs_a_small_multiple(server: ServerProcess, quote: str) -> None:
    literal = quote.format("x" * (10 * MB))
    with server.connect() as c:
        growth, row = _peak(
            server, lambda: c.execute(f"SELECT length({literal})", prepare=False).fetchone()
        )
        assert row == (10 * MB,)
    print(f"10 MB literal {quote}: server RSS peak +{growth / MB:.0f} MB")
    assert growth < 40 * 10 * MB, growth


def _session(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(fe.startup({"user": "root", "database": "dev"}))
    _until_ready(s)
    return s


def _until_ready(s: socket.socket) -> list[fe.Msg]:
    buf = b""
    while not buf.endswith(READY):
        data = s.recv(1 << 16)
        assert data, "the server closed the connection"
        buf += data
    return fe.split(buf)


def _throttled(limit: int) -> dict[str, str]:
    return {
        "S": "ERROR",
        "C": "XX000",
        "M": f"Server throttled: max_single_query_size_bytes {limit} has been exceeded, "
        "please either reduce the query size or increase the limit",
    }


def test_query_past_the_limit_is_dropped_unread(server: ServerProcess) -> None:
    limit = LIMIT
    s = _session(server.port)
    query = fe.query("SELECT '" + "x" * (50 * MB) + "'")

    def send() -> list[fe.Msg]:
        s.sendall(query)
        return _until_ready(s)

    growth, msgs = _peak(server, send)
    assert [m.tag for m in msgs] == ["E", "Z"]  # type: ignore[union-attr]
    assert msgs[0].fields() == _throttled(limit)  # type: ignore[index]
    print(f"50 MB query past the limit: server RSS peak +{growth / MB:.0f} MB")
    assert growth < 20 * MB, growth  # never buffered, let alone parsed
    # The session goes on, in step.
    s.sendall(fe.query("SELECT 1"))
    assert [m.tag for m in _until_ready(s)] == ["T", "D", "C", "Z"]
    s.close()


def test_default_limit() -> None:
    assert Config().max_query_size == 8 * 1024 * 1024


def test_parse_past_the_limit_skips_until_sync() -> None:
    sp = ServerProcess("--max-query-size", "1000")
    try:
        s = _session(sp.port)
        big = "SELECT '" + "x" * 5000 + "'"
        # Bind and Execute after the refused Parse are skipped; Sync answers.
        s.sendall(fe.parse("", big) + fe.bind("", "") + fe.execute("") + fe.SYNC)
        msgs = _until_ready(s)
        assert [m.tag for m in msgs] == ["E", "Z"]
        assert msgs[0].fields() == _throttled(1000)
        s.sendall(fe.query("SELECT 2"))
        assert [m.tag for m in _until_ready(s)] == ["T", "D", "C", "Z"]
        # Just under the limit is served.
        s.sendall(fe.query("SELECT '" + "y" * 900 + "'"))
        assert [m.tag for m in _until_ready(s)] == ["T", "D", "C", "Z"]
        s.close()
    finally:
        sp.stop()


def test_a_client_that_does_not_read_its_replies_is_not_buffered_for(
    server: ServerProcess,
) -> None:
    """A client pipelining queries without reading the replies: the server answers on until
    the socket's buffers are full, then waits for the client, instead of holding every reply
    in memory (1,000 queries of 200 KB answers here, each below the size at which one
    statement's output waits for the client); once the client reads, every query is
    answered, in order."""
    width = 200_000
    query = fe.query(f"SELECT repeat('x', {width})")
    total = 1000
    s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    s.sendall(fe.startup({"user": "root", "database": "dev"}))
    got = b""
    while not got.endswith(READY):
        got += s.recv(65536)

    def push() -> None:
        s.sendall(query * total)  # 36 KB: the socket takes it whole
        time.sleep(3)  # the server answers what it can meanwhile

    growth, _ = _peak(server, push)
    assert growth < 60 * MB, growth
    rows = 0
    ready = 0
    buf = bytearray()
    pos = 0
    while ready < total:
        chunk = s.recv(1 << 20)
        assert chunk, f"connection closed after {ready} answers"
        buf += chunk
        while len(buf) - pos >= 5:
            (size,) = struct.unpack_from("!i", buf, pos + 1)
            if len(buf) - pos < size + 1:
                break
            tag = buf[pos]
            if tag == ord("D"):
                (length,) = struct.unpack_from("!i", buf, pos + 7)
                rows += length == width
            ready += tag == ord("Z")
            pos += size + 1
        del buf[:pos]
        pos = 0
    s.close()
    assert (rows, ready) == (total, total)
