"""DML on user tables: tags and counts, upsert by primary key, RETURNING, refusals."""

from __future__ import annotations

import pytest

from rwshim import pgtypes
from rwshim.errors import RwError
from rwshim.query.context import QueryContext
from rwshim.query.engine import QueryEngine
from rwshim.query.relations import RelKind

from .conftest import Catalog


def rows(
    engine: QueryEngine, ctx: QueryContext, sql: str, params: tuple[object, ...] = ()
) -> list[tuple[object, ...]]:
    return [tuple(r) for r in engine.execute(sql, params, ctx).rows]


@pytest.fixture
def t(catalog: Catalog) -> None:
    catalog.table("t", [("id", pgtypes.INT4), ("v", pgtypes.VARCHAR)], pk=("id",))


@pytest.mark.usefixtures("t")
def test_insert_values_tag_counts_rows(engine: QueryEngine, ctx: QueryContext) -> None:
    out = engine.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b')", (), ctx)
    assert out.tag == "INSERT 0 2"
    assert out.columns is None
    assert rows(engine, ctx, "SELECT id, v FROM t ORDER BY id") == [(1, "a"), (2, "b")]


@pytest.mark.usefixtures("t")
def test_insert_on_existing_primary_key_overwrites(engine: QueryEngine, ctx: QueryContext) -> None:
    engine.execute("INSERT INTO t VALUES (1, 'a')", (), ctx)
    out = engine.execute("INSERT INTO t VALUES (1, 'b')", (), ctx)
    assert out.tag == "INSERT 0 1"
    assert rows(engine, ctx, "SELECT * FROM t") == [(1, "b")]


