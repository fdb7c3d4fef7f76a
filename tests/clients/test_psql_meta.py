"""psql 15 meta-commands against a real rwshim server, each output compared whole.

What psql prints is what RisingWave's catalogs give its queries (clients.md §3.1 for the SQL):
system tables of ``rw_catalog`` are relkind 'r' and always visible (pg_table_is_visible.rs),
system views relkind 'v'; owners are the creating user; pg_tablespace is an empty view and
``pg_tablespace_location`` NULL (builtin_scalar.rs).  Where RisingWave cannot answer, psql
prints RisingWave's error, found by its binder's rules:

- ``\\d NAME`` (and ``\\dt PATTERN``...) filter with ``COLLATE pg_catalog.default``, and
  RisingWave collates only by ``C`` or ``POSIX`` (binder/expr/mod.rs:1042-1045);
- ``\\sf`` / ``\\sv`` cast to ``pg_catalog.oid``, a type its ``bind_data_type`` does not know;
- ``\\dp`` reads ``pg_class.relacl``, ``\\dC`` ``pg_cast.castfunc``: columns its catalogs
  lack (pg_class.rs, pg_cast.rs); ``\\dd`` aliases a column ``tableoid``, a system column's
  name (catalog/mod.rs check_column_name_not_reserved);
- ``\\dt+`` calls ``pg_size_pretty``, ``\\df`` ``pg_get_function_result``, ``\\dc``
  ``pg_conversion_is_visible``, ``\\do`` ``pg_operator_is_visible``: functions it lacks;
- ``\\dx`` casts to ``pg_catalog.regclass``;
- ``\\dy``, ``\\des``, ``\\dl`` read relations it lacks (pg_event_trigger, ...).
"""

# ruff: noqa: E501

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import ThreadRunning, ThreadServer, _config

# Written in RisingWave's normalised form (its AST display): RisingWave shows definitions that way
# whatever the user typed, and rwshim keeps the text as given, so the two agree here.
SETUP = (
    "CREATE TABLE t1 (id INT PRIMARY KEY, name CHARACTER VARYING, v DOUBLE PRECISION); "
    "CREATE INDEX i1 ON t1(name); "
    "CREATE MATERIALIZED VIEW mv1 AS SELECT id, count(*) AS n FROM t1 GROUP BY id; "
    "CREATE VIEW v1 AS SELECT id FROM t1;"
)

