"""Sinks into tables over real connections, each scenario through psycopg (simple protocol)
and asyncpg (extended): the target receives the sink's changes at the barrier that commits the
upstream's writes (the same epoch: the target's Union of DML and sinks,
src/frontend/src/optimizer/mod.rs:1043-1066), upsert and append-only sinks, the target's key
and conflict behaviour, several sinks into one table, the snapshot (or not), DROP SINK, and
RisingWave's refusals with their whole texts (src/frontend/src/handler/create_sink.rs,
optimizer/plan_node/stream_sink.rs, meta controller/streaming_job.rs; e2e_test/sink/
sink_into_table/*.slt).

The server runs a manual clock: a barrier happens only at ``server.tick()`` (or FLUSH)."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client, meta_error
from tests.scenarios.helpers import cause, run_ticking

ONLY_APPEND_ONLY = (
    "Only append-only sinks can sink to a {}. please try to add type = 'append-only' in the"
    " with option. e.g. create sink s into t as select * from t1 with (type = 'append-only')"
)


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


async def sorted_rows(client: Client, sql: str) -> list[tuple[object, ...]]:
    return sorted(await client.rows(sql), key=repr)


async def test_changes_reach_the_target_at_the_barrier(client: Client, server: Running) -> None:
    await client.run("create table t (a int, b int)")
    await client.run("insert into t values (1, 10), (2, 20)")
    await client.run("create table m (a int primary key, b int)")
    tag = await run_ticking(
        client, server, "create sink s into m as select a, b from t where a > 1"
    )
    assert tag == "CREATE_SINK"
    # the snapshot of the upstream (rows committed before the sink) is delivered
    assert await client.rows("select * from m order by a") == [(2, 20)]
    await client.run("insert into t values (3, 30), (4, 40)")
    # not before the barrier that commits the write
    assert await client.rows("select * from m order by a") == [(2, 20)]
    server.tick()
    assert await client.rows("select * from m order by a") == [(2, 20), (3, 30), (4, 40)]
    # updates and deletes of the upstream update and delete by the target's key
    await client.run("update t set b = 99 where a = 3")
    await client.run("delete from t where a = 4")
    await client.run("update t set a = 5 where a = 2")
    server.tick()
    assert await client.rows("select * from m order by a") == [(3, 99), (5, 20)]


async def test_a_null_key_is_deleted_like_any_other(client: Client, server: Running) -> None:
    """e2e_test/streaming/bug_fixes/issue_23857.slt: a simple aggregation's first row has a
    NULL key; its update deletes that row by the key's value, NULL included
    (stream/executor/mview/cache.rs:127-139 encodes the key, a NULL too)."""
    await client.run("create table t (k int primary key, v int)")
    await client.run("create table s (k int)")
    await run_ticking(client, server, "create sink sk into t as select max(k) as k, 7 as v from s")
    assert await client.rows("select * from t") == [(None, 7)]
    await client.run("insert into s values (1)")
    server.tick()
    assert await client.rows("select * from t") == [(1, 7)]
    await client.run("delete from s")
    server.tick()
    assert await client.rows("select * from t") == [(None, 7)]


async def test_append_only_into_a_row_id_table(client: Client, server: Running) -> None:
    """basic.slt:42-127: forced append-only, updates arrive as new rows, deletes are dropped;
    the target's other columns take their DEFAULT and generated ones are computed."""
    await client.run("create table t (v1 int, v2 int)")
    await client.run("insert into t values (1, 11), (2, 12)")
    await client.run("create table r (v1 int, v2 int, v3 int default 1000, v4 int as v1 + v2)")
    failure = await cause(client, "create sink s into r as select v1, v2 from t")
    assert failure == (
        "XX000",
        one("Bind error: " + ONLY_APPEND_ONLY.format("table without primary keys")),
    )
    await run_ticking(
        client, server,
        "create sink s into r as select v1, v2 from t"
        " with (type = 'append-only', force_append_only = 'true')",
    )  # fmt: skip
    assert await client.rows("select * from r order by v1") == [
        (1, 11, 1000, 12),
        (2, 12, 1000, 14),
    ]
    await client.run("update t set v2 = 10 where v1 = 2")
    await client.run("delete from t where v1 = 1")
    await client.run("insert into r values (100, 100)")
    server.tick()
    assert await sorted_rows(client, "select * from r") == sorted(
        [(1, 11, 1000, 12), (2, 12, 1000, 14), (2, 10, 1000, 12), (100, 100, 1000, 200)],
        key=repr,
    )


