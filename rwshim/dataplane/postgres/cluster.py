"""The data plane's files: the cached template cluster, the per-instance directories, the
``--data-dir`` lock and the server settings.

- **Template**: one ``initdb --locale=C -E UTF8`` cluster per machine and settings, cached
  under the cache root (rwshim/cachedir.py: ``$RWSHIM_CACHE_DIR``; for root
  ``/var/cache/rwshim``, where the server's user can reach it; else
  ``$XDG_CACHE_HOME/rwshim`` or ``~/.cache/rwshim``), keyed
  by the PostgreSQL build and our initdb arguments.  It is built beside its final name and
  renamed into place under a lock, so a racing process waits and then reuses it, and a
  half-built template is never seen.
- **In-memory instance**: a copy of the template in a private ``rwshim-pg-*`` directory
  (mode 0700, the server's user's) on a tmpfs (``/dev/shm``) when there is a roomy one, else
  in the temp dir; it is also the socket directory, and is removed at stop (a directory
  whose owner died is swept by the next start, ``child.sweep_orphans``).
- **Durable instance**: ``<data-dir>/pg/``, copied from the template (fsynced) on first use;
  its socket directory is a private temp directory as above.  ``<data-dir>/rwshim.lock`` is
  an OS lock held while the instance runs, so a second rwshim cannot share the cluster.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

# re-exported: the data plane's callers name them here
from rwshim.cachedir import CACHE_ENV as CACHE_ENV
from rwshim.cachedir import cache_root as cache_root
from rwshim.dataplane.postgres.binaries import PgBinaries
from rwshim.dataplane.postgres.errors import DataDirInUse, DataPlaneError
from rwshim.dataplane.postgres.osuser import RunAs, chown_tree

SUPERUSER = "postgres"
DBNAME = "postgres"
PORT = 5432  # only names the socket file (.s.PGSQL.5432): there is no TCP listener
INSTANCE_PREFIX = "rwshim-pg-"
LOCK_NAME = "rwshim.lock"
# initdb's arguments are part of the template's cache key.  C locale: text sorts bytewise as
# in RisingWave, whatever the user's environment.  Trust over the unix socket only (host
# lines reject; there is no TCP listener anyway).  1 MB WAL segments: the template (and every
# copy of it) carries ~7 MB of WAL instead of one 16 MB segment.
INITDB_ARGS = (
    "--locale=C",
    "--encoding=UTF8",
    f"--username={SUPERUSER}",
    "--auth-local=trust",
    "--auth-host=reject",
    "--wal-segsize=1",
    "--no-instructions",
)
TEMPLATE_FORMAT = 1  # bump when the template's contents change without initdb's arguments


def server_settings(
    *, sessions: int, durable: bool, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The ``-c`` settings of the child: an emulator's lean server (data-plane-study.md §2.3).

    ``sessions`` connections are left for callers (one per rwshim session plus a few); one
    more is the supervisor's.  Every one may hold a prepared transaction (two-phase commit)."""
    settings = {
        "listen_addresses": "",
        "unix_socket_permissions": "0700",
        "max_connections": str(sessions + 1),
        "superuser_reserved_connections": "0",
        "reserved_connections": "0",
        "max_prepared_transactions": str(sessions),
        "shared_buffers": "16MB",
        "io_method": "sync",  # no I/O worker processes (PostgreSQL 18 starts 3 by default)
        "max_worker_processes": "0",  # no logical-replication launcher, no parallel workers
        "max_parallel_workers": "0",
        "max_parallel_workers_per_gather": "0",
        "max_parallel_maintenance_workers": "0",
        "max_logical_replication_workers": "0",
        "max_wal_senders": "0",
        "max_replication_slots": "0",
        "wal_level": "minimal",
        # Autovacuum stays (one worker): a long-lived emulator taking upserts would otherwise
        # bloat its tables without bound; the launcher costs one mostly idle process.
        "autovacuum_max_workers": "1",
        "autovacuum_worker_slots": "1",
        "huge_pages": "off",
        "jit": "off",
        "log_checkpoints": "off",
    }
    if not durable:
        # An in-memory instance goes with its process, so nothing is flushed to disk (those
        # settings guard against a machine crash only).  synchronous_commit stays on: off, a
        # crash of any backend (which makes the server drop its WAL buffers) loses commits
        # already acknowledged, which the catalog would still list; with fsync off a commit
        # costs one write(2) anyway.
        settings |= {"fsync": "off", "full_page_writes": "off"}
    settings |= dict(extra or {})
    return settings


