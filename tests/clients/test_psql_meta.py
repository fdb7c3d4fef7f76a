"""psql 15 meta-commands against a real rwshim server, each output compared whole.

The layout is psql's own (it formats what the catalog queries in clients.md §3.1 return); the
contents are RisingWave's catalog: system tables of ``rw_catalog`` are relkind 'r' and always
visible (pg_table_is_visible.rs), system views relkind 'v'; ``pg_attribute.attnotnull`` is
always false (pg_attribute.rs), so no column reads "not null"; owners are the creating user;
``pg_get_viewdef`` is the MV's query (pg_get_viewdef.rs). RisingWave itself cannot answer
``\\d name`` (its pg_class lacks relchecks, relhasindex, ...; clients.md §3); rwshim answers it,
with each index's definition as RisingWave's ``pg_get_indexdef`` renders it (the CREATE
statement).
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
    "\\d t1": "\n".join(
        [
            '                      Table "public.t1"',
            " Column |       Type        | Collation | Nullable | Default ",
            "--------+-------------------+-----------+----------+---------",
            " id     | integer           |           |          | ",
            " name   | character varying |           |          | ",
            " v      | double precision  |           |          | ",
            "Indexes:",
            '    "t1" PRIMARY KEY, CREATE TABLE t1 (id INT PRIMARY KEY, name CHARACTER VARYING, v DOUBLE PRECISION)',
            '    "i1" CREATE INDEX i1 ON t1(name)',
            "",
            "",
        ]
    ),
    "\\d mv1": "\n".join(
        [
            '          Materialized view "public.mv1"',
            " Column |  Type   | Collation | Nullable | Default ",
            "--------+---------+-----------+----------+---------",
            " id     | integer |           |          | ",
            " n      | bigint  |           |          | ",
            "",
            "",
        ]
    ),
    "\\d+ mv1": "\n".join(
        [
            '                              Materialized view "public.mv1"',
            " Column |  Type   | Collation | Nullable | Default | Storage | Stats target | Description ",
            "--------+---------+-----------+----------+---------+---------+--------------+-------------",
            " id     | integer |           |          |         | plain   |              | ",
            " n      | bigint  |           |          |         | plain   |              | ",
            "View definition:",
            "SELECT id, count(*) AS n FROM t1 GROUP BY id",
            "",
            "",
        ]
    ),
    "\\d v1": "\n".join(
        [
            '                 View "public.v1"',
            " Column |  Type   | Collation | Nullable | Default ",
            "--------+---------+-----------+----------+---------",
            " id     | integer |           |          | ",
            "",
            "",
        ]
    ),
    "\\d+ v1": "\n".join(
        [
            '                             View "public.v1"',
            " Column |  Type   | Collation | Nullable | Default | Storage | Description ",
            "--------+---------+-----------+----------+---------+---------+-------------",
            " id     | integer |           |          |         | plain   | ",
            "View definition:",
            "SELECT id FROM t1",
            "",
            "",
        ]
    ),
    "\\dt+": "\n".join(
        [
            "                                                   List of relations",
            "   Schema   |                Name                 | Type  | Owner | Persistence | Access method |  Size   | Description ",
            "------------+-------------------------------------+-------+-------+-------------+---------------+---------+-------------",
            " public     | t1                                  | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | iceberg_namespace_properties        | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | iceberg_tables                      | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_actor_infos                      | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_actor_splits                     | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_actors                           | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_backfill_info                    | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_cdc_progress                     | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_columns                          | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_connections                      | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_databases                        | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_ddl_progress                     | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_depend                           | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_description                      | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_event_logs                       | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_features                         | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_fragment_infos                   | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_fragments                        | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_functions                        | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_branched_objects         | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_checkpoint_version       | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_compact_task_assignment  | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_compact_task_progress    | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_compaction_group_configs | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_current_version          | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_meta_configs             | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_pinned_versions          | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_snapshot                 | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_sstables                 | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_table_change_log         | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_table_watermark          | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_hummock_version_deltas           | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_iceberg_all_files                | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_iceberg_compaction_schedules     | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_iceberg_files                    | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_iceberg_snapshots                | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_indexes                          | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_internal_tables                  | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_kafka_source_metrics             | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_materialized_views               | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_meta_snapshot                    | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_rate_limit                       | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_refresh_table_state              | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_relation_info                    | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_schemas                          | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_secrets                          | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_sink_log_store_tables            | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_sinks                            | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_sources                          | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_streaming_job_config             | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_streaming_jobs                   | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_subscriptions                    | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_system_tables                    | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_table_fragments                  | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_table_stats                      | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_tables                           | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_types                            | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_unmigrated_tables                | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_user_secrets                     | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_users                            | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_views                            | table | root  | permanent   |               | 0 bytes | ",
            " rw_catalog | rw_worker_nodes                     | table | root  | permanent   |               | 0 bytes | ",
            "(62 rows)",
            "",
            "",
        ]
    ),
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


def test_psql_describe_missing_relation(psql_server: ThreadRunning) -> None:
    r = psql_server.psql("-P", "pager=off", "-c", "\\d nosuch")
    assert (r.returncode, r.stdout, r.stderr) == (
        1,
        "",
        'Did not find any relation named "nosuch".\n',
    )
