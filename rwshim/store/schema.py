"""The meta store's schema: every table and column as SQL, with its meaning, and the migrations.

This module is the contract between the engine (which writes the store) and the read path
(the catalog views and the binder, which read it).  After version 1 tables and columns are only
ADDED, never renamed or dropped; each later version is a migration appended to ``MIGRATIONS``
so that a newer rwshim opens an older store.

Conventions that hold for every table:

* **One id space** (RisingWave's ``object.oid``): databases, schemas, relations (tables,
  materialized views, views, indexes, sources, sinks) and internal state tables all take their
  id from the sequence ``object``.  RisingWave's initial objects keep their ids
  (``src/meta/model/migration/src/m20230908_072257_init.rs:945-972``): database ``dev`` = 1,
  schemas ``public`` = 2, ``pg_catalog`` = 3, ``information_schema`` = 4, ``rw_catalog`` = 5;
  the first user object gets 6.  Users have their own id space: ``root`` = 1, ``postgres`` = 2,
  ``rwadmin`` = 3 (same file :908-945).  Fragments and actors have their own sequences.
* A streaming job's id is the id of its relation (table / materialized view / index / sink /
  shared source), as in RisingWave (job id = table id / sink id).
* Booleans are INTEGER 0/1.  Timestamps are TEXT in UTC, ISO form
  ``YYYY-MM-DD HH:MM:SS.ffffff+00:00``.  Lists are TEXT holding a JSON array.
* Enum-like TEXT values use RisingWave's own spellings, listed per column below.
* A relation whose streaming job is ``INITIAL`` exists only between a CREATE's catalog write and
  its first barrier (or after a crash in between, until recovery deletes it).  RisingWave's
  frontend never sees such a relation: the binder and the catalog views must skip relations
  whose ``streaming_job.job_status = 'INITIAL'`` (``visible_relation`` below does this).
* User tables' rows are not here: they live on the PostgreSQL data plane (rwshim/dataplane),
  in objects made from these catalog rows (rwshim/dataplane/plan/ddl.py).  A store of an older
  rwshim may still hold ``rel_<id>`` tables; nothing reads them.
"""

from __future__ import annotations

from typing import Final

# Identifies a SQLite file as an rwshim meta store (PRAGMA application_id), "RWSH".
APPLICATION_ID: Final = 0x52575348
MAGIC: Final = "rwshim-meta-store"

