"""EXPLAIN, DESCRIBE FRAGMENT(S), and REFRESH / VACUUM / BACKUP / ALTER COMPACTION GROUP /
PREPARE / DEALLOCATE / the unhandled statements, over real connections
(src/frontend/src/handler/explain.rs, describe.rs, refresh.rs, vacuum.rs, backup.rs,
alter_compaction_group.rs, prepared_statement.rs, mod.rs:1686)."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

NOT_IMPLEMENTED = (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature"
    "&template=feature_request.yml"
)


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


def two(first: str, second: str) -> str:
    return (
        f"\n\nCaused by these errors (recent errors listed first):\n  1: {first}\n  2: {second}\n"
    )


async def test_describe_fragments_and_fragment(client: Client, server: Running) -> None:
    assert await client.run("create table t (id int primary key, v int)") == "CREATE_TABLE"
    mv = "create materialized view mv as select * from t"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    frags = await client.rows("select fragment_id, table_id from rw_fragments order by fragment_id")
    (f1, t_id), (f2, _), (f3, mv_id) = frags
    actors = {
        f: ",".join(
            str(a)
            for (a,) in await client.rows(
                f"select actor_id from rw_actors where fragment_id = {f} order by 1"
            )
        )
        for f, _ in frags
    }
    rows = await client.rows("describe fragments t")
    assert rows == [
        (
            f"Fragment {f1} (Actor {actors[f1]})\n"
            "StreamMaterialize { columns: [id, v], stream_key: [id], pk_columns: [id], "
            "pk_conflict: Overwrite }\n"
            "├── output: [ id, v ]\n"
            "├── stream key: [ id ]\n"
            "└── StreamUnion { all: true } { output: [ id, v ], stream key: [] }\n"
            "    ├── MergeExecutor { output: [ id, v ], stream key: [] }\n"
            "    └── StreamUpstreamSinkUnion { output: [ id, v ], stream key: [] }",
        ),
        ("",),
        (
            f"Fragment {f2} (Actor {actors[f2]})\n"
            "StreamDml { columns: [id, v] } { output: [ id, v ], stream key: [] }\n"
            "└── StreamSource { output: [ id, v ], stream key: [] }",
        ),
        ("",),
    ]
    rows = await client.rows("describe fragments mv")
    assert rows[0][0].splitlines()[0] == f"Fragment {f3} (Actor {actors[f3]})"
    assert rows[0][0].splitlines()[4:] == [
        "└── StreamTableScan { table: t, columns: [id, v] }",
        "    ├── output: [ t.id, t.v ]",
        "    ├── stream key: [ t.id ]",
        "    ├── Upstream { output: [ id, v ], stream key: [] }",
        "    └── BatchPlanNode { output: [ id, v ], stream key: [] }",
    ]
    [(text,)] = await client.rows(f"describe fragment {f1}")
    assert text.splitlines()[:7] == [
        f"Fragment {f1} (Table {t_id})",
        "Distribution Type: HASH",
        f"Parallelism: {len(actors[f1].split(','))}",
        "VNode Count: 256",
        f"State Tables: [{t_id}]",
        f"Upstream Fragments: [{f2}]",
        "Stream Plan:",
    ]
    assert mv_id != t_id
    f = await cause(client, "describe fragment 99999999")
    assert f[1] == (
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: fragment not found: 99999999\n"
    )
    for sql, text in (
        ("describe fragments pg_catalog.pg_tables", "view has no fragments to describe"),
    ):
        f = await cause(client, sql)
        assert f[1] == one(
            f"Not supported: {text}\nHINT: Use `DESCRIBE` instead of `DESCRIBE FRAGMENTS`"
        )
    f = await cause(client, "describe fragments nope")
    assert f[1] == (
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: stream job not found: nope\n"
    )


async def test_explain(client: Client) -> None:
    assert await client.run("create table t (id int primary key, v int)") == "CREATE_TABLE"
    # The scan's distribution shows under VERBOSE only (batch_seq_scan.rs:181-187).
    assert await client.rows("explain select * from t") == [
        ("BatchExchange { order: [], dist: Single }",),
        ("└─BatchScan { table: t, columns: [id, v] }",),
    ]
    assert await client.rows("explain create materialized view m as select * from t") == [
        (
            "StreamMaterialize { columns: [id, v], stream_key: [], pk_columns: [], "
            "pk_conflict: NoCheck }",
        ),
        ("└─StreamTableScan { table: t, columns: [id, v] }",),
    ]
    assert await client.rows("select count(*) from rw_materialized_views") == [(0,)]
    for sql, text in (
        (
            "explain create view v as select 1",
            "Not supported: EXPLAIN CREATE VIEW\nHINT: A created VIEW is just an alias. "
            "Instead, use EXPLAIN on the queries which reference the view.",
        ),
        (
            "explain (trace, format json) select 1",
            "Not supported: EXPLAIN (TRACE, JSON FORMAT)\n"
            "HINT: Only EXPLAIN (LOGICAL | PHYSICAL, JSON FORMAT) is supported.",
        ),
        (
            "explain analyze select 1",
            "Feature is not yet implemented: explain analyze\n"
            "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/4856",
        ),
    ):
        f = await cause(client, sql)
        assert f[1] == one(text), sql


async def test_explain_analyze_stream_job(client: Client, server: Running) -> None:
    # explain_analyze_stream_job.rs: the target is bound as bind_relation binds it; a job found
    # is then refused (rwshim has no executor statistics to sample)
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    mv = "create materialized view mv as select * from t"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    (mv_id,) = (await client.rows("select id from rw_materialized_views"))[0]
    for sql, state, text in (
        (
            "explain analyze sink nope",
            "42704",
            "Catalog error\n\nCaused by:\n  sink not found: nope",
        ),
        (
            "explain analyze index nope",
            "42704",
            "Catalog error\n\nCaused by:\n  index not found: nope",
        ),
        (
            "explain analyze materialized view nope",
            "42704",
            "Catalog error\n\nCaused by:\n  table not found: nope",
        ),
        (
            "explain analyze id 999",
            "XX000",
            "gRPC request to meta service (call `/meta.StreamManagerService/ListTableFragments`) "
            "failed: Internal error\n\nCaused by:\n  job 999 not found in database",
        ),
    ):
        f = await cause(client, sql)
        assert f[0] == state, sql
        assert f[1] == two(*text.split("\n\nCaused by:\n  ")), sql
    refusal = (
        "rwshim runs no stream executors, so it has no executor statistics to profile: "
        "EXPLAIN ANALYZE of a streaming job (output rows per second and backpressure per "
        "operator) is not emulated; DESCRIBE FRAGMENTS shows the job's fragments"
    )
    for sql in (
        "explain analyze materialized view mv",
        "explain analyze (duration_secs 1) table t",
        "explain analyze materialized view t",
        f"explain analyze id {mv_id}",
    ):
        assert await cause(client, sql) == ("XX000", one(refusal)), sql
    assert await client.rows("select name from rw_materialized_views") == [("mv",)]


async def test_maintenance_statements(client: Client, client_factory: object) -> None:
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    assert await client.run("prepare p as select 1") == "PREPARE"
    assert await client.run("deallocate p") == "DEALLOCATE"
    notices = await client.notices()
    assert [n[2] for n in notices] == [
        "`PREPARE` is not supported yet.\nFor compatibility, this statement will still succeed "
        "but no changes are actually made.",
        "`DEALLOCATE` is not supported yet.\nFor compatibility, this statement will still "
        "succeed but no changes are actually made.",
    ]
    for sql, text in (
        ("alter table t rename column v to w", "ALTER TABLE t RENAME COLUMN v TO w"),
        (
            'alter table only public.T rename "V" to x',
            'ALTER TABLE public.T RENAME COLUMN "V" TO x',
        ),
        ("alter table t rename constraint c to d", "ALTER TABLE t RENAME CONSTRAINT c TO d"),
        ("truncate t", "TRUNCATE TABLE t"),
        ("analyze t", "ANALYZE TABLE t"),
        ("execute p", "EXECUTE p"),
    ):
        f = await cause(client, sql)
        assert f[1] == one(
            f"Feature is not yet implemented: Unhandled statement: {text}\n{NOT_IMPLEMENTED}"
        ), sql
    # mod.rs:315: the table is looked up before the unhandled statement is answered
    f = await cause(client, "alter table nope rename column a to b")
    assert f == ("42704", two("Catalog error", "table not found: nope"))
    assert await client.rows(
        "select name from rw_columns where relation_id = (select id from rw_tables "
        "where name = 't') and not is_hidden"
    ) == [("v",)]
    f = await cause(client, "refresh table t")
    assert f[1] == one(
        "Invalid input syntax: Table 'public.t' is not refreshable. Only tables created with "
        "REFRESHABLE flag support manual refresh."
    )
    f = await cause(client, "vacuum t")
    assert f[1] == one(
        "Invalid input syntax: VACUUM can only be used on Iceberg engine tables or Iceberg "
        "sinks, but table 't' uses Hummock engine"
    )
    f = await cause(client, "vacuum full nope")
    assert f[1] == one("object nope not found")
    assert await client.simple("backup") == "BACKUP"
    # BACKUP's row (its snapshot id) is not described at Parse (NoData, as CANCEL JOBS):
    # read it through the simple protocol
    if client.name == "psycopg":
        assert await client.rows("backup") == [(2,)]
    f = await cause(client, "alter compaction group 2 set max_bytes_for_level_base = 1")
    assert f[1] == one(
        "rwshim has no storage layer: compaction groups and their configuration are not emulated"
    )
    # alter_streaming_enable_unaligned_join.rs: RisingWave's release builds refuse it, the
    # name not looked up; mod.rs refuses a plain view first
    for sql in (
        "alter materialized view nope set streaming_enable_unaligned_join = true",
        "alter sink nope set streaming_enable_unaligned_join to false",
    ):
        f = await cause(client, sql)
        assert f == (
            "XX000",
            one("ALTER STREAMING ENABLE UNALIGNED JOIN is only supported in debug mode"),
        ), sql
    f = await cause(client, "alter view nope set streaming_enable_unaligned_join = true")
    assert f[1] == one(
        "ALTER VIEW SET STREAMING_ENABLE_UNALIGNED_JOIN is not supported. Only supported for "
        "materialized views"
    )
    assert await client.rows("select count(*) from t") == [(0,)]
