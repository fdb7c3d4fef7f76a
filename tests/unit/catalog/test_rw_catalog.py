"""rw_catalog relations: exact rows and declared types over a real store."""

from __future__ import annotations

import json

import pytest

from rwshim.catalog_path.system_catalogs import RELATIONS
from rwshim.catalog_path.system_catalogs.system_catalogs import SYS_CATALOG_START_ID
from rwshim.common import pgtypes as t
from tests.unit.catalog.conftest import TS, TS2, VERSION, Store

SUPER_ACL_TABLE = '["root=arwd/root","postgres=arwd/root","rwadmin=arwd/root"]'
SUPER_ACL_READ = '["root=r/root","postgres=r/root","rwadmin=r/root"]'

INT = (t.INT4, "integer")
VARCHAR = (t.VARCHAR, "character varying")
SERIAL = (t.INT8, "serial")


def columns(rel: str) -> list[tuple[str, int]]:
    schema, name = rel.split(".")
    return [(c.name, c.type_oid) for c in RELATIONS[(schema, name)].columns]


def scenario(store: Store) -> dict[str, int]:
    """t (no pk, so a hidden _row_id), mv over t (created, background), mv2 (creating), a view,
    an index on t, a source and a sink, with their streaming jobs."""
    ids: dict[str, int] = {}
    ids["t"] = store.relation(
        "table", "t", [("v1", *INT), ("v2", *VARCHAR), ("_row_id", *SERIAL)],
        definition="CREATE TABLE t (v1 INT, v2 CHARACTER VARYING)", pk=[2], hidden=[2],
    )  # fmt: skip
    store.job(ids["t"], kind="Adaptive", strategy="BOUNDED(4)")
    ids["mv"] = store.relation(
        "materialized view", "mv", [("v1", *INT), ("_row_id", *SERIAL)],
        definition="CREATE MATERIALIZED VIEW mv AS SELECT v1 FROM t", pk=[1], hidden=[1],
    )  # fmt: skip
    store.job(ids["mv"], create_type="BACKGROUND", kind="Fixed", fixed=4, strategy=None)
    ids["mv2"] = store.relation(
        "materialized view", "mv2", [("n", t.INT8, "bigint")], created=False,
        definition="CREATE MATERIALIZED VIEW mv2 AS SELECT count(*) AS n FROM t",
    )  # fmt: skip
    store.job(ids["mv2"], status="CREATING", strategy="RATIO(0.5)")
    ids["v"] = store.relation(
        "view", "v", [("v2", *VARCHAR)], definition="CREATE VIEW v AS SELECT v2 FROM t"
    )
    ids["idx"] = store.relation(
        "index", "idx", [("v1", *INT), ("v2", *VARCHAR), ("_row_id", *SERIAL)],
        definition="CREATE INDEX idx ON t(v1) INCLUDE(v2)", primary_table_id=ids["t"],
        index_key_columns="[0]", index_include_columns="[1]", pk=[0, 2],
    )  # fmt: skip
    store.job(ids["idx"], kind="Adaptive", strategy="AUTO")
    ids["src"] = store.relation(
        "source", "src", [("k", *INT)], connector="kafka", format="PLAIN", row_encode="JSON",
        with_options='{"topic": "a", "connector": "kafka"}',
        format_encode_options="{}", definition="CREATE SOURCE src (k INT) WITH (...)",
    )  # fmt: skip
    ids["sink"] = store.relation(
        "sink", "sink", [("v1", *INT)], connector="blackhole", sink_type="append-only",
        with_options='{"connector": "blackhole"}',
        definition="CREATE SINK sink AS SELECT v1 FROM t WITH (connector = 'blackhole')",
    )  # fmt: skip
    store.job(ids["sink"], kind="Custom", strategy=None)
    return ids


