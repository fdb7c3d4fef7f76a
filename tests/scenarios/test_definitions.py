"""Stored definitions, renames, moves, database and schema ALTERs and DROP's refusals over a real
socket (psycopg's simple protocol and asyncpg's extended one).

The texts are RisingWave's: a CREATE is stored as its unparser prints it (normalize_sql,
src/frontend/src/handler/mod.rs:246-302; a view as its query's Display,
view_catalog.rs:68-74), ALTER ... RENAME rewrites the renamed object's own definition and every
dependent's (src/meta/src/controller/rename.rs: ``FROM new AS old``), SET SCHEMA rewrites
nothing (alter_op.rs alter_schema).  The expected texts follow e2e_test/ddl/alter_rename.slt and
alter_set_schema.slt at the reference commit (with INT columns where those use structs).
Dependents must keep working after their upstream is renamed or moved: rows inserted through
the new name reach them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from rwshim.errors import PREPARE_STATEMENT
from tests.conftest import Running
from tests.scenarios.drivers import AsyncpgClient, Client, Failure


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server with its barrier loop running (a foreground CREATE and FLUSH return)."""
    return await rw_server_factory()


def caused_by(envelope: str, *causes: str) -> str:
    """RisingWave's error report under the pgwire envelope (thiserror-ext report.rs)."""
    if len(causes) == 1:
        return f"{envelope}\n\nCaused by:\n  {causes[0]}\n"
    lines = "".join(f"  {i}: {c}\n" for i, c in enumerate(causes, start=1))
    return f"{envelope}\n\nCaused by these errors (recent errors listed first):\n{lines}"


async def fail_early(client: Client, sql: str) -> tuple[Failure, str]:
    """A statement that fails while it is parsed or bound: through the extended protocol that is
    at Parse (asyncpg's prepare), so under the prepare envelope.  Returns the failure and the
    envelope it comes under."""
    if isinstance(client, AsyncpgClient):
        try:
            await client.conn.prepare(sql)
        except asyncpg.PostgresError as e:
            return Failure(str(e.severity), str(e.sqlstate), str(e.message)), PREPARE_STATEMENT
        raise AssertionError(f"{sql!r} prepared")
    return await client.fail(sql), client.envelope


async def show_create(client: Client, kind: str, name: str) -> tuple[str, str]:
    rows = await client.rows(f"show create {kind} {name}")
    assert len(rows) == 1, rows
    return str(rows[0][0]), str(rows[0][1])


async def definitions(client: Client, *names: str) -> dict[str, str]:
    listed = ", ".join(f"'{n}'" for n in names)
    rows = await client.rows(
        f"select name, definition from rw_catalog.rw_relations where name in ({listed})"
    )
    return {str(n): str(d) for n, d in rows}


async def test_create_statements_are_stored_as_the_unparser_prints_them(client: Client) -> None:
    """Keywords upper-cased, spacing and OR REPLACE / IF NOT EXISTS dropped, casts in CAST form
    (ast/mod.rs Display), a view as ``CREATE VIEW name AS <query>``."""
    statements = [
        "create table if not exists t (v1 int primary key, v2 varchar, v3 double precision)",
        "create materialized view if not exists mv as select v1 , v2::int as c from t"
        " where v1>0 order by v1",
        "create or replace view v as ( select  count(*)  from t , t as t2 where t.v1=t2.v1 )",
        "create index idx on t ( v2 ) include ( v3 )",
        "create sink sk from mv with ( connector = 'blackhole' )",
        "create source src ( a int ) with ( connector='datagen', datagen.rows.per.second='1' )"
        " format plain encode json",
    ]
    for sql in statements:
        await client.run(sql)
    assert await definitions(client, "t", "mv", "v", "idx", "sk", "src") == {
        "t": "CREATE TABLE t (v1 INT PRIMARY KEY, v2 CHARACTER VARYING, v3 DOUBLE)",
        "mv": "CREATE MATERIALIZED VIEW mv AS SELECT v1, CAST(v2 AS INT) AS c FROM t"
        " WHERE v1 > 0 ORDER BY v1",
        "v": "CREATE VIEW v AS (SELECT count(*) FROM t, t AS t2 WHERE t.v1 = t2.v1)",
        "idx": "CREATE INDEX idx ON t(v2) INCLUDE(v3)",
        "sk": "CREATE SINK sk FROM mv WITH (connector = 'blackhole')",
        "src": "CREATE SOURCE src (a INT) WITH (connector = 'datagen',"
        " datagen.rows.per.second = '1') FORMAT PLAIN ENCODE JSON",
    }
    assert await show_create(client, "materialized view", "mv") == (
        "public.mv",
        "CREATE MATERIALIZED VIEW mv AS SELECT v1, CAST(v2 AS INT) AS c FROM t"
        " WHERE v1 > 0 ORDER BY v1",
    )
    assert await show_create(client, "view", "v") == (
        "public.v",
        "CREATE VIEW v AS (SELECT count(*) FROM t, t AS t2 WHERE t.v1 = t2.v1)",
    )
    # The same text in the kind-specific catalogs.
    assert await client.rows("select definition from rw_materialized_views where name = 'mv'") == [
        (
            "CREATE MATERIALIZED VIEW mv AS SELECT v1, CAST(v2 AS INT) AS c FROM t"
            " WHERE v1 > 0 ORDER BY v1",
        )
    ]
    assert await client.rows("select definition from rw_sinks where name = 'sk'") == [
        ("CREATE SINK sk FROM mv WITH (connector = 'blackhole')",)
    ]


