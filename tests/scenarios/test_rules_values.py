"""Value forms and SQLSTATEs of issue 14 over a real socket: every ALTER value parser reads its
``SetVariableValue`` as RisingWave's handler does (rule 6), session variables take cluster-wide
defaults through ALTER SYSTEM, a WITH value must be a literal, and a meta error reaches the
client with the SQLSTATE its gRPC status carries (rule 5)."""

from __future__ import annotations

import asyncio

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import creating_mv, job, pending, table_with_rows

PARALLELISM = (
    "Invalid input syntax: target parallelism must be a valid number, adaptive, bounded(n), or "
    "ratio(r): "
)


def chain(envelope: str, *causes: str) -> str:
    """RisingWave's pretty report under the pgwire envelope (thiserror-ext report.rs)."""
    if len(causes) == 1:
        return f"{envelope}\n\nCaused by:\n  {causes[0]}\n"
    lines = "".join(f"  {i}: {c}\n" for i, c in enumerate(causes, start=1))
    return f"{envelope}\n\nCaused by these errors (recent errors listed first):\n{lines}"


def grpc(call: str, code: str = "Internal error") -> str:
    return f"gRPC request to meta service (call `{call}`) failed: {code}"


async def test_parallelism_values_are_one_value_and_parse_as_rust_does(
    client: Client, server: Running
) -> None:
    """parse_single_parallelism_value (alter_parallelism.rs:188-197) refuses a list before
    anything else, so before error 1 too (the frontend parses before its RPC); the value is
    ConfigParallelism::from_str, whose `$` ends at the end of the text and whose numbers are
    ASCII (adaptive_parallelism_strategy.rs:94-144: u64 / usize / f32 FromStr)."""
    await table_with_rows(client, rows=100)
    mv_id = await creating_mv(client)
    single = "Invalid input syntax: target parallelism must be a single value"
    for sql in (
        "alter materialized view mv set parallelism = 1, 2",
        "alter materialized view mv set parallelism = adaptive, 2 deferred",
        "alter materialized view mv set backfill_parallelism = 'a', 'b'",
        "alter table t set parallelism = 1, 2",
    ):
        f = await client.fail(sql)
        assert (f.severity, f.sqlstate, f.message) == (
            "ERROR",
            "XX000",
            chain(client.envelope, single),
        ), sql
    for value, cause in (
        # A newline inside a plain string (an E'' string would print as E'..\\n', its
        # Display: to_string_unquoted, ast/mod.rs:3869-3878).
        ("'bounded(4)\n'", "Parse error: invalid digit found in string"),
        ("'bounded(\u0664)'", "Parse error: invalid digit found in string"),
        ("'ratio(\uff10.5)'", "Parse error: invalid float literal"),
        ("'ratio(1.5)'", "Invalid value for Ratio strategy: must be between 0.0 and 1.0"),
        ("bounded(0)", "Invalid value for Bounded strategy: must be positive integer"),
        ("'2.5'", "Parse error: invalid digit found in string"),
    ):
        f = await client.fail(f"alter materialized view mv set parallelism = {value}")
        assert (f.sqlstate, f.message) == (
            "XX000",
            chain(client.envelope, PARALLELISM + cause),
        ), value
    # Nothing changed; the session variable refuses the same texts with its own chain.
    assert await job(client, "mv") == (mv_id, "CREATING", "bounded(64)")
    f = await client.fail("set streaming_parallelism = 'bounded(4)\n'")
    assert (f.sqlstate, f.message) == (
        "XX000",
        chain(
            client.envelope,
            "Failed to get or set session config",
            "Invalid value `bounded(4)\n` for `streaming_parallelism`",
            "Parse error",
            "invalid digit found in string",
        ),
    )
    f = await client.fail("set streaming_parallelism = 'ratio(\uff10.5)'")
    assert f.message == chain(
        client.envelope,
        "Failed to get or set session config",
        "Invalid value `ratio(\uff10.5)` for `streaming_parallelism`",
        "Parse error",
        "invalid float literal",
    )
    assert await client.rows("show streaming_parallelism") == [("default",)]


