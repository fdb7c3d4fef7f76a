"""The rw_catalog relations as SQLite SELECTs over the meta store.

Columns and their order come from RisingWave's own definitions (``system_catalogs.py``); this
module gives the rows.  Each entry names the RisingWave file whose reader or view SQL it
follows.  Relations scoped to "the current database" use ``rw_current_database_id()`` and hide
objects of INITIAL jobs (``visible_relation``), as the frontend never sees them.
"""

from __future__ import annotations

from rwshim.catalog_path.system_catalogs._sql import (
    CURRENT_DB,
    MODES_DATABASE,
    MODES_READONLY,
    MODES_SCHEMA,
    MODES_TABLE,
    acl,
    can_see,
    parallelism_text,
)
from rwshim.catalog_path.system_catalogs.functions import SQL as _FUNCTIONS_SQL
from rwshim.catalog_path.system_catalogs.secrets import SQL as _SECRETS_SQL
from rwshim.catalog_path.system_catalogs.secrets import props_with_secrets
from rwshim.common import pgtypes as t


def _visible(kind: str) -> str:
    """Relations ``r`` of ``kind`` in the current database that the user may see."""
    return (
        f"r.database_id = {CURRENT_DB} AND r.kind = '{kind}' "
        f"AND {can_see('r.relation_id', 'r.owner_id')}"
    )


def _rel(kind: str) -> str:
    return f"visible_relation r WHERE {_visible(kind)}"


_STATUS_TITLE = "CASE j.job_status WHEN 'CREATING' THEN 'Creating' ELSE 'Created' END"
_JOB_STATUS = "LEFT JOIN streaming_job j ON j.job_id = r.relation_id"
_SCHEMAS = f"schema s WHERE s.database_id = {CURRENT_DB}"

SQL: dict[str, str] = {}

# rw_databases.rs: every database.
SQL["rw_databases"] = f"""
SELECT d.database_id, d.name, d.owner_id, {acl("d.database_id", MODES_DATABASE)},
       d.resource_group, d.barrier_interval_ms, d.checkpoint_frequency
FROM database d ORDER BY d.database_id"""

# rw_schemas.rs: the schemas of the current database.
SQL["rw_schemas"] = f"""
SELECT s.schema_id, s.name, s.owner_id, {acl("s.schema_id", MODES_SCHEMA)}
FROM {_SCHEMAS} ORDER BY s.schema_id"""

# rw_users.rs
SQL["rw_users"] = """
SELECT user_id, name, is_super, can_create_db, can_create_user, can_login, is_admin
FROM rw_user ORDER BY user_id"""

# rw_tables.rs: user tables (iter_user_table_with_acl), definition = create_sql_purified.
SQL["rw_tables"] = f"""
SELECT r.relation_id, r.name, r.schema_id, r.owner_id, r.definition, r.append_only,
       r.refreshable, {acl("r.relation_id", MODES_TABLE)}, r.initialized_at, r.created_at,
       r.initialized_at_cluster_version, r.created_at_cluster_version
FROM {_rel("table")} ORDER BY r.relation_id"""

# rw_materialized_views.rs: creating ones included (iter_all_mvs_with_acl); acl with
# for_dml_table = true; status is StreamJobStatus's Display.
SQL["rw_materialized_views"] = f"""
SELECT r.relation_id, r.name, r.schema_id, s.name, r.owner_id, r.definition, r.append_only,
       {acl("r.relation_id", MODES_TABLE)}, r.initialized_at, r.created_at,
       r.initialized_at_cluster_version, r.created_at_cluster_version,
       COALESCE(j.create_type = 'BACKGROUND', 0), {_STATUS_TITLE}
FROM visible_relation r JOIN schema s ON s.schema_id = r.schema_id {_JOB_STATUS}
WHERE {_visible("materialized view")} ORDER BY r.relation_id"""

# rw_views.rs: user views and the builtin views of the current database's system schemas
# (root_catalog.rs create_schema registers them as views with ids >= SYS_CATALOG_START_ID).
SQL["rw_views"] = f"""
SELECT r.relation_id, r.name, r.schema_id, r.owner_id, r.definition,
       {acl("r.relation_id", MODES_TABLE)}, r.created_at, r.created_at_cluster_version
FROM {_rel("view")}
UNION ALL
SELECT v.id, v.name, s.schema_id, 1, v.definition, {acl("v.id", MODES_TABLE)}, NULL, NULL
FROM rwshim_sys_relation v JOIN schema s ON s.name = v.schema_name
WHERE v.kind = 'view' AND s.database_id = {CURRENT_DB} AND {can_see("v.id", "1")}"""

