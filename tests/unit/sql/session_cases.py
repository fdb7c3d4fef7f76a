"""Session-variable data tables (rw-sql-surface.md §2.3, §4.6; session_config/*.rs).

Reusable over a connection: ``SET name = value`` then ``SHOW name`` gives ``shown``; an error
reaches the client as ``Failed to run the query`` followed by ``chain`` as numbered causes.
"""

from __future__ import annotations

CHAIN_HEAD = "Failed to get or set session config"

# (name as typed, value text as the SET handler passes it, SHOW text afterwards)
SET_CASES: list[tuple[str, str, str]] = [
    ("streaming_parallelism", "4", "4"),
    ("streaming_parallelism", "0", "adaptive"),
    ("streaming_parallelism", "00", "adaptive"),
    ("streaming_parallelism", "adaptive", "adaptive"),
    ("streaming_parallelism", "AUTO", "adaptive"),
    ("streaming_parallelism", "full", "adaptive"),
    ("streaming_parallelism", "bounded(4)", "bounded(4)"),
    ("streaming_parallelism", "BOUNDED(4)", "bounded(4)"),
    ("streaming_parallelism", "ratio(0.50)", "ratio(0.5)"),
    ("streaming_parallelism", "Ratio(1.0)", "ratio(1)"),
    ("streaming_parallelism", "ratio(+0.5)", "ratio(0.5)"),
    ("streaming_parallelism", "ratio(0.0000001)", "ratio(0.0000001)"),
    ("streaming_parallelism", "ratio(-0.0)", "ratio(-0)"),
    ("streaming_parallelism", "ratio(0.3)", "ratio(0.3)"),
    ("streaming_parallelism", "ratio(1)", "ratio(1)"),
    ("streaming_parallelism", "default", "default"),
    ("streaming_parallelism_for_table", "2", "2"),
    ("streaming_parallelism_for_source", "adaptive", "adaptive"),
    ("streaming_parallelism_for_sink", "bounded(8)", "bounded(8)"),
    ("streaming_parallelism_for_index", "ratio(0.1)", "ratio(0.1)"),
    ("streaming_parallelism_for_materialized_view", "16", "16"),
    ("streaming_parallelism_for_backfill", "3", "3"),
    ("streaming_parallelism_for_backfill", "DEFAULT", "default"),
    ("streaming_max_parallelism", "2", "2"),
    ("streaming_max_parallelism", "32768", "32768"),
    ("background_ddl", "true", "true"),
    ("background_ddl", " Y ", "true"),
    ("background_ddl", "of", "false"),
    ("rw_implicit_flush", "true", "true"),
    ("RW_IMPLICIT_FLUSH", "ON", "true"),
    ("implicit_flush", "0", "false"),
    ("streaming_use_snapshot_backfill", "false", "false"),
    ("streaming_use_shared_source", "no", "false"),
    ("enable_serverless_backfill", "yes", "true"),
    ("locality_backfill_mode", "ALWAYS", "always"),
    ("auto_locality_backfill_min_size", "1024", "1024"),
    ("backfill_rate_limit", "0", "0"),
    ("backfill_rate_limit", "-1", "-1"),
    ("source_rate_limit", "100", "100"),
    ("dml_rate_limit", "-5", "-5"),
    ("sink_rate_limit", "2147483647", "2147483647"),
    ("slow_ddl_notification_secs", "0", "0"),
    ("timezone", "Asia/Shanghai", "Asia/Shanghai"),
    ("timezone", "utc", "utc"),
    ("application_name", "dbt", "dbt"),
    ("search_path", "a, b", "a, b"),
    ("search_path", " x ,  ", "x"),
    ("query_mode", "LOCAL", "local"),
    ("transaction_isolation", "Serializable", "serializable"),
    ("sink_decouple", "true", "enable"),
    ("visibility_mode", "Checkpoint", "checkpoint"),
    ("statement_timeout", "1min", "60000ms"),
    ("statement_timeout", "0", "0ms"),
    ("batch_parallelism", "0", "0"),
    ("streaming_join_encoding", "CPU_OPTIMIZED", "cpu_optimized"),
    ("streaming_over_window_cache_policy", "recent-first-n", "recent_first_n"),
    ("streaming_cache_refill_policy", "", ""),
    ("client_encoding", "utf-8", "utf-8"),
    ("bytea_output", "hex", "hex"),
    ("datestyle", "ISO", "ISO"),
    ("intervalstyle", "postgres", "postgres"),
    ("iceberg_engine_connection", "s.c", "s.c"),
]


def invalid(value: str, entry: str, *causes: str) -> list[str]:
    return [CHAIN_HEAD, f"Invalid value `{value}` for `{entry}`", *causes]


