"""The two servers under test: rwshim as a subprocess and a throwaway PostgreSQL cluster.

Both listen on 127.0.0.1 on a port the OS picked, and both are stopped (and PostgreSQL's data
directory deleted) when their context ends, whatever happened inside it.  PostgreSQL keeps its
default settings (fsync and synchronous_commit on), so the comparison is honest.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Self

import psycopg

REPO = Path(__file__).resolve().parents[1]


class BenchError(Exception):
    """A server or a workload could not be run; the text says why (shown as 'not available')."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that the OS says is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kib(pid: int) -> int:
    """Resident set size of a process in KiB (VmRSS of /proc/<pid>/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise BenchError(f"no VmRSS for pid {pid}")


@dataclass(frozen=True, slots=True)
class Target:
    """Where pgbench and the setup client connect."""

    label: str
    host: str
    port: int
    user: str
    dbname: str

    def conninfo(self) -> str:
        return (
            f"host={self.host} port={self.port} user={self.user} dbname={self.dbname} "
            "connect_timeout=10"
        )

    def connect(self) -> psycopg.Connection[tuple[object, ...]]:
        """An autocommit connection: statements without parameters go as simple queries."""
        return psycopg.connect(self.conninfo(), autocommit=True)


_CAUSE_HEADERS = ("Caused by:", "Caused by these errors (recent errors listed first):")
_NUMBERED = re.compile(r"^\d+: ")


def one_line(text: str) -> str:
    """An error text on one line, for 'not available' reports.

    RisingWave's errors are multi-line reports ("Failed to run the query", then "Caused by:" and
    indented, maybe numbered, causes): the chain is joined with ': ' as in its compact form.
    """
    parts: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line in _CAUSE_HEADERS:
            continue
        parts.append(_NUMBERED.sub("", line))
    return ": ".join(parts)


class Rwshim:
    """rwshim started as `python -m rwshim --host 127.0.0.1 --port N` (in-memory meta store)."""

    # Extra command-line arguments for every rwshim the harness starts (--rwshim-arg).
    extra_args: tuple[str, ...] = ()
    # Bytecode of the checkout, kept outside it for the harness's run: rwshim starts as an
    # installed package does (from .pyc files), even where PYTHONDONTWRITEBYTECODE is set.
    pycache: Path | None = None

    def __init__(
        self,
        python: str = sys.executable,
        ready_timeout: float = 20.0,
        data_dir: bool = False,
        dashboard: bool = False,
    ) -> None:
        self.python = python
        # The web dashboard (on by default in the CLI) is off unless asked for: its start-up
        # imports aiohttp in a thread, which takes the interpreter from the first seconds of
        # queries, and no workload measures it.
        self.dashboard = dashboard
        self.ready_timeout = ready_timeout
        # --data-dir: the meta store in a file (a throwaway directory, removed on close).
        self.data_dir = Path(tempfile.mkdtemp(prefix="rwshim-bench-data-")) if data_dir else None
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.startup_s = 0.0
        # rwshim's output, kept for error reports; closed with this object.
        self._log = tempfile.TemporaryFile()  # noqa: SIM115

    @property
    def target(self) -> Target:
        return Target("rwshim", "127.0.0.1", self.port, "root", "dev")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self) -> float:
        """Start the process; return seconds from spawn to the first answered `SELECT 1`."""
        self.port = free_port()
        env = dict(os.environ)
        # The package is run from this checkout, installed or not.
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
        if Rwshim.pycache is None:
            Rwshim.pycache = Path(tempfile.mkdtemp(prefix="rwshim-bench-pycache-"))
            atexit.register(shutil.rmtree, Rwshim.pycache, True)
        env["PYTHONPYCACHEPREFIX"] = str(Rwshim.pycache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        cmd = [self.python, "-m", "rwshim", "--host", "127.0.0.1", "--port", str(self.port)]
        if not self.dashboard:
            cmd += ["--dashboard-port", "0"]
        cmd += self.extra_args
        if self.data_dir is not None:
            cmd += ["--data-dir", str(self.data_dir)]
        self._log.seek(0)
        self._log.truncate()
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            cmd, cwd=REPO, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        deadline = t0 + self.ready_timeout
        last = ""
        while True:
            if self.proc.poll() is not None:
                code = self.proc.returncode
                raise BenchError(f"rwshim exited with {code}: {self.log_tail(1)}")
            try:
                with psycopg.connect(self.target.conninfo(), autocommit=True) as conn:
                    conn.execute("SELECT 1").fetchall()
                self.startup_s = time.perf_counter() - t0
                return self.startup_s
            except psycopg.OperationalError as e:
                last = one_line(str(e))
            if time.perf_counter() > deadline:
                raise BenchError(f"rwshim did not answer SELECT 1 in {self.ready_timeout}s: {last}")
            time.sleep(0.002)

    def log_tail(self, lines: int = 5) -> str:
        self._log.seek(0)
        text = self._log.read().decode(errors="replace").strip().splitlines()
        return " | ".join(text[-lines:]) if text else "(no output)"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def close(self) -> None:
        self.stop()
        self._log.close()
        if self.data_dir is not None:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> Rwshim:
        return self

    def __exit__(
        self,
        et: type[BaseException] | None,
        ev: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class _Aid:
    """A benchmark aid (a script under bench/ taking its port first) as a subprocess
    listening on 127.0.0.1."""

    script = ""  # bench/<script>
    what = ""  # for its errors

    def __init__(self, python: str = sys.executable) -> None:
        self.python = python
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def args(self) -> list[str]:
        """The script's arguments after the port."""
        return []

    def start(self) -> None:
        self.port = free_port()
        cmd = [self.python, str(REPO / "bench" / self.script), str(self.port), *self.args()]
        self.proc = subprocess.Popen(cmd, cwd=REPO)
        deadline = time.perf_counter() + 10
        while True:
            if self.proc.poll() is not None:
                raise BenchError(f"{self.what} exited with {self.proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                if time.perf_counter() > deadline:
                    raise BenchError(f"{self.what} did not listen in 10 s") from None
                time.sleep(0.01)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        et: type[BaseException] | None,
        ev: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Floor(_Aid):
    """The canned-reply server (bench/floor.py): the floor of a Python server."""

    script = "floor.py"
    what = "the floor server"

    @property
    def target(self) -> Target:
        return Target("floor", "127.0.0.1", self.port, "root", "dev")


class Relay(_Aid):
    """The byte relay (bench/relay.py) to a PostgreSQL's unix socket."""

    script = "relay.py"
    what = "the relay"

    def __init__(self, pg: Postgres, python: str = sys.executable) -> None:
        super().__init__(python)
        self.pg = pg

    def args(self) -> list[str]:
        return [str(self.pg.socket)]

    @property
    def target(self) -> Target:
        pg = self.pg.target
        return Target("relay", "127.0.0.1", self.port, pg.user, pg.dbname)


def find_pg_bin() -> Path:
    """The directory of PostgreSQL's server binaries (initdb, pg_ctl), preferring version 15."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)
    for c in candidates:
        if c.parent.parent.name == "15":
            return c.parent
    if candidates:
        return candidates[0].parent
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    raise BenchError("initdb not found on PATH or under /usr/lib/postgresql/*/bin")


def _run_as(user: str | None, cmd: list[str]) -> subprocess.CompletedProcess[str]:
    full = ["runuser", "-u", user, "--", *cmd] if user else cmd
    return subprocess.run(full, capture_output=True, text=True, check=False)


def _pg_os_user() -> str | None:
    """initdb refuses root: as root, run PostgreSQL as the `postgres` system user.

    The user is created (no home, no login shell) when the machine has none."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"],
            check=True,
            capture_output=True,
        )
    return "postgres"


