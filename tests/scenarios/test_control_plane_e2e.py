"""Control-plane answers that RisingWave's e2e files (e2e_test/ddl, background_ddl, backfill)
check, as a user reads them over a real connection: rw_rate_limit's rows per rate-limited node,
the refusals of backfill orders, of internal tables as a dependency and of serverless backfill.
"""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, job, run_ticking, table_with_rows


async def test_rw_rate_limit_rows_per_node(client: Client, server: Running) -> None:
    """A background sink has its Sink and its StreamScan in one fragment: rw_rate_limit has a
    row for each node whose limit is set, the root's first (list_rate_limits,
    controller/streaming_job.rs:3755-3800; e2e_test/background_ddl/sink.slt:42-51)."""
    await table_with_rows(client, rows=1000)
    for sql in ("set backfill_rate_limit = 1", "set sink_rate_limit = 1"):
        assert await client.run(sql) == "SET_VARIABLE"
    assert await client.run("set background_ddl = true") == "SET_VARIABLE"
    assert (
        await client.run("create sink s as select * from t with (connector = 'blackhole')")
        == "CREATE_SINK"
    )
    sink_id, status, _ = await job(client, "s")
    assert status == "CREATING"
    assert await client.run("alter sink s set sink_rate_limit to 9999") == "ALTER_SINK"
    assert await client.run("alter sink s set backfill_rate_limit to 8888") == "ALTER_SINK"
    # A sink backfills from a snapshot by default (streaming_use_snapshot_backfill).
    FLAGS = "SINK,STREAM_SCAN,SNAPSHOT_BACKFILL_STREAM_SCAN"
    rows = await client.rows(
        "select array_to_string(fragment_type, ','), node_name, table_id, rate_limit"
        " from rw_rate_limit"
    )
    assert rows == [
        (FLAGS, "SINK", sink_id, 9999),
        (FLAGS, "STREAM_SCAN", sink_id, 8888),
    ]
    # DEFAULT removes a limit: its row goes.
    assert await client.run("alter sink s set sink_rate_limit to default") == "ALTER_SINK"
    assert await client.rows("select node_name, rate_limit from rw_rate_limit") == [
        ("STREAM_SCAN", 8888)
    ]


async def test_rw_rate_limit_no_row_for_dml_or_unset(client: Client, server: Running) -> None:
    """A DML limit is on a Dml node, which list_rate_limits does not visit; limits never set
    give no row (an unset Option<u32>)."""
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    assert await client.run("alter table t set dml_rate_limit = 5") == "ALTER_TABLE"
    assert await client.rows("select count(*) from rw_rate_limit") == [(0,)]
    assert await client.run("set backfill_rate_limit = 7") == "SET_VARIABLE"
    assert await client.run("set background_ddl = true") == "SET_VARIABLE"
    assert await client.run("create materialized view m as select * from t") == (
        "CREATE_MATERIALIZED_VIEW"
    )
    m_id, _, _ = await job(client, "m")
    assert await client.rows("select node_name, table_id, rate_limit from rw_rate_limit") == [
        ("STREAM_SCAN", m_id, 7)
    ]


JOIN3 = (
    "select count(*) from car_sales join car_info on car_sales.car_id = car_info.id"
    " join car_regions on car_sales.region_id = car_regions.id"
)


async def cars(client: Client) -> None:
    for sql in (
        "create table car_sales(id int, car_id int, region_id int, price int)",
        "create table car_info(id int, name varchar)",
        "create table car_regions(id int, region varchar)",
        "create table t(a int)",
    ):
        assert await client.run(sql) == "CREATE_TABLE"