async def test_rename_rewrites_every_dependent_which_keeps_working(client: Client) -> None:
    """e2e_test/ddl/alter_rename.slt: the renamed table keeps its alias in each dependent
    (``FROM t2 AS t``), a renamed MV's sink reads ``FROM mv3 AS mv3``, a renamed view's MV
    ``FROM v5 AS v1``; inserts through the new name reach the MV, the sink's MV and views."""
    await client.run("set rw_implicit_flush = true")
    for sql in (
        "CREATE TABLE t (v1 INT primary key, v2 INT)",
        "CREATE TABLE t_as AS ( WITH source_data AS ( SELECT 1 AS id) SELECT * FROM source_data)",
        "CREATE MATERIALIZED VIEW mv AS SELECT v1, t.v2 AS v21 FROM t",
        "CREATE SINK sink AS SELECT mv3.v1 AS v1, mv3.v21 AS v2 FROM mv AS mv3"
        " WITH (connector = 'blackhole')",
        "CREATE VIEW v1 AS ( SELECT * FROM t_as WHERE id = 1)",
        "CREATE VIEW v2 AS (SELECT COUNT(*) FROM t, t AS t2 WHERE t.v1 = t2.v1)",
        "CREATE VIEW v3 AS (SELECT MAX(t.v2) FROM t AS t)",
        "CREATE MATERIALIZED VIEW mv_on_v1 AS SELECT * FROM v1",
        "CREATE index idx ON t(v1)",
    ):
        await client.run(sql)
    assert await show_create(client, "table", "t") == (
        "public.t",
        "CREATE TABLE t (v1 INT PRIMARY KEY, v2 INT)",
    )
    assert await client.run("ALTER TABLE t RENAME TO t2") == "ALTER_TABLE"
    assert await show_create(client, "table", "t2") == (
        "public.t2",
        "CREATE TABLE t2 (v1 INT PRIMARY KEY, v2 INT)",
    )
    assert await show_create(client, "view", "v2") == (
        "public.v2",
        "CREATE VIEW v2 AS (SELECT COUNT(*) FROM t2 AS t, t2 AS t2 WHERE t.v1 = t2.v1)",
    )
    assert await show_create(client, "view", "v3") == (
        "public.v3",
        "CREATE VIEW v3 AS (SELECT MAX(t.v2) FROM t2 AS t)",
    )
    assert await show_create(client, "materialized view", "mv") == (
        "public.mv",
        "CREATE MATERIALIZED VIEW mv AS SELECT v1, t.v2 AS v21 FROM t2 AS t",
    )
    assert await client.run("ALTER MATERIALIZED VIEW mv RENAME TO mv2") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await show_create(client, "materialized view", "mv2") == (
        "public.mv2",
        "CREATE MATERIALIZED VIEW mv2 AS SELECT v1, t.v2 AS v21 FROM t2 AS t",
    )
    assert await client.run("ALTER SINK sink RENAME TO sink1") == "ALTER_SINK"
    assert await show_create(client, "sink", "sink1") == (
        "public.sink1",
        "CREATE SINK sink1 AS SELECT mv3.v1 AS v1, mv3.v21 AS v2 FROM mv2 AS mv3"
        " WITH (connector = 'blackhole')",
    )
    # The alias already matches the new name: rename.rs keeps ``mv3 AS mv3``.
    await client.run("ALTER MATERIALIZED VIEW mv2 RENAME TO mv3")
    assert (await show_create(client, "sink", "sink1"))[1] == (
        "CREATE SINK sink1 AS SELECT mv3.v1 AS v1, mv3.v21 AS v2 FROM mv3 AS mv3"
        " WITH (connector = 'blackhole')"
    )
    await client.run("ALTER TABLE t_as RENAME TO t_as_1")
    assert await client.run("ALTER VIEW v1 RENAME TO v5") == "ALTER_VIEW"
    assert await show_create(client, "view", "v5") == (
        "public.v5",
        "CREATE VIEW v5 AS (SELECT * FROM t_as_1 AS t_as WHERE id = 1)",
    )
    assert await show_create(client, "materialized view", "mv_on_v1") == (
        "public.mv_on_v1",
        "CREATE MATERIALIZED VIEW mv_on_v1 AS SELECT * FROM v5 AS v1",
    )
    assert await client.run("ALTER INDEX idx RENAME TO idx1") == "ALTER_INDEX"
    assert await show_create(client, "index", "idx1") == (
        "public.idx1",
        "CREATE INDEX idx1 ON t2(v1)",
    )
    # Every dependent still reads what it read.
    await client.run("INSERT INTO t2 VALUES (1, 10)")
    await client.run("INSERT INTO t2 VALUES (2, 20)")
    assert await client.rows("SELECT * FROM mv3 ORDER BY v1") == [(1, 10), (2, 20)]
    assert await client.rows("SELECT * FROM v2") == [(2,)]
    assert await client.rows("SELECT * FROM v3") == [(20,)]
    assert await client.rows("SELECT * FROM v5") == [(1,)]
    assert await client.rows("SELECT * FROM mv_on_v1") == [(1,)]
    assert await client.rows("SELECT v1 FROM t2 WHERE v1 = 2") == [(2,)]
    # The catalogs list the new names only.
    assert sorted(
        str(r[0])
        for r in await client.rows(
            "select name from rw_relations where schema_id = (select id from rw_schemas"
            " where name = 'public')"
        )
    ) == ["idx1", "mv3", "mv_on_v1", "sink1", "t2", "t_as_1", "v2", "v3", "v5"]


