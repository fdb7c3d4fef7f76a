"""An rwshim server in a child process, for the suites whose faults would take the test
process down with it: a crash (segmentation fault), a file-size limit, its memory measured
(RSS from /proc), its exit status and last words on stderr.

Every child started here is remembered until it is stopped or killed; ``reap()`` (run after
each test by the ``tests/rel`` and ``tests/datapath`` conftests, for the children that test
started) kills whatever a failed assertion left running, so a red test leaves no server behind."""

from __future__ import annotations

import contextlib
import os
import re
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]


def file_size_limit(limit: int) -> Callable[[], None]:
    """A preexec_fn: the child may write no file past ``limit`` bytes (RLIMIT_FSIZE), and a
    write past it fails with EFBIG instead of killing the process with SIGXFSZ."""

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


_LIVE: set[ServerProcess] = set()


def live() -> frozenset[ServerProcess]:
    """The children started and not yet stopped or killed."""
    return frozenset(_LIVE)


def reap(keep: frozenset[ServerProcess] = frozenset()) -> int:
    """Kill every child still running that a test did not stop, except ``keep`` (those of
    fixtures wider than the test); how many there were."""
    left = [sp for sp in _LIVE - keep if sp.alive()]
    for sp in left:
        sp.kill()
    _LIVE.intersection_update(keep)
    return len(left)


class ServerProcess:
    """``python -m rwshim --port 0`` with extra arguments; ``.port`` once it is ready."""

    def __init__(
        self,
        *args: str,
        env: dict[str, str] | None = None,
        preexec: Callable[[], None] | None = None,
    ) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-m", "rwshim", "--port", "0", "--no-uvloop", *args],
            cwd=ROOT, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **(env or {})}, preexec_fn=preexec,
        )  # fmt: skip
        _LIVE.add(self)
        assert self.p.stderr is not None
        self.lines: list[str] = []
        while True:  # log lines may come before the one that says where it listens
            line = self.p.stderr.readline()
            self.lines.append(line)
            m = re.search(r"rwshim ready on 127\.0\.0\.1:(\d+)", line)
            if m is not None:
                break
            if not line:
                self.p.wait(10)
                _LIVE.discard(self)
                raise AssertionError("".join(self.lines))
        self.port = int(m.group(1))
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        assert self.p.stderr is not None
        for line in self.p.stderr:
            self.lines.append(line)

    def connect(self, **kw: str) -> psycopg.Connection:
        return psycopg.connect(
            host="127.0.0.1", port=self.port, user="root", dbname="dev", autocommit=True,
            connect_timeout=10, **kw,
        )  # fmt: skip

    def alive(self) -> bool:
        return self.p.poll() is None

    def rss(self) -> int:
        status = Path(f"/proc/{self.p.pid}/status").read_text()
        m = re.search(r"VmRSS:\s+(\d+) kB", status)
        assert m
        return int(m.group(1)) * 1024

    def stop(self) -> int:
        """SIGTERM (a clean shutdown); the exit status."""
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait(10)
        self._reader.join(5)
        _LIVE.discard(self)
        return self.p.returncode

    def kill(self) -> None:
        """SIGKILL (a crash); waits for the exit."""
        with contextlib.suppress(ProcessLookupError):
            self.p.kill()
        self.p.wait(10)
        _LIVE.discard(self)

    def stderr(self) -> str:
        time.sleep(0)
        return "".join(self.lines)


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m rwshim ...`` to completion (for commands that exit)."""
    return subprocess.run(
        [sys.executable, "-m", "rwshim", *args], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, **(env or {})}, timeout=60,
    )  # fmt: skip
