"""The pytest plugin (entry point ``pytest11: rwshim = rwshim.testing``): an in-process rwshim
server per test, with the controls a test needs to make RisingWave's states happen.

    def test_alter_while_creating(rwshim):
        conn = psycopg.connect(rwshim.dsn, autocommit=True)
        ...
        rwshim.hold_backfill(job_id)      # the job stays Creating
        rwshim.tick(3)                    # three barriers

Fixtures:
- ``rwshim``: a fresh server (empty catalog) for each test, on 127.0.0.1 and a port chosen by
  the OS.  Periodic barriers run unless the test is marked ``@pytest.mark.rwshim(manual=True)``
  (or ``manual_clock()`` is called): then barriers happen only on ``tick()``.
- ``rwshim_session``: one server for the whole session (faster; tests share its catalog).

The release answered as is head unless ``@pytest.mark.rwshim(rw_version="2.8")`` (or "3.0")
or ``$RWSHIM_RW_VERSION`` says otherwise (rwshim.common.releases).

No dashboard by default (a test pays nothing for it); ``@pytest.mark.rwshim(dashboard=True)``
starts one on a port the OS picks, with its control actions, at ``rwshim.dashboard_url``.

The server runs on its own event loop in a background thread, so blocking clients (psycopg,
psycopg2, psql) and asyncio clients (asyncpg, on the test's loop) both work; every control
method runs on the server's loop and returns when done.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

from rwshim.common.releases import ENV as RW_VERSION_ENV
from rwshim.config import Config
from rwshim.control import statements as control
from rwshim.instance import Instance
from rwshim.server.listener import Server

T = TypeVar("T")

__all__ = ["RwShim", "rwshim", "rwshim_session"]


class RwShim:
    """A running rwshim server and its control interface."""

    def __init__(
        self,
        *,
        manual: bool = False,
        user: str = "root",
        database: str = "dev",
        dashboard: bool = False,
        rw_version: str | None = None,
    ) -> None:
        self.user = user
        self.database = database
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="rwshim-server", daemon=True
        )
        self._thread.start()
        config = Config(
            host="127.0.0.1",
            port=0,
            log_level="WARNING",
            manual_clock=manual,
            dashboard_port=0 if dashboard else None,
            dashboard_control=dashboard,
            # None: $RWSHIM_RW_VERSION, else head (rwshim.common.releases).
            rw_version=rw_version or os.environ.get(RW_VERSION_ENV) or "head",
        )
        self.server = Server(config)
        try:
            asyncio.run_coroutine_threadsafe(self.server.start(), self._loop).result(30)
        except BaseException:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(30)
            self._loop.close()
            raise

    # --- addresses -----------------------------------------------------------------------

    @property
    def host(self) -> str:
        return self.server.host

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def dsn(self) -> str:
        """libpq key=value connection string (psycopg, psycopg2, psql)."""
        return f"host={self.host} port={self.port} user={self.user} dbname={self.database}"

    @property
    def url(self) -> str:
        """postgresql:// URL (asyncpg, SQLAlchemy)."""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{self.database}"

    @property
    def dashboard_url(self) -> str | None:
        """The dashboard's address (``rwshim(dashboard=True)``), else None."""
        d = self.server.dashboard
        return None if d is None else d.url

    @property
    def instance(self) -> Instance:
        assert self.server.instance is not None
        return self.server.instance

    # --- control -------------------------------------------------------------------------

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the server's loop (where the catalog lives) and return its result."""

        async def run() -> T:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(30)

    def _db(self, database: str | None) -> int | None:
        return None if database is None else self.instance.engine.catalog.database_id(database)

    def tick(self, n: int = 1, database: str | None = None) -> None:
        """``n`` barriers now, on every database (or the one named)."""
        self.call(lambda: self.instance.step(n, self._db(database)))

    def manual_clock(self, manual: bool = True) -> None:
        """Stop the periodic barriers (``tick()`` drives them), or restart them."""
        self.call(lambda: self.instance.set_manual(manual))

    def pause(self, database: str | None = None) -> None:
        """risectl meta pause: the database named, or every database with streaming jobs."""
        self._pause(database, True)

    def resume(self, database: str | None = None) -> None:
        """risectl meta resume (the inverse of ``pause``)."""
        self._pause(database, False)

    def _pause(self, database: str | None, pause: bool) -> None:
        self.call(lambda: control.set_paused(self.instance, database, pause))

    def is_paused(self, database: str = "dev") -> bool:
        return self.call(
            lambda: self.instance.engine.barrier.is_paused(
                self.instance.engine.catalog.database_id(database)
            )
        )

    def hold_backfill(self, job_id: int) -> None:
        """Stop a creating job's backfill: it stays Creating until released."""
        self.call(lambda: control.hold_backfill(self.instance, job_id, True))

    def release_backfill(self, job_id: int) -> None:
        self.call(lambda: control.hold_backfill(self.instance, job_id, False))

    def fault(self, name: str, on: bool = True) -> None:
        """Switch a documented fault (``skip_batch_refresh_admission``,
        ``crash_after_catalog_write``)."""
        self.call(lambda: control.set_fault(self.instance, name, on))

    def restart(self) -> None:
        """A meta-node restart: RisingWave's recovery runs (Initial jobs deleted, pause cleared,
        DEFERRED parallelism applied); sessions waiting on a job get an error."""
        self.call(self.instance.restart)

    def job_status(self, job_id: int) -> str | None:
        """'INITIAL', 'CREATING', 'CREATED', or None when there is no such job."""
        return self.call(lambda: self.instance.engine.catalog.job_status(job_id))

    def push(
        self,
        relation: str,
        *payloads: str | bytes | None,
        key: str | bytes | None = None,
        keys: list[str | bytes | None] | None = None,
        partition: str | None = None,
        database: str | None = None,
    ) -> int:
        """RWSHIM PUSH: deliver ``payloads`` (None: a tombstone) to a source or a table with a
        connector, as its connector would; ``key`` for every message or ``keys`` one each.
        ``relation`` is ``name`` or ``schema.name`` in ``database`` (the fixture's by
        default).  The rows are seen at the next barrier; returns how many messages were
        skipped as unparsable (RisingWave logs and skips them)."""

        def raw(v: str | bytes | None) -> bytes | None:
            return v.encode() if isinstance(v, str) else v

        key_list = keys if keys is not None else [key] * len(payloads)
        messages = [(raw(k), raw(p)) for k, p in zip(key_list, payloads, strict=True)]
        db = database or self.database

        async def run() -> int:
            inst = self.instance
            parts = tuple(relation.split("."))
            ctx = _context(inst, db)
            rel_id = control.find_relation(inst, ctx, parts)
            return await control.push_messages(inst, rel_id, partition, messages)

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(60)

    def jobs(self) -> list[dict[str, Any]]:
        """The rows of ``RWSHIM JOBS`` as dicts."""
        names = [c.name for c in control.JOB_COLUMNS]
        return [
            dict(zip(names, r, strict=True))
            for r in self.call(lambda: control.job_rows(self.instance))
        ]

    def stop(self) -> None:
        if self._loop.is_closed():
            return
        asyncio.run_coroutine_threadsafe(self.server.stop(), self._loop).result(30)
        self.call(self.instance.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(30)
        self._loop.close()


def _context(instance: Instance, database: str) -> Any:
    """A superuser's query context in ``database`` (names resolved on public)."""
    from rwshim.binder.context import QueryContext

    db_id = instance.engine.catalog.database_id(database)
    return QueryContext(db_id, database, 0, "root")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "rwshim(manual=False, dashboard=False, rw_version=None): options of the rwshim fixture"
        " (manual=True: no periodic barriers; dashboard=True: a dashboard at"
        " rwshim.dashboard_url; rw_version='2.8', '3.0' or 'head': the RisingWave release to"
        " answer as, default $RWSHIM_RW_VERSION or head)",
    )


@pytest.fixture
def rwshim(request: pytest.FixtureRequest) -> Iterator[RwShim]:
    """A fresh rwshim server for this test."""
    marker = request.node.get_closest_marker("rwshim")
    kwargs = marker.kwargs if marker is not None else {}
    server = RwShim(
        manual=bool(kwargs.get("manual", False)),
        dashboard=bool(kwargs.get("dashboard", False)),
        rw_version=kwargs.get("rw_version"),
    )
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def rwshim_session() -> Iterator[RwShim]:
    """One rwshim server shared by the whole test session."""
    server = RwShim()
    try:
        yield server
    finally:
        server.stop()
