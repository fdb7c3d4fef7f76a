"""Shared fixtures: a real rwshim ``Server`` on 127.0.0.1 with an OS-chosen port.

- ``rw_server`` / ``rw_server_factory`` (async): the server runs on the test's own event loop;
  use them with asyncio clients (asyncpg, psycopg's AsyncConnection, raw asyncio sockets).
- ``rw_thread_server`` / ``rw_thread_server_factory`` (sync): the server runs on its own
  loop in a background thread; use them with blocking clients (psycopg, psycopg2, psql,
  pgbench) that would otherwise block the loop the server needs.

Both yield a ``Running`` with ``host``, ``port``, ``dsn(...)``, ``url(...)``, ``env(...)`` (PG*
variables for psql/pgbench), ``psql(*args)`` and ``server`` (the ``rwshim.server.listener.Server``,
for
its session registry).  ``ThreadRunning.thread.call(fn)`` runs ``fn`` on the server's loop
(read server state from the test thread safely).  ``tick(n)`` steps ``n`` barriers on every
database (for servers started with ``manual_clock=True``), on the server's own loop.
Factories take ``Config`` field overrides (``password=``, ``auth=``, ``tls_cert=`` ...) and a
``frontend_factory=``; every server is stopped at teardown.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import settings

from rwshim.config import Config
from rwshim.server.listener import Server

# CI runs every property test on the same examples (derandomize), so a green main stays green;
# run without CI set to explore new examples locally.  No shared example database either.
settings.register_profile("ci", derandomize=True, database=None, deadline=None)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@dataclass
class Running:
    server: Server
    host: str
    port: int

    def dsn(self, user: str = "root", database: str = "dev", **params: str) -> str:
        extra = "".join(f" {k}={v}" for k, v in params.items())
        return f"host={self.host} port={self.port} user={user} dbname={database}{extra}"

    def url(self, user: str = "root", database: str = "dev", password: str | None = None) -> str:
        auth = f"{user}:{password}" if password is not None else user
        return f"postgresql://{auth}@{self.host}:{self.port}/{database}"

    def psql(
        self, *args: str, user: str = "root", database: str = "dev", **env: str
    ) -> subprocess.CompletedProcess[str]:
        """Run ``psql -X -v ON_ERROR_STOP=1 <args>`` against this server (blocking: use it
        with the thread server)."""
        return subprocess.run(
            ["psql", "-X", "-v", "ON_ERROR_STOP=1", *args],
            env=self.env(user, database, **env),
            capture_output=True,
            text=True,
            timeout=60,
        )

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` where the server's state may be touched (here: the test's own loop)."""
        return fn()

    def tick(self, n: int = 1) -> None:
        """Step ``n`` barriers on every database (manual clock: the barrier loop is off)."""
        instance = self.server.instance
        assert instance is not None

        def step() -> None:
            for _ in range(n):
                instance.tick()

        self.call(step)

    def env(self, user: str = "root", database: str = "dev", **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            PGHOST=self.host,
            PGPORT=str(self.port),
            PGUSER=user,
            PGDATABASE=database,
            PGCONNECT_TIMEOUT="10",
        )
        env.pop("PGPASSWORD", None)
        env.update(extra)
        return env


def _config(overrides: dict[str, Any]) -> tuple[Config, Any]:
    overrides = dict(overrides)
    factory = overrides.pop("frontend_factory", None)
    overrides.setdefault("host", "127.0.0.1")
    overrides.setdefault("port", 0)
    overrides.setdefault("log_level", "WARNING")
    return Config(**overrides), factory


@pytest.fixture
async def rw_server_factory() -> AsyncIterator[Callable[..., Awaitable[Running]]]:
    servers: list[Server] = []

    async def make(**overrides: Any) -> Running:
        config, factory = _config(overrides)
        server = Server(config, factory)
        await server.start()
        servers.append(server)
        return Running(server, server.host, server.port)

    yield make
    for s in servers:
        await s.stop()


@pytest.fixture
async def rw_server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    return await rw_server_factory()


class ThreadServer:
    """A Server on its own event loop in a daemon thread (for blocking clients)."""

    def __init__(self, config: Config, factory: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.server = Server(config, factory)
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(10)

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` on the server's loop and return its result (to read server state)."""

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


@dataclass
class ThreadRunning(Running):
    thread: ThreadServer | None = None

    def call(self, fn: Callable[[], Any]) -> Any:
        assert self.thread is not None
        return self.thread.call(fn)


@pytest.fixture
def rw_thread_server_factory() -> Iterator[Callable[..., ThreadRunning]]:
    servers: list[ThreadServer] = []

    def make(**overrides: Any) -> ThreadRunning:
        config, factory = _config(overrides)
        ts = ThreadServer(config, factory)
        servers.append(ts)
        return ThreadRunning(ts.server, ts.server.host, ts.server.port, ts)

    yield make
    for ts in servers:
        ts.stop()


@pytest.fixture
def rw_thread_server(rw_thread_server_factory: Callable[..., ThreadRunning]) -> ThreadRunning:
    return rw_thread_server_factory()
