"""pg_catalog and information_schema relations: exact rows over a real store."""

from __future__ import annotations

import json

from rwshim.catalog_path.system_catalogs import RELATIONS
from rwshim.common import pgtypes as t
from tests.unit.catalog.conftest import Store
from tests.unit.catalog.test_rw_catalog import scenario


def test_pg_class_kinds_and_psql_columns(store: Store) -> None:
    ids = scenario(store)
    rows = store.rows("pg_catalog.pg_class", "relnamespace = 2 ORDER BY oid")
    assert [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows] == [
        (ids["t"], "t", 2, 1, "p", "r"),
        (ids["mv"], "mv", 2, 1, "p", "m"),
        (ids["mv2"], "mv2", 2, 1, "p", "m"),
        (ids["v"], "v", 2, 1, "p", "v"),
        (ids["idx"], "idx", 2, 1, "p", "i"),
        (ids["src"], "src", 2, 1, "p", "s"),
        (ids["sink"], "sink", 2, 1, "p", "k"),
    ]
    # RisingWave's columns only (pg_class.rs): psql's relchecks, relhasindex ... are absent
    names = [c.name for c in RELATIONS[("pg_catalog", "pg_class")].columns]
    assert names == [
        "oid", "relname", "relnamespace", "relowner", "relpersistence", "relkind", "relpages",
        "relam", "reltablespace", "reloptions", "relispartition", "relpartbound",
    ]  # fmt: skip
    t_row = dict(zip(names, rows[0], strict=True))
    assert {k: t_row[k] for k in ("relam", "reloptions", "relispartition", "relpartbound")} == {
        "relam": 0, "reloptions": "[]", "relispartition": 0, "relpartbound": None,
    }  # fmt: skip
    # System tables are relkind 'r', system views 'v', in their schemas.
    system = store.rows("pg_catalog.pg_class", "relname IN ('pg_class', 'pg_namespace')")
    assert sorted((r[1], r[2], r[5]) for r in system) == [
        ("pg_class", 3, "r"),
        ("pg_namespace", 3, "v"),
    ]


def test_pg_attribute_hides_hidden_columns(store: Store) -> None:
    ids = scenario(store)
    assert store.rows("pg_catalog.pg_attribute", "attrelid = ?", (ids["t"],)) == [
        (ids["t"], "v1", 23, 0, 4, 1, 0, 0, 0, "", "", -1, None, 0),
        (ids["t"], "v2", 1043, 0, -1, 2, 0, 0, 0, "", "", -1, None, 0),
    ]


def test_pg_index_and_constraint(store: Store) -> None:
    ids = scenario(store)
    pk_table = store.relation(
        "table", "p", [("a", t.INT4, "integer"), ("b", t.VARCHAR, "character varying"),
                       ("c", t.INT4, "integer")], pk=[2, 0],
    )  # fmt: skip
    rows = store.rows("pg_catalog.pg_index", "indrelid IN (?, ?)", (ids["t"], pk_table))
    assert rows == [
        (ids["idx"], ids["t"], 2, 1, 0, "[1,2]", "[]", None, None, 0, "[]", 0, 1, 0, 1, 0, 1, 1,
         0),
        (pk_table, pk_table, 2, 2, 1, "[1,3]", "[]", None, None, 1, "[]", 0, 1, 0, 1, 0, 1, 1,
         0),
    ]  # fmt: skip
    con = store.rows("pg_catalog.pg_constraint", "conrelid = ?", (pk_table,))
    assert con == [
        (pk_table, "p_pkey", 2, "p", 0, 1, pk_table, 0, pk_table, 0, 0, " ", " ", " ", 1, 0, 1,
         "[3,1]", None, None, None, None, None, None, None),
    ]  # fmt: skip
    assert store.rows("pg_catalog.pg_indexes", "tablename = 'p'") == [
        ("public", "p", "p_pkey", None, "")
    ]
    assert store.rows("pg_catalog.pg_indexes", "indexname = 'idx'") == [
        ("public", "t", "idx", None, "CREATE INDEX idx ON t(v1) INCLUDE(v2)")
    ]


def test_namespace_database_roles_type(store: Store) -> None:
    acl = '["root=UC/root","postgres=UC/root","rwadmin=UC/root"]'
    assert store.rows("pg_catalog.pg_namespace") == [
        (2, "public", 1, acl), (3, "pg_catalog", 1, acl), (4, "information_schema", 1, acl),
        (5, "rw_catalog", 1, acl),
    ]  # fmt: skip
    assert store.rows("pg_catalog.pg_database") == [
        (1, "dev", 1, 6, "C", "C", 0, 1, -1, 1663,
         '["root=Cc/root","postgres=Cc/root","rwadmin=Cc/root"]'),
    ]  # fmt: skip
    assert store.rows("pg_catalog.pg_roles", "oid = 1") == [
        (1, "root", 1, 1, 1, 1, 1, 1, -1, None, 1, "********")
    ]
    assert store.rows("pg_catalog.pg_user", "usesysid = 2") == [(2, "postgres", 1, 1, "********")]
    types = store.rows("pg_catalog.pg_type")
    assert [r[0] for r in types][:18] == [
        16, 17, 20, 21, 23, 700, 701, 1043, 1082, 1083, 1114, 1184, 1186, 1700, 3802, 1307, 25,
        1301,
    ]  # fmt: skip
    assert types[0] == (16, "bool", 0, 1000, "boolin", 0, 0, -1, 0, 0, 3, "b", ",", 0, None,
                        None, None)  # fmt: skip
    assert types[25][:5] == (1015, "_varchar", 1043, 0, "array_in")