EXPECTED = {
    "\\l": "\n".join(
        [
            "                                      List of databases",
            " Name | Owner | Encoding | Collate | Ctype | ICU Locale | Locale Provider | Access privileges ",
            "------+-------+----------+---------+-------+------------+-----------------+-------------------",
            " dev  | root  | UTF8     | C       | C     |            | libc            | root=Cc/root     +",
            "      |       |          |         |       |            |                 | postgres=Cc/root +",
            "      |       |          |         |       |            |                 | rwadmin=Cc/root",
            "(1 row)",
            "",
            "",
        ]
    ),
    "\\dn": "\n".join(
        [
            "  List of schemas",
            "    Name    | Owner ",
            "------------+-------",
            " public     | root",
            " rw_catalog | root",
            "(2 rows)",
            "",
            "",
        ]
    ),
    "\\dt": "\n".join(
        [
            "                        List of relations",
            "   Schema   |                Name                 | Type  | Owner ",
            "------------+-------------------------------------+-------+-------",
            " public     | t1                                  | table | root",
            " rw_catalog | iceberg_namespace_properties        | table | root",
            " rw_catalog | iceberg_tables                      | table | root",
            " rw_catalog | rw_actor_infos                      | table | root",
            " rw_catalog | rw_actor_splits                     | table | root",
            " rw_catalog | rw_actors                           | table | root",
            " rw_catalog | rw_backfill_info                    | table | root",
            " rw_catalog | rw_cdc_progress                     | table | root",
            " rw_catalog | rw_columns                          | table | root",
            " rw_catalog | rw_connections                      | table | root",
            " rw_catalog | rw_databases                        | table | root",
            " rw_catalog | rw_ddl_progress                     | table | root",
            " rw_catalog | rw_depend                           | table | root",
            " rw_catalog | rw_description                      | table | root",
            " rw_catalog | rw_event_logs                       | table | root",
            " rw_catalog | rw_features                         | table | root",
            " rw_catalog | rw_fragment_infos                   | table | root",
            " rw_catalog | rw_fragments                        | table | root",
            " rw_catalog | rw_functions                        | table | root",
            " rw_catalog | rw_hummock_branched_objects         | table | root",
            " rw_catalog | rw_hummock_checkpoint_version       | table | root",
            " rw_catalog | rw_hummock_compact_task_assignment  | table | root",
            " rw_catalog | rw_hummock_compact_task_progress    | table | root",
            " rw_catalog | rw_hummock_compaction_group_configs | table | root",
            " rw_catalog | rw_hummock_current_version          | table | root",
            " rw_catalog | rw_hummock_meta_configs             | table | root",
            " rw_catalog | rw_hummock_pinned_versions          | table | root",
            " rw_catalog | rw_hummock_snapshot                 | table | root",
            " rw_catalog | rw_hummock_sstables                 | table | root",
            " rw_catalog | rw_hummock_table_change_log         | table | root",
            " rw_catalog | rw_hummock_table_watermark          | table | root",
            " rw_catalog | rw_hummock_version_deltas           | table | root",
            " rw_catalog | rw_iceberg_all_files                | table | root",
            " rw_catalog | rw_iceberg_compaction_schedules     | table | root",
            " rw_catalog | rw_iceberg_files                    | table | root",
            " rw_catalog | rw_iceberg_snapshots                | table | root",
            " rw_catalog | rw_indexes                          | table | root",
            " rw_catalog | rw_internal_tables                  | table | root",
            " rw_catalog | rw_kafka_source_metrics             | table | root",
            " rw_catalog | rw_materialized_views               | table | root",
            " rw_catalog | rw_meta_snapshot                    | table | root",
            " rw_catalog | rw_rate_limit                       | table | root",
            " rw_catalog | rw_refresh_table_state              | table | root",
            " rw_catalog | rw_relation_info                    | table | root",
            " rw_catalog | rw_schemas                          | table | root",
            " rw_catalog | rw_secrets                          | table | root",
            " rw_catalog | rw_sink_log_store_tables            | table | root",
            " rw_catalog | rw_sinks                            | table | root",
            " rw_catalog | rw_sources                          | table | root",
            " rw_catalog | rw_streaming_job_config             | table | root",
            " rw_catalog | rw_streaming_jobs                   | table | root",
            " rw_catalog | rw_subscriptions                    | table | root",
            " rw_catalog | rw_system_tables                    | table | root",
            " rw_catalog | rw_table_fragments                  | table | root",
            " rw_catalog | rw_table_stats                      | table | root",
            " rw_catalog | rw_tables                           | table | root",
            " rw_catalog | rw_types                            | table | root",
            " rw_catalog | rw_unmigrated_tables                | table | root",
            " rw_catalog | rw_user_secrets                     | table | root",
            " rw_catalog | rw_users                            | table | root",
            " rw_catalog | rw_views                            | table | root",
            " rw_catalog | rw_worker_nodes                     | table | root",
            "(62 rows)",
            "",
            "",
        ]
    ),
    "\\dm": "\n".join(
        [
            "             List of relations",
            " Schema | Name |       Type        | Owner ",
            "--------+------+-------------------+-------",
            " public | mv1  | materialized view | root",
            "(1 row)",
            "",
            "",
        ]
    ),
    "\\dv": "\n".join(
        [
            "                     List of relations",
            "   Schema   |             Name              | Type | Owner ",
            "------------+-------------------------------+------+-------",
            " public     | v1                            | view | root",
            " rw_catalog | rw_actor_id_to_ddl            | view | root",
            " rw_catalog | rw_fragment_backfill_progress | view | root",
            " rw_catalog | rw_fragment_id_to_ddl         | view | root",
            " rw_catalog | rw_fragment_parallelism       | view | root",
            " rw_catalog | rw_internal_table_info        | view | root",
            " rw_catalog | rw_kafka_job_lag              | view | root",
            " rw_catalog | rw_recovery_info              | view | root",
            " rw_catalog | rw_relations                  | view | root",
            " rw_catalog | rw_resource_groups            | view | root",
            " rw_catalog | rw_sink_decouple              | view | root",
            " rw_catalog | rw_streaming_job_info         | view | root",
            " rw_catalog | rw_streaming_parallelism      | view | root",
            " rw_catalog | rw_worker_actor_count         | view | root",
            "(14 rows)",
            "",
            "",
        ]
    ),
    "\\di": "\n".join(
        [
            "           List of relations",
            " Schema | Name | Type  | Owner | Table ",
            "--------+------+-------+-------+-------",
            " public | i1   | index | root  | t1",
            "(1 row)",
            "",
            "",
        ]
    ),
    "\\du": "\n".join(
        [
            "                                   List of roles",
            " Role name |                         Attributes                         | Member of ",
            "-----------+------------------------------------------------------------+-----------",
            " postgres  | Superuser, Create role, Create DB, Replication, Bypass RLS | {}",
            " root      | Superuser, Create role, Create DB, Replication, Bypass RLS | {}",
            " rwadmin   | Superuser, Create role, Create DB, Replication, Bypass RLS | {}",
            "",
            "",
        ]
    ),
    "\\db": "\n".join(
        [
            "   List of tablespaces",
            " Name | Owner | Location ",
            "------+-------+----------",
            "(0 rows)",
            "",
            "",
        ]
    ),
}

