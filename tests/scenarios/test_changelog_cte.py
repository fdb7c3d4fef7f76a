"""The changelog CTE (``WITH p AS changelog FROM t``) as a RisingWave user sees it, under the
manual clock, after RisingWave's e2e_test/streaming/changelog.slt.

RisingWave (448c657): the CTE is the table's or source's columns plus ``changelog_op`` and the
hidden ``_changelog_row_id`` (src/frontend/src/binder/relation/share.rs:41-84); its stream is
the table's snapshot as inserts and then every change, each an insert carrying its op's code,
Insert 1, Delete 2, UpdateInsert 3, UpdateDelete 4 (src/common/src/array/stream_chunk.rs:84-91,
src/stream/src/executor/changelog.rs:73-100); an UPDATE that changes nothing emits nothing
(src/batch/executors/src/executor/update.rs:184-190); a batch query is refused
(optimizer/plan_node/logical_changelog.rs:139-143), as a CTE over a view is
(share.rs:52-56).
"""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


async def test_changelog_of_a_table_in_a_materialized_view(client: Client, server: Running) -> None:
    await client.run("create table t1 (v1 int, v2 int)")
    await client.run("create table t3 (v1 int primary key, v2 int)")
    await client.run("insert into t1 values (1, 1), (2, 2)")
    server.tick()
    # the rows already there come as inserts (the backfill's snapshot)
    await run_ticking(
        client,
        server,
        "create materialized view mv1 as with sub as changelog from public.t1 select * from sub",
    )
    await run_ticking(
        client,
        server,
        "create materialized view mv8 as with sub as changelog from t1"
        " select *, _changelog_row_id as row_id from sub",
    )
    await run_ticking(
        client,
        server,
        "create materialized view mv6(a, b, op) as with sub as changelog from t3 select * from sub",
    )
    await client.run("update t1 set v2 = 100 where v1 = 1")
    await client.run("update t1 set v2 = 100 where v1 = 2")  # no barrier yet: seen by nobody
    assert await client.rows("select * from mv1") == [(1, 1, 1), (2, 2, 1)]
    server.tick()
    await client.run("update t1 set v2 = 100 where v1 = 1")  # changes nothing
    await client.run("insert into t3 values (5, 5), (6, 6)")
    server.tick()
    await client.run("delete from t1 where v1 = 2")
    await client.run("update t3 set v2 = 500 where v1 = 5")
    server.tick()
    # `select *` leaves the hidden _row_id and _changelog_row_id out
    got = await client.rows("select * from mv1 order by v1, changelog_op, v2")
    assert got == [
        (1, 1, 1), (1, 100, 3), (1, 1, 4),
        (2, 2, 1), (2, 100, 2), (2, 100, 3), (2, 2, 4),
    ], got  # fmt: skip
    # in the order the changes came: each update's UpdateDelete before its UpdateInsert
    assert await client.rows("select v1, v2, changelog_op from mv8 order by row_id") == [
        (1, 1, 1), (2, 2, 1), (1, 1, 4), (1, 100, 3), (2, 2, 4), (2, 100, 3), (2, 100, 2),
    ]  # fmt: skip
    assert await client.rows("select * from mv6 order by a, op") == [
        (5, 5, 1), (5, 500, 3), (5, 5, 4), (6, 6, 1),
    ]  # fmt: skip
    # renaming the upstream keeps the view reading it (rename.rs rewrites the definition)
    await run_ticking(client, server, "alter table t3 rename to t3_rename")
    await client.run("delete from t3_rename where v1 = 6")
    server.tick()
    assert await client.rows("select a, b, op from mv6 where a = 6 order by op") == [
        (6, 6, 1), (6, 6, 2),
    ]  # fmt: skip
    await run_ticking(client, server, "drop materialized view mv1")
    await run_ticking(client, server, "drop materialized view mv8")
    # its log went with it: the table takes writes as before
    await client.run("insert into t1 values (9, 9)")
    server.tick()
    assert await client.rows("select v1, v2 from t1 order by v1") == [(1, 100), (9, 9)]


async def test_changelog_join_of_two_changelogs(client: Client, server: Running) -> None:
    await client.run("create table t1 (v1 int, v2 int)")
    await client.run("create table t2 (v1 int, v2 int)")
    await run_ticking(
        client,
        server,
        "create materialized view mv5 as with sub1 as changelog from t1, sub2 as changelog"
        " from t2 select sub1.v1 as v11, sub2.v2 as v22, sub1.changelog_op as op1,"
        " sub2.changelog_op as op2 from sub1 inner join sub2 on sub1.v1 = sub2.v1",
    )
    await client.run("insert into t1 values (1, 1)")
    await client.run("insert into t2 values (1, 10)")
    server.tick()
    await client.run("update t2 set v2 = 100 where v1 = 1")
    server.tick()
    assert await client.rows("select * from mv5 order by op2") == [
        (1, 10, 1, 1), (1, 100, 1, 3), (1, 10, 1, 4),
    ]  # fmt: skip


async def test_changelog_refusals(client: Client, server: Running) -> None:
    await client.run("create table t (v1 int)")
    await client.run("create view vv as select 1 as x")
    await client.run("create table c (changelog_op int)")
    assert await cause(client, "with p as changelog from t select * from p") == (
        "XX000",
        one("Bind error: With changelog cte only support with create mv/sink"),
    )
    assert await cause(
        client, "create materialized view m as with p as changelog from vv select * from p"
    ) == ("XX000", one("Bind error: Change log CTE must be a table or source"))
    assert await cause(
        client, "create materialized view m as with p as changelog from c select * from p"
    ) == (
        "XX000",
        one(
            "Bind error: The source table of changelog cannot have `changelog_op`,"
            " please rename it first"
        ),
    )
    await client.run("create table tgt (v1 int, op smallint)")
    assert await cause(
        client,
        "create sink s into tgt as with p as changelog from t select v1, changelog_op from p"
        " with (type = 'append-only', force_append_only = 'true')",
    ) == ("XX000", one("not supported by rwshim: a sink reading a changelog CTE"))
    assert await client.rows("show sinks") == []
    assert await cause(client, "with p as changelog from nope select * from p") == (
        "42704",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Catalog error\n"
        "  2: table or source not found: nope\n",
    )
