"""RisingWave's privilege model over real sockets, with two or more real users: who may
connect, read, change, create, drop and alter; GRANT / REVOKE with grant options, grantors and
CASCADE; ALTER DEFAULT PRIVILEGES; what the catalogs show afterwards.

Each body runs through psycopg (simple protocol: "Failed to run the query") and asyncpg
(extended protocol: a query or DML statement is bound at Parse, "Failed to prepare the
statement"; other statements fail at Execute, "Failed to execute the statement").  Every
``Permission denied`` is ErrorCode::PermissionDenied (src/frontend/src/error.rs:184-185), which
carries no PostgreSQL code: XX000.  Each expectation cites the RisingWave line it follows.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import psycopg
import pytest

from rwshim.errors import EXECUTE_STATEMENT, PREPARE_STATEMENT, RUN_QUERY
from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client, Failure


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (creates of materialized views finish)."""
    return await rw_server_factory()


SUPERS = ["root=arwd/root", "postgres=arwd/root", "rwadmin=arwd/root"]
SUPERS_DB = ["root=Cc/root", "postgres=Cc/root", "rwadmin=Cc/root"]
SUPERS_SCHEMA = ["root=UC/root", "postgres=UC/root", "rwadmin=UC/root"]
# rw_materialized_views.rs:65 renders a superuser's modes with for_dml_table = true
SUPERS_MV = SUPERS


def report(envelope: str, *chain: str) -> str:
    """An error as the client reads it: the envelope and RisingWave's pretty report."""
    if len(chain) == 1:
        return f"{envelope}\n\nCaused by:\n  {chain[0]}\n"
    lines = "".join(f"{i:>3}: {m}\n" for i, m in enumerate(chain, start=1))
    return f"{envelope}\n\nCaused by these errors (recent errors listed first):\n{lines}"


def envelope(c: Client, *, bound: bool) -> str:
    """The envelope of an error: queries and DML are bound at Parse on the extended path."""
    if c.name == "psycopg":
        return RUN_QUERY
    return PREPARE_STATEMENT if bound else EXECUTE_STATEMENT


async def reject(c: Client, sql: str) -> Failure:
    """The error of a statement, whichever protocol step raised it."""
    if c.name == "asyncpg":
        conn: Any = c.conn  # type: ignore[attr-defined]
        try:
            await (await conn.prepare(sql)).fetch()
        except asyncpg.PostgresError as e:
            return Failure(str(e.severity), str(e.sqlstate), str(e.message))
        raise AssertionError(f"{sql!r} succeeded")
    return await c.fail(sql)


async def reject_simple(c: Client, sql: str) -> Failure:
    """The error of a statement sent through the simple query protocol by either driver (for
    statements whose extended-protocol step differs in rwshim: a SHOW is run at Describe and
    a CREATE MATERIALIZED VIEW bound at Execute, where RisingWave does the opposite)."""
    if c.name == "asyncpg":
        conn: Any = c.conn  # type: ignore[attr-defined]
        try:
            await conn.execute(sql)
        except asyncpg.PostgresError as e:
            return Failure(str(e.severity), str(e.sqlstate), str(e.message))
        raise AssertionError(f"{sql!r} succeeded")
    return await c.fail(sql)


def denied(c: Client, detail: str, *, bound: bool = False, simple: bool = False) -> Failure:
    env = RUN_QUERY if simple else envelope(c, bound=bound)
    return Failure("ERROR", "XX000", report(env, f"Permission denied: {detail}"))


def table_denied(c: Client, name: str, action: str, *, simple: bool = False) -> Failure:
    # privilege.rs:44-62: PbAction's name printed with {:?}
    detail = f'permission denied for table or materialized view "{name}": "{action}"'
    return denied(c, detail, bound=True, simple=simple)


async def acl(
    c: Client, catalog: str, name: str, column: str = "acl", key: str = "name"
) -> list[str]:
    """An ACL column, read as text (asyncpg cannot introspect varchar[]: README's clients
    table)."""
    rows = await c.rows(
        f"SELECT array_to_string({column}, ' ') FROM {catalog} WHERE {key} = '{name}'"
    )
    assert len(rows) == 1, rows
    return str(rows[0][0]).split(" ")


async def users(root: Client, *names: str) -> None:
    for n in names:
        assert await root.run(f"CREATE USER {n}") == "CREATE_USER"


# --- connecting -----------------------------------------------------------------------------


async def _refused(server: Running, user: str, database: str = "dev") -> tuple[str, str, str]:
    with pytest.raises(asyncpg.PostgresError) as e:
        await asyncpg.connect(host=server.host, port=server.port, user=user, database=database)
    return str(e.value.severity), str(e.value.sqlstate), str(e.value.message)


async def test_connecting_needs_login_and_connect(server: Running) -> None:
    root = await psycopg.AsyncConnection.connect(server.dsn("root", "dev"), autocommit=True)
    await root.execute("CREATE USER alice")
    await root.execute("CREATE USER carol NOLOGIN PASSWORD 'pw'")
    await root.execute("CREATE DATABASE db2")
    await root.execute("CREATE DATABASE db3 WITH OWNER = alice")
    # create_user.rs:87-96: CONNECT WITH GRANT OPTION on the session's database, from the
    # session's user; nothing on other databases
    cur = await root.execute("SELECT name, acl FROM rw_catalog.rw_databases")
    acls = dict(await cur.fetchall())
    assert acls["dev"] == [*SUPERS_DB, "alice=c*/root", "carol=c*/root"]
    assert acls["db2"] == SUPERS_DB
    # session.rs:1669-1670, before any password exchange (carol has a password and is asked
    # for none); sent FATAL as a startup error (pg_protocol.rs:514-526)
    assert await _refused(server, "carol") == (
        "FATAL",
        "XX000",
        "Failed to start a new session: Permission denied: User carol is not allowed to login",
    )
    # session.rs:1671-1674: a non-superuser needs CONNECT, unless it owns the database
    assert await _refused(server, "alice", "db2") == (
        "FATAL",
        "XX000",
        "Failed to start a new session: Permission denied: User does not have CONNECT privilege.",
    )
    owner = await asyncpg.connect(host=server.host, port=server.port, user="alice", database="db3")
    assert await owner.fetchval("SELECT current_database()") == "db3"
    await owner.close()
    cur = await root.execute("GRANT CONNECT ON DATABASE db2 TO alice")
    assert cur.statusmessage == "GRANT_PRIVILEGE"
    c = await asyncpg.connect(host=server.host, port=server.port, user="alice", database="db2")
    assert await c.fetchval("SELECT current_user") == "alice"
    await c.close()
    cur = await root.execute("ALTER USER carol LOGIN")
    assert cur.statusmessage == "UPDATE_USER"
    c = await asyncpg.connect(
        host=server.host, port=server.port, user="carol", database="dev", password="pw"
    )
    await c.close()
    await root.execute("REVOKE CONNECT ON DATABASE db2 FROM alice")
    assert await _refused(server, "alice", "db2") == (
        "FATAL",
        "XX000",
        "Failed to start a new session: Permission denied: User does not have CONNECT privilege.",
    )
    # psycopg (libpq) sees the same refusal
    with pytest.raises(psycopg.OperationalError) as e:
        await psycopg.AsyncConnection.connect(server.dsn("carol", "dev") + " password=wrong")
    assert "Failed to start a new session: Permission denied: User carol" not in str(e.value)
    await root.execute("ALTER USER carol NOLOGIN")
    with pytest.raises(psycopg.OperationalError) as e:
        await psycopg.AsyncConnection.connect(server.dsn("carol", "dev"))
    assert "FATAL:  Failed to start a new session: Permission denied: User carol is not allowed " \
        "to login" in str(e.value)  # fmt: skip
    await root.close()