# rw_indexes.rs: key/include columns are 1-based positions in the primary table; acl empty.
_POSITIONS = (
    "(SELECT json_group_array(value + 1) FROM (SELECT value FROM json_each({}) ORDER BY key))"
)
SQL["rw_indexes"] = f"""
SELECT r.relation_id, r.name, r.primary_table_id,
       {_POSITIONS.format("COALESCE(r.index_key_columns, '[]')")},
       {_POSITIONS.format("COALESCE(r.index_include_columns, '[]')")},
       r.schema_id, r.owner_id, r.definition, '[]', r.initialized_at, r.created_at,
       r.initialized_at_cluster_version, r.created_at_cluster_version,
       COALESCE(j.create_type = 'BACKGROUND', 0)
FROM visible_relation r {_JOB_STATUS}
WHERE {_visible("index")} ORDER BY r.relation_id"""

# a source is append-only when its key is the hidden _row_id (source_catalog.rs:187)
_ROW_ID_KEY = """EXISTS (SELECT 1 FROM relation_column c WHERE c.relation_id = r.relation_id
               AND c.name = '_row_id' AND c.is_hidden)"""

# format / row_encode: as given, else the definition's FORMAT ... ENCODE (static.py
# definition_format: RisingWave's parser fills it in), else UNSPECIFIED
_FORMAT_ENCODE = """
       'FORMAT_TYPE_' || COALESCE(upper(r.format), rw_definition_format(r.definition, 1),
                                  'UNSPECIFIED'),
       'ENCODE_TYPE_' || COALESCE(upper(r.row_encode), rw_definition_format(r.definition, 2),
                                  'UNSPECIFIED')"""

# rw_sources.rs: connector upper-cased; format / encode as the prost enum names.  A table with
# a connector has an associated source (its own object id, kept in the table's
# primary_table_id: controller/streaming_job.rs:557-571), listed here as RisingWave's frontend
# lists it (schema_catalog.rs:230-247 keeps it among the sources): the table's name, owner,
# columns and definition (the same CREATE TABLE purified with the same columns),
# associated_table_id the table.
SQL["rw_sources"] = f"""
SELECT r.relation_id, r.name, r.schema_id, r.owner_id, upper(COALESCE(r.connector, '')),
       (SELECT json_group_array(name) FROM (SELECT c.name FROM relation_column c
        WHERE c.relation_id = r.relation_id ORDER BY c.position)),
       {_FORMAT_ENCODE},
       {_ROW_ID_KEY}, NULL, r.connection_id, r.definition, {acl("r.relation_id", MODES_READONLY)},
       r.initialized_at, r.created_at, r.initialized_at_cluster_version,
       r.created_at_cluster_version, r.is_shared,
       {props_with_secrets("r.with_options", "r.secret_refs")},
       {props_with_secrets("r.format_encode_options", "r.format_secret_refs")}
FROM {_rel("source")}
UNION ALL
SELECT r.primary_table_id, r.name, r.schema_id, r.owner_id, upper(r.connector),
       (SELECT json_group_array(name) FROM (SELECT c.name FROM relation_column c
        WHERE c.relation_id = r.relation_id ORDER BY c.position)),
       {_FORMAT_ENCODE},
       {_ROW_ID_KEY},
       r.relation_id, r.connection_id, r.definition, {acl("r.primary_table_id", MODES_READONLY)},
       r.initialized_at, r.created_at, r.initialized_at_cluster_version,
       r.created_at_cluster_version, 0,
       {props_with_secrets("r.with_options", "r.secret_refs")},
       {props_with_secrets("r.format_encode_options", "r.format_secret_refs")}
FROM visible_relation r
WHERE r.database_id = {CURRENT_DB} AND r.kind = 'table' AND r.primary_table_id IS NOT NULL
  AND {can_see("r.primary_table_id", "r.owner_id")}
ORDER BY 1"""

# rw_sinks.rs: sink_type is the prost SinkType name (force-append-only folds into append-only,
# connector/src/sink/catalog/mod.rs:70-90); format_encode_options is JSON null without FORMAT.
SQL["rw_sinks"] = f"""
SELECT r.relation_id, r.name, r.schema_id, r.owner_id, upper(COALESCE(r.connector, '')),
       CASE r.sink_type WHEN 'upsert' THEN 'SINK_TYPE_UPSERT'
            WHEN 'retract' THEN 'SINK_TYPE_RETRACT' ELSE 'SINK_TYPE_APPEND_ONLY' END,
       r.connection_id, r.definition,
       (SELECT t.name FROM relation t WHERE t.relation_id = r.target_table_id),
       {acl("r.relation_id", MODES_READONLY)}, r.initialized_at, r.created_at,
       r.initialized_at_cluster_version, r.created_at_cluster_version,
       COALESCE(j.create_type = 'BACKGROUND', 0),
       {props_with_secrets("r.with_options", "r.secret_refs")},
       CASE WHEN r.format IS NULL AND r.format_encode_options = '{{}}'
                 AND r.format_secret_refs = '{{}}' THEN 'null'
            ELSE {props_with_secrets("r.format_encode_options", "r.format_secret_refs")} END
FROM visible_relation r {_JOB_STATUS}
WHERE {_visible("sink")} ORDER BY r.relation_id"""

