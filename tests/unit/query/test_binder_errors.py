"""Binder and catalog errors in RisingWave's words, checked as the whole client text."""

from __future__ import annotations

import pytest

from rwshim.binder.context import QueryContext
from rwshim.binder.relations import RelKind
from rwshim.catalog_path.engine import QueryEngine
from rwshim.common import pgtypes
from rwshim.errors import RwError

from .conftest import Catalog


def report(engine: QueryEngine, ctx: QueryContext, sql: str) -> str:
    with pytest.raises(RwError) as info:
        out = engine.execute(sql, (), ctx)
        list(out.rows)
    return info.value.report()


@pytest.fixture
def t(catalog: Catalog) -> None:
    catalog.table("t", [("v1", pgtypes.INT4), ("v2", pgtypes.INT4)])
    catalog.table("u", [("v1", pgtypes.INT4), ("w", pgtypes.VARCHAR)])


def test_unknown_column_without_from(engine: QueryEngine, ctx: QueryContext) -> None:
    # e2e_test/error_ui/simple/main.slt:36-43
    assert report(engine, ctx, "select v1 + v2 = v3;") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: v1 + v2 = v3\n"
        "  2: Item not found: Invalid column: v1\n"
    )


@pytest.mark.usefixtures("t")
def test_unknown_column_in_where(engine: QueryEngine, ctx: QueryContext) -> None:
    assert report(engine, ctx, "SELECT v1 FROM t WHERE nope > 1") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: nope > 1\n"
        "  2: Item not found: Invalid column: nope\n"
    )


def test_unknown_relation(engine: QueryEngine, ctx: QueryContext) -> None:
    # e2e_test/source_inline/connection/drop_connection_cascade.slt:64-72
    assert report(engine, ctx, "select * from t_cascade;") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n"
        "  2: table or source not found: t_cascade\n"
    )


def test_unknown_relation_in_named_schema(engine: QueryEngine, ctx: QueryContext) -> None:
    with pytest.raises(RwError) as info:
        engine.execute("SELECT * FROM nosuch.t", (), ctx)
    assert info.value.chain == ["Catalog error", "table or source not found: t"]
    assert info.value.code == "42704"


@pytest.mark.usefixtures("t")
def test_ambiguous_and_qualified_columns(engine: QueryEngine, ctx: QueryContext) -> None:
    assert report(engine, ctx, "SELECT v1 FROM t, u") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: v1\n"
        "  2: internal error: Ambiguous column name: v1\n"
    )
    assert report(engine, ctx, "SELECT x.v1 FROM t") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: x.v1\n"
        '  2: Item not found: missing FROM-clause entry for table "x"\n'
    )
    assert report(engine, ctx, "SELECT t.w FROM t, u") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: t.w\n"
        '  2: Item not found: missing FROM-clause entry for table "t"\n'
    )


def test_creating_materialized_view_is_not_readable(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    """A job still being created is skipped by the binder (table_or_source.rs:169-176)."""
    catalog.table("base", [("a", pgtypes.INT4)])
    catalog.view("mv", "SELECT a FROM base", [("a", pgtypes.INT4)], created=False)
    assert report(engine, ctx, "SELECT * FROM mv") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n"
        "  2: table or source not found: mv\n"
    )
    catalog.set_created("mv")
    engine.invalidate()
    assert list(engine.execute("SELECT * FROM mv", (), ctx).rows) == []


def test_system_schema_relation_missing(engine: QueryEngine, ctx: QueryContext) -> None:
    assert report(engine, ctx, "SELECT * FROM pg_catalog.nosuch") == (
        "Failed to run the query\n\n"
        "Caused by:\n"
        "  Feature is not yet implemented: pg_catalog.nosuch is not supported, please use "
        "`SHOW` commands for now.\n`SHOW TABLES`,\n`SHOW MATERIALIZED VIEWS`,\n"
        "`DESCRIBE <table>`,\n`SHOW COLUMNS FROM [table]`\n\n"
        "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/1695\n"
    )


