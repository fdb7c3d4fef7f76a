"""A full disk loses nothing that was acknowledged: with ``--data-dir`` under a real file-size
limit (RLIMIT_FSIZE on the server process, so the meta store's WAL cannot grow), every write
to the meta store (DDL) either commits and is acknowledged, or fails with a clear error and
leaves nothing behind; no transaction stays open, user rows (in the data plane's PostgreSQL,
which the limit does not cover) are still written and read, and once the limit is lifted the
same server serves DDL again.  Then the store is reopened by a fresh server: exactly the
acknowledged tables and rows are there.  On a real small file system (a tmpfs, when this test
runs as root) the answer is SQLite's disk-full error in PostgreSQL's words."""

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


def _fill(c: psycopg.Connection, expected: str, *, prepare: bool) -> list[str]:
    """CREATE TABLE until the store has refused three; the tables acknowledged."""
    acked: list[str] = []
    refused = 0
    for i in range(2000):
        name = f"f{i}"
        try:
            cur = c.execute(f"CREATE TABLE {name} (n int, p varchar)", prepare=prepare)
        except psycopg.Error as e:
            assert str(e) == expected
            assert e.sqlstate == expected_sqlstate(expected)
            refused += 1
            if refused == 3:
                return acked
            continue
        assert cur.statusmessage == "CREATE_TABLE"
        acked.append(name)
    raise AssertionError("the file-size limit never stopped a write")


def expected_sqlstate(text: str) -> str:
    return "53100" if "No space left on device" in text else "58030"


def _reopened(data_dir: Path) -> tuple[int, list[str]]:
    """A fresh server on the store: the rows of ``t`` and the user tables' names."""
    sp = ServerProcess("--data-dir", str(data_dir))
    try:
        with sp.connect() as c:
            row = c.execute("SELECT count(*) FROM t").fetchone()
            assert row is not None
            names = [r[0] for r in c.execute("SELECT name FROM rw_tables ORDER BY name")]
            return int(row[0]), names
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
    sp = ServerProcess(
        "--data-dir", str(tmp_path), preexec=lambda: _soft_limit(resource.RLIM_INFINITY)
    )
    wal = f"{tmp_path / 'meta.db'}-wal"
    envelope = "Failed to execute the statement" if prepare else "Failed to run the query"
    run_envelope = "Failed to run the query"
    try:
        with sp.connect() as c:
            c.execute("CREATE TABLE t (n int, p varchar)")
            c.execute("CREATE TABLE d (v int)")
            # The first data statement starts the data plane's PostgreSQL, before the limit.
            assert c.execute(INSERT).statusmessage == "INSERT 0 100"
            resource.prlimit(sp.p.pid, resource.RLIMIT_FSIZE, (LIMIT, resource.RLIM_INFINITY))
            acked = _fill(c, IO_ERROR.format(envelope=envelope, wal=wal), prepare=prepare)
            assert acked
            # Other DDL fails the same way (never "cannot start a transaction within a
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
            # User rows go on, written in the data plane.  They are read once a barrier
            # commits them: a barrier writes the meta store (RisingWave's checkpoint commits
            # its version there), so FLUSH fails until space returns.
            assert c.execute(INSERT, prepare=prepare).statusmessage == "INSERT 0 100"
            # Space returns: the same server writes again, at once.
            resource.prlimit(
                sp.p.pid,
                resource.RLIMIT_FSIZE,
                (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
            )
            c.execute("FLUSH")
            assert c.execute("SELECT count(*) FROM t").fetchone() == (200,)
            c.execute("CREATE TABLE IF NOT EXISTS u (v int)")
            assert c.execute("CREATE TABLE g (v int)").statusmessage == "CREATE_TABLE"
            assert c.execute(INSERT, prepare=prepare).statusmessage == "INSERT 0 100"
            c.execute("FLUSH")
            assert c.execute("SELECT count(*) FROM t").fetchone() == (300,)
            tables = sorted(["g", "t", "u", *acked] + ([] if done["d"] else ["d"]))
            names = [r[0] for r in c.execute("SELECT name FROM rw_tables ORDER BY name")]
            assert names == tables
            views = c.execute("SELECT count(*) FROM rw_views WHERE name = 'v'").fetchone()
            assert views == (1 if done["v"] else 0,)
    finally:
        assert sp.stop() == 0
    # A fresh server on the same store: every acknowledged table and row, nothing else.
    assert _reopened(tmp_path) == (300, tables)
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
    # Room for the data plane's cluster (a copy of its ~30 MB template) and the store.
    with _tmpfs(tmp_path / "small", "96m") as mount:
        data_dir = mount / "data"
        wal = f"{data_dir / 'meta.db'}-wal"
        sp = ServerProcess("--data-dir", str(data_dir))
        ballast = mount / "ballast"
        try:
            with sp.connect() as c:
                c.execute("CREATE TABLE t (n int, p varchar)")
                assert c.execute(INSERT).statusmessage == "INSERT 0 100"
                c.execute("FLUSH")
                # Leave about 300 KB free.
                free = os.statvfs(mount).f_bavail * os.statvfs(mount).f_frsize
                ballast.write_bytes(b"\0" * (free - 300_000))
                expected = DISK_FULL.format(envelope="Failed to run the query", wal=wal)
                acked = _fill(c, expected, prepare=False)
                with pytest.raises(psycopg.Error) as err:
                    c.execute("CREATE TABLE u (v int)")
                assert (err.value.sqlstate, str(err.value)) == ("53100", expected)
                assert c.execute("SELECT count(*) FROM t").fetchone() == (100,)
                # Space returns: the same server writes again.
                ballast.unlink()
                c.execute("CREATE TABLE u (v int)")
                assert c.execute(INSERT).statusmessage == "INSERT 0 100"
                c.execute("FLUSH")
        finally:
            assert sp.stop() == 0
        assert _reopened(data_dir) == (200, sorted(["t", "u", *acked]))
        _no_violations(data_dir)
