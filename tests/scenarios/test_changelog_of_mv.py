"""A changelog CTE over a materialized view (``WITH c AS changelog FROM mv``), under the
manual clock: the view's changes appear in the reading view at the barrier that makes them.

RisingWave (448c657) binds the CTE over a materialized view as over a table
(src/frontend/src/binder/relation/share.rs:41-84): the view's snapshot as inserts, then what
its stream carries, each change an insert with its op's code, Insert 1, Delete 2,
UpdateInsert 3, UpdateDelete 4 (src/common/src/array/stream_chunk.rs:84-91); an update that
changes nothing in the view's columns is dropped (src/stream/src/executor/dispatch/
output_mapping.rs:59-69, e2e_test/streaming/noop_update_elimination.slt).  rwshim diffs the
view's state at the barrier (dataplane/plan/changelogs.py).
"""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.conftest import engine
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking


async def test_changelog_of_a_keyed_view(client: Client, server: Running) -> None:
    await client.run("create table t (k int primary key, v int, other int)")
    await client.run("insert into t values (1, 10, 0), (2, 20, 0)")
    server.tick()
    await run_ticking(client, server, "create materialized view mv as select k, v from t")
    await run_ticking(
        client,
        server,
        "create materialized view log as with c as changelog from mv"
        " select k, v, changelog_op from c",
    )
    assert await client.rows("select * from log order by k") == [(1, 10, 1), (2, 20, 1)]
    await client.run("update t set v = 11 where k = 1")
    await client.run("update t set other = 5 where k = 2")  # not in mv: no change of mv
    await client.run("insert into t values (3, 30, 0)")
    # no barrier yet: nobody sees the writes
    assert await client.rows("select count(*) from log") == [(2,)]
    server.tick()
    assert await client.rows("select * from log order by k, changelog_op") == [
        (1, 10, 1), (1, 11, 3), (1, 10, 4), (2, 20, 1), (3, 30, 1),
    ]  # fmt: skip
    # a batch query may not read a changelog, of a view as of a table
    # (optimizer/plan_node/logical_changelog.rs:139-143)
    assert await cause(client, "with c as changelog from mv select * from c") == (
        "XX000",
        "\n\nCaused by:\n  Bind error: With changelog cte only support with create mv/sink\n",
    )
    await client.run("delete from t where k = 3")
    server.tick()
    assert await client.rows("select k, v from log where changelog_op = 2") == [(3, 30)]
    # a barrier that changes nothing in mv adds nothing
    server.tick()
    assert await client.rows("select count(*) from log") == [(6,)]


async def test_changelog_of_an_unkeyed_view(client: Client, server: Running) -> None:
    """A join (a stream key rwshim does not know): a changed row is a Delete and an Insert;
    an update of a column the view does not show changes nothing."""
    await client.run("create table a (x int primary key, b int, c int)")
    await client.run("create table r (x int, y int, primary key (x, y))")
    await client.run("insert into a values (1, 10, 100), (2, 20, 200)")
    await client.run("insert into r values (1, 0), (1, 1), (2, 0)")
    server.tick()
    await run_ticking(
        client,
        server,
        "create materialized view mv as select r.x, r.y, a.b from r left join a on r.x = a.x",
    )
    await run_ticking(
        client,
        server,
        "create materialized view log as with c as changelog from mv select * from c",
    )
    assert await client.rows("select count(*) from log") == [(3,)]
    await client.run("update a set c = 999 where x = 1")
    server.tick()
    assert await client.rows("select count(*) from log") == [(3,)]
    await client.run("update a set b = 11 where x = 1")
    server.tick()
    assert await client.rows(
        "select x, y, b, changelog_op from log where changelog_op <> 1 order by changelog_op, y"
    ) == [(1, 0, 10, 2), (1, 1, 10, 2)]
    assert await client.rows(
        "select x, y, b from log where changelog_op = 1 and b = 11 order by y"
    ) == [(1, 0, 11), (1, 1, 11)]