# rw_system_tables.rs: builtin tables in the current database's system schemas.
SQL["rw_system_tables"] = f"""
SELECT v.id, v.name, s.schema_id, 1, NULL, {acl("v.id", MODES_READONLY)}
FROM rwshim_sys_relation v JOIN schema s ON s.name = v.schema_name
WHERE v.kind = 'table' AND s.database_id = {CURRENT_DB} ORDER BY v.id"""

# rw_internal_tables.rs: state tables of the current database's jobs.
SQL["rw_internal_tables"] = f"""
SELECT r.relation_id, r.name, r.schema_id, r.owner_job_id, r.owner_id, r.definition,
       {acl("r.relation_id", MODES_READONLY)}, r.initialized_at, r.created_at,
       r.initialized_at_cluster_version, r.created_at_cluster_version
FROM {_rel("internal")} ORDER BY r.relation_id"""

_UDT = """COALESCE(CASE WHEN c.rw_type = 'serial' THEN 'serial' END, t.udt,
    CASE c.type_oid WHEN 2249 THEN 'struct' WHEN 1303 THEN 'map' END,
    CASE WHEN c.rw_type LIKE '%[]' THEN 'list' END, c.rw_type)"""
_LEN = "COALESCE(CASE WHEN c.rw_type = 'serial' THEN 8 END, t.typlen, -1)"

# The column facts of rw_columns for user relations and for the builtin catalogs, by name, so
# that information_schema.columns can select them next to the relation and schema names.
USER_COLUMN = {
    "relation_id": "c.relation_id",
    "name": "c.name",
    "position": "c.position + 1",
    "is_hidden": "c.is_hidden",
    "is_primary_key": "CASE WHEN r.kind = 'view' THEN 0 ELSE c.pk_position IS NOT NULL END",
    "is_distribution_key": """CASE WHEN r.kind = 'index' THEN c.position = 0
            WHEN r.kind IN ('table', 'materialized view') THEN c.pk_position IS NOT NULL
            ELSE 0 END""",
    "is_generated": "c.generated_expr IS NOT NULL AND r.kind <> 'view'",
    "is_nullable": "c.is_nullable",
    "generation_expression": "CASE WHEN r.kind <> 'view' THEN c.generated_expr END",
    "data_type": "c.rw_type",
    "type_oid": "c.type_oid",
    "type_len": _LEN,
    "udt_type": _UDT,
    "relation_name": "r.name",
    "schema_name": "s.name",
}
USER_COLUMN_FROM = f"""
FROM visible_relation r JOIN schema s ON s.schema_id = r.schema_id
JOIN relation_column c ON c.relation_id = r.relation_id
LEFT JOIN rwshim_type t ON t.oid = c.type_oid
WHERE r.database_id = {CURRENT_DB} AND r.kind IN ('view', 'sink', 'table', 'materialized view',
      'index', 'source') AND {can_see("r.relation_id", "r.owner_id")}
  AND NOT (r.kind = 'source' AND EXISTS (SELECT 1 FROM visible_relation a
           WHERE a.kind = 'table' AND a.primary_table_id = r.relation_id))"""
SYSTEM_COLUMN = {
    "relation_id": "c.relation_id",
    "name": "c.name",
    "position": "c.position",
    "is_hidden": "0",
    "is_primary_key": "c.is_pk AND v.kind = 'table'",
    "is_distribution_key": "0",
    "is_generated": "0",
    "is_nullable": "1",
    "generation_expression": "NULL",
    "data_type": """COALESCE(t.display,
                (SELECT e.display || '[]' FROM rwshim_type e WHERE e.typarray = c.type_oid))""",
    "type_oid": "c.type_oid",
    "type_len": "COALESCE(t.typlen, -1)",
    "udt_type": "COALESCE(t.udt, 'list')",
    "relation_name": "v.name",
    "schema_name": "s.name",
}
SYSTEM_COLUMN_FROM = f"""
FROM rwshim_sys_relation v JOIN schema s ON s.name = v.schema_name
JOIN rwshim_sys_column c ON c.relation_id = v.id LEFT JOIN rwshim_type t ON t.oid = c.type_oid
WHERE s.database_id = {CURRENT_DB} AND (v.kind = 'table' OR {can_see("v.id", "1")})"""

_RW_COLUMNS = ("relation_id", "name", "position", "is_hidden", "is_primary_key",
               "is_distribution_key", "is_generated", "is_nullable", "generation_expression",
               "data_type", "type_oid", "type_len", "udt_type")  # fmt: skip

# rw_columns.rs: views, sinks, system tables and views, tables/MVs/indexes, and sources without
# an associated table; data_type is DataType's Display, udt_type its pg_name.  The store keeps no
# distribution key: tables and MVs are distributed by their primary (stream) key and an index
# by its first key column, RisingWave's defaults.
# Every table, MV and index also lists the hidden system column ``_rw_timestamp`` last: the
# frontend appends it to each TableCatalog it loads, never persisted (table_catalog.rs:815-820,
# ColumnCatalog::rw_timestamp_column, column id -1).
RW_TIMESTAMP_KINDS = ("table", "materialized view", "index")
_RW_TIMESTAMP_ROWS = f"""
SELECT r.relation_id, '_rw_timestamp',
       (SELECT count(*) + 1 FROM relation_column n WHERE n.relation_id = r.relation_id),
       1, 0, 0, 0, 1, NULL, 'timestamp with time zone', {t.TIMESTAMPTZ}, 8, 'timestamptz'
FROM visible_relation r
WHERE r.database_id = {CURRENT_DB} AND r.kind IN {RW_TIMESTAMP_KINDS!r}
  AND {can_see("r.relation_id", "r.owner_id")}
  AND NOT EXISTS (SELECT 1 FROM relation_column n WHERE n.relation_id = r.relation_id
                  AND n.name = '_rw_timestamp')"""
