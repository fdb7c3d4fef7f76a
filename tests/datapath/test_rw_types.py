"""RisingWave-only types through a real server and client (psycopg over TCP): struct as
composite types with RisingWave's text, rw_int256 with its integer arithmetic, vector with
pgvector's distance, nested lists, RisingWave's float and timestamptz texts."""

from __future__ import annotations

from psycopg.types.string import TextLoader

from .conftest import Client, caused_by


def raw_structs(db: Client) -> None:
    """Read struct (record) columns and lists of them as the text the server sent: psycopg
    would otherwise split a record's text into a tuple of strings."""
    db.conn.adapters.register_loader(2249, TextLoader)
    db.conn.adapters.register_loader(2287, TextLoader)


def test_struct_columns_read_back_in_risingwaves_text(db: Client) -> None:
    raw_structs(db)
    db.run("CREATE TABLE st (v1 int, v2 struct<v1 int, v2 struct<v1 int, v2 varchar>>)")
    assert db.tag("INSERT INTO st VALUES (1, (1, (1, 'a b'))), (2, (2, (2, NULL)))") == (
        "INSERT 0 2"
    )
    cur = db.run("SELECT * FROM st ORDER BY v1")
    assert [d.type_code for d in cur.description or []] == [23, 2249]
    assert cur.fetchall() == [(1, '(1,"(1,""a b"")")'), (2, '(2,"(2,)")')]
    assert db.rows("SELECT (v2).v2.v1, (v2).v2 FROM st ORDER BY v1") == [
        (1, '(1,"a b")'),
        (2, "(2,)"),
    ]
    assert db.rows("SELECT max((v2).v2), min(v2) FROM st") == [("(2,)", '(1,"(1,""a b"")")')]
    assert db.rows("SELECT v1 FROM st WHERE (v2).v2 = (1, 'a b'::varchar)") == [(1,)]


def test_struct_fields_bind_in_views_and_keep_their_type(db: Client) -> None:
    """A view or materialized view binds ``(t.col).field`` of a table's struct column (its
    fields come from the column's type, binder/expr/mod.rs bind_field), and a struct output
    column keeps its struct type in the catalog, as RisingWave's DESCRIBE shows it."""
    raw_structs(db)
    db.run("CREATE TABLE t (v1 INT PRIMARY KEY, v2 STRUCT<v1 INT, v2 STRUCT<v1 INT, v2 INT>>)")
    db.run("INSERT INTO t VALUES (1, ROW(2, ROW(3, 4)))")
    assert db.tag("CREATE MATERIALIZED VIEW mv AS SELECT v1, (t.v2).v1 AS v21 FROM t") == (
        "CREATE_MATERIALIZED_VIEW"
    )
    db.run("CREATE VIEW v3 AS (SELECT MAX((t.v2).v1) FROM t AS t)")
    db.run("CREATE MATERIALIZED VIEW mv2 AS SELECT v2, (v2).v2 AS i, ((v2).v2).v2 AS deep FROM t")
    db.run("CREATE MATERIALIZED VIEW mv3 AS SELECT (i).v1 AS x, (mv2.v2).v2 AS y FROM mv2")
    assert db.rows("SELECT * FROM mv") == [(1, 2)]
    assert db.rows("SELECT * FROM v3") == [(2,)]
    assert db.rows("SELECT * FROM mv3") == [(3, "(3,4)")]
    assert db.rows(
        "SELECT name, data_type FROM rw_columns WHERE relation_id = 'mv2'::regclass"
        " AND NOT is_hidden ORDER BY position"
    ) == [
        ("v2", "struct<v1 integer, v2 struct<v1 integer, v2 integer>>"),
        ("i", "struct<v1 integer, v2 integer>"),
        ("deep", "integer"),
    ]
    assert db.rows("DESCRIBE mv3")[:2] == [
        ("x", "integer", "false", None),
        ("y", "struct<v1 integer, v2 integer>", "false", None),
    ]
    assert db.error("CREATE MATERIALIZED VIEW mv4 AS SELECT (t.v2).nope FROM t") == caused_by(
        "Failed to bind expression: (t.v2).nope", "Item not found: Invalid field name: nope"
    )


