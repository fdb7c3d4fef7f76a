"""The ResourceGroup feature under a Free license (an empty license_key): CREATE with a
resource group and ALTER ... RESOURCE_GROUP refuse with RisingWave's text
(src/license/src/feature.rs:72-80; create_mv.rs:218-229, alter_resource_group.rs:32,
alter_database_param.rs:45-60, :103-105, create_database.rs:89-91)."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

NOT_AVAILABLE = (
    "\n\nCaused by:\n  feature ResourceGroup is not available based on your license\n\n"
    "Hint: You may want to set a license key with `ALTER SYSTEM SET license_key = '...';` "
    "command. For more information, visit https://go.risingwave.com/premium.\n"
)


async def test_resource_group_needs_license(client: Client, server: Running) -> None:
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    mv = "create materialized view m1 as select count(*) as c from t"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    mv2 = "create materialized view m2 with (resource_group = 'default') as select * from t"
    assert await run_ticking(client, server, mv2) == "CREATE_MATERIALIZED_VIEW"
    assert await client.run("alter materialized view m1 set resource_group to default") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.run("alter system set license_key to ''") == "ALTER_SYSTEM"
    for sql in (
        "create materialized view m3 with (resource_group = 'default') as select * from t",
        "alter materialized view m1 set resource_group to test",
        "alter materialized view m1 reset resource_group",
        "alter database dev set resource_group = 'x' deferred",
        "alter database dev set barrier_interval_ms = 500",
        "alter database dev set checkpoint_frequency = 5",
        "create database d2 with resource_group = 'x'",
    ):
        assert await cause(client, sql) == ("XX000", NOT_AVAILABLE), sql
    assert await client.run("alter system set license_key to default") == "ALTER_SYSTEM"
    assert await client.run("alter materialized view m1 set resource_group to test") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    rows = await client.rows("select name, resource_group from rw_streaming_jobs order by name")
    assert rows == [("m1", "test"), ("m2", "default"), ("t", "default")]
    # nothing of the refused statements stayed
    assert await client.rows("select name from rw_databases where name = 'd2'") == []
