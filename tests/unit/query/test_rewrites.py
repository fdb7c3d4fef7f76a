"""Each PostgreSQL construct the translation rewrites for SQLite, run end to end."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from rwshim.binder.context import QueryContext
from rwshim.catalog_path.engine import QueryEngine
from rwshim.catalog_path.sqlite.executor import encode_param
from rwshim.common import pgtypes
from rwshim.errors import RwError

from .conftest import Catalog, World


def one(
    engine: QueryEngine, ctx: QueryContext, sql: str, params: tuple[object, ...] = ()
) -> object:
    rows = list(engine.execute(sql, params, ctx).rows)
    assert len(rows) == 1 and len(rows[0]) == 1, rows
    return rows[0][0]


@pytest.fixture
def t(catalog: Catalog, engine: QueryEngine, ctx: QueryContext) -> None:
    catalog.rows(
        "t",
        [("id", pgtypes.INT4), ("s", pgtypes.VARCHAR), ("b", pgtypes.BOOL)],
        "(1, 'abc', true), (2, 'ABD', false), (3, NULL, NULL)",
    )


@pytest.mark.usefixtures("t")
@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT count(*) FROM t WHERE s ~ '^a'", 1),
        ("SELECT count(*) FROM t WHERE s ~* '^a'", 2),
        ("SELECT count(*) FROM t WHERE s !~ '^a'", 1),
        ("SELECT count(*) FROM t WHERE s !~* '^a'", 0),
        (
            "SELECT count(*) FROM t WHERE s OPERATOR(pg_catalog.~) '^(abc)$' COLLATE \"C\"",
            1,
        ),
        ("SELECT count(*) FROM t WHERE s LIKE 'a%'", 1),
        ("SELECT count(*) FROM t WHERE s ILIKE 'a%'", 2),
        ("SELECT count(*) FROM t WHERE s LIKE 'a\\_c'", 0),
        ("SELECT count(*) FROM t WHERE s LIKE 'a#%' ESCAPE '#'", 0),
        ("SELECT count(*) FROM t WHERE s NOT LIKE 'a%'", 1),
        ("SELECT count(*) FROM t WHERE s NOT LIKE '%'", 0),
        ("SELECT count(*) FROM t WHERE s NOT LIKE 'x%'", 2),
        ("SELECT count(*) FROM t WHERE s NOT ILIKE 'a%'", 0),
        ("SELECT count(*) FROM t WHERE s NOT LIKE 'x#%' ESCAPE '#'", 2),
        ("SELECT count(*) FROM t WHERE id = ANY(ARRAY[1, 3])", 2),
        ("SELECT count(*) FROM t WHERE id = ANY('{1,2}'::int[])", 2),
        ("SELECT count(*) FROM t WHERE id <> ALL(ARRAY[1, 3])", 1),
        ("SELECT count(*) FROM t WHERE id = ANY(SELECT id FROM t WHERE b)", 1),
        ("SELECT count(*) FROM t WHERE s IS DISTINCT FROM 'abc'", 2),
        ("SELECT count(*) FROM t WHERE s IS NOT DISTINCT FROM NULL", 1),
        ("SELECT count(*) FROM t WHERE b", 1),
        ("SELECT count(*) FROM t WHERE b = 't'", 1),
        ("SELECT count(*) FROM t WHERE b IS NOT TRUE", 2),
    ],
)
def test_predicates(engine: QueryEngine, ctx: QueryContext, sql: str, expected: object) -> None:
    assert one(engine, ctx, sql) == expected


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT E'a\\nb'", "a\nb"),
        ("SELECT 'it''s'", "it's"),
        ("SELECT 7 / 2", 3),
        ("SELECT -7 / 2", -3),
        ("SELECT 7 % 3", 1),
        ("SELECT 7.0 / 2", Decimal("3.5")),
        ("SELECT 1.5::float8 * 2", 3.0),
        ("SELECT 'abc' || 1", "abc1"),
        ("SELECT ARRAY[1, 2] || ARRAY[3]", [1, 2, 3]),
        ("SELECT (ARRAY['a', 'b'])[2]", "b"),
        ("SELECT ARRAY(SELECT x FROM generate_series(1, 3) AS g(x))", [1, 2, 3]),
        ("SELECT ARRAY(SELECT 1 WHERE false)", []),
        ("SELECT '1 day'::interval", dt.timedelta(days=1)),
        ("SELECT '2020-01-01 00:00:00'::timestamp + interval '1 day'", dt.datetime(2020, 1, 2)),
        ("SELECT '2020-01-02'::date - '2020-01-01'::date", 1),
        ("SELECT '2020-01-01'::date + 3", dt.date(2020, 1, 4)),
        ("SELECT '12'::int + 1", 13),
        ("SELECT 12::text", "12"),
        ("SELECT true::text", "true"),
        ("SELECT 'x'::char(3)", "x"),
        ("SELECT 'x'::pg_catalog.text", "x"),
        ("SELECT '7'::pg_catalog.int8", 7),
        ("SELECT 'f'::regproc", "f"),
        # RisingWave's ToText of Time and Timestamp (datetime.rs:338-365: chrono's Display)
        ("SELECT '2024-01-02 03:04:05'::timestamp::varchar", "2024-01-02 03:04:05"),
        ("SELECT '2024-01-02 03:04:05.5'::timestamp::text", "2024-01-02 03:04:05.500"),
        ("SELECT '2024-01-02 03:04:05.0001'::timestamp::varchar", "2024-01-02 03:04:05.000100"),
        ("SELECT '2024-01-02 03:04:05+02'::timestamptz::varchar", "2024-01-02 01:04:05+00:00"),
        ("SELECT '03:04:05'::time::varchar", "03:04:05"),
        ("SELECT '03:04:05.12'::time::varchar", "03:04:05.120"),
        ("SELECT 'at ' || '2024-01-02'::timestamp", "at 2024-01-02 00:00:00"),
        ("SELECT '{a,b}'::text[]", ["a", "b"]),
        ("SELECT CAST('{1,2}' AS int4[])", [1, 2]),
        ("SELECT CASE WHEN 1 = 1 THEN 'y' ELSE 'n' END", "y"),
        ("SELECT COALESCE(NULL, 2)", 2),
        ("SELECT NULLIF(1, 1)", None),
        ("SELECT GREATEST(1, NULL, 3)", 3),
        ("SELECT LEAST(4, 2)", 2),
        ("SELECT 3 IN (1, 2, 3)", True),
        ("SELECT EXISTS (SELECT 1)", True),
        ("SELECT (SELECT 5)", 5),
    ],
)
def test_expressions(engine: QueryEngine, ctx: QueryContext, sql: str, expected: object) -> None:
    assert one(engine, ctx, sql) == expected


def test_parameters_are_numbered(engine: QueryEngine, ctx: QueryContext) -> None:
    assert one(engine, ctx, "SELECT $2::int - $1::int", (1, 10)) == 9
    assert one(engine, ctx, "SELECT $1::text || $1::text", ("ab",)) == "abab"


def test_recursive_cte(engine: QueryEngine, ctx: QueryContext) -> None:
    out = engine.execute(
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 4) "
        "SELECT sum(n) FROM r",
        (),
        ctx,
    )
    assert list(out.rows) == [(10,)]
    assert out.columns is not None and out.columns[0].type_oid == pgtypes.INT8


@pytest.mark.usefixtures("t")
def test_distinct_on_keeps_first_row_per_key(engine: QueryEngine, ctx: QueryContext) -> None:
    out = engine.execute(
        "SELECT DISTINCT ON (b) b, id FROM t WHERE b IS NOT NULL ORDER BY b, id DESC", (), ctx
    )
    assert [c.name for c in out.columns or []] == ["b", "id"]
    assert list(out.rows) == [(False, 2), (True, 1)]


@pytest.mark.usefixtures("t")
def test_ordered_aggregates(engine: QueryEngine, ctx: QueryContext) -> None:
    assert one(engine, ctx, "SELECT array_agg(id ORDER BY id DESC) FROM t") == [3, 2, 1]
    assert one(engine, ctx, "SELECT string_agg(s, ',' ORDER BY s) FROM t") == "ABD,abc"
    assert one(engine, ctx, "SELECT bool_and(b) FROM t") is False
    assert one(engine, ctx, "SELECT bool_or(b) FROM t") is True


@pytest.mark.usefixtures("t")
def test_nulls_sort_as_in_postgresql(engine: QueryEngine, ctx: QueryContext) -> None:
    asc = [r[0] for r in engine.execute("SELECT s FROM t ORDER BY s", (), ctx).rows]
    desc = [r[0] for r in engine.execute("SELECT s FROM t ORDER BY s DESC", (), ctx).rows]
    assert asc == ["ABD", "abc", None]
    assert desc == [None, "abc", "ABD"]


def test_set_returning_functions(engine: QueryEngine, ctx: QueryContext) -> None:
    assert list(engine.execute("SELECT unnest(ARRAY['a', 'b'])", (), ctx).rows) == [("a",), ("b",)]
    assert list(engine.execute("SELECT * FROM generate_series(1, 5, 2)", (), ctx).rows) == [
        (1,),
        (3,),
        (5,),
    ]
    out = engine.execute(
        "SELECT * FROM unnest(ARRAY['x', 'y']) WITH ORDINALITY AS u(v, n)", (), ctx
    )
    assert [c.name for c in out.columns or []] == ["v", "n"]
    assert list(out.rows) == [("x", 1), ("y", 2)]
    assert list(engine.execute("SELECT generate_subscripts(ARRAY['p', 'q'], 1)", (), ctx).rows) == [
        (1,),
        (2,),
    ]


def test_regclass_of_user_and_system_relations(world: World) -> None:
    world.table("t", [("a", pgtypes.INT4, "integer")])
    tid = world.rows("SELECT id FROM rw_tables WHERE name = 't'")[0][0]
    assert world.rows("SELECT 't'::regclass") == [(tid,)]
    assert world.rows("SELECT 'public.t'::regclass") == [(tid,)]
    assert world.rows("SELECT $1::regclass", ("t",)) == [(tid,)]
    pg_class = world.rows("SELECT oid FROM pg_catalog.pg_class WHERE relname = 'pg_class'")
    assert world.rows("SELECT 'pg_class'::regclass") == pg_class


def test_catalog_functions(world: World) -> None:
    world.table("t", [("a", pgtypes.INT4, "integer")])
    tid = world.rows("SELECT id FROM rw_tables WHERE name = 't'")[0][0]
    # RisingWave answers NULL for an id no user has (pg_get_userbyid.rs:25-34), not
    # PostgreSQL's 'unknown (OID=999)' (the old expectation)
    assert world.rows("SELECT pg_catalog.pg_get_userbyid(1), pg_get_userbyid(999)") == [
        ("root", None)
    ]
    assert world.rows(f"SELECT pg_table_is_visible({tid})") == [(True,)]
    assert world.rows("SELECT pg_catalog.format_type(1043, 24), format_type(23, NULL)") == [
        ("character varying(20)", "integer")
    ]
    assert world.rows(
        "SELECT current_schema(), current_schema, current_user, current_database()"
    ) == [("public", "public", "root", "dev")]
    # "$user" names a schema that does not exist: skipped, as PostgreSQL does
    assert world.rows("SELECT current_schemas(true), current_schemas(false)") == [
        (["pg_catalog", "rw_catalog", "public"], ["public"])
    ]


def test_json_operators(engine: QueryEngine, ctx: QueryContext, catalog: Catalog) -> None:
    catalog.rows(
        "j",
        [("id", pgtypes.INT4), ("doc", pgtypes.JSONB)],
        """(1, '{"k": 1, "l": [1, 2]}'::jsonb), (2, NULL)""",
    )
    out = engine.execute(
        "SELECT doc -> 'l', doc ->> 'k', doc @> '{\"k\": 1}', "
        "'{\"k\": 1}'::jsonb <@ doc FROM j ORDER BY id",
        (),
        ctx,
    )
    assert [(c.name, c.type_oid) for c in out.columns or []] == [
        ("?column?", pgtypes.JSONB),
        ("?column?", pgtypes.VARCHAR),
        ("?column?", pgtypes.BOOL),
        ("?column?", pgtypes.BOOL),
    ]
    assert list(out.rows) == [("[1, 2]", "1", True, True), (None, None, None, None)]
    assert list(engine.execute("SELECT doc ->> 'l' FROM j WHERE id = 1", (), ctx).rows) == [
        ("[1, 2]",)
    ]


def test_window_functions_including_decimal_sum(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.rows(
        "w",
        [("id", pgtypes.INT4), ("g", pgtypes.VARCHAR), ("v", pgtypes.NUMERIC)],
        "(1, 'a', 1.5), (2, 'a', 2::numeric), (3, 'b', 4::numeric)",
    )
    out = engine.execute(
        "SELECT id, row_number() OVER (PARTITION BY g ORDER BY id), "
        "sum(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM w ORDER BY id",
        (),
        ctx,
    )
    assert [(c.name, c.type_oid) for c in out.columns or []] == [
        ("id", pgtypes.INT4),
        ("row_number", pgtypes.INT8),
        ("sum", pgtypes.NUMERIC),
    ]
    assert list(out.rows) == [(1, 1, Decimal("1.5")), (2, 2, Decimal("3.5")), (3, 1, Decimal("6"))]


def test_using_and_natural_joins_merge_the_join_columns(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.rows("l", [("id", pgtypes.INT4), ("a", pgtypes.VARCHAR)], "(1, 'x'), (2, 'y')")
    catalog.rows("r", [("id", pgtypes.INT4), ("b", pgtypes.VARCHAR)], "(1, 'p')")
    for sql in ("SELECT * FROM l JOIN r USING (id)", "SELECT * FROM l NATURAL JOIN r"):
        out = engine.execute(sql, (), ctx)
        assert [c.name for c in out.columns or []] == ["id", "a", "b"]
        assert list(out.rows) == [(1, "x", "p")]
    assert list(engine.execute("SELECT id FROM l JOIN r USING (id)", (), ctx).rows) == [(1,)]


def test_similar_to_and_to_char(engine: QueryEngine, ctx: QueryContext) -> None:
    assert one(engine, ctx, "SELECT 'abc' SIMILAR TO 'a(b|c)%'") is True
    assert one(engine, ctx, "SELECT 'abc' SIMILAR TO 'b%'") is False
    out = engine.execute("SELECT to_char('2024-03-05 00:00:00'::timestamp, 'YYYY-MM-DD')", (), ctx)
    assert [c.name for c in out.columns or []] == ["to_char"]
    assert list(out.rows) == [("2024-03-05",)]


@pytest.mark.usefixtures("t")
def test_group_by_prefers_input_columns_order_by_output_names(
    engine: QueryEngine, ctx: QueryContext
) -> None:
    # GROUP BY id: the input column (3 groups), not the output named id
    out = engine.execute("SELECT id % 2 AS id, count(*) FROM t GROUP BY id ORDER BY 1", (), ctx)
    assert sorted(out.rows) == [(0, 1), (1, 1), (1, 1)]  # type: ignore[type-var]
    # a name that is no input column is the output column
    out = engine.execute(
        "SELECT id % 2 AS parity, count(*) FROM t GROUP BY parity ORDER BY parity", (), ctx
    )
    assert list(out.rows) == [(0, 1), (1, 2)]
    # ORDER BY a bare name means the output column first
    out = engine.execute("SELECT -id AS id FROM t ORDER BY id", (), ctx)
    assert list(out.rows) == [(-3,), (-2,), (-1,)]


def test_function_in_from_reads_earlier_items(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.rows(
        "arrs",
        [("id", pgtypes.INT4), ("xs", pgtypes.INT4_ARRAY)],
        "(1, ARRAY[10, 20]), (2, ARRAY[30])",
    )
    out = engine.execute(
        "SELECT a.id, u.x, u.n FROM arrs a, unnest(a.xs) WITH ORDINALITY AS u(x, n) ORDER BY 1, 3",
        (),
        ctx,
    )
    assert list(out.rows) == [(1, 10, 1), (1, 20, 2), (2, 30, 1)]


def test_emit_on_window_close_is_set_aside(engine: QueryEngine, ctx: QueryContext) -> None:
    an = engine.analyze("SELECT 1 AS a EMIT ON WINDOW CLOSE", ctx)
    assert [c.name for c in an.columns] == ["a"]


def test_parameters_without_spaces_are_not_dollar_quotes(
    engine: QueryEngine, ctx: QueryContext
) -> None:
    # asyncpg users write "$1,$2"; sqlglot alone reads "$1,$" as a dollar-quote tag
    out = engine.execute("SELECT $1::int4,$2::varchar,'$1,$2' AS s,$$a$1,$$ AS d", (7, "x"), ctx)
    assert [tuple(r) for r in out.rows] == [(7, "x", "$1,$2", "a$1,")]


def test_binary_interval_parameter(engine: QueryEngine, ctx: QueryContext) -> None:
    # the binary codec hands intervals over as pgtypes.Interval (months, days, microseconds)
    param = encode_param(pgtypes.Interval(1, 2, 3_000_007), pgtypes.INTERVAL)
    out = engine.execute("SELECT $1::interval", (param,), ctx)
    assert [tuple(r) for r in out.rows] == [(dt.timedelta(days=32, seconds=3, microseconds=7),)]


def test_unnest_without_ordinality_has_one_column(engine: QueryEngine, ctx: QueryContext) -> None:
    out = engine.execute("SELECT * FROM unnest(ARRAY[3, 4])", (), ctx)
    assert [c.name for c in out.columns or []] == ["unnest"]
    assert [tuple(r) for r in out.rows] == [(3,), (4,)]
    out = engine.execute("SELECT * FROM unnest(ARRAY[3, 4]) WITH ORDINALITY", (), ctx)
    assert [c.name for c in out.columns or []] == ["unnest", "ordinality"]
    assert [tuple(r) for r in out.rows] == [(3, 1), (4, 2)]


def test_numeric_arithmetic_past_64_bits(engine: QueryEngine, ctx: QueryContext) -> None:
    assert one(engine, ctx, "SELECT 1e20::numeric + 1") == Decimal("1E+20")
    assert one(engine, ctx, "SELECT 99999999999999999999::numeric * 10") == Decimal("1E+21")


# binder/expr/mod.rs bind_cast / bind_data_type: the type names RisingWave refuses in a cast
_UNSUPPORTED = "Feature is not yet implemented: unsupported data type: {}\n" + (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&"
    "template=feature_request.yml"
)


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT 23::oid", _UNSUPPORTED.format("oid")),
        ("SELECT 'v'::regclass::pg_catalog.oid", _UNSUPPORTED.format("pg_catalog.oid")),
        ("SELECT 't1'::pg_catalog.regclass", _UNSUPPORTED.format("pg_catalog.regclass")),
        ("SELECT 23::regtype", _UNSUPPORTED.format("regtype")),
        ("SELECT 'x'::name", _UNSUPPORTED.format("name")),
        ("SELECT 'x'::\"char\"", _UNSUPPORTED.format('"char"')),
        ("SELECT 'x'::uuid", _UNSUPPORTED.format("UUID")),
        ("SELECT 1::numeric(10,2)", _UNSUPPORTED.format("NUMERIC(10,2)")),
        ("SELECT 1::pg_catalog.bool", _UNSUPPORTED.format("pg_catalog.bool")),
        ("SELECT 1::serial", "Not supported: Column type SERIAL is not supported\n"
         "HINT: Please remove the SERIAL column"),
        ("SELECT 1::regproc", "Bind error: Can't cast integer to regproc"),
    ],
)  # fmt: skip
def test_cast_types_risingwave_refuses(
    engine: QueryEngine, ctx: QueryContext, sql: str, message: str
) -> None:
    with pytest.raises(RwError) as info:
        engine.execute(sql, (), ctx)
    assert info.value.chain[-1] == message
