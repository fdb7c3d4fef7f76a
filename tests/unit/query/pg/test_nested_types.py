"""Lists of structs and nanosecond timestamps on the data plane's text (dataplane/plan/dml.py,
type_limits.py): the cast an array of rows gets into a list-of-structs column, and the
timestamp literals refused rather than rounded."""

from __future__ import annotations

import pytest

from rwshim.binder.context import QueryContext
from rwshim.binder.relations import RelColumn
from rwshim.common import pgtypes, rwtypes
from rwshim.dataplane.plan import checks, tree, type_limits, typemap
from rwshim.errors import RwError

from .conftest import INT, Catalog, pg


def test_an_array_literal_into_a_list_of_structs_is_cast(
    catalog: Catalog, ctx: QueryContext
) -> None:
    rw = "struct<id character varying, name character varying>[]"
    col = RelColumn("data", rwtypes.STRUCT_ARRAY_OID, rw_type=rw)
    t = catalog.table("t", [RelColumn("k", INT), col])
    pg_type = typemap.pg_type(rwtypes.parse(rw))
    out = pg(
        catalog, ctx, "INSERT INTO t VALUES (1, ARRAY[ROW('a', ','), ROW('c', ']')] ), (2, NULL)"
    )
    assert out.text == (
        f'INSERT INTO rw."t{t.id}" AS "t" ("k", "data") VALUES '
        f"(1, CAST(ARRAY[ROW('a', ','), ROW('c', ']')] AS {pg_type}) ), (2, NULL)"
    )
    # a ROW into a struct column PostgreSQL coerces itself: no cast
    catalog.table("s", [RelColumn("v", rwtypes.STRUCT_OID, rw_type="struct<a integer>")])
    assert "CAST" not in pg(catalog, ctx, "INSERT INTO s VALUES (ROW(1))").text


@pytest.mark.parametrize(
    ("text", "nanos"),
    [
        ("2013-01-01 01:01:01.123456789", True),
        ("2013-01-01 01:01:01.1234561", True),
        ("2013-01-01 01:01:01.123456000", False),
        ("2013-01-01 01:01:01.123456", False),
        ("2013-01-01 01:01:01", False),
        ("2013-01-01T01:01:01.0000000010", True),
    ],
)
def test_nanoseconds_in_a_timestamp_text(text: str, nanos: bool) -> None:
    assert type_limits.has_nanoseconds(text) is nanos


def test_timestamp_literals_with_nanoseconds_are_refused() -> None:
    ts = RelColumn("v", pgtypes.TIMESTAMP)
    tz = RelColumn("z", pgtypes.TIMESTAMPTZ)
    text = "2013-01-01 01:01:01.123456789"
    message = type_limits.NANOS_REFUSED.format(text=text)
    for sql, cols in [
        (f"SELECT '{text}'::timestamp", None),
        (f"SELECT CAST('{text}' AS timestamp without time zone)", None),
        (f"SELECT TIMESTAMP '{text}'", None),
        (f"INSERT INTO t VALUES ('{text}')", [ts]),
        (f"INSERT INTO t (z, v) VALUES ('2020-01-01 00:00:00+00', '{text}')", [ts, tz]),
    ]:
        with pytest.raises(RwError) as info:
            checks.check(tree.parse(sql), cols)
        assert info.value.chain == [message], sql
        assert info.value.code == "0A000"
    # a string is a string
    checks.check(tree.parse(f"SELECT '{text}'"), None)
    # timestamptz keeps microseconds in RisingWave too, cutting the rest off: refused, not
    # rounded
    tz_message = type_limits.TZ_DIGITS_REFUSED.format(text=text)
    for sql, cols in [
        (f"SELECT '{text}'::timestamptz", None),
        (f"SELECT TIMESTAMP WITH TIME ZONE '{text}'", None),
        (f"INSERT INTO t (z) VALUES ('{text}')", [ts, tz]),
    ]:
        with pytest.raises(RwError) as info:
            checks.check(tree.parse(sql), cols)
        assert info.value.chain == [tz_message], sql
    checks.check(tree.parse("SELECT '2020-01-01 00:00:00.123456000+00'::timestamptz"), None)


def test_array_ndims_gets_the_depth_the_text_says(catalog: Catalog, ctx: QueryContext) -> None:
    cases = {
        "SELECT array_ndims(null::int[][])": "SELECT rwfn.array_ndims(null::int[][], 2)",
        "SELECT array_ndims(ARRAY[ARRAY[1], ARRAY[2]])": (
            "SELECT rwfn.array_ndims(ARRAY[ARRAY[1], ARRAY[2]], 2)"
        ),
        "SELECT pg_catalog.array_ndims(array[]::int[])": (
            "SELECT rwfn.array_ndims(array[]::int[], 1)"
        ),
        # the text does not say: the value's dimensions (rwfn.array_ndims(a))
        "SELECT array_ndims(array[]::int[] || array[1])": (
            "SELECT array_ndims(array[]::int[] || array[1])"
        ),
    }
    for sql, want in cases.items():
        assert pg(catalog, ctx, sql).text == want, sql


