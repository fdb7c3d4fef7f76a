"""Every difference between the RisingWave releases rwshim answers as (``--rw-version``:
v2.8.5, v3.0.3, the reference commit 448c657), each checked on every release over psycopg
against a real rwshim started with that release (the pytest plugin's server class).

One test per difference, parametrized over the releases; each expectation names the tag's
source line it comes from.  The manual clock keeps a background MV Creating until a test
steps barriers (its table is empty: one barrier finishes it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from rwshim.dashboard import model
from rwshim.testing import RwShim

RELEASES = ("2.8", "3.0", "head")
VERSION = {
    # Cargo.toml:82 and the tags' commits (common/src/lib.rs current_cluster_version)
    "2.8": "PostgreSQL 13.14.0-RisingWave-2.8.5 (02a62d6a46f911c0456e57cf6ee55c50d8150712)",
    "3.0": "PostgreSQL 13.14.0-RisingWave-3.0.3 (ec07f2eb759bd2d8a12a55b030bf581b82adb4b9)",
    "head": "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)",
}
DEFERRED_NOTICE = (
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the "
    "meta, otherwise, the alter will not take effect."
)


def meta_error(call: str, text: str) -> str:
    return (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: gRPC request to meta service (call `/ddl_service.DdlService/{call}`) failed:"
        f" Internal error\n  2: {text}\n"
    )


def blocked(job_id: int, call: str = "AlterParallelism") -> str:
    # 448c657:src/meta/src/stream/stream_manager.rs:936, v3.0.3 :813
    return meta_error(
        call,
        f"Cannot alter the job {job_id} because it is blocked by creating unreschedulable "
        "backfill jobs",
    )


def non_reschedulable(job_id: int, call: str = "AlterParallelism") -> str:
    # v2.8.5:src/meta/src/stream/stream_manager.rs:819, v3.0.3 :858
    return meta_error(
        call,
        f"Cannot alter the job {job_id} because it is a non-reschedulable background backfill job",
    )


def parse_error(sql: str, expected: str, found: str) -> str:
    # parser.rs:1765-1766 and the LINE/caret context (parser.rs:201-228)
    col = sql.index(found)
    return (
        "Failed to run the query\n\nCaused by:\n  sql parser error: expected "
        f"{expected}, found: {found}\nLINE 1: {sql}\n{' ' * (len('LINE 1: ') + col)}^\n"
    )


class Conn:
    """A psycopg connection that keeps its notices and answers errors as their full text."""

    def __init__(self, server: RwShim) -> None:
        self.conn = psycopg.connect(server.dsn, autocommit=True)
        self.notices: list[str] = []
        self.conn.add_notice_handler(lambda d: self.notices.append(d.message_primary or ""))

    def run(self, sql: str) -> list[tuple[Any, ...]]:
        cur = self.conn.execute(sql)
        return cur.fetchall() if cur.description else []

    def one(self, sql: str) -> Any:
        return self.run(sql)[0][0]

    def fail(self, sql: str) -> str:
        with pytest.raises(psycopg.Error) as info:
            self.conn.execute(sql)
        return info.value.diag.message_primary or ""

    def take_notices(self) -> list[str]:
        out, self.notices = self.notices, []
        return out

    def job(self, name: str) -> tuple[int, str, str]:
        row = self.run(
            f"select id, status, parallelism from rw_streaming_jobs where name = '{name}'"
        )
        return row[0]


@pytest.fixture(params=RELEASES)
def release(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def server(release: str) -> Iterator[RwShim]:
    s = RwShim(manual=True, rw_version=release)
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def c(server: RwShim) -> Iterator[Conn]:
    conn = Conn(server)
    try:
        yield conn
    finally:
        conn.conn.close()


def creating_mv(c: Conn, name: str = "mv") -> int:
    """A background MV on ``t`` that stays Creating until the next barrier (manual clock)."""
    c.run("set background_ddl = true")
    c.run(f"create materialized view {name} as select * from t")
    job_id, status, _ = c.job(name)
    assert status == "CREATING"
    return job_id


# ---------------------------------------------------------------------------- identity


def test_version_and_cluster_version_columns(c: Conn, release: str) -> None:
    assert c.one("select version()") == VERSION[release]
    c.run("create table t (a int)")
    versions = c.run(
        "select created_at_cluster_version, initialized_at_cluster_version from rw_tables"
    )
    assert versions == [(VERSION[release], VERSION[release])]


# ---------------------------------------------------------------------------- reschedule


def test_set_parallelism_on_a_creating_background_mv(c: Conn, release: str) -> None:
    """Error 1 (head, 3.0: the MV and its upstream table) vs v2.8's text on the MV only."""
    c.run("create table t (a int)")
    t_id = c.job("t")[0]
    mv_id = creating_mv(c)
    if release == "2.8":
        assert c.fail("alter materialized view mv set parallelism = 2") == non_reschedulable(mv_id)
        # Only the job itself is checked (v2.8.5:metadata.rs:714-735); the upstream's
        # reschedule command meets the barrier worker, which refuses every reschedule while a
        # snapshot backfill is creating (v2.8.5:barrier/checkpoint/control.rs:1121-1134).
        assert c.fail("alter table t set parallelism = 2") == meta_error(
            "AlterParallelism",
            "cannot reschedule when creating streaming job with snapshot backfill",
        )
    else:
        assert c.fail("alter materialized view mv set parallelism = 2") == blocked(mv_id)
        assert c.fail("alter table t set parallelism = 2") == blocked(t_id)
    # DEFERRED: a snapshot backfill is reschedulable offline in every release
    c.run("alter materialized view mv set parallelism = 3 deferred")
    assert c.take_notices() == [DEFERRED_NOTICE]