SCHEMA_V1: Final = """
-- Key/value facts about the store itself.
--   magic           always 'rwshim-meta-store'
--   schema_version  the version of this schema the store is at (see MIGRATIONS)
--   cluster_id      a UUID chosen when the store is created (RisingWave's cluster.cluster_id)
--   created_at      when the store was created
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Id sequences.  name: 'object' (databases, schemas, relations, internal tables),
-- 'user', 'fragment', 'actor'.  next_id is the next id to hand out.
CREATE TABLE sequence (
    name    TEXT PRIMARY KEY,
    next_id INTEGER NOT NULL
);

-- Users (RisingWave's user table, here rw_user).  Initial rows: root (1), postgres (2),
-- rwadmin (3), all superusers that may log in, create databases and create users.
CREATE TABLE rw_user (
    user_id         INTEGER PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE,
    is_super        INTEGER NOT NULL DEFAULT 0,
    can_create_db   INTEGER NOT NULL DEFAULT 0,
    can_create_user INTEGER NOT NULL DEFAULT 0,
    can_login       INTEGER NOT NULL DEFAULT 1,
    -- 1 for rwadmin only (m20250810_000000_add_user_admin_field.rs).
    is_admin        INTEGER NOT NULL DEFAULT 0,
    -- Password: auth_type is NULL (no password), 'md5', 'sha256' or 'plaintext'; auth_value
    -- is the stored hash or text in RisingWave's form (md5 of password+name prefixed 'md5').
    auth_type       TEXT,
    auth_value      TEXT,
    created_at      TEXT NOT NULL
);

-- Databases.  Initial row: dev (1), owner root.
CREATE TABLE database (
    database_id          INTEGER PRIMARY KEY,
    name                 TEXT NOT NULL UNIQUE,
    owner_id             INTEGER NOT NULL REFERENCES rw_user(user_id),
    resource_group       TEXT NOT NULL DEFAULT 'default',
    -- Per-database overrides of the system parameters of the same name; NULL = use the system
    -- parameter (rw_databases shows NULL then).
    barrier_interval_ms  INTEGER,
    checkpoint_frequency INTEGER,
    acl                  TEXT NOT NULL DEFAULT '[]',  -- JSON array of aclitem texts
    created_at           TEXT NOT NULL
);

-- Schemas.  Initial rows in dev: public (2), pg_catalog (3), information_schema (4),
-- rw_catalog (5), owner root.  Every database created later gets its own public,
-- pg_catalog, information_schema and rw_catalog with fresh ids.
CREATE TABLE schema (
    schema_id   INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    database_id INTEGER NOT NULL REFERENCES database(database_id),
    owner_id    INTEGER NOT NULL REFERENCES rw_user(user_id),
    acl         TEXT NOT NULL DEFAULT '[]',
    created_at  TEXT NOT NULL,
    UNIQUE (database_id, name)
);

-- Relations: every named object that lives in a schema and has columns, plus internal state
-- tables.  kind (rw_relations' relation_type spelling): 'table', 'materialized view', 'view',
-- 'index', 'source', 'sink', and 'internal' (a streaming job's state table, named as
-- RisingWave names it, e.g. '__internal_mv_7_materialize_1001'; not in rw_relations).
-- Names are unique per (schema, name) among non-internal kinds except that an index and a
-- table cannot share a name either (RisingWave checks all relation kinds together).
CREATE TABLE relation (
    relation_id    INTEGER PRIMARY KEY,
    kind           TEXT NOT NULL,
    name           TEXT NOT NULL,
    schema_id      INTEGER NOT NULL REFERENCES schema(schema_id),
    database_id    INTEGER NOT NULL REFERENCES database(database_id),
    owner_id       INTEGER NOT NULL REFERENCES rw_user(user_id),
    -- RisingWave's `definition` text: the normalised CREATE statement (what rw_relations and
    -- SHOW CREATE print), e.g. 'CREATE MATERIALIZED VIEW mv AS SELECT * FROM t'.
    definition     TEXT NOT NULL DEFAULT '',
    append_only    INTEGER NOT NULL DEFAULT 0,
    -- table: created WITH a connector ('kafka', ...) or NULL; source/sink: its connector.
    connector      TEXT,
    -- source: TRUE for a shared source (its own streaming job); FALSE otherwise.
    is_shared      INTEGER NOT NULL DEFAULT 0,
    -- source: FORMAT / ENCODE ('PLAIN', 'JSON', ...) or NULL.
    format         TEXT,
    row_encode     TEXT,
    -- source/sink/table: the WITH options as a JSON object of text values (secrets elided).
    with_options   TEXT NOT NULL DEFAULT '{}',
    -- source/sink: FORMAT ... ENCODE ... ( options ) as a JSON object.
    format_encode_options TEXT NOT NULL DEFAULT '{}',
    -- sink: 'append-only', 'force-append-only' or 'upsert'; NULL for other kinds.
    sink_type      TEXT,
    -- sink INTO table: the target table's id; NULL otherwise.
    target_table_id INTEGER,
    -- index: the indexed table's id; table with connector: its associated source id (if any).
    primary_table_id INTEGER,
    -- index: key and INCLUDE columns as JSON arrays of the primary table's column positions
    -- (0-based, relation_column.position); NULL for other kinds.
    index_key_columns     TEXT,
    index_include_columns TEXT,
    -- internal: the streaming job and fragment that own this state table.
    owner_job_id   INTEGER,
    fragment_id    INTEGER,
    -- table: TRUE when created refreshable (rw_tables.refreshable).
    refreshable    INTEGER NOT NULL DEFAULT 0,
    acl            TEXT NOT NULL DEFAULT '[]',
    -- initialized_at: when the catalog row was written (CREATE accepted); created_at: when the
    -- job became CREATED (equal to initialized_at for non-streaming kinds); NULL while creating.
    initialized_at TEXT NOT NULL,
    created_at     TEXT,
    initialized_at_cluster_version TEXT NOT NULL,
    created_at_cluster_version     TEXT
);
CREATE INDEX relation_by_name ON relation(schema_id, name);
CREATE INDEX relation_by_database ON relation(database_id);

-- Columns of tables, materialized views, views, indexes, sources, sinks and internal tables,
-- in the order RisingWave lists them (hidden ones included).
CREATE TABLE relation_column (
    relation_id  INTEGER NOT NULL REFERENCES relation(relation_id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,          -- 0-based order; attnum = position + 1
    column_id    INTEGER NOT NULL,          -- RisingWave's column id (stable across renames)
    name         TEXT NOT NULL,
    type_oid     INTEGER NOT NULL,          -- PostgreSQL type OID (rwshim.common.pgtypes)
    -- RisingWave's type name: 'integer', 'character varying', 'serial', ...
    rw_type      TEXT NOT NULL,
    is_hidden    INTEGER NOT NULL DEFAULT 0, -- e.g. '_row_id' of a table without primary key
    is_nullable  INTEGER NOT NULL DEFAULT 1,
    -- 0-based position in the primary key, or NULL when not part of it.
    pk_position  INTEGER,
    pk_desc      INTEGER NOT NULL DEFAULT 0, -- descending key (indexes, MVs with ORDER BY)
    default_expr   TEXT,                    -- DEFAULT expression text, as written
    generated_expr TEXT,                    -- AS <expr> generated column text
    PRIMARY KEY (relation_id, position)
);

-- Dependencies between objects (RisingWave's object_dependency): dependent_id uses
-- referenced_id (an MV on its upstream tables/MVs/sources, a view on what it reads, an index on
-- its table, a sink on its upstream, a sink-into-table on its target table).
CREATE TABLE dependency (
    referenced_id INTEGER NOT NULL,
    dependent_id  INTEGER NOT NULL,
    PRIMARY KEY (referenced_id, dependent_id)
);
CREATE INDEX dependency_by_dependent ON dependency(dependent_id);

-- COMMENT ON: pg_description's convention.  objsubid 0 = the object itself, n = its column
-- with attnum n (relation_column.position + 1).
CREATE TABLE comment (
    object_id   INTEGER NOT NULL,
    objsubid    INTEGER NOT NULL DEFAULT 0,
    description TEXT NOT NULL,
    PRIMARY KEY (object_id, objsubid)
);

-- Streaming jobs (RisingWave's streaming_job table, src/meta/model/src/streaming_job.rs):
-- one per table, materialized view, index, sink and shared source.
CREATE TABLE streaming_job (
    job_id        INTEGER PRIMARY KEY REFERENCES relation(relation_id),
    database_id   INTEGER NOT NULL,
    job_status    TEXT NOT NULL,        -- 'INITIAL' | 'CREATING' | 'CREATED'
    create_type   TEXT NOT NULL,        -- 'FOREGROUND' | 'BACKGROUND'
    -- The barrier-level job type (stream_manager.rs:669-725): 'Normal', 'SnapshotBackfill',
    -- 'BatchRefresh', 'SinkIntoTable'.
    job_type      TEXT NOT NULL DEFAULT 'Normal',
    -- SHOW JOBS / rw_ddl_progress backfill_type: 'NORMAL_BACKFILL' | 'SNAPSHOT_BACKFILL'.
    backfill_type TEXT NOT NULL DEFAULT 'NORMAL_BACKFILL',
    -- Catalog (target) parallelism: kind 'Fixed' (parallelism_fixed = n), 'Adaptive' or
    -- 'Custom' (set by ALTER FRAGMENT); strategy is 'AUTO', 'FULL', 'BOUNDED(n)', 'RATIO(r)'
    -- for Adaptive, NULL for Fixed.
    parallelism_kind               TEXT NOT NULL,
    parallelism_fixed              INTEGER,
    adaptive_parallelism_strategy  TEXT,
    -- Backfill override, used while the job is not CREATED; kind NULL = no override.
    backfill_parallelism_kind      TEXT,
    backfill_parallelism_fixed     INTEGER,
    backfill_adaptive_parallelism_strategy TEXT,
    max_parallelism   INTEGER NOT NULL,
    -- RESOURCE_GROUP set on the job; NULL = the database's resource group.
    specific_resource_group TEXT,
    is_serverless_backfill  INTEGER NOT NULL DEFAULT 0,
    -- Batch refresh: WITH (refresh.interval.sec = N); NULL for ordinary jobs.
    refresh_interval_sec    INTEGER,
    timezone        TEXT,
    config_override TEXT,               -- per-job SET CONFIG overrides (TOML text) or NULL
    -- 1 when the catalog parallelism was changed with DEFERRED (or while not running) and the
    -- actors have not been re-rendered yet; recovery and post-backfill restore clear it.
    reschedule_pending INTEGER NOT NULL DEFAULT 0,
    -- Test control: 1 holds the job's backfill (no progress) until released.
    backfill_held   INTEGER NOT NULL DEFAULT 0,
    -- Epoch of the job's first barrier (Creating since); NULL while INITIAL.
    creating_epoch  INTEGER,
    -- Epoch at which the job became CREATED; NULL before.
    created_epoch   INTEGER
);

-- Fragments (RisingWave's fragment table) of every streaming job.
CREATE TABLE fragment (
    fragment_id       INTEGER PRIMARY KEY,
    job_id            INTEGER NOT NULL REFERENCES streaming_job(job_id),
    -- rw_fragments flags, JSON array in RisingWave's names: 'SOURCE', 'MVIEW', 'SINK', 'NOW',
    -- 'STREAM_SCAN', 'BARRIER_RECV', 'VALUES', 'DML', 'SOURCE_SCAN',
    -- 'SNAPSHOT_BACKFILL_STREAM_SCAN', 'CROSS_DB_SNAPSHOT_BACKFILL_STREAM_SCAN', ...
    flags             TEXT NOT NULL DEFAULT '[]',
    distribution_type TEXT NOT NULL,    -- 'SINGLE' | 'HASH'
    -- Scan type of the fragment's StreamScan node (prost StreamScanType names):
    -- 'SnapshotBackfill', 'ArrangementBackfill', 'UpstreamOnly', 'CrossDbSnapshotBackfill',
    -- 'Backfill', 'Chain', 'Rearrange'; NULL if the fragment has no StreamScan.
    scan_type         TEXT,
    -- The relation a StreamScan / SourceScan fragment reads; NULL otherwise.
    scan_relation_id  INTEGER,
    state_table_ids   TEXT NOT NULL DEFAULT '[]',  -- JSON array of internal/own table ids
    vnode_count       INTEGER NOT NULL,            -- rw_fragments.max_parallelism
    -- ALTER FRAGMENT ... SET PARALLELISM override: NULL = inherit from the job.
    parallelism_override_kind     TEXT,            -- 'Fixed' | 'Adaptive'
    parallelism_override_fixed    INTEGER,
    -- Rate limit of the fragment's rate-limited node (rows/s; StreamScan -> backfill rate
    -- limit, Source -> source rate limit, Sink -> sink rate limit, DML -> dml rate limit);
    -- NULL = unlimited, 0 = stopped.
    rate_limit        INTEGER,
    -- Backfill progress of a scan fragment while its job is creating.
    backfill_consumed INTEGER NOT NULL DEFAULT 0,  -- upstream rows read so far
    backfill_total    INTEGER,                     -- upstream rows at the snapshot; NULL before
    backfill_done     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX fragment_by_job ON fragment(job_id);

-- Fragment edges (RisingWave's fragment_relation): source dispatches to target.
-- dispatcher_type: 'Hash' | 'Broadcast' | 'Simple' | 'NoShuffle'.
CREATE TABLE fragment_relation (
    source_fragment_id INTEGER NOT NULL REFERENCES fragment(fragment_id),
    target_fragment_id INTEGER NOT NULL REFERENCES fragment(fragment_id),
    dispatcher_type    TEXT NOT NULL,
    PRIMARY KEY (source_fragment_id, target_fragment_id)
);
CREATE INDEX fragment_relation_by_target ON fragment_relation(target_fragment_id);

-- Actors as currently rendered (rw_actors); re-rendered on reschedule and recovery.
CREATE TABLE actor (
    actor_id    INTEGER PRIMARY KEY,
    fragment_id INTEGER NOT NULL REFERENCES fragment(fragment_id),
    worker_id   INTEGER NOT NULL,
    state       TEXT NOT NULL DEFAULT 'RUNNING'   -- 'INACTIVE' | 'RUNNING'
);
CREATE INDEX actor_by_fragment ON actor(fragment_id);

-- Emulated worker nodes (rw_worker_nodes).  worker_type: 'WORKER_TYPE_FRONTEND',
-- 'WORKER_TYPE_COMPUTE_NODE', 'WORKER_TYPE_META', 'WORKER_TYPE_COMPACTOR'.  parallelism is the
-- number of streaming slots of a compute node; adaptive jobs use the slots of their group.
CREATE TABLE worker (
    worker_id      INTEGER PRIMARY KEY,
    worker_type    TEXT NOT NULL,
    host           TEXT NOT NULL,
    port           INTEGER NOT NULL,
    state          TEXT NOT NULL DEFAULT 'RUNNING',
    parallelism    INTEGER NOT NULL DEFAULT 0,
    resource_group TEXT,
    is_streaming   INTEGER NOT NULL DEFAULT 0,
    is_serving     INTEGER NOT NULL DEFAULT 0,
    started_at     TEXT NOT NULL
);

-- Barrier state of each database that has a checkpoint control (a row appears when the first
-- streaming job of the database is created, as RisingWave's DatabaseCheckpointControl).
CREATE TABLE barrier_state (
    database_id   INTEGER PRIMARY KEY REFERENCES database(database_id),
    is_paused     INTEGER NOT NULL DEFAULT 0,
    -- Last committed epoch (RisingWave's u64 epoch: physical ms since 2021-01-01 << 16).
    epoch         INTEGER NOT NULL DEFAULT 0,
    -- Barriers injected so far (checkpoint every checkpoint_frequency barriers).
    barrier_count INTEGER NOT NULL DEFAULT 0,
    -- Clock (ms) of the last barrier, for the server's per-database barrier loop.
    last_barrier_ms INTEGER NOT NULL DEFAULT 0
);

-- System parameters (SHOW PARAMETERS / ALTER SYSTEM SET), values as RisingWave prints them.
CREATE TABLE system_parameter (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Session-parameter defaults changed by ALTER SYSTEM SET <session var> (RisingWave's
-- session_parameter table); new sessions start from these.
CREATE TABLE session_parameter (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- GRANTed privileges on objects.  action: 'SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE',
-- 'CONNECT', 'USAGE', 'EXECUTE'.
CREATE TABLE privilege (
    user_id           INTEGER NOT NULL REFERENCES rw_user(user_id),
    object_id         INTEGER NOT NULL,
    action            TEXT NOT NULL,
    with_grant_option INTEGER NOT NULL DEFAULT 0,
    granted_by        INTEGER NOT NULL,
    PRIMARY KEY (user_id, object_id, action)
);

-- Relations the frontend can see: everything except relations of INITIAL jobs.
CREATE VIEW visible_relation AS
SELECT r.* FROM relation r
WHERE NOT EXISTS (
    SELECT 1 FROM streaming_job j WHERE j.job_id = r.relation_id AND j.job_status = 'INITIAL'
);
"""

