"""The binder's reading of a streaming job's query (``QueryEngine.analyze``): a WITH's names
visible to every FROM item of its query, a subquery's and a TUMBLE's included
(e2e_test/streaming/bug_fixes/issue_15198.slt); a table's hidden ``_row_id`` bound by name and
left out of stars (binder/relation/table_or_source.rs:533-537,
e2e_test/streaming/aggregate/distinct_agg_with_row_id.slt); ``to_timestamp(text, format)``
typed timestamptz; GROUPING SETS' columns as group keys."""

from __future__ import annotations

import pytest

from rwshim.binder.context import QueryContext
from rwshim.catalog_path.engine import QueryEngine
from rwshim.common import pgtypes

from .conftest import Catalog


@pytest.fixture
def t(catalog: Catalog) -> None:
    catalog.table("t", [("id", pgtypes.INT4), ("ts", pgtypes.TIMESTAMPTZ)])


def columns(engine: QueryEngine, ctx: QueryContext, sql: str) -> list[tuple[str, int]]:
    return [(c.name, c.type_oid) for c in engine.analyze(sql, ctx).columns]


@pytest.mark.usefixtures("t")
def test_ctes_are_visible_to_from_items(engine: QueryEngine, ctx: QueryContext) -> None:
    assert columns(
        engine, ctx, "WITH input AS (SELECT id FROM t) SELECT * FROM (SELECT * FROM input) s"
    ) == [("id", pgtypes.INT4)]
    assert columns(
        engine,
        ctx,
        "WITH input AS (SELECT 1 AS id, to_timestamp('2024-01-01', 'YYYY-MM-DD') AS ts)"
        " SELECT * FROM tumble(input, ts, interval '1 DAY', '+6 HOURS')",
    ) == [
        ("id", pgtypes.INT4),
        ("ts", pgtypes.TIMESTAMPTZ),
        ("window_start", pgtypes.TIMESTAMPTZ),
        ("window_end", pgtypes.TIMESTAMPTZ),
    ]


@pytest.mark.usefixtures("t")
def test_row_id_binds_by_name_only(engine: QueryEngine, ctx: QueryContext) -> None:
    assert columns(engine, ctx, "SELECT count(DISTINCT _row_id) AS c FROM t") == [
        ("c", pgtypes.INT8)
    ]
    assert [n for n, _ in columns(engine, ctx, "SELECT * FROM t")] == ["id", "ts"]
    assert [n for n, _ in columns(engine, ctx, "SELECT * FROM t AS a NATURAL JOIN t AS b")] == [
        "id",
        "ts",
    ]


@pytest.mark.usefixtures("t")
def test_grouping_sets_columns_are_keys(engine: QueryEngine, ctx: QueryContext) -> None:
    assert [
        n
        for n, _ in columns(
            engine, ctx, "SELECT id, ts, count(*) AS n FROM t GROUP BY GROUPING SETS ((id), (ts))"
        )
    ] == ["id", "ts", "n"]


@pytest.mark.usefixtures("t")
def test_lateral_subquery_sees_the_items_before_it(engine: QueryEngine, ctx: QueryContext) -> None:
    """e2e_test/streaming/bug_fixes/issue_15075.slt (binder/relation/mod.rs:643-656)."""
    assert columns(
        engine,
        ctx,
        "SELECT o.id, b.n FROM t AS o LEFT JOIN LATERAL"
        " (SELECT count(*) FILTER (WHERE i.ts >= o.ts) AS n FROM t AS i WHERE i.id = o.id) AS b"
        " ON TRUE",
    ) == [("id", pgtypes.INT4), ("n", pgtypes.INT8)]
