"""The RELATIONS contract: every RisingWave builtin catalog exists with exactly RisingWave's
columns and id, and nothing else does (a client reading a PostgreSQL column or relation
RisingWave lacks gets RisingWave's error); every view runs."""

from __future__ import annotations

import json
from pathlib import Path

from rwshim.catalog_path.system_catalogs import RELATIONS
from rwshim.catalog_path.system_catalogs.static import type_rows
from rwshim.catalog_path.system_catalogs.system_catalogs import (
    SYS_CATALOG_START_ID,
    SYSTEM_CATALOGS,
)
from rwshim.common import pgtypes
from tests.unit.catalog.conftest import Store

# The relation.column list the client captures read (copied into this file).
FEATURES = Path(__file__).parent / "data" / "features.json"


def _client_refs() -> list[tuple[str, str, str | None]]:
    data = json.loads(FEATURES.read_text())
    refs = set()
    for relcols, _functions in data.values():
        for ref in relcols:
            parts = ref.split(".")
            refs.add((parts[0], parts[1], parts[2] if len(parts) == 3 else None))
    return sorted(refs, key=lambda r: (r[0], r[1], r[2] or ""))


def test_client_columns_are_there_exactly_when_risingwave_has_them() -> None:
    refs = _client_refs()
    assert len(refs) > 150
    rw = {(s, n): [c for c, _ in cols] for s, n, _k, cols, *_ in SYSTEM_CATALOGS}
    wrong = []
    for schema, name, column in refs:
        rel = RELATIONS.get((schema, name))
        has = rel is not None and (column is None or column in [c.name for c in rel.columns])
        rw_has = (schema, name) in rw and (column is None or column in rw[(schema, name)])
        if has != rw_has:
            wrong.append(f"{schema}.{name}.{column}")
    assert wrong == []
    # what psql's \d NAME and psqlODBC read, and RisingWave's pg_class lacks
    pg_class = [c.name for c in RELATIONS[("pg_catalog", "pg_class")].columns]
    assert not {"relchecks", "relhasindex", "relhasrules", "reltoastrelid"} & set(pg_class)


def test_every_builtin_catalog_has_risingwaves_columns_and_id() -> None:
    assert len(SYSTEM_CATALOGS) == 121
    for rank, (schema, name, kind, cols, _pk, _sql, _file) in enumerate(SYSTEM_CATALOGS):
        rel = RELATIONS[(schema, name)]
        assert rel.oid == SYS_CATALOG_START_ID + rank
        assert rel.is_table == (kind == "table")
        assert [(c.name, c.type_oid) for c in rel.columns] == list(cols)
    assert len(RELATIONS) == len(SYSTEM_CATALOGS)


def test_catalog_ids_rank_by_full_name() -> None:
    # SYS_CATALOGS sorts by "schema.name" (system_catalog/mod.rs).
    names = [f"{s}.{n}" for s, n, *_ in SYSTEM_CATALOGS]
    assert names == sorted(names)
    assert RELATIONS[("information_schema", "columns")].oid == SYS_CATALOG_START_ID
    assert SYS_CATALOG_START_ID == 2147478647


def test_spec_rw_catalog_columns() -> None:
    # rw-sql-surface.md §5.3, a few relations in full.
    def cols(name: str) -> list[tuple[str, int]]:
        return [(c.name, c.type_oid) for c in RELATIONS[("rw_catalog", name)].columns]

    v, i4, b, tz = pgtypes.VARCHAR, pgtypes.INT4, pgtypes.BOOL, pgtypes.TIMESTAMPTZ
    assert cols("rw_materialized_views") == [
        ("id", i4), ("name", v), ("schema_id", i4), ("schema_name", v), ("owner", i4),
        ("definition", v), ("append_only", b), ("acl", pgtypes.VARCHAR_ARRAY),
        ("initialized_at", tz), ("created_at", tz), ("initialized_at_cluster_version", v),
        ("created_at_cluster_version", v), ("background_ddl", b), ("status", v),
    ]  # fmt: skip
    assert cols("rw_indexes")[:5] == [
        ("id", i4), ("name", v), ("primary_table_id", i4), ("key_columns", pgtypes.INT2_ARRAY),
        ("include_columns", pgtypes.INT2_ARRAY),
    ]  # fmt: skip
    assert cols("rw_databases") == [
        ("id", i4), ("name", v), ("owner", i4), ("acl", pgtypes.VARCHAR_ARRAY),
        ("resource_group", v), ("barrier_interval_ms", i4), ("checkpoint_frequency", pgtypes.INT8),
    ]  # fmt: skip


def test_only_builtin_type_oids_are_declared() -> None:
    known = set(pgtypes.BY_OID) | {1301}
    for rel in RELATIONS.values():
        for c in rel.columns:
            assert c.type_oid in known, (rel.schema, rel.name, c.name, c.type_oid)


def test_type_rows_agree_with_pgtypes() -> None:
    for oid, name, _inp, elem, arr, _disp, _udt, _len in type_rows():
        if oid in pgtypes.BY_OID:
            assert pgtypes.BY_OID[oid].name == name
            if arr:
                assert pgtypes.BY_OID[oid].array_oid == arr
            if elem:
                assert pgtypes.BY_OID[oid].elem_oid == elem


def test_every_view_runs_with_its_declared_width(store: Store) -> None:
    for rel in RELATIONS.values():
        cur = store.conn.execute(f'SELECT * FROM "{rel.sqlite_name}"')
        cur.fetchall()
        assert [d[0] for d in cur.description] == [c.name for c in rel.columns], rel.name
