"""Every SELECT the clients of clients.md sent (psql, pgcli, asyncpg, psycopg, SQLAlchemy, dbt;
captured against PostgreSQL by the client-capture scenarios, extracted once into
data/client_selects.json) binds, translates and runs on a real store with the catalog views,
with builtin OIDs only; or fails as RisingWave fails it: a column RisingWave's catalogs lack
(the columns of every RisingWave catalog are in system_catalogs.py), a cast type its
``bind_data_type`` refuses, a collation other than C/POSIX, a function it lacks, a
pg_catalog relation it lacks.  One that reads user data, or only evaluates expressions
(RisingWave's batch engine: PostgreSQL here), is planned for the PostgreSQL data plane instead
(its rewrite is checked here, its run by the client suites)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rwshim.binder.bind_func import NOT_IN_RISINGWAVE
from rwshim.catalog_path.engine import QueryEngine
from rwshim.catalog_path.store_source import StoreRelations
from rwshim.catalog_path.system_catalogs import RELATIONS
from rwshim.common import pgtypes
from rwshim.dataplane.plane import DataPlane
from rwshim.errors import CatalogNotFound, RwError

from .conftest import World

CAPTURES = json.loads((Path(__file__).parent / "data" / "client_selects.json").read_text())
# Statements that name relations the capture scenario created and this one does not, or that
# test an error on purpose.
MISSING = ("nosuch",)
NOT_NEEDED = ("pg_sleep(",)  # the brief: pg_sleep is not needed

# A plausible value for each parameter type the captures bind.
SAMPLE = {
    pgtypes.INT2: 1,
    pgtypes.INT4: 6,
    pgtypes.INT8: 6,
    pgtypes.VARCHAR: "t1",
    pgtypes.TEXT: "t1",
    pgtypes.BOOL: True,
    pgtypes.VARCHAR_ARRAY: ["r", "p"],
    pgtypes.TEXT_ARRAY: ["r"],
    pgtypes.INT4_ARRAY: [6],
    pgtypes.CHAR_ARRAY: ["r"],
    pgtypes.INT8_ARRAY: [6],
    pgtypes.INT2_ARRAY: [1],
}


@pytest.fixture
def scenario(world: World) -> World:
    from rwshim.engine.types import Context

    world.table(
        "t1", [("id", pgtypes.INT4, "integer"), ("name", pgtypes.VARCHAR, "varchar")], pk=("id",)
    )
    world.table("t2", [("a", pgtypes.INT4, "integer")])
    world.table("ap", [("a", pgtypes.INT4, "integer"), ("b", pgtypes.VARCHAR, "varchar")])
    for t in ("sqla_psycopg2_t", "sqla_psycopg_t", "sqla_asyncpg_t"):
        world.table(
            t, [("id", pgtypes.INT4, "integer"), ("name", pgtypes.VARCHAR, "varchar")], pk=("id",)
        )
    world.engine.catalog.create_schema(Context(), "dbt_test")  # type: ignore[attr-defined]
    world.table(
        "src", [("id", pgtypes.INT4, "integer"), ("c", pgtypes.INT4, "integer")], schema="dbt_test"
    )
    world.mv("mv_model", "SELECT id, c FROM dbt_test.src", schema="dbt_test")
    world.mv("mv1", "SELECT name, count(*) AS n FROM t1 GROUP BY name")
    world.view("v1", "SELECT id FROM t1")
    world.rows("SELECT 1")  # warm
    return world


def _ids() -> list[str]:
    return [f"{i:03d}-{c['log']}" for i, c in enumerate(CAPTURES)]


@pytest.mark.parametrize("capture", CAPTURES, ids=_ids())
def test_capture_runs(scenario: World, capture: dict[str, object]) -> None:
    sql = str(capture["sql"])
    if any(n in sql for n in NOT_NEEDED):
        assert "pg_sleep" in sql
        return
    qe: QueryEngine = scenario.query
    ctx = scenario.ctx
    oids = [int(o) for o in capture["paramtypes"]]  # type: ignore[union-attr]
    if any(f"from {m}" in sql.lower() or f'from "{m}"' in sql.lower() for m in MISSING):
        with pytest.raises(CatalogNotFound):
            qe.describe(sql, oids, ctx)
        return
    plane = DataPlane(StoreRelations(scenario.store.conn))  # type: ignore[attr-defined]
    try:
        planned = plane.plan(sql, ctx)
    except RwError as e:
        assert _risingwave_refuses(e), e
        return
    if planned is not None:
        text = planned.statement.text
        shape = planned.routed.shape
        assert shape is not None
        if not shape.relation_refs:
            # expressions over no relation: the user's text as written
            assert not planned.statement.relation_ids and text == sql, text
            return
        # a physical relation, quoted as spliced or bare as a deparsed text spells it
        # (plan/hashkeys deparses a text whose group keys it wraps)
        assert planned.statement.relation_ids and re.search(r'\brw\."?[tv]\d', text), text
        return
    try:
        desc = qe.describe(sql, oids, ctx)
    except RwError as e:
        assert _risingwave_refuses(e), e
        return
    assert desc.columns is not None
    for c in desc.columns:
        assert c.type_oid in pgtypes.BY_OID and c.type_oid not in (
            pgtypes.UNKNOWN,
            pgtypes.TEXT,
            pgtypes.NAME,
            pgtypes.OID,
        ), (c.name, c.type_oid)
    for o in desc.param_oids:
        assert o in pgtypes.BY_OID and o != pgtypes.UNKNOWN
    params = [SAMPLE.get(o) for o in desc.param_oids]
    out = qe.execute(sql, params, ctx, oids)
    rows = list(out.rows)
    for r in rows:
        assert len(r) == len(desc.columns)


_RW_COLUMNS = {c.name for rel in RELATIONS.values() for c in rel.columns}


def _risingwave_refuses(e: RwError) -> bool:
    """Whether the error is one RisingWave gives this statement too (see the docstring)."""
    last = e.chain[-1]
    if m := re.fullmatch(r"Item not found: Invalid column: (\w+)", last):
        return m[1] not in _RW_COLUMNS
    if m := re.fullmatch(r"function (\w+)\(.*\) does not exist", last):
        return m[1] in NOT_IN_RISINGWAVE
    if m := re.match(r"Feature is not yet implemented: pg_catalog\.(\w+) is not supported", last):
        return ("pg_catalog", m[1]) not in RELATIONS
    return last.startswith(
        (
            "Feature is not yet implemented: unsupported data type: ",
            "Feature is not yet implemented: Collate collation other than `C` or `POSIX`",
        )
    )


def test_psql_dt_lists_visible_tables(scenario: World) -> None:
    """RisingWave's pg_class lists system tables with relkind 'r' and pg_table_is_visible is
    true for system catalogs, so psql's \\dt shows rw_catalog's tables after the user's;
    dbt_test is not on the search path, so its table is not visible."""
    sql = next(str(c["sql"]) for c in CAPTURES if c["log"] == "psql__dt_.log")
    rows = scenario.rows(sql)
    assert [r for r in rows if r[0] != "rw_catalog"] == [
        ("public", "ap", "table", "root"),
        ("public", "sqla_asyncpg_t", "table", "root"),
        ("public", "sqla_psycopg2_t", "table", "root"),
        ("public", "sqla_psycopg_t", "table", "root"),
        ("public", "t1", "table", "root"),
        ("public", "t2", "table", "root"),
    ]
    assert ("rw_catalog", "rw_tables", "table", "root") in rows


def test_psql_dm_and_dv(scenario: World) -> None:
    dm = next(str(c["sql"]) for c in CAPTURES if c["log"] == "psql__dm_.log")
    dv = next(str(c["sql"]) for c in CAPTURES if c["log"] == "psql__dv_.log")
    assert scenario.rows(dm) == [("public", "mv1", "materialized view", "root")]
    views = scenario.rows(dv)
    assert [r for r in views if r[0] != "rw_catalog"] == [("public", "v1", "view", "root")]
    assert ("rw_catalog", "rw_relations", "view", "root") in views
