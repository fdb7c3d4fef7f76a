"""Scenario fixtures: a manual-clock server, and a ``connect()`` parametrized over the drivers
(each scenario body runs once through psycopg's simple protocol and once through asyncpg's
extended protocol)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import DRIVERS, Client, connect
from tests.scenarios.pg15 import Pg15

Connect = Callable[..., Awaitable[Client]]


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server on the test's loop with the barrier loop off: barriers only via ``tick()``."""
    return await rw_server_factory(manual_clock=True)


@pytest.fixture(params=DRIVERS)
async def client_factory(request: pytest.FixtureRequest, server: Running) -> AsyncIterator[Connect]:
    clients: list[Client] = []

    async def make(user: str = "root", database: str = "dev") -> Client:
        c = await connect(request.param, server, user, database)
        clients.append(c)
        return c

    yield make
    for c in clients:
        await c.close()


@pytest.fixture
async def client(client_factory: Connect) -> Client:
    return await client_factory()


def engine(server: Running) -> Any:
    assert server.server.instance is not None
    return server.server.instance.engine


@pytest.fixture(scope="module")
def cdc_upstream() -> Iterator[Pg15]:
    """A PostgreSQL 15 with wal_level = logical, for the module's postgres-cdc sources (RisingWave
    validates a CDC source against its upstream when it is created), with a table
    ``public.t (id int PRIMARY KEY, v varchar)``."""
    pg = Pg15(wal_level="logical")
    try:
        pg.run("CREATE TABLE public.t (id int PRIMARY KEY, v varchar)")
        yield pg
    finally:
        pg.close()
