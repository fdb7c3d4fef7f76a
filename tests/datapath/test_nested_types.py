"""Lists of structs, nested lists and nanosecond timestamps through a real server and client
(psycopg over TCP): what the data plane answers as RisingWave does, and what it refuses where
PostgreSQL's types would answer otherwise (never a silently different value)."""

from __future__ import annotations

from psycopg.types.string import TextLoader

from .conftest import Client, caused_by


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


NANOS = (
    "not supported by rwshim: the timestamp '{}' has nanoseconds (RisingWave keeps them; "
    "the data plane's PostgreSQL keeps microseconds)"
)


def test_timestamps_with_nanoseconds_are_refused_not_rounded(db: Client) -> None:
    """RisingWave's timestamp keeps nanoseconds (datetime.rs, e2e_test/batch/types/
    timestamp_ns.slt.part); PostgreSQL's would round them to microseconds."""
    raw_texts(db, 1083, 1114)
    db.run("CREATE TABLE ts (k int, v timestamp)")
    text = "2013-01-01 01:01:01.123456789"
    assert db.error(f"INSERT INTO ts VALUES (1, '{text}')") == caused_by(NANOS.format(text))
    assert db.sqlstate(f"INSERT INTO ts VALUES (1, '{text}')") == "0A000"
    assert db.error(f"SELECT '{text}'::timestamp") == caused_by(NANOS.format(text))
    short = "2020-01-01 00:00:00.0000001"
    assert db.error(f"SELECT TIMESTAMP '{short}'") == caused_by(NANOS.format(short))
    assert db.error("SELECT make_timestamp(2013, 1, 1, 1, 1, 1.123456789)") == caused_by(
        "not supported by rwshim: make_timestamp of 1.123456789 seconds: RisingWave keeps"
        " their nanoseconds, the data plane's PostgreSQL keeps microseconds"
    )
    # whole microseconds are the same value on both
    db.run(
        "INSERT INTO ts VALUES (2, '2013-01-01 01:01:01.123456000'), (3, '2013-01-01 01:01:01.5')"
    )
    assert db.rows("SELECT v FROM ts ORDER BY k") == [
        ("2013-01-01 01:01:01.123456",),
        ("2013-01-01 01:01:01.500",),
    ]
    assert db.rows("SELECT make_timestamp(2013, 1, 1, 1, 1, 1.1), make_time(1, 1, 1.5)") == [
        ("2013-01-01 01:01:01.100", "01:01:01.500")
    ]