async def test_source_rename_rewrites_the_mv_on_it(client: Client) -> None:
    """alter_rename.slt: ``ALTER SOURCE src RENAME TO src1`` -> the MV reads
    ``FROM src1 AS src``; the source's own text names it anew, options as Display prints them."""
    await client.run(
        "CREATE SOURCE src (v INT) WITH (connector = 'datagen', fields.v.kind = 'sequence',"
        " fields.v.start = '1', fields.v.end  = '10', datagen.rows.per.second='15',"
        " datagen.split.num = '1') FORMAT PLAIN ENCODE JSON"
    )
    await client.run("CREATE MATERIALIZED VIEW mv4 AS SELECT * FROM src")
    assert await client.run("ALTER SOURCE src RENAME TO src1") == "ALTER_SOURCE"
    assert await show_create(client, "source", "src1") == (
        "public.src1",
        "CREATE SOURCE src1 (v INT) WITH (connector = 'datagen', fields.v.kind = 'sequence',"
        " fields.v.start = '1', fields.v.end = '10', datagen.rows.per.second = '15',"
        " datagen.split.num = '1') FORMAT PLAIN ENCODE JSON",
    )
    assert await show_create(client, "materialized view", "mv4") == (
        "public.mv4",
        "CREATE MATERIALIZED VIEW mv4 AS SELECT * FROM src1 AS src",
    )
    # A table with connector is renamed by ALTER TABLE only (alter_rename.rs:213-219).
    await client.run(
        "CREATE TABLE msrc (v INT) WITH (connector = 'datagen', fields.v.kind = 'sequence',"
        " fields.v.start = '1', fields.v.end = '10') FORMAT PLAIN ENCODE JSON"
    )
    f = await client.fail("ALTER SOURCE msrc RENAME TO msrc1")
    assert f.message == caused_by(
        client.envelope, "Invalid input syntax: Use `ALTER TABLE` to alter a table with connector."
    )
    assert await client.run("ALTER TABLE msrc RENAME TO msrc1") == "ALTER_TABLE"
    assert await show_create(client, "table", "msrc1") == (
        "public.msrc1",
        "CREATE TABLE msrc1 (v INT) WITH (connector = 'datagen', fields.v.kind = 'sequence',"
        " fields.v.start = '1', fields.v.end = '10') FORMAT PLAIN ENCODE JSON",
    )
    # Its source shares the sources' names (check_relation_name_duplicate).
    f = await client.fail("ALTER TABLE msrc1 RENAME TO src1")
    assert f.message == caused_by(
        client.envelope,
        "Catalog error",
        "gRPC request to meta service (call `/ddl_service.DdlService/AlterName`) failed: Some"
        " entity that we attempted to create (e.g., file or directory) already exists",
        "source named src1 already exists",
    )


