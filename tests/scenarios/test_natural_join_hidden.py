"""NATURAL JOIN joins on the visible columns common to both sides only: a table without a
primary key has a hidden ``_row_id`` that RisingWave's binder leaves out of the common names
(binder/relation/join.rs:175-180), in a batch query and a materialized view
(e2e_test/streaming/natural_and_cross_join.slt), an alias column list included.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


async def test_natural_join_ignores_hidden_row_ids(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE emp (id int, name varchar, dept int)")
    await client.run("CREATE TABLE dept (dname varchar, dept int)")
    await client.run("INSERT INTO emp VALUES (1, 'Alice', 1), (2, 'Bob', 2), (3, 'Charlie', 1)")
    await client.run("INSERT INTO dept VALUES ('Eng', 1), ('HR', 2)")
    expected = [("Alice", "Eng"), ("Bob", "HR"), ("Charlie", "Eng")]
    query = "SELECT e.name, d.dname FROM emp e NATURAL JOIN dept d"
    assert await client.rows(f"{query} ORDER BY 1") == expected
    await client.run(f"CREATE MATERIALIZED VIEW m AS {query}")
    assert await client.rows("SELECT * FROM m ORDER BY 1") == expected
    # an alias column list renames the visible columns; the hidden one is still no name
    assert (
        await client.rows(
            "SELECT e.n, x.dname FROM emp AS e(i, n, dept) NATURAL JOIN dept AS x ORDER BY 1"
        )
        == expected
    )
    await client.run("INSERT INTO emp VALUES (4, 'Dan', 2)")
    assert await client.rows("SELECT count(*) FROM m WHERE dname = 'HR'") == [(2,)]


async def test_a_tables_row_id_binds_by_name_only(client: Client) -> None:
    """e2e_test/streaming/aggregate/distinct_agg_with_row_id.slt: ``_row_id`` is a column a
    materialized view may name (binder/relation/table_or_source.rs:533-537), never one of a
    star's."""
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (foo int, bar int)")
    await client.run("INSERT INTO t VALUES (1, 1), (2, 2), (1, 1)")
    await client.run(
        "CREATE MATERIALIZED VIEW mr AS SELECT count(foo) AS c1, count(DISTINCT foo) AS c2,"
        " count(DISTINCT _row_id) AS c3 FROM t"
    )
    assert await client.rows("SELECT * FROM mr") == [(3, 2, 3)]
    await client.run("CREATE MATERIALIZED VIEW ms AS SELECT * FROM t")
    assert await client.rows(
        "SELECT name FROM rw_columns WHERE relation_id = 'ms'::regclass AND NOT is_hidden"
        " ORDER BY position"
    ) == [("foo",), ("bar",)]