def test_foreground_creating_job_and_set_parallelism(server: RwShim, release: str) -> None:
    """head lists foreground creating jobs (error 1 at once); the releases' ALTER waits for the
    foreground create (its reschedule read lock), then succeeds, with the SuggestRecover
    NOTICE once slow_ddl_notification_secs passed (v3.0.3:handler/util.rs:394-400)."""
    a, b = Conn(server), Conn(server)
    a.run("create table t (a int)")
    t_id = a.job("t")[0]
    done: dict[str, Any] = {}

    def in_thread(key: str, fn: Callable[[], Any]) -> threading.Thread:
        def run() -> None:
            try:
                done[key] = fn()
            except psycopg.Error as e:
                done[key] = e.diag.message_primary

        th = threading.Thread(target=run)
        th.start()
        return th

    create = in_thread("create", lambda: a.run("create materialized view fmv as select * from t"))
    for _ in range(500):  # until the foreground job holds its permit (bounded)
        if server.call(lambda: bool(server.instance.engine.waits.permit_holders)):
            break
        time.sleep(0.01)
    if release == "head":
        assert b.fail("alter table t set parallelism = 2") == blocked(t_id)
        server.tick(2)
        create.join(10)
        return
    b.run("set slow_ddl_notification_secs = 1")
    alter = in_thread("alter", lambda: b.run("alter table t set parallelism = 2"))
    for _ in range(500):  # until the ALTER waits for the lock (bounded)
        if server.call(lambda: bool(server.instance.engine.waits.lock_waiters)):
            break
        time.sleep(0.01)
    assert "alter" not in done
    time.sleep(2)  # past slow_ddl_notification_secs: the NOTICE is due
    server.tick(2)
    create.join(10)
    alter.join(10)
    assert done == {"create": [], "alter": []}
    assert b.take_notices() == [
        "ALTER PARALLELISM has taken more than 1 secs, likely due to high barrier latency.\n"
        "You may trigger cluster recovery to let ALTER PARALLELISM take effect immediately.\n"
        "Run RECOVER in a separate session to trigger recovery.\n"
        "See: https://docs.risingwave.com/sql/commands/sql-recover#recover"
    ]
    expected = "FIXED(2)" if release == "2.8" else "2"
    assert a.job("t") == (t_id, "CREATED", expected)