# Version 2: what SHOW JOBS / rw_ddl_progress print, kept current at every barrier so the
# catalog views can read it.
SCHEMA_V2: Final = """
-- streaming_job.progress: the job's progress text as of its last barrier, in RisingWave's
-- formats (src/meta/src/barrier/progress.rs:246-296, creating_job/mod.rs:757-793): '0.0%'
-- before tracking, '12.34% (c/t)', '99.99%', '100%', 'n rows consumed',
-- 'MView Backfill: .., Source Backfill: ..', 'Snapshot [..]', 'Snapshot finished'.
ALTER TABLE streaming_job ADD COLUMN progress TEXT NOT NULL DEFAULT '0.0%';
"""

# Version 3: a fragment can hold two rate-limited nodes (e.g. a sink's Sink and StreamScan).
SCHEMA_V3: Final = """
-- fragment.backfill_rate_limit: the rate limit of the fragment's StreamScan / SourceBackfill
-- node (rows/s per actor; NULL = unlimited, 0 = stopped).  From this version on
-- fragment.rate_limit holds only the Source, Sink or DML node's limit.
ALTER TABLE fragment ADD COLUMN backfill_rate_limit INTEGER;
UPDATE fragment SET backfill_rate_limit = rate_limit, rate_limit = NULL
    WHERE scan_relation_id IS NOT NULL;
"""