def test_rw_tables_rows_and_types(store: Store) -> None:
    ids = scenario(store)
    assert columns("rw_catalog.rw_tables") == [
        ("id", t.INT4), ("name", t.VARCHAR), ("schema_id", t.INT4), ("owner", t.INT4),
        ("definition", t.VARCHAR), ("append_only", t.BOOL), ("refreshable", t.BOOL),
        ("acl", t.VARCHAR_ARRAY), ("initialized_at", t.TIMESTAMPTZ),
        ("created_at", t.TIMESTAMPTZ), ("initialized_at_cluster_version", t.VARCHAR),
        ("created_at_cluster_version", t.VARCHAR),
    ]  # fmt: skip
    assert store.rows("rw_catalog.rw_tables") == [
        (ids["t"], "t", 2, 1, "CREATE TABLE t (v1 INT, v2 CHARACTER VARYING)", 0, 0,
         SUPER_ACL_TABLE, TS, TS2, VERSION, VERSION),
    ]  # fmt: skip


def test_rw_materialized_views_status_and_background(store: Store) -> None:
    ids = scenario(store)
    assert [c for c, _ in columns("rw_catalog.rw_materialized_views")][-2:] == [
        "background_ddl",
        "status",
    ]
    assert store.rows("rw_catalog.rw_materialized_views") == [
        (ids["mv"], "mv", 2, "public", 1, "CREATE MATERIALIZED VIEW mv AS SELECT v1 FROM t", 0,
         SUPER_ACL_TABLE, TS, TS2, VERSION, VERSION, 1, "Created"),
        (ids["mv2"], "mv2", 2, "public", 1,
         "CREATE MATERIALIZED VIEW mv2 AS SELECT count(*) AS n FROM t", 0, SUPER_ACL_TABLE, TS,
         None, VERSION, None, 0, "Creating"),
    ]  # fmt: skip


def test_initial_jobs_are_invisible(store: Store) -> None:
    rid = store.relation("materialized view", "mv_init", [("a", *INT)], created=False)
    store.job(rid, status="INITIAL")
    assert store.rows("rw_catalog.rw_materialized_views") == []
    assert store.rows("rw_catalog.rw_relations", "id = ?", (rid,)) == []
    assert store.rows("pg_catalog.pg_class", "oid = ?", (rid,)) == []
    # ... but meta lists it: rw_streaming_jobs and rw_ddl_progress (SHOW JOBS) see INITIAL jobs.
    assert store.rows("rw_catalog.rw_streaming_jobs", "id = ?", (rid,)) == [
        (rid, "mv_init", 1, "INITIAL", "bounded(64)", 256, "default")
    ]
    assert store.rows("rw_catalog.rw_ddl_progress") == [
        (rid, "", "FOREGROUND", "0.0%", TS, 0, "NORMAL_BACKFILL")
    ]


def test_streaming_jobs_parallelism_renderings(store: Store) -> None:
    ids = scenario(store)
    assert columns("rw_catalog.rw_streaming_jobs") == [
        ("id", t.INT4), ("name", t.VARCHAR), ("database_id", t.INT4), ("status", t.VARCHAR),
        ("parallelism", t.VARCHAR), ("max_parallelism", t.INT4), ("resource_group", t.VARCHAR),
    ]  # fmt: skip
    assert store.rows("rw_catalog.rw_streaming_jobs") == [
        (ids["t"], "t", 1, "CREATED", "bounded(4)", 256, "default"),
        (ids["mv"], "mv", 1, "CREATED", "4", 256, "default"),
        (ids["mv2"], "mv2", 1, "CREATING", "ratio(0.5)", 256, "default"),
        (ids["idx"], "idx", 1, "CREATED", "adaptive", 256, "default"),
        (ids["sink"], "sink", 1, "CREATED", "custom", 256, "default"),
    ]
    assert store.rows("rw_catalog.rw_table_fragments") == [
        (ids["t"], "CREATED", "bounded(4)", 256),
        (ids["mv"], "CREATED", "4", 256),
        (ids["mv2"], "CREATING", "ratio(0.5)", 256),
        (ids["idx"], "CREATED", "adaptive", 256),
        (ids["sink"], "CREATED", "custom", 256),
    ]
    assert store.rows("rw_catalog.rw_streaming_parallelism") == [
        (ids["t"], "t", "table", "bounded(4)", 256),
        (ids["mv"], "mv", "materialized view", "4", 256),
        (ids["mv2"], "mv2", "materialized view", "ratio(0.5)", 256),
        (ids["idx"], "idx", "index", "adaptive", 256),
        (ids["sink"], "sink", "sink", "custom", 256),
    ]
    assert store.rows("rw_catalog.rw_streaming_job_info", "id = ?", (ids["mv"],)) == [
        (ids["mv"], "mv", "dev", "CREATED", "4", 256, "default")
    ]