async def test_changelog_row_id_of_a_view_over_a_changelog(client: Client, server: Running) -> None:
    """RisingWave keeps the changelog's ``_changelog_row_id`` (its stream key) as a hidden
    column of a view that does not show it (optimizer/plan_node/derive.rs:27-77; planner test
    output/changelog.yaml): named, compared, left out of ``*``; e2e_test/streaming/
    changelog.slt:32 over a table two sinks write."""
    await client.run("create table t4 (v1 int)")
    await client.run("create table wide (v1 int primary key, even int, odd int)")
    await run_ticking(
        client, server, "create sink even into wide (v1, even) as select v1, v1*2 from t4"
    )
    await run_ticking(
        client, server, "create sink odd into wide (v1, odd) as select v1, v1*2+1 from t4"
    )
    await run_ticking(
        client,
        server,
        "create materialized view mv9 as with p as changelog from wide select * from p",
    )
    await run_ticking(
        client,
        server,
        "create materialized view mv8 as with p as changelog from wide"
        " select v1, _changelog_row_id as row_id from p",
    )
    await client.run("insert into t4 values (1), (2)")
    server.tick()
    # (which sink's row comes first is not fixed; the second overwrites the first's)
    assert await client.rows("select v1, changelog_op from mv9 order by v1, changelog_op") == [
        (1, 1), (1, 3), (1, 4), (2, 1), (2, 3), (2, 4),
    ]  # fmt: skip
    assert len((await client.rows("select * from mv9"))[0]) == 4  # the row id is hidden
    # each insert's row id is below its update's
    assert (
        await client.rows(
            "with add as (select _changelog_row_id, * from mv9 where changelog_op = 1),"
            " upd as (select _changelog_row_id, * from mv9 where changelog_op = 3)"
            " select add.v1 from add, upd where add.v1 = upd.v1"
            " and add._changelog_row_id > upd._changelog_row_id"
        )
        == []
    )
    assert await client.rows("select count(distinct _changelog_row_id), count(*) from mv9") == [
        (6, 6)
    ]
    # a view showing the row id under another name keeps no hidden one
    assert await cause(client, "select _changelog_row_id from mv8") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: _changelog_row_id\n"
        "  2: Item not found: Invalid column: _changelog_row_id\n",
    )
    assert await client.rows(
        "select name, is_hidden, is_primary_key from rw_columns where relation_id ="
        " (select id from rw_materialized_views where name = 'mv9') order by position"
    ) == [
        ("v1", False, False), ("even", False, False), ("odd", False, False),
        ("changelog_op", False, False), ("_changelog_row_id", True, True),
        ("_rw_timestamp", True, False),
    ]  # fmt: skip
    # describe.rs: the hidden column, then the key the view is stored and distributed by
    described = await client.rows("describe mv9")
    assert described[4:8] == [
        ("_changelog_row_id", "serial", "true", None),
        ("_rw_timestamp", "timestamp with time zone", "true", None),
        ("primary key", "_changelog_row_id", None, None),
        ("distribution key", "_changelog_row_id", None, None),
    ], described


async def test_changelog_of_a_temporal_filter_moves_with_time(
    client: Client, server: Running
) -> None:
    """A view whose rows leave as time passes (``now()``: refreshed at every barrier, with no
    write upstream): its changelog gets each row's Delete at the barrier that drops it, and
    nothing at a barrier that changes nothing (e2e_test/streaming/now_semi_join.slt)."""
    await client.run("create table t (id int primary key, ts timestamptz)")
    await run_ticking(
        client,
        server,
        "create materialized view mv as select id from t where ts > now() - interval '2 second'",
    )
    await run_ticking(
        client,
        server,
        "create materialized view log as with c as changelog from mv select * from c",
    )
    now_ms = engine(server).clock.now_ms()
    await client.run(
        f"insert into t values (1, to_timestamp({now_ms / 1000})),"
        f" (2, to_timestamp({now_ms / 1000 + 1}))"
    )
    seen = []
    for _ in range(5):
        await client.run("RWSHIM TICK")
        seen.append(await client.rows("select id, changelog_op from log order by id, changelog_op"))
    assert seen == [
        [(1, 1), (2, 1)],
        [(1, 1), (2, 1)],
        [(1, 1), (1, 2), (2, 1)],
        [(1, 1), (1, 2), (2, 1), (2, 2)],
        [(1, 1), (1, 2), (2, 1), (2, 2)],
    ], seen


async def test_changelog_of_a_view_whose_key_repeats(client: Client, server: Running) -> None:
    """A set-returning call repeats the upstream's key (RisingWave keys its rows by the key and
    the call's row number too): rows of one key are paired in order, so an update of the
    table is an UpdateDelete / UpdateInsert per produced row."""
    await client.run("create table t (k int primary key, v int)")
    await client.run("insert into t values (1, 10)")
    server.tick()
    await run_ticking(
        client,
        server,
        "create materialized view mv as select k, unnest(array[v, v + 1]) as u from t",
    )
    await run_ticking(
        client,
        server,
        "create materialized view log as with c as changelog from mv select * from c",
    )
    await client.run("update t set v = 20")
    server.tick()
    assert await client.rows("select * from log order by changelog_op, u") == [
        (1, 10, 1), (1, 11, 1), (1, 20, 3), (1, 21, 3), (1, 10, 4), (1, 11, 4),
    ]  # fmt: skip


async def test_changelog_of_an_emit_on_window_close_view(client: Client, server: Running) -> None:
    """A view that emits closed windows only (its own step at a barrier, appending): its
    changelog gets each window as an Insert at the barrier that closes it."""
    await client.run(
        "create table t (tm timestamp, foo int, watermark for tm as tm - interval '5 minutes')"
        " append only"
    )
    await run_ticking(
        client,
        server,
        "create materialized view mv as select window_start, max(foo) as m from"
        " tumble(t, tm, interval '1 hour') group by window_start emit on window close",
    )
    await run_ticking(
        client,
        server,
        "create materialized view log as with c as changelog from mv select * from c",
    )
    await client.run(
        "insert into t values ('2023-05-06 16:51:00', 1), ('2023-05-06 16:56:00', 8),"
        " ('2023-05-06 17:30:00', 3), ('2023-05-06 18:01:00', 6)"
    )
    server.tick()
    assert await client.rows("select window_start::text, m, changelog_op from log") == [
        ("2023-05-06 16:00:00", 8, 1)
    ]
    await client.run("insert into t values ('2023-05-06 18:10:00', 7)")
    server.tick()
    assert await client.rows(
        "select window_start::text, m, changelog_op from log order by window_start"
    ) == [("2023-05-06 16:00:00", 8, 1), ("2023-05-06 17:00:00", 3, 1)]