def test_subscripts_of_lists_of_known_depth(catalog: Catalog, ctx: QueryContext) -> None:
    from rwshim.dataplane.plan import lists

    t = catalog.table(
        "lt",
        [
            RelColumn("v", pgtypes.INT4_ARRAY, rw_type="integer[][]"),
            RelColumn("w", pgtypes.INT4_ARRAY, rw_type="integer[]"),
            RelColumn("j", pgtypes.JSONB, rw_type="jsonb"),
        ],
    )
    rel = f'rw."t{t.id}" AS "lt"'
    for sql in [
        "SELECT v[1][2], v[1:2], w[1], w[2:3], j['a']['b'] FROM lt",
        "SELECT x[1] FROM (SELECT v AS x FROM lt) AS q",  # the text does not say x's depth
    ]:
        assert "rw_sub" not in pg(catalog, ctx, sql).text
    assert pg(catalog, ctx, "SELECT v[1], lt.v[1:2][2][1] + 1 FROM lt").text == (
        f'SELECT rwfn.rw_sub(v, 1) AS "v", (rwfn.rw_sub((lt.v)[1:2], 2))[1] + 1 FROM {rel}'
    )
    with pytest.raises(RwError) as info:
        pg(catalog, ctx, "SELECT w[1][1] FROM lt")
    assert info.value.chain == [lists.SUBSCRIPTS_REFUSED.format(written="[1][1]", depth=1)]
    # the column's depth goes to array_ndims and pg_typeof
    assert pg(catalog, ctx, "SELECT array_ndims(v), pg_typeof(v), pg_typeof(w) FROM lt").text == (
        f"SELECT rwfn.array_ndims(v, 2), rwfn.pg_typeof(v, 2), pg_typeof(w) FROM {rel}"
    )


def test_rows_against_struct_columns_and_row_fields(catalog: Catalog, ctx: QueryContext) -> None:
    rw = "struct<v1 integer, v2 struct<v1 integer, v2 integer>>"
    t = catalog.table("st", [RelColumn("v2", rwtypes.STRUCT_OID, rw_type=rw)])
    composite = typemap.pg_type(rwtypes.parse(rw))
    assert pg(catalog, ctx, "SELECT 1 FROM st WHERE v2 <> (1, (1, 3))").text == (
        f'SELECT 1 FROM rw."t{t.id}" AS "st" WHERE v2 <> CAST((1, (1, 3)) AS {composite})'
    )
    # a flat row PostgreSQL compares with a composite itself
    assert "CAST" not in pg(catalog, ctx, "SELECT 1 FROM st WHERE (v2).v2 < (1, 3)").text
    assert pg(catalog, ctx, "SELECT (ROW('a', 2)).f2, 1 + (ROW(1)).f1").text == (
        'SELECT ( 2) AS "f2", 1 + (1)'
    )


def test_containment_operators_of_lists_of_lists(catalog: Catalog, ctx: QueryContext) -> None:
    from rwshim.dataplane.plan import lists

    catalog.table("lo", [RelColumn("v", pgtypes.INT4_ARRAY, rw_type="integer[][]")])
    for sql, op in [
        ("SELECT v @> array[array[1, 3]] FROM lo", "@>"),
        ("SELECT array[array[1]] <@ v FROM lo", "<@"),
        ("SELECT 1 FROM lo WHERE v && '{{1}}'::int[][]", "&&"),
    ]:
        with pytest.raises(RwError) as info:
            pg(catalog, ctx, sql)
        assert info.value.chain == [lists.OPERATOR_REFUSED.format(op=op)], sql
    pg(catalog, ctx, "SELECT array[1, 2] @> array[2], v = v FROM lo")


def test_composite_names_read_back_as_struct_types() -> None:
    t = rwtypes.parse("struct<a integer, b struct<c character varying>>")
    name = typemap.struct_name(t)
    assert typemap.user_types(f"cannot cast type {name} to rwfn.{name}") == (
        "cannot cast type struct<a integer, b struct<c character varying>> to"
        " struct<a integer, b struct<c character varying>>"
    )
    # a name this process did not make stays as it is
    assert typemap.user_types("type rw_s000000000 and rw_sx") == "type rw_s000000000 and rw_sx"


