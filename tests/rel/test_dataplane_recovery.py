"""The data plane recovers without restarting rwshim (issue 27, item 5): its PostgreSQL is
killed while its cluster directory cannot be read (a real fault: the directory's mode taken
away, as a lost mount or a wrong chown would), so every restart fails; statements in between
get the data plane's unavailable error at once (no hang), the control plane answers, and once
the directory is readable again a retry (backoff up to 5 s) starts PostgreSQL and the same
sessions read and write their tables again, with every acknowledged row there."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import psycopg

from tests.datapath.conftest import IMPLICIT_FLUSH
from tests.rel.serverproc import ServerProcess

PREFIX = (
    "Failed to run the query\n\nCaused by:\n  the data plane's PostgreSQL is unavailable:"
    " PostgreSQL could not be restarted (rwshim tries again, at most 5 s apart):"
    " PostgreSQL exited with code 2 while starting: "
)
# PostgreSQL's own start-up failure (the last lines of its log)
CANNOT_READ = 'postgres: could not access the server configuration file "{conf}": Permission denied'


def _postmaster(cluster: Path) -> int:
    return int((cluster / "postmaster.pid").read_text().split()[0])


def _gone(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.02)
    raise AssertionError(f"PostgreSQL {pid} still runs")


def _until_refused(c: psycopg.Connection) -> psycopg.Error:
    """Run a table query until the data plane says it could not restart (a query in flight
    at the kill says the connection was lost instead); that error."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            c.execute("SELECT count(*) FROM t").fetchone()
        except psycopg.Error as e:
            if "could not be restarted" in str(e):
                return e
            assert "the data plane's PostgreSQL is unavailable" in str(e), str(e)
        time.sleep(0.1)
    raise AssertionError("the data plane never reported its failed restart")


def _until_served(c: psycopg.Connection) -> tuple[int, ...]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            row = c.execute("SELECT count(*), sum(n) FROM t").fetchone()
            assert row is not None
            return tuple(row)
        except psycopg.Error as e:
            assert str(e).startswith(PREFIX), str(e)
        time.sleep(0.2)
    raise AssertionError("the data plane did not come back")


def test_postgres_that_cannot_restart_for_a_while_recovers_without_rwshim_restart(
    tmp_path: Path,
) -> None:
    sp = ServerProcess("--data-dir", str(tmp_path))
    cluster = tmp_path / "pg"
    try:
        c = sp.connect(options=IMPLICIT_FLUSH)
        other = sp.connect()
        c.execute("CREATE TABLE t (n int)")
        c.execute("INSERT INTO t SELECT n FROM generate_series(1, 100) AS g(n)")
        assert other.execute("SELECT count(*) FROM t").fetchone() == (100,)
        mode = cluster.stat().st_mode & 0o777
        pid = _postmaster(cluster)
        cluster.chmod(0)
        try:
            os.kill(pid, signal.SIGKILL)
            _gone(pid)
            err = _until_refused(c)
            expected = PREFIX + CANNOT_READ.format(conf=cluster / "postgresql.conf")
            assert (str(err), err.sqlstate) == (expected, "XX000")
            # another session gets the same answer at once, and the catalog still answers
            began = time.monotonic()
            try:
                other.execute("SELECT n FROM t LIMIT 1")
                raise AssertionError("a table was read while PostgreSQL is down")
            except psycopg.Error as e2:
                assert str(e2) == expected
            assert time.monotonic() - began < 5
            assert other.execute("SELECT name FROM rw_tables").fetchall() == [("t",)]
            try:
                c.execute("INSERT INTO t VALUES (1000)")
                raise AssertionError("a row was written while PostgreSQL is down")
            except psycopg.Error as e3:
                assert str(e3) == expected
        finally:
            cluster.chmod(mode)
        # The fault is repaired: the same server and sessions carry on.
        assert _until_served(c) == (100, 5050)
        assert other.execute("SELECT count(*) FROM t").fetchone() == (100,)
        assert c.execute("INSERT INTO t VALUES (1000)").statusmessage == "INSERT 0 1"
        assert other.execute("SELECT count(*), max(n) FROM t").fetchone() == (101, 1000)
        assert _postmaster(cluster) != pid
        c.close()
        other.close()
    finally:
        assert sp.stop() == 0