def test_table_without_primary_key_keeps_duplicates_and_hides_row_id(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.table("n", [("x", pgtypes.INT8)])
    engine.execute("INSERT INTO n VALUES (5), (5)", (), ctx)
    out = engine.execute("SELECT * FROM n", (), ctx)
    assert [c.name for c in out.columns or []] == ["x"]
    assert list(out.rows) == [(5,), (5,)]


@pytest.mark.usefixtures("t")
def test_insert_select_and_column_list(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.table("u", [("id", pgtypes.INT4), ("v", pgtypes.VARCHAR)], pk=("id",))
    engine.execute("INSERT INTO t (v, id) VALUES ('x', 7)", (), ctx)
    out = engine.execute("INSERT INTO u SELECT id + 1, v || '!' FROM t", (), ctx)
    assert out.tag == "INSERT 0 1"
    assert rows(engine, ctx, "SELECT * FROM u") == [(8, "x!")]


@pytest.mark.usefixtures("t")
def test_insert_casts_to_column_type(engine: QueryEngine, ctx: QueryContext) -> None:
    engine.execute("INSERT INTO t VALUES ('12', 34)", (), ctx)
    assert rows(engine, ctx, "SELECT id, v FROM t") == [(12, "34")]


@pytest.mark.usefixtures("t")
def test_insert_returning(engine: QueryEngine, ctx: QueryContext) -> None:
    out = engine.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b') RETURNING id * 10, v", (), ctx)
    assert out.tag == "INSERT 0 2"
    assert [(c.name, c.type_oid) for c in out.columns or []] == [
        ("?column?", pgtypes.INT4),
        ("v", pgtypes.VARCHAR),
    ]
    assert list(out.rows) == [(10, "a"), (20, "b")]


@pytest.mark.usefixtures("t")
def test_update_and_delete_tags(engine: QueryEngine, ctx: QueryContext) -> None:
    engine.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')", (), ctx)
    assert engine.execute("UPDATE t SET v = 'z' WHERE id >= 2", (), ctx).tag == "UPDATE 2"
    assert engine.execute("UPDATE t SET v = 'z' WHERE id > 9", (), ctx).tag == "UPDATE 0"
    out = engine.execute("DELETE FROM t WHERE v = 'z' RETURNING id", (), ctx)
    assert out.tag == "DELETE 2"
    assert sorted(out.rows) == [(2,), (3,)]  # type: ignore[type-var]
    assert rows(engine, ctx, "SELECT * FROM t") == [(1, "a")]


@pytest.mark.usefixtures("t")
def test_update_with_parameters_infers_their_types(engine: QueryEngine, ctx: QueryContext) -> None:
    engine.execute("INSERT INTO t VALUES (1, 'a')", (), ctx)
    d = engine.describe("UPDATE t SET v = $1 WHERE id = $2", [0, 0], ctx)
    assert d.param_oids == [pgtypes.VARCHAR, pgtypes.INT4]
    assert d.columns is None
    out = engine.execute("UPDATE t SET v = $1 WHERE id = $2", ("q", 1), ctx)
    assert out.tag == "UPDATE 1"
    assert rows(engine, ctx, "SELECT v FROM t") == [("q",)]


def _err(engine: QueryEngine, ctx: QueryContext, sql: str) -> RwError:
    with pytest.raises(RwError) as info:
        engine.execute(sql, (), ctx)
    return info.value


@pytest.mark.usefixtures("t")
def test_dml_on_materialized_view_is_refused(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.view("mv", "SELECT id FROM t", [("id", pgtypes.INT4)])
    for sql in ("INSERT INTO mv VALUES (1)", "DELETE FROM mv", "UPDATE mv SET id = 1"):
        e = _err(engine, ctx, sql)
        assert e.report() == (
            "Failed to run the query\n\nCaused by:\n  "
            'Invalid input syntax: cannot change materialized view "mv"\n'
        )


@pytest.mark.usefixtures("t")
def test_dml_on_view_source_or_catalog_is_table_not_found(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.view("v", "SELECT id FROM t", [("id", pgtypes.INT4)], kind=RelKind.VIEW)
    e = _err(engine, ctx, "INSERT INTO v VALUES (1)")
    assert e.chain == ["Catalog error", "table not found: v"]
    assert e.code == "42704"
    e = _err(engine, ctx, "DELETE FROM rw_catalog.rw_tables")
    assert e.chain == ["Catalog error", "table not found: rw_tables"]


def test_dml_on_creating_table_is_table_not_found(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.table("t", [("id", pgtypes.INT4)], pk=("id",))
    from dataclasses import replace

    catalog.rels[(1, "public", "t")] = replace(catalog.rels[(1, "public", "t")], created=False)
    assert _err(engine, ctx, "INSERT INTO t VALUES (1)").chain == [
        "Catalog error",
        "table not found: t",
    ]


def test_append_only_table_refuses_update_and_delete(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.table("ao", [("x", pgtypes.INT4)], append_only=True)
    assert engine.execute("INSERT INTO ao VALUES (1)", (), ctx).tag == "INSERT 0 1"
    for sql in ("UPDATE ao SET x = 2", "DELETE FROM ao"):
        assert _err(engine, ctx, sql).chain == [
            "Bind error: append-only table does not support update or delete"
        ]


@pytest.mark.usefixtures("t")
def test_insert_column_errors(engine: QueryEngine, ctx: QueryContext) -> None:
    assert _err(engine, ctx, "INSERT INTO t (nope) VALUES (1)").chain == [
        "Bind error: Column nope not found in table t"
    ]
    assert _err(engine, ctx, "INSERT INTO t (id, id) VALUES (1, 2)").chain == [
        "Bind error: Column specified more than once"
    ]
    assert _err(engine, ctx, "INSERT INTO t VALUES (1, 'a', 3)").chain == [
        "Bind error: INSERT has more expressions than target columns"
    ]
    assert _err(engine, ctx, "INSERT INTO t (id, v) VALUES (1)").chain == [
        "Bind error: INSERT has more target columns than expressions"
    ]


@pytest.mark.usefixtures("t")
def test_update_of_primary_key_is_refused(engine: QueryEngine, ctx: QueryContext) -> None:
    assert _err(engine, ctx, "UPDATE t SET id = 2").chain == [
        "Bind error: update modifying the PK column is unsupported"
    ]


@pytest.mark.usefixtures("t")
def test_insert_bad_text_for_integer_column(engine: QueryEngine, ctx: QueryContext) -> None:
    e = _err(engine, ctx, "INSERT INTO t VALUES ('foo', 'x')")
    assert e.chain == [
        "Expr error",
        "error while evaluating expression `str_parse('foo')`",
        "Parse error: integer invalid digit found in string",
    ]


def test_omitted_columns_take_their_default(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.table(
        "d",
        [("id", pgtypes.INT4), ("n", pgtypes.INT4), ("at", pgtypes.TIMESTAMPTZ)],
        pk=("id",),
        defaults={"n": "40 + 2", "at": "now()"},
    )
    engine.execute("INSERT INTO d (id) VALUES (1)", (), ctx)
    engine.execute("INSERT INTO d VALUES (2, 7)", (), ctx)
    from .conftest import FIXED_NOW

    assert rows(engine, ctx, "SELECT * FROM d ORDER BY id") == [
        (1, 42, FIXED_NOW),
        (2, 7, FIXED_NOW),
    ]


@pytest.mark.usefixtures("t")
def test_failed_insert_leaves_no_row(engine: QueryEngine, ctx: QueryContext) -> None:
    _err(engine, ctx, "INSERT INTO t VALUES (1, 'a'), ('x', 'b')")
    assert rows(engine, ctx, "SELECT count(*) FROM t") == [(0,)]


@pytest.mark.usefixtures("t")
def test_insert_parenthesized_select_as_dbt_sends_it(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    # dbt's incremental insert: INSERT INTO t ("a", "b") ( SELECT "a", "b" FROM tmp )
    catalog.table("u", [("id", pgtypes.INT4), ("v", pgtypes.VARCHAR)], pk=("id",))
    engine.execute("INSERT INTO t VALUES (1, 'a'), (2, 'b')", (), ctx)
    out = engine.execute('INSERT INTO u ("id", "v") ( SELECT "id", "v" FROM t )', (), ctx)
    assert out.tag == "INSERT 0 2"
    out = engine.execute("INSERT INTO u ((SELECT id + 10, v FROM t WHERE id = 1))", (), ctx)
    assert out.tag == "INSERT 0 1"
    assert rows(engine, ctx, "SELECT id, v FROM u ORDER BY id") == [(1, "a"), (2, "b"), (11, "a")]


def test_numeric_beyond_64_bits_is_stored_not_overflowed(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    # numerics are SQLite numbers in this read path; an integer past int64 becomes REAL
    # instead of failing inside sqlite3 with OverflowError
    from decimal import Decimal

    from rwshim.query.sqlite.executor import encode_param

    catalog.table("num", [("k", pgtypes.INT4), ("x", pgtypes.NUMERIC)], pk=("k",))
    big = Decimal("123456789012345678901234567")
    out = engine.execute(
        "INSERT INTO num VALUES (1, $1), (2, 99999999999999999999)",
        (encode_param(big, pgtypes.NUMERIC),),
        ctx,
    )
    assert out.tag == "INSERT 0 2"
    got = rows(engine, ctx, "SELECT x FROM num ORDER BY k")
    assert [float(v[0]) for v in got] == [float(big), 1e20]  # type: ignore[arg-type]