async def test_fixed_backfill_order_refusals(client: Client, server: Running) -> None:
    """plan_fixed_strategy (backfill_order_strategy.rs:301-344): a relation the plan does not
    scan, then a cycle, each refused before anything is created; the names bind as
    bind_backfill_relation_id_by_name does (:394-446)."""
    await cars(client)
    mv = "create materialized view m with (backfill_order = FIXED({})) as " + JOIN3
    for order, text in (
        ("car_sales -> car_sales", "\n\nCaused by:\n  Backfill order strategy has a cycle\n"),
        (
            "car_sales -> car_regions, car_info -> car_sales, car_regions -> car_sales",
            "\n\nCaused by:\n  Backfill order strategy has a cycle\n",
        ),
        (
            "car_regions -> car_sales, t -> car_sales",
            "\n\nCaused by:\n  Table or source 't' specified in backfill_order is not used in "
            "the query\n",
        ),
        (
            "car_sales -> nope",
            "\n\nCaused by these errors (recent errors listed first):\n  1: Catalog error\n"
            "  2: table not found: nope\n",
        ),
        (
            "car_sales -> public.nope",
            "\n\nCaused by these errors (recent errors listed first):\n  1: Catalog error\n"
            "  2: table or source not found: nope\n",
        ),
    ):
        f = await client.fail(mv.format(order))
        code = "42704" if "Catalog" in text else "XX000"
        assert (f.sqlstate, f.message) == (code, client.envelope + text), order
    assert await client.rows("select count(*) from rw_materialized_views") == [(0,)]
    # A sink's order is checked the same way (create_sink.rs:766).
    f = await client.fail(
        f"create sink s as {JOIN3} with (connector = 'blackhole', "
        'backfill_order = FIXED(car_sales -> "T"))'
    )
    assert f.message == (
        client.envelope + "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table not found: T\n"
    )
    sql = mv.format("car_regions -> car_sales")
    assert await run_ticking(client, server, sql) == "CREATE_MATERIALIZED_VIEW"


async def test_cast_in_a_function_argument_binds(client: Client, server: Running) -> None:
    """round(x::numeric, 1) in a materialized view (e2e_test/backfill/backfill_order_control):
    the analysis printed the cast's expression with a bare type name, which failed as
    `the query could not be translated (AttributeError)`."""
    await cars(client)
    sql = (
        "create materialized view m as select round(log10(1 + price)::numeric, 1) as r"
        " from car_sales"
    )
    assert await run_ticking(client, server, sql) == "CREATE_MATERIALIZED_VIEW"
    assert await client.run("insert into car_sales values (1, 1, 1, 1)") == "INSERT 0 1"
    assert await client.run("flush") == "FLUSH"
    assert await client.rows("select r::varchar from m") == [("0.3",)]


SERVERLESS = (
    "\n\nCaused by:\n  Invalid parameter value: Invalid parameter: Serverless Backfill is "
    "disabled. Use RisingWave cloud at https://cloud.risingwave.com/auth/signup to try this "
    "feature\n"
)


async def test_serverless_backfill_refused(client: Client, server: Running) -> None:
    """A job asking for serverless backfill (its WITH option, else the session's
    enable_serverless_backfill) is refused by meta, which has no serverless backfill
    controller (ddl_controller.rs:389-404); nothing is created
    (e2e_test/ddl/serverless_backfill.slt)."""
    assert await client.run("create table t(id int, name varchar)") == "CREATE_TABLE"
    for sql in (
        "create materialized view m with (cloud.serverless_backfill_enabled = true)"
        " as select * from t",
        "create sink s as select * from t with (connector = 'blackhole',"
        " cloud.serverless_backfill_enabled = true)",
        "create index i on t(id) with (cloud.serverless_backfill_enabled = true)",
    ):
        f = await client.fail(sql)
        assert (f.sqlstate, f.message) == ("XX000", client.envelope + SERVERLESS), sql
    assert await client.run("set enable_serverless_backfill = true") == "SET_VARIABLE"
    f = await client.fail("create materialized view m as select * from t")
    assert f.message == client.envelope + SERVERLESS
    f = await client.fail(
        "create materialized view m with (resource_group = 'g',"
        " cloud.serverless_backfill_enabled = true) as select * from t"
    )
    assert f.message == client.envelope + (
        "\n\nCaused by:\n  Invalid input syntax: Please do not specify serverless backfilling"
        " and resource group together\n"
    )
    # The option's text parses as Rust's bool: anything but `true` is false.
    sql = "create index i on t(id) with (cloud.serverless_backfill_enabled = 'TRUE')"
    assert await run_ticking(client, server, sql) == "CREATE_INDEX"
    assert await client.rows("select name from rw_relations where name in ('m', 's', 'i')") == [
        ("i",)
    ]
    # With nothing left that depends on it, the table drops without CASCADE.
    assert await client.run("drop index i") == "DROP_INDEX"
    assert await client.run("drop table t") == "DROP_TABLE"