def test_fragments_and_policies(store: Store) -> None:
    ids = scenario(store)
    f_dml = store.fragment(ids["t"], ["DML"], actors=4)
    f_mat = store.fragment(ids["t"], ["MVIEW"], actors=4, upstream=[(f_dml, "Hash")])
    f_scan = store.fragment(ids["mv"], ["MVIEW", "STREAM_SCAN"], actors=4,
                            upstream=[(f_mat, "NoShuffle")])  # fmt: skip
    f_single = store.fragment(ids["mv2"], ["MVIEW"], distribution="SINGLE")
    f_over = store.fragment(ids["idx"], ["MVIEW"], actors=2, parallelism_override_kind="Fixed",
                            parallelism_override_fixed=2)  # fmt: skip
    f_adapt = store.fragment(ids["sink"], ["SINK"], actors=3, parallelism_override_kind="Adaptive")
    assert columns("rw_catalog.rw_fragments") == [
        ("fragment_id", t.INT4), ("table_id", t.INT4), ("distribution_type", t.VARCHAR),
        ("state_table_ids", t.INT4_ARRAY), ("upstream_fragment_ids", t.INT4_ARRAY),
        ("flags", t.VARCHAR_ARRAY), ("parallelism", t.INT4), ("max_parallelism", t.INT4),
        ("parallelism_policy", t.VARCHAR),
    ]  # fmt: skip
    assert store.rows("rw_catalog.rw_fragments") == [
        (f_dml, ids["t"], "HASH", "[]", "[]", '["DML"]', 4, 256, "inherit(bounded(4))"),
        (f_mat, ids["t"], "HASH", "[]", f"[{f_dml}]", '["MVIEW"]', 4, 256, "inherit(bounded(4))"),
        (f_scan, ids["mv"], "HASH", "[]", f"[{f_mat}]", '["MVIEW","STREAM_SCAN"]', 4, 256,
         f"upstream_fragment([{f_mat}])"),
        (f_single, ids["mv2"], "SINGLE", "[]", "[]", '["MVIEW"]', 1, 1, "single"),
        (f_over, ids["idx"], "HASH", "[]", "[]", '["MVIEW"]', 2, 256, "override(2)"),
        (f_adapt, ids["sink"], "HASH", "[]", "[]", '["SINK"]', 3, 256, "override(adaptive)"),
    ]  # fmt: skip
    assert [r[:4] for r in store.rows("rw_catalog.rw_fragment_parallelism")] == [
        (ids["t"], "t", "table", f_dml),
        (ids["t"], "t", "table", f_mat),
        (ids["mv"], "mv", "materialized view", f_scan),
        (ids["mv2"], "mv2", "materialized view", f_single),
        (ids["idx"], "idx", "index", f_over),
        (ids["sink"], "sink", "sink", f_adapt),
    ]
    assert store.rows("rw_catalog.rw_actors", "fragment_id = ?", (f_over,)) == [
        (14, f_over, 1, "RUNNING"),
        (15, f_over, 1, "RUNNING"),
    ]
    assert store.rows("rw_catalog.rw_fragment_id_to_ddl", "fragment_id = ?", (f_scan,)) == [
        (f_scan, ids["mv"], 2, "mv", "mv")
    ]


