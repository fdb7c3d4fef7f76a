"""Lists of structs, nested lists and nanosecond timestamps through a real server and client
(psycopg over TCP): what the data plane answers as RisingWave does, and what it refuses where
PostgreSQL's types would answer otherwise (never a silently different value)."""

from __future__ import annotations

from decimal import Decimal

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
    # timestamptz keeps microseconds in RisingWave, cutting the rest off: refused, not rounded
    assert db.error("SELECT '2020-01-01 00:00:00.1234567+00'::timestamptz") == caused_by(
        "not supported by rwshim: the timestamp with time zone '2020-01-01 00:00:00.1234567+00'"
        " has digits past the microseconds (RisingWave cuts them off, the data plane's"
        " PostgreSQL rounds them)"
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


NESTED = (
    "not supported by rwshim: {} of a list of lists (the data plane keeps lists of lists as "
    "PostgreSQL's multidimensional arrays, whose functions see the innermost elements)"
)
NDIMS = (
    "not supported by rwshim: {} of an empty or NULL list (its number of dimensions is its "
    "RisingWave type's, which the data plane's PostgreSQL arrays do not keep)"
)


def test_list_dimensions_are_risingwaves(db: Client) -> None:
    """array_ndims is the depth of the type (builtin_scalar.rs binds it as a constant);
    array_length / array_upper / array_lower / array_dims see the outer list only
    (array_length.rs, e2e_test/batch/functions/array_dims.slt.part)."""
    assert db.rows(
        "SELECT array_ndims(array[]::int[]), array_ndims(null::int[]),"
        " array_ndims(null::int[][]), array_ndims(array[]::int[][]),"
        " array_ndims(array[array[2, 3], array[4, 5]]), array_ndims('{2,3}'::varchar[])"
    ) == [(1, 1, 2, 2, 2, 1)]
    assert db.error("SELECT array_ndims(array[1], 2)") == caused_by(
        "Failed to bind expression: array_ndims(ARRAY[1], 2)",
        "Expr error",
        "unexpected arguments number 2, expect 1",
    )
    db.run("CREATE TABLE lt (k int, v int[][], w int[])")
    db.run(
        "INSERT INTO lt VALUES (1, array[array[1, 2], array[3, 4]], array[5, 6]),"
        " (2, NULL, NULL), (3, array[]::int[][], '{}')"
    )
    assert db.rows(
        "SELECT array_ndims(v), array_length(v), array_length(v, 1), array_length(v, 0),"
        " array_upper(v, 1), array_lower(v, 1), array_lower(v, 2), array_lower(v, 3)"
        " FROM lt WHERE k = 1"
    ) == [(2, 2, 2, None, 2, 1, 1, None)]
    assert db.rows(
        "SELECT array_length(w), array_dims(w), array_lower(w, 1) FROM lt ORDER BY k"
    ) == [
        (2, "[1:2]", 1),
        (None, None, 1),
        (0, "[1:0]", 1),
    ]
    assert db.error("SELECT array_upper(array[array[2, 3, 4], array[3, 4, 5]], 2)") == caused_by(
        "Expr error",
        "Invalid parameter dimension: array_length for dimensions greater than 1 not supported",
    )
    assert db.error("SELECT array_dims(v) FROM lt") == caused_by(
        "Bind error: array_dims for dimensions greater than 1 not supported"
    )
    # a column's depth is its type's, whatever its value
    assert db.rows("SELECT array_ndims(v), array_ndims(w) FROM lt") == [(2, 1)] * 3
    # an empty or NULL value of a depth the text does not say: refused, not guessed
    assert db.error("SELECT array_ndims(x) FROM (SELECT v AS x FROM lt) AS q") == caused_by(
        NDIMS.format("array_ndims")
    )
    assert db.error("SELECT array_lower(v, 2) FROM lt") == caused_by(NDIMS.format("array_lower"))


def test_list_functions_of_lists_of_lists(db: Client) -> None:
    """RisingWave's list functions see a list of lists' inner lists; PostgreSQL's see the
    innermost elements: appending and prepending a list is answered, the others refused."""
    db.run("CREATE TABLE ll (v int[][])")
    db.run("INSERT INTO ll VALUES (array[array[1, 2], array[3, 4]])")
    for fn in ("array_max", "array_min", "array_distinct", "array_sum"):
        assert db.error(f"SELECT {fn}(v) FROM ll") == caused_by(NESTED.format(fn)), fn
    assert db.error("SELECT array_contains(v, array[array[1, 3]]) FROM ll") == caused_by(
        NESTED.format("array_contains")
    )
    assert db.rows(
        "SELECT array_prepend(array[array[2]], array[array[array[1]]]),"
        " array_append(array[array[array[1]]], array[array[2.1]]),"
        " array_append(v, array[9, 9]), array_prepend(array[9, 9], v) FROM ll"
    ) == [
        (
            [[[2]], [[1]]],
            [[[1]], [[Decimal("2.1")]]],
            [[1, 2], [3, 4], [9, 9]],
            [[9, 9], [1, 2], [3, 4]],
        )
    ]
    # a NULL inner list has no place in a PostgreSQL array
    assert db.error("SELECT array_append(v, NULL) FROM ll") == caused_by(
        NESTED.format("array_append")
    )
    # lists of scalars keep PostgreSQL's (and RisingWave's) answers
    assert db.rows(
        "SELECT array_append(array[1], NULL), array_prepend(7, array[5]), array_max(array[3, 9]),"
        " array_distinct(array[2, 1, 2]), array_contains(array[1, 2], array[2])"
    ) == [([1, None], [7, 5], 9, [2, 1], True)]


SUBSCRIPTS = (
    "not supported by rwshim: the subscripts {} of a list of depth {}: RisingWave applies each "
    "subscript to the list the one before gave, the data plane's PostgreSQL arrays apply them "
    "one per dimension"
)


def test_types_and_subscripts_of_lists_of_lists(db: Client) -> None:
    """pg_typeof names a list of lists' type (builtin_scalar.rs "pg_typeof"); subscripts apply
    one after the other as RisingWave's (``v[1]`` of a list of lists is its first inner list,
    where PostgreSQL's answer is NULL; e2e_test/batch/types/array_ty.slt.part), named after
    their base (select.rs derive_alias)."""
    db.run("CREATE TABLE sl (v int[][], w int[], s struct<id varchar>[][])")
    db.run(
        "INSERT INTO sl VALUES (array[array[1, 2], array[3, 4]], array[5, 6],"
        " array[array[row('x')]])"
    )
    assert db.rows(
        "SELECT pg_typeof(array[array[1, 2], array[3, 4]]), pg_typeof(v), pg_typeof(w),"
        " pg_typeof('{{1}}'::varchar[][]), array_ndims(v) FROM sl"
    ) == [("integer[][]", "integer[][]", "integer[]", "character varying[][]", 2)]
    assert db.rows("SELECT v[2][1], v[1:1], w[1], w[1:2], (s[1][1]).id FROM sl") == [
        (3, [[1, 2]], 5, [5, 6], "x")
    ]
    cur = db.run(
        "SELECT v[1], v[3], v[1][1:2], w[1:2][1], v[1:2][2][1], sl.v[1 + 1] AS x,"
        " array[array[1], array[2], array[3]][-21432315:134124523][1] FROM sl"
    )
    assert [d.name for d in cur.description or []] == ["v", "v", "v", "w", "v", "x", "array"]
    assert cur.fetchall() == [([1, 2], None, [1, 2], 5, 3, [3, 4], [1])]
    assert db.rows("SELECT ('{{{1,2},{3,4}},{{5,6},{7,8}}}'::int[][][])[2][1]") == [([5, 6],)]
    assert db.error("SELECT w[1][1] FROM sl") == caused_by(SUBSCRIPTS.format("[1][1]", 1))


def test_rows_compare_with_struct_columns_and_name_their_fields(db: Client) -> None:
    """A row holding a row compares with a struct column as RisingWave casts it to the column's
    type; an anonymous row's fields are f1, f2, ... (e2e_test/batch/types/struct/
    struct.slt.part)."""
    raw_texts(db, 2249)
    db.run("CREATE TABLE st (v1 int, v2 struct<v1 int, v2 struct<v1 int, v2 int>>)")
    db.run("INSERT INTO st VALUES (1, (1, (1, 2))), (2, (1, (1, 3)))")
    assert db.rows("SELECT * FROM st WHERE v2 = (1, (1, 3))") == [(2, '(1,"(1,3)")')]
    assert db.rows("SELECT v1 FROM st WHERE v2 != (1, (1, 3))") == [(1,)]
    assert db.rows("SELECT v1 FROM st WHERE ROW(1, ROW(1, 2)) < st.v2") == [(2,)]
    cur = db.run("SELECT (Row('foo', 'bar')).f1, (Row('foo', 'bar')).f2, (row(1, 2)).f1 + 1 AS x")
    assert [d.name for d in cur.description or []] == ["f1", "f2", "x"]
    assert cur.fetchall() == [("foo", "bar", 2)]
    assert db.error("SELECT (Row('foo', 'bar')).f3") == caused_by(
        "Failed to bind expression: (ROW('foo', 'bar')).f3",
        'Bind error: column "f3" not found in struct type',
    )


RECTANGULAR = (
    "not supported by rwshim: a list of lists whose inner lists differ in length or are NULL "
    "(the data plane keeps lists of lists as PostgreSQL's multidimensional arrays, which must "
    "be rectangular)"
)


def test_lists_of_lists_postgresql_cannot_hold_are_refused_in_rwshims_words(db: Client) -> None:
    """RisingWave's lists of lists may be ragged and hold NULL lists (e2e_test/batch/basic/
    array.slt.part); PostgreSQL's arrays cannot: refused as not supported, not in PostgreSQL's
    words about dimensions."""
    db.run("CREATE TABLE rl (v int[][])")
    db.run("INSERT INTO rl VALUES (array[array[1, 2], array[3, 4]])")
    for sql in [
        "INSERT INTO rl VALUES (array[array[1], array[2, 3]])",
        "SELECT array[array[1], NULL]",
        "SELECT array_agg(x) FROM (VALUES (array[1]), (array[1, 2])) AS t(x)",
        "SELECT array_agg(x) FROM (VALUES (array[1]), (NULL)) AS t(x)",
        "SELECT v || array[1, 2, 3] FROM rl",
    ]:
        assert db.error(sql) == caused_by(RECTANGULAR), sql
        assert db.sqlstate(sql) == "0A000"
    assert db.error("SELECT array_position(v, 1) FROM rl") == caused_by(
        "not supported by rwshim: searching the elements of a list of lists (the data plane"
        " keeps lists of lists as PostgreSQL's multidimensional arrays, whose functions do not)"
    )
    assert db.error("SELECT array_replace(v, 1, 2) FROM rl") == caused_by(
        NESTED.format("array_replace")
    )
    assert db.rows("SELECT array_replace(array[1, 2, 1], 1, 3)") == [([3, 2, 3],)]


def test_structs_cast_field_by_field(db: Client) -> None:
    """RisingWave casts a struct to another of as many fields field by field (cast.rs
    cast_struct): INSERT ... SELECT into a struct of other field types is an assignment cast
    (e2e_test/batch/types/struct/struct_cast_2.slt.part), ``::struct<...>`` an explicit one."""
    raw_texts(db, 2249)
    db.run("CREATE TABLE st1 (v1 int, v2 struct<v1 int, v2 struct<v1 int, v2 int>>)")
    db.run("CREATE TABLE st2 (v1 int, v2 struct<v1 varchar, v2 struct<v1 varchar, v2 varchar>>)")
    db.run("INSERT INTO st1 VALUES (1, (1, (1, NULL))), (2, (20, (30, 40)))")
    assert db.tag("INSERT INTO st2 SELECT * FROM st1") == "INSERT 0 2"
    assert db.rows("SELECT v2, ((v2).v2).v1 || 'x' FROM st2 ORDER BY v1") == [
        ('(1,"(1,)")', "1x"),
        ('(20,"(30,40)")', "30x"),
    ]
    assert db.rows(
        "SELECT v2::struct<a bigint, b struct<c int, d numeric>> FROM st2 ORDER BY v1"
    ) == [('(1,"(1,)")',), ('(20,"(30,40)")',)]
    # varchar to int is explicit only: not an assignment
    assert db.error("INSERT INTO st1 SELECT * FROM st2") == caused_by(
        'column "v2" is of type struct<v1 integer, v2 struct<v1 integer, v2 integer>> but'
        " expression is of type struct<v1 character varying, v2 struct<v1 character varying,"
        " v2 character varying>>\nHINT: You will need to rewrite or cast the expression."
    )
    assert db.error("SELECT v2::struct<a int> FROM st1") == caused_by(
        "cannot cast type struct<v1 integer, v2 struct<v1 integer, v2 integer>> to"
        " struct<a integer>"
    )


def test_two_rows_compare_as_struct_values(db: Client) -> None:
    """RisingWave compares two structs as values, a NULL field equal to a NULL field
    (StructRef's PartialEq): ``ROW(1, NULL) = ROW(1, NULL)`` is true, where PostgreSQL's
    field-by-field comparison of two row constructors is NULL."""
    assert db.rows(
        "SELECT ROW(1, NULL) = ROW(1, NULL), ROW(1, NULL) <> ROW(1, 2), ROW(1) = ROW('1'),"
        " ROW(1, '1') = ROW('1', 1), (1, 2) != (1, 2)"
    ) == [(True, True, True, True, False)]


def test_extract_answers_at_risingwaves_nanosecond_scale(db: Client) -> None:
    """RisingWave's extract of a time unit is a decimal at nanosecond scale (extract.rs;
    e2e_test/batch/types/timestamp_ns.slt.part's microsecond rows)."""
    db.run("CREATE TABLE te (ts timestamp)")
    db.run(
        "INSERT INTO te VALUES ('2012-01-01 01:01:01.123456'), ('0001-01-01 01:01:01.123456 BC')"
    )
    got = db.rows(
        "SELECT extract(second FROM ts)::varchar, extract(MILLISECOND FROM ts)::varchar,"
        " extract(microsecond FROM ts)::varchar, extract(nanosecond FROM ts)::varchar,"
        " extract('epoch' FROM ts)::varchar FROM te ORDER BY ts DESC"
    )
    assert got == [
        ("1.123456000", "1123.456000", "1123456.000", "1123456000", "1325379661.123456000"),
        ("1.123456000", "1123.456000", "1123456.000", "1123456000", "-62167215538.876544"),
    ]
    cur = db.run(
        "SELECT extract(epoch FROM '2023-06-01 00:00:00Z'::timestamptz)::varchar,"
        " extract(second FROM '2023-06-01 00:00:01.5Z'::timestamptz)::varchar,"
        " extract(epoch FROM time '01:00:00.5')::varchar, extract(day FROM date '2020-01-31')"
    )
    assert [d.name for d in cur.description or []] == ["extract"] * 4
    assert cur.fetchall() == [("1685577600.000000", "1.500000000", "3600.500000000", 31)]


def test_to_char_reads_risingwaves_patterns_only(db: Client) -> None:
    """RisingWave's to_char knows its own patterns (NS among them) and prints every other
    character as written (to_char.rs ChronoPattern::compile); PostgreSQL's reads Day, D, Q...
    and pads Month."""
    assert db.rows(
        "SELECT to_char(timestamp '2012-01-01 01:01:01.123456', 'YYYY-MM-DD HH24:MI:SS.NS'),"
        " to_char(timestamp '2012-03-05 13:01:01', 'Day D Q \"x\" Month Mon hh12 pm')"
    ) == [("2012-01-01 01:01:01.123456000", 'Day D Q "x" March Mar 01 pm')]
    assert db.error("SELECT to_char(timestamp '2012-01-01', 'YYYY%m')") == caused_by(
        "not supported by rwshim: the to_char pattern 'YYYY%m' (RisingWave formats it with"
        " chrono, which reads '%' as its own items)"
    )


def test_to_jsonb_of_structs_takes_their_fields_one_by_one(db: Client) -> None:
    """RisingWave's to_jsonb of a struct is an object of its fields' to_jsonb (to_jsonb.rs
    StructRef): a float field is 1.0, a timestamp RisingWave's text (e2e_test/batch/basic/
    to_jsonb.slt.part)."""
    db.run("CREATE TABLE tj (s struct<a double, b struct<c real, d timestamp>>, l double[])")
    db.run("INSERT INTO tj VALUES ((1, (2, '2020-01-01 00:00:00.5')), array[1, 2.5])")
    assert db.rows(
        "SELECT to_jsonb(s)::varchar, to_jsonb(row(s, l, 'x', NULL))::varchar FROM tj"
    ) == [
        (
            '{"a": 1.0, "b": {"c": 2.0, "d": "2020-01-01T00:00:00.500"}}',
            '{"f1": {"a": 1.0, "b": {"c": 2.0, "d": "2020-01-01T00:00:00.500"}}, "f2": [1.0, 2.5],'
            ' "f3": "x", "f4": null}',
        )
    ]
    cur = db.run("SELECT to_jsonb(row(1.0::float8, row(2, array[1, 3]))), to_jsonb(row())")
    assert [d.name for d in cur.description or []] == ["to_jsonb", "to_jsonb"]
    assert cur.fetchall() == [({"f1": 1.0, "f2": {"f1": 2, "f2": [1, 3]}}, {})]


def test_a_structs_star_in_views(db: Client) -> None:
    """``(s).*`` is a column per field, named after it (struct_field.rs bind_wildcard_field):
    in a view and a materialized view too (e2e_test/batch/basic/logical_view.slt.part)."""
    db.run("CREATE TABLE ts1 (s struct<v1 int, v2 varchar>)")
    assert db.tag("CREATE VIEW vs AS SELECT (ts1.s).* FROM ts1") == "CREATE_VIEW"
    assert db.tag("CREATE MATERIALIZED VIEW ms AS SELECT (s).*, 1 AS x FROM ts1") == (
        "CREATE_MATERIALIZED_VIEW"
    )
    db.run("INSERT INTO ts1 VALUES ((114, '514'))")
    assert db.rows("SELECT v1, v2 FROM vs") == [(114, "514")]
    assert db.rows("SELECT * FROM ms") == [(114, "514", 1)]
    assert db.rows("DESCRIBE ms")[:3] == [
        ("v1", "integer", "false", None),
        ("v2", "character varying", "false", None),
        ("x", "integer", "false", None),
    ]
    assert db.error("CREATE VIEW vn AS SELECT (1).* FROM ts1") == caused_by(
        'Bind error: type "integer" is not composite'
    )


def test_update_of_columns_from_a_subquery_casts_its_row_as_a_struct(db: Client) -> None:
    """``SET (a, b) = (SELECT ...)``: the subquery's row is a struct cast to the columns' in the
    assignment context (update.rs; e2e_test/batch/basic/dml_update.slt.part)."""
    db.run("CREATE TABLE tu (v1 int, v2 int)")
    db.run("INSERT INTO tu VALUES (1, 2)")
    assert db.tag("UPDATE tu SET (v1, v2) = (SELECT 888.88, 999)") == "UPDATE 1"
    assert db.rows("SELECT * FROM tu") == [(889, 999)]
    assert db.error("UPDATE tu SET (v1, v2) = (SELECT '888.88', 999)") == caused_by(
        'cannot cast type "record" to "struct<v1 integer, v2 integer>"',
        'cannot cast struct field "f1" to struct field "v1"',
        'cannot cast type "character varying" to "integer" in Assign context',
    )
    assert db.error("UPDATE tu SET (v1, v2) = (SELECT '888.88' s1, 999 s2)") == caused_by(
        'cannot cast type "struct<s1 character varying, s2 integer>" to'
        ' "struct<v1 integer, v2 integer>"',
        'cannot cast struct field "s1" to struct field "v1"',
        'cannot cast type "character varying" to "integer" in Assign context',
    )