# Version 4: rw_fragments.parallelism_policy, kept by the engine.
SCHEMA_V4: Final = """
-- fragment.parallelism_policy: how the fragment's parallelism is decided, as rw_fragments
-- prints it (src/meta/src/controller/fragment.rs:1496-1553): 'single', 'override(<p>)',
-- 'upstream_fragment([<root ids>])', 'inherit(<p>)' with <p> a number, 'adaptive',
-- 'bounded(n)', 'ratio(r)', 'custom' or 'unknown'.
ALTER TABLE fragment ADD COLUMN parallelism_policy TEXT NOT NULL DEFAULT 'unknown';
"""

SCHEMA_V5: Final = """
-- Per-DDL look-ups must not scan every job: the jobs not yet CREATED (the blocked-job rules
-- and each barrier's backfill seed from them).
CREATE INDEX streaming_job_by_status ON streaming_job(job_status);
-- Catalog views filtered by name alone (rw_streaming_jobs WHERE name = ...).
CREATE INDEX relation_by_bare_name ON relation(name);

-- catalog_version: bumped by triggers whenever anything the read path's binder reads changes
-- (relations, their names, kinds and columns, job states, schemas, databases), so checking
-- cached translations costs one row read, not a scan of the catalog.
CREATE TABLE catalog_version (n INTEGER NOT NULL);
INSERT INTO catalog_version VALUES (0);
""" + "".join(
    f"CREATE TRIGGER catalog_version_{table}_{event.split()[0].lower()} AFTER {event} ON {table}"
    " BEGIN UPDATE catalog_version SET n = n + 1; END;\n"
    for table, update_of in (
        ("relation", "relation_id, kind, name, schema_id"),
        ("streaming_job", "job_id, job_status"),
        ("relation_column", ""),
        ("schema", "schema_id, name"),
        ("database", "database_id, name"),
    )
    for event in ("INSERT", "DELETE", f"UPDATE OF {update_of}" if update_of else "UPDATE")
)

