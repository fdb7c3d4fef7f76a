"""Debian's PostgreSQL 15, started for real in a temporary directory (a sink's target, a CDC
source's upstream): on 127.0.0.1 at a free port (and a unix socket there), trust
authentication, as the server user when the tests run as root; stopped and started again on the
same data directory (a target that goes away and comes back).  ``Pg15(wal_level="logical")``
starts it ready for logical replication (a postgres-cdc upstream)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from rwshim.dataplane.postgres.cluster import cache_root, tool_env
from rwshim.dataplane.postgres.osuser import server_user


def bindir() -> Path:
    for found in sorted(Path("/usr/lib/postgresql").glob("*/bin")):
        if (found / "postgres").exists():
            return found
    raise AssertionError(
        "these tests need Debian's PostgreSQL in /usr/lib/postgresql (.ci/run installs the"
        " postgresql package, version 15 on this image)"
    )


class Pg15:
    """One PostgreSQL server of the test's own."""

    def __init__(self, wal_level: str | None = None) -> None:
        self.bin = bindir()
        self.wal_level = wal_level
        self.root = Path(tempfile.mkdtemp(prefix="rwshim-sink-pg-"))
        who = server_user(cache_root())
        if who is not None:
            os.chown(self.root, who.uid, who.gid)
        self._as = {} if who is None else {"user": who.uid, "group": who.gid, "extra_groups": []}
        self.data = self.root / "data"
        subprocess.run(
            [str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--no-sync",
             "-E", "UTF8", "--locale=C", "-A", "trust"],
            cwd=self.root, env=tool_env(), check=True, capture_output=True, **self._as,
        )  # fmt: skip
        self.proc: subprocess.Popen[bytes] | None = None
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.start()

    host = "127.0.0.1"

    @property
    def dsn(self) -> str:
        return f"host={self.host} port={self.port} user=postgres dbname=postgres"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [str(self.bin / "postgres"), "-D", str(self.data), "-k", str(self.root),
             "-c", "listen_addresses=127.0.0.1", "-p", str(self.port), "-c", "fsync=off",
             *(["-c", f"wal_level={self.wal_level}"] if self.wal_level else [])],
            cwd=self.root, env=tool_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            **self._as,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(self.dsn).close()
                return
            except psycopg.OperationalError:
                assert time.monotonic() < deadline and self.proc.poll() is None, "no PostgreSQL"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None:
            # fast shutdown (SIGINT): a smart one (SIGTERM) waits for the sink's connection
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(60)
            self.proc = None

    def rows(self, sql: str) -> list[tuple[object, ...]]:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            return list(conn.execute(sql).fetchall())

    def run(self, sql: str) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(sql)

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def cdc_options(pg: Pg15, database: str = "postgres") -> str:
    """The WITH options of a postgres-cdc source on ``pg`` (its superuser, no password)."""
    return (
        f"connector = 'postgres-cdc', hostname = '{pg.host}', port = '{pg.port}',"
        f" username = 'postgres', password = '', database.name = '{database}'"
    )