def test_backfill_parallelism_on_a_creating_background_mv(c: Conn, release: str) -> None:
    c.run("create table t (a int)")
    mv_id = creating_mv(c)
    sql = "alter materialized view mv set backfill_parallelism = 2"
    if release == "2.8":
        # v2.8.5:src/sqlparser/src/parser.rs:3547
        assert c.fail(sql) == parse_error(
            sql, "SCHEMA/PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET", "backfill_parallelism"
        )
        return
    call = "AlterBackfillParallelism"
    if release == "3.0":
        # background jobs only, checked with is_online = !deferred (v3.0.3:
        # stream_manager.rs:837-870): a snapshot backfill is reschedulable offline
        assert c.fail(sql) == non_reschedulable(mv_id, call)
        assert c.run(sql + " deferred") == []
        assert c.take_notices() == [DEFERRED_NOTICE]
    else:
        # error 2, online only (448c657:stream_manager.rs:960-985)
        assert c.fail(sql) == meta_error(
            call,
            f"Cannot alter the job {mv_id} because its creating backfill contains a scan type "
            "that does not support online rescheduling",
        )
        assert c.run(sql + " deferred") == []
        assert c.take_notices() == [DEFERRED_NOTICE]


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        # v2.8.5:src/sqlparser/src/parser.rs:3290, :3456, :3646, :3758
        ("table", "SCHEMA/PARALLELISM/SOURCE_RATE_LIMIT/DML_RATE_LIMIT/CONFIG after SET"),
        ("index", "PARALLELISM or CONFIG after SET"),
        (
            "sink",
            "SCHEMA/PARALLELISM/SINK_RATE_LIMIT/BACKFILL_RATE_LIMIT/"
            "STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG after SET",
        ),
        ("source", "SCHEMA, SOURCE_RATE_LIMIT, PARALLELISM or CONFIG after SET"),
    ],
)
def test_backfill_parallelism_parses_from_3_0(
    c: Conn, release: str, kind: str, expected: str
) -> None:
    sql = f"alter {kind} x set backfill_parallelism to 2"
    if release == "2.8":
        assert c.fail(sql) == parse_error(sql, expected, "backfill_parallelism")
    else:
        # it parses: the name is then looked up
        assert "not found: x" in c.fail(sql)


def test_legacy_backfill_when_arrangement_backfill_is_off(c: Conn, release: str) -> None:
    """streaming_use_arrangement_backfill = false: the legacy Backfill scan, never
    reschedulable, in the releases (v3.0.3 optimizer/mod.rs:1194-1203); ignored at head with
    its deprecation NOTICE (448c657 session_config/mod.rs:243-249)."""
    c.run("create table t (a int)")
    c.run("set streaming_use_arrangement_backfill = false")
    if release == "head":
        assert c.take_notices() == [
            "The session variable STREAMING_USE_ARRANGEMENT_BACKFILL has been deprecated and is "
            "ignored. Arrangement backfill is always used as the fallback backfill type for new "
            "streaming jobs."
        ]
    c.run("set streaming_use_snapshot_backfill = false")
    mv_id = creating_mv(c, "lm")
    sql = "alter materialized view lm set parallelism = 2 deferred"
    if release == "head":
        assert c.run(sql) == []
    elif release == "3.0":
        assert c.fail(sql) == blocked(mv_id)
    else:
        assert c.fail(sql) == non_reschedulable(mv_id)


def test_alter_sink_on_a_creating_sink(c: Conn, release: str) -> None:
    """head finds a sink still being created (alter_utils.rs:96); the releases only created
    ones (v3.0.3 and v2.8.5 alter_utils.rs:110)."""
    c.run("create table t (a int)")
    c.run("set background_ddl = true")
    c.run("create sink sk as select * from t with (connector = 'blackhole')")
    sk_id, status, _ = c.job("sk")
    assert status == "CREATING"
    if release == "head":
        assert c.fail("alter sink sk set parallelism = 2") == blocked(sk_id)
    else:
        assert c.fail("alter sink sk set parallelism = 2") == (
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            "  1: Catalog error\n  2: sink not found: sk\n"
        )


# ---------------------------------------------------------------------------- parallelism


def test_parallelism_renderings(c: Conn, server: RwShim, release: str) -> None:
    """Default job parallelism (bounded(64)/bounded(4) from 3.0, adaptive in 2.8) and how the
    catalogs print it (v2.8.5 system_catalog/mod.rs:214-227 upper-cased; fragment.rs:1405)."""
    c.run("create table t (a int)")
    creating_mv(c)
    server.tick()
    c.run("alter materialized view mv set parallelism = 4")
    jobs = c.run("select name, parallelism from rw_streaming_jobs order by id")
    frags = c.run("select table_id, parallelism from rw_table_fragments order by table_id")
    policy = c.run(
        "select distinct f.parallelism_policy from rw_fragments f join rw_materialized_views m"
        " on f.table_id = m.id"
    )
    # the dashboard's fragments say the catalog's policy (rwshim/dashboard/model.py)
    mv_id = c.job("mv")[0]
    shown = server.call(lambda: model.job(server.instance, mv_id))
    drawn = {f["parallelism_policy"] for f in shown["fragments"] if not f["external"]}
    if release == "2.8":
        assert jobs == [("t", "ADAPTIVE"), ("mv", "FIXED(4)")]
        assert [p for _, p in frags] == ["ADAPTIVE", "FIXED(4)"]
        assert policy == [("inherit(fixed(4))",)]
        assert drawn == {"inherit(fixed(4))"}
    else:
        assert jobs == [("t", "bounded(4)"), ("mv", "4")]
        assert [p for _, p in frags] == ["bounded(4)", "4"]
        assert policy == [("inherit(4)",)]
        assert drawn == {"inherit(4)"}


