"""Lists of structs, nested lists and nanosecond timestamps through a real server and client
(psycopg over TCP): what the data plane answers as RisingWave does, and what it refuses where
PostgreSQL's types would answer otherwise (never a silently different value)."""

from __future__ import annotations

from psycopg.types.string import TextLoader

from .conftest import Client


def raw_texts(db: Client, *oids: int) -> None:
    """Read these types as the text the server sent."""
    for oid in oids:
        db.conn.adapters.register_loader(oid, TextLoader)


def test_an_array_of_rows_inserts_into_a_list_of_structs(db: Client) -> None:
    """RisingWave casts an inserted value to its column's type (insert.rs cast_on_insert):
    ``ARRAY[ROW(...), ...]`` into ``struct<...>[]`` (e2e_test/batch/types/struct/
    struct_array.slt.part)."""
    raw_texts(db, 2249, 2287)
    db.run("CREATE TABLE t (k int, data struct<id varchar, name varchar>[])")
    assert (
        db.tag(
            "INSERT INTO t VALUES (1, ARRAY[ROW('a', 'b'), ROW('c', 'd')]),"
            " (2, array[('x,y', NULL)]), (3, NULL)"
        )
        == "INSERT 0 3"
    )
    assert db.rows("SELECT data, data[1], (data[1]).id FROM t ORDER BY k") == [
        ('{"(a,b)","(c,d)"}', "(a,b)", "a"),
        ('{"(\\"x,y\\",)"}', '("x,y",)', "x,y"),
        (None, None, None),
    ]
    assert db.rows("SELECT (CASE WHEN true THEN data[1] END).id FROM t WHERE k = 1") == [("a",)]
