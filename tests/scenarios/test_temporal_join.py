"""Temporal joins (``JOIN dim FOR SYSTEM_TIME AS OF PROCTIME()``) under the manual clock, as a
RisingWave user sees them.

RisingWave (src/stream/src/executor/temporal_join.rs): a stream row is looked up in the
dimension as of the end of the epoch before the one it arrives in (right-side changes are
applied at the barrier, :257-313, :829-852); later dimension changes never revise an output;
an update of a stream row looks it up again (:516-590); existing rows are joined with the
dimension as it is when the view is created.  A batch query may not use a temporal join
(optimizer/mod.rs:432-438).  Ported from e2e_test/streaming/temporal_join/.
"""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

TABLES = (
    "create table stream(id1 int, a1 int, b1 int) APPEND ONLY",
    "create table version(id2 int, a2 int, b2 int, primary key (id2))",
)
V = (
    "create materialized view v as select id1, a1, id2, a2 from stream"
    " left join version FOR SYSTEM_TIME AS OF PROCTIME() on id1 = id2"
)


async def rows(c: Client, sql: str = "select * from v") -> list[tuple[object, ...]]:
    return sorted(await c.rows(sql), key=repr)


async def test_e2e_append_only_left_join(client_factory: Connect, server: Running) -> None:
    # e2e_test/streaming/temporal_join/append_only/temporal_join.slt:4-56
    c = await client_factory()
    await c.run("set rw_implicit_flush = true")
    for sql in TABLES:
        await c.run(sql)
    await run_ticking(c, server, V)
    await c.run("insert into stream values(1, 11, 111)")
    await c.run("insert into version values(1, 11, 111)")
    await c.run("insert into stream values(1, 11, 111)")
    await c.run("delete from version")
    assert await rows(c) == [(1, 11, 1, 11), (1, 11, None, None)]
    await c.run("insert into version values(2, 22, 222)")
    await c.run("insert into stream values(2, 22, 222)")
    assert await rows(c) == [(1, 11, 1, 11), (1, 11, None, None), (2, 22, 2, 22)]
    # a view made again joins every row with the dimension as it is now
    await c.run("drop materialized view v")
    await run_ticking(c, server, V)
    assert await rows(c) == [(1, 11, None, None), (1, 11, None, None), (2, 22, 2, 22)]


async def test_e2e_non_append_only_update_looks_up_again(
    client_factory: Connect, server: Running
) -> None:
    # e2e_test/streaming/temporal_join/non_append_only/temporal_join.slt:4-38
    c = await client_factory()
    await c.run("set rw_implicit_flush = true")
    await c.run("create table stream(id1 int, a1 int, b1 int)")
    await c.run(TABLES[1])
    await run_ticking(c, server, V)
    await c.run("insert into stream values(1, 11, 111)")
    await c.run("insert into version values(1, 11, 111)")
    await c.run("insert into stream values(1, 11, 111)")
    await c.run("delete from version")
    assert await rows(c) == [(1, 11, 1, 11), (1, 11, None, None)]
    await c.run("update stream set a1 = 22, b1 = 222")
    assert await rows(c) == [(1, 22, None, None), (1, 22, None, None)]
    await c.run("delete from stream where a1 = 22")
    assert await rows(c) == []


async def test_e2e_nested_loop_and_cross_join(client_factory: Connect, server: Running) -> None:
    # e2e_test/streaming/temporal_join/append_only/nested_loop.slt:4-52
    c = await client_factory()
    await c.run("set rw_implicit_flush = true")
    for sql in TABLES:
        await c.run(sql)
    await run_ticking(
        c,
        server,
        "create materialized view v1 as select id1, a1, id2, a2 from stream"
        " join version FOR SYSTEM_TIME AS OF PROCTIME() on a1 > a2",
    )
    await run_ticking(
        c,
        server,
        "create materialized view v2 as select id1, a1, id2, a2 from stream"
        " cross join version FOR SYSTEM_TIME AS OF PROCTIME()",
    )
    await c.run("insert into stream values(1, 14, 111)")
    await c.run("insert into version values(1, 12, 122)")
    await c.run("insert into stream values(2, 13, 133)")
    await c.run("delete from version")
    assert await rows(c, "select * from v1") == [(2, 13, 1, 12)]
    assert await rows(c, "select * from v2") == [(2, 13, 1, 12)]
    await c.run("insert into version values(2, 10, 102)")
    await c.run("insert into stream values(3, 9, 222)")
    assert await rows(c, "select * from v1") == [(2, 13, 1, 12)]
    assert await rows(c, "select * from v2") == [(2, 13, 1, 12), (3, 9, 2, 10)]