# (name as typed, value, the whole chain)
ERROR_CASES: list[tuple[str, str, list[str]]] = [
    ("rw_implicit_flush", "maybe", invalid("maybe", "implicit_flush", "Invalid bool")),
    ("background_ddl", "2", invalid("2", "background_ddl", "Invalid bool")),
    (
        "streaming_parallelism",
        "foo",
        invalid("foo", "streaming_parallelism", "Parse error", "invalid digit found in string"),
    ),
    (
        "streaming_parallelism",
        "2.5",
        invalid("2.5", "streaming_parallelism", "Parse error", "invalid digit found in string"),
    ),
    (
        "streaming_parallelism",
        "bounded(4, 5)",
        invalid(
            "bounded(4, 5)", "streaming_parallelism", "Parse error", "invalid digit found in string"
        ),
    ),
    (
        "streaming_parallelism",
        "",
        invalid(
            "", "streaming_parallelism", "Parse error", "cannot parse integer from empty string"
        ),
    ),
    (
        "streaming_parallelism",
        "99999999999999999999",
        invalid(
            "99999999999999999999",
            "streaming_parallelism",
            "Parse error",
            "number too large to fit in target type",
        ),
    ),
    (
        "streaming_parallelism",
        "bounded(0)",
        invalid(
            "bounded(0)",
            "streaming_parallelism",
            "Invalid value for Bounded strategy: must be positive integer",
        ),
    ),
    (
        "streaming_parallelism_for_table",
        "ratio(1.5)",
        invalid(
            "ratio(1.5)",
            "streaming_parallelism_for_table",
            "Invalid value for Ratio strategy: must be between 0.0 and 1.0",
        ),
    ),
    (
        "streaming_parallelism_for_sink",
        "ratio(-0.5)",
        invalid(
            "ratio(-0.5)",
            "streaming_parallelism_for_sink",
            "Invalid value for Ratio strategy: must be between 0.0 and 1.0",
        ),
    ),
    # check hooks quote the normalised value (session_config.rs:127-136)
    (
        "streaming_parallelism_for_backfill",
        "0",
        invalid(
            "adaptive",
            "streaming_parallelism_for_backfill",
            "Only `default` or fixed backfill parallelism is supported here; adaptive backfill "
            "strategy is deferred to a later change.",
        ),
    ),
    (
        "streaming_parallelism_for_backfill",
        "Bounded(2)",
        invalid(
            "bounded(2)",
            "streaming_parallelism_for_backfill",
            "Only `default` or fixed backfill parallelism is supported here; adaptive backfill "
            "strategy is deferred to a later change.",
        ),
    ),
    (
        "streaming_max_parallelism",
        "1",
        invalid(
            "1", "streaming_max_parallelism", "STREAMING_MAX_PARALLELISM must be greater than 1"
        ),
    ),
    (
        "streaming_max_parallelism",
        "0",
        invalid(
            "0", "streaming_max_parallelism", "STREAMING_MAX_PARALLELISM must be greater than 1"
        ),
    ),
    (
        "streaming_max_parallelism",
        "32769",
        invalid(
            "32769",
            "streaming_max_parallelism",
            "STREAMING_MAX_PARALLELISM must be less than or equal to 32768",
        ),
    ),
    (
        "streaming_max_parallelism",
        "-1",
        invalid("-1", "streaming_max_parallelism", "invalid digit found in string"),
    ),
    (
        "backfill_rate_limit",
        "abc",
        invalid("abc", "backfill_rate_limit", "invalid digit found in string"),
    ),
    (
        "sink_rate_limit",
        "2147483648",
        invalid("2147483648", "sink_rate_limit", "number too large to fit in target type"),
    ),
    (
        "locality_backfill_mode",
        "never",
        invalid("never", "locality_backfill_mode", "expect one of [auto, always]"),
    ),
    ("timezone", "Mars/Olympus", invalid("Mars/Olympus", "timezone", "Not a valid timezone")),
    (
        "client_encoding",
        "latin1",
        invalid("latin1", "client_encoding", "Only support 'UTF8' for CLIENT_ENCODING"),
    ),
    (
        "bytea_output",
        "escape",
        invalid("escape", "bytea_output", "Only support 'hex' for BYTEA_OUTPUT"),
    ),
    ("statement_timeout", "5x", invalid("5x", "statement_timeout", 'invalid time unit: "x"')),
    (
        "query_mode",
        "fast",
        invalid("fast", "query_mode", "expect one of [local, distributed, auto]"),
    ),
    ("backfill_parallelism", "1", [CHAIN_HEAD, "Unrecognized config entry `backfill_parallelism`"]),
    (
        "streaming_parallelism_strategy",
        "AUTO",
        [CHAIN_HEAD, "Unrecognized config entry `streaming_parallelism_strategy`"],
    ),
    ("No_Such", "1", [CHAIN_HEAD, "Unrecognized config entry `no_such`"]),
]

# SHOW text of each variable the spec and the clients name, before any SET (§4.6, clients §7.3)
DEFAULTS: dict[str, str] = {
    "streaming_parallelism": "default",
    "streaming_parallelism_for_table": "default",
    "streaming_parallelism_for_source": "default",
    "streaming_parallelism_for_sink": "default",
    "streaming_parallelism_for_index": "default",
    "streaming_parallelism_for_materialized_view": "default",
    "streaming_parallelism_for_backfill": "default",
    "streaming_max_parallelism": "256",
    "background_ddl": "false",
    "streaming_use_snapshot_backfill": "true",
    "streaming_use_arrangement_backfill": "true",
    "streaming_use_shared_source": "true",
    "enable_serverless_backfill": "false",
    "enable_locality_backfill": "true",
    "locality_backfill_mode": "auto",
    "auto_locality_backfill_min_size": "10737418240",
    "backfill_rate_limit": "-1",
    "source_rate_limit": "-1",
    "dml_rate_limit": "-1",
    "sink_rate_limit": "-1",
    "slow_ddl_notification_secs": "30",
    "implicit_flush": "false",
    "rw_implicit_flush": "false",
    "create_compaction_group_for_mv": "false",
    "enable_index_selection": "true",
    "search_path": '"$user", public',
    "timezone": "UTC",
    "application_name": "",
    "transaction_isolation": "read committed",
    "server_version": "13.14.0",
    "server_version_num": "130014",
    "standard_conforming_strings": "on",
    "client_encoding": "UTF8",
    "statement_timeout": "0ms",
    "query_mode": "auto",
}