async def test_several_sinks_one_table_and_drop_sink(client: Client, server: Running) -> None:
    """basic.slt:390-454: three sinks merge into one table by key; DROP SINK keeps what it
    delivered; the remaining sinks go on."""
    for name, rows in (("ta", "1, 2, 3"), ("tb", "3, 4, 5"), ("tc", "5, 6, 7")):
        await client.run(f"create table {name} (v int primary key)")
        values = ", ".join(f"({v})" for v in rows.split(", "))
        await client.run(f"insert into {name} values {values}")
    await client.run("create table tm (v int primary key)")
    for name in ("ta", "tb", "tc"):
        await run_ticking(client, server, f"create sink s_{name} into tm from {name}")
    assert await client.rows("select v from tm order by v") == [(v,) for v in range(1, 8)]
    assert await client.run("drop sink s_ta") == "DROP_SINK"
    await client.run("insert into ta values (10)")
    await client.run("insert into tb values (11)")
    server.tick()
    assert await client.rows("select v from tm order by v") == [
        (v,) for v in (1, 2, 3, 4, 5, 6, 7, 11)
    ]
    # a delete from one sink removes the key whoever delivered it
    await client.run("delete from tb where v = 3")
    server.tick()
    assert await client.rows("select v from tm order by v") == [
        (v,) for v in (1, 2, 4, 5, 6, 7, 11)
    ]


async def test_snapshot_false_and_ignore_conflicts(client: Client, server: Running) -> None:
    """snapshot.slt:4-29: without a snapshot only later changes flow; an append-only target
    keeps the first row of a key (ON CONFLICT DO NOTHING, create_table.rs:673-703)."""
    await client.run("create table s (a int primary key, b int)")
    await client.run("insert into s values (1, 11)")
    await client.run("create table t (a int, b int)")
    await run_ticking(
        client, server,
        "create sink s1 into t as select a, b from s with (type = 'append-only',"
        " force_append_only = 'true')",
    )  # fmt: skip
    await run_ticking(
        client, server,
        "create sink s2 into t as select a, b from s with (type = 'append-only',"
        " force_append_only = 'true', snapshot = 'false')",
    )  # fmt: skip
    assert await client.rows("select * from t") == [(1, 11)]
    await client.run("insert into s values (2, 22)")
    server.tick()
    assert await sorted_rows(client, "select * from t") == [(1, 11), (2, 22), (2, 22)]
    await client.run("create table k (a int primary key, b int) append only")
    await run_ticking(
        client, server,
        "create sink s3 into k as select a, b from s with (type = 'append-only',"
        " force_append_only = 'true')",
    )  # fmt: skip
    await client.run("update s set b = 99 where a = 1")
    server.tick()
    assert await client.rows("select * from k order by a") == [(1, 11), (2, 22)]


async def test_ignore_delete_on_an_upsert_sink(client: Client, server: Running) -> None:
    """sink_into_table_ignore_delete.slt: an upsert sink with ``ignore_delete`` drops its
    deletes; an update arrives as an insert the target's key turns into an update
    (sink.rs:81-92)."""
    await client.run("create table src (k int primary key, v int)")
    await client.run("create table t (k int primary key, v int)")
    await run_ticking(client, server, "create sink s into t from src with (ignore_delete = 'true')")
    await client.run("insert into src values (1, 10), (2, 20)")
    server.tick()
    await client.run("update src set v = 11 where k = 1")
    await client.run("delete from src where k = 2")
    server.tick()
    assert await client.rows("select * from src") == [(1, 11)]
    assert await client.rows("select * from t order by k") == [(1, 11), (2, 20)]


async def test_an_update_keeps_what_other_sinks_filled(client: Client, server: Running) -> None:
    """sink_into_wide_table.slt: with DO UPDATE IF NOT NULL (and OVERWRITE) the target's
    Materialize skips an update's UpdateDelete and applies its UpdateInsert column by column
    (mview/cache.rs:306-322); a delete still removes the whole row, and with IGNORE an update
    deletes the row first."""
    await client.run(
        "create table t (k int primary key, a int, b int) on conflict do update if not null"
    )
    await client.run("create table sa (k int primary key, a int)")
    await client.run("create table sb (k int primary key, b int)")
    await run_ticking(client, server, "create sink ska into t(k, a) from sa")
    await run_ticking(client, server, "create sink skb into t(k, b) from sb")
    await client.run("insert into sa values (1, 101), (2, 102)")
    await client.run("insert into sb values (1, 201)")
    server.tick()
    assert await client.rows("select * from t order by k") == [(1, 101, 201), (2, 102, None)]
    await client.run("update sb set b = 202 where k = 1")
    server.tick()
    assert await client.rows("select * from t order by k") == [(1, 101, 202), (2, 102, None)]
    await client.run("delete from sb where k = 1")
    server.tick()
    assert await client.rows("select * from t order by k") == [(2, 102, None)]
    await client.run("create table i (k int primary key, a int) on conflict do nothing")
    await run_ticking(client, server, "create sink ski into i from sa")
    await client.run("update sa set a = 7 where k = 2")
    server.tick()
    assert await client.rows("select * from i order by k") == [(1, 101), (2, 7)]


