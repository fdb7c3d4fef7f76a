"""INSERT / UPDATE / DELETE on the data plane: RisingWave's binder checks (insert.rs,
update.rs, delete.rs) and the upsert clause of each conflict behaviour."""

from __future__ import annotations

import pytest

from rwshim.binder.context import QueryContext
from rwshim.binder.relations import RelColumn, RelKind
from rwshim.common import pgtypes
from rwshim.errors import BindError, CatalogNotFound, InsertViolation, InvalidInputSyntax, RwError

from .conftest import INT, VARCHAR, Catalog, pg


def test_insert_gets_the_visible_column_list(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("a", INT), ("b", VARCHAR)])
    out = pg(catalog, ctx, "INSERT INTO t VALUES (1, 'x'), (2, 'y')")
    assert out.text == f'INSERT INTO rw."t{t.id}" AS "t" ("a", "b") VALUES (1, \'x\'), (2, \'y\')'
    assert out.repeated_key_text is None
    # a narrower source fills the first columns; the rest take their DEFAULT
    out = pg(catalog, ctx, "INSERT INTO t VALUES (1)")
    assert out.text == f'INSERT INTO rw."t{t.id}" AS "t" ("a") VALUES (1)'
    out = pg(catalog, ctx, "INSERT INTO t AS x SELECT * FROM t")
    assert out.text == (
        f'INSERT INTO rw."t{t.id}" AS x ("a", "b") SELECT "t"."a", "t"."b" FROM rw."t{t.id}" AS "t"'
    )


def test_insert_column_checks(catalog: Catalog, ctx: QueryContext) -> None:
    catalog.table("t", [("a", INT), ("b", VARCHAR)])
    cases = {
        "INSERT INTO t (a, a) VALUES (1, 2)": "Bind error: Column specified more than once",
        "INSERT INTO t (c) VALUES (1)": "Bind error: Column c not found in table t",
        "INSERT INTO t (_row_id) VALUES (1)": "Bind error: Column _row_id not found in table t",
        "INSERT INTO t (a, b) VALUES (1)":
            "Bind error: INSERT has more target columns than expressions",
        "INSERT INTO t VALUES (1, 'a', 3)":
            "Bind error: INSERT has more expressions than target columns",
        "INSERT INTO t (a) VALUES (1, 2)":
            "Bind error: INSERT has more expressions than target columns",
    }  # fmt: skip
    for sql, text in cases.items():
        with pytest.raises(BindError) as e:
            pg(catalog, ctx, sql)
        assert str(e.value) == text, sql


def test_generated_columns_refuse_values(catalog: Catalog, ctx: QueryContext) -> None:
    catalog.table(
        "g",
        [RelColumn("a", INT), RelColumn("b", INT, generated_expr="a + 1")],
    )
    for sql in ("INSERT INTO g VALUES (1, 2)", "INSERT INTO g (a, b) VALUES (1, 2)"):
        with pytest.raises(InsertViolation) as e:
            pg(catalog, ctx, sql)
        assert str(e.value) == (
            'Invalid insert operation: cannot insert a non-DEFAULT value into column "b"\n'
            '  DETAIL: Column "b" is a generated column.'
        )
    with pytest.raises(BindError) as b:
        pg(catalog, ctx, "INSERT INTO g (a) VALUES (1) RETURNING a")
    assert str(b.value) == (
        "Bind error: `RETURNING` clause is not supported for tables with generated columns"
    )
    out = pg(catalog, ctx, "INSERT INTO g VALUES (1)")
    assert '("a") VALUES (1)' in out.text


def test_dml_targets(catalog: Catalog, ctx: QueryContext) -> None:
    catalog.table("t", [("a", INT)], pk=("a",))
    catalog.view("mv", "SELECT 1 AS a", [("a", INT)], RelKind.MATERIALIZED_VIEW)
    catalog.table("ao", [("a", INT)], append_only=True)
    with pytest.raises(InvalidInputSyntax) as e:
        pg(catalog, ctx, "INSERT INTO mv VALUES (1)")
    assert str(e.value) == 'Invalid input syntax: cannot change materialized view "mv"'
    with pytest.raises(BindError) as b:
        pg(catalog, ctx, "DELETE FROM ao")
    assert str(b.value) == "Bind error: append-only table does not support update or delete"
    with pytest.raises(CatalogNotFound) as c:
        pg(catalog, ctx, "UPDATE nosuch SET a = 1")
    assert c.value.chain == ["Catalog error", "table not found: nosuch"]


