"""The data plane's PostgreSQL for this process: one server per (``--postgres-url``,
``--data-dir``) setting, started on first use and shared by every rwshim instance of the
process (the pytest plugin makes many), each instance in a database of its own.

The server (``rwshim.dataplane.postgres``) is started and supervised on a thread of its own with its
own event loop: its child's parent-death signal is tied to the thread that spawned it, and an
instance's loop ends with the instance while the server serves the next one.  Sessions of an
instance connect from the instance's own loop over the unix socket.

Databases: an in-memory instance gets ``rwshim_<n>``, cloned from the template database
``rwshim_template`` (functions.template_sql, built once per server and rebuilt when its version
changes; a clone costs a few milliseconds against ~50 for creating the functions); a durable
instance (``--data-dir``) keeps ``rwshim``; with ``--postgres-url`` the URL's database is used
as it is, with rwshim's schemas created in it.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import itertools
import logging
import os
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from rwshim.dataplane.pgio import PgConn
from rwshim.dataplane.plan import functions
from rwshim.dataplane.postgres import DataPlaneError, DataPlaneServer, data_plane

log = logging.getLogger("rwshim.datapath")

T = TypeVar("T")

TEMPLATE_DB = "rwshim_template"
DURABLE_DB = "rwshim"
# every instance's sessions share the server: a test run opens many
SHARED_SESSIONS = 200
READY_TIMEOUT = 120.0


def _template_comment() -> str:
    return f"rwshim template {functions.TEMPLATE_VERSION}"


class PgHost:
    """One data-plane server and the thread that owns it."""

    _hosts: ClassVar[dict[tuple[str | None, str | None], PgHost]] = {}
    _lock = threading.Lock()
    _counter = itertools.count(1)

    def __init__(self, postgres_url: str | None, data_dir: Path | None) -> None:
        self.postgres_url = postgres_url
        self.data_dir = data_dir
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._started: concurrent.futures.Future[DataPlaneServer] | None = None
        self._template_lock = threading.Lock()
        self._template_ready = False
        self.server: DataPlaneServer | None = None

    @classmethod
    def get(cls, postgres_url: str | None, data_dir: Path | None) -> PgHost:
        key = (postgres_url, None if data_dir is None else str(Path(data_dir).absolute()))
        with cls._lock:
            host = cls._hosts.get(key)
            if host is None:
                host = cls._hosts[key] = PgHost(postgres_url, data_dir)
            return host

    @property
    def external(self) -> bool:
        return self.postgres_url is not None

    def new_database_name(self) -> str:
        if self.external:
            return ""
        if self.data_dir is not None:
            return DURABLE_DB
        return f"rwshim_{os.getpid()}_{next(self._counter)}"

    # --- the server's thread ------------------------------------------------------------

    def _run_on_host(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    def _start_thread(self) -> concurrent.futures.Future[DataPlaneServer]:
        with self._lock:
            if self._started is not None:
                return self._started
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._thread = threading.Thread(
                target=loop.run_forever, name="rwshim-dataplane", daemon=True
            )
            self._thread.start()
            # the cluster of a durable instance is <data-dir>/pg (dataplane.cluster)
            sessions = SHARED_SESSIONS if self.data_dir is None else 100
            self.server = data_plane(
                postgres_url=self.postgres_url, data_dir=self.data_dir, sessions=sessions
            )

            async def start() -> DataPlaneServer:
                assert self.server is not None
                await self.server.start()
                return self.server

            self._started = self._run_on_host(start())
            atexit.register(self._stop_at_exit)
            return self._started

    def _stop_at_exit(self) -> None:
        """A clean stop on the server's own loop before the interpreter goes (otherwise its
        supervisor sees the child killed by the exit and reports a crash)."""
        server, loop = self.server, self._loop
        if server is None or loop is None or loop.is_closed():
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(server.stop(), loop).result(10)

    async def ready(self) -> DataPlaneServer:
        """The server, started if need be, once it accepts sessions (raises DataPlaneError)."""
        started = self._start_thread()
        try:
            server = await asyncio.wrap_future(started)
        except DataPlaneError:
            with self._lock:
                self._started = None  # a later statement tries again
            raise
        if server.unavailable is not None:
            raise DataPlaneError(server.unavailable)
        if not server.alive():
            await asyncio.wrap_future(self._run_on_host(server.wait_ready(READY_TIMEOUT)))
        return server

    def conninfo(self, dbname: str) -> str:
        from psycopg.conninfo import make_conninfo

        assert self.server is not None
        if self.external:
            return make_conninfo(self.server.dsn, application_name="rwshim")
        return make_conninfo(self.server.dsn, dbname=dbname, application_name="rwshim")

    # --- databases ------------------------------------------------------------------------

    async def create_database(self, dbname: str) -> None:
        """Make the instance's database ready: cloned from the template (in memory), created
        once and kept (``--data-dir``), or the URL's own (``--postgres-url``); the template's
        functions are (re)installed where the database is not a fresh clone."""
        server = await self.ready()
        if self.external:
            conn = await PgConn.connect(self.conninfo(""))
            try:
                await conn.script(functions.template_sql())
            finally:
                await conn.close()
            return
        admin = await PgConn.connect(self.conninfo(server.dbname))
        try:
            exists = await admin.query(
                "SELECT 1 FROM pg_database WHERE datname = $1", [dbname.encode()]
            )
            if exists.ntuples:
                fresh = False
            else:
                await self._ensure_template(admin)
                await admin.script(
                    f'CREATE DATABASE "{dbname}" TEMPLATE "{TEMPLATE_DB}" STRATEGY FILE_COPY'
                )
                fresh = True
        finally:
            await admin.close()
        if not fresh:
            conn = await PgConn.connect(self.conninfo(dbname))
            try:
                await conn.script(functions.template_sql())
            finally:
                await conn.close()

    async def _ensure_template(self, admin: PgConn) -> None:
        if self._template_ready:
            return
        res = await admin.query(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = $1",
            [TEMPLATE_DB.encode()],
        )
        current = res.get_value(0, 0) if res.ntuples else None
        if current is not None and current.decode() == _template_comment():
            self._template_ready = True
            return
        build = f"{TEMPLATE_DB}_build_{os.getpid()}"
        await admin.script(f'DROP DATABASE IF EXISTS "{build}"')
        await admin.script(f'CREATE DATABASE "{build}"')
        conn = await PgConn.connect(self.conninfo(build))
        try:
            await conn.script(functions.template_sql())
        finally:
            await conn.close()
        await admin.script(f'DROP DATABASE IF EXISTS "{TEMPLATE_DB}" WITH (FORCE)')
        await admin.script(f'ALTER DATABASE "{build}" RENAME TO "{TEMPLATE_DB}"')
        await admin.script(f"COMMENT ON DATABASE \"{TEMPLATE_DB}\" IS '{_template_comment()}'")
        self._template_ready = True

    def drop_database(self, dbname: str) -> None:
        """Drop an in-memory instance's database, in the background (off every critical
        path); a durable or external one is kept."""
        if self.external or self.data_dir is not None or self._loop is None or not dbname:
            return
        server = self.server

        async def drop() -> None:
            if server is None or not server.alive():
                return
            try:
                admin = await PgConn.connect(self.conninfo(server.dbname))
                try:
                    await admin.script(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
                finally:
                    await admin.close()
            except Exception as e:
                log.debug("dropping %s: %s", dbname, e)

        with contextlib.suppress(RuntimeError):  # the host's loop is gone (interpreter exit)
            self._run_on_host(drop())
