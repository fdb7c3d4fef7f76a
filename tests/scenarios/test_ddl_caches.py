"""What the DDL path keeps between statements follows what its answers depend on, over a real
socket (psycopg's simple protocol and asyncpg's extended one).

- Parsed query trees are kept by text (rwshim.binder.parse): the same CREATE MATERIALIZED VIEW
  text over a table recreated with other columns binds to the new columns, and its stored
  definition is the statement's again.
- A DROP leaves the privilege snapshot of every session alone unless it removed a privilege
  (Privileges.forget_objects): a user granted SELECT on a table loses it with the table.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client, Failure
from tests.scenarios.test_privileges import reject, table_denied


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


async def mv_columns(c: Client, name: str) -> list[tuple[str, str]]:
    rows = await c.rows(
        "SELECT c.name, c.data_type FROM rw_catalog.rw_columns c JOIN"
        " rw_catalog.rw_materialized_views m ON m.id = c.relation_id"
        f" WHERE m.name = '{name}' AND NOT c.is_hidden ORDER BY c.position"
    )
    return [(str(r[0]), str(r[1])) for r in rows]


async def test_the_same_mv_text_binds_to_the_table_it_finds(client: Client) -> None:
    create_mv = "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t"
    await client.run("CREATE TABLE t (a int)")
    assert await client.run(create_mv) == "CREATE_MATERIALIZED_VIEW"
    assert await mv_columns(client, "mv") == [("a", "integer")]
    await client.run("DROP MATERIALIZED VIEW mv")
    await client.run("DROP TABLE t")
    await client.run("CREATE TABLE t (b varchar, a bigint)")
    assert await client.run(create_mv) == "CREATE_MATERIALIZED_VIEW"
    assert await mv_columns(client, "mv") == [("b", "character varying"), ("a", "bigint")]
    rows = await client.rows("SELECT definition FROM rw_catalog.rw_materialized_views")
    assert rows == [(create_mv,)]
    # an alias the first binding did not need is still demanded of a text that needs one
    await client.run("DROP MATERIALIZED VIEW mv")
    bad = "CREATE MATERIALIZED VIEW mv AS SELECT a + 1 FROM t"
    assert await client.fail(bad) == Failure(
        "ERROR",
        "XX000",
        f"{client.envelope}\n\nCaused by:\n  Bind error: An alias must be specified for the 1st"
        " expression (counting from 1) in result relation\n",
    )


async def test_a_dropped_tables_privilege_goes_with_it(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE TABLE t (v int)")
    await root.run("CREATE TABLE other (v int)")
    await root.run("CREATE USER alice")
    alice = await client_factory("alice")
    assert await reject(alice, "SELECT * FROM t") == table_denied(alice, "t", "SELECT")
    assert await root.run("GRANT SELECT ON t TO alice") == "GRANT_PRIVILEGE"
    assert await alice.rows("SELECT count(*) FROM t") == [(0,)]
    # a drop that takes no privilege along: alice keeps hers
    await root.run("DROP TABLE other")
    assert await alice.rows("SELECT count(*) FROM t") == [(0,)]
    await root.run("DROP TABLE t")
    await root.run("CREATE TABLE t (v int)")
    assert await reject(alice, "SELECT * FROM t") == table_denied(alice, "t", "SELECT")