# Version 6: a materialized view (or sink) reads a query bound to relation ids, so that
# renaming or moving what it reads leaves it working (rwshim/sql/unparse/bound.py).
SCHEMA_V6: Final = """
-- relation.read_query_template: for a materialized view or a sink, its query as typed with
-- the relation references the binder resolved, as JSON {"text": ..., "refs": [[start, end,
-- after, relation_id, written_name, aliased], ...]}; NULL for other kinds and for relations
-- of older stores (which read their definition's query).
ALTER TABLE relation ADD COLUMN read_query_template TEXT;
-- relation.read_query: that template rendered with the current names of the relations it
-- references ("schema"."name"); the engine renders it again whenever one of them is renamed or
-- moved.  The read path binds this, not the definition.
ALTER TABLE relation ADD COLUMN read_query TEXT;
CREATE TRIGGER catalog_version_relation_read_query AFTER UPDATE OF read_query, definition
    ON relation BEGIN UPDATE catalog_version SET n = n + 1; END;
"""

# Version 7: RisingWave's privilege tables.  ``privilege`` (version 1) kept one row per
# (user, object, action), so the same action from two grantors, and the grant a privilege
# depends on, could not be recorded; it is superseded by ``user_privilege`` (its rows are
# copied over and it is no longer written).
SCHEMA_V7: Final = """
-- user_privilege: one privilege held by a user (src/meta/model/src/user_privilege.rs;
-- unique per (user_id, oid, action, granted_by) as idx_user_privilege_item,
-- m20230908_072257_init.rs:888-899).
--   oid            the object: a database, schema, relation (tables, materialized views,
--                  views, indexes, sources, sinks, internal tables) or any other object id
--   action         'SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'CONNECT', 'USAGE',
--                  'EXECUTE'
--   granted_by     the grantor's user id
--   dependent_id   the grantor's own privilege (held WITH GRANT OPTION) this one was granted
--                  from; NULL when granted by a superuser or the object's owner.  Removing a
--                  privilege removes those that depend on it (the FK's ON DELETE CASCADE).
CREATE TABLE user_privilege (
    id                INTEGER PRIMARY KEY,
    dependent_id      INTEGER,
    user_id           INTEGER NOT NULL,
    oid               INTEGER NOT NULL,
    granted_by        INTEGER NOT NULL,
    action            TEXT NOT NULL,
    with_grant_option INTEGER NOT NULL DEFAULT 0,
    UNIQUE (user_id, oid, action, granted_by)
);
CREATE INDEX user_privilege_by_oid ON user_privilege(oid);
CREATE INDEX user_privilege_by_dependent ON user_privilege(dependent_id);
INSERT INTO user_privilege(user_id, oid, granted_by, action, with_grant_option)
    SELECT user_id, object_id, granted_by, action, with_grant_option FROM privilege;
-- CREATE USER grants CONNECT on the session's database (create_user.rs:87-96); users made by
-- an older rwshim had none, so they keep their access: CONNECT on every database.
INSERT OR IGNORE INTO user_privilege(user_id, oid, granted_by, action, with_grant_option)
    SELECT u.user_id, d.database_id, 1, 'CONNECT', 1 FROM rw_user u, database d
    WHERE u.user_id > 3;

-- user_default_privilege: ALTER DEFAULT PRIVILEGES (src/meta/model/src/
-- user_default_privilege.rs): objects of ``object_type`` that ``user_id`` creates later in the
-- database (and schema; NULL for schemas themselves) grant ``action`` to ``grantee``.
--   object_type            RisingWave's ObjectType: 'schema', 'table' (with
--                          for_materialized_view 0: tables, 1: materialized views), 'view',
--                          'source', 'sink', 'function', 'secret', 'connection', 'subscription'
CREATE TABLE user_default_privilege (
    id                    INTEGER PRIMARY KEY,
    database_id           INTEGER NOT NULL,
    schema_id             INTEGER,
    object_type           TEXT NOT NULL,
    for_materialized_view INTEGER NOT NULL DEFAULT 0,
    user_id               INTEGER NOT NULL,
    grantee               INTEGER NOT NULL,
    granted_by            INTEGER NOT NULL,
    action                TEXT NOT NULL,
    with_grant_option     INTEGER NOT NULL DEFAULT 0
);
-- the unique key of m20250603_084830_default_privilege.rs (its foreign keys delete a
-- database's, schema's or user's rows with it: done by hand here); SQLite, like RisingWave's
-- backends, treats NULL schema ids as distinct, so schema-level rows are matched by hand.
CREATE UNIQUE INDEX user_default_privilege_item ON user_default_privilege(
    user_id, database_id, schema_id, object_type, for_materialized_view, grantee, action);
"""