EXCHANGE = "BatchExchange { order: [], dist: Single }"


async def explain(client: Client, sql: str) -> list[str]:
    return [str(r[0]) for r in await client.rows("explain " + sql)]


async def test_explain_point_query_picks_index_once_created(
    client: Client, server: Running
) -> None:
    """A point query's batch plan: an index is scanned once it is created, with the predicate
    as its scan range (index_selection_rule.rs, batch_seq_scan.rs:159-190); while the index
    backfills, the relation is scanned under a filter (background_ddl/index.slt:48-80)."""
    await table_with_rows(client, rows=100)
    sql = "create materialized view m as select a as v1, a as v2 from t"
    assert await run_ticking(client, server, sql) == "CREATE_MATERIALIZED_VIEW"
    filtered = [
        EXCHANGE,
        "└─BatchFilter { predicate: (m.v1 = 10000:Int32) }",
        "  └─BatchScan { table: m, columns: [v1, v2] }",
    ]
    assert await explain(client, "select * from m where v1 = 10000") == filtered
    for sql in ("set background_ddl = true", "set backfill_rate_limit = 1"):
        assert await client.run(sql) == "SET_VARIABLE"
    assert await client.run("create index idx1 on m(v1)") == "CREATE_INDEX"
    assert (await job(client, "idx1"))[1] == "CREATING"
    assert await explain(client, "select * from m where v1 = 10000") == filtered
    assert await run_ticking(client, server, "wait") == "WAIT"
    assert await explain(client, "select * from m where v1 = 10000") == [
        EXCHANGE,
        "└─BatchScan { table: idx1, columns: [v1, v2], scan_ranges: [v1 = Int32(10000)] }",
    ]
    # What the range does not take stays a filter above the index scan.
    assert await explain(client, "select v1, v2 from m where v1 = 1 and v2 = 2") == [
        EXCHANGE,
        "└─BatchFilter { predicate: (m.v2 = 2:Int32) }",
        "  └─BatchScan { table: idx1, columns: [v1, v2], scan_ranges: [v1 = Int32(1)] }",
    ]


async def test_explain_point_query_on_primary_key(client: Client, server: Running) -> None:
    """Equalities on a prefix of the primary key are the table scan's own range, the literal
    typed as the column (a bigint key: Int64)."""
    assert await client.run("create table p (id bigint primary key, v int)") == "CREATE_TABLE"
    assert await explain(client, "select * from p where id = 5") == [
        EXCHANGE,
        "└─BatchScan { table: p, columns: [id, v], scan_ranges: [id = Int64(5)] }",
    ]
    assert await explain(client, "select * from p where v = 5") == [
        EXCHANGE,
        "└─BatchFilter { predicate: (p.v = 5:Int32) }",
        "  └─BatchScan { table: p, columns: [id, v] }",
    ]


async def test_index_distributed_by_is_a_key_prefix(client: Client, server: Running) -> None:
    """DISTRIBUTED BY must be a prefix of the index's key columns, duplicates dropped
    (create_index.rs:304-349; e2e_test/ddl/index.slt:53-68)."""
    assert await client.run("create table t1 (v1 int, v2 int)") == "CREATE_TABLE"
    for sql in (
        "create index idx1 on t1(v1) include(v2) distributed by(v1)",
        "create index idx4 on t1(v1, v2) distributed by(v1, v2)",
        "create index idx5 on t1(v1, v2) distributed by(V1, v1)",
    ):
        assert await run_ticking(client, server, sql) == "CREATE_INDEX"
    for sql in (
        "create index idx2 on t1(v1) include(v2) distributed by(v2)",
        "create index idx3 on t1(v1) include(v2) distributed by(v1, v2)",
    ):
        f = await client.fail(sql)
        assert (f.sqlstate, f.message) == (
            "XX000",
            client.envelope + "\n\nCaused by:\n  Invalid input syntax: Distributed by columns "
            "should be a prefix of index columns\n",
        )
    assert await client.rows("select name from rw_indexes order by name") == [
        ("idx1",), ("idx4",), ("idx5",)
    ]  # fmt: skip


