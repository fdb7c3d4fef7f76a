"""Names longer than PostgreSQL's 63 bytes work end to end, as on RisingWave, whose identifiers
have no length limit (src/sqlparser/src/ast/mod.rs ``Ident`` is a String; neither its parser
nor its binder truncates, at 448c657): tables, columns, aliases, schemas, views, materialized
views, indexes, SQL functions, subscriptions and their cursors, users and databases, in DML,
queries, DESCRIBE and the catalogs (issue 27).  Every result column name is the one typed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from rwshim.testing import RwShim

L = "x" * 200  # a 200-byte name part
C1 = "c" * 63 + "1"  # two column names sharing their first 63 bytes
C2 = "c" * 63 + "2"
ALIAS = "alias_" + "a" * 100


@pytest.fixture(scope="module")
def server() -> Iterator[RwShim]:
    s = RwShim()
    try:
        yield s
    finally:
        s.stop()


def connect(s: RwShim, user: str = "root", database: str = "dev") -> psycopg.Connection[Any]:
    return psycopg.connect(
        f"host={s.host} port={s.port} user={user} dbname={database}", autocommit=True
    )


@pytest.fixture(scope="module")
def root(server: RwShim) -> Iterator[psycopg.Connection[Any]]:
    with connect(server) as c:
        c.execute("SET implicit_flush = true")
        yield c


def names(cur: psycopg.Cursor[Any]) -> list[str]:
    return [d.name for d in cur.description or []]


def test_a_table_with_a_200_byte_name(root: psycopg.Connection[Any]) -> None:
    t = f"t_{L}"
    root.execute(f"CREATE TABLE {t} (id int PRIMARY KEY, v varchar)")
    root.execute(f"INSERT INTO {t} VALUES (1, 'a'), (2, 'b')")
    root.execute(f"UPDATE {t} SET v = 'c' WHERE id = 2")
    root.execute(f"DELETE FROM {t} WHERE id = 1")
    cur = root.execute(f"SELECT * FROM {t}")
    assert names(cur) == ["id", "v"]
    assert cur.fetchall() == [(2, "c")]
    cur = root.execute(f"SELECT {t}.v FROM {t}")
    assert cur.fetchall() == [("c",)]
    assert root.execute("SELECT name FROM rw_tables WHERE name LIKE 't\\_x%'").fetchall() == [(t,)]
    root.execute(f"DROP TABLE {t}")


def test_two_columns_sharing_their_first_63_bytes(root: psycopg.Connection[Any]) -> None:
    root.execute(f"CREATE TABLE two (id int PRIMARY KEY, {C1} int, {C2} varchar)")
    root.execute(f"INSERT INTO two (id, {C1}, {C2}) VALUES (1, 10, 'ten'), (2, 20, 'twenty')")
    root.execute(f"UPDATE two SET {C1} = {C1} + 1 WHERE {C2} = 'ten'")
    cur = root.execute("SELECT * FROM two ORDER BY id")
    assert names(cur) == ["id", C1, C2]
    assert cur.fetchall() == [(1, 11, "ten"), (2, 20, "twenty")]
    cur = root.execute(f"SELECT {C2}, x.{C1} FROM two AS x WHERE {C1} > 15")
    assert names(cur) == [C2, C1]
    assert cur.fetchall() == [("twenty", 20)]
    cur = root.execute(f"INSERT INTO two VALUES (3, 30, 'thirty') RETURNING {C2}")
    assert names(cur) == [C2]
    assert cur.fetchall() == [("thirty",)]
    root.execute("DELETE FROM two WHERE id = 3")
    # DESCRIBE and the catalogs a client reads hold the whole names
    assert [r[0] for r in root.execute("DESCRIBE two").fetchall()[:3]] == ["id", C1, C2]
    assert root.execute(
        "SELECT attname FROM pg_catalog.pg_attribute WHERE attrelid = 'two'::regclass"
        " AND attnum > 0 ORDER BY attnum"
    ).fetchall() == [("id",), (C1,), (C2,)]
    assert root.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'two'"
        " ORDER BY ordinal_position"
    ).fetchall() == [("id",), (C1,), (C2,)]


def test_aliases_are_answered_as_typed(root: psycopg.Connection[Any]) -> None:
    root.execute("CREATE TABLE al (v int)")
    root.execute("INSERT INTO al VALUES (7)")
    cur = root.execute(f"SELECT v AS {ALIAS}, v + 1 AS {ALIAS}2 FROM al")
    assert names(cur) == [ALIAS, ALIAS + "2"]
    assert cur.fetchall() == [(7, 8)]
    cur = root.execute(f"WITH cte_{L} AS (SELECT v AS {C1} FROM al) SELECT * FROM cte_{L}")
    assert names(cur) == [C1]
    assert cur.fetchall() == [(7,)]
    cur = root.execute(f"SELECT 1 AS {ALIAS}")  # a constant: answered in process
    assert names(cur) == [ALIAS]


def test_schema_view_materialized_view_index_and_function(root: psycopg.Connection[Any]) -> None:
    s, t = f"s_{L}", f"t_{L}"
    root.execute(f"CREATE SCHEMA {s}")
    root.execute(f"CREATE TABLE {s}.{t} (id int PRIMARY KEY, {C1} varchar, {C2} int)")
    root.execute(f"INSERT INTO {s}.{t} VALUES (1, 'a', 10), (2, 'a', 5), (3, 'b', 1)")
    cur = root.execute(f"SELECT {s}.{t}.{C2} AS {ALIAS} FROM {s}.{t} WHERE id = 1")
    assert (names(cur), cur.fetchall()) == ([ALIAS], [(10,)])

    root.execute(f"CREATE VIEW v_{L} AS SELECT {C1} AS vc_{L}, {C2} FROM {s}.{t}")
    cur = root.execute(f"SELECT * FROM v_{L} WHERE {C2} = 1")
    assert (names(cur), cur.fetchall()) == ([f"vc_{L}", C2], [("b", 1)])

    root.execute(
        f"CREATE MATERIALIZED VIEW m_{L} AS SELECT {C1}, sum({C2}) AS su_{L}"
        f" FROM {s}.{t} GROUP BY {C1}"
    )
    cur = root.execute(f"SELECT * FROM m_{L} ORDER BY {C1}")
    assert (names(cur), cur.fetchall()) == ([C1, f"su_{L}"], [("a", 15), ("b", 1)])
    root.execute(f"INSERT INTO {s}.{t} VALUES (4, 'b', 2)")
    assert root.execute(f"SELECT su_{L} FROM m_{L} WHERE {C1} = 'b'").fetchall() == [(3,)]

    # an index lives in its table's schema and reads as a relation
    root.execute(f"CREATE INDEX i_{L} ON {s}.{t} ({C2})")
    cur = root.execute(f"SELECT {C2} FROM {s}.i_{L} ORDER BY {C2}")
    assert (names(cur), cur.fetchall()) == ([C2], [(1,), (2,), (5,), (10,)])

    root.execute(f"CREATE FUNCTION f_{L}(a int) RETURNS int LANGUAGE sql AS 'SELECT a + 1'")
    cur = root.execute(f"SELECT f_{L}({C2}) FROM {s}.{t} WHERE id = 1")
    assert (names(cur), cur.fetchall()) == ([f"f_{L}"], [(11,)])

    # outside public, qualified by its schema (show.rs:525-530 with_schema_name)
    assert root.execute(f"SHOW TABLES FROM {s}").fetchall() == [(f"{s}.{t}",)]


def test_a_user_and_a_database_with_long_names(
    server: RwShim, root: psycopg.Connection[Any]
) -> None:
    user, db = f"u_{L}", f"d_{L}"
    root.execute("CREATE TABLE shared (v int)")
    root.execute("INSERT INTO shared VALUES (1)")
    root.execute(f"CREATE USER {user}")
    root.execute(f"GRANT SELECT ON shared TO {user}")
    with connect(server, user) as c:
        assert c.execute("SELECT v, current_user FROM shared").fetchall() == [(1, user)]
    root.execute(f"CREATE DATABASE {db}")
    with connect(server, "root", db) as c:
        c.execute("CREATE TABLE here (v int)")
        c.execute("INSERT INTO here VALUES (5)")
        c.execute("FLUSH")
        assert c.execute("SELECT v, current_database() FROM here").fetchall() == [(5, db)]


def test_a_subscription_cursor_with_a_long_name(root: psycopg.Connection[Any]) -> None:
    """risingwave-py's ``on_change`` of a materialized view: its subscription and cursor
    names grow with the view's (core.py: ``risingwave_py_cursor_default_<schema>_<sub>``),
    then ``DECLARE <cursor> subscription cursor for <schema>.<sub>`` and ``FETCH n FROM``."""
    mv = "test_product_avg_price_mv_" + "p" * 60
    sub = f"{mv}_sub"
    cursor = f"risingwave_py_cursor_default_public_{sub}"
    root.execute("CREATE TABLE product (id int PRIMARY KEY, price int)")
    root.execute(f"CREATE MATERIALIZED VIEW {mv} AS SELECT id, price * 2 AS {C1} FROM product")
    root.execute(f"CREATE SUBSCRIPTION IF NOT EXISTS public.{sub} FROM public.{mv}"
                 " WITH (retention = '86400s')")  # fmt: skip
    root.execute(f"DECLARE {cursor} subscription cursor for public.{sub}")
    assert [r[5] for r in root.execute("SHOW SUBSCRIPTION CURSORS").fetchall()] == [cursor]
    root.execute("INSERT INTO product VALUES (1, 21)")
    root.execute("FLUSH")
    cur = root.execute(f"FETCH 10 FROM {cursor} WITH (timeout = '10s')")
    assert names(cur) == ["id", C1, "op", "rw_timestamp"]
    assert [r[:3] for r in cur.fetchall()] == [(1, 42, "Insert")]
    root.execute(f"CLOSE {cursor}")
    assert root.execute("SHOW SUBSCRIPTION CURSORS").fetchall() == []


def test_a_subscription_keyed_by_a_long_group_key(root: psycopg.Connection[Any]) -> None:
    """A materialized view's changes are keyed by its GROUP BY columns (an update of a group
    is an UpdateDelete / UpdateInsert pair): the key's long name is found in the captured rows."""
    root.execute(f"CREATE TABLE g (k_{L} varchar, {C2} int)")
    root.execute("INSERT INTO g VALUES ('a', 1)")
    root.execute(
        f"CREATE MATERIALIZED VIEW gm AS SELECT k_{L}, sum({C2}) AS s_{L} FROM g GROUP BY k_{L}"
    )
    root.execute("CREATE SUBSCRIPTION gsub FROM gm WITH (retention = '1D')")
    root.execute(f"DECLARE gcur_{L} SUBSCRIPTION CURSOR FOR gsub FULL")
    cur = root.execute(f"FETCH 10 FROM gcur_{L}")
    assert names(cur) == [f"k_{L}", f"s_{L}", "op", "rw_timestamp"]
    assert [r[:3] for r in cur.fetchall()] == [("a", 1, "Insert")]
    root.execute("INSERT INTO g VALUES ('a', 2)")
    root.execute("FLUSH")
    cur = root.execute(f"FETCH 10 FROM gcur_{L} WITH (timeout = '10s')")
    assert [r[:3] for r in cur.fetchall()] == [("a", 1, "UpdateDelete"), ("a", 3, "UpdateInsert")]
    root.execute(f"CLOSE gcur_{L}")


def test_names_of_wide_characters(root: psycopg.Connection[Any]) -> None:
    """30 CJK characters: 90 bytes, over PostgreSQL's limit though short in characters."""
    wide, wide2 = "列" * 30, "列" * 29 + "行"
    root.execute(f'CREATE TABLE "表{wide}" ("{wide}" int, "{wide2}" varchar)')
    root.execute(f"""INSERT INTO "表{wide}" ("{wide2}", "{wide}") VALUES ('x', 1)""")
    cur = root.execute(
        f"""SELECT *, "{wide}" + 1 AS "{wide2}+" FROM "表{wide}" WHERE "{wide2}" = 'x'"""
    )
    assert names(cur) == [wide, wide2, wide2 + "+"]
    assert cur.fetchall() == [(1, "x", 2)]
