"""Control-plane answers that RisingWave's e2e files (e2e_test/ddl, background_ddl, backfill)
check, as a user reads them over a real connection: rw_rate_limit's rows per rate-limited node,
the refusals of backfill orders, of internal tables as a dependency and of serverless backfill.
"""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import job, table_with_rows


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