class Postgres:
    """A throwaway PostgreSQL cluster: initdb in a temporary directory, loopback only."""

    def __init__(self) -> None:
        self.bin = find_pg_bin()
        self.os_user = _pg_os_user()
        self.tmp = Path(tempfile.mkdtemp(prefix="rwshim-bench-pg-"))
        self.data = self.tmp / "data"
        self.port = 0
        self.version = ""
        self._started = False

    @property
    def target(self) -> Target:
        return Target("postgres", "127.0.0.1", self.port, "postgres", "postgres")

    def _check(self, what: str, res: subprocess.CompletedProcess[str]) -> None:
        if res.returncode != 0:
            raise BenchError(f"{what} failed: {one_line(res.stderr or res.stdout)}")

    def start(self) -> None:
        if self.os_user:
            shutil.chown(self.tmp, self.os_user, self.os_user)
        init = [str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust"]
        self._check("initdb", _run_as(self.os_user, [*init, "--no-instructions", "-E", "UTF8"]))
        self.port = free_port()
        opts = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.tmp}"
        start = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.tmp / "log")]
        self._check("pg_ctl start", _run_as(self.os_user, [*start, "-w", "-o", opts, "start"]))
        self._started = True
        with self.target.connect() as conn:
            row = conn.execute("SHOW server_version").fetchone()
        self.version = str(row[0]) if row else ""

    @property
    def socket(self) -> Path:
        """The unix socket the server listens on beside its TCP port."""
        return self.tmp / f".s.PGSQL.{self.port}"

    def pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().splitlines()[0])

    def close(self) -> None:
        if self._started:
            _run_as(
                self.os_user,
                [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"],
            )
            self._started = False
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> Postgres:
        return self

    def __exit__(
        self,
        et: type[BaseException] | None,
        ev: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with contextlib.suppress(Exception):
            self.close()