def test_matviews_tables_views(store: Store) -> None:
    scenario(store)
    assert store.rows("pg_catalog.pg_matviews") == [
        ("public", "mv", 1, None, 0, 1, "CREATE MATERIALIZED VIEW mv AS SELECT v1 FROM t"),
        ("public", "mv2", 1, None, 0, 1,
         "CREATE MATERIALIZED VIEW mv2 AS SELECT count(*) AS n FROM t"),
    ]  # fmt: skip
    assert store.rows("pg_catalog.pg_tables", "schemaname = 'public'") == [
        ("public", "t", "root", None)
    ]
    # rw_catalog's system tables are left out, pg_catalog's kept (pg_tables.rs).
    assert store.rows("pg_catalog.pg_tables", "schemaname = 'rw_catalog'") == []
    assert ("pg_catalog", "pg_class", "root", None) in store.rows("pg_catalog.pg_tables")
    assert store.rows("pg_catalog.pg_views", "schemaname = 'public'") == [
        ("public", "v", "root", "CREATE VIEW v AS SELECT v2 FROM t")
    ]


def test_information_schema_tables_and_columns(store: Store) -> None:
    scenario(store)
    assert store.rows("information_schema.tables", "table_schema = 'public'") == [
        ("dev", "public", "idx", "INDEX", "NO"),
        ("dev", "public", "mv", "MATERIALIZED VIEW", "NO"),
        ("dev", "public", "mv2", "MATERIALIZED VIEW", "NO"),
        ("dev", "public", "sink", "SINK", "NO"),
        ("dev", "public", "src", "SOURCE", "NO"),
        ("dev", "public", "t", "BASE TABLE", "YES"),
        ("dev", "public", "v", "VIEW", "NO"),
    ]
    cols = store.rows("information_schema.columns", "table_name = 't'")
    assert [(r[0], r[1], r[2], r[3], r[10], r[11], r[12], r[13], r[14], r[15]) for r in cols] == [
        ("dev", "public", "t", "v1", 1, "YES", "integer", "dev", "pg_catalog", "int4"),
        ("dev", "public", "t", "v2", 2, "YES", "character varying", "dev", "pg_catalog",
         "varchar"),
    ]  # fmt: skip
    # dbt's get_columns: materialized views too.
    mv_cols = store.rows("information_schema.columns", "table_name = 'mv'")
    assert [(r[3], r[12]) for r in mv_cols] == [("v1", "integer")]
    assert store.rows("information_schema.schemata") == [
        ("dev", "information_schema", "root", None, None, None, None),
        ("dev", "pg_catalog", "root", None, None, None, None),
        ("dev", "public", "root", None, None, None, None),
        ("dev", "rw_catalog", "root", None, None, None, None),
    ]
    assert store.rows("information_schema.views", "table_schema = 'public'") == [
        ("dev", "public", "v", "CREATE VIEW v AS SELECT v2 FROM t")
    ]


def test_information_schema_constraints(store: Store) -> None:
    pk_table = store.relation(
        "table", "p", [("a", t.INT4, "integer"), ("b", t.INT4, "integer")], pk=[1]
    )
    assert store.rows("information_schema.table_constraints", "table_name = 'p'") == [
        ("dev", "public", "p_pkey", "dev", "public", "p", "PRIMARY KEY", "NO", "NO", "YES")
    ]
    assert store.rows("information_schema.key_column_usage", "table_name = 'p'") == [
        ("dev", "public", "p_pkey", "dev", "public", "p", "b", 2, None)
    ]
    assert pk_table > 0


def test_system_views_show_risingwaves_definition(store: Store) -> None:
    (row,) = store.rows("rw_catalog.rw_views", "name = 'pg_namespace'")
    assert row[4] == (
        "CREATE VIEW pg_catalog.pg_namespace AS SELECT id AS oid, name AS nspname, owner AS "
        "nspowner, acl AS nspacl FROM rw_catalog.rw_schemas"
    )
    (am,) = store.rows("rw_catalog.rw_views", "name = 'pg_am'")
    assert am[4] == (
        "CREATE VIEW pg_catalog.pg_am AS SELECT NULL::integer AS oid, NULL::character varying AS "
        "amname, NULL::integer AS amhandler, NULL::character varying AS amtype WHERE 1 != 1"
    )
    assert json.loads(row[5])[0] == "root=arwd/root"


def test_pg_settings_session_variables_then_system_parameters(store: Store) -> None:
    assert [c.name for c in RELATIONS[("pg_catalog", "pg_settings")].columns] == [
        "name", "setting", "short_desc", "context",
    ]  # fmt: skip
    store.conn.execute("DELETE FROM system_parameter")
    store.conn.execute("INSERT INTO system_parameter VALUES ('barrier_interval_ms', '1000')")
    assert store.rows("pg_catalog.pg_settings") == [
        ("barrier_interval_ms", "1000", "", "postmaster")
    ]
    store.conn.create_function(
        "rw_session_settings", 0,
        lambda: json.dumps([["rw_implicit_flush", "false", "If set to true, ..."],
                            ["search_path", '"$user", public', None]]),
    )  # fmt: skip
    assert store.rows("pg_catalog.pg_settings") == [
        ("rw_implicit_flush", "false", "If set to true, ...", "user"),
        ("search_path", '"$user", public', "", "user"),
        ("barrier_interval_ms", "1000", "", "postmaster"),
    ]
