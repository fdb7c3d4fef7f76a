"""A table's conflict behaviour as CREATE TABLE declares it, over real connections (psycopg and
asyncpg), as risingwave-py writes it: ``ON CONFLICT DO UPDATE IF NOT NULL`` and
``WITH VERSION COLUMN (...)``.

- The clauses parse as RisingWave's parser reads them (src/sqlparser/src/parser.rs:2534-2572
  parse_with_version_columns / parse_on_conflict, 2886-2908 parse_handle_conflict_behavior,
  v1.9-2.0's OVERWRITE and IGNORE included) and SHOW CREATE TABLE gives them back.
- Version columns are checked as optimizer/mod.rs find_version_column_indices (1386-1422) and
  1100-1106 check them; a conflicting row applies only when its versions are newer than or
  equal to the stored row's, compared lexicographically with NULL the smallest
  (stream/executor/mview/cache.rs versions_are_newer_or_equal), each row of one statement
  against the row stored before it.
"""

from __future__ import annotations

import pytest

from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


@pytest.fixture
async def client(client_factory: Connect) -> Client:
    """These tests read what each write stored: every DML waits for its barrier, as
    RisingWave's e2e files set it (``SET RW_IMPLICIT_FLUSH TO true``)."""
    c = await client_factory()
    await c.run("SET RW_IMPLICIT_FLUSH TO true")
    return c


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


async def test_on_conflict_do_update_if_not_null(client: Client) -> None:
    assert (
        await client.run(
            "CREATE TABLE t (k int PRIMARY KEY, a int, b varchar) ON CONFLICT DO UPDATE IF NOT NULL"
        )
        == "CREATE_TABLE"
    )
    assert await client.rows("SHOW CREATE TABLE t") == [
        (
            "public.t",
            "CREATE TABLE t (k INT PRIMARY KEY, a INT, b CHARACTER VARYING) "
            "ON CONFLICT DO UPDATE IF NOT NULL",
        )
    ]
    await client.run("INSERT INTO t VALUES (1, 1, 'x')")
    assert await client.run("INSERT INTO t VALUES (1, NULL, 'y'), (2, 2, NULL)") == "INSERT 0 2"
    assert await client.rows("SELECT * FROM t ORDER BY k") == [(1, 1, "y"), (2, 2, None)]
    # the v1.9-2.0 spellings
    for clause, shown in (("OVERWRITE", "DO UPDATE FULL"), ("IGNORE", "DO NOTHING")):
        await client.run(f"CREATE TABLE t_{clause} (k int PRIMARY KEY) ON CONFLICT {clause}")
        assert await client.rows(f"SHOW CREATE TABLE t_{clause}") == [
            (f"public.t_{clause.lower()}", f"CREATE TABLE t_{clause} (k INT PRIMARY KEY) "
             f"ON CONFLICT {shown}")
        ]  # fmt: skip
    # IF is still a name where it is not one of these keywords
    assert await client.run('CREATE TABLE "if" (if int)') == "CREATE_TABLE"


async def test_version_column_keeps_the_newest_row(client: Client) -> None:
    await client.run("CREATE TABLE t (k int PRIMARY KEY, a int, v int) WITH VERSION COLUMN (v)")
    assert await client.rows("SHOW CREATE TABLE t") == [
        ("public.t", "CREATE TABLE t (k INT PRIMARY KEY, a INT, v INT) WITH VERSION COLUMN(v)")
    ]
    await client.run("INSERT INTO t VALUES (1, 1, 5)")
    # older: ignored, yet counted in the tag
    assert await client.run("INSERT INTO t VALUES (1, 2, 3)") == "INSERT 0 1"
    assert await client.rows("SELECT a, v FROM t") == [(1, 5)]
    await client.run("INSERT INTO t VALUES (1, 3, 5)")  # equal: applies
    assert await client.rows("SELECT a, v FROM t") == [(3, 5)]
    await client.run("INSERT INTO t VALUES (1, 4, NULL)")  # NULL is the smallest
    assert await client.rows("SELECT a, v FROM t") == [(3, 5)]
    # one statement: each row against the one stored before it (the table's, then its own)
    assert (
        await client.run(
            "INSERT INTO t VALUES (2, 1, 1), (2, 2, 3), (2, 3, 2), (2, 4, 3), (1, 9, 4), (1, 10, 6)"
        )
        == "INSERT 0 6"
    )
    assert await client.rows("SELECT * FROM t ORDER BY k") == [(1, 10, 6), (2, 4, 3)]


async def test_version_columns_compare_in_order(client: Client) -> None:
    await client.run(
        "CREATE TABLE t (k int PRIMARY KEY, a int, v int, w varchar) WITH VERSION COLUMN (v, w)"
    )
    await client.run("INSERT INTO t VALUES (1, 1, 5, 'b')")
    steps = [
        ("(1, 2, 5, 'a')", (1, 5, "b")),  # first equal, second older
        ("(1, 3, 5, NULL)", (1, 5, "b")),
        ("(1, 4, 5, 'b')", (4, 5, "b")),  # both equal
        ("(1, 5, NULL, 'z')", (4, 5, "b")),  # the first decides
        ("(1, 6, 6, NULL)", (6, 6, None)),
    ]
    for row, after in steps:
        await client.run(f"INSERT INTO t VALUES {row}")
        assert await client.rows("SELECT a, v, w FROM t") == [after], row


