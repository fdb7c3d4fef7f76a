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

Roles (dataplane/roles.py): ``conninfo`` is rwshim's own connection (the superuser of the
embedded server, or the ``--postgres-url`` user); ``data_conninfo`` is what user statements run
on, logged in as the unprivileged ``roles.DATA_ROLE``, made here once per server (embedded:
always; ``--postgres-url``: when its user is a superuser or has CREATEROLE, with a password kept
in the database; else a role the user made, reached through ``~/.pgpass`` or ``pg_hba.conf``;
else, logged as a warning, the URL's own user).
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

from rwshim.dataplane import roles
from rwshim.dataplane.pgio import ConnectionLost, PgConn, PgFailure
from rwshim.dataplane.plan import functions
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA, quote_literal
from rwshim.dataplane.postgres import DataPlaneError, DataPlaneServer, data_plane

log = logging.getLogger("rwshim.datapath")

T = TypeVar("T")

TEMPLATE_DB = "rwshim_template"
DURABLE_DB = "rwshim"
# every instance's sessions share the server: a test run opens many
SHARED_SESSIONS = 200
DURABLE_SESSIONS = 100
# connections beyond an instance's pool (dataplane/pool.py): its admin connection, the change
# log's, an epoch writer per database, and room for a second instance on a shared server
RESERVED_SESSIONS = 36
READY_TIMEOUT = 120.0


def _template_comment() -> str:
    import hashlib

    grants = roles.database_sql(roles.DATA_ROLE, own_database=True)
    digest = hashlib.sha256(grants.encode()).hexdigest()[:8]
    return f"rwshim template {functions.TEMPLATE_VERSION}-{digest}"


# The data role's password with --postgres-url: made once, kept in the database (in rwfn, which
# the data role cannot read), so that every rwshim process on that database logs in alike.
_SECRET_SQL = f"""
CREATE TABLE IF NOT EXISTS {FUNCTION_SCHEMA}.secret (name text PRIMARY KEY, value text NOT NULL);
INSERT INTO {FUNCTION_SCHEMA}.secret VALUES ('data_role_password',
    pg_catalog.replace(pg_catalog.gen_random_uuid()::text || pg_catalog.gen_random_uuid()::text,
    '-', '')) ON CONFLICT (name) DO NOTHING;
"""


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
        # the role user statements log in as (None: the admin's own, --postgres-url fallback)
        # and its password (None: none needed, or libpq finds it), once settled per server
        self.data_role: str | None = roles.DATA_ROLE
        self._data_password: str | None = None
        self._role_generation: int | None = None
        # the server's connection slots (its max_connections, less the supervisor's)
        self.sessions = SHARED_SESSIONS if data_dir is None else DURABLE_SESSIONS

    @classmethod
    def get(cls, postgres_url: str | None, data_dir: Path | None) -> PgHost:
        key = (postgres_url, None if data_dir is None else str(Path(data_dir).absolute()))
        with cls._lock:
            host = cls._hosts.get(key)
            if host is None:
                host = cls._hosts[key] = PgHost(postgres_url, data_dir)
            return host

    def want_connections(self, pool_size: int) -> None:
        """Room for an instance's pool of ``pool_size`` connections, if the server is not
        started yet (a started one keeps its max_connections: a pool that finds no free
        slot waits as for its own limit, pool.py)."""
        with self._lock:
            if self._started is None:
                self.sessions = max(self.sessions, pool_size + RESERVED_SESSIONS)

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
            self.server = data_plane(
                postgres_url=self.postgres_url, data_dir=self.data_dir, sessions=self.sessions
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
        """rwshim's own connection (creates objects; never runs a user statement)."""
        from psycopg.conninfo import make_conninfo

        assert self.server is not None
        if self.external:
            return make_conninfo(self.server.dsn, application_name="rwshim")
        return make_conninfo(self.server.dsn, dbname=dbname, application_name="rwshim")

    def data_conninfo(self, dbname: str) -> str:
        """The connection user statements run on: the data role, with the lexing settings
        pinned in its startup packet (roles.PINNED)."""
        from psycopg.conninfo import make_conninfo

        options = " ".join(f"-c {k}={v}" for k, v in roles.PINNED.items())
        base = self.conninfo(dbname)
        if self.data_role is None:
            return make_conninfo(base, options=options)
        extra: dict[str, str] = {"user": self.data_role, "options": options}
        if self._data_password is not None:
            extra["password"] = self._data_password
        return make_conninfo(base, **extra)

    # --- the data role ----------------------------------------------------------------------

    async def _ensure_role(self, admin: PgConn) -> None:
        """Make the data role once per server (run on the server's database, embedded)."""
        server = self.server
        generation = None if server is None else server.generation
        if self._role_generation is not None and self._role_generation == generation:
            return
        await admin.script(roles.role_sql(None) + roles.REVOKE_MEMBERSHIPS)
        self._role_generation = generation

    async def _external_role(self, conn: PgConn) -> None:
        """With --postgres-url: the data role when it can be had (see the module's text),
        else the URL's own user, with a warning."""
        res = await conn.query(
            "SELECT r.rolsuper, r.rolcreaterole, current_user,"
            " EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = $1)"
            " FROM pg_catalog.pg_roles r WHERE r.rolname = current_user",
            [roles.DATA_ROLE.encode()],
        )
        superuser = res.get_value(0, 0) == b"t"
        createrole = res.get_value(0, 1) == b"t"
        me = (res.get_value(0, 2) or b"").decode()
        exists = res.get_value(0, 3) == b"t"
        if me == roles.DATA_ROLE:
            raise DataPlaneError(
                f"--postgres-url logs in as {roles.DATA_ROLE}, the role rwshim runs user"
                " statements as: give the URL of a user that owns rwshim's objects"
            )
        if superuser or createrole:
            await conn.script(_SECRET_SQL)
            got = await conn.query(
                f"SELECT value FROM {FUNCTION_SCHEMA}.secret WHERE name = 'data_role_password'"
            )
            password = (got.get_value(0, 0) or b"").decode()
            try:
                await conn.script(roles.role_sql(password))
                if superuser:
                    await conn.script(roles.REVOKE_MEMBERSHIPS)
                self.data_role, self._data_password = roles.DATA_ROLE, password
                return
            except PgFailure as e:
                log.warning("cannot make the data role %s: %s", roles.DATA_ROLE, e.error.message)
        if exists and await self._can_log_in():
            self.data_role, self._data_password = roles.DATA_ROLE, None
            return
        log.warning(
            "the --postgres-url user %s may not create the role %s, and no such role can log"
            " in: user statements run as %s itself (see the README's Security section)",
            me,
            roles.DATA_ROLE,
            me,
        )
        self.data_role, self._data_password = None, None

    async def repair_data_role(self) -> None:
        """A data connection failed to log in: with --postgres-url, another rwshim database
        on the same server may have reset the role's password; set ours again."""
        if not self.external or self._data_password is None:
            return
        conn = await PgConn.connect(self.conninfo(""))
        try:
            with contextlib.suppress(PgFailure):
                await conn.script(roles.role_sql(self._data_password))
        finally:
            await conn.close()

    async def _can_log_in(self) -> bool:
        """Whether the data role logs in without rwshim's password (~/.pgpass, pg_hba)."""
        self.data_role, self._data_password = roles.DATA_ROLE, None
        try:
            probe = await PgConn.connect(self.data_conninfo(""))
        except ConnectionLost:
            return False
        await probe.close()
        return True

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
                await self._external_role(conn)
                if self.data_role is not None:
                    await conn.script(roles.database_sql(self.data_role, own_database=False))
            finally:
                await conn.close()
            return
        admin = await PgConn.connect(self.conninfo(server.dbname))
        try:
            await self._ensure_role(admin)
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
                await conn.script(roles.database_sql(roles.DATA_ROLE, own_database=True))
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
            await conn.script(roles.database_sql(roles.DATA_ROLE, own_database=True))
        finally:
            await conn.close()
        await admin.script(f'DROP DATABASE IF EXISTS "{TEMPLATE_DB}" WITH (FORCE)')
        await admin.script(f'ALTER DATABASE "{build}" RENAME TO "{TEMPLATE_DB}"')
        await admin.script(
            f'COMMENT ON DATABASE "{TEMPLATE_DB}" IS {quote_literal(_template_comment())}'
        )
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
