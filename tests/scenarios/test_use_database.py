"""USE <database>, SET database and cross-database names over real connections
(src/frontend/src/handler/use_db.rs, handler/mod.rs:700-721,
src/frontend/src/binder/relation/mod.rs:211-330)."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking


def notice(db: str, user: str = "root") -> tuple[str, str, str]:
    return ("NOTICE", "00000", f'You are now connected to database "{db}" as user "{user}".')


def error(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


def catalog_error(text: str) -> str:
    return (
        "\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: Catalog error\n  2: {text}\n"
    )


async def test_use_moves_the_session_to_another_database(client: Client) -> None:
    assert await client.run("create database d2") == "CREATE_DATABASE"
    assert await client.run("create table t_dev (v int)") == "CREATE_TABLE"
    assert await client.run("set search_path = nowhere") == "SET_VARIABLE"
    await client.notices()
    assert await client.run("use d2") == "USE"
    assert await client.notices() == [notice("d2")]
    assert await client.rows("select current_database()") == [("d2",)]
    # use_db.rs resets search_path to its default
    assert await client.rows("show search_path") == [('"$user", public',)]
    assert await client.run("create table t_d2 (v int)") == "CREATE_TABLE"
    assert await client.run("insert into t_d2 values (7)") == "INSERT 0 1"
    await client.run("flush")
    assert await client.rows("select name from rw_tables") == [("t_d2",)]
    assert await client.rows("show tables") == [("public.t_d2",)]
    f = await cause(client, "select * from t_dev")
    assert f[1] == catalog_error("table or source not found: t_dev")
    # SET database runs the same handler, tag SET_VARIABLE
    assert await client.run("set database = 'dev'") == "SET_VARIABLE"
    assert await client.notices() == [notice("dev")]
    assert await client.rows("select current_database()") == [("dev",)]
    assert await client.rows("show tables") == [("public.t_dev",)]
    # the other database's table reads by its three-part name
    assert await client.rows("select v from d2.public.t_d2") == [(7,)]
    processes = await client.rows("show processlist")
    assert {p[4] for p in processes} == {"dev"}


async def test_use_refusals(client: Client, client_factory: Connect) -> None:
    f = await cause(client, "use nope")
    assert f[1] == catalog_error("database not found: nope")
    assert f[0] == "3D000"
    f = await cause(client, "use dev.public")
    assert f[1] == error("database name must contain 1 argument")
    f = await cause(client, "set database to default")
    assert f[1] == catalog_error("database not found: default")
    assert await client.run("create database d2") == "CREATE_DATABASE"
    assert await client.run("create user u with createdb") == "CREATE_USER"
    u = await client_factory(user="u")
    f = await cause(u, "use d2")
    assert f[1] == error('Permission denied: permission denied for database "d2": "CONNECT"')
    assert await u.rows("select current_database()") == [("dev",)]
    # a CONNECT granted on it (use_db.rs:34-39 reads the user's privileges)
    assert await client.run("grant connect on database d2 to u") == "GRANT_PRIVILEGE"
    await u.notices()
    assert await u.run("use d2") == "USE"
    assert await u.notices() == [notice("d2", "u")]
    assert await u.run("use dev") == "USE"
    # the owner of a database needs no CONNECT privilege on it
    assert await u.run("create database d3") == "CREATE_DATABASE"
    await u.notices()
    assert await u.run("use d3") == "USE"
    assert await u.notices() == [notice("d3", "u")]
    assert await u.rows("select current_database()") == [("d3",)]


async def test_cross_database_names_in_ddl_and_dml(client: Client, server: Running) -> None:
    assert await client.run("create database d2") == "CREATE_DATABASE"
    assert await client.run("use d2") == "USE"
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    assert await client.run("use dev") == "USE"
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    for sql in (
        "drop table d2.public.t",
        "create table d2.public.u (v int)",
        "alter table d2.public.t rename to u",
        "alter table d2.public.t set parallelism = 2",
        "insert into d2.public.t values (1)",
        "delete from d2.public.t",
        "describe d2.public.t",
        "show create table d2.public.t",
        "comment on table d2.public.t is 'x'",
    ):
        name = "d2.public.u" if "u (v" in sql else "d2.public.t"
        f = await cause(client, sql)
        assert f[1] == error(
            f'Invalid input syntax: cross-database references are not implemented: "{name}"'
        ), sql
    for sql in ("drop table a.b.c.d", "select * from a.b.c.d"):
        f = await cause(client, sql)
        assert f[1] == error(
            "Invalid input syntax: improper qualified name (too many dotted names): a.b.c.d"
        ), sql
    # the session's own database may be named
    assert await client.run("insert into dev.public.t values (1)") == "INSERT 0 1"
    mv = "create materialized view dev.public.mv as select * from dev.public.t"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    assert await client.rows("select * from mv") == [(1,)]
    assert await client.run("drop materialized view dev.public.mv") == "DROP_MATERIALIZED_VIEW"
    # nothing changed in d2
    assert await client.run("use d2") == "USE"
    assert await client.rows("select name from rw_tables") == [("t",)]
    assert await client.rows("select count(*) from t") == [(0,)]