async def test_resource_group_values(client: Client, server: Running) -> None:
    """resolve_resource_group (alter_resource_group.rs:57-76): an identifier or a quoted
    string names the group, 'default' and DEFAULT mean none, anything else is refused."""
    await table_with_rows(client, rows=10)
    assert await client.run("set background_ddl = true") == "SET_VARIABLE"
    assert await client.run("create materialized view mv as select * from t") == (
        "CREATE_MATERIALIZED_VIEW"
    )
    server.tick()
    refused = "Invalid input syntax: target resource group must be a valid string or default"
    for value in ("1", "'a', 'b'", "E'rg'", '"rg"', "true"):
        f = await client.fail(f"alter materialized view mv set resource_group = {value}")
        assert (f.sqlstate, f.message) == ("XX000", chain(client.envelope, refused)), value
    rows = "select resource_group from rw_streaming_jobs where name = 'mv'"
    assert await client.rows(rows) == [("default",)]
    # An identifier is its real value (folded), a string is itself, 'default' is none.
    assert await client.run("alter materialized view mv set resource_group = RG1") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.rows(rows) == [("rg1",)]
    assert await client.run("alter materialized view mv set resource_group = 'DEFAULT'") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.rows(rows) == [("default",)]
    assert await client.run("alter materialized view mv set resource_group = 'Rg2'") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.rows(rows) == [("Rg2",)]
    assert await client.run("alter materialized view mv reset resource_group") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.rows(rows) == [("default",)]
    # The object the error names says "resource group" (alter_resource_group.rs:33-34).
    f = await client.fail("alter materialized view t set resource_group = 'x'")
    assert f.message == chain(
        client.envelope,
        "Invalid input syntax: cannot alter resource group of TABLE t by ALTER_MATERIALIZED_VIEW",
    )


async def test_alter_database_values_notices_and_meta_checks(client: Client) -> None:
    """ALTER DATABASE ... SET (handler/mod.rs:767-828): a number literal as u32 / u64 or
    DEFAULT, read before the database is looked up; the notices of alter_database_param.rs:
    31-56; meta's OverrideValidate (system_param/mod.rs:451-457) is an anyhow error, gRPC
    Internal (controller/catalog/alter_op.rs:833-846)."""
    call = "/ddl_service.DdlService/AlterDatabaseParam"
    cases = [
        ("barrier_interval_ms = 'x'", "barrier_interval_ms must be a u32 integer or DEFAULT"),
        ("barrier_interval_ms = 1, 2", "barrier_interval_ms must be a u32 integer or DEFAULT"),
        (
            "barrier_interval_ms = 1.5",
            "barrier_interval_ms must be a u32 integer: invalid digit found in string",
        ),
        (
            "checkpoint_frequency = 99999999999999999999",
            "checkpoint_frequency must be a u64 integer: number too large to fit in target type",
        ),
        ("Foo = 1", "Unsupported database config parameter: foo"),
    ]
    for op, text in cases:
        f = await client.fail(f"alter database dev set {op}")
        assert (f.sqlstate, f.message) == (
            "XX000",
            chain(client.envelope, f"Invalid input syntax: {text}"),
        ), op
    # The value is read first: an unknown database with a bad value is the value's error.
    f = await client.fail("alter database nope set barrier_interval_ms = 'x'")
    assert f.message == chain(
        client.envelope,
        "Invalid input syntax: barrier_interval_ms must be a u32 integer or DEFAULT",
    )
    f = await client.fail("alter database dev set barrier_interval_ms = 10")
    assert (f.sqlstate, f.message) == (
        "XX000",
        chain(client.envelope, grpc(call), "value 10 out of range, expect 50.."),
    )
    f = await client.fail("alter database dev set checkpoint_frequency = 0")
    assert f.message == chain(client.envelope, grpc(call), "value 0 out of range, expect 1..")
    rows = "select barrier_interval_ms, checkpoint_frequency from rw_databases where name = 'dev'"
    assert await client.rows(rows) == [(None, None)]
    assert await client.run("alter database dev set barrier_interval_ms = 300000") == (
        "ALTER_DATABASE"
    )
    assert await client.notices() == [
        (
            "NOTICE",
            "00000",
            "Barrier interval is set to 300000 ms >= 300000 ms. This can hurt freshness and "
            "potentially cause OOM.",
        )
    ]
    assert await client.run("alter database dev set checkpoint_frequency = 60") == (
        "ALTER_DATABASE"
    )
    assert await client.notices() == [
        (
            "NOTICE",
            "00000",
            "Checkpoint frequency is set to 60 >= 60. This can hurt freshness and potentially "
            "cause OOM.",
        )
    ]
    assert await client.rows(rows) == [(300000, 60)]
    assert await client.run("alter database dev set barrier_interval_ms = default") == (
        "ALTER_DATABASE"
    )
    assert await client.rows(rows) == [(None, 60)]

    # SET / RESET RESOURCE_GROUP ... DEFERRED: the database's group and the notice
    # (alter_database_param.rs:78-121).
    notice = (
        "NOTICE",
        "00000",
        "The database resource group metadata has been updated, but it will not take effect "
        "immediately. Manually trigger recovery for inherited streaming jobs to use the new "
        "database resource group.",
    )
    groups = "select resource_group from rw_databases where name = 'dev'"
    assert await client.run("alter database dev set resource_group = 'rg1' deferred") == (
        "ALTER_DATABASE"
    )
    assert await client.notices() == [notice]
    assert await client.rows(groups) == [("rg1",)]
    f = await client.fail("alter database dev set resource_group = 1 deferred")
    assert f.message == chain(
        client.envelope,
        "Invalid input syntax: target resource group must be a valid string or default",
    )
    assert await client.run("alter database dev reset resource_group deferred") == (
        "ALTER_DATABASE"
    )
    assert await client.notices() == [notice]
    assert await client.rows(groups) == [("default",)]