def test_alter_parallelism_values(c: Conn, release: str) -> None:
    c.run("create table t (a int)")
    sql = "alter table t set parallelism = 'bounded(2)'"
    if release == "2.8":
        # v2.8.5 alter_parallelism.rs:116-121
        assert c.fail(sql) == (
            "Failed to run the query\n\nCaused by:\n  Invalid input syntax: target parallelism "
            "must be a valid number or adaptive\n"
        )
    else:
        assert c.run(sql) == []
        assert c.job("t")[2] == "bounded(2)"


def test_batch_refresh_only_at_head(c: Conn, release: str) -> None:
    c.run("create table t (a int)")
    sql = "create materialized view r with (refresh.interval.sec = 5) as select * from t"
    if release == "head":
        c.run("set background_ddl = true")
        assert c.run(sql) == []
    else:
        # v3.0.3 create_mv.rs:412-417, v2.8.5 create_mv.rs:330
        assert c.fail(sql) == (
            "Failed to run the query\n\nCaused by:\n  Protocol error: unexpected options in "
            'WITH clause: ["refresh.interval.sec"]\n'
        )


def test_variant_only_at_head(c: Conn, release: str) -> None:
    if release == "head":
        assert c.run("create table vt (v variant, s struct<v variant>)") == []
        assert c.run("""select '{"b":1,"a":2}'::variant, variant_typeof(to_variant(1))""") == [
            ('{"a":2,"b":1}', "int32")
        ]
        return
    # v3.0.3 / v2.8.5 bind ``variant`` as an unknown type name (binder/expr/mod.rs:1067)
    assert c.fail("create table vt (s struct<v variant>)") == (
        "Failed to run the query\n\nCaused by:\n  Feature is not yet implemented: unsupported"
        " data type: variant\nNo tracking issue yet. Feel free to submit a feature request at "
        "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&"
        "template=feature_request.yml\n"
    )
    # nor has it the functions, in a query or a materialized view
    c.run("create table w (a int)")
    for sql in (
        "select to_variant(a) from w",
        "create materialized view wm as select to_variant(a) from w",
    ):
        assert c.fail(sql) == (
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            "  1: Failed to bind expression: to_variant(a)\n"
            "  2: function to_variant(integer) does not exist\n"
        ), sql


# ---------------------------------------------------------------------------- variables


def test_session_variables(c: Conn, release: str) -> None:
    """The generated tables of each tag (session_config/mod.rs): count, defaults, the
    variables added and removed, ConfigParallelism's values."""
    counts = {"2.8": 82, "3.0": 81, "head": 85}
    assert len(c.run("show all")) == counts[release]
    locality = "true" if release == "head" else "false"  # 448c657 mod.rs:509
    datafusion = "false" if release == "2.8" else "true"
    assert c.one("show enable_locality_backfill") == locality
    assert c.one("show enable_datafusion_engine") == datafusion
    prefix = "Failed to get or set" if release == "head" else "Failed to get/set"
    unknown = (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: {prefix} session config\n  2: Unrecognized config entry `{{}}`\n"
    )
    if release == "2.8":
        assert c.run("set streaming_parallelism_strategy = 'bounded(2)'") == []
        assert c.one("show streaming_parallelism_strategy") == "BOUNDED(2)"
        assert c.fail("set enable_mv_selection = true") == unknown.format("enable_mv_selection")
        assert c.fail("set streaming_parallelism = 'bounded(2)'") == (
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            "  1: Failed to get/set session config\n"
            "  2: Invalid value `bounded(2)` for `streaming_parallelism`\n"
            "  3: invalid digit found in string\n"
        )
    else:
        assert c.fail("set streaming_parallelism_strategy = 'auto'") == unknown.format(
            "streaming_parallelism_strategy"
        )
        assert c.run("set enable_mv_selection = true") == []
        assert c.run("set streaming_parallelism = 'bounded(2)'") == []
    if release == "head":
        assert c.one("show locality_backfill_mode") == "auto"
    else:
        assert c.fail("show locality_backfill_mode") == unknown.format("locality_backfill_mode")