# Version 8: RisingWave's
# catalog objects beyond relations (secrets, connections), index key order, meta snapshots.
SCHEMA_V8: Final = """
-- relation_column.pk_nulls_smallest: with pk_desc, the key column's OrderType
-- (src/common/src/util/sort_util.rs): 1 when nulls sort as the smallest value (ASC NULLS
-- FIRST, DESC NULLS LAST); 0 for RisingWave's default, nulls the largest.
ALTER TABLE relation_column ADD COLUMN pk_nulls_smallest INTEGER NOT NULL DEFAULT 0;

-- Secrets (CREATE SECRET; src/meta/model/src/secret.rs), in the object id space, named per
-- schema apart from relations (root_catalog.rs check_secret_name_duplicated).  backend:
-- 'meta' (value holds the credential; no catalog view ever reads it) or 'hashicorp_vault'
-- (vault holds its configuration as a JSON object of text values).
CREATE TABLE secret (
    secret_id   INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    schema_id   INTEGER NOT NULL REFERENCES schema(schema_id),
    database_id INTEGER NOT NULL REFERENCES database(database_id),
    owner_id    INTEGER NOT NULL REFERENCES rw_user(user_id),
    backend     TEXT NOT NULL,
    value       BLOB,
    vault       TEXT,
    acl         TEXT NOT NULL DEFAULT '[]',
    created_at  TEXT NOT NULL,
    UNIQUE (schema_id, name)
);

-- Connections (CREATE CONNECTION; src/meta/model/src/connection.rs, ConnectionParams):
-- connection_type in RisingWave's proto spelling ('CONNECTION_TYPE_KAFKA',
-- 'CONNECTION_TYPE_ICEBERG', 'CONNECTION_TYPE_SCHEMA_REGISTRY',
-- 'CONNECTION_TYPE_ELASTICSEARCH'); properties: the plain WITH options (without `type`) as
-- a JSON object; secret_refs: {key: {"secret_id": id, "ref_as": "TEXT" | "FILE"}}.
CREATE TABLE connection (
    connection_id   INTEGER PRIMARY KEY,
    name            TEXT NOT NULL,
    schema_id       INTEGER NOT NULL REFERENCES schema(schema_id),
    database_id     INTEGER NOT NULL REFERENCES database(database_id),
    owner_id        INTEGER NOT NULL REFERENCES rw_user(user_id),
    connection_type TEXT NOT NULL,
    properties      TEXT NOT NULL DEFAULT '{}',
    secret_refs     TEXT NOT NULL DEFAULT '{}',
    acl             TEXT NOT NULL DEFAULT '[]',
    created_at      TEXT NOT NULL,
    UNIQUE (schema_id, name)
);

-- A source, sink or table's references: secret_refs as connection.secret_refs (WITH options),
-- format_secret_refs the same for FORMAT ... ENCODE ... (...) options, connection_id the
-- connection its WITH (connection = name) names (its properties are merged into
-- with_options, as RisingWave stores them).
ALTER TABLE relation ADD COLUMN secret_refs TEXT NOT NULL DEFAULT '{}';
ALTER TABLE relation ADD COLUMN format_secret_refs TEXT NOT NULL DEFAULT '{}';
ALTER TABLE relation ADD COLUMN connection_id INTEGER;

-- BACKUP's meta snapshots (meta backup_restore/backup_manager.rs; the default
-- backup_storage_url 'memory' keeps them for the life of the meta node): the id sequence
-- ('meta_backup', from 1) and one row per snapshot taken.
INSERT INTO sequence(name, next_id) VALUES ('meta_backup', 1);
CREATE TABLE meta_snapshot (
    snapshot_id INTEGER PRIMARY KEY,
    created_at  TEXT NOT NULL
);

-- Every dependency between objects (RisingWave's object_dependency): the relation
-- dependencies, and the uses of secrets and connections the references above record.
CREATE VIEW object_dependency AS
SELECT referenced_id, dependent_id FROM dependency
UNION
SELECT CAST(json_extract(e.value, '$.secret_id') AS INTEGER), r.relation_id
FROM relation r, json_each(r.secret_refs) e
UNION
SELECT CAST(json_extract(e.value, '$.secret_id') AS INTEGER), r.relation_id
FROM relation r, json_each(r.format_secret_refs) e
UNION
SELECT r.connection_id, r.relation_id FROM relation r WHERE r.connection_id IS NOT NULL
UNION
SELECT CAST(json_extract(e.value, '$.secret_id') AS INTEGER), c.connection_id
FROM connection c, json_each(c.secret_refs) e;
"""

