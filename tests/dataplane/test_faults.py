"""Real faults: kill -9 of rwshim (the owning process), of the postmaster and of a backend;
a second owner of a data directory; a postmaster orphaned by an owner without PDEATHSIG."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from rwshim.dataplane.postgres import DataDirInUse, DataPlaneError, EmbeddedPostgres
from rwshim.dataplane.postgres.child import sweep_orphans
from rwshim.dataplane.postgres.server import SENTINEL_APP
from tests.dataplane.conftest import REPO, Events, Owner, children, running, wait_gone

pytestmark = pytest.mark.slow


def test_kill_9_of_the_owner_leaves_no_postgres_behind() -> None:
    owner = Owner()
    try:
        pid = owner.info["pid"]
        tree = [pid, *children(pid)]
        assert len(tree) >= 4 and all(running(p) for p in tree)
        began = time.monotonic()
        owner.kill()
        left = wait_gone(tree, timeout=10)
        took = time.monotonic() - began
    finally:
        owner.close()
    assert left == [], f"still running {took:.1f} s after the owner's kill -9: {left}"
    print(f"[dataplane] the server tree exited {took * 1000:.0f} ms after the owner's kill -9")
    # The dead owner's in-memory cluster is swept by the next start.
    root = Path(owner.info["socket_dir"])
    assert root.exists()
    assert root in sweep_orphans([root.parent])
    assert not root.exists()


async def test_kill_9_of_the_postmaster_restarts_it_and_durable_data_survives(
    tmp_path: Path,
) -> None:
    server = EmbeddedPostgres(data_dir=tmp_path)
    await server.start()
    events = Events(server)
    try:
        async with await psycopg.AsyncConnection.connect(server.dsn, autocommit=True) as conn:
            await conn.execute("CREATE TABLE t (k int PRIMARY KEY, v text)")
            await conn.execute("INSERT INTO t SELECT g, 'v' || g FROM generate_series(1, 1000) g")
        old = server.pid
        assert old is not None
        os.kill(old, signal.SIGKILL)
        crashed = await events.wait("crashed")
        assert crashed.generation == 1
        assert crashed.detail == f"the PostgreSQL server (pid {old}) was killed by SIGKILL"
        restarted = await events.wait("restarted")
        assert events.kinds() == ["crashed", "restarted"]
        assert restarted.generation == server.generation == 1
        await server.wait_ready(30)
        assert server.alive() and server.pid != old
        async with await psycopg.AsyncConnection.connect(server.dsn, autocommit=True) as conn:
            row = await (await conn.execute("SELECT count(*), max(v) FROM t")).fetchone()
            assert row == (1000, "v999")
            await conn.execute("INSERT INTO t VALUES (1001, 'after')")
    finally:
        await server.stop()
    # And across a stop and a new owner.
    again = EmbeddedPostgres(data_dir=tmp_path)
    await again.start()
    try:
        async with await psycopg.AsyncConnection.connect(again.dsn, autocommit=True) as conn:
            row = await (await conn.execute("SELECT count(*) FROM t")).fetchone()
            assert row == (1001,)
    finally:
        await again.stop()


async def test_kill_9_of_a_backend_is_reported_and_sessions_come_back(
    pg: EmbeddedPostgres,
) -> None:
    events = Events(pg)
    postmaster = pg.pid
    victim = await psycopg.AsyncConnection.connect(pg.dsn, autocommit=True)
    bystander = await psycopg.AsyncConnection.connect(pg.dsn, autocommit=True)
    try:
        await victim.execute("CREATE TABLE t (v int)")
        await victim.execute("INSERT INTO t VALUES (1), (2)")
        row = await (await victim.execute("SELECT pg_backend_pid()")).fetchone()
        assert row is not None
        os.kill(row[0], signal.SIGKILL)
        crashed = await events.wait("crashed")
        assert crashed.detail == (
            "a PostgreSQL server process crashed; the server ended every session and is recovering"
        )
        await events.wait("restarted")
        assert events.kinds() == ["crashed", "restarted"] and pg.generation == 1
        assert pg.pid == postmaster  # the postmaster itself recovered
        # The other session was ended by the crash: its next statement fails.
        with pytest.raises(psycopg.OperationalError):
            await bystander.execute("SELECT 1")
        async with await psycopg.AsyncConnection.connect(pg.dsn, autocommit=True) as conn:
            row = await (await conn.execute("SELECT count(*) FROM t")).fetchone()
            assert row == (2,)
    finally:
        await victim.close()
        await bystander.close()


async def test_terminating_the_supervisors_session_is_no_crash(pg: EmbeddedPostgres) -> None:
    events = Events(pg)
    sql = "SELECT pid FROM pg_stat_activity WHERE application_name = %s"
    async with await psycopg.AsyncConnection.connect(pg.dsn, autocommit=True) as conn:
        first = await (await conn.execute(sql, [SENTINEL_APP])).fetchall()
        assert len(first) == 1
        await conn.execute("SELECT pg_terminate_backend(%s)", [first[0][0]])
        deadline = time.monotonic() + 30
        while True:
            now = await (await conn.execute(sql, [SENTINEL_APP])).fetchall()
            if len(now) == 1 and now != first:
                break
            assert time.monotonic() < deadline, "the supervisor did not reconnect"
            await asyncio.sleep(0.02)
    assert events.seen == [] and pg.generation == 0 and pg.alive()


async def test_a_data_directory_has_one_owner(tmp_path: Path) -> None:
    first = EmbeddedPostgres(data_dir=tmp_path)
    await first.start()
    try:
        second = EmbeddedPostgres(data_dir=tmp_path)
        with pytest.raises(DataDirInUse) as caught:
            await second.start()
        assert str(caught.value) == (
            f"data directory {tmp_path} is in use by another rwshim process (pid {os.getpid()})"
        )
        assert first.alive()
    finally:
        await first.stop()
    # Released at stop: the next owner gets it.
    third = EmbeddedPostgres(data_dir=tmp_path)
    await third.start()
    await third.stop()


async def test_another_process_holding_the_data_directory_is_refused(tmp_path: Path) -> None:
    owner = Owner(tmp_path)
    try:
        with pytest.raises(DataDirInUse) as caught:
            await EmbeddedPostgres(data_dir=tmp_path).start()
        assert str(caught.value) == (
            f"data directory {tmp_path} is in use by another rwshim process (pid {owner.proc.pid})"
        )
        tree = [owner.info["pid"], *children(owner.info["pid"])]
        owner.kill()
        assert wait_gone(tree, timeout=10) == []
    finally:
        owner.close()
    # kill -9 freed the lock, and the server it left stopped cleanly: the cluster starts.
    server = EmbeddedPostgres(data_dir=tmp_path)
    await server.start()
    await server.stop()


ORPHAN_SCRIPT = r"""
import subprocess, sys, time
from pathlib import Path
from rwshim.dataplane.postgres import binaries, child, cluster, osuser