async def test_set_schema_moves_an_upstream_and_its_dependents_keep_working(
    client: Client,
) -> None:
    """ALTER TABLE ... SET SCHEMA moves the table with its indexes (alter_set_schema.slt);
    meta's alter_schema rewrites no definition, so the MV still shows ``FROM t`` while reading
    the moved table; a view, bound again at each query, no longer finds ``t``."""
    await client.run("set rw_implicit_flush = true")
    for sql in (
        "create schema s",
        "create table t (a int, b int)",
        "create index ti on t(b)",
        "create materialized view mv as select a, b from t",
        "create view v as select a from t",
    ):
        await client.run(sql)
    assert await client.run("alter table t set schema s") == "ALTER_TABLE"
    assert await client.rows(
        "select tablename, schemaname from pg_tables where schemaname = 's'"
    ) == [("t", "s")]
    assert await client.rows(
        "select indexname, schemaname from pg_indexes where schemaname = 's'"
    ) == [("ti", "s")]
    assert await show_create(client, "table", "s.t") == (
        "s.t",
        "CREATE TABLE t (a INT, b INT)",
    )
    assert await show_create(client, "materialized view", "mv") == (
        "public.mv",
        "CREATE MATERIALIZED VIEW mv AS SELECT a, b FROM t",
    )
    await client.run("insert into s.t values (1, 2), (3, 4)")
    assert await client.rows("select * from mv order by a") == [(1, 2), (3, 4)]
    f, envelope = await fail_early(client, "select * from v")
    # resolve_view_relation (binder/relation/table_or_source.rs:610-624): the view's query
    # text in the message, the catalog error as its report
    assert (f.sqlstate, f.message) == (
        "XX000",
        caused_by(
            envelope,
            "Bind error: failed to bind view v, sql: SELECT a FROM t\n"
            "error: Catalog error: table or source not found: t",
        ),
    )
    # Moved back, the view binds again.
    assert await client.run("alter table s.t set schema public") == "ALTER_TABLE"
    assert await client.rows("select * from v order by a") == [(1,), (3,)]


async def test_schema_rename_and_owner(client: Client) -> None:
    """ALTER SCHEMA ... RENAME TO / OWNER TO (alter_rename.rs:233-281, alter_owner.rs): what is
    in the schema is found under the new name and keeps working; a view in it shows the new
    schema in its prefix (view_catalog.rs:68-74); system schemas and missing ones refused."""
    await client.run("set rw_implicit_flush = true")
    for sql in (
        "create schema s",
        "create table s.t (id int)",
        "create materialized view s.mv as select id from s.t",
        "create view s.v as select id from s.t",
        "create user u1",
    ):
        await client.run(sql)
    assert await client.run("alter schema s rename to s1") == "ALTER_SCHEMA"
    await client.run("insert into s1.t values (7)")
    assert await client.rows("select * from s1.mv") == [(7,)]
    assert await show_create(client, "view", "s1.v") == (
        "s1.v",
        "CREATE VIEW s1.v AS SELECT id FROM s.t",
    )
    assert await client.rows("select name from rw_schemas where name like 's%' order by 1") == [
        ("s1",)
    ]
    assert await client.run("alter schema s1 owner to u1") == "ALTER_SCHEMA"
    assert await client.rows(
        "select u.name from rw_schemas s join rw_users u on s.owner = u.id where s.name = 's1'"
    ) == [("u1",)]
    f = await client.fail("alter schema pg_catalog rename to pg_catalog1")
    assert (f.sqlstate, f.message) == (
        "XX000",
        caused_by(
            client.envelope,
            'Protocol error: permission denied to rename on "pg_catalog", System catalog'
            " modifications are currently disallowed.",
        ),
    )
    f = await client.fail("alter schema nosuch rename to x")
    assert f.message == caused_by(client.envelope, "Catalog error", "schema not found: nosuch")
    f = await client.fail("alter schema s1 owner to nobody")
    assert f.message == caused_by(client.envelope, "Catalog error", "user not found: nobody")