SQL["rw_columns"] = (
    "SELECT " + ", ".join(USER_COLUMN[k] for k in _RW_COLUMNS) + USER_COLUMN_FROM
    + "\nUNION ALL" + _RW_TIMESTAMP_ROWS
    + "\nUNION ALL\nSELECT " + ", ".join(SYSTEM_COLUMN[k] for k in _RW_COLUMNS)
    + SYSTEM_COLUMN_FROM
)  # fmt: skip

# rw_depend.rs: object dependencies (all databases).
SQL["rw_depend"] = "SELECT dependent_id, referenced_id FROM object_dependency"

# rw_description.rs: every user table of the current database (outside rw_catalog), one row for
# the table (objsubid NULL) and one per column (objsubid = column id), with the rw_tables id as
# classoid.
SQL["rw_description"] = f"""
SELECT r.relation_id, (SELECT id FROM rwshim_sys_relation WHERE schema_name = 'rw_catalog'
       AND name = 'rw_tables'), NULL,
       (SELECT description FROM comment m WHERE m.object_id = r.relation_id AND m.objsubid = 0)
FROM visible_relation r WHERE r.database_id = {CURRENT_DB} AND r.kind = 'table'
UNION ALL
SELECT r.relation_id, (SELECT id FROM rwshim_sys_relation WHERE schema_name = 'rw_catalog'
       AND name = 'rw_tables'), c.column_id,
       (SELECT description FROM comment m WHERE m.object_id = r.relation_id
        AND m.objsubid = c.position + 1)
FROM visible_relation r JOIN relation_column c ON c.relation_id = r.relation_id
WHERE r.database_id = {CURRENT_DB} AND r.kind = 'table'
UNION ALL
SELECT r.relation_id, (SELECT id FROM rwshim_sys_relation WHERE schema_name = 'rw_catalog'
       AND name = 'rw_tables'), -1, NULL
FROM visible_relation r WHERE r.database_id = {CURRENT_DB} AND r.kind = 'table'
  AND NOT EXISTS (SELECT 1 FROM relation_column n WHERE n.relation_id = r.relation_id
                  AND n.name = '_rw_timestamp')"""

# rw_types.rs: RW_TYPE_DATA.
SQL["rw_types"] = "SELECT oid, typname, typinput, typelem, typarray FROM rwshim_type ORDER BY ord"

# rw_streaming_jobs.rs / rw_table_fragments.rs: list_streaming_job_states (every database,
# INITIAL jobs included, status as the prost JobStatus name); rw_job_parallelism and
# rw_policy_parallelism (rwshim/store/functions.py) give the release's rendering.
_JOB_PARALLELISM = parallelism_text(
    "j.parallelism_kind", "j.parallelism_fixed", "j.adaptive_parallelism_strategy"
)
# list_streaming_job_states shows the backfill override while a job is not CREATED
# (effective_streaming_job_parallelism, src/meta/service/src/stream_service.rs:87-102).
_BACKFILLING = "j.job_status <> 'CREATED' AND j.backfill_parallelism_kind IS NOT NULL"
_EFFECTIVE_PARALLELISM = parallelism_text(
    f"CASE WHEN {_BACKFILLING} THEN j.backfill_parallelism_kind ELSE j.parallelism_kind END",
    f"CASE WHEN {_BACKFILLING} THEN j.backfill_parallelism_fixed ELSE j.parallelism_fixed END",
    "CASE WHEN j.job_status <> 'CREATED' THEN COALESCE("
    "j.backfill_adaptive_parallelism_strategy, j.adaptive_parallelism_strategy) "
    "ELSE j.adaptive_parallelism_strategy END",
)
_JOB_NAME = "(SELECT r.name FROM relation r WHERE r.relation_id = j.job_id)"
# Joins rather than per-row subqueries, so `name = ...` and `id = ...` use the indexes.
SQL["rw_streaming_jobs"] = f"""
SELECT j.job_id, r.name, j.database_id, j.job_status, rw_job_parallelism({_EFFECTIVE_PARALLELISM}),
       j.max_parallelism, COALESCE(j.specific_resource_group, d.resource_group, 'default')
FROM streaming_job j LEFT JOIN relation r ON r.relation_id = j.job_id
LEFT JOIN database d ON d.database_id = j.database_id ORDER BY j.job_id"""
SQL["rw_table_fragments"] = f"""
SELECT j.job_id, j.job_status, rw_job_parallelism({_EFFECTIVE_PARALLELISM}), j.max_parallelism
FROM streaming_job j ORDER BY j.job_id"""

