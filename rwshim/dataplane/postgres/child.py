"""The postmaster as a direct child of rwshim: spawn, wait for its exit, stop it.

- **Dies with rwshim.**  On Linux the child sets ``PR_SET_PDEATHSIG`` = SIGINT (PostgreSQL's
  fast shutdown, so the next start needs no crash recovery) after it has dropped to the
  server's user: Linux clears the setting on a change of uid.  The signal is tied to the
  *thread* that spawned the child, so the child is spawned on the event loop's thread, which
  lives as long as the server.  Elsewhere a postmaster left by a previous rwshim is stopped
  at the next start, from its ``postmaster.pid`` (``stop_stale``, ``sweep_orphans``).
- **Its own session** (``setsid``): a terminal's Ctrl-C reaches rwshim, which stops the child
  itself, instead of both at once.
- **Root**: the child runs as the server user and ``-D /proc/self/cwd`` on Linux: rwshim sets
  the child's working directory to the cluster while still root, so the cluster may sit
  below directories that user cannot search (a ``--data-dir`` in ``/root`` or in pytest's
  0700 ``/tmp/pytest-of-root``); the socket directory and the binaries must be reachable.
- **Exit**: a pidfd (Linux) makes the exit an event-loop readable; elsewhere a 100 ms poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from rwshim.dataplane.postgres import cluster
from rwshim.dataplane.postgres.binaries import PgBinaries
from rwshim.dataplane.postgres.cluster import Instance, pid_alive, postmaster_pid, tool_env
from rwshim.dataplane.postgres.osuser import RunAs

log = logging.getLogger("rwshim.dataplane")

PR_SET_PDEATHSIG = 1
DEATH_SIGNAL = signal.SIGINT


def _pdeathsig_hook() -> Callable[[], None]:
    """A ``preexec_fn`` that asks for ``DEATH_SIGNAL`` when the spawning thread ends.  Runs
    after subprocess's setuid (its ``user=``), as it must; everything it calls is looked up
    before the fork."""
    import ctypes

    prctl = ctypes.CDLL(None, use_errno=True).prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    parent = os.getpid()
    getppid, exit_now, sig = os.getppid, os._exit, int(DEATH_SIGNAL)

    def hook() -> None:
        if prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) != 0:
            exit_now(126)
        if getppid() != parent:  # the parent died before the request took effect
            exit_now(126)

    return hook


def server_argv(bins: PgBinaries, instance: Instance, settings: Mapping[str, str]) -> list[str]:
    data = "/proc/self/cwd" if sys.platform == "linux" else str(instance.data)
    # unix_socket_directories is a list: quote the one directory (commas, spaces).
    sockets = '"' + str(instance.socket_dir).replace('"', '""') + '"'
    argv = [str(bins.postgres), "-D", data, "-c", f"unix_socket_directories={sockets}"]
    for name, value in settings.items():
        argv += ["-c", f"{name}={value}"]
    return argv


class Postmaster:
    """One spawned postmaster process."""

    def __init__(self, popen: subprocess.Popen[bytes], log_offset: int = 0) -> None:
        self.popen = popen
        self.log_offset = log_offset  # where this run's lines start in the server log
        self.pid = popen.pid
        self._pidfd: int | None = None
        if sys.platform == "linux":
            with contextlib.suppress(OSError):
                self._pidfd = os.pidfd_open(popen.pid)

    @classmethod
    def spawn(
        cls,
        bins: PgBinaries,
        instance: Instance,
        who: RunAs | None,
        settings: Mapping[str, str],
    ) -> Postmaster:
        """Start ``postgres`` on ``instance`` (call it on the thread that outlives it)."""
        with open(instance.log, "ab") as logfile:
            offset = logfile.tell()
            popen = subprocess.Popen(
                server_argv(bins, instance, settings),
                cwd=instance.data,
                env=tool_env(),
                stdin=subprocess.DEVNULL,
                stdout=logfile,
                stderr=logfile,
                start_new_session=True,
                user=None if who is None else who.uid,
                group=None if who is None else who.gid,
                extra_groups=None if who is None else [],
                preexec_fn=_pdeathsig_hook() if sys.platform == "linux" else None,
            )
        return cls(popen, offset)

    def exited(self) -> bool:
        return self.popen.poll() is not None

    @property
    def returncode(self) -> int | None:
        return self.popen.returncode

    async def wait(self) -> int:
        """Wait (on the event loop) until the postmaster exits; its return code."""
        if self.popen.poll() is not None:
            return self.popen.returncode
        if self._pidfd is not None:
            loop = asyncio.get_running_loop()
            done = loop.create_future()
            fd = self._pidfd

            def ready() -> None:
                if not done.done():
                    done.set_result(None)

            loop.add_reader(fd, ready)
            try:
                await done
            finally:
                loop.remove_reader(fd)
        while self.popen.poll() is None:
            await asyncio.sleep(0.1)
        return self.popen.returncode

    def close(self) -> None:
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None

    async def stop(self, timeout: float = 10.0) -> None:
        """Fast shutdown (SIGINT), then immediate (SIGQUIT), then SIGKILL."""
        for sig, grace in ((signal.SIGINT, timeout), (signal.SIGQUIT, 5.0), (signal.SIGKILL, 5.0)):
            if self.popen.poll() is not None:
                break
            with contextlib.suppress(ProcessLookupError):
                self.popen.send_signal(sig)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wait(), grace)
        self.close()

    def stop_now(self, timeout: float = 10.0) -> None:
        """The blocking ``stop`` (interpreter exit, no event loop)."""
        for sig, grace in ((signal.SIGINT, timeout), (signal.SIGKILL, 5.0)):
            if self.popen.poll() is not None:
                break
            with contextlib.suppress(ProcessLookupError):
                self.popen.send_signal(sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(grace)
        self.close()


def describe_exit(code: int | None) -> str:
    if code is None:
        return "is still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with code {code}"


def stop_stale(data: Path, timeout: float = 10.0) -> int | None:
    """Stop a postmaster that still runs on ``data`` (left by a previous rwshim that died
    where there is no parent-death signal); its pid, or None.  The caller holds the data
    directory's lock, so no live rwshim owns that postmaster."""
    pid = postmaster_pid(data)
    if pid is None or pid == os.getpid() or not pid_alive(pid):
        return None
    if _is_zombie(pid):
        _forget_dead_postmaster(data, pid)
        return None
    if not _is_postmaster_of(pid, data):
        return None
    log.warning("stopping PostgreSQL (pid %d) left running on %s by a previous rwshim", pid, data)
    for sig, grace in ((signal.SIGINT, timeout), (signal.SIGQUIT, 5.0), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            if not pid_alive(pid):
                return pid
            if _is_zombie(pid):
                _forget_dead_postmaster(data, pid)
                return pid
            time.sleep(0.01)
    return pid


def _forget_dead_postmaster(data: Path, pid: int, wait: float = 5.0) -> None:
    """A postmaster that exited but is not reaped yet (its rwshim died, and the process that
    inherited it reaps slowly: a container's init) still answers ``kill(pid, 0)``, and
    PostgreSQL refuses to start while the pid of its ``postmaster.pid`` answers (``lock file
    "postmaster.pid" already exists``, miscinit.c CreateLockFile).  Wait a little for it to
    be reaped; then, if no process is attached to its shared memory any more (PostgreSQL's
    own test that no backend of it survives, PGSharedMemoryIsInUse, read from
    /proc/sysvipc/shm), remove the stale lock file (the caller holds the data directory's
    lock, so no live server owns it)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if not pid_alive(pid) or not _is_zombie(pid):
            return
        time.sleep(0.02)
    if postmaster_pid(data) != pid or _shared_memory_in_use(data):
        return
    log.warning("removing the lock file of PostgreSQL (pid %d, exited) on %s", pid, data)
    with contextlib.suppress(FileNotFoundError):
        (data / "postmaster.pid").unlink()


def _shared_memory_in_use(data: Path) -> bool:
    """Whether a process is attached to the SysV segment ``postmaster.pid`` names (its 7th
    line: key and id); True when that cannot be told (the lock file is then kept)."""
    try:
        lines = (data / "postmaster.pid").read_text().splitlines()
        shmid = int(lines[6].split()[1])
        table = Path("/proc/sysvipc/shm").read_text().splitlines()
    except (OSError, IndexError, ValueError):
        return True
    for row in table[1:]:
        fields = row.split()
        if len(fields) > 6 and fields[1] == str(shmid):
            return fields[6] != "0"
    return False  # the segment is gone


def sweep_orphans(parents: list[Path] | None = None, min_age: float = 60.0) -> list[Path]:
    """Remove the instance directories whose owner is gone: its ``owner.lock`` is unlocked
    (a directory without one is kept while younger than ``min_age`` s: it is being made).
    A server still running there (no parent-death signal on this platform) is stopped first."""
    import fcntl

    removed = []
    for parent in parents or cluster.temp_parents():
        for root in parent.glob(cluster.INSTANCE_PREFIX + "*"):
            try:
                with open(root / "owner.lock", "rb") as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                orphan = True
            except FileNotFoundError:
                try:
                    orphan = time.time() - root.stat().st_mtime > min_age
                except OSError:
                    continue
            except OSError:  # locked (its owner lives) or not ours to open
                continue
            if orphan:
                stop_stale(root / "data")
                shutil.rmtree(root, ignore_errors=True)
                removed.append(root)
    return removed


def _is_postmaster_of(pid: int, data: Path) -> bool:
    """Whether ``pid`` is a postgres whose working directory is ``data`` (a reused pid is
    left alone)."""
    if sys.platform == "linux":
        try:
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            return False
        return comm == "postgres" and os.path.realpath(cwd) == os.path.realpath(data)
    done = subprocess.run(["ps", "-o", "comm=", "-p", str(pid)], capture_output=True, text=True)
    return done.returncode == 0 and Path(done.stdout.strip()).name == "postgres"


def _is_zombie(pid: int) -> bool:
    if sys.platform != "linux":
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def log_tail(path: Path, offset: int = 0, data: Path | None = None, lines: int = 3) -> str:
    """The last FATAL/PANIC/ERROR lines of a server log from ``offset`` (for start-up
    failures), naming the cluster ``data`` where the server said ``/proc/self/cwd``."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace").splitlines()
    except OSError:
        return ""
    bad = [t for t in text if any(k in t for k in ("FATAL", "PANIC", "ERROR"))]
    tail = " / ".join((bad or text)[-lines:])
    return tail if data is None else tail.replace("/proc/self/cwd", str(data))