_NO_TRACKING = (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&"
    "template=feature_request.yml"
)


def _error(*causes: str) -> str:
    head = "ERROR:  Failed to run the query\n\nCaused by"
    # psql ends the server's message (which ends in a newline) with one more
    if len(causes) == 1:
        return f"{head}:\n  {causes[0]}\n\n"
    listed = "".join(f"  {i}: {c}\n" for i, c in enumerate(causes, start=1))
    return f"{head} these errors (recent errors listed first):\n{listed}\n"


def _bind(expr: str, cause: str) -> str:
    return _error(f"Failed to bind expression: {expr}", cause)


def _collate(name: str) -> str:
    return _bind(
        f"c.relname OPERATOR(pg_catalog.~) '^({name})$' COLLATE pg_catalog.default AND "
        "pg_catalog.pg_table_is_visible(c.oid)",
        "Feature is not yet implemented: Collate collation other than `C` or `POSIX` is not "
        f"implemented\n{_NO_TRACKING}",
    )


def _not_supported(relation: str) -> str:
    return _error(
        f"Feature is not yet implemented: pg_catalog.{relation} is not supported, please use "
        "`SHOW` commands for now.\n`SHOW TABLES`,\n`SHOW MATERIALIZED VIEWS`,\n"
        "`DESCRIBE <table>`,\n`SHOW COLUMNS FROM [table]`\n\n"
        "Tracking issue: https://github.com/risingwavelabs/risingwave/issues/1695"
    )


def _unsupported_type(expr: str, name: str) -> str:
    return _bind(
        expr, f"Feature is not yet implemented: unsupported data type: {name}\n{_NO_TRACKING}"
    )


ERRORS = {
    **{f"\\d {n}": _collate(n) for n in ("t1", "i1", "mv1", "v1", "nosuch")},
    **{f"\\d+ {n}": _collate(n) for n in ("t1", "mv1", "v1")},
    "\\sv v1": _unsupported_type(
        "CAST(CAST('v1' AS pg_catalog.regclass) AS pg_catalog.oid)", "pg_catalog.oid"
    ),
    "\\sf v1": _unsupported_type(
        "CAST(CAST('v1' AS pg_catalog.regproc) AS pg_catalog.oid)", "pg_catalog.oid"
    ),
    "\\dp": _bind(
        "pg_catalog.array_to_string(c.relacl, E'\\n')", "Item not found: Invalid column: relacl"
    ),
    # ``pgc.tableoid AS tableoid``: the alias is checked before its expression is bound
    # (binder/select.rs:355, check_column_name_not_reserved)
    "\\dd": _error(
        'Invalid input syntax: column name "tableoid" conflicts with a system column name'
    ),
    "\\dC": _bind("c.castfunc = p.oid", "Item not found: Invalid column: castfunc"),
    "\\dt+": _bind(
        "pg_catalog.pg_size_pretty(pg_catalog.pg_table_size(c.oid))",
        "function pg_size_pretty(bigint) does not exist",
    ),
    "\\df": _bind(
        "pg_catalog.pg_get_function_result(p.oid)",
        "function pg_get_function_result(integer) does not exist",
    ),
    "\\dc": _bind(
        "true AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' AND "
        "pg_catalog.pg_conversion_is_visible(c.oid)",
        "function pg_conversion_is_visible(integer) does not exist",
    ),
    "\\do": _bind(
        "n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema' AND "
        "pg_catalog.pg_operator_is_visible(o.oid)",
        "function pg_operator_is_visible(integer) does not exist",
    ),
    "\\dx": _unsupported_type(
        "c.objoid = e.oid AND c.classoid = CAST('pg_catalog.pg_extension' AS pg_catalog.regclass)",
        "pg_catalog.regclass",
    ),
    "\\dy": _not_supported("pg_event_trigger"),
    "\\des": _not_supported("pg_foreign_server"),
    "\\dl": _not_supported("pg_largeobject_metadata"),
}


@pytest.fixture(scope="module")
def psql_server() -> Iterator[ThreadRunning]:
    """One server with the objects for every meta-command (they only read the catalog)."""
    ts = ThreadServer(*_config({}))
    running = ThreadRunning(ts.server, ts.server.host, ts.server.port, ts)
    r = running.psql("-c", SETUP)
    assert r.returncode == 0, r.stderr
    yield running
    ts.stop()


@pytest.mark.parametrize("command", list(EXPECTED))
def test_psql_meta_command(psql_server: ThreadRunning, command: str) -> None:
    r = psql_server.psql("-P", "pager=off", "-c", command)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == EXPECTED[command]


@pytest.mark.parametrize("command", list(ERRORS))
def test_psql_meta_command_fails_as_risingwave(psql_server: ThreadRunning, command: str) -> None:
    r = psql_server.psql("-P", "pager=off", "-c", command)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == ERRORS[command]
