"""``START TRANSACTION READ ONLY`` over a real socket: queries and FLUSH run, every write is
``Permission denied: cannot execute in a read-only transaction`` (RisingWave's
``txn_write_guard``, src/frontend/src/session/transaction.rs:252-275, asked by DML after
binding, handler/query.rs:502-513, and by the catalog and user-info writers), a CREATE ... IF
NOT EXISTS of an existing object writes nothing and succeeds, nothing refused is made, and
after COMMIT the session writes again.

After RisingWave's e2e_test/batch/transaction/read_only.slt.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


DENIED = (
    "XX000",
    "\n\nCaused by:\n  Permission denied: cannot execute in a read-only transaction\n",
)


async def test_read_only_transaction_refuses_writes(client: Client) -> None:
    await client.run("CREATE USER setsuna")
    await client.run("CREATE TABLE t (v int)")
    await client.run("INSERT INTO t VALUES (1), (2)")
    await client.run("FLUSH")
    await client.simple("START TRANSACTION READ ONLY")
    assert sorted(await client.rows("SELECT * FROM t")) == [(1,), (2,)]
    for sql in (
        "INSERT INTO t VALUES (3)",
        "CREATE TABLE IF NOT EXISTS t2 (v int)",
        "DROP TABLE t",
        "ALTER TABLE t ADD COLUMN v2 int",
        "CREATE USER touma",
        "GRANT ALL PRIVILEGES ON ALL MATERIALIZED VIEWS IN SCHEMA public TO setsuna",
    ):
        assert await cause(client, sql) == DENIED, sql
    await client.run("CREATE TABLE IF NOT EXISTS t (v int)")  # exists: nothing to write
    await client.run("FLUSH")
    await client.simple("COMMIT")
    await client.run("INSERT INTO t VALUES (3)")
    await client.run("FLUSH")
    assert sorted(await client.rows("SELECT * FROM t")) == [(1,), (2,), (3,)]
    # nothing refused was made
    assert await client.rows("SELECT usename FROM pg_catalog.pg_user WHERE usename = 'touma'") == []
    await client.run("CREATE TABLE t2 (v int)")
    # a read-write transaction starts none (the notice): writes go through
    await client.simple("START TRANSACTION READ WRITE")
    await client.run("INSERT INTO t VALUES (4)")
    await client.simple("COMMIT")