async def test_alter_system_sets_a_session_variables_cluster_default(
    client_factory: Connect, server: Running
) -> None:
    """handle_alter_system (alter_system.rs:37-60): a session parameter goes to meta's
    SetSessionParam (controller/session_params.rs:136-170), no superuser needed; the
    current session takes it with a notice, new sessions start with it; NO_ALTER_SYS
    parameters are refused; a bad value is meta's Session parameters error."""
    a = await client_factory()
    assert await a.run("create user bob") == "CREATE_USER"
    bob = await client_factory(user="bob")
    assert await bob.run("alter system set streaming_parallelism = 'BOUNDED(4)'") == (
        "ALTER_SYSTEM"
    )
    assert await bob.notices() == [
        (
            "NOTICE",
            "00000",
            "The config streaming_parallelism of the current session has already been set to "
            "BOUNDED(4)",
        )
    ]
    assert await bob.rows("show streaming_parallelism") == [("bounded(4)",)]
    # A session already open keeps its value; a new one starts with the cluster's.
    assert await a.rows("show streaming_parallelism") == [("default",)]
    c = await client_factory()
    assert await c.rows("show streaming_parallelism") == [("bounded(4)",)]

    f = await bob.fail("alter system set streaming_parallelism = 'x'")
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "XX000",
        chain(
            bob.envelope,
            grpc("/meta.SessionParamService/SetSessionParam"),
            "Session parameters error",
            "Invalid value `x` for `streaming_parallelism`",
            "Parse error",
            "invalid digit found in string",
        ),
    )
    f = await bob.fail("alter system set disable_purify_definition = true")
    assert (f.sqlstate, f.message) == (
        "XX000",
        chain(
            bob.envelope,
            "internal error: session param disable_purify_definition cannot be altered system wide",
        ),
    )
    # A system parameter needs a superuser (alter_system.rs:61-65).
    f = await bob.fail("alter system set barrier_interval_ms = 500")
    assert f.message == chain(
        bob.envelope, "Permission denied: must be superuser to execute ALTER SYSTEM command"
    )
    assert await a.run("alter system set Streaming_Parallelism to default") == "ALTER_SYSTEM"
    assert await a.notices() == [
        (
            "NOTICE",
            "00000",
            "The config Streaming_Parallelism of the current session has already been reset "
            "to default",
        )
    ]
    d = await client_factory()
    assert await d.rows("show streaming_parallelism") == [("default",)]


