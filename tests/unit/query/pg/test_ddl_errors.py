"""PostgreSQL objects from catalog data, PostgreSQL errors in RisingWave's words, and the
pre-pass for RisingWave-only syntax."""

from __future__ import annotations

import pytest

from rwshim.binder.relations import Relation, RelColumn, RelKind
from rwshim.common import pgtypes
from rwshim.dataplane.plan import ddl, typemap
from rwshim.dataplane.plan.errors import PgError, map_error, register
from rwshim.dataplane.plan.prepass import prepass
from rwshim.errors import QueryCanceled, QueryTimeout, RwError

from .conftest import INT, VARCHAR, Catalog


def _same(e: str) -> str:
    return e


def test_table_from_catalog_data(catalog: Catalog) -> None:
    t = catalog.table(
        "t",
        [
            RelColumn("k", INT, nullable=False),
            RelColumn("v", VARCHAR, default_expr="'x' || 'y'"),
            RelColumn("g", INT, generated_expr="k + 1"),
            RelColumn("a", pgtypes.INT4_ARRAY),
        ],
        pk=("k",),
    )
    obj = ddl.table(t, _same)
    assert obj.name == f"t{t.id}" and obj.kind == "table"
    # the system column _rw_timestamp last, stamped by its default and an update trigger
    # (dataplane/plan/rw_timestamp.py)
    stamp = (
        f'CREATE TRIGGER "rw_timestamp" BEFORE UPDATE ON rw."t{t.id}" FOR EACH ROW EXECUTE'
        " FUNCTION rwfn.rw_timestamp_stamp()"
    )
    assert obj.create == (
        f'CREATE TABLE rw."t{t.id}" ("k" integer NOT NULL, "v" character varying DEFAULT '
        "('x' || 'y'), \"g\" integer GENERATED ALWAYS AS (k + 1) STORED, \"a\" integer[],"
        ' "_rw_timestamp" timestamptz DEFAULT rwfn.write_ts())',
        f'CREATE UNIQUE INDEX "t{t.id}_key" ON rw."t{t.id}" ("k") NULLS NOT DISTINCT',
        stamp,
    )
    # without a declared key: the hidden _row_id is RisingWave's row id from the table's own
    # sequence (dataplane/plan/row_ids.py) and there is no key index
    r = catalog.table("r", [("a", INT)])
    seq = f'rw."t{r.id}_row_id"'
    assert ddl.table(r, _same).create == (
        f"CREATE SEQUENCE {seq} MINVALUE 0 START WITH 0",
        f'CREATE TABLE rw."t{r.id}" ("a" integer, "_row_id" bigint NOT NULL DEFAULT'
        f" rwfn.row_id('{seq}'::regclass), \"_rw_timestamp\" timestamptz DEFAULT"
        " rwfn.write_ts())",
        f'ALTER SEQUENCE {seq} OWNED BY rw."t{r.id}"."_row_id"',
        stamp.replace(f"t{t.id}", f"t{r.id}"),
    )


def test_table_migration_adds_trailing_columns(catalog: Catalog) -> None:
    t = catalog.table("t", [("a", INT)], pk=("a",))
    old = ddl.table(t, _same).signature
    wider = Relation(
        t.id, t.schema, t.name, t.kind, (*t.columns, RelColumn("b", VARCHAR)), primary_key=("a",)
    )
    assert ddl.table_migration(old, wider, _same) == [
        f'ALTER TABLE rw."t{t.id}" ADD COLUMN "b" character varying'
    ]


