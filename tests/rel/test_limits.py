"""Resource limits: statement_timeout as RisingWave applies it, a 1M-row SELECT streamed with
the server's memory flat (measured on a server process), huge inserts bounded, the
connection limit and the startup timeout."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import asyncpg
import pytest

from tests import wirekit as fe
from tests.conftest import Running
from tests.rel.serverproc import ServerProcess

TIMEOUT = (
    "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
    "  1: Scheduler error\n  2: Query cancelled: timeout after {} seconds\n"
)
FOREVER = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"


@pytest.mark.parametrize(
    ("setting", "seconds"), [("'1s'", 1), ("1500", 1), ("'700ms'", 0)]
)  # fmt: skip
async def test_statement_timeout_cancels_batch_queries(
    rw_server: Running, setting: str, seconds: int
) -> None:
    conn = await asyncpg.connect(rw_server.url())
    await conn.execute(f"SET statement_timeout = {setting}")
    for sql in (FOREVER, "SELECT pg_sleep(5)"):
        started = time.monotonic()
        with pytest.raises(asyncpg.PostgresError) as e:
            await conn.execute(sql)
        assert (e.value.sqlstate, str(e.value)) == ("XX000", TIMEOUT.format(seconds))
        assert time.monotonic() - started < 4
    # The session goes on; a quick query is not affected.
    assert await conn.fetchval("SELECT 1") == 1
    await conn.close()


async def test_statement_timeout_zero_means_the_batch_default(rw_server: Running) -> None:
    conn = await asyncpg.connect(rw_server.url())
    await conn.execute("SET statement_timeout = 0")
    assert await conn.fetchval("SHOW statement_timeout") == "0ms"
    assert await conn.fetchval("SELECT pg_sleep(0.3)") is None
    await conn.close()


async def test_statement_timeout_is_per_session(rw_server: Running) -> None:
    a = await asyncpg.connect(rw_server.url())
    b = await asyncpg.connect(rw_server.url())
    await a.execute("SET statement_timeout = '1s'")
    with pytest.raises(asyncpg.PostgresError):
        await a.execute("SELECT pg_sleep(3)")
    assert await b.fetchval("SELECT pg_sleep(1.2)") is None
    await a.close()
    await b.close()


@pytest.fixture
def server_process() -> Iterator[ServerProcess]:
    sp = ServerProcess()
    yield sp
    sp.stop()


def _login(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(fe.startup({"user": "root", "database": "dev"}))
    buf = b""
    while not buf.endswith(b"Z\x00\x00\x00\x05I"):
        buf += s.recv(65536)
    return s


def _drain(s: socket.socket, on_chunk: Callable[[], None]) -> tuple[int, bytes]:
    """Read one query's answer, discarding it; returns (bytes read, the last 64 bytes)."""
    total = 0
    tail = b""
    while True:
        data = s.recv(1 << 20)
        assert data, "server closed the connection"
        total += len(data)
        tail = (tail + data)[-64:]
        on_chunk()
        if tail.endswith(b"Z\x00\x00\x00\x05I"):
            return total, tail


def test_million_row_select_streams_with_flat_memory(server_process: ServerProcess) -> None:
    s = _login(server_process.port)
    rows = 1_000_000
    payload = "x" * 100
    sql = (
        f"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < {rows})"
        f" SELECT n, '{payload}' || n AS p FROM r"
    )
    # Warm up (imports, caches) with the same statement on a small scale.
    s.sendall(fe.query(sql.replace(str(rows), "1000")))
    _drain(s, lambda: None)
    baseline = server_process.rss()
    peak = [baseline]

    def sample() -> None:
        peak[0] = max(peak[0], server_process.rss())

    s.sendall(fe.query(sql))
    total, tail = _drain(s, sample)
    s.close()
    assert total > rows * 100  # the whole answer went out ...
    assert b"SELECT 1000000\x00" in tail
    growth = peak[0] - baseline
    print(f"1M rows: {total / 1e6:.0f} MB sent, server RSS grew {growth / 1e6:.1f} MB")
    # ... while the server held a few buffers of it, not the result (well over 100 MB).
    assert growth < 40e6, growth


def test_huge_insert_is_bounded(tmp_path: Path) -> None:
    # On disk, so that the rows themselves do not count as server memory.
    server_process = ServerProcess("--data-dir", str(tmp_path))
    try:
        _huge_insert(server_process)
    finally:
        server_process.stop()


def _huge_insert(server_process: ServerProcess) -> None:
    s = _login(server_process.port)
    s.sendall(fe.query("CREATE TABLE big (n int, p varchar)"))
    _drain(s, lambda: None)
    # The first data statement starts the data plane (PostgreSQL, its driver's import): a
    # one-time cost, not the insert's, so it is paid before the baseline.
    s.sendall(fe.query("SELECT count(*) FROM big"))
    _drain(s, lambda: None)
    baseline = server_process.rss()
    peak = [baseline]
    rows = 300_000
    s.sendall(
        fe.query(
            f"INSERT INTO big WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r"
            f" WHERE n < {rows}) SELECT n, 'some text ' || n FROM r"
        )
    )
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], server_process.rss())
            time.sleep(0.02)

    t = threading.Thread(target=watch)
    t.start()
    try:
        _, tail = _drain(s, lambda: None)
    finally:
        stop.set()
        t.join()
    assert f"INSERT 0 {rows}\x00".encode() in tail, tail
    s.sendall(fe.query("FLUSH"))
    _drain(s, lambda: None)
    s.sendall(fe.query("SELECT count(*) FROM big"))
    _, tail = _drain(s, lambda: None)
    assert b"300000" in tail
    s.close()
    growth = peak[0] - baseline
    print(f"insert of {rows} rows: server RSS grew {growth / 1e6:.1f} MB")
    assert growth < 20e6, growth


async def test_max_connections_gives_postgresql_53300(
    rw_server_factory: Callable[..., Awaitable[Running]],
) -> None:
    server = await rw_server_factory(max_connections=2)
    a = await asyncpg.connect(server.url())
    b = await asyncpg.connect(server.url())
    with pytest.raises(asyncpg.TooManyConnectionsError) as e:
        await asyncpg.connect(server.url())
    assert (e.value.sqlstate, str(e.value)) == ("53300", "sorry, too many clients already")
    await b.close()
    c = await asyncpg.connect(server.url())  # a freed slot is usable again
    await c.close()
    await a.close()


async def test_stuck_startup_is_dropped_without_holding_a_slot(
    rw_server_factory: Callable[..., Awaitable[Running]],
) -> None:
    import asyncio

    server = await rw_server_factory(startup_timeout=0.3, max_connections=1)
    r, w = await asyncio.open_connection(server.host, server.port)
    w.write(struct.pack("!i", 100))  # a startup packet that never completes
    assert await asyncio.wait_for(r.read(), 5) == b""
    conn = await asyncpg.connect(server.url())
    await conn.close()
    w.close()


def test_startup_timeout_option() -> None:
    from rwshim.cli.main import build_parser, config_from_args

    assert config_from_args(build_parser().parse_args([])).startup_timeout == 60.0
    cfg = config_from_args(build_parser().parse_args(["serve", "--startup-timeout", "2.5"]))
    assert cfg.startup_timeout == 2.5