async def test_into_columns_and_materialized_views(client: Client, server: Running) -> None:
    """specify_column.slt: the INTO list names the target's columns; a materialized view over
    the target sees the sink's rows at the same barrier."""
    await client.run("create table s (a int, b int, c int) append only")
    await client.run("create table t (a int, b int default 900, c int default 9000)")
    await run_ticking(
        client, server, "create materialized view mv as select count(*) as n, sum(a) as sa from t"
    )
    await run_ticking(
        client, server,
        "create sink s1 into t(a, b, c) as select c, b, a from s with (type = 'append-only')",
    )  # fmt: skip
    await run_ticking(
        client,
        server,
        "create sink s3 into t(c) as select 3 * a from s with (type = 'append-only')",
    )
    await client.run("insert into s values (10, 100, 1000)")
    server.tick()
    assert await sorted_rows(client, "select * from t") == [(1000, 100, 10), (None, 900, 30)]
    assert await client.rows("select n, sa from mv") == [(2, 1000)]
    failure = await cause(client, "create sink x into t(a) as select a, b from s")
    assert failure == (
        "XX000",
        one("Invalid input syntax: number of column names does not match number of columns"),
    )


async def test_refusals(client: Client, server: Running) -> None:
    await client.run("create table t (a int, b int)")
    await client.run("create table m (a int primary key, b int)")
    await client.run("create table ao (a int primary key, b int) append only")
    assert await cause(
        client, "create sink s into m as select a, b from t with (connector = 'blackhole')"
    ) == (
        "XX000",
        one(
            "Bind error: In the case of sinking into table, the 'connector' parameter should"
            " not be provided."
        ),
    )
    assert await cause(client, "create sink s into m (a, zz) as select a, b from t") == (
        "XX000",
        one("Bind error: Column zz not found in table m"),
    )
    assert await cause(client, "create sink s into m as select a::bigint, b from t") == (
        "XX000",
        one('column type mismatch: Int32 vs Int64, column name: "a"'),
    )
    # without an INTO list a target column takes the sink's column at its position
    await client.run("create table m2 (b int, a int primary key)")
    assert await cause(client, "create sink s into m2 as select b from t") == (
        "XX000",
        one(
            "Invalid input syntax: When using non append only sink into table, the primary key"
            " of the table must be included in the sink result."
        ),
    )
    assert await cause(client, "create sink s into ao as select a, b from t") == (
        "XX000",
        one("Bind error: " + ONLY_APPEND_ONLY.format("append only table")),
    )
    assert await cause(
        client, "create sink s into m as select a, b from t with (type = 'append-only')"
    ) == (
        "XX000",
        one(
            "Invalid input syntax: The sink of retract stream cannot be append-only. Please add"
            " \"force_append_only='true'\" in WITH options to force the sink to be append-only."
            " Notice that this will cause the sink executor to drop DELETE messages and convert"
            " UPDATE messages to INSERT."
        ),
    )
    assert await cause(client, "create sink s from t with (connector = 'table')") == (
        "XX000",
        one("Invalid input syntax: unsupported sink type table"),
    )
    # cycle.slt: a sink into a table that its own query reads, through a materialized view
    await run_ticking(client, server, "create materialized view mv as select a, b from m")
    failure = await cause(client, "create sink s into m as select a, b from mv")
    assert failure[0] == "XX000"
    assert failure[1] == meta_error(
        "", "CreateSink", "Creating such a sink will result in circular dependency."
    )
    assert await client.rows("select name from rw_sinks") == []


async def test_a_pushed_source_feeds_a_table(client: Client, server: Running) -> None:
    """A Kafka source (fed with RWSHIM PUSH) sinking into a row-id table: an append-only
    stream needs no ``type`` (stream_sink.rs:796-806)."""
    await client.run(
        "create source k (id int, v varchar) with (connector = 'kafka', topic = 't',"
        " properties.bootstrap.server = 'b:9092') format plain encode json"
    )
    await client.run("create table r (id int, v varchar)")
    await run_ticking(client, server, "create sink s into r from k")
    await client.simple("""RWSHIM PUSH k '{"id": 1, "v": "a"}', '{"id": 2, "v": "b"}'""")
    server.tick()
    assert await client.rows("select * from r order by id") == [(1, "a"), (2, "b")]