# rw_fragments.rs; parallelism_policy per fragment.rs:1496-1553 (single, override(p),
# upstream_fragment([roots of its NoShuffle ensemble]), inherit(p)).
_OVERRIDE = parallelism_text(
    "f.parallelism_override_kind", "f.parallelism_override_fixed",
    "j.adaptive_parallelism_strategy",
)  # fmt: skip
SQL["rw_fragments"] = f"""
WITH RECURSIVE up(fragment_id, ancestor) AS (
    SELECT target_fragment_id, source_fragment_id FROM fragment_relation
    WHERE dispatcher_type = 'NoShuffle'
    UNION
    SELECT up.fragment_id, e.source_fragment_id FROM up JOIN fragment_relation e
    ON e.target_fragment_id = up.ancestor AND e.dispatcher_type = 'NoShuffle'
), roots(fragment_id, root) AS (
    SELECT up.fragment_id, up.ancestor FROM up WHERE NOT EXISTS (
        SELECT 1 FROM fragment_relation e WHERE e.target_fragment_id = up.ancestor
        AND e.dispatcher_type = 'NoShuffle')
)
SELECT f.fragment_id, f.job_id, f.distribution_type, json(f.state_table_ids),
       (SELECT json_group_array(src) FROM (SELECT e.source_fragment_id AS src
        FROM fragment_relation e WHERE e.target_fragment_id = f.fragment_id ORDER BY src)),
       json(f.flags),
       (SELECT count(*) FROM actor a WHERE a.fragment_id = f.fragment_id),
       f.vnode_count,
       CASE WHEN f.distribution_type = 'SINGLE' THEN 'single'
            WHEN f.parallelism_override_kind IS NOT NULL
            THEN 'override(' || rw_policy_parallelism({_OVERRIDE}) || ')'
            WHEN EXISTS (SELECT 1 FROM roots WHERE roots.fragment_id = f.fragment_id)
            THEN 'upstream_fragment([' || (SELECT group_concat(root, ', ') FROM (SELECT DISTINCT
                 root FROM roots WHERE roots.fragment_id = f.fragment_id ORDER BY root)) || '])'
            ELSE 'inherit(' || rw_policy_parallelism({_JOB_PARALLELISM}) || ')' END
FROM fragment f JOIN streaming_job j ON j.job_id = f.job_id ORDER BY f.fragment_id"""

# rw_actors.rs: state is always RUNNING.
SQL["rw_actors"] = """
SELECT a.actor_id, a.fragment_id, a.worker_id, 'RUNNING' FROM actor a ORDER BY a.actor_id"""

# rw_actor_infos.rs: node / dispatcher are prost messages as JSON; rwshim has no stream plans,
# so they are JSON null.
SQL["rw_actor_infos"] = """
SELECT a.actor_id, a.fragment_id, 'null', 'null' FROM actor a ORDER BY a.actor_id"""

# rw_ddl_progress.rs over GlobalBarrierManager::get_ddl_progress: INITIAL and CREATING jobs of
# every database except shared sources, with the progress text the engine keeps at every
# barrier (streaming_job.progress, barrier/progress.rs:246-296, creating_job/mod.rs:757-793).
SQL["rw_ddl_progress"] = """
SELECT j.job_id, r.definition, j.create_type, j.progress, r.initialized_at,
       j.is_serverless_backfill, j.backfill_type
FROM streaming_job j JOIN relation r ON r.relation_id = j.job_id
WHERE j.job_status IN ('INITIAL', 'CREATING') AND r.kind <> 'source' ORDER BY j.job_id"""

# rw_event_logs.rs: sorted by timestamp (engine/events.py keeps them).
SQL["rw_event_logs"] = """
SELECT unique_id, timestamp, event_type, info FROM event_log ORDER BY timestamp, rowid"""

# rw_worker_nodes.rs: sorted by id; is_streaming / is_serving / resource_group only for compute
# nodes; internal_rpc_host_addr the frontend's host with its RPC port (frontend_rpc_listener_addr,
# default 6786: src/frontend/src/session.rs:324-328, lib.rs:130-135), '' for a compute node
# (src/compute/src/server.rs:134); started_at in whole seconds (Timestamptz::from_secs).
SQL["rw_worker_nodes"] = """
SELECT w.worker_id, w.host, CAST(w.port AS TEXT), w.worker_type, w.state,
       CASE WHEN w.worker_type = 'WORKER_TYPE_COMPUTE_NODE' THEN w.parallelism END,
       CASE WHEN w.worker_type = 'WORKER_TYPE_COMPUTE_NODE' THEN w.is_streaming END,
       CASE WHEN w.worker_type = 'WORKER_TYPE_COMPUTE_NODE' THEN w.is_serving END,
       CASE WHEN w.worker_type = 'WORKER_TYPE_FRONTEND' THEN w.host || ':6786' ELSE '' END,
       NULL, NULL, NULL, substr(w.started_at, 1, 19) || '.000000+00:00',
       CASE WHEN w.worker_type = 'WORKER_TYPE_COMPUTE_NODE'
            THEN COALESCE(w.resource_group, 'default') END,
       CASE WHEN w.worker_type = 'WORKER_TYPE_COMPACTOR' THEN 0 END
FROM worker w ORDER BY w.worker_id"""