def test_ddl_progress_rows(store: Store) -> None:
    ids = scenario(store)
    store.conn.execute(
        "UPDATE streaming_job SET progress = 'Snapshot [25.00% (1/4)]', "
        "backfill_type = 'SNAPSHOT_BACKFILL', create_type = 'BACKGROUND' WHERE job_id = ?",
        (ids["mv2"],),
    )
    shared = store.relation("source", "s2", [("k", *INT)], created=False, is_shared=1)
    store.job(shared, status="CREATING")
    assert columns("rw_catalog.rw_ddl_progress") == [
        ("ddl_id", t.INT8), ("ddl_statement", t.VARCHAR), ("create_type", t.VARCHAR),
        ("progress", t.VARCHAR), ("initialized_at", t.TIMESTAMPTZ),
        ("is_serverless_backfill", t.BOOL), ("backfill_type", t.VARCHAR),
    ]  # fmt: skip
    # Created jobs and shared sources are not listed (list_op.rs:99-145).
    assert store.rows("rw_catalog.rw_ddl_progress") == [
        (ids["mv2"], "CREATE MATERIALIZED VIEW mv2 AS SELECT count(*) AS n FROM t", "BACKGROUND",
         "Snapshot [25.00% (1/4)]", TS, 0, "SNAPSHOT_BACKFILL"),
    ]  # fmt: skip


def test_creating_jobs_show_their_backfill_parallelism(store: Store) -> None:
    rid = store.relation("materialized view", "m", [("a", *INT)], created=False)
    store.job(rid, status="CREATING", strategy="BOUNDED(64)")
    assert store.rows("rw_catalog.rw_streaming_jobs")[0][4] == "bounded(64)"
    store.conn.execute(
        "UPDATE streaming_job SET backfill_parallelism_kind = 'Fixed', "
        "backfill_parallelism_fixed = 2 WHERE job_id = ?",
        (rid,),
    )
    assert store.rows("rw_catalog.rw_streaming_jobs")[0][4] == "2"
    assert store.rows("rw_catalog.rw_table_fragments")[0][2] == "2"
    store.conn.execute(
        "UPDATE streaming_job SET backfill_parallelism_kind = 'Adaptive', "
        "backfill_parallelism_fixed = NULL, backfill_adaptive_parallelism_strategy = "
        "'RATIO(0.5)' WHERE job_id = ?",
        (rid,),
    )
    assert store.rows("rw_catalog.rw_streaming_jobs")[0][4] == "ratio(0.5)"
    # Once created, the catalog target again (stream_service.rs:87-102); fragments always
    # inherit the catalog target.
    store.conn.execute("UPDATE streaming_job SET job_status = 'CREATED' WHERE job_id = ?", (rid,))
    assert store.rows("rw_catalog.rw_streaming_jobs")[0][4] == "bounded(64)"


def test_rw_relations_lists_every_kind_and_system_catalogs(store: Store) -> None:
    ids = scenario(store)
    user = store.rows("rw_catalog.rw_relations", "schema_id = 2 ORDER BY id")
    assert [(r[0], r[1], r[2]) for r in user] == [
        (ids["t"], "t", "table"),
        (ids["mv"], "mv", "materialized view"),
        (ids["mv2"], "mv2", "materialized view"),
        (ids["v"], "v", "view"),
        (ids["idx"], "idx", "index"),
        (ids["src"], "src", "source"),
        (ids["sink"], "sink", "sink"),
    ]
    # The index's acl is empty; sources and sinks read-only for superusers.
    assert {r[1]: r[6] for r in user}["idx"] == "[]"
    assert {r[1]: r[6] for r in user}["src"] == SUPER_ACL_READ
    system = store.rows(
        "rw_catalog.rw_relations", "name IN ('rw_tables', 'pg_class', 'rw_relations')"
    )
    rank = {r[1]: r[0] - SYS_CATALOG_START_ID for r in system}
    assert sorted(rank.values()) == sorted(set(rank.values()))
    assert {(r[1], r[2], r[3]) for r in system} == {
        ("rw_tables", "system table", 5),
        ("pg_class", "system table", 3),
        ("rw_relations", "view", 5),
    }