# Version 9: what the PostgreSQL data plane needs to make a relation's objects from the
# catalog alone (rwshim/dataplane/plan/ddl.py).
SCHEMA_V9: Final = """
-- relation.on_conflict: a table's ConflictBehavior (src/frontend/src/handler/create_table.rs
-- 671-705): 'overwrite' (the default), 'ignore' (ON CONFLICT DO NOTHING, and an APPEND ONLY
-- table with a declared key), 'if_not_null' (DO UPDATE IF NOT NULL), 'no_check' (APPEND ONLY
-- without a key); NULL for other kinds and for tables created before this version
-- (read as 'overwrite', or 'no_check' / 'ignore' when append-only).
ALTER TABLE relation ADD COLUMN on_conflict TEXT;
-- relation.search_path: the creating session's search_path (its SHOW form) for a view or
-- materialized view, whose definition's names resolve with it, as RisingWave binds the query
-- once at CREATE; NULL: the default ("$user", public).
ALTER TABLE relation ADD COLUMN search_path TEXT;
"""

# Version 10: every per-DDL look-up keyed on a column reads an index (issue 16; checked with
# EXPLAIN QUERY PLAN in tests/unit/store/test_ddl_query_plans.py), so a DDL's cost does not
# grow with the number of jobs.  A NoShuffle edge is looked up by fragment and dispatcher type:
# a shared upstream's thousands of Hash edges are not read to find its few NoShuffle partners.
SCHEMA_V10: Final = """
-- DROP: the sinks into a table, the internal tables of a job.
CREATE INDEX relation_by_target_table ON relation(target_table_id);
CREATE INDEX relation_by_owner_job ON relation(owner_job_id);
-- DROP: the privileges on an object.
CREATE INDEX privilege_by_object ON privilege(object_id);
-- The graph's NoShuffle components (Graph.load_around, reschedule ensembles).
CREATE INDEX fragment_relation_by_source_type
    ON fragment_relation(source_fragment_id, dispatcher_type);
DROP INDEX fragment_relation_by_target;
CREATE INDEX fragment_relation_by_target_type
    ON fragment_relation(target_fragment_id, dispatcher_type);
"""

# Version 11: subscriptions (CREATE SUBSCRIPTION; src/meta/model/src/subscription.rs), in the
# object id space, named per schema in the relations' namespace (root_catalog.rs
# check_relation_name_duplicated has a subscription arm).  dependent_table_id: the table or
# materialized view subscribed to; retention_seconds as convert_interval_to_u64_seconds reads
# WITH (retention = ...); created_epoch: the barrier epoch at creation (SINCE begin() reads it).
SCHEMA_V11: Final = """
CREATE TABLE subscription (
    subscription_id    INTEGER PRIMARY KEY,
    name               TEXT NOT NULL,
    schema_id          INTEGER NOT NULL REFERENCES schema(schema_id),
    database_id        INTEGER NOT NULL REFERENCES database(database_id),
    owner_id           INTEGER NOT NULL REFERENCES rw_user(user_id),
    dependent_table_id INTEGER NOT NULL,
    retention_seconds  INTEGER NOT NULL,
    definition         TEXT NOT NULL,
    created_epoch      INTEGER NOT NULL,
    created_at         TEXT NOT NULL,
    created_at_cluster_version TEXT,
    UNIQUE (schema_id, name)
);
CREATE INDEX subscription_by_table ON subscription(dependent_table_id);
"""