# rw_relations.rs (view).
SQL["rw_relations"] = """
SELECT id, name, 'table', schema_id, owner, definition, acl FROM rw_catalog__rw_tables
UNION ALL SELECT id, name, 'system table', schema_id, owner, definition, acl
FROM rw_catalog__rw_system_tables
UNION ALL SELECT id, name, 'source', schema_id, owner, definition, acl FROM rw_catalog__rw_sources
UNION ALL SELECT id, name, 'index', schema_id, owner, definition, acl FROM rw_catalog__rw_indexes
UNION ALL SELECT id, name, 'sink', schema_id, owner, definition, acl FROM rw_catalog__rw_sinks
UNION ALL SELECT id, name, 'subscription', schema_id, owner, definition, acl
FROM rw_catalog__rw_subscriptions
UNION ALL SELECT id, name, 'materialized view', schema_id, owner, definition, acl
FROM rw_catalog__rw_materialized_views
UNION ALL SELECT id, name, 'view', schema_id, owner, definition, acl FROM rw_catalog__rw_views"""

_ALL_JOBS = """
    SELECT id, name, 'table' AS relation_type FROM rw_catalog__rw_tables
    UNION ALL SELECT id, name, 'materialized view' FROM rw_catalog__rw_materialized_views
    UNION ALL SELECT id, name, 'sink' FROM rw_catalog__rw_sinks
    UNION ALL SELECT id, name, 'index' FROM rw_catalog__rw_indexes"""

# rw_streaming_parallelism.rs (view).
SQL["rw_streaming_parallelism"] = f"""
WITH all_streaming_jobs AS ({_ALL_JOBS}
    UNION ALL SELECT id, name, 'source' FROM rw_catalog__rw_sources WHERE is_shared)
SELECT job.id, job.name, job.relation_type, tf.parallelism, tf.max_parallelism
FROM all_streaming_jobs job JOIN rw_catalog__rw_table_fragments tf ON job.id = tf.table_id
ORDER BY job.id"""

# rw_fragment_parallelism.rs (view).
SQL["rw_fragment_parallelism"] = f"""
WITH all_streaming_jobs AS ({_ALL_JOBS})
SELECT job.id, job.name, job.relation_type, f.fragment_id, f.distribution_type,
       f.state_table_ids, f.upstream_fragment_ids, f.flags, f.parallelism, f.max_parallelism,
       f.parallelism_policy
FROM all_streaming_jobs job JOIN rw_catalog__rw_fragments f ON job.id = f.table_id
ORDER BY job.id"""

# rw_streaming_job_info.rs (view).
SQL["rw_streaming_job_info"] = """
SELECT j.id, j.name, d.name, j.status, j.parallelism, j.max_parallelism, j.resource_group
FROM rw_catalog__rw_streaming_jobs j JOIN rw_catalog__rw_databases d ON j.database_id = d.id"""

# rw_fragment_id_to_ddl.rs (view).
SQL["rw_fragment_id_to_ddl"] = """
WITH all_streaming_jobs AS (
    SELECT id AS job_id, schema_id, 'mv' AS ddl_type, name FROM rw_catalog__rw_materialized_views
    UNION ALL SELECT id, schema_id, 'sink', name FROM rw_catalog__rw_sinks
    UNION ALL SELECT id, schema_id, 'source', name FROM rw_catalog__rw_sources
    UNION ALL SELECT id, schema_id, 'table', name FROM rw_catalog__rw_tables
    UNION ALL SELECT id, schema_id, 'index', name FROM rw_catalog__rw_indexes)
SELECT f.fragment_id, job.job_id, job.schema_id, job.ddl_type, job.name
FROM all_streaming_jobs job JOIN rw_catalog__rw_fragments f ON job.job_id = f.table_id"""

# rw_actor_id_to_ddl.rs (view).
SQL["rw_actor_id_to_ddl"] = """
WITH a AS (SELECT actor_id, a.fragment_id, table_id FROM rw_catalog__rw_fragments f
           JOIN rw_catalog__rw_actors a ON f.fragment_id = a.fragment_id)
SELECT actor_id, fragment_id, d.id, schema_id, 'mv', name
FROM rw_catalog__rw_materialized_views d JOIN a ON d.id = a.table_id
UNION ALL SELECT actor_id, fragment_id, d.id, schema_id, 'sink', name
FROM rw_catalog__rw_sinks d JOIN a ON d.id = a.table_id
UNION ALL SELECT actor_id, fragment_id, d.id, schema_id, 'source', name
FROM rw_catalog__rw_sources d JOIN a ON d.id = a.table_id
UNION ALL SELECT actor_id, fragment_id, d.id, schema_id, 'table', name
FROM rw_catalog__rw_tables d JOIN a ON d.id = a.table_id"""

