"""The catalog views over a store written by the engine's own DDL (no raw INSERTs): a table, a
background MV that backfills over barriers, an index, a view; rw_ddl_progress agrees with the
engine's SHOW JOBS rows at every step."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterator

import pytest

from rwshim.catalog_path import system_catalogs as catalog
from rwshim.catalog_path.system_catalogs import show
from rwshim.common import pgtypes as t
from rwshim.engine.engine import Engine
from rwshim.engine.types import ColumnSpec, Context, ManualClock, ObjectName
from rwshim.store.store import Store
from rwshim.version import CLUSTER_VERSION
from tests.unit.engine.helpers import Counts

CTX = Context(1, 1, {"background_ddl": "true"})
SHOW_CTX = show.ShowContext(1, 1, "root")


class Env:
    def __init__(self) -> None:
        self.store = Store.open()
        self.clock = ManualClock()
        self.counts = Counts()
        self.engine = Engine(
            self.store, self.clock, backfill_rows_per_second=10, row_count=self.counts
        )
        self.conn: sqlite3.Connection = self.store.conn
        self.conn.create_function("rw_current_database_id", 0, lambda: 1)
        self.conn.create_function("rw_current_user_id", 0, lambda: 1)
        self.conn.create_function("rw_current_schema", 0, lambda: "public")
        catalog.install(self.conn)

    def rows(self, rel: str, where: str = "") -> list[tuple[object, ...]]:
        schema, name = rel.split(".")
        sql = f'SELECT * FROM "{schema}__{name}"' + (f" WHERE {where}" if where else "")
        return [tuple(r) for r in self.conn.execute(sql).fetchall()]

    def tick(self) -> None:
        self.clock.advance(1000)
        self.engine.barrier.tick()


@pytest.fixture
def env() -> Iterator[Env]:
    e = Env()
    yield e
    e.conn.close()


def test_background_mv_lifecycle(env: Env) -> None:
    eng = env.engine
    eng.ddl.create_table(
        CTX, ObjectName("t"),
        [ColumnSpec("v1", t.INT4, "integer"), ColumnSpec("v2", t.VARCHAR, "character varying")],
        definition="CREATE TABLE t (v1 INT PRIMARY KEY, v2 CHARACTER VARYING)",
        primary_key=["v1"],
    )  # fmt: skip
    (tid,) = env.conn.execute("SELECT relation_id FROM relation WHERE name = 't'").fetchone()
    env.counts[tid] = 100  # the data plane's count of t
    eng.ddl.create_materialized_view(
        CTX, ObjectName("mv"), [ColumnSpec("v1", t.INT4, "integer")],
        definition="CREATE MATERIALIZED VIEW mv AS SELECT v1 FROM t", upstream_ids=[tid],
        primary_key=[0],
    )  # fmt: skip
    (mv,) = env.conn.execute("SELECT relation_id FROM relation WHERE name = 'mv'").fetchone()

    def mv_status() -> list[tuple[object, ...]]:
        return [(r[1], r[9] is not None, r[12], r[13])
                for r in env.rows("rw_catalog.rw_materialized_views")]  # fmt: skip

    def progress() -> list[tuple[object, ...]]:
        rows = env.rows("rw_catalog.rw_ddl_progress")
        expected = [
            (a, b, c, d, e, int(f), g) for a, b, c, d, e, f, g in eng.backfill.ddl_progress()
        ]
        assert rows == expected
        return [r[3] for r in rows]

    assert mv_status() == [("mv", False, 1, "Creating")]
    assert progress() == ["Snapshot [0.00% (0/100)]"]
    (internal,) = env.conn.execute(
        "SELECT relation_id FROM relation WHERE kind = 'internal' AND owner_job_id = ?", (mv,)
    ).fetchone()
    scan = env.rows("rw_catalog.rw_backfill_info")
    assert [(r[0], r[2], r[3], r[4]) for r in scan] == [(mv, internal, tid, "SnapshotBackfill")]
    assert show.show_objects(env.conn, SHOW_CTX, "materialized views")[1] == []
    env.tick()
    assert progress() == ["Snapshot [40.00% (40/100)]"]
    for _ in range(10):
        env.tick()
    assert progress() == []
    assert mv_status() == [("mv", True, 1, "Created")]
    assert show.show_objects(env.conn, SHOW_CTX, "materialized views")[1] == [("public.mv",)]
    assert env.rows("rw_catalog.rw_streaming_jobs") == [
        (tid, "t", 1, "CREATED", "bounded(4)", 256, "default"),
        (mv, "mv", 1, "CREATED", "bounded(64)", 256, "default"),
    ]
    # Fragments: the table's root (materialize) fragment and its source/DML fragment, the MV's
    # scan fragment reading the table's materialize fragment; parallelism is the actor count.
    frags = env.rows("rw_catalog.rw_fragments")
    assert [(f[1], f[5], f[6], f[8]) for f in frags] == [
        (tid, '["MVIEW","UPSTREAM_SINK_UNION"]', 4, "inherit(bounded(4))"),
        (tid, '["SOURCE","DML"]', 4, "inherit(bounded(4))"),
        (mv, '["MVIEW","STREAM_SCAN","SNAPSHOT_BACKFILL_STREAM_SCAN"]', 4, "inherit(bounded(64))"),
    ]
    assert frags[0][4] == f"[{frags[1][0]}]"
    assert frags[2][4] == f"[{frags[0][0]}]"
    info = env.rows("rw_catalog.rw_relation_info")
    assert [r[:7] for r in info] == [
        ("public", "mv", 1, "CREATE MATERIALIZED VIEW mv AS SELECT v1 FROM t", "MATERIALIZED VIEW",
         mv, "UTC"),
        ("public", "t", 1, "CREATE TABLE t (v1 INT PRIMARY KEY, v2 CHARACTER VARYING)", "TABLE",
         tid, "UTC"),
    ]  # fmt: skip
    assert list(json.loads(str(info[0][7]))) == [str(frags[2][0])]
    assert sorted(json.loads(str(info[1][7]))) == sorted([str(frags[0][0]), str(frags[1][0])])
    assert env.rows("rw_catalog.rw_depend") == [(mv, tid)]
    internal = env.rows("rw_catalog.rw_internal_tables")
    assert [(r[3], r[9]) for r in internal] == [(mv, CLUSTER_VERSION)]
    assert env.rows("rw_catalog.rw_relations", "schema_id = 2") == [
        (tid, "t", "table", 2, 1, "CREATE TABLE t (v1 INT PRIMARY KEY, v2 CHARACTER VARYING)",
         '["root=arwd/root","postgres=arwd/root","rwadmin=arwd/root"]'),
        (mv, "mv", "materialized view", 2, 1, "CREATE MATERIALIZED VIEW mv AS SELECT v1 FROM t",
         '["root=arwd/root","postgres=arwd/root","rwadmin=arwd/root"]'),
    ]  # fmt: skip


def test_index_view_and_describe(env: Env) -> None:
    eng = env.engine
    eng.ddl.create_table(
        CTX, ObjectName("t3"),
        [ColumnSpec("v1", t.INT4, "integer"), ColumnSpec("v2", t.INT4, "integer"),
         ColumnSpec("v3", t.INT4, "integer")],
        definition="CREATE TABLE t3 (v1 INT, v2 INT, v3 INT)",
    )  # fmt: skip
    eng.ddl.create_index(
        CTX,
        ObjectName("idx1"),
        ObjectName("t3"),
        definition="CREATE INDEX idx1 ON t3(v1, v2)",
        key_columns=["v1", "v2"],
    )
    for _ in range(3):
        env.tick()
    (tid,) = env.conn.execute("SELECT relation_id FROM relation WHERE name = 't3'").fetchone()
    eng.ddl.create_view(
        CTX,
        ObjectName("v"),
        [ColumnSpec("v1", t.INT4, "integer")],
        sql="SELECT v1 FROM t3",
        upstream_ids=[tid],
    )
    assert show.describe(env.conn, SHOW_CTX, ["t3"])[1] == [
        ("v1", "integer", "false", None),
        ("v2", "integer", "false", None),
        ("v3", "integer", "false", None),
        ("_row_id", "serial", "true", None),
        ("_rw_timestamp", "timestamp with time zone", "true", None),
        ("primary key", "_row_id", None, None),
        ("distribution key", "_row_id", None, None),
        ("idx1", "index(v1 ASC, v2 ASC) include(v3) distributed by(v1)", None, None),
        ("table description", "t3", None, None),
    ]
    assert show.show_indexes(env.conn, SHOW_CTX, ["t3"])[1] == [
        ("idx1", "t3", "v1 ASC, v2 ASC", "v3", "v1")
    ]
    (idx,) = env.rows("rw_catalog.rw_indexes")
    assert idx[1:5] == ("idx1", tid, "[1,2]", "[3]")
    assert [(r[1], r[5]) for r in env.rows("pg_catalog.pg_class", "relnamespace = 2")] == [
        ("t3", "r"), ("idx1", "i"), ("v", "v"),
    ]  # fmt: skip
    assert show.show_objects(env.conn, SHOW_CTX, "views")[1] == [("public.v",)]
    assert show.show_create(env.conn, SHOW_CTX, "view", ["v"])[1] == [
        ("public.v", "CREATE VIEW v AS SELECT v1 FROM t3")
    ]
    assert env.rows("information_schema.columns", "table_name = 'v'")[0][3] == "v1"


def test_show_cluster(env: Env) -> None:
    cols, rows = show.show_cluster(env.conn, SHOW_CTX)
    assert [(c.name, c.type_oid) for c in cols] == [
        ("Id", t.INT4), ("Addr", t.VARCHAR), ("Type", t.VARCHAR), ("State", t.VARCHAR),
        ("Parallelism", t.INT4), ("Is Streaming", t.BOOL), ("Is Serving", t.BOOL),
        ("Started At", t.TIMESTAMPTZ),
    ]  # fmt: skip
    # a timestamptz in whole seconds (show.rs:780-782 Timestamptz::from_secs)
    started = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    assert rows == [
        (1, "127.0.0.1:4566", "WORKER_TYPE_FRONTEND", "RUNNING", None, False, False, started),
        (2, "127.0.0.1:5688", "WORKER_TYPE_COMPUTE_NODE", "RUNNING", 4, True, True, started),
    ]


def test_resource_groups(env: Env) -> None:
    env.engine.ddl.create_table(CTX, ObjectName("t"), [ColumnSpec("v1", t.INT4, "integer")],
                            definition="CREATE TABLE t (v1 INT)")  # fmt: skip
    assert [c.name for c in catalog.RELATIONS[("rw_catalog", "rw_resource_groups")].columns] == [
        "name", "streaming_workers", "parallelism", "databases", "streaming_jobs",
    ]  # fmt: skip
    assert env.rows("rw_catalog.rw_resource_groups") == [("default", 1, 4, 1, 1)]