# --- reading and changing rows --------------------------------------------------------------


async def test_reads_and_dml_need_their_privilege(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE TABLE t (v int)")
    await root.run("INSERT INTO t VALUES (1)")
    await root.run("FLUSH")
    await users(root, "alice")
    alice = await client_factory("alice")
    # binder/relation/table_or_source.rs:472-524 (SELECT) and binder/insert.rs:115-126,
    # update.rs:135-146, delete.rs:78-89 (their action), before the statement runs
    for sql, action in [
        ("SELECT * FROM t", "SELECT"),
        ("INSERT INTO t VALUES (2)", "INSERT"),
        ("UPDATE t SET v = 3", "UPDATE"),
        ("DELETE FROM t", "DELETE"),
    ]:
        assert await reject(alice, sql) == table_denied(alice, "t", action)
    assert await root.run("GRANT SELECT ON t TO alice") == "GRANT_PRIVILEGE"
    assert await alice.rows("SELECT * FROM t") == [(1,)]
    # reading another database needs CONNECT on it too (table_or_source.rs:503-515)
    await root.run("CREATE DATABASE db2")
    other = await client_factory("root", "db2")
    await other.run("CREATE TABLE t2 (v int)")
    await other.run("GRANT SELECT ON t2 TO alice")
    assert await reject(alice, "SELECT * FROM db2.public.t2") == denied(
        alice, 'permission denied for database "db2"', bound=True
    )
    await root.run("GRANT CONNECT ON DATABASE db2 TO alice")
    assert await alice.rows("SELECT count(*) FROM db2.public.t2") == [(0,)]
    # the target needs INSERT even when the rows come from a table it may read
    assert await reject(alice, "INSERT INTO t SELECT v FROM t") == table_denied(
        alice, "t", "INSERT"
    )
    assert await root.run("GRANT INSERT, UPDATE, DELETE ON TABLE t TO alice") == "GRANT_PRIVILEGE"
    # each write is read by the next statement: committed before it returns
    await alice.run("SET RW_IMPLICIT_FLUSH TO true")
    assert await alice.run("INSERT INTO t SELECT v + 1 FROM t") == "INSERT 0 1"
    assert await alice.run("UPDATE t SET v = v * 10") == "UPDATE 2"
    assert await alice.run("DELETE FROM t WHERE v = 20") == "DELETE 1"
    assert await root.rows("SELECT v FROM t") == [(10,)]
    # system_catalog/mod.rs get_acl_items: a table's ACL holds the DML modes
    assert await acl(root, "rw_catalog.rw_tables", "t") == [*SUPERS, "alice=arwd/root"]
    assert await root.run("REVOKE ALL PRIVILEGES ON t FROM alice") == "REVOKE_PRIVILEGE"
    assert await reject(alice, "SELECT * FROM t") == table_denied(alice, "t", "SELECT")
    assert await acl(root, "rw_catalog.rw_tables", "t") == SUPERS


async def test_views_and_materialized_views_read_as_their_owner(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE TABLE t (v int)")
    await root.run("INSERT INTO t VALUES (1), (2)")
    await root.run("CREATE VIEW v AS SELECT v FROM t WHERE v > 1")
    await root.run("CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM t")
    await users(root, "alice")
    alice = await client_factory("alice")
    assert await reject(alice, "SELECT * FROM v") == denied(
        alice, 'permission denied for view "v": "SELECT"', bound=True
    )
    assert await reject(alice, "SELECT * FROM m") == table_denied(alice, "m", "SELECT")
    assert await root.run("GRANT SELECT ON VIEW v TO alice") == "GRANT_PRIVILEGE"
    assert await root.run("GRANT SELECT ON MATERIALIZED VIEW m TO alice") == "GRANT_PRIVILEGE"
    # a view's query is not checked against the reader (table_or_source.rs:477-480: security
    # invoker is disabled for views)
    assert await alice.rows("SELECT * FROM v") == [(2,)]
    assert await alice.rows("SELECT n FROM m") == [(2,)]
    assert await reject(alice, "SELECT * FROM t") == table_denied(alice, "t", "SELECT")
    assert await acl(root, "rw_catalog.rw_views", "v") == [*SUPERS, "alice=r/root"]
    # a materialized view's grants are read-only (acl/mod.rs ALL_AVAILABLE_MVIEW_MODES)
    assert await acl(root, "rw_catalog.rw_materialized_views", "m") == [*SUPERS, "alice=r/root"]


SUPERS_READ = ["root=r/root", "postgres=r/root", "rwadmin=r/root"]


async def test_sources_and_sinks_take_select_only(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE SOURCE src (v int) WITH (connector = 'datagen')")
    await root.run("CREATE TABLE t (v int)")
    await root.run("CREATE SINK sk FROM t WITH (connector = 'blackhole')")
    await users(root, "alice", "bob")
    alice = await client_factory("alice")
    bob = await client_factory("bob")
    # privilege.rs:44-62: the source's own kind in the text
    assert await reject(alice, "SELECT * FROM src") == denied(
        alice, 'permission denied for source "src": "SELECT"', bound=True
    )
    # acl/mod.rs:117-119: sources and sinks take SELECT only (user_privilege.rs:25-44)
    invalid = Failure(
        "ERROR",
        "XX000",
        report(
            envelope(root, bound=False), "Bind error: Invalid privilege type for the given object."
        ),
    )
    assert await reject(root, "GRANT DELETE ON SINK sk TO alice") == invalid
    assert await root.run("GRANT ALL ON SOURCE src TO alice") == "GRANT_PRIVILEGE"
    assert await root.run("GRANT SELECT ON SINK sk TO alice WITH GRANT OPTION") == "GRANT_PRIVILEGE"
    # the grant lets alice read it (a datagen source produces rows at barriers: how many is
    # not this test's business, that it answers one count is)
    [(n,)] = await alice.rows("SELECT count(*) FROM src")
    assert isinstance(n, int) and n >= 0
    # a grant option passes on (controller/user.rs:286-322); GRANT ... GRANTED BY still
    # records the session's user (handle_privilege.rs:360-362)
    assert await alice.run("GRANT SELECT ON SINK sk TO bob") == "GRANT_PRIVILEGE"
    assert await root.run("GRANT SELECT ON SOURCE src TO bob GRANTED BY alice") == "GRANT_PRIVILEGE"
    # system_catalog/mod.rs get_acl_items with for_dml_table = false (rw_sources.rs:97,
    # rw_sinks.rs:103): a superuser's item is its read mode only
    assert await acl(root, "rw_catalog.rw_sources", "src") == [
        *SUPERS_READ, "alice=r/root", "bob=r/root"
    ]  # fmt: skip
    assert await acl(root, "rw_catalog.rw_sinks", "sk") == [
        *SUPERS_READ, "alice=r*/root", "bob=r/alice"
    ]  # fmt: skip
    assert await acl(root, "rw_catalog.rw_relations", "sk") == [
        *SUPERS_READ, "alice=r*/root", "bob=r/alice"
    ]  # fmt: skip
    # a class name finds a sink (root_catalog.rs:1233-1260)
    assert await bob.rows(
        "SELECT has_table_privilege('sk', 'SELECT'), has_table_privilege('src', 'SELECT'),"
        " has_table_privilege('t', 'SELECT')"
    ) == [(True, True, False)]
    # SHOW COLUMNS FROM a sink needs USAGE on its schema, then SELECT (show.rs:74-95)
    assert await reject_simple(bob, "SHOW COLUMNS FROM sk") == denied(
        bob, 'permission denied for schema "public": "USAGE"', simple=True
    )
    # drop_sink.rs / drop_source.rs: the owner's, whatever is granted
    relation = denied(
        alice,
        "Only the relation owner, the schema owner, and superuser can drop or alter a relation.",
    )
    assert await reject(alice, "DROP SINK sk") == relation
    assert await reject(alice, "DROP SOURCE src") == relation
    assert await root.run("REVOKE SELECT ON SINK sk FROM alice CASCADE") == "REVOKE_PRIVILEGE"
    assert await root.run("REVOKE SELECT ON SOURCE src FROM alice") == "REVOKE_PRIVILEGE"
    assert await acl(root, "rw_catalog.rw_sinks", "sk") == SUPERS_READ
    assert await acl(root, "rw_catalog.rw_sources", "src") == [*SUPERS_READ, "bob=r/root"]
    assert await bob.rows("SELECT has_table_privilege('sk', 'SELECT')") == [(False,)]
    assert await reject(alice, "SELECT * FROM src") == denied(
        alice, 'permission denied for source "src": "SELECT"', bound=True
    )


# --- creating ---------------------------------------------------------------------------


async def test_creating_needs_create_on_the_schema_or_database(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE TABLE t (v int)")
    await users(root, "alice")
    alice = await client_factory("alice")
    # session.rs:1188-1213 get_database_and_schema_id_for_create
    schema_denied = denied(alice, 'permission denied for schema "public": "CREATE"')
    assert await reject(alice, "CREATE TABLE x (a int)") == schema_denied
    assert await reject(alice, "CREATE VIEW w AS SELECT 1 AS a") == schema_denied
    # create_schema.rs:78-83: CREATE on the database
    assert await reject(alice, "CREATE SCHEMA s") == denied(
        alice, 'permission denied for database "dev": "CREATE"'
    )
    # catalog/mod.rs:94-103: the system schemas are never writable (checked first)
    assert await reject(alice, "CREATE TABLE rw_catalog.x (a int)") == Failure(
        "ERROR",
        "XX000",
        report(
            envelope(alice, bound=False),
            'Protocol error: permission denied to write on "rw_catalog", System catalog '
            "modifications are currently disallowed.",
        ),
    )
    assert await root.run("GRANT CREATE ON SCHEMA public TO alice") == "GRANT_PRIVILEGE"
    assert await alice.run("CREATE TABLE x (a int)") == "CREATE_TABLE"
    # create_mv.rs binds the query first: SELECT on what it reads
    assert await reject_simple(
        alice, "CREATE MATERIALIZED VIEW mx AS SELECT * FROM t"
    ) == table_denied(alice, "t", "SELECT", simple=True)
    # and so do a view's, a sink's (FROM t reads as SELECT * FROM t, create_sink.rs) and
    # CREATE TABLE AS's (create_table_as.rs) queries
    for sql in [
        "CREATE VIEW vx AS SELECT * FROM t",
        "CREATE SINK kx FROM t WITH (connector = 'blackhole')",
        "CREATE SINK ky AS SELECT v FROM t WITH (connector = 'blackhole')",
        "CREATE TABLE tx AS SELECT * FROM t",
    ]:
        assert await reject_simple(alice, sql) == table_denied(alice, "t", "SELECT", simple=True)
    # create_index.rs:160-166: only the table's owner indexes it
    assert await reject(alice, "CREATE INDEX i ON t (v)") == denied(
        alice, 'must be owner of table "t"'
    )
    assert await alice.run("CREATE INDEX xi ON x (a)") == "CREATE_INDEX"
    assert await root.run("GRANT CREATE ON DATABASE dev TO alice") == "GRANT_PRIVILEGE"
    assert await alice.run("CREATE SCHEMA s") == "CREATE_SCHEMA"
    assert await alice.run("CREATE TABLE s.y (a int)") == "CREATE_TABLE"
    alice_id = (await root.rows("SELECT id FROM rw_catalog.rw_users WHERE name = 'alice'"))[0][0]
    owners = await root.rows(
        "SELECT r.name, r.owner FROM rw_catalog.rw_relations r WHERE r.name IN ('x', 'xi', 'y')"
        " ORDER BY r.name"
    )
    assert owners == [("x", alice_id), ("xi", alice_id), ("y", alice_id)]
    assert (await root.rows("SELECT owner FROM rw_catalog.rw_schemas WHERE name = 's'")) == [
        (alice_id,)
    ]
    assert await acl(root, "rw_catalog.rw_databases", "dev") == [*SUPERS_DB, "alice=Cc*/root"]


# --- dropping and altering --------------------------------------------------------------


async def test_drop_and_alter_are_the_owners(client_factory: Connect) -> None:
    root = await client_factory()
    await users(root, "alice", "bob")
    await root.run("GRANT CREATE ON SCHEMA public TO alice, bob")
    await root.run("GRANT CREATE ON DATABASE dev TO bob")
    alice = await client_factory("alice")
    bob = await client_factory("bob")
    await alice.run("CREATE TABLE t (v int)")
    await bob.run("CREATE SCHEMA bs")
    await root.run("GRANT CREATE ON SCHEMA bs TO alice")
    await alice.run("CREATE TABLE bs.u (v int)")
    # privilege.rs:104-138: the relation's owner, its schema's owner or a superuser
    relation = denied(
        bob,
        "Only the relation owner, the schema owner, and superuser can drop or alter a relation.",
    )
    assert await reject(bob, "DROP TABLE t") == relation
    assert await reject(bob, "ALTER TABLE t RENAME TO t2") == relation
    assert await reject(bob, "ALTER TABLE t SET PARALLELISM = 2") == relation
    assert await reject(bob, "WAIT TABLE t") == relation  # wait.rs:47-84
    # alter_utils.rs:55-100 (backfill parallelism), alter_streaming_rate_limit.rs:42-120,
    # alter_set_schema.rs
    assert await reject(bob, "ALTER TABLE t SET BACKFILL_PARALLELISM = 2") == relation
    assert await reject(bob, "ALTER TABLE t SET DML_RATE_LIMIT = 10") == relation
    await root.run("CREATE SCHEMA other")
    assert await reject(bob, "ALTER TABLE t SET SCHEMA other") == relation
    # alter_set_schema.rs:56-58: its own schema is a no-op, checked before the privilege
    assert await bob.run("ALTER TABLE t SET SCHEMA public") == "ALTER_TABLE"
    # privilege.rs:148-157: a schema or database only by its owner or a superuser
    db_schema = denied(
        alice, "Only the owner, and superuser can drop or alter a schema or database."
    )
    assert await reject(alice, "DROP SCHEMA bs CASCADE") == db_schema
    # alter_database_param.rs:35-41
    assert await reject(alice, "ALTER DATABASE dev SET barrier_interval_ms = 2000") == db_schema
    # alter_database_param.rs:94, before the group is looked at
    assert await reject(alice, "ALTER DATABASE dev SET RESOURCE_GROUP = 'g' DEFERRED") == db_schema
    # the schema's owner may drop what others made in it
    assert await bob.run("DROP TABLE bs.u") == "DROP_TABLE"
    assert await alice.run("ALTER TABLE t RENAME TO t2") == "ALTER_TABLE"
    assert await root.rows("SELECT name FROM rw_catalog.rw_tables ORDER BY name") == [("t2",)]
    # alter_swap_rename.rs:29-45: the owner of both, or a superuser
    await bob.run("CREATE TABLE bt (v int)")
    assert await reject(alice, "ALTER TABLE t2 SWAP WITH bt") == denied(
        alice, "alice is not super user and not the owner of the objects."
    )
    assert await alice.run("DROP TABLE t2") == "DROP_TABLE"
    assert await bob.run("DROP SCHEMA bs") == "DROP_SCHEMA"


async def test_alter_owner_needs_create_for_the_new_owner(client_factory: Connect) -> None:
    root = await client_factory()
    await users(root, "alice", "bob")
    await root.run("GRANT CREATE ON SCHEMA public TO alice")
    alice = await client_factory("alice")
    await alice.run("CREATE TABLE t (v int)")
    # alter_owner.rs:32-46: unless a superuser alters, the new owner needs CREATE on the schema
    assert await reject(alice, "ALTER TABLE t OWNER TO bob") == denied(
        alice, "Require new owner to have create privilege on the object."
    )
    assert await alice.run("ALTER TABLE t OWNER TO alice") == "ALTER_TABLE"  # same owner
    assert await root.run("ALTER TABLE t OWNER TO bob") == "ALTER_TABLE"
    bob_id = (await root.rows("SELECT id FROM rw_catalog.rw_users WHERE name = 'bob'"))[0][0]
    assert await root.rows("SELECT owner FROM rw_catalog.rw_tables WHERE name = 't'") == [(bob_id,)]
    # alter_owner.rs:70-80: an admin user's objects keep their owner
    rwadmin = await client_factory("rwadmin")
    await rwadmin.run("CREATE TABLE at (v int)")
    assert await reject(root, "ALTER TABLE at OWNER TO root") == denied(
        root, "Cannot change owner of at owned by admin user rwadmin"
    )


async def test_comment_needs_ownership(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE TABLE t (v int)")
    await users(root, "alice")
    alice = await client_factory("alice")
    # comment.rs:45-86: CREATE on the schema first, then the owner
    assert await reject(alice, "COMMENT ON TABLE t IS 'x'") == denied(
        alice, 'permission denied for schema "public": "CREATE"'
    )
    await root.run("GRANT CREATE ON SCHEMA public TO alice")
    assert await reject(alice, "COMMENT ON TABLE t IS 'x'") == denied(
        alice, "must be owner of relation t"
    )
    assert await root.run("COMMENT ON TABLE t IS 'x'") == "COMMENT"


# --- GRANT / REVOKE -----------------------------------------------------------------------


async def test_grant_options_grantors_and_cascade(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE TABLE t (v int)")
    await users(root, "alice", "bob", "carol")
    alice = await client_factory("alice")
    bob = await client_factory("bob")
    await root.run("GRANT SELECT ON t TO alice WITH GRANT OPTION")
    await root.run("GRANT INSERT ON t TO alice")
    # a grantor passes on what it holds WITH GRANT OPTION; the rest is skipped without an
    # error (controller/user.rs:286-322)
    assert await alice.run("GRANT SELECT, INSERT ON t TO bob") == "GRANT_PRIVILEGE"
    assert await bob.run("GRANT SELECT ON t TO carol") == "GRANT_PRIVILEGE"
    assert await acl(root, "rw_catalog.rw_tables", "t") == [
        *SUPERS,
        "alice=ar*/root",
        "bob=r/alice",
    ]
    assert await bob.rows("SELECT count(*) FROM t") == [(0,)]
    # controller/user.rs:364-373: only a superuser revokes what another user granted
    assert await reject(alice, "REVOKE SELECT ON t FROM bob GRANTED BY root") == denied(
        alice, "user alice is not super, can't revoke privileges for root"
    )
    # controller/user.rs:413-440: nor what it holds no grant option for
    assert await reject(bob, "REVOKE SELECT ON t FROM carol") == denied(
        bob, "user bob don't have privileges [Select] or grant option"
    )
    # controller/utils.rs:1314-1330: RESTRICT (the default) refuses while others depend on it
    assert await reject(root, "REVOKE SELECT ON t FROM alice") == denied(
        root, "privileges granted to 1 other ones."
    )
    assert (
        await root.run("REVOKE GRANT OPTION FOR SELECT ON t FROM alice CASCADE")
        == "REVOKE_PRIVILEGE"
    )
    assert await acl(root, "rw_catalog.rw_tables", "t") == [*SUPERS, "alice=ar/root", "bob=r/alice"]
    assert await root.run("REVOKE SELECT ON t FROM alice CASCADE") == "REVOKE_PRIVILEGE"
    assert await acl(root, "rw_catalog.rw_tables", "t") == [*SUPERS, "alice=a/root"]
    assert await reject(bob, "SELECT * FROM t") == table_denied(bob, "t", "SELECT")
    # revoking what was never granted is a no-op (controller/user.rs:463-466)
    assert await root.run("REVOKE SELECT ON t FROM carol") == "REVOKE_PRIVILEGE"


async def test_drop_user_refused_while_it_owns_or_granted(client_factory: Connect) -> None:
    root = await client_factory()
    await users(root, "alice", "bob")
    await root.run("GRANT CREATE ON SCHEMA public TO alice")
    alice = await client_factory("alice")
    await alice.run("CREATE TABLE t (v int)")
    await alice.run("GRANT SELECT ON t TO bob")
    await alice.close()
    # controller/user.rs:180-191 and 193-203 (after the frontend's checks, drop_user.rs)
    assert await reject(root, "DROP USER alice") == denied(
        root, "drop user alice is not allowed, because it owns 1 objects"
    )
    await root.run("ALTER TABLE t OWNER TO root")
    assert await reject(root, "DROP USER alice") == denied(
        root, "drop user alice is not allowed, because it granted 1 privileges to others"
    )
    await root.run("REVOKE SELECT ON t FROM bob")
    assert await root.run("DROP USER alice") == "DROP_USER"
    # controller/user.rs:173-178
    await root.run("CREATE USER boss SUPERUSER")
    boss = await client_factory("boss")
    assert await reject(boss, "DROP USER root") == denied(
        boss, "drop default super user root is not allowed"
    )
    assert await root.rows("SELECT name FROM rw_catalog.rw_users ORDER BY id") == [
        ("root",), ("postgres",), ("rwadmin",), ("bob",), ("boss",)
    ]  # fmt: skip


async def test_grant_errors(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE TABLE t (v int)")
    await root.run("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
    await root.run("CREATE SOURCE src (v int) WITH (connector = 'datagen')")
    await users(root, "alice")

    def err(*chain: str) -> Failure:
        return Failure("ERROR", "XX000", report(envelope(root, bound=False), *chain))

    def not_found(kind: str, name: str, code: str = "42704") -> Failure:
        return Failure(
            "ERROR",
            code,
            report(envelope(root, bound=False), "Catalog error", f"{kind} not found: {name}"),
        )

    # handle_privilege.rs:376-391, 472-483
    assert await reject(root, "GRANT SELECT ON t TO nobody") == err(
        'Invalid input syntax: User "nobody" does not exist'
    )
    assert await reject(root, "GRANT SELECT ON t TO alice GRANTED BY nobody") == err(
        'Invalid input syntax: Grantor "nobody" does not exist'
    )
    # user_privilege.rs:25-44: a mode the object kind does not take
    invalid = err("Bind error: Invalid privilege type for the given object.")
    assert await reject(root, "GRANT INSERT ON SOURCE src TO alice") == invalid
    assert await reject(root, "GRANT INSERT ON MATERIALIZED VIEW m TO alice") == invalid
    assert await reject(root, "GRANT SELECT ON DATABASE dev TO alice") == invalid
    assert await reject(root, "GRANT ALL ON SEQUENCE sq TO alice") == invalid
    # handle_privilege.rs:72-130
    assert await reject(root, "GRANT SELECT ON MATERIALIZED VIEW t TO alice") == err(
        "Invalid input syntax: t is not a materialized view"
    )
    assert await reject(root, "GRANT SELECT ON TABLE m TO alice") == err(
        "Invalid input syntax: m is not a table"
    )
    assert await reject(root, "GRANT SELECT ON nope TO alice") == not_found("table", "nope")
    assert await reject(root, "GRANT SELECT ON SINK nope TO alice") == not_found("sink", "nope")
    assert await reject(root, "GRANT USAGE ON SECRET nope TO alice") == not_found("secret", "nope")
    assert await reject(root, "GRANT CREATE ON SCHEMA nope TO alice") == not_found("schema", "nope")
    assert await reject(root, "GRANT CONNECT ON DATABASE nope TO alice") == not_found(
        "database", "nope", "3D000"
    )
    # nothing was recorded
    assert await acl(root, "rw_catalog.rw_tables", "t") == SUPERS
    assert await acl(root, "rw_catalog.rw_materialized_views", "m") == SUPERS_MV


async def test_grant_parse_errors(client: Client) -> None:
    def parse_error(message: str) -> Failure:
        env = "Failed to run the query" if client.name == "psycopg" else PREPARE_STATEMENT
        return Failure("ERROR", "XX000", report(env, f"sql parser error: {message}"))

    # parse_grant_permission (parser.rs:5831-5858) through expect_one_of_keywords
    # (parser.rs:1850-1857)
    assert await reject(client, "GRANT FOO ON t TO u") == parse_error(
        "expected one of CONNECT or CREATE or DELETE or EXECUTE or INSERT or REFERENCES or "
        "SELECT or TEMPORARY or TRIGGER or TRUNCATE or UPDATE or USAGE, found: FOO\n"
        "LINE 1: GRANT FOO ON t TO u\n              ^"
    )
    # parse_revoke (parser.rs:5877-5879)
    assert await reject(client, "REVOKE SELECT ON t FROM u CASCADE RESTRICT") == parse_error(
        "Cannot specify both CASCADE and RESTRICT in REVOKE\n"
        "LINE 1: REVOKE SELECT ON t FROM u CASCADE RESTRICT\n"
        "                                                  ^"
    )


async def test_grant_of_an_unhandled_privilege_panics(server: Running) -> None:
    """GRANT REFERENCES parses but reaches get_prost_action's unreachable!()
    (user_privilege.rs:88-101): pgwire answers the panic and closes the connection
    (pgwire/src/error.rs:67-70, pg_protocol.rs:537-551)."""
    conn = await psycopg.AsyncConnection.connect(server.dsn("root", "dev"), autocommit=True)
    await conn.execute("CREATE TABLE t (v int)")
    with pytest.raises(psycopg.Error) as e:
        await conn.execute("GRANT REFERENCES ON t TO root")
    d = e.value.diag
    assert (d.severity, d.sqlstate, d.message_primary) == (
        "ERROR",
        "XX000",
        "Panicked when handling the request: internal error: entered unreachable code\n"
        "This is a bug. We would appreciate a bug report at:\n"
        "  https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Fbug&"
        "template=bug_report.yml",
    )
    assert conn.closed or conn.broken
    with pytest.raises(psycopg.OperationalError):
        await conn.execute("SELECT 1")
    await conn.close()


async def test_all_objects_in_a_schema(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE SCHEMA s")
    await root.run("CREATE TABLE s.a (v int)")
    await root.run("CREATE TABLE s.b (v int)")
    await root.run("CREATE MATERIALIZED VIEW s.m AS SELECT * FROM s.a")
    await root.run("CREATE TABLE public.c (v int)")
    await users(root, "alice")
    # handle_privilege.rs:291-300: ALL TABLES takes the schema's user tables, not its MVs
    assert await root.run("GRANT SELECT ON ALL TABLES IN SCHEMA s TO alice") == "GRANT_PRIVILEGE"
    assert await acl(root, "rw_catalog.rw_tables", "a") == [*SUPERS, "alice=r/root"]
    assert await acl(root, "rw_catalog.rw_tables", "b") == [*SUPERS, "alice=r/root"]
    assert await acl(root, "rw_catalog.rw_tables", "c") == SUPERS
    assert await acl(root, "rw_catalog.rw_materialized_views", "m") == SUPERS_MV
    assert (
        await root.run("GRANT ALL ON ALL MATERIALIZED VIEWS IN SCHEMA s TO alice")
        == "GRANT_PRIVILEGE"
    )
    assert await acl(root, "rw_catalog.rw_materialized_views", "m") == [*SUPERS_MV, "alice=r/root"]
    assert await root.run("REVOKE ALL ON ALL TABLES IN SCHEMA s FROM alice") == "REVOKE_PRIVILEGE"
    assert await acl(root, "rw_catalog.rw_tables", "a") == SUPERS


# --- ALTER DEFAULT PRIVILEGES -------------------------------------------------------------


async def test_default_privileges_apply_to_objects_created_later(
    client_factory: Connect,
) -> None:
    """e2e_test/ddl/default_privilege.slt's rules, with the grants checked in the catalog."""
    root = await client_factory()
    await users(root, "john", "luke")
    await root.run("CREATE SCHEMA old")
    assert (
        await root.run("ALTER DEFAULT PRIVILEGES GRANT ALL PRIVILEGES ON SCHEMAS TO john")
        == "ALTER_DEFAULT_PRIVILEGES"
    )
    # not applied to existing schemas
    assert await root.rows("SELECT has_schema_privilege('john', 'old', 'CREATE')") == [(False,)]
    await root.run("ALTER DEFAULT PRIVILEGES GRANT ALL ON SCHEMAS TO john WITH GRANT OPTION")
    await root.run("CREATE SCHEMA s")
    assert await root.rows(
        "SELECT has_schema_privilege('john', 's', 'CREATE WITH GRANT OPTION')"
    ) == [(True,)]
    assert await acl(root, "rw_catalog.rw_schemas", "s") == [*SUPERS_SCHEMA, "john=U*C*/root"]
    await root.run("ALTER DEFAULT PRIVILEGES IN SCHEMA s GRANT ALL ON TABLES TO john")
    await root.run("CREATE TABLE s.foo (id int)")
    await root.run("CREATE MATERIALIZED VIEW s.foo_mv AS SELECT * FROM s.foo")
    # tables only: a materialized view is its own object type (user.rs for_materialized_view)
    assert await acl(root, "rw_catalog.rw_tables", "foo") == [*SUPERS, "john=arwd/root"]
    assert await acl(root, "rw_catalog.rw_materialized_views", "foo_mv") == SUPERS_MV
    await root.run("ALTER DEFAULT PRIVILEGES GRANT SELECT ON MATERIALIZED VIEWS TO john")
    await root.run("CREATE MATERIALIZED VIEW s.mv2 AS SELECT * FROM s.foo")
    assert await acl(root, "rw_catalog.rw_materialized_views", "mv2") == [*SUPERS_MV, "john=r/root"]
    await root.run("ALTER DEFAULT PRIVILEGES IN SCHEMA s GRANT SELECT ON VIEWS TO john")
    await root.run("CREATE VIEW s.v AS SELECT * FROM s.foo")
    assert await acl(root, "rw_catalog.rw_views", "v") == [*SUPERS, "john=r/root"]
    # revoking stops later objects only (user.rs:684-742)
    await root.run("ALTER DEFAULT PRIVILEGES IN SCHEMA s REVOKE ALL ON TABLES FROM john")
    await root.run("CREATE TABLE s.foo2 (id int)")
    assert await acl(root, "rw_catalog.rw_tables", "foo2") == SUPERS
    assert await acl(root, "rw_catalog.rw_tables", "foo") == [*SUPERS, "john=arwd/root"]
    # the defaults are the creating user's: luke's objects take none of root's
    await root.run("GRANT CREATE ON SCHEMA s TO luke")
    luke = await client_factory("luke")
    await luke.run("CREATE VIEW s.lv AS SELECT 1 AS a")
    assert await acl(root, "rw_catalog.rw_views", "lv") == SUPERS
    # handle_privilege.rs:545-565: a non-superuser sets only its own defaults
    assert await reject(
        luke, "ALTER DEFAULT PRIVILEGES FOR USER root GRANT SELECT ON TABLES TO luke"
    ) == denied(luke, "Only superuser can alter default privileges for other users")
    assert await reject(
        luke, "ALTER DEFAULT PRIVILEGES FOR USER luke, root GRANT SELECT ON TABLES TO luke"
    ) == denied(luke, "Only superuser can alter default privileges for multiple users")
    assert (
        await luke.run("ALTER DEFAULT PRIVILEGES FOR USER luke GRANT SELECT ON VIEWS TO john")
        == "ALTER_DEFAULT_PRIVILEGES"
    )
    await luke.run("CREATE VIEW s.lv2 AS SELECT 1 AS a")
    assert await acl(root, "rw_catalog.rw_views", "lv2") == [*SUPERS, "john=r/luke"]


async def test_default_privileges_errors(client: Client) -> None:
    def err(*chain: str) -> Failure:
        return Failure("ERROR", "XX000", report(envelope(client, bound=False), *chain))

    assert await reject(
        client, "ALTER DEFAULT PRIVILEGES GRANT ALL PRIVILEGES ON SCHEMAS TO luke"
    ) == err('Invalid input syntax: User "luke" does not exist')
    # handle_privilege.rs:444-457 (make_prost_actions)
    assert await reject(client, "ALTER DEFAULT PRIVILEGES GRANT INSERT ON SOURCES TO root") == err(
        "Invalid input syntax: Invalid privilege type for the given object: Insert"
    )
    env = RUN_QUERY if client.name == "psycopg" else PREPARE_STATEMENT
    # parser.rs:5943-5945
    assert await reject(
        client, "ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL PRIVILEGES ON SCHEMAS TO r"
    ) == Failure(
        "ERROR",
        "XX000",
        report(
            env,
            "sql parser error: cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS\n"
            "LINE 1: ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL PRIVILEGES ON SCHEMAS "
            "TO r\n"
            + " "
            * len(
                "LINE 1: ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ALL PRIVILEGES ON SCHEMAS "
            )
            + "^",  # at the token after the object type
        ),
    )


# --- what the catalogs and functions show ----------------------------------------------------


async def test_has_privilege_functions(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE TABLE t (v int)")
    await root.run("CREATE SCHEMA s")
    await users(root, "alice", "bob")
    await root.run("GRANT SELECT ON t TO alice WITH GRANT OPTION")
    await root.run("GRANT INSERT ON t TO alice")
    await root.run("GRANT USAGE ON SCHEMA s TO alice")
    alice = await client_factory("alice")
    # has_privilege.rs: the owner and superusers hold everything; otherwise every listed
    # action (and grant option) must be held
    assert await alice.rows(
        "SELECT has_table_privilege('t', 'SELECT'),"
        " has_table_privilege('alice', 't', 'SELECT WITH GRANT OPTION, INSERT'),"
        " has_table_privilege('alice', 't', 'INSERT WITH GRANT OPTION'),"
        " has_table_privilege('bob', 't', 'select'),"
        " has_table_privilege('root', 't', 'DELETE'),"
        " has_any_column_privilege('alice', 't', 'INSERT'),"
        " has_schema_privilege('s', 'USAGE'),"
        " has_schema_privilege('alice', 's', 'CREATE, USAGE'),"
        " has_database_privilege('dev', 'CONNECT'),"
        " has_database_privilege('bob', 'dev', 'CREATE')"
    ) == [(True, True, False, False, True, True, True, False, True, False)]
    # information_schema.schemata lists a schema only when both CREATE and USAGE are held
    # (schemata.rs: has_schema_privilege(s.name, 'CREATE, USAGE'))
    assert await alice.rows("SELECT schema_name FROM information_schema.schemata") == []
    await root.run("GRANT CREATE ON SCHEMA s TO alice")
    assert await alice.rows("SELECT schema_name FROM information_schema.schemata") == [("s",)]
    # parse_privilege (has_privilege.rs:383-413)
    failure = await reject(alice, "SELECT has_table_privilege('t', 'FOO')")
    assert failure.sqlstate == "XX000"
    assert failure.message.endswith(
        'Invalid parameter privilege: unrecognized privilege type: "FOO"\n'
    )


async def test_catalogs_show_only_what_the_user_may_see(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("CREATE SCHEMA s")
    await root.run("CREATE TABLE s.h (v int, w varchar)")
    await root.run("CREATE INDEX hi ON s.h (v)")
    await root.run("CREATE MATERIALIZED VIEW s.hm AS SELECT v FROM s.h")
    await users(root, "alice")
    await root.run("GRANT USAGE ON SCHEMA s TO alice")
    alice = await client_factory("alice")
    # schema_catalog.rs iter_*_with_acl / user/mod.rs has_access_to_object: the owner,
    # superusers, or a holder of SELECT / EXECUTE / USAGE
    assert await alice.rows("SELECT name FROM rw_catalog.rw_tables") == []
    assert await alice.rows("SELECT name FROM rw_catalog.rw_materialized_views") == []
    assert await alice.rows("SHOW TABLES FROM s") == []
    # show.rs:55-72: SHOW COLUMNS binds the table for a batch query, which checks SELECT
    assert await reject_simple(alice, "SHOW COLUMNS FROM s.h") == table_denied(
        alice, "h", "SELECT", simple=True
    )
    # pg_class is not filtered (pg_class.rs)
    assert await alice.rows("SELECT relname FROM pg_catalog.pg_class WHERE relname = 'h'") == [
        ("h",)
    ]
    await root.run("GRANT SELECT ON s.h TO alice")
    assert await alice.rows("SELECT name FROM rw_catalog.rw_tables") == [("h",)]
    assert await alice.rows("SHOW TABLES FROM s") == [("s.h",)]  # show.rs with_schema_name
    # SELECT on a table reaches its indexes' state tables (controller/user.rs:253-268)
    assert await alice.rows("SELECT name FROM rw_catalog.rw_indexes") == [("hi",)]
    assert [r[0] for r in await alice.rows("SHOW COLUMNS FROM s.h")] == [
        "v", "w", "_row_id", "_rw_timestamp"
    ]  # fmt: skip
    # the ACL columns of pg_namespace and pg_database (pg_namespace.rs, pg_database.rs)
    assert await acl(alice, "pg_catalog.pg_namespace", "s", "nspacl", "nspname") == [
        *SUPERS_SCHEMA, "alice=U/root"
    ]  # fmt: skip
    assert await acl(alice, "pg_catalog.pg_database", "dev", "datacl", "datname") == [
        *SUPERS_DB, "alice=c*/root"
    ]  # fmt: skip
    # RisingWave's pg_class has no relacl: psql's \dp and \z fail on it
    dp = await reject(
        alice,
        "SELECT pg_catalog.array_to_string(c.relacl, E'\\n') FROM pg_catalog.pg_class c",
    )
    assert dp == Failure(
        "ERROR",
        "XX000",
        report(
            envelope(alice, bound=True),
            "Failed to bind expression: pg_catalog.array_to_string(c.relacl, E'\\n')",
            "Item not found: Invalid column: relacl",
        ),
    )
    # nor has its information_schema privilege views (table_or_source.rs:155-170)
    assert await reject(alice, "SELECT * FROM information_schema.table_privileges") == Failure(
        "ERROR",
        "XX000",
        report(
            envelope(alice, bound=True),
            "Feature is not yet implemented: information_schema.table_privileges is not "
            "supported, please use `SHOW` commands for now.\n`SHOW TABLES`,\n"
            "`SHOW MATERIALIZED VIEWS`,\n`DESCRIBE <table>`,\n`SHOW COLUMNS FROM [table]`\n\n"
            "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/1695",
        ),
    )


async def test_control_statements_stay_superuser_only(client_factory: Connect) -> None:
    root = await client_factory()
    await users(root, "alice")
    await root.run("GRANT CREATE ON DATABASE dev TO alice")
    alice = await client_factory("alice")
    # rwshim's own statements (rwshim/control/statements.py) and the pause extension: risectl's
    # access
    for sql, reason in [
        ("RWSHIM TICK", "must be superuser to use rwshim control statements"),
        ("RWSHIM JOBS", "must be superuser to use rwshim control statements"),
        ("ALTER SYSTEM PAUSE", "must be superuser to pause or resume streaming"),
        ("ALTER DATABASE dev RESUME", "must be superuser to pause or resume streaming"),
    ]:
        assert await reject(alice, sql) == denied(alice, reason)
    assert await root.run("RWSHIM TICK") == "RWSHIM"


# --- users ---------------------------------------------------------------------------------


async def test_user_attributes_decide_who_manages_users_and_databases(
    client_factory: Connect,
) -> None:
    root = await client_factory()
    await root.run("CREATE USER alice")
    await root.run("CREATE USER manager CREATEUSER CREATEDB")
    await users(root, "bob")
    alice = await client_factory("alice")
    manager = await client_factory("manager")
    # create_user.rs:60-77, create_database.rs:46-56
    assert await reject(alice, "CREATE USER eve") == denied(
        alice, "permission denied to create user"
    )
    assert await reject(alice, "CREATE DATABASE d") == denied(
        alice, "permission denied to create database"
    )
    assert await reject(manager, "CREATE USER eve SUPERUSER") == denied(
        manager, "must be superuser to create superusers"
    )
    assert await manager.run("CREATE USER eve") == "CREATE_USER"
    assert await manager.run("CREATE DATABASE d") == "CREATE_DATABASE"
    # the new user's CONNECT comes from its creator (create_user.rs:87-96)
    assert await acl(root, "rw_catalog.rw_databases", "dev") == [
        *SUPERS_DB, "alice=c*/root", "manager=c*/root", "bob=c*/root", "eve=c*/manager"
    ]  # fmt: skip
    # alter_user.rs:34-75: changing one's own password needs nothing; another user's
    # attributes need CREATEUSER, a superuser's or SUPERUSER itself needs a superuser
    assert await alice.run("ALTER USER alice PASSWORD 'b'") == "UPDATE_USER"
    assert await reject(alice, "ALTER USER bob CREATEDB") == denied(
        alice, "permission denied to alter user"
    )
    assert await reject(alice, "ALTER USER alice CREATEDB") == denied(
        alice, "permission denied to alter user"
    )
    assert await manager.run("ALTER USER bob CREATEDB") == "UPDATE_USER"
    assert await reject(manager, "ALTER USER bob SUPERUSER") == denied(
        manager, "must be superuser to alter superuser roles or change superuser attribute"
    )
    assert await reject(manager, "ALTER USER root NOCREATEDB") == denied(
        manager, "must be superuser to alter superuser roles or change superuser attribute"
    )
    # alter_user.rs:180-203
    assert await reject(manager, "ALTER USER bob RENAME TO robert") == denied(
        manager, "must be superuser to rename users"
    )
    assert await root.run("ALTER USER bob RENAME TO robert") == "UPDATE_USER"
    # drop_user.rs:45-75
    assert await reject(alice, "DROP USER robert") == denied(
        alice, "permission denied to drop user"
    )
    assert await reject(manager, "DROP USER root") == denied(
        manager, "must be superuser to drop superusers"
    )
    assert await reject(manager, "DROP USER manager") == denied(
        manager, "current user cannot be dropped"
    )
    assert await root.rows(
        "SELECT name, create_db, create_user FROM rw_catalog.rw_users WHERE id > 3 ORDER BY id"
    ) == [("alice", False, False), ("manager", True, True), ("robert", True, False),
          ("eve", False, False)]  # fmt: skip


async def user_id(root: Client, name: str) -> int:
    rows = await root.rows(f"SELECT id FROM rw_catalog.rw_users WHERE name = '{name}'")
    return int(rows[0][0])


async def test_a_grant_of_what_the_grantor_may_not_pass_on_succeeds_and_grants_nothing(
    client_factory: Connect, caplog: pytest.LogCaptureFixture
) -> None:
    """RisingWave's frontend checks no ownership on GRANT (handle_privilege.rs:445-480); meta
    keeps only what the grantor owns or holds WITH GRANT OPTION and skips the rest with a
    warning in its log, the GRANT succeeding (controller/user.rs:280-317)."""
    root = await client_factory()
    await users(root, "alice", "bob")
    await root.run("CREATE TABLE t (a int)")
    alice = await client_factory("alice")
    bob = await client_factory("bob")
    with caplog.at_level(logging.WARNING, logger="rwshim.engine"):
        assert await alice.run("GRANT SELECT ON t TO bob") == "GRANT_PRIVILEGE"
    alice_id = await user_id(root, "alice")
    assert [r.getMessage() for r in caplog.records if r.name == "rwshim.engine"] == [
        f"user {alice_id} don't have privilege SELECT or grant option"
    ]
    assert await acl(root, "rw_catalog.rw_tables", "t") == SUPERS
    assert await reject(bob, "SELECT * FROM t") == table_denied(bob, "t", "SELECT")
    # holding the privilege without its grant option passes nothing on either
    await root.run("GRANT SELECT ON t TO alice")
    assert await alice.run("GRANT SELECT, INSERT ON t TO bob") == "GRANT_PRIVILEGE"
    assert await acl(root, "rw_catalog.rw_tables", "t") == [*SUPERS, "alice=r/root"]
    # an owner's grant is kept
    await root.run("GRANT CREATE ON SCHEMA public TO alice")
    await alice.run("CREATE TABLE mine (a int)")
    assert await alice.run("GRANT SELECT ON mine TO bob") == "GRANT_PRIVILEGE"
    assert await bob.rows("SELECT count(*) FROM mine") == [(0,)]