async def test_alter_system_parameter_checks(client: Client) -> None:
    """set_system_param (system_param/mod.rs:325-372): a parameter declared without default
    has none for DEFAULT; OverrideValidate (mod.rs:449-485) bounds the values; both are
    SystemParams errors, gRPC Internal (controller/system_param.rs:182-220)."""
    call = "/meta.SystemParamsService/SetSystemParam"
    for sql, text in (
        (
            "alter system set backup_storage_url to default",
            "backup_storage_url does not have a default value",
        ),
        ("alter system set barrier_interval_ms = 10", "value 10 out of range, expect 50.."),
        ("alter system set checkpoint_frequency = 0", "value 0 out of range, expect 1.."),
        (
            "alter system set time_travel_retention_ms = 5",
            "time_travel_retention_ms cannot be less than 600000",
        ),
        (
            "alter system set backup_storage_directory = ' '",
            "backup_storage_directory cannot be empty",
        ),
        (
            "alter system set barrier_interval_ms = 1, 2",
            "cannot parse parameter value: invalid digit found in string",
        ),
    ):
        f = await client.fail(sql)
        assert (f.sqlstate, f.message) == (
            "XX000",
            chain(client.envelope, grpc(call), f"System parameters error: {text}"),
        ), sql
    params = await client.rows("show parameters")
    shown = {r[0]: r[1] for r in params}
    assert shown["barrier_interval_ms"] == "1000"
    assert shown["backup_storage_url"] == "memory"


async def test_with_values_must_be_literals(client: Client) -> None:
    """WithOptions::try_from (src/frontend/src/utils/with_options.rs:537-651), run by
    HandlerArgs::new before any handler (handler/mod.rs:236-243)."""
    only = (
        "Invalid parameter value: `with options` or `with properties` only support single "
        "quoted string value and C style escaped string"
    )
    for sql in (
        "create table t (v int) with (a = NULL)",
        "create table t (v int) with (a = $$x$$)",
    ):
        f = await client.fail(sql)
        assert (f.severity, f.sqlstate, f.message) == (
            "ERROR",
            "XX000",
            chain(client.envelope, only),
        ), sql
    assert await client.rows("select name from rw_tables") == []
    assert await client.run("create table t (v int) with (a = 1, b = 'x', c = true)") == (
        "CREATE_TABLE"
    )


async def test_meta_duplicate_of_an_initial_job_is_42710(
    client_factory: Connect, server: Running
) -> None:
    """A create queued for the creation permit is INITIAL: the frontend cannot see it, so
    meta's duplicate check answers catalog_under_creation (controller/utils.rs:717-783), gRPC
    AlreadyExists, which reaches the client as a Catalog error with the 42710 its status
    carries (src/meta/src/error.rs:152-164, src/frontend/src/error.rs:221)."""
    a = await client_factory()
    await table_with_rows(a, rows=1000)
    assert await a.run("set backfill_rate_limit = 1") == "SET_VARIABLE"
    holder = await pending(a.run("create materialized view holder as select * from t"))
    b = await client_factory()
    queued = await pending(b.run("create materialized view q as select * from t"))
    c = await client_factory()
    f = await c.fail("create materialized view q as select * from t")
    assert (f.severity, f.sqlstate, f.message) == (
        "ERROR",
        "42710",
        chain(
            c.envelope,
            "Catalog error",
            grpc(
                "/ddl_service.DdlService/CreateMaterializedView",
                "Some entity that we attempted to create (e.g., file or directory) already exists",
            ),
            "table named q already exists and is still being created",
        ),
    )
    assert await c.run("alter materialized view holder set backfill_rate_limit = default") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await asyncio.wait_for(holder, 5) == "CREATE_MATERIALIZED_VIEW"
    server.tick(3)
    assert await asyncio.wait_for(queued, 5) == "CREATE_MATERIALIZED_VIEW"
    assert sorted(await c.rows("select name from rw_materialized_views")) == [
        ("holder",),
        ("q",),
    ]