async def test_materialized_view_owner_and_schema_take_its_indexes(client: Client) -> None:
    """A materialized view is a Table object to meta: ALTER ... OWNER TO / SET SCHEMA take its
    indexes along as a table's (alter_op.rs alter_owner, alter_schema; e2e_test/ddl/
    alter_owner.slt)."""
    for sql in (
        "create user user1",
        "create schema s2",
        "create table t (v1 int)",
        "create materialized view mv as select v1 from t",
        "create index mv_idx on mv(v1)",
    ):
        await client.run(sql)
    assert await client.run("alter materialized view mv owner to user1") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.run("alter materialized view mv set schema s2") == (
        "ALTER_MATERIALIZED_VIEW"
    )
    assert await client.rows(
        "select r.name, u.name, s.name from rw_relations r join rw_users u on u.id = r.owner"
        " join rw_schemas s on s.id = r.schema_id where r.name in ('mv', 'mv_idx', 't')"
        " order by 1"
    ) == [("mv", "user1", "s2"), ("mv_idx", "user1", "s2"), ("t", "root", "public")]


async def test_database_options_rename_and_owner(client: Client) -> None:
    """CREATE DATABASE with its options (parse_create_database, parser.rs:2026-2086) lands in
    rw_databases; ALTER DATABASE ... RENAME TO / OWNER TO (alter_rename.rs:283-330,
    alter_owner.rs) on a database that exists, refused for the current one, a taken name or a
    missing database."""
    await client.run("create user u1")
    assert await client.run(
        "create database d1 with owner = u1 barrier_interval_ms = 2000"
        " checkpoint_frequency = 5 resource_group = 'rg1'"
    ) == ("CREATE_DATABASE")
    assert await client.rows(
        "select d.name, u.name, barrier_interval_ms, checkpoint_frequency, resource_group"
        " from rw_databases d join rw_users u on d.owner = u.id where d.name = 'd1'"
    ) == [("d1", "u1", 2000, 5, "rg1")]
    dup = "create database d2 barrier_interval_ms = 1 barrier_interval_ms = 2"
    f, envelope = await fail_early(client, dup)
    # parser_err! where the parser stands: the token after the repeated word
    caret = " " * (len("LINE 1: ") + dup.index("= 2")) + "^"
    assert f.message == caused_by(
        envelope,
        "sql parser error: duplicate BARRIER_INTERVAL_MS clause in CREATE DATABASE\n"
        f"LINE 1: {dup}\n{caret}",
    )
    f = await client.fail("create database d2 owner = nobody")
    assert f.message == caused_by(client.envelope, "Catalog error", "user not found: nobody")
    assert await client.run("alter database d1 rename to d3") == "ALTER_DATABASE"
    assert await client.run("alter database d3 owner to root") == "ALTER_DATABASE"
    assert await client.rows(
        "select datname, datdba from pg_database where datname like 'd%' order by 1"
    ) == [("d3", 1), ("dev", 1)]
    f = await client.fail("alter database dev rename to dev1")
    assert (f.sqlstate, f.message) == (
        "XX000",
        caused_by(client.envelope, "Permission denied: Current database cannot be renamed"),
    )
    f = await client.fail("alter database nosuch rename to x")
    assert f.message == caused_by(client.envelope, "Catalog error", "database not found: nosuch")
    await client.run("create database d4")
    f = await client.fail("alter database d4 rename to d3")
    assert f.message == caused_by(
        client.envelope,
        "Catalog error",
        "gRPC request to meta service (call `/ddl_service.DdlService/AlterName`) failed: Some"
        " entity that we attempted to create (e.g., file or directory) already exists",
        "database named d3 already exists",
    )
    assert await client.run("drop database d3") == "DROP_DATABASE"


