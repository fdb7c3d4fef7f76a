"""Describe: result column names and builtin OIDs, parameter types inferred from context."""

from __future__ import annotations

import pytest

from rwshim.binder.context import QueryContext
from rwshim.catalog_path.engine import QueryEngine
from rwshim.common import pgtypes

from .conftest import Catalog, World


@pytest.fixture
def t(catalog: Catalog) -> None:
    catalog.table(
        "t",
        [
            ("i", pgtypes.INT2),
            ("n", pgtypes.NUMERIC),
            ("f", pgtypes.FLOAT4),
            ("s", pgtypes.VARCHAR),
            ("ts", pgtypes.TIMESTAMPTZ),
            ("arr", pgtypes.INT4_ARRAY),
            ("j", pgtypes.JSONB),
        ],
    )


def cols(engine: QueryEngine, ctx: QueryContext, sql: str) -> list[tuple[str, int]]:
    d = engine.describe(sql, [], ctx)
    return [(c.name, c.type_oid) for c in d.columns or []]


@pytest.mark.usefixtures("t")
@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT 1", [("?column?", pgtypes.INT4)]),
        ("SELECT 3000000000", [("?column?", pgtypes.INT8)]),
        ("SELECT 1.5", [("?column?", pgtypes.NUMERIC)]),
        ("SELECT 'a'", [("?column?", pgtypes.VARCHAR)]),
        ("SELECT NULL", [("?column?", pgtypes.VARCHAR)]),
        ("SELECT true AS ok", [("ok", pgtypes.BOOL)]),
        (
            "SELECT i + 1, i * n, f * 2, f + 1.5 FROM t",
            [
                ("?column?", pgtypes.INT4),
                ("?column?", pgtypes.NUMERIC),
                ("?column?", pgtypes.FLOAT4),
                ("?column?", pgtypes.FLOAT8),
            ],
        ),
        (
            "SELECT count(*), sum(i), sum(n), avg(i), avg(f), min(s), max(ts) FROM t",
            [
                ("count", pgtypes.INT8),
                ("sum", pgtypes.INT8),
                ("sum", pgtypes.NUMERIC),
                ("avg", pgtypes.NUMERIC),
                ("avg", pgtypes.FLOAT8),
                ("min", pgtypes.VARCHAR),
                ("max", pgtypes.TIMESTAMPTZ),
            ],
        ),
        (
            "SELECT i::text, s::int, CAST(n AS double precision), 'x'::varchar FROM t",
            [
                ("i", pgtypes.VARCHAR),
                ("s", pgtypes.INT4),
                ("n", pgtypes.FLOAT8),
                ("varchar", pgtypes.VARCHAR),
            ],
        ),
        (
            "SELECT arr, arr[1], array_agg(s) FROM t GROUP BY arr",
            [
                ("arr", pgtypes.INT4_ARRAY),
                ("arr", pgtypes.INT4),
                ("array_agg", pgtypes.VARCHAR_ARRAY),
            ],
        ),
        (
            "SELECT CASE WHEN i > 0 THEN n END, coalesce(i, 0), extract(year FROM ts), now() "
            "FROM t",
            [
                ("case", pgtypes.NUMERIC),
                ("coalesce", pgtypes.INT4),
                ("extract", pgtypes.NUMERIC),
                ("now", pgtypes.TIMESTAMPTZ),
            ],
        ),
        (
            "SELECT t.s AS \"Name\", upper(s), s LIKE 'a%' FROM t",
            [("Name", pgtypes.VARCHAR), ("upper", pgtypes.VARCHAR), ("?column?", pgtypes.BOOL)],
        ),
        (
            "SELECT * FROM t",
            [
                ("i", pgtypes.INT2),
                ("n", pgtypes.NUMERIC),
                ("f", pgtypes.FLOAT4),
                ("s", pgtypes.VARCHAR),
                ("ts", pgtypes.TIMESTAMPTZ),
                ("arr", pgtypes.INT4_ARRAY),
                ("j", pgtypes.JSONB),
            ],
        ),
        ("SELECT x FROM (SELECT i AS x FROM t) AS sub", [("x", pgtypes.INT2)]),
        (
            "WITH w(a, b) AS (SELECT s, ts FROM t) SELECT b, a FROM w",
            [("b", pgtypes.TIMESTAMPTZ), ("a", pgtypes.VARCHAR)],
        ),
        ("SELECT 1 AS a UNION ALL SELECT 2", [("a", pgtypes.INT4)]),
        ("VALUES (1, 'a')", [("column1", pgtypes.INT4), ("column2", pgtypes.VARCHAR)]),
        (
            "SELECT version(), pg_catalog.version()",
            [("version", pgtypes.VARCHAR), ("version", pgtypes.VARCHAR)],
        ),
        (
            "SELECT 't'::regclass, 'f'::regproc",
            [("regclass", pgtypes.INT4), ("regproc", pgtypes.VARCHAR)],
        ),
    ],
)
def test_result_columns(
    engine: QueryEngine, ctx: QueryContext, sql: str, expected: list[tuple[str, int]]
) -> None:
    assert cols(engine, ctx, sql) == expected