async def test_version_column_with_update_if_not_null(client: Client) -> None:
    await client.run(
        "CREATE TABLE t (k int PRIMARY KEY, a int, b int, v int) ON CONFLICT DO UPDATE IF NOT NULL"
        " WITH VERSION COLUMN (v)"
    )
    await client.run("INSERT INTO t VALUES (1, 1, 1, 5)")
    await client.run("INSERT INTO t VALUES (1, NULL, 2, 6)")
    await client.run("INSERT INTO t VALUES (1, 7, 7, 4)")  # older: nothing
    assert await client.rows("SELECT * FROM t") == [(1, 1, 2, 6)]
    await client.run(
        "INSERT INTO t VALUES (1, 3, NULL, 4), (1, NULL, 8, 7), (1, 9, NULL, 6), (1, 10, NULL, 7)"
    )
    assert await client.rows("SELECT * FROM t") == [(1, 10, 8, 7)]


async def test_version_column_refusals(client: Client) -> None:
    refusals = [
        (
            "CREATE TABLE t (k int PRIMARY KEY, v int) WITH VERSION COLUMN (x)",
            "Invalid input syntax: Version column x not found",
        ),
        (
            'CREATE TABLE t (k int PRIMARY KEY, v int) WITH VERSION COLUMN ("V")',
            "Invalid input syntax: Version column V not found",
        ),
        *(
            (
                f"CREATE TABLE t (k int PRIMARY KEY, v {type_}) WITH VERSION COLUMN (v)",
                "Invalid input syntax: Version column v must be of a comparable data type",
            )
            for type_ in ("jsonb", "boolean", "bytea", "int[]", "struct<a int>")
        ),
        (
            "CREATE TABLE t (k int PRIMARY KEY, v int) ON CONFLICT DO NOTHING"
            " WITH VERSION COLUMN (v)",
            "Invalid parameter value: The with version column syntax cannot be used with the "
            "ignore behavior of on conflict",
        ),
        (
            "CREATE TABLE t (k int PRIMARY KEY, v int) APPEND ONLY WITH VERSION COLUMN (v)",
            "Invalid parameter value: The with version column syntax cannot be used with the "
            "ignore behavior of on conflict",
        ),
    ]
    for sql, text in refusals:
        assert await cause(client, sql) == ("XX000", one(text)), sql
    assert await cause(
        client, "CREATE TABLE t (k int PRIMARY KEY, v int) WITH VERSION COLUMN (v k)"
    ) == (
        "XX000",
        one(
            "sql parser error: expected ), found: k\n"
            "LINE 1: CREATE TABLE t (k int PRIMARY KEY, v int) WITH VERSION COLUMN (v k)\n"
            "                                                                         ^"
        ),
    )
    # a table without a declared key upserts nothing: its version column changes nothing
    await client.run("CREATE TABLE n (k int, v int) WITH VERSION COLUMN (v)")
    await client.run("INSERT INTO n VALUES (1, 2), (1, 1)")
    assert await client.rows("SELECT * FROM n ORDER BY v") == [(1, 1), (1, 2)]


async def test_update_meets_the_conflict_behaviour(client: Client) -> None:
    # e2e_test/streaming/with_version_column.slt, first table: an UPDATE's row lands on the
    # stored one through the same check as an INSERT's
    await client.run(
        "create table t1 (v1 int, v2 int, v3 int, v4 int, primary key(v1)) "
        "on conflict do update if not null with version column(v4)"
    )
    await client.run("insert into t1 values (1,null,2, 4), (2,3,null, 1)")
    await client.run("insert into t1 values (3,null,5,2), (3,6,null, 1)")
    await client.run("insert into t1 values (1,5,null,5), (2,null, 6, 1)")
    assert await client.rows("select * from t1 order by v1") == [
        (1, 5, 2, 5),
        (2, 3, 6, 1),
        (3, None, 5, 2),
    ]
    assert await client.run("update t1 set v2 = 2 where v1 > 1") == "UPDATE 2"
    after = [(1, 5, 2, 5), (2, 2, 6, 1), (3, 2, 5, 2)]
    assert await client.rows("select * from t1 order by v1") == after
    # a NULL keeps the stored value; older versions change nothing; both still count
    assert await client.run("update t1 set v2 = null, v4 = v4 + 1") == "UPDATE 3"
    after = [(1, 5, 2, 6), (2, 2, 6, 2), (3, 2, 5, 3)]
    assert await client.rows("select * from t1 order by v1") == after
    assert await client.run("update t1 set v2 = 7, v4 = v4 - 1") == "UPDATE 3"
    assert await client.rows("select * from t1 order by v1") == after
    # DO UPDATE FULL with a version column, after ALTER TABLE ADD COLUMN
    await client.run("create table t2 (k int primary key, a int, v int) with version column (v)")
    await client.run("insert into t2 values (1, 1, 5)")
    await client.run("update t2 set a = 2, v = 4")
    assert await client.rows("select * from t2") == [(1, 1, 5)]
    await client.run("update t2 set a = null")
    assert await client.rows("select * from t2") == [(1, None, 5)]
    await client.run("alter table t2 add column b int")
    await client.run("update t2 set b = 3, v = 1")
    await client.run("update t2 set b = 4")
    assert await client.rows("select * from t2") == [(1, None, 5, 4)]