# Version 12: user-defined functions and aggregates (CREATE FUNCTION / AGGREGATE).
SCHEMA_V12: Final = """
-- function (src/meta/model/src/function.rs; frontend catalog/function_catalog.rs): in the
-- object id space, named per schema apart from relations, overloaded by argument types.
--   kind            'SCALAR' | 'TABLE' | 'AGGREGATE' (FunctionKind's Display)
--   arg_names       JSON array of names ('' for an unnamed argument)
--   arg_types       JSON array of [type OID, RisingWave's type name]
--   language        'sql', 'javascript', 'rust', 'wasm', 'java', 'python' or ''
--   body            the SQL body (a RETURN expression as 'select <expr>'), or the code
--   link            USING LINK; compressed_binary: USING BASE64, decoded
--   definition      the CREATE statement as written
CREATE TABLE function (
    function_id         INTEGER PRIMARY KEY,
    name                TEXT NOT NULL,
    schema_id           INTEGER NOT NULL REFERENCES schema(schema_id),
    database_id         INTEGER NOT NULL REFERENCES database(database_id),
    owner_id            INTEGER NOT NULL REFERENCES rw_user(user_id),
    kind                TEXT NOT NULL,
    arg_names           TEXT NOT NULL DEFAULT '[]',
    arg_types           TEXT NOT NULL DEFAULT '[]',
    return_type_oid     INTEGER NOT NULL,
    return_type         TEXT NOT NULL,
    language            TEXT NOT NULL,
    runtime             TEXT,
    name_in_runtime     TEXT,
    body                TEXT,
    link                TEXT,
    compressed_binary   BLOB,
    always_retry_on_network_error INTEGER NOT NULL DEFAULT 0,
    is_async            INTEGER,
    is_batched          INTEGER,
    definition          TEXT NOT NULL,
    created_at          TEXT NOT NULL
);
CREATE INDEX function_by_schema_name ON function(schema_id, name);
-- the read path inlines SQL functions: what it cached is stale when a function changes
CREATE TRIGGER catalog_version_function_insert AFTER INSERT ON function
    BEGIN UPDATE catalog_version SET n = n + 1; END;
CREATE TRIGGER catalog_version_function_delete AFTER DELETE ON function
    BEGIN UPDATE catalog_version SET n = n + 1; END;
CREATE TRIGGER catalog_version_function_update AFTER UPDATE ON function
    BEGIN UPDATE catalog_version SET n = n + 1; END;
"""

# Version 13 (ALTER TABLE ... ADD / DROP COLUMN): a table's next column id, which RisingWave
# keeps in its TableVersion (col_id_gen.rs) so that a dropped column's id is never reused.
SCHEMA_V13: Final = """
-- relation.next_column_id: the id the next column ALTER TABLE / ALTER SOURCE ... ADD COLUMN
-- adds gets; NULL: one more than the largest column id the relation has.
ALTER TABLE relation ADD COLUMN next_column_id INTEGER;
-- relation.column_horizon: a materialized view's upstreams that gained columns after it was
-- made, as JSON {"<relation id>": <largest column id the view was planned with>}: the view
-- reads them without the later columns (RisingWave's job keeps the columns it was planned
-- with); NULL: none.
ALTER TABLE relation ADD COLUMN column_horizon TEXT;
"""

# Version 14 (issue 16): the rows a backfill of a relation reads are looked up by the fragments
# that scan it (Instance.row_count, at every CREATE over it): without an index that read scanned
# every fragment, 13% of a CREATE MATERIALIZED VIEW at 10,000 jobs.
SCHEMA_V14: Final = """
CREATE INDEX fragment_by_scan_relation ON fragment(scan_relation_id);
"""

# Version 15 (issue 30): a table's version columns (CREATE TABLE ... WITH VERSION COLUMN (...),
# handler/create_table.rs; optimizer/mod.rs find_version_column_indices): a conflicting row
# replaces the stored one only when its versions are newer or equal.
SCHEMA_V15: Final = """
-- relation.version_columns: a table's version column names, in order, as a JSON array; NULL:
-- none (and for other kinds).
ALTER TABLE relation ADD COLUMN version_columns TEXT;
"""

# Version 29 (issue 29): meta's event log (rw_catalog.rw_event_logs; engine/events.py): a
# sink's failure is a SINK_FAIL event.
SCHEMA_V29: Final = """
CREATE TABLE event_log (
    unique_id  TEXT PRIMARY KEY,
    -- when it happened, as rw_event_logs shows it ('YYYY-MM-DD HH:MM:SS.ffffff+00:00')
    timestamp  TEXT NOT NULL,
    event_type TEXT NOT NULL,
    -- the event as JSON (EventLog without its id and timestamp)
    info       TEXT NOT NULL
);
"""

# Migrations: (version, SQL taking the store from the previous entry's version to version).
# Version 1 is the initial schema; versions increase, and may skip a number another branch
# holds until it is merged; append, never edit an entry once released.
MIGRATIONS: Final[tuple[tuple[int, str], ...]] = (
    (1, SCHEMA_V1),
    (2, SCHEMA_V2),
    (3, SCHEMA_V3),
    (4, SCHEMA_V4),
    (5, SCHEMA_V5),
    (6, SCHEMA_V6),
    (7, SCHEMA_V7),
    (8, SCHEMA_V8),
    (9, SCHEMA_V9),
    (10, SCHEMA_V10),
    (11, SCHEMA_V11),
    (12, SCHEMA_V12),
    (13, SCHEMA_V13),
    (14, SCHEMA_V14),
    (15, SCHEMA_V15),
    (29, SCHEMA_V29),
)

SCHEMA_VERSION: Final = MIGRATIONS[-1][0]