def test_system_parameters(c: Conn, release: str) -> None:
    rows = {r[0]: r for r in c.run("show parameters")}
    if release == "2.8":
        assert len(rows) == 19
        # v2.8.5:src/common/src/system_param/mod.rs:97
        assert rows["adaptive_parallelism_strategy"] == (
            "adaptive_parallelism_strategy",
            "AUTO",
            "The strategy for Adaptive Parallelism.",
            True,
        )
        assert c.run("alter system set adaptive_parallelism_strategy to 'bounded(4)'") == []
        assert {r[0]: r[1] for r in c.run("show parameters")}[
            "adaptive_parallelism_strategy"
        ] == "BOUNDED(4)"
    else:
        assert len(rows) == 18
        assert "adaptive_parallelism_strategy" not in rows
    bloom = (
        "DEPRECATED: Bloom filter is no longer a supported SST filter implementation. This field "
        "is kept for backward compatibility and no longer controls whether SST filters are "
        "emitted."
        if release == "head"
        else "False positive probability of bloom filter."
    )
    assert rows["bloom_false_positive"][2] == bloom


# ---------------------------------------------------------------------------- catalogs


def test_catalog_columns(c: Conn, release: str) -> None:
    cur = c.conn.execute("select * from rw_materialized_views")
    names = [d.name for d in cur.description or []]
    if release == "2.8":
        assert names[:4] == ["id", "name", "schema_id", "owner"]
        assert c.fail("select * from rw_kafka_job_lag") == (
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            "  1: Catalog error\n  2: table or source not found: rw_kafka_job_lag\n"
        )
    else:
        assert names[:4] == ["id", "name", "schema_id", "schema_name"]
        assert c.run("select * from rw_kafka_job_lag") == []


# ---------------------------------------------------------------------------- wording


def test_error_wording(c: Conn, release: str) -> None:
    """The texts 07d2ebb3db9 reworded at head; the releases keep the old ones
    (v3.0.3:src/frontend/src/catalog/mod.rs:118-121)."""
    c.run("create table t (a int)")
    text = "table named t already exists" if release == "head" else "table with name t exists"
    assert c.fail("create table t (a int)") == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: Catalog error\n  2: {text}\n"
    )


def test_backfill_parallelism_above_the_maximum_on_create(c: Conn, release: str) -> None:
    """head and 3.0 check the backfill parallelism on its own (v3.0.3:rpc/ddl_controller.rs:
    375); v2.8 checks the initial parallelism with the plain text (v2.8.5 ddl_controller.rs:
    1801-1802, :1648-1653), and words the frontend's envelope the old way."""
    c.run("create table t (a int)")
    c.run("set streaming_max_parallelism = 4")
    c.run("set streaming_parallelism_for_backfill = 6")
    c.run("set background_ddl = true")
    what = "parallelism" if release == "2.8" else "backfill parallelism"
    prefix = "Invalid parameter value" if release == "head" else "Invalid Parameter Value"
    assert c.fail("create materialized view mv as select * from t") == (
        f"Failed to run the query\n\nCaused by:\n  {prefix}: Invalid parameter: specified "
        f"{what} 6 should not exceed max parallelism 4\n"
    )


def test_alter_config_on_a_creating_mv(c: Conn, release: str) -> None:
    """head finds a job still being created (alter_utils.rs:72); the releases look among the
    created ones (v3.0.3 / v2.8.5 alter_utils.rs: include_creating_table = false)."""
    c.run("create table t (a int)")
    creating_mv(c)
    sql = "alter materialized view mv set config (streaming.developer.chunk_size = 512)"
    if release == "head":
        assert c.run(sql) == []
    else:
        assert c.fail(sql) == (
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            "  1: Catalog error\n  2: table not found: mv\n"
        )