def test_division_by_zero(engine: QueryEngine, ctx: QueryContext) -> None:
    # e2e_test/error_ui/simple/main.slt:46-55
    assert report(engine, ctx, "select 1/0;") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Expr error\n"
        "  2: error while evaluating expression `general_div('1', '0')`\n"
        "  3: Division by zero\n"
    )


def test_overflow_and_bad_cast(engine: QueryEngine, ctx: QueryContext) -> None:
    # e2e_test/error_ui/simple/expr.slt:24-46
    assert report(engine, ctx, "select 11111111444 * 51444444444444444;") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Expr error\n"
        "  2: error while evaluating expression "
        "`general_mul('11111111444', '51444444444444444')`\n"
        "  3: Numeric out of range\n"
    )
    assert report(engine, ctx, "select 'foo'::bigint;") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Expr error\n"
        "  2: error while evaluating expression `str_parse('foo')`\n"
        "  3: Parse error: bigint invalid digit found in string\n"
    )


def test_mv_alias_rules(engine: QueryEngine, ctx: QueryContext, catalog: Catalog) -> None:
    """create_mv.rs:80-98 and its test_no_alias (create_mv.rs:495-535)."""
    catalog.table("t", [("x", pgtypes.VARCHAR)])
    assert [c.name for c in engine.check_mv_columns("select count(x) from t", ctx).columns] == [
        "count"
    ]
    with pytest.raises(RwError) as info:
        engine.check_mv_columns("select count(x), count(*) from t", ctx)
    assert str(info.value) == 'Invalid input syntax: column "count" specified more than once'
    for sql in ("select 1", "select x is null from t"):
        with pytest.raises(RwError) as info:
            engine.check_mv_columns(sql, ctx)
        assert str(info.value) == (
            "Bind error: An alias must be specified for the 1st "
            "expression (counting from 1) in result relation"
        )


def test_view_reads_through_to_its_definition(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.rows("t", [("a", pgtypes.INT4)], "(1), (2)")
    catalog.view("v", "SELECT a * 2 AS d FROM t", [("d", pgtypes.INT4)], kind=RelKind.VIEW)
    assert sorted(engine.execute("SELECT d FROM v", (), ctx).rows) == [(2,), (4,)]  # type: ignore[type-var]


def test_unknown_function(engine: QueryEngine, ctx: QueryContext) -> None:
    # e2e_test/udf/tests/language_specific/sql.slt:325-335
    with pytest.raises(RwError) as info:
        engine.execute("select 1 + non_existent(1) + 1", (), ctx)
    assert info.value.report() == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: 1 + non_existent(1) + 1\n"
        "  2: function non_existent(integer) does not exist\n"
    )
    assert info.value.code == "42883"


def test_database_qualified_names(engine: QueryEngine, ctx: QueryContext, catalog: Catalog) -> None:
    catalog.databases["other"] = 2
    catalog.schemas[2] = {"public"}
    catalog.table("far", [("a", pgtypes.INT4)], db=2)
    catalog.rows("near", [("a", pgtypes.INT4)], "(1)")
    assert list(engine.execute("SELECT a FROM dev.public.near", (), ctx).rows) == [(1,)]
    assert list(engine.execute("SELECT a FROM other.public.far", (), ctx).rows) == []
    with pytest.raises(RwError) as info:
        engine.execute("SELECT * FROM nodb.public.t", (), ctx)
    assert info.value.chain == ["Catalog error", "database not found: nodb"]
    assert info.value.code == "3D000"


def test_sink_is_not_readable(engine: QueryEngine, ctx: QueryContext, catalog: Catalog) -> None:
    catalog.view("snk", "SELECT 1 AS a", [("a", pgtypes.INT4)], kind=RelKind.SINK)
    with pytest.raises(RwError) as info:
        engine.execute("SELECT * FROM snk", (), ctx)
    assert info.value.chain == ["Catalog error", "table or source not found: snk"]