async def test_index_name_takes_no_schema(client: Client, server: Running) -> None:
    """An index goes in its table's schema: its own name is one identifier
    (resolve_index_name, binder/relation/mod.rs:333-355; e2e_test/ddl/schema_qualified_name)."""
    assert await client.run("create schema q") == "CREATE_SCHEMA"
    assert await client.run("create table q.test (id int)") == "CREATE_TABLE"
    f = await client.fail("create index q.index_test_id on q.test(id)")
    assert (f.sqlstate, f.message) == (
        "XX000",
        client.envelope + "\n\nCaused by:\n  index name must contain 1 argument\n",
    )
    assert await run_ticking(client, server, "create index index_test_id on q.test(id)") == (
        "CREATE_INDEX"
    )
    assert await client.rows(
        "select i.name, s.name from rw_indexes i join rw_schemas s on s.id = i.schema_id"
    ) == [("index_test_id", "q")]


async def test_creates_on_an_internal_table_refused(client: Client, server: Running) -> None:
    """A CREATE reading an internal table is refused (reject_internal_table_dependencies,
    handler/util.rs:364-393; e2e_test/ddl/*_internal_table.slt), nothing created."""
    assert await client.run("create table t (v1 int)") == "CREATE_TABLE"
    sql = "create materialized view m as select * from t"
    assert await run_ticking(client, server, sql) == "CREATE_MATERIALIZED_VIEW"
    rows = await client.rows(
        "select name from rw_internal_table_info where job_name = 'm' and name like '%streamscan%'"
    )
    assert len(rows) == 1
    internal = str(rows[0][0])
    for what, sql in (
        ("CREATE MATERIALIZED VIEW", f"create materialized view x as select * from {internal}"),
        ("CREATE VIEW", f"create view x as select * from {internal}"),
        ("CREATE SINK", f"create sink x as select * from {internal} with (connector='blackhole')"),
        ("CREATE TABLE AS", f"create table x as select * from {internal}"),
        ("CREATE INDEX", f"create index x on {internal} (vnode)"),
    ):
        f = await client.fail(sql)
        assert (f.sqlstate, f.message) == (
            "XX000",
            client.envelope + "\n\nCaused by:\n  Invalid input syntax: "
            f'{what} does not support internal table "{internal}"\n',
        ), sql
    assert await client.rows("select count(*) from rw_relations where name = 'x'") == [(0,)]


async def test_reads_and_writes_of_an_internal_table(client: Client, server: Running) -> None:
    """RisingWave answers a SELECT of an internal state table with its rows; rwshim keeps no
    operator state, so it refuses the read saying so, instead of a not-found error for a
    relation rw_internal_tables lists.  DML on one is RisingWave's refusal (check_for_dml,
    binder/relation/table_or_source.rs:706-728)."""
    assert await client.run("create table t (v1 int)") == "CREATE_TABLE"
    sql = "create materialized view m as select * from t"
    assert await run_ticking(client, server, sql) == "CREATE_MATERIALIZED_VIEW"
    rows = await client.rows("select name from rw_internal_tables")
    assert len(rows) == 1
    internal = str(rows[0][0])
    refused = (
        f'not supported by rwshim: reading the internal state table "{internal}" (rwshim keeps'
        " no streaming state: a materialized view is its query computed again at each barrier)"
    )
    for sql in (
        f"select * from {internal}",
        f"select count(*) from public.{internal}",
        f"select * from m join {internal} on true",
    ):
        assert await cause(client, sql) == ("XX000", f"\n\nCaused by:\n  {refused}\n"), sql
    for sql in (
        f"insert into {internal} values (1)",
        f"delete from public.{internal}",
        f"update {internal} set vnode = 1",
    ):
        assert await cause(client, sql) == (
            "XX000",
            f'\n\nCaused by:\n  Invalid input syntax: cannot change internal table "{internal}"\n',
        ), sql