def test_rw_columns_user_and_system(store: Store) -> None:
    ids = scenario(store)
    assert store.rows("rw_catalog.rw_columns", "relation_id = ?", (ids["t"],)) == [
        (ids["t"], "v1", 1, 0, 0, 0, 0, 1, None, "integer", 23, 4, "int4"),
        (ids["t"], "v2", 2, 0, 0, 0, 0, 1, None, "character varying", 1043, -1, "varchar"),
        (ids["t"], "_row_id", 3, 1, 1, 1, 0, 1, None, "serial", 20, 8, "serial"),
        (ids["t"], "_rw_timestamp", 4, 1, 0, 0, 0, 1, None, "timestamp with time zone", 1184, 8,
         "timestamptz"),
    ]  # fmt: skip
    # Views, sinks and sources have no _rw_timestamp.
    assert store.rows("rw_catalog.rw_columns", "relation_id = ?", (ids["v"],)) == [
        (ids["v"], "v2", 1, 0, 0, 0, 0, 1, None, "character varying", 1043, -1, "varchar"),
    ]
    rw_tables = store.rows("rw_catalog.rw_columns", "relation_id = (SELECT id FROM "
                           "rw_catalog__rw_system_tables WHERE name = 'rw_tables')")  # fmt: skip
    assert [(r[1], r[2], r[4], r[9], r[10], r[11], r[12]) for r in rw_tables][:3] + [
        (r[1], r[9], r[10], r[12]) for r in rw_tables if r[1] == "acl"
    ] == [
        ("id", 1, 1, "integer", 23, 4, "int4"),
        ("name", 2, 0, "character varying", 1043, -1, "varchar"),
        ("schema_id", 3, 0, "integer", 23, 4, "int4"),
        ("acl", "character varying[]", 1015, "list"),
    ]


def test_indexes_sources_sinks(store: Store) -> None:
    ids = scenario(store)
    assert store.rows("rw_catalog.rw_indexes") == [
        (ids["idx"], "idx", ids["t"], "[1]", "[2]", 2, 1,
         "CREATE INDEX idx ON t(v1) INCLUDE(v2)", "[]", TS, TS2, VERSION, VERSION, 0),
    ]  # fmt: skip
    props = {"connector": {"type": "plaintext", "value": "kafka"},
             "topic": {"type": "plaintext", "value": "a"}}  # fmt: skip
    (src,) = store.rows("rw_catalog.rw_sources")
    assert src[:12] == (
        ids["src"], "src", 2, 1, "KAFKA", '["k"]', "FORMAT_TYPE_PLAIN", "ENCODE_TYPE_JSON", 0,
        None, None, "CREATE SOURCE src (k INT) WITH (...)",
    )  # fmt: skip
    assert (src[12], src[17], json.loads(src[18]), json.loads(src[19])) == (
        SUPER_ACL_READ,
        0,
        props,
        {},
    )
    (sink,) = store.rows("rw_catalog.rw_sinks")
    assert sink[:9] == (
        ids["sink"], "sink", 2, 1, "BLACKHOLE", "SINK_TYPE_APPEND_ONLY", None,
        "CREATE SINK sink AS SELECT v1 FROM t WITH (connector = 'blackhole')", None,
    )  # fmt: skip
    assert (sink[14], json.loads(sink[15]), sink[16]) == (
        0,
        {"connector": {"type": "plaintext", "value": "blackhole"}},
        "null",
    )


def test_databases_schemas_users_and_scope(store: Store) -> None:
    db2, schemas = store.database("db2")
    store.relation("table", "other", [("a", *INT)], schema_id=schemas["public"], database_id=db2)
    assert store.rows("rw_catalog.rw_databases") == [
        (1, "dev", 1, '["root=Cc/root","postgres=Cc/root","rwadmin=Cc/root"]', "default",
         None, None),
        (db2, "db2", 1, '["root=Cc/root","postgres=Cc/root","rwadmin=Cc/root"]', "default",
         None, None),
    ]  # fmt: skip
    acl = '["root=UC/root","postgres=UC/root","rwadmin=UC/root"]'
    assert store.rows("rw_catalog.rw_schemas") == [
        (2, "public", 1, acl), (3, "pg_catalog", 1, acl), (4, "information_schema", 1, acl),
        (5, "rw_catalog", 1, acl),
    ]  # fmt: skip
    assert store.rows("rw_catalog.rw_tables") == []
    store.ctx.database_id = db2
    assert [r[1] for r in store.rows("rw_catalog.rw_tables")] == ["other"]
    assert [r[0] for r in store.rows("rw_catalog.rw_schemas")] == list(schemas.values())
    assert store.rows("rw_catalog.rw_users") == [
        (1, "root", 1, 1, 1, 1, 0),
        (2, "postgres", 1, 1, 1, 1, 0),
        (3, "rwadmin", 1, 1, 1, 1, 1),
    ]