def tool_env() -> dict[str, str]:
    """The environment of initdb and postgres: no PG* variables, C locale, UTC."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env |= {"LC_ALL": "C", "LANG": "C", "TZ": "UTC"}
    return env


def template_key(bins: PgBinaries) -> str:
    digest = hashlib.sha256(repr((INITDB_ARGS, TEMPLATE_FORMAT)).encode()).hexdigest()[:12]
    return f"pg-{bins.version}-{digest}"


def ensure_template(bins: PgBinaries, who: RunAs | None, cache: Path) -> Path:
    """The cached template cluster, built (initdb, run as ``who``) when missing."""
    templates = cache / "templates"
    final = templates / template_key(bins)
    if (final / "PG_VERSION").exists():
        return final
    templates.mkdir(parents=True, exist_ok=True, mode=0o755)
    with _flock(templates / ".build.lock"):
        if (final / "PG_VERSION").exists():  # built by the process we waited for
            return final
        for stale in templates.glob(".build-*"):  # left by a builder that died (we hold the lock)
            shutil.rmtree(stale, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=".build-", dir=templates))
        try:
            chown_tree(staging, who)
            # As for the server (child.py): the working directory is set while still root,
            # so the cache may lie where the server's user cannot search.
            argv = [str(bins.initdb), *INITDB_ARGS]
            if sys.platform == "linux":
                # One syncfs(2) instead of an fsync per file (seconds on a slow disk).
                argv += ["-D", "/proc/self/cwd", "--sync-method=syncfs"]
            else:
                argv += ["-D", str(staging)]
            _run_as(who, argv, cwd=staging)
            os.rename(staging, final)
            _fsync_dir(templates)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return final


def _run_as(who: RunAs | None, argv: list[str], cwd: Path) -> None:
    done = subprocess.run(
        argv,
        cwd=cwd,
        env=tool_env(),
        capture_output=True,
        text=True,
        check=False,
        user=None if who is None else who.uid,
        group=None if who is None else who.gid,
        extra_groups=None if who is None else [],
    )
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise DataPlaneError(f"{Path(argv[0]).name} failed: {' / '.join(tail)}")


def copy_cluster(src: Path, dst: Path, who: RunAs | None, *, durable: bool) -> None:
    """Copy a stopped cluster; ``durable`` flushes the copy to disk before it is renamed into
    place (so a machine crash never leaves a half-written ``pg/`` behind its name)."""
    work = dst.with_name(f".{dst.name}-new-{os.getpid()}") if durable else dst
    shutil.rmtree(work, ignore_errors=True)
    os.mkdir(work, 0o700)
    try:
        for dirpath, dirs, files in os.walk(src):
            rel = os.path.relpath(dirpath, src)
            target = os.path.join(work, rel) if rel != "." else str(work)
            for name in dirs:
                os.mkdir(os.path.join(target, name), 0o700)
            for name in files:
                _copy_file(os.path.join(dirpath, name), os.path.join(target, name))
        chown_tree(work, who)
        if durable:
            _flush_filesystem(work)
            os.rename(work, dst)
            _fsync_dir(dst.parent)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def _copy_file(src: str, dst: str) -> None:
    fin = os.open(src, os.O_RDONLY)
    try:
        fout = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            size = os.fstat(fin).st_size
            done = 0
            try:  # in the kernel, no copy through Python
                while done < size:
                    sent = os.sendfile(fout, fin, done, size - done)
                    if sent == 0:
                        break
                    done += sent
            except OSError:
                pass
            # Whatever sendfile left or could not do (given an offset, it leaves fin's alone).
            os.lseek(fin, done, os.SEEK_SET)
            os.lseek(fout, done, os.SEEK_SET)
            while chunk := os.read(fin, 1 << 20):
                os.write(fout, chunk)
        finally:
            os.close(fout)
    finally:
        os.close(fin)


def _flush_filesystem(path: Path) -> None:
    """One syncfs(2) of the filesystem holding ``path`` (Linux): ~0.2 s where an fsync per
    file of the ~1,000 took 4 s; ``sync`` elsewhere."""
    if sys.platform == "linux":
        import ctypes

        fd = os.open(path, os.O_RDONLY)
        try:
            if ctypes.CDLL(None, use_errno=True).syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    os.sync()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class Instance:
    """The directories of one running cluster."""

    data: Path
    socket_dir: Path
    log: Path
    temp_root: Path  # private directory removed at stop (holds the socket, and for an
    # in-memory instance the cluster and its log)
    durable: bool
    _owner: IO[bytes] | None = field(default=None, repr=False)

    def remove(self) -> None:
        shutil.rmtree(self.temp_root, ignore_errors=True)
        if self._owner is not None:
            self._owner.close()
            self._owner = None


def new_instance(template: Path, who: RunAs | None, data_dir: Path | None) -> Instance:
    """Prepare an instance: in memory (``data_dir`` None) or in ``<data_dir>/pg``."""
    root, owner = _private_dir(who, durable=data_dir is not None)
    try:
        if data_dir is None:
            data = root / "data"
            copy_cluster(template, data, who, durable=False)
            return Instance(data, root, root / "postgres.log", root, False, owner)
        data = data_dir / "pg"
        if not (data / "PG_VERSION").exists():
            copy_cluster(template, data, who, durable=True)
        elif who is not None and data.stat().st_uid != who.uid:
            chown_tree(data, who)  # made by a run under another server user
        return Instance(data, root, data_dir / "postgres.log", root, True, owner)
    except BaseException:
        owner.close()
        shutil.rmtree(root, ignore_errors=True)
        raise


SHM = Path("/dev/shm")
SHM_MIN_FREE = 1 << 30  # a tmpfs smaller than this (Docker's 64 MB /dev/shm) is not used


def temp_parents() -> list[Path]:
    """Every place ``temp_parent`` may choose."""
    return sorted({temp_parent(durable=False), temp_parent(durable=True)})


def temp_parent(durable: bool) -> Path:
    """Where instance directories go: ``$TMPDIR`` if the user set it; else, for an in-memory
    cluster, a tmpfs ``/dev/shm`` with room to spare (creating files on a disk can cost a
    millisecond each, and a copy of the template is ~1,000 files); else the temp dir."""
    parent = Path(tempfile.gettempdir())
    if not durable and "TMPDIR" not in os.environ and _roomy_tmpfs(SHM):
        parent = SHM
    # Unix socket paths are limited to ~104-108 bytes (sun_path).
    if len(str(parent)) + len(INSTANCE_PREFIX) + 30 > 100:
        parent = Path("/tmp")
    return parent


def _roomy_tmpfs(path: Path) -> bool:
    try:
        st = os.statvfs(path)
    except OSError:
        return False
    return os.access(path, os.W_OK) and st.f_bavail * st.f_frsize >= SHM_MIN_FREE


def _private_dir(who: RunAs | None, durable: bool) -> tuple[Path, IO[bytes]]:
    import fcntl

    root = Path(tempfile.mkdtemp(prefix=INSTANCE_PREFIX, dir=temp_parent(durable)))
    owner = open(root / "owner.lock", "wb")  # noqa: SIM115 - held for the instance's life
    fcntl.flock(owner, fcntl.LOCK_EX)
    owner.write(f"{os.getpid()}\n".encode())
    owner.flush()
    if who is not None:
        os.chown(root, who.uid, who.gid)
    return root, owner


def postmaster_pid(data: Path) -> int | None:
    try:
        first = (data / "postmaster.pid").read_text().split("\n", 1)[0]
        return int(first)
    except (OSError, ValueError):
        return None


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class DataDirLock:
    """An OS lock (flock) on ``<data-dir>/rwshim.lock``: one rwshim per data directory.  The
    lock goes with the process (a kill -9 frees it); the file keeps the holder's pid."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LOCK_NAME
        self._file: IO[bytes] | None = None

    @property
    def held(self) -> bool:
        return self._file is not None

    def acquire(self) -> None:
        import fcntl

        if self._file is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        file = open(fd, "r+b")  # noqa: SIM115 - held until release()
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            holder = file.read().decode(errors="replace").strip()
            file.close()
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise DataDirInUse(
                f"data directory {self.path.parent} is in use by another rwshim process{who}"
            ) from None
        file.truncate(0)
        file.write(f"{os.getpid()}\n".encode())
        file.flush()
        self._file = file

    def release(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class _flock:
    """A blocking exclusive flock on a lock file, as a context manager."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[bytes] | None = None

    def __enter__(self) -> None:
        import fcntl

        self._file = open(self.path, "ab")
        fcntl.flock(self._file, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        assert self._file is not None
        self._file.close()
