"""User-defined functions over real connections (psycopg and asyncpg): CREATE FUNCTION /
AGGREGATE with RisingWave's checks, SQL functions in ad-hoc queries, queries over tables and
materialized views, DROP FUNCTION / AGGREGATE and its dependency rule, rw_functions, SHOW
FUNCTIONS, EXECUTE privileges (src/frontend/src/handler/create_function.rs,
create_sql_function.rs, create_aggregate.rs, drop_function.rs, binder/expr/function/mod.rs;
expected texts from e2e_test/udf/tests/language_specific/sql.slt and
management/{create_and_drop,drop_function_cascade}.slt)."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

# what version() answers and the *_cluster_version columns hold (src/common/src/lib.rs:142-147)
VERSION = "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)"

ADD = "create function add(INT, INT) returns int language sql as $$select $1 + $2$$"


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


def chain(*texts: str) -> str:
    lines = "".join(f"  {i}: {t}\n" for i, t in enumerate(texts, 1))
    return f"\n\nCaused by these errors (recent errors listed first):\n{lines}"


async def test_sql_functions_run_in_ad_hoc_queries(client: Client) -> None:
    assert await client.run(ADD) == "CREATE_FUNCTION"
    assert (
        await client.run(
            "create function sub(INT, INT) returns int language sql as 'select $1 - $2'"
        )
        == "CREATE_FUNCTION"
    )
    assert (
        await client.run(
            "create function add_named(a INT, b INT) returns int language sql as 'select a + b'"
        )
        == "CREATE_FUNCTION"
    )
    assert (
        await client.run(
            "create function add_return(INT, INT) returns int language sql return $1 + $2"
        )
        == "CREATE_FUNCTION"
    )
    assert (
        await client.run(
            "create function add_sub_mix(INT, a INT, INT) returns int language sql "
            "as 'select $1 - a + $3'"
        )
        == "CREATE_FUNCTION"
    )
    assert (
        await client.run(
            "create function add_sub_wrapper(INT, INT) returns int language sql "
            "as 'select add($1, $2) + sub($1, $2) + 114512'"
        )
        == "CREATE_FUNCTION"
    )
    assert (
        await client.run(
            "create function corner_case(INT, a INT, INT) returns varchar language sql "
            "as $$select '$1 + a + $3'$$"
        )
        == "CREATE_FUNCTION"
    )
    assert await client.rows(
        "select add(1, -1), sub(1, 1), add_named(1, -1), add_return(1, 1), "
        "add_sub_mix(1, 2, 3), add_sub_wrapper(1, 1), corner_case(1, 2, 3)"
    ) == [(0, 0, 0, 2, 2, 114514, "$1 + a + $3")]
    # the arguments are cast to the parameters' types
    assert (
        await client.run(
            "create function add_sub(INT, FLOAT, INT) returns float language sql "
            "as $$select -$1 + $2 - $3$$"
        )
        == "CREATE_FUNCTION"
    )
    assert await client.rows("select add_sub(1, 5.1415926, 1)") == [(3.1415926,)]


async def test_sql_functions_over_tables_and_in_materialized_views(
    client: Client, server: Running
) -> None:
    assert await client.run("create table t1 (c1 INT, c2 INT)") == "CREATE_TABLE"
    assert await client.run("insert into t1 values (1, 1), (2, 2), (3, 3)") == "INSERT 0 3"
    await client.run("flush")
    assert await client.run(ADD) == "CREATE_FUNCTION"
    assert (
        await client.run(
            "create function twice(a INT) returns int language sql as 'select add(a, a)'"
        )
        == "CREATE_FUNCTION"
    )
    # a body with FROM is a scalar subquery; its parameter cannot be captured by t1's columns
    assert (
        await client.run(
            "create function above(c1 INT) returns bigint language sql "
            "as 'select count(*) from t1 where t1.c1 > c1'"
        )
        == "CREATE_FUNCTION"
    )
    assert await client.rows(
        "select c1, add(c1, c2), twice(c2), above(c1) from t1 order by c1"
    ) == [(1, 2, 2, 2), (2, 4, 4, 1), (3, 6, 6, 0)]
    assert await run_ticking(
        client, server,
        "create materialized view mv as select c1, twice(c1) as d, above(c1) as n from t1",
    ) == "CREATE_MATERIALIZED_VIEW"  # fmt: skip
    assert await client.run("insert into t1 values (4, 4)") == "INSERT 0 1"
    await client.run("flush")
    assert await client.rows("select * from mv order by c1") == [
        (1, 2, 3), (2, 4, 2), (3, 6, 1), (4, 8, 0),
    ]  # fmt: skip
    # a view over the MV, and a query reading both (the MV's definition is inlined where it
    # is bound in process too)
    assert await client.run("create view v as select d + 1 as e from mv") == "CREATE_VIEW"
    assert await client.rows("select e from v order by e") == [(3,), (5,), (7,), (9,)]
    assert await client.run("drop view v") == "DROP_VIEW"
    # the MV calls twice, which calls add: neither can go while it stands
    detail = "materialized view public.mv depends on it"
    for name in ("add", "twice", "above"):
        assert await cause(client, f"drop function {name}") == (
            "XX000",
            one(
                f"Permission denied: function used by 1 other objects. \nDETAIL: {detail}\n"
                "HINT: DROP the dependent objects first."
            ),
        )
    assert await run_ticking(client, server, "drop function twice cascade") == "DROP_FUNCTION"
    assert await cause(client, "select * from mv") == (
        "42704",
        chain("Catalog error", "table or source not found: mv"),
    )
    assert await client.run("drop function add") == "DROP_FUNCTION"


async def test_create_checks_the_body(client: Client) -> None:
    assert await cause(
        client, "create function f(a INT) returns int language sql as 'select a + aa + a'"
    ) == (
        "XX000",
        chain(
            "Failed to bind expression: a + aa + a", "Bind error: failed to find named parameter aa"
        ),
    )
    assert await cause(
        client, "create function f(INT, INT) returns int language sql as 'select $1 + $3 + $2'"
    ) == (
        "XX000",
        chain(
            "Failed to bind expression: $1 + $3 + $2",
            "Bind error: failed to find unnamed parameter $3",
        ),
    )
    assert await cause(
        client, "create function f(INT) returns int language sql as 'select yo(114514)'"
    ) == (
        "42883",
        chain("Failed to bind expression: yo(114514)", "function yo(integer) does not exist"),
    )
    # a recursive body: the function does not exist while its body is bound
    assert await cause(
        client,
        "create function fib(INT) returns int language sql as "
        "'select case when $1 = 0 then 0 else fib($1 - 1) end'",
    ) == (
        "42883",
        chain(
            "Failed to bind expression: case when $1 = 0 then 0 else fib($1 - 1) end",
            "function fib(integer) does not exist",
        ),
    )
    assert await cause(
        client,
        "create function f(INT) returns varchar language sql as 'select $1 + 114514 + $1'",
    ) == (
        "XX000",
        one(
            "Invalid input syntax: return type mismatch detected\nexpected: [character varying]"
            "\nactual: [integer]\nplease adjust your function definition accordingly"
        ),
    )
    assert await cause(
        client, "create function f(INT, INT) returns int language sql as $$select $1 + $2 +$$"
    ) == (
        "XX000",
        one(
            "sql parser error: expected an expression, found: EOF\nLINE 1: select $1 + $2 +\n"
            "                        ^"
        ),
    )
    assert await client.rows("select name from rw_functions") == []


async def test_create_refusals(client: Client) -> None:
    cases = {
        "create function f() returns int language sql": (
            "Invalid parameter value: AS or RETURN must be specified"
        ),
        "create function f() language sql as 'select 1'": (
            "Invalid parameter value: return type must be specified"
        ),
        "create function f() returns int language sql as x": (
            "Invalid parameter value: expect quoted string"
        ),
        "create function f() returns int language sql using link 'http://u:8815' as 'select 1'": (
            "Invalid parameter value: USING must NOT be specified with sql udf function"
        ),
        "create function f() returns int language python as $$def f(): return 1$$": (
            "Invalid parameter value: python UDF is not enabled in configuration"
        ),
        "create function f() returns int language cobol as 'x'": (
            "Invalid parameter value: language cobol is not supported"
        ),
        "create function f() returns int language javascript runtime deno as 'x'": (
            "Invalid parameter value: runtime selection is currently not supported"
        ),
        "create function f() returns int as 'x'": (
            "language not found.\nHINT: UDF feature flag may not be enabled during compilation"
        ),
        "create function f() returns int language javascript": "AS must be specified",
        "create aggregate a(int) returns int as 'x'": "Invalid parameter value: no language",
    }
    for sql, text in cases.items():
        assert await cause(client, sql) == ("XX000", one(text)), sql
    state, text = await cause(
        client, "create or replace function f() returns int language sql as 'select 1'"
    )
    assert (state, text.split("\n")[3]) == (
        "XX000",
        "  Feature is not yet implemented: CREATE OR REPLACE FUNCTION",
    )


async def test_duplicates_and_drop_rules(client: Client) -> None:
    assert await client.run(ADD) == "CREATE_FUNCTION"
    assert await cause(client, ADD) == (
        "42710",
        chain("Catalog error", "function named add(integer,integer) already exists"),
    )
    await client.notices()
    assert await client.run(ADD.replace("function", "function if not exists")) == (
        "CREATE_FUNCTION"
    )
    assert await client.notices() == [
        ("NOTICE", "00000", 'function "add(integer,integer)" already exists, skipping')
    ]
    # an overload by argument types
    assert (
        await client.run(
            "create function add(bigint, bigint) returns bigint language sql return $1 + $2"
        )
        == "CREATE_FUNCTION"
    )
    assert await cause(client, "drop function add") == (
        "XX000",
        chain(
            "Catalog error",
            'function name "add" is not unique\nHINT: Specify the argument list to select the '
            "function unambiguously.",
        ),
    )
    assert await cause(client, "drop function add(int)") == (
        "42704",
        chain("Catalog error", "function not found: add(integer)"),
    )
    assert await cause(client, "drop aggregate add(int, int)") == (
        "XX000",
        chain("Catalog error", '"add" is not an aggregate'),
    )
    assert await client.run("drop function add(int8, int8)") == "DROP_FUNCTION"
    assert await client.rows("select add(2, 3)") == [(5,)]
    assert await client.run("drop function add") == "DROP_FUNCTION"
    assert await cause(client, "drop function add") == (
        "42704",
        chain("Catalog error", "function not found: add"),
    )
    await client.notices()
    assert await client.run("drop function if exists add") == "DROP_FUNCTION"
    assert await client.notices() == [
        ("NOTICE", "00000", 'function "add" does not exist, skipping')
    ]
    assert (
        await client.run(
            "create aggregate mysum(value int) returns int language javascript as $$x$$"
        )
        == "CREATE_AGGREGATE"
    )
    assert await cause(client, "drop function mysum") == (
        "XX000",
        chain(
            "Catalog error",
            '"mysum" is an aggregate function\nHINT:  Use DROP AGGREGATE to drop aggregate '
            "functions.",
        ),
    )
    assert await client.run("drop aggregate mysum") == "DROP_AGGREGATE"


async def test_other_languages_are_catalogued_and_refused_when_called(client: Client) -> None:
    assert (
        await client.run(
            "create function js(a int, b varchar) returns int language javascript "
            "as $$export function js(a, b) { return a; }$$ with (async = true)"
        )
        == "CREATE_FUNCTION"
    )
    assert (
        await client.run(
            "create function remote() returns table (x int, y varchar) language java "
            "as 'remote' using link 'http://localhost:8815'"
        )
        == "CREATE_FUNCTION"
    )
    assert (
        await client.run(
            "create function w() returns int language wasm using base64 'AGFzbQEAAAA='"
        )
        == "CREATE_FUNCTION"
    )
    state, text = await cause(client, "select js(1, 'a')")
    assert state == "XX000"
    assert text.split("\n")[3] == (
        "  Feature is not yet implemented: calling the javascript function js: rwshim runs SQL "
        "functions only (it embeds no JavaScript, WebAssembly or Python runtime and reaches no "
        "external UDF server)"
    )
    assert await client.rows(
        "select name, type, arg_type_ids::varchar, return_type_id, language, link, "
        "always_retry_on_network_error from rw_functions order by id"
    ) == [
        ("js", "SCALAR", "{23,1043}", 23, "javascript", None, False),
        # a struct is RECORD (DataType::to_oid)
        ("remote", "TABLE", "{}", 2249, "java", "http://localhost:8815", False),
        ("w", "SCALAR", "{}", 23, "wasm", None, False),
    ]  # fmt: skip
    assert await client.rows("show functions") == [
        ("public.js", "integer, character varying", "integer", "javascript", None),
        ("public.remote", "", "struct<x integer, y character varying>", "java",
         "http://localhost:8815"),
        ("public.w", "", "integer", "wasm", None),
    ]  # fmt: skip


async def test_catalog_rows_and_schemas(client: Client) -> None:
    assert await client.run("create schema s2") == "CREATE_SCHEMA"
    assert await client.run(ADD) == "CREATE_FUNCTION"
    assert (
        await client.run(
            "create function s2.greet(name varchar) returns varchar language sql "
            "return 'hi ' || name"
        )
        == "CREATE_FUNCTION"
    )
    assert await client.rows(
        "select f.name, n.nspname, f.owner, f.type, f.arg_type_ids::varchar, f.return_type_id,"
        " f.language, f.acl::varchar, f.created_at_cluster_version"
        " from rw_functions f join pg_namespace n on n.oid = f.schema_id order by f.id"
    ) == [
        ("add", "public", 1, "SCALAR", "{23,23}", 23, "sql",
         "{root=X/root,postgres=X/root,rwadmin=X/root}", VERSION),
        ("greet", "s2", 1, "SCALAR", "{1043}", 1043, "sql",
         "{root=X/root,postgres=X/root,rwadmin=X/root}", VERSION),
    ]  # fmt: skip
    assert await client.rows("show functions") == [
        ("public.add", "integer, integer", "integer", "sql", None)
    ]
    assert await client.rows("show functions from s2") == [
        ("s2.greet", "character varying", "character varying", "sql", None)
    ]
    assert await client.rows("select s2.greet('you')") == [("hi you",)]
    # RisingWave lists no user-defined function in pg_proc
    assert await client.rows("select count(*) from pg_proc where proname = 'add'") == [(0,)]
    state, text = await cause(client, "show create function add")
    assert (state, text.split("\n")[3]) == (
        "XX000",
        "  Feature is not yet implemented: show create on: FUNCTION",
    )


async def test_execute_privilege(client: Client, client_factory: Connect) -> None:
    assert await client.run(ADD) == "CREATE_FUNCTION"
    assert await client.run("create user u1") == "CREATE_USER"
    other = await client_factory(user="u1")
    try:
        assert await other.rows("select name from rw_functions") == []
        assert await cause(other, "select add(1, 2)") == (
            "XX000",
            one('Permission denied: permission denied for function "add": "EXECUTE"'),
        )
        assert await client.run("grant execute on function add(int, int) to u1") == (
            "GRANT_PRIVILEGE"
        )
        assert await other.rows("select add(1, 2)") == [(3,)]
        assert await other.rows("select name, acl::varchar from rw_functions") == [
            ("add", "{root=X/root,postgres=X/root,rwadmin=X/root,u1=X/root}")
        ]
        assert await cause(other, "drop function add") == (
            "XX000",
            # privilege.rs check_privilege_for_drop_alter says "relation" for every object
            one(
                "Permission denied: Only the relation owner, the schema owner, and superuser "
                "can drop or alter a relation."
            ),
        )
    finally:
        await other.close()
    assert await cause(client, "grant execute on function nope(int) to u1") == (
        "42704",
        chain("Catalog error", "function not found: nope(integer)"),
    )


async def test_alter_function_and_schemas(client: Client) -> None:
    # e2e_test/udf/tests/management/alter_function.slt, with SQL bodies
    assert await client.run("create schema test_schema") == "CREATE_SCHEMA"
    assert (
        await client.run("create function test_func() returns int language sql as 'select 42'")
        == "CREATE_FUNCTION"
    )
    assert (
        await client.run("create function test_func(INT) returns int language sql as 'select $1'")
        == "CREATE_FUNCTION"
    )
    assert await cause(client, "alter function test_func set schema test_schema") == (
        "XX000",
        chain(
            "Catalog error",
            'function name "test_func" is not unique\nHINT: Specify the argument list to select '
            "the function unambiguously.",
        ),
    )
    for sql in (
        "alter function test_func() set schema test_schema",
        "alter function test_func(INT) set schema test_schema",
    ):
        assert await client.run(sql) == "ALTER_FUNCTION"
    assert await client.rows(
        "select name, nspname from rw_functions join pg_namespace "
        "on pg_namespace.oid = rw_functions.schema_id where nspname = 'test_schema'"
    ) == [("test_func", "test_schema"), ("test_func", "test_schema")]
    assert await client.rows("select test_schema.test_func(), test_schema.test_func(7)") == [
        (42, 7)
    ]
    assert await client.run("create user u2") == "CREATE_USER"
    assert await client.run("alter function test_schema.test_func() owner to u2") == (
        "ALTER_FUNCTION"
    )
    assert await cause(client, "alter function test_schema.test_func() owner to nobody") == (
        "42704",
        chain("Catalog error", "user not found: nobody"),
    )
    assert await client.rows("select owner from rw_functions order by id") == [(4,), (1,)]
    assert await cause(client, "drop schema test_schema") == (
        "XX000",
        one("Permission denied: schema is not empty"),
    )
    assert await client.run("drop schema test_schema cascade") == "DROP_SCHEMA"
    assert await client.rows("select count(*) from rw_functions") == [(0,)]