# rw_worker_actor_count.rs (view).
SQL["rw_worker_actor_count"] = """
SELECT t2.id, t2.parallelism, count(*) FROM rw_catalog__rw_actors t1,
       rw_catalog__rw_worker_nodes t2
WHERE t1.worker_id = t2.id GROUP BY t2.id, t2.parallelism"""

# rw_internal_table_info.rs (view).
SQL["rw_internal_table_info"] = """
WITH all_streaming_jobs AS (
    SELECT id, name, 'table' AS job_type, schema_id, owner FROM rw_catalog__rw_tables
    UNION ALL SELECT id, name, 'materialized view', schema_id, owner
    FROM rw_catalog__rw_materialized_views
    UNION ALL SELECT id, name, 'sink', schema_id, owner FROM rw_catalog__rw_sinks
    UNION ALL SELECT id, name, 'index', schema_id, owner FROM rw_catalog__rw_indexes
    UNION ALL SELECT id, name, 'source', schema_id, owner FROM rw_catalog__rw_sources
    WHERE is_shared)
SELECT i.id, i.name, j.id, j.name, j.job_type, s.name, u.name
FROM rw_catalog__rw_internal_tables i JOIN all_streaming_jobs j ON i.job_id = j.id
JOIN rw_catalog__rw_schemas s ON j.schema_id = s.id JOIN rw_catalog__rw_users u ON j.owner = u.id"""

# rw_rate_limit.rs over list_rate_limits (controller/streaming_job.rs:3735-3800): one row per
# rate-limited node of a fragment whose limit is set (an unset Option<u32> gives no row), in
# visit order (the fragment's root first: a sink's Sink before its StreamScan).  The nodes:
# Source with a source (a table without a connector has none), StreamFsFetch, Sink (the
# fragment's ``rate_limit``), StreamScan and SourceBackfill (``backfill_rate_limit``).  A Dml
# node is not one of them (its limit shows in no row).
_LIMIT_NODE = """CASE WHEN f.flags LIKE '%"SINK"%' THEN 'SINK'
            WHEN f.flags LIKE '%"FS_FETCH"%' THEN 'FS_FETCH'
            WHEN f.flags LIKE '%"SOURCE"%'
                 AND NOT (r.kind IS 'table' AND r.connector IS NULL) THEN 'SOURCE'
            END"""
_BACKFILL_NODE = """CASE WHEN f.flags LIKE '%"SOURCE_SCAN"%' THEN 'SOURCE_BACKFILL'
            WHEN f.flags LIKE '%STREAM_SCAN"%' THEN 'STREAM_SCAN' END"""
SQL["rw_rate_limit"] = f"""
SELECT fragment_id, flags, node_name, job_id, rate_limit FROM (
SELECT f.fragment_id, json(f.flags) AS flags, {_LIMIT_NODE} AS node_name, f.job_id,
       f.rate_limit, 0 AS visit
FROM fragment f LEFT JOIN relation r ON r.relation_id = f.job_id WHERE f.rate_limit IS NOT NULL
UNION ALL
SELECT f.fragment_id, json(f.flags), {_BACKFILL_NODE}, f.job_id, f.backfill_rate_limit, 1
FROM fragment f WHERE f.backfill_rate_limit IS NOT NULL)
WHERE node_name IS NOT NULL ORDER BY fragment_id, visit"""

# rw_backfill_info.rs: scan fragments of creating jobs.
SQL["rw_backfill_info"] = """
SELECT f.job_id, f.fragment_id,
       COALESCE((SELECT i.relation_id FROM relation i WHERE i.kind = 'internal'
                 AND i.fragment_id = f.fragment_id ORDER BY i.relation_id LIMIT 1), 0),
       f.scan_relation_id,
       CASE WHEN f.flags LIKE '%"SOURCE_SCAN"%' THEN 'Source'
            WHEN f.flags LIKE '%SNAPSHOT_BACKFILL_STREAM_SCAN%' THEN 'SnapshotBackfill'
            ELSE 'ArrangementOrNoShuffle' END,
       CASE WHEN f.flags LIKE '%SNAPSHOT_BACKFILL_STREAM_SCAN%' THEN j.creating_epoch ELSE 0 END
FROM fragment f JOIN streaming_job j ON j.job_id = f.job_id
WHERE j.job_status = 'CREATING' AND f.scan_relation_id IS NOT NULL ORDER BY f.fragment_id"""