def test_two_rows_compare_as_values(catalog: Catalog, ctx: QueryContext) -> None:
    assert pg(catalog, ctx, "SELECT ROW(1, NULL) = ROW(1, NULL), (1, 2) != (1, 3)").text == (
        "SELECT ROW(1, NULL)  IS NOT DISTINCT FROM  ROW(1, NULL), (1, 2)  IS DISTINCT FROM  (1, 3)"
    )
    # a row and anything else: PostgreSQL's record comparison (NULL fields equal) already
    assert pg(catalog, ctx, "SELECT ROW(1) = (SELECT ROW(1))").text == (
        "SELECT ROW(1) = (SELECT ROW(1))"
    )


def test_extract_of_time_units_goes_to_rwfn(catalog: Catalog, ctx: QueryContext) -> None:
    assert pg(
        catalog,
        ctx,
        "SELECT EXTRACT( SECOND  from now()), extract(year FROM now()), "
        "extract('Epoch' FROM x) FROM (VALUES (1)) AS t(x)",
    ).text == (
        "SELECT rwfn.extract('second', now()), extract(year FROM now()), "
        "rwfn.extract('epoch', x) FROM (VALUES (1)) AS t(x)"
    )


def test_to_char_patterns_as_postgresqls() -> None:
    from rwshim.dataplane.plan import chrono

    assert chrono.to_char_format("YYYY-MM-DD HH24:MI:SS.NS") == (
        'YYYY"-"MM"-"DD" "HH24":"MI":"SS"."US"000"'
    )
    assert chrono.to_char_format('Day "q" \\ Month') == '"Day \\"q\\" \\\\ "FMMonth'
    assert chrono.to_char_format("%Y") is None


def test_to_jsonb_of_a_row_goes_field_by_field(catalog: Catalog, ctx: QueryContext) -> None:
    assert pg(catalog, ctx, "SELECT to_jsonb(row(1, array[1, 2], (3, 'x')))").text == (
        "SELECT to_jsonb(pg_catalog.jsonb_build_object('f1', to_jsonb(1), 'f2', "
        "to_jsonb(array[1, 2]), 'f3', to_jsonb(pg_catalog.jsonb_build_object('f1', to_jsonb(3),"
        " 'f2', to_jsonb(CAST('x' AS varchar))))))"
    )


def test_risingwaves_cast_table() -> None:
    from rwshim.binder import casts

    assert casts.cast_ok(pgtypes.VARCHAR, pgtypes.INT4, casts.EXPLICIT)
    assert not casts.cast_ok(pgtypes.VARCHAR, pgtypes.INT4, casts.ASSIGN)
    assert casts.cast_ok(pgtypes.NUMERIC, pgtypes.INT4, casts.ASSIGN)
    assert not casts.cast_ok(pgtypes.NUMERIC, pgtypes.INT4, casts.IMPLICIT)
    assert casts.cast_ok(pgtypes.INT4, pgtypes.INT8, casts.IMPLICIT)
    assert casts.cast_ok(pgtypes.TEXT, pgtypes.VARCHAR, casts.IMPLICIT)
    assert not casts.cast_ok(pgtypes.DATE, pgtypes.INT4, casts.EXPLICIT)
    assert casts.cast_ok(pgtypes.INT4, pgtypes.BOOL, casts.EXPLICIT)
    assert not casts.cast_ok(pgtypes.INT2, pgtypes.BOOL, casts.EXPLICIT)


def test_string_array_literals_are_lists_of_varchar(catalog: Catalog, ctx: QueryContext) -> None:
    """bind_array (binder/expr/value.rs:119-132): ARRAY of unknown literals is varchar[]; under
    a cast each literal is cast (bind_array_cast); an INSERT's VALUES item is left alone."""
    col = RelColumn("arr", pgtypes.VARCHAR_ARRAY, rw_type="character varying[]")
    t = catalog.table("sa", [col])
    phys = f'rw."t{t.id}"'
    cases = {
        "SELECT * FROM sa WHERE arr = ARRAY['a', 'b']": (
            f'SELECT "sa"."arr" FROM {phys} AS "sa" WHERE arr = (ARRAY[\'a\', \'b\']::varchar[])'
        ),
        "UPDATE sa SET arr = array['a', NULL] WHERE arr <> ARRAY[['x'], ['y]']]": (
            f"UPDATE {phys} AS \"sa\" SET arr = (array['a', NULL]::varchar[])"
            " WHERE arr <> (ARRAY[['x'], ['y]']]::varchar[][])"
        ),
        "SELECT ARRAY['1']::int[], ARRAY[1], ARRAY[NULL] FROM sa": (
            f"SELECT ARRAY['1']::int[], ARRAY[1], ARRAY[NULL] FROM {phys} AS \"sa\""
        ),
        "INSERT INTO sa VALUES (ARRAY['a'])": (
            f'INSERT INTO {phys} AS "sa" ("arr") VALUES (ARRAY[\'a\'])'
        ),
    }
    for sql, want in cases.items():
        assert pg(catalog, ctx, sql).text == want, sql
