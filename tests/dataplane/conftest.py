"""Fixtures and process helpers for the data plane's tests: real PostgreSQL children, real
kills, read from /proc (these tests run on Linux, as CI does)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from rwshim.dataplane.postgres import DataPlaneEvent, EmbeddedPostgres

REPO = Path(__file__).resolve().parents[2]

# A process that owns a data-plane server and prints where it is, then waits to be killed.
OWNER_SCRIPT = r"""
import asyncio, json, sys
from pathlib import Path
from rwshim.dataplane.postgres import EmbeddedPostgres

async def main():
    server = EmbeddedPostgres(data_dir=Path(sys.argv[1]) if sys.argv[1] else None)
    await server.start()
    print(json.dumps({"pid": server.pid, "socket_dir": server.host,
                      "cluster": str(server.cluster_dir)}), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


@pytest.fixture
async def pg() -> AsyncIterator[EmbeddedPostgres]:
    """An in-memory data-plane server, stopped at teardown."""
    server = EmbeddedPostgres()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A temp directory every user can search (pytest's tmp_path is 0700 root's under
    /tmp/pytest-of-root; the server's user must reach a cache it builds into)."""
    path = Path(tempfile.mkdtemp(prefix="rwshim-test-"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


class Events:
    """Collects a server's events; ``wait(kind)`` until one of that kind has arrived."""

    def __init__(self, server: EmbeddedPostgres) -> None:
        self.seen: list[DataPlaneEvent] = []
        self._arrived = asyncio.Event()
        server.subscribe(self._on)

    def _on(self, event: DataPlaneEvent) -> None:
        self.seen.append(event)
        self._arrived.set()

    def kinds(self) -> list[str]:
        return [e.kind for e in self.seen]

    async def wait(self, kind: str, timeout: float = 60.0) -> DataPlaneEvent:
        deadline = time.monotonic() + timeout
        while True:
            for event in self.seen:
                if event.kind == kind:
                    return event
            left = deadline - time.monotonic()
            assert left > 0, f"no {kind!r} event within {timeout} s; saw {self.kinds()}"
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


def running(pid: int) -> bool:
    """Alive and not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    """Poll until none of ``pids`` runs (or ``timeout``); those still running."""
    deadline = time.monotonic() + timeout
    while True:
        left = [p for p in pids if running(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.01)


def proc_uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[2])  # effective uid
    raise AssertionError(f"no Uid line for {pid}")


class Owner:
    """``OWNER_SCRIPT`` in a subprocess; ``info`` is what it printed."""

    def __init__(self, data_dir: Path | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", OWNER_SCRIPT, "" if data_dir is None else str(data_dir)],
            stdout=subprocess.PIPE,
            cwd=REPO,
            text=True,
        )
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 120)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.proc.kill()
            raise AssertionError(f"the owner process printed nothing (rc {self.proc.poll()})")
        self.info = json.loads(line)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.kill()
        assert self.proc.stdout is not None
        self.proc.stdout.close()