data_dir = Path(sys.argv[1])
who = osuser.server_user(cluster.cache_root())
bins = binaries.for_server_user(binaries.find_binaries(), who, cluster.cache_root())
template = cluster.ensure_template(bins, who, cluster.cache_root())
instance = cluster.new_instance(template, who, data_dir)
settings = cluster.server_settings(sessions=5, durable=True)
# A postmaster without the parent-death signal: what an owner leaves behind on macOS.
proc = subprocess.Popen(
    child.server_argv(bins, instance, settings), cwd=instance.data, env=cluster.tool_env(),
    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    start_new_session=True, user=None if who is None else who.uid,
    group=None if who is None else who.gid, extra_groups=None if who is None else [],
)
pidfile = instance.data / "postmaster.pid"
for _ in range(3000):
    lines = pidfile.read_text().splitlines() if pidfile.exists() else []
    if len(lines) >= 8 and lines[7].strip() == "ready":
        break
    time.sleep(0.01)
print(proc.pid, flush=True)
"""


async def test_a_stale_postmaster_is_stopped_at_start(tmp_path: Path) -> None:
    """The fallback where there is no PDEATHSIG: an orphan on the data directory (left by a
    dead owner) is stopped before the new server starts."""
    done = subprocess.run(
        [sys.executable, "-c", ORPHAN_SCRIPT, str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    orphan = int(done.stdout.strip())
    try:
        assert running(orphan)
        server = EmbeddedPostgres(data_dir=tmp_path)
        await server.start()
        try:
            assert not running(orphan)
            assert server.pid != orphan and server.alive()
        finally:
            await server.stop()
    finally:
        if running(orphan):
            os.kill(orphan, signal.SIGKILL)


async def test_a_server_that_cannot_restart_is_reported_failed_then_recovers() -> None:
    server = EmbeddedPostgres(restart_attempts=2)
    await server.start()
    events = Events(server)
    try:
        # A real fault the restart cannot repair: the control file is gone.
        control = server.cluster_dir / "global" / "pg_control"
        kept, st = control.read_bytes(), control.stat()
        control.unlink()
        assert server.pid is not None
        os.kill(server.pid, signal.SIGKILL)
        failed = await events.wait("failed")
        assert events.kinds() == ["crashed", "failed"]
        data = server.cluster_dir
        assert failed.detail == (
            "PostgreSQL could not be restarted (rwshim tries again, at most 5 s apart):"
            " PostgreSQL exited with code 2 while starting:"
            " postgres: could not find the database system / Expected to find it in the"
            f' directory "{data}", / but could not open file "{data}/global/pg_control":'
            " No such file or directory"
        )
        assert not server.alive()
        with pytest.raises(DataPlaneError) as caught:
            await server.wait_ready(10)
        assert str(caught.value) == failed.detail
        # The fault is repaired: a later retry (backoff to 5 s) starts the server again.
        control.write_bytes(kept)
        os.chown(control, st.st_uid, st.st_gid)  # (the server may run as another user)
        control.chmod(st.st_mode & 0o777)
        await events.wait("restarted", timeout=30)
        assert events.kinds() == ["crashed", "failed", "restarted"]
        await server.wait_ready(10)
        assert server.alive()
        async with await psycopg.AsyncConnection.connect(server.dsn, autocommit=True) as c:
            cur = await c.execute("SELECT 1")
            assert await cur.fetchone() == (1,)
    finally:
        await server.stop()
