"""ALTER ... SET CONFIG / RESET CONFIG over real connections: the per-job streaming config
override and rw_streaming_job_config (src/frontend/src/handler/alter_streaming_config.rs,
alter_utils.rs; meta controller/catalog/alter_op.rs:943-1030; rw_streaming_job_config.rs)."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

RECOVER = (
    "NOTICE",
    "00000",
    "ALTER CONFIG requires a RECOVER on the specified streaming job to take effect.",
)


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


def deserialize(error: str) -> str:
    """Meta's refusal of an override that does not deserialize (alter_op.rs:987-995)."""
    return (
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: gRPC request to meta service (call "
        "`/ddl_service.DdlService/AlterStreamingJobConfig`) failed: Internal error\n"
        "  2: invalid streaming job config override\n"
        "  3: failed to deserialize merged config\n"
        f"  4: {error}\n"
    )


async def config(client: Client) -> list[tuple[object, ...]]:
    return await client.rows(
        "select name, key, value from rw_streaming_job_config order by name, key"
    )


async def test_set_and_reset_config(client: Client, server: Running) -> None:
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    sql = (
        "alter table t set config (streaming.developer.chunk_size = 1024, "
        "streaming.developer.cache_refill_policy = 'both', streaming.in_flight_barrier_nums = 5,"
        " streaming.unsafe_disable_strict_consistency = true, "
        "streaming.developer.memory_controller_threshold_stable = 0.5)"
    )
    assert await client.run(sql) == "ALTER_TABLE"
    assert await client.notices() == [RECOVER]
    assert await config(client) == [
        ("t", "streaming.developer.cache_refill_policy", '"both"'),
        ("t", "streaming.developer.chunk_size", "1024"),
        ("t", "streaming.developer.memory_controller_threshold_stable", "0.5"),
        ("t", "streaming.in_flight_barrier_nums", "5"),
        ("t", "streaming.unsafe_disable_strict_consistency", "true"),
    ]
    # the cache refill policy alone needs no RECOVER
    sql = "alter table t set config (streaming.developer.cache_refill_policy = 'disabled')"
    assert await client.run(sql) == "ALTER_TABLE"
    assert await client.notices() == []
    # RESET, and NULL, remove keys
    sql = (
        "alter table t reset config (streaming.developer.chunk_size, "
        "streaming.in_flight_barrier_nums)"
    )
    assert await client.run(sql) == "ALTER_TABLE"
    assert await client.notices() == [RECOVER]
    sql = "alter table t set config (streaming.unsafe_disable_strict_consistency = null)"
    assert await client.run(sql) == "ALTER_TABLE"
    assert await config(client) == [
        ("t", "streaming.developer.cache_refill_policy", '"disabled"'),
        ("t", "streaming.developer.memory_controller_threshold_stable", "0.5"),
    ]
    # other job kinds: materialized views, indexes, sinks
    mv = "create materialized view mv as select * from t"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    idx = "create index i on t (v)"
    assert await run_ticking(client, server, idx) == "CREATE_INDEX"
    sink = "create sink k from mv with (connector = 'blackhole')"
    assert await run_ticking(client, server, sink) == "CREATE_SINK"
    for sql, tag in (
        ("alter materialized view mv set config (streaming.developer.chunk_size = 7)",
         "ALTER_MATERIALIZED_VIEW"),
        # (a `stream_`-prefixed key is refused: merge.rs:223-239, test_config_refusals)
        ("alter index i set config (streaming.developer.chunk_size = 8)", "ALTER_INDEX"),
        ("alter sink k set config (streaming.developer.chunk_size = 9)", "ALTER_SINK"),
    ):  # fmt: skip
        assert await client.run(sql) == tag
    rows = [r for r in await config(client) if r[0] != "t"]
    assert rows == [
        ("i", "streaming.developer.chunk_size", "8"),
        ("k", "streaming.developer.chunk_size", "9"),
        ("mv", "streaming.developer.chunk_size", "7"),
    ]


async def test_config_refusals(client: Client, server: Running) -> None:
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    mv = "create materialized view mv as select * from t"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    assert (
        await client.run(
            "create source s (v int) with (connector = 'datagen') format plain encode json"
        )
        == "CREATE_SOURCE"
    )
    for sql, text in (
        (
            "alter table t set config (developer.chunk_size = 1)",
            one(
                "Invalid input syntax: ALTER CONFIG only accepts options starting with `streaming.`"
            ),
        ),
        (
            "alter table t set config (streaming.a = 1, streaming.a = 2)",
            one("Invalid input syntax: Duplicate option for ALTER CONFIG: streaming.a"),
        ),
        (
            "alter table t set config (streaming.developer.chunk_size = E'1')",
            one("Invalid input syntax: Unsupported value for ALTER CONFIG: E'1'"),
        ),
        (
            "alter table t set config (streaming.developer.nope = 1, streaming.nada = true)",
            one(
                "Invalid parameter value: Invalid parameter: unrecognized configs: "
                '["streaming.nada", "streaming.developer.nope"]'
            ),
        ),
        (
            # The whole chain: the serde error names the field under `streaming`
            # (merge.rs:91-93, its test_invalid_type :208-220).
            "alter table t set config (streaming.developer.chunk_size = 'big')",
            deserialize('invalid type: string "big", expected usize\nin `developer.chunk_size`'),
        ),
        (
            "alter table t set config (streaming.developer.join_encoding_type = 'nothing')",
            deserialize(
                "expect one of [memory_optimized, cpu_optimized]\nin `developer.join_encoding_type`"
            ),
        ),
        (
            "alter table t set config (streaming.developer.stream_chunk_size = 512)",
            deserialize("duplicate field `chunk_size`\nin `developer`"),
        ),
        (
            "alter table t set config (streaming.developer.max_barrier_batch_size = 5000000000)",
            deserialize(
                "invalid value: integer `5000000000`, expected u32\n"
                "in `developer.max_barrier_batch_size`"
            ),
        ),
        (
            "alter table t set config (streaming.developer.max_barrier_batch_size = 1.5)",
            deserialize(
                "invalid type: floating point `1.5`, expected u32\n"
                "in `developer.max_barrier_batch_size`"
            ),
        ),
        (
            "alter table t set config (streaming.unsafe_disable_strict_consistency = 1)",
            deserialize(
                "invalid type: integer `1`, expected a boolean\n"
                "in `unsafe_disable_strict_consistency`"
            ),
        ),
        (
            "alter table t set config (streaming.async_stack_trace = 'on')",
            deserialize(
                "unknown variant `on`, expected one of `Off`, `On`, `ReleaseVerbose`\n"
                "in `async_stack_trace`"
            ),
        ),
        (
            "alter table mv set config (streaming.developer.chunk_size = 1)",
            one("Invalid input syntax: cannot alter config of MATERIALIZED_VIEW mv by ALTER_TABLE"),
        ),
        (
            "alter source s set config (streaming.developer.chunk_size = 1)",
            one(
                "Invalid input syntax: cannot alter config of non-shared source.\n"
                "Use `ALTER MATERIALIZED VIEW` to alter the materialized view using the source "
                "instead."
            ),
        ),
    ):
        f = await cause(client, sql)
        assert f[1] == text, sql
    assert await config(client) == []


async def test_double_quoted_value(client: Client, server: Running) -> None:
    """A "word" after `=` is Value::DoubleQuotedString (parser.rs:4208-4210): ALTER CONFIG
    takes it as a string (alter_streaming_config.rs:59-61); WITH refuses it
    (with_options.rs:575-585)."""
    assert await client.run("create table cf (v int)") == "CREATE_TABLE"
    sql = (
        "alter table cf set config (streaming.developer.chunk_size = 511, "
        'streaming.developer.join_encoding_type = "cpu_optimized")'
    )
    assert await client.run(sql) == "ALTER_TABLE"
    assert await config(client) == [
        ("cf", "streaming.developer.chunk_size", "511"),
        ("cf", "streaming.developer.join_encoding_type", '"cpu_optimized"'),
    ]
    f = await cause(client, 'create table w (v int) with (a = "x")')
    assert f == (  # RisingWave's InvalidParameterValue is XX000 (pgwire's default)
        "XX000",
        one(
            "Invalid parameter value: `with options` or `with properties` only support single "
            "quoted string value and C style escaped string"
        ),
    )


async def test_initial_config_from_session(client: Client, server: Running) -> None:
    """A new job's config override starts from the session's streaming_* variables that are
    set (to_initial_streaming_config_override, session_config/mod.rs:670-715;
    e2e_test/ddl/alter_streaming_config.slt:154-176); ALTER ... SET CONFIG merges into it."""
    for sql in (
        "set streaming_cache_refill_policy = both",
        "set streaming_sync_log_store_buffer_size = 77",
    ):
        assert await client.run(sql) == "SET_VARIABLE"
    assert await client.run("create table cf (v int)") == "CREATE_TABLE"
    assert await client.run("set streaming_cache_refill_policy = default") == "SET_VARIABLE"
    assert await client.run("set streaming_sync_log_store_buffer_size = default") == (
        "SET_VARIABLE"
    )
    assert await client.run("create table plain (v int)") == "CREATE_TABLE"
    sql = "alter table cf set config (streaming.developer.chunk_size = 5)"
    assert await client.run(sql) == "ALTER_TABLE"
    assert await config(client) == [
        ("cf", "streaming.developer.cache_refill_policy", '"both"'),
        ("cf", "streaming.developer.chunk_size", "5"),
        ("cf", "streaming.developer.sync_log_store_buffer_size", "77"),
    ]