# rw_relation_info.rs: per schema, created MVs, tables, sinks and indexes that have fragments,
# then every source (fragments only for a shared one).  ``fragments`` is the job's fragments as
# JSON keyed by fragment id; rwshim has no stream plans, so each fragment carries its id,
# distribution, flags, state tables, upstreams and actor ids only.
_FRAGMENTS_JSON = """(SELECT json_group_object(CAST(f.fragment_id AS TEXT), json_object(
        'fragmentId', f.fragment_id, 'distributionType', f.distribution_type,
        'fragmentTypeFlags', json(f.flags), 'stateTableIds', json(f.state_table_ids),
        'upstreamFragmentIds', (SELECT json_group_array(e.source_fragment_id)
            FROM fragment_relation e WHERE e.target_fragment_id = f.fragment_id),
        'actors', (SELECT json_group_array(json_object('actorId', a.actor_id))
                   FROM actor a WHERE a.fragment_id = f.fragment_id)))
     FROM fragment f WHERE f.job_id = r.relation_id)"""
_HAS_FRAGMENTS = "EXISTS (SELECT 1 FROM fragment f WHERE f.job_id = r.relation_id)"
_RELINFO = """SELECT s.name AS c1, r.name AS c2, r.owner_id AS c3, r.definition AS c4,
       '{label}' AS c5, r.relation_id AS c6, {tz} AS c7, {frags} AS c8, r.initialized_at AS c9,
       r.created_at AS c10, r.initialized_at_cluster_version AS c11,
       r.created_at_cluster_version AS c12, s.schema_id AS s_order, {order} AS k_order
FROM visible_relation r JOIN schema s ON s.schema_id = r.schema_id
LEFT JOIN streaming_job j ON j.job_id = r.relation_id
WHERE r.database_id = {db} AND r.kind = '{kind}' AND {visible}{cond}"""


def _relinfo(kind: str, label: str, order: int, cond: str, shared_only: bool = False) -> str:
    tz = "COALESCE(j.timezone, 'UTC')"
    frags = _FRAGMENTS_JSON
    if shared_only:
        tz = f"CASE WHEN r.is_shared AND {_HAS_FRAGMENTS} THEN {tz} ELSE '' END"
        frags = f"CASE WHEN r.is_shared AND {_HAS_FRAGMENTS} THEN {frags} END"
    return _RELINFO.format(
        label=label, tz=tz, frags=frags, order=order, db=CURRENT_DB, kind=kind,
        visible=can_see("r.relation_id", "r.owner_id"), cond=cond,
    )  # fmt: skip


SQL["rw_relation_info"] = (
    "SELECT c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12 FROM ("
    + " UNION ALL ".join(
        [
            _relinfo(
                "materialized view",
                "MATERIALIZED VIEW",
                0,
                f" AND j.job_status = 'CREATED' AND {_HAS_FRAGMENTS}",
            ),
            _relinfo("table", "TABLE", 1, f" AND {_HAS_FRAGMENTS}"),
            _relinfo("sink", "SINK", 2, f" AND {_HAS_FRAGMENTS}"),
            _relinfo("index", "INDEX", 3, f" AND {_HAS_FRAGMENTS}"),
            _relinfo("source", "SOURCE", 4, "", shared_only=True),
        ]
    )
    + ") ORDER BY s_order, k_order, c6"
)

# rw_streaming_job_config.rs: each job's config override (TOML) flattened to dot-separated keys.
SQL["rw_streaming_job_config"] = f"""
SELECT j.job_id, {_JOB_NAME}, j.database_id, json_extract(kv.value, '$[0]'),
       json_extract(kv.value, '$[1]')
FROM streaming_job j, json_each(rw_toml_flatten(j.config_override)) kv
ORDER BY j.job_id, kv.key"""

# rw_resource_groups.rs (view).
SQL["rw_resource_groups"] = """
WITH all_groups AS (
    SELECT DISTINCT resource_group FROM (
        SELECT resource_group FROM rw_catalog__rw_worker_nodes WHERE is_streaming
        UNION ALL SELECT resource_group FROM rw_catalog__rw_databases
        UNION ALL SELECT resource_group FROM rw_catalog__rw_streaming_jobs) t),
worker_node_stats AS (
    SELECT resource_group, count(*) AS streaming_workers, sum(parallelism) AS parallelism
    FROM rw_catalog__rw_worker_nodes WHERE is_streaming GROUP BY resource_group),
database_stats AS (
    SELECT resource_group, count(*) AS databases FROM rw_catalog__rw_databases
    GROUP BY resource_group),
streaming_job_stats AS (
    SELECT resource_group, count(*) AS streaming_jobs FROM rw_catalog__rw_streaming_jobs
    GROUP BY resource_group)
SELECT ag.resource_group, COALESCE(w.streaming_workers, 0), COALESCE(w.parallelism, 0),
       COALESCE(d.databases, 0), COALESCE(j.streaming_jobs, 0)
FROM all_groups ag
LEFT JOIN worker_node_stats w ON ag.resource_group = w.resource_group
LEFT JOIN database_stats d ON ag.resource_group = d.resource_group
LEFT JOIN streaming_job_stats j ON ag.resource_group = j.resource_group"""

# rw_secrets.rs, rw_connections.rs (rwshim/catalog_path/system_catalogs/secrets.py)
SQL.update(_SECRETS_SQL)

# rw_functions.rs (rwshim/catalog_path/system_catalogs/functions.py)
SQL.update(_FUNCTIONS_SQL)