def test_alter_subscription_retention_parses_from_3_0(c: Conn, release: str) -> None:
    c.run("create table t (a int)")
    c.run("create subscription sub from t with (retention = '1h')")
    sql = "alter subscription sub set retention = '2h'"
    if release == "2.8":
        # v2.8.5:src/sqlparser/src/parser.rs:3696
        assert c.fail(sql) == parse_error(sql, "SCHEMA after SET", "retention")
    else:
        assert c.run(sql) == []


_SINK_SET = (
    "SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP/"
    "SINK_RATE_LIMIT/BACKFILL_RATE_LIMIT/STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG after SET"
)


@pytest.mark.parametrize(
    ("sql", "found", "head", "v2_8"),
    [
        # v2.8.5:src/sqlparser/src/parser.rs:3441, :3514, :3627 (TABLE's text); v3.0.3 :3503,
        # :3613, :3745 as head
        (
            "alter index i set parallelism 2",
            "2",
            "TO or = after ALTER INDEX SET PARALLELISM",
            "TO or = after ALTER TABLE SET PARALLELISM",
        ),
        (
            "alter materialized view m set parallelism 2",
            "2",
            "TO or = after ALTER MATERIALIZED VIEW SET PARALLELISM",
            "TO or = after ALTER TABLE SET PARALLELISM",
        ),
        (
            "alter sink s set parallelism 2",
            "2",
            "TO or = after ALTER SINK SET PARALLELISM",
            "TO or = after ALTER TABLE SET PARALLELISM",
        ),
        # v2.8.5 parser.rs:3463, :3654; v3.0.3 :3562, :3806; MV the same everywhere (:3561)
        (
            "alter index i reset foo",
            "foo",
            "RESOURCE_GROUP or CONFIG after RESET",
            "CONFIG after RESET",
        ),
        (
            "alter sink s reset foo",
            "foo",
            "RESOURCE_GROUP or CONFIG after RESET",
            "CONFIG after RESET",
        ),
        (
            "alter materialized view m reset foo",
            "foo",
            "RESOURCE_GROUP or CONFIG after RESET",
            "RESOURCE_GROUP or CONFIG after RESET",
        ),
        # an unknown word after SET: v2.8.5 parser.rs:3456, :3646
        (
            "alter index i set foo",
            "foo",
            "PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP or CONFIG after SET",
            "PARALLELISM or CONFIG after SET",
        ),
        (
            "alter sink s set foo",
            "foo",
            _SINK_SET,
            "SCHEMA/PARALLELISM/SINK_RATE_LIMIT/BACKFILL_RATE_LIMIT/"
            "STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG after SET",
        ),
        # v2.8.5 parser.rs:3182; v3.0.3 :3213
        (
            "alter database d foo",
            "foo",
            "RENAME, OWNER TO, SET, OR RESET after ALTER DATABASE",
            "RENAME, OWNER TO, OR SET after ALTER DATABASE",
        ),
    ],
)
def test_alter_parse_errors(
    c: Conn, release: str, sql: str, found: str, head: str, v2_8: str
) -> None:
    expected = v2_8 if release == "2.8" else head
    assert c.fail(sql) == parse_error(sql, expected, found)


_ALTER_KINDS = "DATABASE, FRAGMENT, SCHEMA, TABLE, INDEX, MATERIALIZED, VIEW, SINK, SUBSCRIPTION, "


@pytest.mark.parametrize(
    ("sql", "found", "head", "releases"),
    [
        # 448c657 parser.rs:3470-3501 one text; v3.0.3 :3429, :3451, :3474, :3702 (v2.8.5
        # :3367, :3389, :3412, :3584) by kind
        (
            "alter materialized view m set backfill_rate_limit 5",
            "5",
            "TO or = after rate limit",
            "TO or = after ALTER TABLE SET BACKFILL_RATE_LIMIT",
        ),
        (
            "alter table t set dml_rate_limit 5",
            "5",
            "TO or = after rate limit",
            "TO or = after ALTER TABLE SET DML_RATE_LIMIT",
        ),
        (
            "alter table t set source_rate_limit 5",
            "5",
            "TO or = after rate limit",
            "TO or = after ALTER TABLE SET SOURCE_RATE_LIMIT",
        ),
        (
            "alter source s set source_rate_limit 5",
            "5",
            "TO or = after rate limit",
            "TO or = after ALTER SOURCE SET SOURCE_RATE_LIMIT",
        ),
        (
            "alter sink s set sink_rate_limit 5",
            "5",
            "TO or = after rate limit",
            "TO or = after ALTER SINK SET SINK_RATE_LIMIT",
        ),
        # v3.0.3 parser.rs:4100, :4103 (v2.8.5 :3924, :3927)
        (
            "alter fragment 1 set foo",
            "foo",
            "expected rate limit after SET",
            "expected RATE_LIMIT after SET",
        ),
        (
            "alter fragment 1 set rate_limit 5",
            "5",
            "TO or = after rate limit",
            "TO or = after RATE_LIMIT",
        ),
        # no ALTER COMPACTION before 448c657 (v3.0.3 :3160, v2.8.5 :3159)
        (
            "alter foo",
            "foo",
            "COMPACTION, " + _ALTER_KINDS + "SOURCE, FUNCTION, USER, SECRET or SYSTEM after ALTER",
            _ALTER_KINDS + "SOURCE, FUNCTION, USER, SECRET or SYSTEM after ALTER",
        ),
    ],
)
def test_rate_limit_parse_errors(
    c: Conn, release: str, sql: str, found: str, head: str, releases: str
) -> None:
    expected = head if release == "head" else releases
    assert c.fail(sql) == parse_error(sql, expected, found)


