"""Data tables for the SQL front end: statement text -> statement, text -> RisingWave's error.

Kept as plain data so the over-a-connection tests can reuse them: a parse error reaches a
client as ``Failed to run the query`` + ``Caused by:`` + the message (SQLSTATE XX000).
"""

from __future__ import annotations

from rwshim.sql import statements as st
from rwshim.sql.statements import SetValue, name

D = SetValue("default")


def one(*items: str) -> SetValue:
    return SetValue("single", items)


def many(*items: str) -> SetValue:
    return SetValue("list", items)


def _p(text: str, cls: type[st.Statement], *args: object, **kw: object) -> tuple[str, object]:
    return (text, cls(text.rstrip(";"), *args, **kw))


MV, TBL, IDX, SINK, SRC = "MATERIALIZED VIEW", "TABLE", "INDEX", "SINK", "SOURCE"

# --- ALTER ... SET PARALLELISM / BACKFILL_PARALLELISM: every object kind, every value form
# (rw-sql-surface.md §1.1-1.2, §2.1).  The value is kept as the handler reads it.
PARALLELISM_CASES: list[tuple[str, object]] = [
    _p("ALTER TABLE t SET PARALLELISM = 4", st.AlterParallelism, TBL, name("t"), one("4")),
    _p(
        "ALTER TABLE ONLY s.t SET PARALLELISM TO 'adaptive' DEFERRED",
        st.AlterParallelism,
        TBL,
        name("s", "t"),
        one("adaptive"),
        True,
    ),
    _p(
        "ALTER MATERIALIZED VIEW mv SET PARALLELISM = 4",
        st.AlterParallelism,
        MV,
        name("mv"),
        one("4"),
    ),
    _p(
        "alter materialized view m set parallelism = ADAPTIVE",
        st.AlterParallelism,
        MV,
        name("m"),
        one("ADAPTIVE"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM TO auto",
        st.AlterParallelism,
        MV,
        name("m"),
        one("auto"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = full",
        st.AlterParallelism,
        MV,
        name("m"),
        one("full"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = 'FULL'",
        st.AlterParallelism,
        MV,
        name("m"),
        one("FULL"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = 0",
        st.AlterParallelism,
        MV,
        name("m"),
        one("0"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = 00",
        st.AlterParallelism,
        MV,
        name("m"),
        one("00"),
    ),
    _p(
        'ALTER MATERIALIZED VIEW m SET PARALLELISM = "4"',
        st.AlterParallelism,
        MV,
        name("m"),
        one("4"),
    ),
    _p(
        'ALTER MATERIALIZED VIEW m SET PARALLELISM = "adaptive"',
        st.AlterParallelism,
        MV,
        name("m"),
        one("adaptive"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = DEFAULT", st.AlterParallelism, MV, name("m"), D
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = bounded(4)",
        st.AlterParallelism,
        MV,
        name("m"),
        one("bounded(4)"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = BOUNDED(4)",
        st.AlterParallelism,
        MV,
        name("m"),
        one("BOUNDED(4)"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = 'bounded(4)'",
        st.AlterParallelism,
        MV,
        name("m"),
        one("bounded(4)"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = ratio(0.5)",
        st.AlterParallelism,
        MV,
        name("m"),
        one("ratio(0.5)"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = 'Ratio(0.5)'",
        st.AlterParallelism,
        MV,
        name("m"),
        one("Ratio(0.5)"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = bounded(4, 5)",
        st.AlterParallelism,
        MV,
        name("m"),
        one("bounded(4, 5)"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = bounded('4')",
        st.AlterParallelism,
        MV,
        name("m"),
        one("bounded('4')"),
    ),
    _p(
        "SET x = TRUE, Null, E'a\\n', $$d$$, 'it''s', f(FALSE, 'a''b', 1.5)",
        st.SetVariable,
        "x",
        many("true", "NULL", "E'a\\n'", "$$d$$", "it's", "f(false, 'a''b', 1.5)"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = true",
        st.AlterParallelism,
        MV,
        name("m"),
        one("true"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = NULL",
        st.AlterParallelism,
        MV,
        name("m"),
        one("NULL"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = 2.5",
        st.AlterParallelism,
        MV,
        name("m"),
        one("2.5"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = ''",
        st.AlterParallelism,
        MV,
        name("m"),
        one(""),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = 1, 2",
        st.AlterParallelism,
        MV,
        name("m"),
        many("1", "2"),
    ),
    _p(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM = 4 DEFERRED",
        st.AlterParallelism,
        MV,
        name("m"),
        one("4"),
        True,
    ),
    _p("ALTER INDEX i SET PARALLELISM TO 3", st.AlterParallelism, IDX, name("i"), one("3")),
    _p(
        "ALTER SINK s SET PARALLELISM = DEFAULT DEFERRED",
        st.AlterParallelism,
        SINK,
        name("s"),
        D,
        True,
    ),
    _p('ALTER SOURCE "Src" SET PARALLELISM = 2', st.AlterParallelism, SRC, name("Src"), one("2")),
    _p(
        "ALTER TABLE t SET BACKFILL_PARALLELISM = 2",
        st.AlterBackfillParallelism,
        TBL,
        name("t"),
        one("2"),
    ),
    _p(
        "alter materialized view m set backfill_parallelism = bounded(3);",
        st.AlterBackfillParallelism,
        MV,
        name("m"),
        one("bounded(3)"),
    ),
    _p(
        "ALTER INDEX i SET BACKFILL_PARALLELISM = ratio(0.5)",
        st.AlterBackfillParallelism,
        IDX,
        name("i"),
        one("ratio(0.5)"),
    ),
    _p(
        "ALTER SINK s SET BACKFILL_PARALLELISM TO DEFAULT DEFERRED",
        st.AlterBackfillParallelism,
        SINK,
        name("s"),
        D,
        True,
    ),
    _p(
        "ALTER SOURCE s SET BACKFILL_PARALLELISM = adaptive",
        st.AlterBackfillParallelism,
        SRC,
        name("s"),
        one("adaptive"),
    ),
    _p("ALTER FRAGMENT 1 SET PARALLELISM = 4", st.AlterFragmentParallelism, (1,), one("4")),
    _p(
        "ALTER FRAGMENT 1, 2 SET PARALLELISM TO adaptive",
        st.AlterFragmentParallelism,
        (1, 2),
        one("adaptive"),
    ),
    _p("ALTER FRAGMENT 7 SET PARALLELISM = DEFAULT", st.AlterFragmentParallelism, (7,), D),
]

# --- rate limits (§3.1), other ALTER forms, the extensions (architecture.md decision 2)
ALTER_CASES: list[tuple[str, object]] = [
    _p(
        "ALTER TABLE t SET SOURCE_RATE_LIMIT = 100",
        st.AlterRateLimit,
        TBL,
        name("t"),
        "SOURCE",
        100,
    ),
    _p("alter table t set dml_rate_limit to 0", st.AlterRateLimit, TBL, name("t"), "DML", 0),
    _p(
        "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = DEFAULT",
        st.AlterRateLimit,
        MV,
        name("m"),
        "BACKFILL",
        -1,
    ),
    _p("ALTER SINK s SET SINK_RATE_LIMIT = 10", st.AlterRateLimit, SINK, name("s"), "SINK", 10),
    _p(
        "ALTER SOURCE s SET SOURCE_RATE_LIMIT TO 2147483647",
        st.AlterRateLimit,
        SRC,
        name("s"),
        "SOURCE",
        2147483647,
    ),
    _p(
        "ALTER VIEW v SET BACKFILL_RATE_LIMIT = 1",
        st.AlterRateLimit,
        "VIEW",
        name("v"),
        "BACKFILL",
        1,
    ),
    _p("ALTER FRAGMENT 3 SET RATE_LIMIT = 10", st.AlterFragmentRateLimit, (3,), 10),
    _p(
        "ALTER FRAGMENT 3 SET source_rate_limit TO DEFAULT",
        st.AlterFragmentRateLimit,
        (3,),
        -1,
        "SOURCE",
    ),
    _p("ALTER TABLE t SET CONFIG (a.b = 1)", st.AlterSetConfig, TBL, name("t"), (("a.b", "1"),)),
    _p(
        "ALTER MATERIALIZED VIEW m RESET CONFIG (a.b)", st.AlterResetConfig, MV, name("m"), ("a.b",)
    ),
    _p(
        "ALTER INDEX i SET RESOURCE_GROUP = rg DEFERRED",
        st.AlterResourceGroup,
        IDX,
        name("i"),
        one("rg"),
        True,
    ),
    _p(
        "ALTER MATERIALIZED VIEW m RESET RESOURCE_GROUP",
        st.AlterResourceGroup,
        MV,
        name("m"),
        None,
        False,
    ),
    _p(
        "ALTER DATABASE d SET RESOURCE_GROUP TO rg DEFERRED",
        st.AlterResourceGroup,
        "DATABASE",
        name("d"),
        one("rg"),
        True,
    ),
    _p("ALTER MATERIALIZED VIEW m SWAP WITH n", st.AlterSwap, MV, name("m"), name("n")),
    _p(
        'alter materialized view "dev"."s"."mv_zd" swap with "dev"."s"."tmp"',
        st.AlterSwap,
        MV,
        name("dev", "s", "mv_zd"),
        name("dev", "s", "tmp"),
    ),
    _p("ALTER VIEW v SWAP WITH w", st.AlterSwap, "VIEW", name("v"), name("w")),
    _p('ALTER TABLE "T" RENAME TO u', st.AlterRename, TBL, name("T"), name("u")),
    _p(
        'alter index "dev"."s"."a" rename to "b"',
        st.AlterRename,
        IDX,
        name("dev", "s", "a"),
        name("b"),
    ),
    _p("ALTER SINK s OWNER TO Bob", st.AlterOwner, SINK, name("s"), "bob"),
    _p("ALTER SOURCE s SET SCHEMA x", st.AlterSetSchema, SRC, name("s"), name("x")),
    _p("ALTER SCHEMA s RENAME TO t", st.AlterRename, "SCHEMA", name("s"), name("t")),
    _p(
        "ALTER DATABASE d SET barrier_interval_ms = 1000",
        st.AlterDatabaseParam,
        name("d"),
        "barrier_interval_ms",
        one("1000"),
    ),
    _p(
        "ALTER DATABASE d SET checkpoint_frequency TO 10",
        st.AlterDatabaseParam,
        name("d"),
        "checkpoint_frequency",
        one("10"),
    ),
    _p(
        "ALTER SYSTEM SET pause_on_next_bootstrap TO true",
        st.AlterSystem,
        "pause_on_next_bootstrap",
        one("true"),
    ),
    _p(
        "ALTER SYSTEM SET streaming_parallelism = DEFAULT",
        st.AlterSystem,
        "streaming_parallelism",
        D,
    ),
    _p("ALTER DATABASE d PAUSE", st.AlterDatabasePause, name("d"), True),
    _p('alter database "Dev" resume', st.AlterDatabasePause, name("Dev"), False),
    _p("ALTER SYSTEM PAUSE", st.AlterSystemPause, True),
    _p("alter system resume", st.AlterSystemPause, False),
]

# --- CREATE (§4.1, §4.2, clients.md §7)
CREATE_CASES: list[tuple[str, object]] = [
    _p(
        "create materialized view m with (backfill_rate_limit=1) as select * from t "
        "emit on window close",
        st.CreateMaterializedView,
        name("m"),
        "select * from t",
        (),
        (("backfill_rate_limit", "1"),),
        False,
        False,
        True,
    ),
    _p(
        "CREATE MATERIALIZED VIEW IF NOT EXISTS s.m (a, b) AS SELECT 1, 2 EMIT IMMEDIATELY",
        st.CreateMaterializedView,
        name("s", "m"),
        "SELECT 1, 2",
        ("a", "b"),
        (),
        True,
    ),
    _p(
        "CREATE OR REPLACE MATERIALIZED VIEW m AS SELECT 1",
        st.CreateMaterializedView,
        name("m"),
        "SELECT 1",
        (),
        (),
        False,
        True,
    ),
    _p(
        "create materialized view m with (backfill_order = FIXED(a -> b)) as select 1",
        st.CreateMaterializedView,
        name("m"),
        "select 1",
        (),
        (("backfill_order", "FIXED(a -> b)"),),
    ),
    _p(
        "CREATE MATERIALIZED VIEW m WITH (refresh.interval.sec = '60', \"Resource_Group\" = 'x')"
        " AS WITH c AS (SELECT 1) SELECT * FROM c",
        st.CreateMaterializedView,
        name("m"),
        "WITH c AS (SELECT 1) SELECT * FROM c",
        (),
        (("refresh.interval.sec", "60"), ("Resource_Group", "x")),
    ),
    _p(
        "create materialized view m as select * from t join d FOR SYSTEM_TIME AS OF PROCTIME() "
        "on t.a = d.a",
        st.CreateMaterializedView,
        name("m"),
        "select * from t join d FOR SYSTEM_TIME AS OF PROCTIME() on t.a = d.a",
    ),
    _p(
        'create view if not exists "dev"."s"."v" as select 1',
        st.CreateView,
        name("dev", "s", "v"),
        "select 1",
        (),
        True,
    ),
    _p("create table t as select 1", st.CreateTable, name("t"), None, "select 1"),
    _p(
        'create table "dev"."s"."seed" ("id" integer,"name" text)',
        st.CreateTable,
        name("dev", "s", "seed"),
        '("id" integer,"name" text)',
    ),
    _p(
        "CREATE TABLE t (a int, WATERMARK FOR a AS a - 1) APPEND ONLY ON CONFLICT DO NOTHING "
        "ENGINE = iceberg",
        st.CreateTable,
        name("t"),
        "(a int, WATERMARK FOR a AS a - 1)",
        append_only=True,
        on_conflict="DO NOTHING",
        engine="iceberg",
    ),
    _p(
        "create table t (a int primary key) with (connector='datagen') format plain encode json",
        st.CreateTable,
        name("t"),
        "(a int primary key)",
        with_options=(("connector", "datagen"),),
        format_encode=st.FormatEncode("PLAIN", "JSON"),
    ),
    _p(
        "CREATE TABLE IF NOT EXISTS t (a int) INCLUDE key AS k WITH (connector = 'kafka') "
        "FORMAT UPSERT ENCODE AVRO (schema.registry = 'http://x')",
        st.CreateTable,
        name("t"),
        "(a int)",
        if_not_exists=True,
        include=("key k",),
        with_options=(("connector", "kafka"),),
        format_encode=st.FormatEncode("UPSERT", "AVRO", (("schema.registry", "http://x"),)),
    ),
    _p(
        "CREATE SOURCE IF NOT EXISTS s (id int, v int) WITH (connector = 'datagen', "
        "datagen.rows.per.second = '1') FORMAT PLAIN ENCODE JSON",
        st.CreateSource,
        name("s"),
        "(id int, v int)",
        True,
        (("connector", "datagen"), ("datagen.rows.per.second", "1")),
        st.FormatEncode("PLAIN", "JSON"),
    ),
    _p(
        "create sink if not exists s as select * from mv with (connector='blackhole', "
        "type='append-only') format plain encode json",
        st.CreateSink,
        name("s"),
        None,
        "select * from mv",
        None,
        True,
        (("connector", "blackhole"), ("type", "append-only")),
        st.FormatEncode("PLAIN", "JSON"),
    ),
    _p(
        "CREATE SINK s FROM m WITH (connector = 'blackhole')",
        st.CreateSink,
        name("s"),
        name("m"),
        with_options=(("connector", "blackhole"),),
    ),
    _p("CREATE SINK s INTO t FROM m", st.CreateSink, name("s"), name("m"), into_table=name("t")),
    _p(
        "CREATE INDEX IF NOT EXISTS i ON s.m (a, b DESC) INCLUDE (c) DISTRIBUTED BY (a)",
        st.CreateIndex,
        name("i"),
        name("s", "m"),
        ("a", "b DESC"),
        ("c",),
        ("a",),
        True,
    ),
    _p(
        'create index if not exists "__dbt_index_mv_model_name" on "dev"."s"."mv_model" (name)',
        st.CreateIndex,
        name("__dbt_index_mv_model_name"),
        name("dev", "s", "mv_model"),
        ("name",),
        if_not_exists=True,
    ),
    _p(
        "create subscription if not exists s from t with (retention = '1D')",
        st.CreateSubscription,
        name("s"),
        name("t"),
        True,
        (("retention", "1D"),),
    ),
    _p(
        "CREATE FUNCTION IF NOT EXISTS f (a int) RETURNS int LANGUAGE SQL AS $$ select a $$",
        st.CreateFunction,
        name("f"),
        True,
    ),
    _p("create schema if not exists s", st.CreateSchema, name("s"), True),
    _p("CREATE DATABASE d", st.CreateDatabase, name("d")),
    _p("create user u with password 'x'", st.CreateUser, "u"),
    _p(
        "CREATE SINK s FROM m WITH (connector = 'kafka', connection = my_conn, "
        "backfill_order = AUTO, n = 1, b = true, e = E'a\\nb')",
        st.CreateSink,
        name("s"),
        name("m"),
        with_options=(
            ("connector", "kafka"),
            ("connection", "my_conn"),
            ("backfill_order", "auto"),
            ("n", "1"),
            ("b", "true"),
            ("e", "a\nb"),
        ),
    ),
    _p(
        "CREATE MATERIALIZED VIEW m AS SELECT * EXCEPT (b) FROM t ASOF LEFT JOIN u "
        "ON t.k = u.k AND t.ts >= u.ts JOIN d FOR SYSTEM_TIME AS OF NOW() ON t.k = d.k",
        st.CreateMaterializedView,
        name("m"),
        "SELECT * EXCEPT (b) FROM t ASOF LEFT JOIN u ON t.k = u.k AND t.ts >= u.ts JOIN d "
        "FOR SYSTEM_TIME AS OF NOW() ON t.k = d.k",
    ),
]

# --- SET / SHOW / jobs / DROP / GRANT and PostgreSQL statements
OTHER_CASES: list[tuple[str, object]] = [
    _p("SET RW_IMPLICIT_FLUSH TO true", st.SetVariable, "rw_implicit_flush", one("true")),
    _p('SET "Quoted" = 1', st.SetVariable, "Quoted", one("1")),
    _p("SET streaming_parallelism = 2", st.SetVariable, "streaming_parallelism", one("2")),
    _p(
        "set streaming_parallelism = bounded(4)",
        st.SetVariable,
        "streaming_parallelism",
        one("bounded(4)"),
    ),
    _p("SET SESSION x TO DEFAULT", st.SetVariable, "x", D),
    _p(
        "SET LOCAL search_path = 'a', \"b\", c",
        st.SetVariable,
        "search_path",
        many("a", "b", "c"),
        True,
    ),
    _p("SET datestyle TO 'ISO'", st.SetVariable, "datestyle", one("ISO")),
    _p("SET backfill_rate_limit = '-1'", st.SetVariable, "backfill_rate_limit", one("-1")),
    _p("SET TIME ZONE 'UTC'", st.SetTimeZone, "UTC"),
    _p('set time zone "Asia/Shanghai"', st.SetTimeZone, "Asia/Shanghai"),
    _p("SET TIME ZONE LOCAL", st.SetTimeZone, "", local_zone=True),
    _p("SET TIME ZONE DEFAULT", st.SetTimeZone, "UTC"),
    _p("SET SESSION TIME ZONE 'local'", st.SetTimeZone, "local"),
    _p("SET TIME ZONE Europe_X", st.SetTimeZone, "europe_x"),
    _p("REFRESH TABLE t", st.RefreshTable, name("t")),
    _p("SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE", st.SetTimeZone, "UTC"),
    _p("SHOW streaming_parallelism", st.ShowVariable, "streaming_parallelism"),
    _p("show time zone", st.ShowVariable, "time zone"),
    _p("SHOW ALL", st.ShowVariable, "all"),
    _p("SHOW", st.ShowVariable, ""),
    _p("SHOW PARAMETERS", st.ShowVariable, "parameters"),
    _p("show transaction isolation level", st.ShowVariable, "transaction_isolation"),
    _p("SHOW JOBS", st.ShowObjects, "JOBS"),
    _p("SHOW JOBS LIKE '%x'", st.ShowObjects, "JOBS", like="%x"),
    _p("SHOW JOBS WHERE id > 1", st.ShowObjects, "JOBS", where="id > 1"),
    _p("SHOW PROCESSLIST", st.ShowObjects, "PROCESSLIST"),
    _p("SHOW TABLES FROM s", st.ShowObjects, "TABLES", name("s")),
    _p("SHOW MATERIALIZED VIEWS ILIKE 'a%'", st.ShowObjects, "MATERIALIZED VIEWS", ilike="a%"),
    _p("SHOW COLUMNS FROM s.t", st.ShowObjects, "COLUMNS", name("s", "t")),
    _p("SHOW INDEXES FROM t", st.ShowObjects, "INDEXES", name("t")),
    _p("SHOW SOURCES", st.ShowObjects, "SOURCES"),
    _p("SHOW SINKS", st.ShowObjects, "SINKS"),
    _p("SHOW VIEWS", st.ShowObjects, "VIEWS"),
    _p("SHOW DATABASES", st.ShowObjects, "DATABASES"),
    _p("SHOW SCHEMAS", st.ShowObjects, "SCHEMAS"),
    _p("SHOW CREATE MATERIALIZED VIEW m", st.ShowCreate, "MATERIALIZED VIEW", name("m")),
    _p("DESCRIBE s.t", st.Describe, name("s", "t")),
    _p("DESCRIBE FRAGMENTS m", st.Describe, name("m"), True),
    _p("DESCRIBE FRAGMENT 12", st.DescribeFragment, 12),
    _p("CANCEL JOBS 1, 2", st.CancelJobs, (1, 2)),
    _p("CANCEL JOB 5", st.CancelJobs, (5,)),
    _p("KILL '12'", st.Kill, "12"),
    _p("WAIT", st.Wait),
    _p('WAIT MATERIALIZED VIEW "dbt_test"."mv_model"', st.Wait, MV, name("dbt_test", "mv_model")),
    _p("WAIT INDEX i", st.Wait, IDX, name("i")),
    _p("WAIT SINK s", st.Wait, SINK, name("s")),
    _p("WAIT TABLE t", st.Wait, TBL, name("t")),
    _p("RECOVER", st.Recover),
    _p("FLUSH", st.Flush),
    _p("drop materialized view if exists a.b cascade", st.Drop, MV, (name("a", "b"),), True, True),
    _p("DROP SINK s", st.Drop, SINK, (name("s"),)),
    _p("DROP TABLE if", st.Drop, TBL, (name("if"),)),
    _p("CREATE TABLE IF (a int)", st.CreateTable, name("if"), "(a int)"),
    _p("drop function if exists f", st.Drop, "FUNCTION", (), True),
    _p(
        'grant select on materialized view "dev"."s"."m" to pwuser',
        st.Grant,
        ("SELECT",),
        MV,
        (name("dev", "s", "m"),),
        ("pwuser",),
    ),
    _p("REVOKE SELECT ON TABLE t FROM u", st.Revoke, ("SELECT",), TBL, (name("t"),), ("u",)),
    _p("comment on table s.t is 'x'", st.Comment, "TABLE", name("s", "t"), "x"),
    _p("select 1", st.Query),
    _p("(select 1)", st.Query),
    _p("VALUES (1)", st.Query),
    _p("insert into s.t values (1) returning a", st.Insert, name("s", "t"), True),
    _p("update t set a = 1", st.Update, name("t")),
    _p("delete from t where a in (select 1) returning a", st.Delete, name("t"), True),
    _p("copy pp (a, b) from stdin", st.Copy, name("pp"), False),
    _p("copy pp to stdout", st.Copy, name("pp"), True),
    _p(
        'DECLARE "mycur" CURSOR FOR select * from pp', st.DeclareCursor, "mycur", "select * from pp"
    ),
    _p('FETCH FORWARD ALL FROM "mycur"', st.FetchCursor, "mycur", None),
    _p("FETCH 10 FROM c", st.FetchCursor, "c", 10),
    _p('CLOSE "mycur"', st.CloseCursor, "mycur"),
    _p("BEGIN", st.Begin),
    _p("START TRANSACTION READ ONLY", st.StartTransaction),
    _p("COMMIT", st.Commit),
    _p("ROLLBACK", st.Rollback),
    _p("ABORT", st.Abort),
    _p("DISCARD ALL", st.Discard),
    _p("PREPARE p AS select 1", st.Prepare, "p"),
    _p("DEALLOCATE p", st.Deallocate, "p"),
    _p("alter user u with superuser", st.AlterUser, "u"),
]

ALL_PARSE_CASES = PARALLELISM_CASES + ALTER_CASES + CREATE_CASES + OTHER_CASES

# --- command tags (the StatementType Debug name; pg_response.rs:255-345, handler/mod.rs)
TAG_CASES: list[tuple[str, str]] = [
    ("ALTER COMPACTION GROUP 2 SET max_bytes_for_level_base = 1", "ALTER_COMPACTION_GROUP"),
    (
        "ALTER DEFAULT PRIVILEGES IN SCHEMA s GRANT SELECT ON TABLES TO u",
        "ALTER_DEFAULT_PRIVILEGES",
    ),
    ("ALTER FUNCTION f(int) OWNER TO u", "ALTER_FUNCTION"),
    ("ALTER TABLE t ADD COLUMN b int", "ALTER_TABLE"),
    ("REFRESH TABLE t", "REFRESH_TABLE"),
    ("BACKUP", "BACKUP"),
    ("ALTER TABLE t SET PARALLELISM = 4", "ALTER_TABLE"),
    ("ALTER MATERIALIZED VIEW m SET PARALLELISM = 4", "ALTER_MATERIALIZED_VIEW"),
    ("ALTER INDEX i SET PARALLELISM = 4", "ALTER_INDEX"),
    ("ALTER SINK s SET PARALLELISM = 4", "ALTER_SINK"),
    ("ALTER SOURCE s SET PARALLELISM = 4", "ALTER_SOURCE"),
    ("ALTER VIEW v RENAME TO w", "ALTER_VIEW"),
    ("ALTER FRAGMENT 1 SET PARALLELISM = 4", "ALTER_FRAGMENT"),
    ("ALTER FRAGMENT 1 SET RATE_LIMIT = 4", "SET_VARIABLE"),
    ("ALTER SYSTEM SET a = 1", "ALTER_SYSTEM"),
    ("ALTER SYSTEM PAUSE", "ALTER_SYSTEM"),
    ("ALTER DATABASE d PAUSE", "ALTER_DATABASE"),
    ("ALTER DATABASE d SET barrier_interval_ms = 1", "ALTER_DATABASE"),
    ("ALTER SCHEMA s OWNER TO u", "ALTER_SCHEMA"),
    ("CREATE MATERIALIZED VIEW m AS SELECT 1", "CREATE_MATERIALIZED_VIEW"),
    ("CREATE VIEW v AS SELECT 1", "CREATE_VIEW"),
    ("CREATE TABLE t (a int)", "CREATE_TABLE"),
    ("CREATE SOURCE s WITH (connector = 'x') FORMAT PLAIN ENCODE JSON", "CREATE_SOURCE"),
    ("CREATE SINK s FROM m WITH (connector = 'x')", "CREATE_SINK"),
    ("CREATE INDEX i ON t (a)", "CREATE_INDEX"),
    ("DROP MATERIALIZED VIEW m", "DROP_MATERIALIZED_VIEW"),
    ("DROP TABLE t", "DROP_TABLE"),
    ("SET a = 1", "SET_VARIABLE"),
    ("SET TIME ZONE 'UTC'", "SET_VARIABLE"),
    ("SHOW a", "SHOW_VARIABLE"),
    ("SHOW ALL", "SHOW_VARIABLE"),
    ("SHOW JOBS", "SHOW_COMMAND"),
    ("SHOW PROCESSLIST", "SHOW_COMMAND"),
    ("CANCEL JOBS 1", "CANCEL_COMMAND"),
    ("KILL '1'", "KILL"),
    ("WAIT", "WAIT"),
    ("RECOVER", "RECOVER"),
    ("FLUSH", "FLUSH"),
    ("BEGIN", "BEGIN"),
    ("START TRANSACTION", "START_TRANSACTION"),
    ("COMMIT", "COMMIT"),
    ("ROLLBACK", "ROLLBACK"),
    ("ABORT", "ABORT"),
    ("SELECT 1", "SELECT"),
    ("INSERT INTO t VALUES (1)", "INSERT"),
    ("INSERT INTO t VALUES (1) RETURNING a", "INSERT_RETURNING"),
    ("DELETE FROM t", "DELETE"),
    ("UPDATE t SET a = 1", "UPDATE"),
    ("GRANT SELECT ON t TO u", "GRANT_PRIVILEGE"),
    ("REVOKE SELECT ON t FROM u", "REVOKE_PRIVILEGE"),
    ("COMMENT ON TABLE t IS 'x'", "COMMENT"),
    ("DECLARE c CURSOR FOR SELECT 1", "DECLARE_CURSOR"),
    ("FETCH 1 FROM c", "FETCH_CURSOR"),
    ("CLOSE c", "CLOSE_CURSOR"),
    ("EXPLAIN SELECT 1", "EXPLAIN"),
    ("DESCRIBE t", "DESCRIBE"),
    ("create user u", "CREATE_USER"),
    ("alter user u rename to v", "UPDATE_USER"),
]


def _err(sql: str, message: str, col: int, line: int = 1) -> tuple[str, str]:
    """An expected parse error: message, then `LINE n: <line>` and a caret under column col
    (1-based, in characters), as parser.rs:201-228 lays it out."""
    prefix = f"LINE {line}: "
    src_line = sql.split("\n")[line - 1]
    return (
        sql,
        f"sql parser error: {message}\n{prefix}{src_line}\n{' ' * (len(prefix) + col - 1)}^",
    )


def _eof(sql: str, message: str) -> tuple[str, str]:
    lines = sql.split("\n")
    return _err(sql, message, len(lines[-1]) + 1, len(lines))


_AFTER_SET = {
    "TABLE": "SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/SOURCE_RATE_LIMIT/DML_RATE_LIMIT/CONFIG",
    "INDEX": "PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP or CONFIG",
    "MV": "SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG",
    "SINK": "SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP/SINK_RATE_LIMIT/"
    "BACKFILL_RATE_LIMIT/STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG",
    "SOURCE": "SCHEMA, SOURCE_RATE_LIMIT, PARALLELISM, BACKFILL_PARALLELISM or CONFIG",
}

# Every parse-error text of rw-sql-surface.md (§0.4, §1.6, §3, §3.1, §4.6, §5.1, §6 rows 38-41)
# and e2e_test/error_ui/simple/main.slt, checked whole.
PARSE_ERRORS: list[tuple[str, str]] = [
    ("selet 1;", "sql parser error: expected statement, found: selet\nLINE 1: selet 1;\n        ^"),
    _err("PAUSE", "expected statement, found: PAUSE", 1),
    _err("RESET x", "expected statement, found: RESET", 1),
    _err("RESET ALL", "expected statement, found: RESET", 1),
    _err('SAVEPOINT "_pg3_1"', "expected statement, found: SAVEPOINT", 1),
    _err("select 1; selet 2", "expected statement, found: selet", 11),
    _err("select 1;\n  selet 2", "expected statement, found: selet", 3, 2),
    _err(
        "ALTER DATABASE d FOO",
        "expected RENAME, OWNER TO, SET, OR RESET after ALTER DATABASE, found: FOO",
        18,
    ),
    _err("ALTER DATABASE d RENAME x", "expected TO after RENAME, found: x", 25),
    _err(
        "ALTER DATABASE d SET RESOURCE_GROUP rg",
        "expected TO or = after ALTER DATABASE SET RESOURCE_GROUP, found: rg",
        37,
    ),
    _eof(
        "ALTER DATABASE d SET RESOURCE_GROUP = rg",
        "expected DEFERRED after ALTER DATABASE SET RESOURCE_GROUP, found: EOF",
    ),
    _err("ALTER DATABASE d SET x 1", "expected '=' or 'TO' after config parameter, found: 1", 24),
    _err(
        "ALTER TABLE t SET PARALLELISM 4",
        "expected TO or = after ALTER TABLE SET PARALLELISM, found: 4",
        31,
    ),
    _err(
        "ALTER TABLE t SET PARALLELISM;",
        "expected TO or = after ALTER TABLE SET PARALLELISM, found: ;",
        30,
    ),
    _err(
        "ALTER TABLE t SET BACKFILL_PARALLELISM x",
        "expected TO or = after ALTER TABLE SET BACKFILL_PARALLELISM, found: x",
        40,
    ),
    _err(
        "ALTER INDEX i SET PARALLELISM 2",
        "expected TO or = after ALTER INDEX SET PARALLELISM, found: 2",
        31,
    ),
    _err(
        "ALTER INDEX i SET BACKFILL_PARALLELISM 2",
        "expected TO or = after ALTER INDEX SET BACKFILL_PARALLELISM, found: 2",
        40,
    ),
    _err(
        "ALTER MATERIALIZED VIEW m SET PARALLELISM to_ 2",
        "expected TO or = after ALTER MATERIALIZED VIEW SET PARALLELISM, found: to_",
        43,
    ),
    _err(
        "ALTER MATERIALIZED VIEW m SET BACKFILL_PARALLELISM 2",
        "expected TO or = after ALTER MATERIALIZED VIEW SET BACKFILL_PARALLELISM, found: 2",
        52,
    ),
    _err(
        "ALTER SINK s SET PARALLELISM x",
        "expected TO or = after ALTER SINK SET PARALLELISM, found: x",
        30,
    ),
    _err(
        "ALTER SINK s SET BACKFILL_PARALLELISM x",
        "expected TO or = after ALTER SINK SET BACKFILL_PARALLELISM, found: x",
        39,
    ),
    _eof(
        "ALTER SOURCE s SET PARALLELISM",
        "expected TO or = after ALTER SOURCE SET PARALLELISM, found: EOF",
    ),
    _eof(
        "ALTER SOURCE s SET BACKFILL_PARALLELISM",
        "expected TO or = after ALTER SOURCE SET BACKFILL_PARALLELISM, found: EOF",
    ),
    _err(
        "ALTER FRAGMENT 1, 2 SET PARALLELISM 3",
        "expected TO or = after ALTER FRAGMENT SET PARALLELISM, found: 3",
        37,
    ),
    _err("ALTER FRAGMENT 1 SET foo = 1", "expected expected rate limit after SET, found: foo", 22),
    _err("ALTER FRAGMENT 1 x", "expected SET after ALTER FRAGMENT, found: x", 18),
    _err("ALTER TABLE t SET foo", f"expected {_AFTER_SET['TABLE']} after SET, found: foo", 19),
    _err("ALTER INDEX i SET foo", f"expected {_AFTER_SET['INDEX']} after SET, found: foo", 19),
    _err(
        "ALTER MATERIALIZED VIEW m SET foo",
        f"expected {_AFTER_SET['MV']} after SET, found: foo",
        31,
    ),
    _err("ALTER VIEW v SET foo", f"expected {_AFTER_SET['MV']} after SET, found: foo", 18),
    _err("ALTER SINK s SET foo", f"expected {_AFTER_SET['SINK']} after SET, found: foo", 18),
    _err("ALTER SOURCE s SET foo", f"expected {_AFTER_SET['SOURCE']} after SET, found: foo", 20),
    _err(
        "ALTER VIEW v SET PARALLELISM = 2", f"expected {_AFTER_SET['MV']} after SET, found: =", 30
    ),
    _err(
        "ALTER VIEW v SET PARALLELISM to 2", f"expected {_AFTER_SET['MV']} after SET, found: to", 30
    ),
    _err(
        "ALTER VIEW v SET BACKFILL_PARALLELISM TO 2",
        f"expected {_AFTER_SET['MV']} after SET, found: TO",
        39,
    ),
    _err(
        "ALTER FOO x",
        "expected COMPACTION, DATABASE, FRAGMENT, SCHEMA, TABLE, INDEX, "
        "MATERIALIZED, VIEW, SINK, SUBSCRIPTION, SOURCE, FUNCTION, USER, SECRET or SYSTEM after "
        "ALTER, found: FOO",
        7,
    ),
    _err(
        "ALTER TABLE t FOO",
        "expected ADD or RENAME or OWNER TO or SET or RESET or DROP or SWAP "
        "or CONNECTOR after ALTER TABLE, found: FOO",
        15,
    ),
    _err(
        "ALTER MATERIALIZED VIEW m FOO",
        "expected AS, RENAME, OWNER TO, SET, or SWAP after ALTER MATERIALIZED VIEW, found: FOO",
        27,
    ),
    _err("ALTER SYSTEM FOO", "expected SET, found: FOO", 14),
    _err(
        "ALTER SINK s OWNER x",
        "expected RENAME or OWNER TO or SET or RESET or CONNECTOR WITH after ALTER SINK, "
        "found: OWNER",
        14,
    ),
    _err(
        "ALTER SCHEMA s SWAP x",
        "expected RENAME, OWNER TO, OR SWAP WITH after ALTER SCHEMA, found: SWAP",
        16,
    ),
    _err("ALTER SCHEMA s RENAME x", "expected TO, found: x", 23),
    _err("ALTER TABLE t RENAME a", "expected TO, found: EOF", 23),
    _err(
        "ALTER MATERIALIZED x",
        "expected COMPACTION, DATABASE, FRAGMENT, SCHEMA, TABLE, INDEX, MATERIALIZED, VIEW, "
        "SINK, SUBSCRIPTION, SOURCE, FUNCTION, USER, SECRET or SYSTEM after ALTER, "
        "found: MATERIALIZED",
        7,
    ),
    _err("CREATE MATERIALIZED x", "expected an object type after CREATE, found: MATERIALIZED", 8),
    _err(
        "DROP MATERIALIZED x",
        "expected TABLE, VIEW, INDEX, MATERIALIZED VIEW, SOURCE, SINK, SUBSCRIPTION, SCHEMA, "
        "DATABASE, USER, SECRET or CONNECTION after DROP, found: MATERIALIZED",
        6,
    ),
    _err("ALTER SYSTEM SET x 1", "expected TO or = after ALTER SYSTEM SET, found: 1", 20),
    # rate limits (§3.1, §6 row 40)
    _eof(
        "ALTER TABLE t SET source_rate_limit = 99999999999",
        "expected number or DEFAULT, found: EOF",
    ),
    _err(
        "ALTER TABLE t SET source_rate_limit = 2147483648 x",
        "expected number or DEFAULT, found: x",
        50,
    ),
    _err(
        "ALTER TABLE t SET source_rate_limit 1", "expected TO or = after rate limit, found: 1", 37
    ),
    _err("ALTER SINK s SET SINK_RATE_LIMIT = -1", "expected a value, found: -", 36),
    _err("ALTER SINK s SET SINK_RATE_LIMIT = abc", "expected a concrete value, found: abc", 36),
    _err("ALTER SINK s SET SINK_RATE_LIMIT = 'x'", "expected literal number, found: 'x'", 36),
    # set-variable values (§0.4, §4.6, §6 row 41)
    _err("SET streaming_parallelism = -1", "expected parameter value", 29),
    _err("ALTER TABLE t SET PARALLELISM = -1", "expected parameter value", 33),
    _err("ALTER INDEX i SET PARALLELISM = 1, -1", "expected parameter value", 36),
    _eof("ALTER INDEX i SET BACKFILL_PARALLELISM TO", "expected parameter value"),
    _err(
        "ALTER TABLE t SET PARALLELISM = 1, default",
        "expected parameter list value, found: default",
        36,
    ),
    _err("SET x y", "expected '=' or 'TO' after config parameter, found: y", 7),
    _err("SET x = 1 2", "expected end of statement, found: 2", 11),
    _err("alter table t set parallelism = 4 deferred x", "expected end of statement, found: x", 44),
    # jobs (§5.1)
    _err("CANCEL 1", "expected JOBS or JOB after CANCEL, found: 1", 8),
    _err("CANCEL JOBS x", "invalid number", 13),
    _err("CANCEL JOBS 1, 4294967296", "invalid u32: number too large to fit in target type", 16),
    _err(
        "ALTER FRAGMENT 1.5 SET PARALLELISM = 1", "invalid u32: invalid digit found in string", 16
    ),
    _err("KILL 12", "expected literal string, found: 12", 6),
    _err("WAIT MATERIALIZED x", "expected VIEW, found: x", 19),
    _err("SHOW MATERIALIZED x", "expected VIEWS after MATERIALIZED, found: x", 19),
    _err("SHOW COLUMNS t", "expected from after columns, found: t", 14),
    _err(
        "SHOW CREATE FOO x",
        "expected TABLE, MATERIALIZED VIEW, VIEW, INDEX, FUNCTION, SOURCE, "
        "SUBSCRIPTION or SINK, found: FOO",
        13,
    ),
    # CREATE (§4.1)
    _err(
        "create materialized source s",
        "CREATE MATERIALIZED SOURCE has been deprecated, use CREATE TABLE instead",
        28,
    ),
    _err(
        "CREATE OR REPLACE SINK s",
        "REPLACE SINK should be used instead of CREATE OR REPLACE SINK",
        24,
    ),
    _err("CREATE FOO", "expected an object type after CREATE, found: FOO", 8),
    _err("CREATE SINK s x", "expected FROM or AS after CREATE SINK sink_name, found: x", 15),
    _eof("CREATE SINK s FROM m", "expected WITH, found: EOF"),
    _err("CREATE SINK s FROM m FORMAT PLAIN ENCODE JSON", "expected WITH, found: FORMAT", 22),
    _err("DROP TABLE IF x", "expected end of statement, found: x", 15),
    _err("CREATE SINK s FROM m WITH (connection = 'c')", "expected identifier, found: 'c'", 41),
    _err(
        "CREATE SINK s AS SELECT 1 WITH () FORMAT PLAIN ENCODE JSON",
        "sink properties not provided",
        35,
    ),
    _err("CREATE MATERIALIZED VIEW m SELECT 1", "expected AS, found: SELECT", 28),
    _err(
        "CREATE SINK s FROM m WITH (connector = kafka)",
        "expected a concrete value, found: kafka",
        40,
    ),
    _err("CREATE TABLE t (a int) WITH (x = f(a -> b))", "expected a concrete value, found: f", 34),
    _err(
        "create materialized view m as selec 1",
        "expected SELECT, VALUES, or a subquery in the query body, found: selec",
        31,
    ),
    _eof("create view v as select * from t where", "expected an expression, found: EOF"),
    _err("create sink s as select (1 with (connector = 'x')", "expected ), found: with", 28),
    # PostgreSQL syntax rejected (pglast) in RisingWave's form
    _err("select 1 2", "expected end of statement, found: 2", 10),
    _eof("select (1", "expected ), found: EOF"),
    _eof("select 1 +", "expected an expression, found: EOF"),
    _eof("SELECT * FROM", "expected identifier, found: EOF"),
    _eof(
        "CREATE MATERIALIZED VIEW m AS",
        "expected SELECT, VALUES, or a subquery in the query body, found: EOF",
    ),
    _eof(
        "CREATE MATERIALIZED VIEW m AS SELECT 1 EMIT",
        "expected IMMEDIATELY or ON WINDOW CLOSE after EMIT, found: EOF",
    ),
    _eof("DESCRIBE", "expected identifier, found: EOF"),
    _err("CREATE MATERIALIZED VIEW m WITH (a.b = ) AS SELECT 1", "expected a value, found: )", 40),
    _err("CREATE MATERIALIZED VIEW m WITH (a) AS SELECT 1", "expected =, found: )", 35),
    _err("GRANT SELECT t TO u", "expected ON, found: t", 14),
    _err("select * from t join ;", "expected identifier, found: ;", 22),
    (
        "ALTER SINK s SET PARALLELISM\n",
        "sql parser error: expected TO or = after ALTER SINK SET "
        "PARALLELISM, found: EOF\nLINE 1: ALTER SINK s SET PARALLELISM\n" + " " * 36 + "^",
    ),
    # DML forms RisingWave's grammar lacks (parser.rs:4641-4665, 6005-6022)
    _err("delete from s.t as x where a = 1", "expected end of statement, found: as", 17),
    _err("COMMIT PREPARED 'x'", "expected end of statement, found: PREPARED", 8),
    _err("ROLLBACK WORK TO SAVEPOINT x", "expected end of statement, found: TO", 15),
    _err("ALTER USER u SET x = 1", "expected end of statement, found: SET", 14),
    _err(
        "WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x",
        "expected SELECT, VALUES, or a subquery in the query body, found: INSERT",
        22,
    ),
    _err("DELETE FROM t x", "expected end of statement, found: x", 15),
    _err("DELETE FROM t USING u WHERE t.a = u.a", "expected end of statement, found: USING", 15),
    _err("UPDATE t AS x SET a = 1", "expected SET, found: AS", 10),
    _err("UPDATE t SET a = u.a FROM u", "expected end of statement, found: FROM", 22),
    _err(
        "INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING",
        "expected end of statement, found: ON",
        26,
    ),
    # tokenizer errors (tokenizer.rs)
    (
        "select 'abc",
        "sql parser error: Unterminated string literal at line 1, column 12\n"
        "LINE 1: select 'abc\n                   ^",
    ),
    (
        'select "abc',
        "sql parser error: Expected close delimiter '\"' before EOF. at line 1, "
        'column 12\nLINE 1: select "abc\n                   ^',
    ),
    (
        "select $$abc",
        "sql parser error: Unterminated dollar-quoted string at line 1, column 13\n"
        "LINE 1: select $$abc\n                    ^",
    ),
    (
        "select 1 /* x",
        "sql parser error: Unexpected EOF while in a multi-line comment at line 1, "
        "column 14\nLINE 1: select 1 /* x\n                     ^",
    ),
    (
        "select 12abc",
        "sql parser error: trailing junk after numeric literal at line 1, column 10\n"
        "LINE 1: select 12abc\n                 ^",
    ),
    (
        "select E'\\u12'",
        "sql parser error: invalid unicode sequence: must be \\uXXXX or \\UXXXXXXXX at line 1, "
        "column 15\nLINE 1: select E'\\u12'\n" + " " * 22 + "^",
    ),
    _err(
        "CREATE SINK s FROM m WITH (connector = kafka)",
        "expected a concrete value, found: kafka",
        40,
    ),
    _err("CREATE TABLE t (a int) WITH (x = f(a -> b))", "expected a concrete value, found: f", 34),
]
