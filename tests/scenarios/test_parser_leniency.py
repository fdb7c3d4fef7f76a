"""Where RisingWave's parser is more lenient than PostgreSQL's (and where it is stricter), over
real connections: trailing commas in WITH (...), subscripts on function results, keywords as
relation names, reserved words as column names, and DESC / NULLS FIRST|LAST index keys shown
by DESCRIBE and SHOW INDEXES (src/sqlparser/src/parser.rs, keywords.rs; index_catalog.rs
display; sort_util.rs OrderType's Display)."""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]

from rwshim.errors import PREPARE_STATEMENT
from tests.conftest import Running
from tests.scenarios.drivers import AsyncpgClient, Client, Failure
from tests.scenarios.helpers import run_ticking


async def parse_fail(c: Client, sql: str) -> Failure:
    """A statement that fails to parse: over the extended protocol it fails at Parse, with
    pgwire's "Failed to prepare the statement" envelope (pg_protocol.rs)."""
    if isinstance(c, AsyncpgClient):
        try:
            await c.conn.prepare(sql)
        except asyncpg.PostgresError as e:
            return Failure(str(e.severity), str(e.sqlstate), str(e.message))
        raise AssertionError(f"{sql!r} parsed")
    return await c.fail(sql)


def parse_error(c: Client, message: str, sql: str, caret: int) -> str:
    """A parse error as the client reads it: the envelope, then the parser's located text."""
    envelope = PREPARE_STATEMENT if isinstance(c, AsyncpgClient) else c.envelope
    return (
        f"{envelope}\n\nCaused by:\n  sql parser error: {message}\n"
        f"LINE 1: {sql}\n{' ' * (8 + caret - 1)}^\n"
    )


async def test_trailing_comma_in_with_options(client: Client) -> None:
    sql = (
        "create table t (v int,) append only with (appendonly = 'true', retention_seconds = '10',)"
    )
    assert await client.run(sql) == "CREATE_TABLE"
    assert await client.rows("select name from rw_tables") == [("t",)]
    bad = "create table u (v int) with (a = 'b' c = 'd')"
    f = await parse_fail(client, bad)
    assert f.message == parse_error(
        client, "expected ',' or ')' after option definition, found: c", bad, 38
    )
    empty = "create table u (v int) with ()"
    f = await parse_fail(client, empty)
    assert f.message == parse_error(client, "expected identifier, found: )", empty, 30)
    assert await client.rows("select name from rw_tables") == [("t",)]


async def test_keywords_as_relation_names(client: Client, server: Running) -> None:
    assert await client.run("create table table (v int)") == "CREATE_TABLE"
    assert await client.run("insert into table values (1), (2)") == "INSERT 0 2"
    await client.run("flush")  # the UPDATE reads the committed rows
    assert await client.run("update table set v = 3 where v = 2") == "UPDATE 1"
    mv = "create materialized view user as select * from table"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    assert await client.rows(
        "select t.v from public.table t join user u on u.v = t.v order by 1"
    ) == [(1,), (3,)]
    assert await client.run("delete from table where v = 1") == "DELETE 1"
    await client.run("flush")
    assert sorted(
        await client.rows("select name, relation_type from rw_relations where schema_id = 2")
    ) == [
        ("table", "table"),
        ("user", "materialized view"),
    ]
    assert await client.rows("select * from user") == [(3,)]


async def test_reserved_words_are_not_column_names(client: Client) -> None:
    for sql, word, caret in (
        ("create table t (a int, table int)", "table", 30),
        ("create table t (FULL int)", "FULL", 22),
        ("create view v (a, from) as select 1, 2", "from", 23),
    ):
        f = await parse_fail(client, sql)
        assert f.message == parse_error(client, f"syntax error at or near {word}", sql, caret)
    # quoted, or a keyword RisingWave does not reserve, it is a name
    assert await client.run('create table t ("table" int, user int, source int)') == (
        "CREATE_TABLE"
    )
    assert await client.rows(
        "select name from rw_columns where relation_id = (select id from rw_tables) order by 1"
    ) == [("_row_id",), ("_rw_timestamp",), ("source",), ("table",), ("user",)]


async def test_subscript_on_a_function_result(client: Client) -> None:
    assert await client.rows("select current_schemas(true)[1], array[10, 20][2]") == [
        ("pg_catalog", 20)
    ]
    bad = "select current_schemas(true)[1] +"
    f = await parse_fail(client, bad)
    assert f.message == parse_error(client, "expected an expression, found: EOF", bad, 34)


async def test_index_keys_with_order_and_nulls(client: Client, server: Running) -> None:
    assert await client.run("create table t (a int, b int, c int)") == "CREATE_TABLE"
    for sql in (
        "create index i1 on t (a desc, b asc nulls first)",
        "create index i2 on t (b desc nulls last) include (c)",
        "create index i3 on t (c desc nulls first, a asc nulls last)",
    ):
        assert await run_ticking(client, server, sql) == "CREATE_INDEX"
    rows = await client.rows("describe t")
    assert [r[:2] for r in rows if r[0].startswith("i")] == [
        ("i1", "index(a DESC, b ASC NULLS FIRST) include(c) distributed by(a)"),
        ("i2", "index(b DESC NULLS LAST) include(c) distributed by(b)"),
        ("i3", "index(c DESC, a ASC) include(b) distributed by(c)"),
    ]
    assert await client.rows("show indexes from t") == [
        ("i1", "t", "a DESC, b ASC NULLS FIRST", "c", "a"),
        ("i2", "t", "b DESC NULLS LAST", "c", "b"),
        ("i3", "t", "c DESC, a ASC", "b", "c"),
    ]


async def test_keywords_as_user_names(client: Client) -> None:
    """``CREATE USER user`` (e2e_test/ddl/privilege.slt): RisingWave reads a user name with
    parse_object_name, PostgreSQL's grammar has no role named by a reserved word."""
    assert await client.run("CREATE USER user WITH SUPERUSER PASSWORD 'password'") == "CREATE_USER"
    assert await client.run("CREATE USER user1") == "CREATE_USER"
    grant = "GRANT CREATE ON SCHEMA public TO user1 WITH GRANT OPTION GRANTED BY user"
    assert await client.run(grant) == "GRANT_PRIVILEGE"
    assert await client.run("ALTER USER user WITH NOSUPERUSER") == "UPDATE_USER"
    assert await client.run("ALTER USER user RENAME TO table") == "UPDATE_USER"
    assert await client.rows(
        "SELECT name, is_super FROM rw_users WHERE name NOT IN ('root', 'postgres', 'rwadmin')"
        " ORDER BY name"
    ) == [("table", False), ("user1", False)]
    assert await client.run("ALTER USER table RENAME TO user") == "UPDATE_USER"
    assert await client.run("DROP USER user") == "DROP_USER"
    assert await client.rows("SELECT name FROM rw_users WHERE name LIKE 'user%'") == [("user1",)]
