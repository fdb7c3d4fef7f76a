"""Function calls named ``database.schema.function`` over real connections (psycopg and
asyncpg), as dbt's ``function()`` macro writes them (``"dev"."public"."double_price"(price)``).

RisingWave binds ``db.schema.f`` as ``schema.f`` when ``db`` is the current database and
refuses another database's; a longer name is not implemented
(src/frontend/src/binder/expr/function/mod.rs:116-131).  The same rule holds for user-defined
SQL functions (inlined) and built-in ones, on a query over user data (PostgreSQL), over the
catalog (in process) and without a relation, and in a materialized view's definition.
"""

from __future__ import annotations

import pytest

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

DOUBLE = "CREATE FUNCTION double_price(x numeric) RETURNS numeric LANGUAGE sql AS 'select x * 2'"


def chain(*texts: str) -> str:
    lines = "".join(f"  {i}: {t}\n" for i, t in enumerate(texts, 1))
    return f"\n\nCaused by these errors (recent errors listed first):\n{lines}"


def cross(expr: str, ident: str) -> tuple[str, str]:
    return (
        "XX000",
        chain(
            f"Failed to bind expression: {expr}",
            f"Bind error: Cross-database function call is not supported: {ident}",
        ),
    )


@pytest.fixture
async def shop(client: Client) -> Client:
    await client.run(DOUBLE)
    await client.run("CREATE TABLE items (name varchar, price numeric)")
    await client.run("INSERT INTO items VALUES ('pen', 1.5), ('ink', 4)")
    await client.run("FLUSH")
    return client


async def test_the_current_database_names_a_user_function(shop: Client, server: Running) -> None:
    # dbt 1.12's function() macro: every part quoted
    assert await shop.rows(
        'SELECT name, "dev"."public"."double_price"(price) FROM items ORDER BY name'
    ) == [("ink", 8), ("pen", 3)]
    assert await shop.rows("SELECT dev.public.double_price(2.5)") == [(5,)]
    assert await shop.rows(
        "SELECT dev.public.double_price(1) FROM rw_catalog.rw_functions WHERE name = 'double_price'"
    ) == [(2,)]
    tag = await run_ticking(
        shop, server,
        'CREATE MATERIALIZED VIEW doubled AS SELECT name, "dev"."public"."double_price"(price) AS d'
        " FROM items",
    )  # fmt: skip
    assert tag == "CREATE_MATERIALIZED_VIEW"
    await shop.run("INSERT INTO items VALUES ('cap', 10)")
    await shop.run("FLUSH")
    assert await shop.rows("SELECT * FROM doubled ORDER BY name") == [
        ("cap", 20),
        ("ink", 8),
        ("pen", 3),
    ]
    # the materialized view's definition calls the function: DROP FUNCTION sees it
    assert await cause(shop, "DROP FUNCTION double_price") == (
        "XX000",
        "\n\nCaused by:\n  Permission denied: function used by 1 other objects. \n"
        "DETAIL: materialized view public.doubled depends on it\n"
        "HINT: DROP the dependent objects first.\n",
    )


async def test_the_current_database_names_a_builtin_function(shop: Client) -> None:
    assert await shop.rows(
        'SELECT dev.pg_catalog.abs(price - 3), "dev".pg_catalog.length(name) FROM items'
        " ORDER BY name"
    ) == [(1, 3), (1.5, 3)]
    assert await shop.rows("SELECT dev.pg_catalog.abs(-3)") == [(3,)]
    assert await shop.rows("SELECT dev.pg_catalog.upper(name) FROM rw_catalog.rw_tables") == [
        ("ITEMS",)
    ]


async def test_another_database_is_refused(shop: Client) -> None:
    # over user data (PostgreSQL), without a relation, over the catalog (in process)
    expr = '"other"."public"."double_price"(price)'
    assert await cause(shop, f"SELECT {expr} FROM items") == cross(expr, '"double_price"')
    assert await cause(shop, "SELECT 1 + other.public.double_price(1)") == cross(
        "1 + other.public.double_price(1)", "double_price"
    )
    assert await cause(shop, "SELECT other.pg_catalog.abs(price) FROM items") == cross(
        "other.pg_catalog.abs(price)", "abs"
    )
    assert await cause(
        shop, "SELECT other.pg_catalog.upper(name) FROM rw_catalog.rw_tables"
    ) == cross("other.pg_catalog.upper(name)", "upper")
    # a name of four parts (function/mod.rs:130)
    assert await cause(shop, "SELECT a.b.c.d(price) FROM items") == (
        "XX000",
        chain(
            "Failed to bind expression: a.b.c.d(price)",
            "Feature is not yet implemented: qualified function a.b.c.d\n"
            "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/112",
        ),
    )


async def test_the_current_database_is_the_sessions(shop: Client, client_factory: Connect) -> None:
    await shop.run("CREATE DATABASE other")
    other = await client_factory(database="other")
    await other.run(DOUBLE)
    assert await other.rows("SELECT other.public.double_price(4)") == [(8,)]
    assert await cause(other, "SELECT dev.public.double_price(4)") == cross(
        "dev.public.double_price(4)", "double_price"
    )
