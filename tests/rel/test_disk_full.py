"""A full disk loses nothing that was acknowledged: with ``--data-dir`` under a real file-size
limit (RLIMIT_FSIZE on the server process, so the store's WAL cannot grow), every write either
commits and is acknowledged, or fails with a clear error and leaves nothing behind; no
transaction stays open, and once the limit is lifted the same server serves writes again.
Then the store is reopened by a fresh server: exactly the acknowledged rows are there.
On a real small file system (a 2 MiB tmpfs, when this test runs as root) the answer is
PostgreSQL's disk-full error."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.rel.invariants import violations
from tests.rel.serverproc import ServerProcess

LIMIT = 400_000
INSERT = "INSERT INTO t SELECT n, repeat('x', 200) FROM generate_series(1, 100) AS g(n)"
IO_ERROR = '{envelope}\n\nCaused by:\n  could not write to file "{wal}": Input/output error'
DISK_FULL = (
    "{envelope}\n\nCaused by:\n  "
    'could not write to file "{wal}": No space left on device\nHINT: Check free disk space.'
)


def _soft_limit(limit: int) -> None:
    # The hard limit stays unlimited so that the test can lift the soft one (prlimit).
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))


def _fill(c: psycopg.Connection, expected: str, *, prepare: bool) -> int:
    """INSERT until the store refuses three in a row; the number acknowledged."""
    acked = refused = 0
    for _ in range(400):
        try:
            cur = c.execute(INSERT, prepare=prepare)
        except psycopg.Error as e:
            assert str(e) == expected
            assert e.sqlstate == "58030"
            refused += 1
            if refused == 3:
                return acked
            continue
        assert cur.statusmessage == "INSERT 0 100"
        acked += 1
    raise AssertionError("the file-size limit never stopped a write")


def _count(data_dir: Path) -> int:
    sp = ServerProcess("--data-dir", str(data_dir))
    try:
        with sp.connect() as c:
            row = c.execute("SELECT count(*) FROM t").fetchone()
            assert row is not None
            return int(row[0])
    finally:
        assert sp.stop() == 0


def _no_violations(data_dir: Path) -> None:
    conn = sqlite3.connect(f"file:{data_dir / 'meta.db'}?mode=ro", uri=True)
    try:
        assert violations(conn) == []
    finally:
        conn.close()


@pytest.mark.parametrize("prepare", [False, True], ids=["simple", "extended"])
def test_file_size_limit_loses_no_acknowledged_write(tmp_path: Path, prepare: bool) -> None:
    sp = ServerProcess("--data-dir", str(tmp_path), preexec=lambda: _soft_limit(LIMIT))
    wal = f"{tmp_path / 'meta.db'}-wal"
    envelope = "Failed to execute the statement" if prepare else "Failed to run the query"
    run_envelope = "Failed to run the query"
    try:
        with sp.connect() as c:
            c.execute("CREATE TABLE t (n int, p varchar)")
            c.execute("CREATE TABLE d (v int)")
            acked = _fill(c, IO_ERROR.format(envelope=envelope, wal=wal), prepare=prepare)
            assert acked > 0
            # DDL fails the same way (never "cannot start a transaction within a
            # transaction"), or, when a checkpoint has just made room in the WAL, commits.
            done = {}
            for name, ddl in [
                ("u", "CREATE TABLE u (v int)"),
                ("d", "DROP TABLE d"),
                ("v", "CREATE VIEW v AS SELECT 1 AS one"),
            ]:
                try:
                    c.execute(ddl)
                    done[name] = True
                except psycopg.Error as e:
                    assert str(e) == IO_ERROR.format(envelope=run_envelope, wal=wal)
                    done[name] = False
            # Reads go on; the rows are exactly the acknowledged ones.
            assert c.execute("SELECT count(*) FROM t").fetchone() == (acked * 100,)
            # Space returns: the same server writes again, at once.
            resource.prlimit(
                sp.p.pid,
                resource.RLIMIT_FSIZE,
                (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
            )
            c.execute("CREATE TABLE IF NOT EXISTS u (v int)")
            assert c.execute(INSERT, prepare=prepare).statusmessage == "INSERT 0 100"
            assert c.execute("SELECT count(*) FROM t").fetchone() == ((acked + 1) * 100,)
            names = [r[0] for r in c.execute("SELECT name FROM rw_tables ORDER BY name")]
            assert names == (["t", "u"] if done["d"] else ["d", "t", "u"])
            views = c.execute("SELECT count(*) FROM rw_views WHERE name = 'v'").fetchone()
            assert views == (1 if done["v"] else 0,)
    finally:
        assert sp.stop() == 0
    # A fresh server on the same store: every acknowledged row, nothing else.
    assert _count(tmp_path) == (acked + 1) * 100
    _no_violations(tmp_path)


@contextlib.contextmanager
def _tmpfs(path: Path, size: str) -> Iterator[Path]:
    path.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small file system needs root")
def test_full_file_system_answers_disk_full(tmp_path: Path) -> None:
    with _tmpfs(tmp_path / "small", "4m") as mount:
        data_dir = mount / "data"
        wal = f"{data_dir / 'meta.db'}-wal"
        sp = ServerProcess("--data-dir", str(data_dir))
        ballast = mount / "ballast"
        try:
            with sp.connect() as c:
                c.execute("CREATE TABLE t (n int, p varchar)")
                # Leave about 300 KB free.
                free = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
                ballast.write_bytes(b"\0" * (free - 300_000))
                acked = 0
                for _ in range(400):
                    try:
                        c.execute(INSERT, prepare=False)
                    except psycopg.Error as e:
                        expected = DISK_FULL.format(envelope="Failed to run the query", wal=wal)
                        assert (e.sqlstate, str(e)) == ("53100", expected)
                        break
                    acked += 1
                else:
                    raise AssertionError("the file system never filled")
                with pytest.raises(psycopg.Error) as err:
                    c.execute("CREATE TABLE u (v int)")
                assert err.value.sqlstate == "53100"
                assert c.execute("SELECT count(*) FROM t").fetchone() == (acked * 100,)
                # Space returns: the same server writes again.
                ballast.unlink()
                c.execute("CREATE TABLE u (v int)")
                assert c.execute(INSERT).statusmessage == "INSERT 0 100"
        finally:
            assert sp.stop() == 0
        assert _count(data_dir) == (acked + 1) * 100
        _no_violations(data_dir)