@pytest.mark.usefixtures("t")
@pytest.mark.parametrize(
    ("sql", "given", "expected"),
    [
        ("SELECT * FROM t WHERE i = $1", [0], [pgtypes.INT2]),
        ("SELECT * FROM t WHERE $1 = s", [0], [pgtypes.VARCHAR]),
        ("SELECT * FROM t WHERE s = ANY($1)", [0], [pgtypes.VARCHAR_ARRAY]),
        ("SELECT * FROM t WHERE i IN ($1, $2)", [0, 0], [pgtypes.INT2, pgtypes.INT2]),
        ("SELECT $1::int8, $2::text", [0, 0], [pgtypes.INT8, pgtypes.VARCHAR]),
        ("SELECT * FROM t LIMIT $1 OFFSET $2", [0, 0], [pgtypes.INT8, pgtypes.INT8]),
        ("SELECT $1", [0], [pgtypes.VARCHAR]),
        ("SELECT * FROM t WHERE i = $1", [pgtypes.INT8], [pgtypes.INT8]),
        ("SELECT set_config('jit', $1, false)", [0], [pgtypes.VARCHAR]),
    ],
)
def test_parameter_inference(
    engine: QueryEngine, ctx: QueryContext, sql: str, given: list[int], expected: list[int]
) -> None:
    assert engine.describe(sql, given, ctx).param_oids == expected


def test_psycopg_text_array_parameter_for_relkind(world: World) -> None:
    """psycopg sends `'{r,p,f}'` with OID 0 for `c.relkind = ANY($1)` (clients.md §1 item 9)."""
    world.table("t", [("a", pgtypes.INT4, "integer")])
    sql = (
        "SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
        "ON n.oid = c.relnamespace WHERE c.relkind = ANY($1) AND n.nspname = 'public'"
    )
    d = world.query.describe(sql, [0], world.ctx)
    assert d.param_oids == [pgtypes.VARCHAR_ARRAY]
    out = world.query.execute(sql, ["{r,p,f}"], world.ctx, [0])
    assert list(out.rows) == [("t",)]
    out = world.query.execute(sql, [["v"]], world.ctx, [pgtypes.VARCHAR_ARRAY])
    assert list(out.rows) == []


def test_dml_without_returning_describes_no_rows(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.table("d", [("a", pgtypes.INT4)])
    d = engine.describe("INSERT INTO d VALUES ($1)", [0], ctx)
    assert d.param_oids == [pgtypes.INT4]
    assert d.columns is None
    d = engine.describe("DELETE FROM d WHERE a = $1 RETURNING a", [0], ctx)
    assert [(c.name, c.type_oid) for c in d.columns or []] == [("a", pgtypes.INT4)]


@pytest.mark.parametrize(
    ("sql", "name"),
    [
        ("SELECT 1::int", "int4"),
        ("SELECT 'a'::char", "bpchar"),
        ("SELECT 'a'::text", "text"),
        ("SELECT 'a'::varchar", "varchar"),
        ("SELECT 1::bigint", "int8"),
        ("SELECT 1.0::double precision", "float8"),
        ("SELECT '1'::numeric", "numeric"),
        ("SELECT 'a'::pg_catalog.text", "text"),
        ("SELECT '{1}'::int[]", "int4"),
        ("SELECT now()::timestamptz", "now"),
        ("SELECT '1 day'::interval", "interval"),
    ],
)
def test_cast_column_names(engine: QueryEngine, ctx: QueryContext, sql: str, name: str) -> None:
    """binder/select.rs:706-770: derive_alias, then data_type_to_alias."""
    assert [c[0] for c in cols(engine, ctx, sql)] == [name]