def test_acl_items_and_visibility_for_plain_users(store: Store) -> None:
    ids = scenario(store)
    alice = store.user("alice")
    bob = store.user("bob")
    store.conn.executemany(
        "INSERT INTO user_privilege(user_id, oid, action, with_grant_option, granted_by)"
        " VALUES (?, ?, ?, ?, 1)",
        [(alice, ids["t"], "SELECT", 0), (alice, ids["t"], "INSERT", 1),
         (bob, ids["mv"], "SELECT", 0)],
    )  # fmt: skip
    (row,) = store.rows("rw_catalog.rw_tables")
    assert json.loads(row[7]) == [
        "root=arwd/root", "postgres=arwd/root", "rwadmin=arwd/root", "alice=a*r/root",
    ]  # fmt: skip
    store.ctx.user_id = bob
    assert store.rows("rw_catalog.rw_tables") == []
    assert [r[1] for r in store.rows("rw_catalog.rw_materialized_views")] == ["mv"]
    # pg_class is not filtered by privileges (pg_class.rs).
    assert len(store.rows("pg_catalog.pg_class", "relnamespace = 2")) == 7


def test_depend_description_system_tables(store: Store) -> None:
    ids = scenario(store)
    store.conn.execute("INSERT INTO dependency VALUES (?, ?)", (ids["t"], ids["mv"]))
    store.conn.execute("INSERT INTO comment VALUES (?, 0, 'the table')", (ids["t"],))
    store.conn.execute("INSERT INTO comment VALUES (?, 2, 'second')", (ids["t"],))
    assert store.rows("rw_catalog.rw_depend") == [(ids["mv"], ids["t"])]
    rw_tables_id = store.rows("rw_catalog.rw_system_tables", "name = 'rw_tables'")[0][0]
    assert store.rows("rw_catalog.rw_description") == [
        (ids["t"], rw_tables_id, None, "the table"),
        (ids["t"], rw_tables_id, 1, None),
        (ids["t"], rw_tables_id, 2, "second"),
        (ids["t"], rw_tables_id, 0, None),
        (ids["t"], rw_tables_id, -1, None),
    ]
    store.conn.execute("INSERT INTO comment VALUES (?, 3, 'row id')", (ids["t"],))
    assert store.rows("pg_catalog.pg_description") == [
        (ids["t"], rw_tables_id, 0, "the table"),
        (ids["t"], rw_tables_id, 2, "second"),
        (ids["t"], rw_tables_id, -1, "row id"),
    ]
    assert store.rows("rw_catalog.rw_system_tables", "name = 'rw_tables'") == [
        (rw_tables_id, "rw_tables", 5, 1, None, SUPER_ACL_READ)
    ]