async def test_drop_refuses_what_depends_on_an_index_of_the_dropped_table(
    client: Client,
) -> None:
    """drop_op.rs:55-80: a RESTRICT DROP TABLE takes the table's indexes along unless something
    depends on one of them (check_object_refer_for_drop on each index,
    controller/utils.rs:853-990): then the index is named as the object in use."""
    for sql in (
        "create table t (a int, b int)",
        "create index ti on t(b)",
        "create index tj on t(a)",
        "create materialized view mv_on_index as select * from ti",
    ):
        await client.run(sql)
    expected = (
        "Permission denied: index used by 1 other objects. \n"
        "DETAIL: materialized view public.mv_on_index depends on it\n"
        "HINT:  Use DROP ... CASCADE to drop the dependent objects too."
    )
    for sql in ("drop table t", "drop index ti"):
        f = await client.fail(sql)
        assert (f.sqlstate, f.message) == ("XX000", caused_by(client.envelope, expected)), sql
    assert await client.run("drop materialized view mv_on_index") == "DROP_MATERIALIZED_VIEW"
    # Nothing depends on the indexes now: they go with the table.
    assert await client.run("drop table t") == "DROP_TABLE"
    assert await client.rows("select name from rw_relations where name in ('t', 'ti', 'tj')") == []


async def test_swap_rewrites_dependents_which_keep_reading_the_same_object(
    client: Client,
) -> None:
    """ALTER TABLE a SWAP WITH b (alter_swap_rename.slt): each dependent keeps the object it
    read, now under the other name (``FROM sb AS sa``), and its rows with it."""
    await client.run("set rw_implicit_flush = true")
    for sql in (
        "create table sa (a int)",
        "create table sb (a int)",
        "insert into sa values (1)",
        "insert into sb values (2)",
        "create materialized view msa as select a from sa",
        "create view vsa as select a from sa",
    ):
        await client.run(sql)
    assert await client.run("alter table sa swap with sb") == "ALTER_TABLE"
    assert await show_create(client, "materialized view", "msa") == (
        "public.msa",
        "CREATE MATERIALIZED VIEW msa AS SELECT a FROM sb AS sa",
    )
    assert await show_create(client, "view", "vsa") == (
        "public.vsa",
        "CREATE VIEW vsa AS SELECT a FROM sb AS sa",
    )
    assert await show_create(client, "table", "sa") == ("public.sa", "CREATE TABLE sa (a INT)")
    await client.run("insert into sb values (3)")
    assert await client.rows("select * from msa order by a") == [(1,), (3,)]
    assert await client.rows("select * from vsa order by a") == [(1,), (3,)]
    assert await client.rows("select * from sa") == [(2,)]


async def test_cluster_version_columns_hold_version(client: Client) -> None:
    """``created_at_cluster_version`` / ``initialized_at_cluster_version`` hold
    current_cluster_version() (src/common/src/lib.rs:142-147), what version() answers
    (e2e_test/ddl/view.slt)."""
    await client.run("set rw_implicit_flush = true")
    for sql in (
        "create table t1 (a int, b int)",
        "create view if not exists view_check (a1, b1) as select a, b from t1",
        "create materialized view m1 as select a from t1",
    ):
        await client.run(sql)
    (version,) = (await client.rows("select version()"))[0]
    assert str(version).startswith("PostgreSQL 13.14.0-RisingWave-")
    assert await client.rows(
        "select name from rw_views where created_at >= now() - interval '10' minute"
        " and created_at_cluster_version = (select version())"
    ) == [("view_check",)]
    for catalog, name in (("rw_tables", "t1"), ("rw_materialized_views", "m1")):
        assert await client.rows(
            f"select created_at_cluster_version, initialized_at_cluster_version from {catalog}"
            f" where name = '{name}'"
        ) == [(version, version)]