def test_struct_casts_and_lists_of_structs(db: Client) -> None:
    raw_structs(db)
    assert db.rows("SELECT (1, (NULL, 3))::STRUCT<i BIGINT, j STRUCT<a BIGINT, b VARCHAR>>") == [
        ('(1,"(,3)")',)
    ]
    assert db.rows("SELECT ((NULL, 'x')::STRUCT<i BIGINT, j VARCHAR>).j") == [("x",)]
    db.run("CREATE TABLE sa (s struct<f double precision, t timestamptz>[])")
    db.run(
        "INSERT INTO sa VALUES (ARRAY[(1e15, '2020-01-01 00:00:00+00')::struct<f double"
        " precision, t timestamptz>])"
    )
    cur = db.run("SELECT s, s[1] FROM sa")
    assert [d.type_code for d in cur.description or []] == [2287, 2249]
    assert cur.fetchall() == [
        (
            '{"(1000000000000000,\\"2020-01-01 00:00:00+00:00\\")"}',
            '(1000000000000000,"2020-01-01 00:00:00+00:00")',
        )
    ]


def test_int256_is_an_integer_of_256_bits(db: Client) -> None:
    db.run("CREATE TABLE i (v rw_int256)")
    db.run("INSERT INTO i VALUES (1), ('100000000000000000000000000000000'), (-7)")
    assert db.rows("SELECT v FROM i ORDER BY v") == [
        (-7,),
        (1,),
        (100000000000000000000000000000000,),
    ]
    assert db.rows("SELECT v / 2, v % 2::int, pg_typeof(v * 2) FROM i WHERE v = -7") == [
        (-3, -1, "rw_int256")
    ]
    assert db.rows("SELECT sum(v), pg_typeof(sum(v)), avg(v) FROM i") == [
        (99999999999999999999999999999994, "rw_int256", 3.3333333333333334e31)
    ]
    minus_17 = "0x" + "f" * 62 + "ef"
    assert db.rows(f"SELECT hex_to_int256('{minus_17}')") == [(-17,)]
    assert db.error(f"SELECT '{2**255 - 1}'::rw_int256 * 2") == caused_by(
        "Expr error", "Numeric out of range"
    )


def test_vector_columns_and_distance(db: Client) -> None:
    db.run("CREATE TABLE items (id bigint PRIMARY KEY, embedding vector(3))")
    db.run("INSERT INTO items (embedding, id) VALUES ('[1,2,3]', 1), ('[4,5,6]', 2)")
    cur = db.run("SELECT * FROM items ORDER BY embedding <-> '[3,1,2]' LIMIT 5")
    assert [d.type_code for d in cur.description or []] == [20, 1305]
    assert cur.fetchall() == [(1, "[1,2,3]"), (2, "[4,5,6]")]


def test_risingwaves_float_and_time_texts(db: Client) -> None:
    for oid in (700, 701, 1083, 1114, 1184):  # the text as the server sent it
        db.conn.adapters.register_loader(oid, TextLoader)
    db.run("CREATE TABLE ft (f8 float8, f4 real, tm time, ts timestamp, tz timestamptz)")
    db.run(
        "INSERT INTO ft VALUES (1e15, 1e12, '10:00:00.5', '2020-01-01 10:00:00.12',"
        " '2020-01-01 00:00:00+00')"
    )
    db.run("SET TIME ZONE 'Asia/Kolkata'")
    assert db.rows("SELECT * FROM ft") == [
        (
            "1000000000000000",
            "1000000000000",
            "10:00:00.500",
            "2020-01-01 10:00:00.120",
            "2020-01-01 05:30:00+05:30",
        )
    ]
    assert db.rows("SELECT f8 * 10, f8 / 1e20 FROM ft") == [("1e+16", "0.00001")]


def test_nested_lists_are_postgresql_arrays_of_one_type(db: Client) -> None:
    db.run("CREATE TABLE lt (v1 int[][])")
    db.run("INSERT INTO lt VALUES (array[array[1, 2], array[3, 4]])")
    assert db.rows("SELECT v1, v1[2][1] FROM lt") == [([[1, 2], [3, 4]], 3)]
    assert db.error("SELECT array[array[2,3],array[4,5]]::int[]") == caused_by(
        'cannot cast type "integer[][]" to "integer[]"',
        'cannot cast type "integer[]" to "integer" in Explicit context',
    )