def test_views_workers_rate_limits_actor_infos(store: Store) -> None:
    ids = scenario(store)
    assert store.rows("rw_catalog.rw_views", "schema_id = 2") == [
        (ids["v"], "v", 2, 1, "CREATE VIEW v AS SELECT v2 FROM t", SUPER_ACL_TABLE, TS2, VERSION),
    ]
    store.conn.execute("DELETE FROM worker")
    store.conn.execute(
        "INSERT INTO worker VALUES (2, 'WORKER_TYPE_COMPUTE_NODE', 'h', 5688, 'RUNNING', 4, "
        "NULL, 1, 1, ?), (1, 'WORKER_TYPE_FRONTEND', 'h', 4566, 'RUNNING', 0, NULL, 0, 0, ?)",
        (TS, TS),
    )
    assert store.rows("rw_catalog.rw_worker_nodes") == [
        # internal_rpc_host_addr: the frontend's RPC port, '' for a compute node
        (1, "h", "4566", "WORKER_TYPE_FRONTEND", "RUNNING", None, None, None, "h:6786", None,
         None, None, TS[:19] + ".000000+00:00", None, None),
        (2, "h", "5688", "WORKER_TYPE_COMPUTE_NODE", "RUNNING", 4, 1, 1, "", None, None,
         None, TS[:19] + ".000000+00:00", "default", None),
    ]  # fmt: skip
    # A StreamScan's limit is the fragment's backfill_rate_limit (schema version 3).
    f_scan = store.fragment(ids["mv"], ["MVIEW", "STREAM_SCAN"], actors=2, backfill_rate_limit=0)
    f_sink = store.fragment(ids["sink"], ["SINK"], rate_limit=100)
    # DML limits are not listed, and a table without a connector has no source to limit
    # (list_rate_limits, controller/streaming_job.rs:3755-3800).
    store.fragment(ids["t"], ["SOURCE", "DML"], rate_limit=5)
    assert columns("rw_catalog.rw_rate_limit") == [
        ("fragment_id", t.INT4), ("fragment_type", t.VARCHAR_ARRAY), ("node_name", t.VARCHAR),
        ("table_id", t.INT4), ("rate_limit", t.INT4),
    ]  # fmt: skip
    assert store.rows("rw_catalog.rw_rate_limit") == [
        (f_scan, '["MVIEW","STREAM_SCAN"]', "STREAM_SCAN", ids["mv"], 0),
        (f_sink, '["SINK"]', "SINK", ids["sink"], 100),
    ]
    assert store.rows("rw_catalog.rw_actor_infos") == [
        (1, f_scan, "null", "null"), (2, f_scan, "null", "null"), (3, f_sink, "null", "null"),
        (4, f_sink + 1, "null", "null"),
    ]  # fmt: skip
    assert store.rows("rw_catalog.rw_actor_id_to_ddl", "fragment_id = ?", (f_sink,)) == [
        (3, f_sink, ids["sink"], 2, "sink", "sink")
    ]
    store.conn.execute("UPDATE actor SET worker_id = 2")
    assert store.rows("rw_catalog.rw_worker_actor_count") == [(2, 4, 4)]


def test_types_and_internal_table_info(store: Store) -> None:
    ids = scenario(store)
    types = store.rows("rw_catalog.rw_types")
    assert types[:2] == [(16, "bool", "boolin", 0, 1000), (17, "bytea", "byteain", 0, 1001)]
    assert (25, "text", "textin", 0, 1009) in types
    assert (1000, "_bool", "array_in", 16, 0) in types
    internal = store.relation(
        "internal", "__internal_mv_3_materialize_9", [("a", *INT)], owner_job_id=ids["mv"]
    )
    assert store.rows("rw_catalog.rw_internal_table_info") == [
        (internal, "__internal_mv_3_materialize_9", ids["mv"], "mv", "materialized view",
         "public", "root"),
    ]  # fmt: skip
    # Internal tables are not relations users see.
    assert store.rows("rw_catalog.rw_relations", "id = ?", (internal,)) == []
    assert store.rows("pg_catalog.pg_class", "oid = ?", (internal,)) == []


@pytest.mark.parametrize(
    "relation",
    ["pg_catalog.pg_am", "pg_catalog.pg_proc", "pg_catalog.pg_collation", "pg_catalog.pg_enum",
     "pg_catalog.pg_inherits", "pg_catalog.pg_attrdef", "rw_catalog.rw_functions",
     "rw_catalog.rw_secrets", "rw_catalog.rw_connections", "rw_catalog.rw_subscriptions"],
)  # fmt: skip
def test_relations_rwshim_has_nothing_for_are_empty(store: Store, relation: str) -> None:
    scenario(store)
    assert store.rows(relation) == []


def test_streaming_job_config_flattens_the_override(store: Store) -> None:
    ids = scenario(store)
    store.conn.execute(
        "UPDATE streaming_job SET config_override = ? WHERE job_id = ?",
        ('[streaming.developer]\nchunk_size = 8\nname = "x"\n[streaming]\nflag = true\n',
         ids["mv"]),
    )  # fmt: skip
    store.conn.execute(
        "UPDATE streaming_job SET config_override = 'not toml [' WHERE job_id = ?", (ids["t"],)
    )
    assert store.rows("rw_catalog.rw_streaming_job_config") == [
        (ids["mv"], "mv", 1, "streaming.developer.chunk_size", "8"),
        (ids["mv"], "mv", 1, "streaming.developer.name", '"x"'),
        (ids["mv"], "mv", 1, "streaming.flag", "true"),
    ]