async def test_changes_of_one_epoch_are_not_seen_by_its_own_rows(
    client_factory: Connect, server: Running
) -> None:
    c = await client_factory()
    for sql in TABLES:
        await c.run(sql)
    await run_ticking(c, server, V)
    # one epoch writes the dimension and a stream row: the row looks up the dimension as
    # the epoch before left it (empty)
    await c.run("insert into version values(1, 11, 111)")
    await c.run("insert into stream values(1, 11, 111)")
    assert await rows(c) == []
    await c.run("RWSHIM TICK")
    assert await rows(c) == [(1, 11, None, None)]
    # the next epoch's row sees it; its update after that does not change the first row
    await c.run("insert into stream values(1, 12, 111)")
    await c.run("update version set a2 = 99 where id2 = 1")
    await c.run("RWSHIM TICK")
    assert await rows(c) == [(1, 11, None, None), (1, 12, 1, 11)]
    await c.run("insert into stream values(1, 13, 111)")
    await c.run("RWSHIM TICK")
    assert await rows(c) == [(1, 11, None, None), (1, 12, 1, 11), (1, 13, 1, 99)]


async def test_a_batch_query_may_not_use_a_temporal_join(client: Client) -> None:
    for sql in TABLES:
        await client.run(sql)
    assert await cause(
        client,
        "select id1, a1, id2, a2 from stream left join version"
        " FOR SYSTEM_TIME AS OF PROCTIME() on id1 = id2",
    ) == (
        "XX000",
        "\n\nCaused by:\n  Not supported: do not support temporal join for batch queries\n"
        "HINT: please use temporal join in streaming queries\n",
    )


def refused(what: str, hint: str) -> tuple[str, str]:
    return ("XX000", f"\n\nCaused by:\n  Not supported: {what}\nHINT: {hint}\n")


DIST_KEY = refused(
    "Temporal join requires the equivalence join condition includes the key columns that form"
    " the distribution key of the lookup table",
    "Use DESCRIBE <table_name> to view the table's key information.\nYou can create an index"
    " on the lookup table to facilitate the temporal join if necessary.",
)


async def test_the_optimizer_refusals(client_factory: Connect, server: Running) -> None:
    client = await client_factory()
    # src/frontend/planner_test/tests/testdata/output/temporal_join.yaml:73-102, :298-307
    await client.run("create table stream(id1 int, a1 int, b1 int, c1 int) APPEND ONLY")
    await client.run("create table s2(id1 int, a1 int)")
    await client.run("create table version(id2 int, a2 int, b2 int, primary key (id2, a2))")
    await client.run("create table v2(id2 int, a2 int, b2 int, c2 int, primary key (id2))")
    await run_ticking(client, server, "create index idx1 on v2 (a2)")
    mv = "create materialized view v as select id1, a1, id2, a2 from "
    assert (
        await cause(
            client,
            mv + "stream left join version FOR SYSTEM_TIME AS OF PROCTIME() on id1 = id2"
            " where a2 < 10",
        )
        == DIST_KEY
    )
    assert (
        await cause(client, mv + "stream left join v2 FOR SYSTEM_TIME AS OF PROCTIME() on c1 = c2")
        == DIST_KEY
    )
    assert await cause(
        client, mv + "stream right join v2 FOR SYSTEM_TIME AS OF PROCTIME() on id1 = id2"
    ) == refused(
        "exist dangling temporal scan",
        "please check your temporal join syntax e.g. consider removing the right outer join if"
        " it is being used.",
    )
    # logical_join.rs:1361-1373: a join without an equality is a nested loop
    assert await cause(
        client, mv + "stream left join v2 FOR SYSTEM_TIME AS OF PROCTIME() on a1 > a2"
    ) == refused("Temporal join requires an inner join", "Please use an inner join")
    assert await cause(
        client, mv + "s2 join v2 FOR SYSTEM_TIME AS OF PROCTIME() on a1 > a2"
    ) == refused(
        "Nested-loop Temporal join requires the left hash side to be append only",
        "Please ensure the left hash side is append only",
    )
    # an index on the joined column serves as the lookup table
    sql = mv + "stream left join v2 FOR SYSTEM_TIME AS OF PROCTIME() on a1 = a2"
    assert await run_ticking(client, server, sql) == "CREATE_MATERIALIZED_VIEW"