def test_views_sources_and_indexes(catalog: Catalog) -> None:
    t = catalog.table("t", [("a", INT), ("b", INT)], pk=("a",))
    mv = catalog.view("mv", "SELECT a FROM t", [("a", INT)], RelKind.MATERIALIZED_VIEW)
    v = ddl.view(mv, f'SELECT a FROM rw."t{t.id}" AS "t"')
    assert v.create == (f'CREATE VIEW rw."v{mv.id}" ("a") AS SELECT a FROM rw."t{t.id}" AS "t"',)
    src = Relation(7, "public", "s", RelKind.SOURCE, (RelColumn("x", INT),))
    # a source keeps the rows its connector delivered (RWSHIM PUSH, datagen): a table
    # without a key, read through its view
    assert [o.create for o in ddl.source(src, _same)] == [
        (
            'CREATE TABLE rw."t7" ("x" integer, "_rw_timestamp" timestamptz DEFAULT'
            " rwfn.write_ts())",
            'CREATE TRIGGER "rw_timestamp" BEFORE UPDATE ON rw."t7" FOR EACH ROW EXECUTE'
            " FUNCTION rwfn.rw_timestamp_stamp()",
        ),
        ('CREATE VIEW rw."v7" ("x") AS SELECT "x" FROM rw."t7"',),
    ]
    idx = Relation(
        9, "public", "i", RelKind.INDEX, (RelColumn("b", INT), RelColumn("a", INT)),
        indexed_id=t.id, index_keys=("b",), index_desc=(True,),
    )  # fmt: skip
    objs = ddl.index(idx, t)
    assert [o.create for o in objs] == [
        (f'CREATE INDEX "i9" ON rw."t{t.id}" ("b" DESC)',),
        (f'CREATE VIEW rw."v9" ("b", "a") AS SELECT "b", "a" FROM rw."t{t.id}"',),
    ]
    wide = catalog.view(
        "w", "SELECT a, b FROM t", [("a", INT), ("b", INT)], RelKind.MATERIALIZED_VIEW
    )
    assert [o.kind for o in ddl.index(idx, wide)] == ["view"]
    del mv


def test_types_without_a_mapping_are_refused() -> None:
    assert typemap.column_type(pgtypes.TIMESTAMPTZ) == "timestamp with time zone"
    assert typemap.column_type(pgtypes.INT8, "serial") == "bigint"
    # a map is a composite of its own (dataplane/plan/maptype.py), but a map of lists has no
    # PostgreSQL form
    assert typemap.column_type(1303, "map(int,int)").startswith("rwfn.rw_m")
    with pytest.raises(RwError) as e:
        typemap.column_type(1303, "map(int,int[])")
    assert str(e.value).startswith("not supported by rwshim: map(integer,integer[])")
    assert typemap.result_oid(pgtypes.TEXT) == pgtypes.VARCHAR


def _names(i: int) -> str | None:
    return {12: "t"}.get(i)


def test_error_mapping() -> None:
    div = map_error(PgError("22012", "division by zero"), _names)
    assert div.chain == ["Expr error", "Division by zero"]
    nn = map_error(
        PgError("23502", 'null value in column "v" of relation "t12" violates not-null constraint',
                column="v", table="t12"),
        _names,
    )  # fmt: skip
    assert nn.chain == [
        "Expr error",
        'null value in column "v" of relation "t" violates not-null constraint',
    ]
    assert isinstance(
        map_error(PgError("57014", "canceling statement due to user request"), _names),
        QueryCanceled,
    )
    from rwshim.dataplane.plan.errors import MapContext

    timeout = map_error(
        PgError("57014", "canceling statement due to statement timeout"), _names, MapContext(3)
    )
    assert isinstance(timeout, QueryTimeout) and timeout.chain[-1].endswith("3 seconds")
    other = map_error(PgError("42P10", 'relation "rw.t12" has no column', hint="try"), _names)
    assert other.chain == ['relation "t" has no column\nHINT: try'] and other.code == "42P10"


def test_error_rows_can_be_registered() -> None:
    from rwshim.errors import RwError

    register("2201E", r"^cannot take logarithm", lambda m, e, n, c: RwError("Expr error", "x"))
    assert map_error(PgError("2201E", "cannot take logarithm of zero"), _names).chain[-1] == "x"


def test_prepass_keeps_offsets() -> None:
    text = 'SELECT * EXCEPT (a, "B") FROM t JOIN u FOR SYSTEM_TIME AS OF PROCTIME() ON true'
    out = prepass(text)
    assert len(out.text) == len(text)
    assert out.text == "SELECT *                 FROM t JOIN u " + " " * 32 + " ON true"
    assert out.star_excludes == {7: frozenset({"a", "B"})}
    # a star EXCEPT inside a string literal is left alone
    assert prepass("SELECT '* EXCEPT (a)'").text == "SELECT '* EXCEPT (a)'"