@pytest.mark.usefixtures("t")
def test_ungrouped_column_is_refused(engine: QueryEngine, ctx: QueryContext) -> None:
    """optimizer/plan_node/logical_agg.rs:1040-1060; planner_test agg.yaml:83."""
    for sql in (
        "SELECT v1, count(*) FROM t",
        "SELECT v2 FROM t GROUP BY v1",
        "SELECT v1 FROM t GROUP BY v1 HAVING v2 > 1",
    ):
        with pytest.raises(RwError) as info:
            engine.execute(sql, (), ctx)
        assert info.value.chain == [
            "Invalid input syntax: column must appear in the GROUP BY clause or be used in an "
            "aggregate function"
        ]
    for sql in (
        "SELECT v1 + 1, count(*) FROM t GROUP BY v1",
        "SELECT v1 + v2 AS s FROM t GROUP BY v1 + v2",
        "SELECT count(*), max(v2) FROM t",
        "SELECT v1, rank() OVER (ORDER BY count(*)) FROM t GROUP BY 1",
        "SELECT v1 AS k FROM t GROUP BY k",
    ):
        engine.execute(sql, (), ctx)


@pytest.mark.usefixtures("t")
def test_aggregate_in_where(engine: QueryEngine, ctx: QueryContext) -> None:
    assert report(engine, ctx, "SELECT v1 FROM t WHERE count(*) > 1") == (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: count(*) > 1\n"
        "  2: Invalid input syntax: aggregate functions are not allowed in Where\n"
    )


def test_set_operation_and_star_errors(engine: QueryEngine, ctx: QueryContext) -> None:
    """set_expr.rs:167-172 and select.rs:382-386."""
    with pytest.raises(RwError) as info:
        engine.execute("SELECT 1, 2 EXCEPT SELECT 1", (), ctx)
    assert info.value.chain == [
        "Invalid input syntax: each EXCEPT query must have the same number of columns"
    ]
    with pytest.raises(RwError) as info:
        engine.execute("SELECT *", (), ctx)
    assert info.value.chain == ["Bind error: SELECT * with no tables specified is not valid"]


@pytest.mark.usefixtures("t")
def test_order_by_errors(engine: QueryEngine, ctx: QueryContext) -> None:
    """binder/query.rs:326-347."""
    with pytest.raises(RwError) as info:
        engine.execute("SELECT v1 FROM t ORDER BY 2", (), ctx)
    assert info.value.chain == ["Invalid input syntax: Invalid ordinal number in ORDER BY: 2"]
    with pytest.raises(RwError) as info:
        engine.execute("SELECT v1, v2 AS v1 FROM t ORDER BY v1", (), ctx)
    assert info.value.chain == ['Bind error: ORDER BY "v1" is ambiguous']


@pytest.mark.usefixtures("t")
def test_group_by_constants(engine: QueryEngine, ctx: QueryContext) -> None:
    """select.rs:458-472."""
    for sql, text in (
        ("SELECT v1 FROM t GROUP BY 2", "GROUP BY position 2 is not in select list"),
        ("SELECT v1 FROM t GROUP BY 1.5", "non-integer constant in GROUP BY"),
        ("SELECT v1 FROM t GROUP BY 'a'", "non-integer constant in GROUP BY"),
    ):
        with pytest.raises(RwError) as info:
            engine.execute(sql, (), ctx)
        assert info.value.chain == [f"Bind error: {text}"]


@pytest.mark.usefixtures("t")
def test_grouping_sets_keys(engine: QueryEngine, ctx: QueryContext) -> None:
    """The columns of a GROUPING SETS / ROLLUP / CUBE item are group keys (planner/select.rs);
    the item must be the clause's only one (binder/select.rs:246-278)."""
    with pytest.raises(RwError) as info:
        engine.execute("SELECT v1, count(*) FROM t GROUP BY v1, CUBE (v2)", (), ctx)
    assert info.value.chain == ["Bind error: Only support one grouping item in group by clause"]
    with pytest.raises(RwError) as info:
        engine.execute("SELECT v1, v2, count(*) FROM t GROUP BY ROLLUP (v1)", (), ctx)
    assert info.value.chain == [
        "Invalid input syntax: column must appear in the GROUP BY clause or be used in an "
        "aggregate function"
    ]