@pytest.mark.parametrize(
    ("kind", "name", "found", "v2_8", "missing"),
    [
        # v2.8.5 parser.rs:3463, :3654 (RESET CONFIG only), :3182 (no RESET)
        ("index", "i", "resource_group", "CONFIG after RESET", "table not found: i"),
        ("sink", "s", "resource_group", "CONFIG after RESET", "sink not found: s"),
        (
            "database",
            "d",
            "reset",
            "RENAME, OWNER TO, OR SET after ALTER DATABASE",
            "database not found: d",
        ),
    ],
)
def test_reset_resource_group_parses_from_3_0(
    c: Conn, release: str, kind: str, name: str, found: str, v2_8: str, missing: str
) -> None:
    # DATABASE's takes DEFERRED (v3.0.3 parser.rs:3200-3203)
    sql = f"alter {kind} {name} reset resource_group" + (" deferred" if kind == "database" else "")
    if release == "2.8":
        assert c.fail(sql) == parse_error(sql, v2_8, found)
    else:
        # it parses: the name is then looked up
        assert c.fail(sql) == (
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            f"  1: Catalog error\n  2: {missing}\n"
        )


def test_alter_compaction_group_parses_at_head_only(c: Conn, release: str) -> None:
    # 448c657 parser.rs:3209-3212; v3.0.3 :3160, v2.8.5 :3159 have no COMPACTION after ALTER
    sql = "alter compaction group 2 set max_bytes_for_level_base = 1"
    if release == "head":
        assert c.fail(sql) == (
            "Failed to run the query\n\nCaused by:\n  rwshim has no storage layer: compaction"
            " groups and their configuration are not emulated\n"
        )
    else:
        assert c.fail(sql) == parse_error(
            sql, _ALTER_KINDS + "SOURCE, FUNCTION, USER, SECRET or SYSTEM after ALTER", "compaction"
        )


def test_alter_database_set_resource_group_parses_from_3_0(c: Conn, release: str) -> None:
    # v3.0.3 parser.rs:3179-3190; v2.8.5 reads a config parameter (:3061-3068) and stops at
    # DEFERRED (:282)
    sql = "alter database d set resource_group = 'rg' deferred"
    if release == "2.8":
        assert c.fail(sql) == parse_error(sql, "end of statement", "deferred")
    else:
        assert c.fail(sql) == (
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            "  1: Catalog error\n  2: database not found: d\n"
        )


def test_serverless_backfill_refusal(c: Conn, release: str) -> None:
    # 448c657: meta refuses it (ddl_controller.rs:389-404, :1130), an invalid parameter; the
    # releases' frontend refuses it as invalid input (v3.0.3 create_mv.rs:273-277, v2.8.5
    # create_mv.rs:341-345)
    c.run("create table t (a int)")
    text = (
        "Serverless Backfill is disabled. Use RisingWave cloud at "
        "https://cloud.risingwave.com/auth/signup to try this feature"
    )
    kind = (
        "Invalid parameter value: Invalid parameter"
        if release == "head"
        else ("Invalid input syntax")
    )
    sql = (
        "create materialized view m with (cloud.serverless_backfill_enabled = true)"
        " as select * from t"
    )
    assert c.fail(sql) == f"Failed to run the query\n\nCaused by:\n  {kind}: {text}\n"