def test_upsert_clause_per_conflict_behaviour(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("k", INT), ("v", VARCHAR), ("w", INT)], pk=("k",))
    out = pg(catalog, ctx, "INSERT INTO t VALUES (1, 'a', 2) RETURNING k")
    assert out.text == (
        f'INSERT INTO rw."t{t.id}" AS "t" ("k", "v", "w") VALUES (1, \'a\', 2)  ON CONFLICT ("k") '
        'DO UPDATE SET "v" = EXCLUDED."v", "w" = EXCLUDED."w" RETURNING k'
    )
    assert out.repeated_key_text is not None and "max(rw_n)" in out.repeated_key_text
    assert out.repeated_key_text.endswith("RETURNING k")
    i = catalog.table("i", [("k", INT), ("v", VARCHAR)], pk=("k",), conflict="ignore")
    out = pg(catalog, ctx, "INSERT INTO i VALUES (1, 'a')")
    assert out.text.endswith('ON CONFLICT ("k") DO UPDATE SET "v" = "i"."v" ')
    assert out.repeated_key_text is not None
    assert "min(rw_n)" in out.repeated_key_text
    assert out.repeated_key_text.endswith("SELECT count(*) FROM rw_s")
    n = catalog.table("n", [("k", INT), ("v", VARCHAR)], pk=("k",), conflict="if_not_null")
    out = pg(catalog, ctx, "INSERT INTO n (k, v) SELECT 1, NULL")
    assert out.text == (
        f'INSERT INTO rw."t{n.id}" AS "n" (k, v) SELECT 1, NULL ON CONFLICT ("k") '
        'DO UPDATE SET "v" = COALESCE(EXCLUDED."v", "n"."v") '
    )
    assert out.repeated_key_text is not None
    assert 'FROM (SELECT 1, NULL) AS rw_src("k", "v")' in out.repeated_key_text
    del i


def test_update_checks(catalog: Catalog, ctx: QueryContext) -> None:
    catalog.table("t", [("k", INT), ("v", INT)], pk=("k",))
    catalog.table("g", [RelColumn("a", INT), RelColumn("b", INT, generated_expr="a + 1")])
    cases = {
        "UPDATE t SET v = 1, v = 2": "Bind error: multiple assignments to the same column",
        "UPDATE t SET k = 1": "Bind error: update modifying the PK column is unsupported",
        "UPDATE g SET _row_id = 1": "Bind error: update modifying the PK column is unsupported",
        "UPDATE g SET b = 1": "Bind error: update modifying the generated column is unsupported",
        "UPDATE t SET x = 1": "Failed to bind expression: x: Item not found: Invalid column: x",
    }
    for sql, text in cases.items():
        with pytest.raises(RwError) as e:
            pg(catalog, ctx, sql)
        assert str(e.value) == text, sql


def test_update_and_delete_text(catalog: Catalog, ctx: QueryContext) -> None:
    t = catalog.table("t", [("k", INT), ("v", INT)])
    out = pg(catalog, ctx, "UPDATE t SET v = v + 1 WHERE k IN (SELECT k FROM t) RETURNING *")
    assert out.text == (
        f'UPDATE rw."t{t.id}" AS "t" SET v = v + 1 WHERE k IN (SELECT k FROM rw."t{t.id}" AS "t") '
        'RETURNING "t"."k", "t"."v"'
    )
    out = pg(catalog, ctx, "DELETE FROM t AS x WHERE x.k = $1")
    assert out.text == f'DELETE FROM rw."t{t.id}" AS x WHERE x.k = $1'
    assert out.param_count == 1
    assert pgtypes.INT4 == INT
