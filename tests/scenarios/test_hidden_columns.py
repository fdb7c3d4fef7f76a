"""Hidden columns a RisingWave user addresses by name (never in ``SELECT *``), under the manual
clock so that the times they carry are exact.

RisingWave (448c657):
- ``_row_id`` of a table without a primary key, a changelog CTE's ``_changelog_row_id``: row
  ids whose top 41 bits are the milliseconds since 2021-04-01 when the row was written
  (src/common/src/util/row_id.rs:93-128), read by the cast ``serial -> timestamptz``
  (src/expr/impl/src/scalar/cast.rs:167-172); after e2e_test/streaming/row_id_cast.slt and
  e2e_test/streaming/aggregate/distinct_agg_with_row_id.slt.
"""

from __future__ import annotations

import datetime as dt

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking


def clock_ms(server: Running) -> int:
    instance = server.server.instance
    assert instance is not None
    ms: int = instance.clock.now_ms()
    return ms


def at(ms: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


async def test_row_ids_carry_the_clock_of_their_write(client: Client, server: Running) -> None:
    await client.run("create table t (v int)")
    written = clock_ms(server)
    await client.run("insert into t values (1), (2), (3)")
    await client.run("RWSHIM TICK")  # the clock moves a barrier interval on
    later = clock_ms(server)
    assert later > written
    await client.run("insert into t values (4)")
    server.tick()
    rows = await client.rows("select v, _row_id, _row_id::timestamptz from t order by v")
    assert [r[0] for r in rows] == [1, 2, 3, 4]
    # the three rows of one statement: one millisecond, distinct ids rising in write order
    assert [r[2] for r in rows] == [at(written)] * 3 + [at(later)]
    ids = [r[1] for r in rows]
    assert ids == sorted(ids) and len(set(ids)) == 4
    assert ids[0] == (written - 1_617_235_200_000) << 22  # the millisecond's first id
    # `select *` leaves it out; count(distinct _row_id) counts the rows
    assert await client.rows("select * from t order by v") == [(1,), (2,), (3,), (4,)]
    assert await client.rows("select count(distinct _row_id) from t") == [(4,)]
    # also as the CAST form, and through a view's column
    assert await client.rows("select count(*) from t where cast(_row_id as timestamptz) = "
                             f"'{at(written).isoformat()}'") == [(3,)]  # fmt: skip
    await client.run("create view vw as select _row_id, v from t")
    got = await client.rows("select _row_id::timestamptz from vw where v = 4")
    assert got == [(at(later),)]


async def test_count_distinct_row_id_in_a_materialized_view(
    client: Client, server: Running
) -> None:
    await client.run("create table t (foo int, bar int)")
    await client.run("insert into t values (1, 1), (2, 2), (1, 1)")
    server.tick()
    await run_ticking(
        client,
        server,
        "create materialized view mv as select count(foo) as c1, count(distinct foo) as c2,"
        " count(distinct _row_id) as c3 from t",
    )
    assert await client.rows("select * from mv") == [(3, 2, 3)]
    got = await client.rows(
        "select bar, count(foo), count(distinct foo), count(distinct _row_id) from t"
        " group by bar order by bar"
    )
    assert got == [(1, 2, 1, 2), (2, 1, 1, 1)]


async def test_changelog_row_ids_carry_the_clock(client: Client, server: Running) -> None:
    await client.run("create table t (v int)")
    await client.run("insert into t values (1)")
    server.tick()
    snapshot = clock_ms(server)
    await run_ticking(
        client,
        server,
        "create materialized view c as with p as changelog from t"
        " select _changelog_row_id, v, changelog_op from p",
    )
    await client.run("RWSHIM TICK")
    written = clock_ms(server)
    await client.run("update t set v = 2")
    server.tick()
    rows = await client.rows(
        "select v, changelog_op, _changelog_row_id::timestamptz from c order by _changelog_row_id"
    )
    assert rows[0][:2] == (1, 1) and rows[0][2] >= at(snapshot)
    # an UPDATE: its UpdateDelete then its UpdateInsert, at the clock of the statement
    assert rows[1:] == [(1, 4, at(written)), (2, 3, at(written))]


def epoch_at(server: Running) -> dt.datetime:
    """The time of the epoch the database's last barrier started (what a write now joins)."""
    instance = server.server.instance
    assert instance is not None
    epoch: int = instance.engine.barrier.epoch(1)
    return at((epoch >> 16) + 1_617_235_200_000)


async def test_rw_timestamp_is_the_write_epoch(client: Client, server: Running) -> None:
    await client.run("create table t (a int, id int primary key)")
    await client.run("create table r (v int)")
    assert await client.rows("select * from r") == []  # (the data plane sees the barriers on)
    await client.run("RWSHIM TICK")
    first = epoch_at(server)
    await client.run("insert into t values (1, 1), (2, 2)")
    await client.run("insert into r values (7)")
    await client.run("RWSHIM TICK")
    second = epoch_at(server)
    assert second > first
    # the rows of an epoch carry its time; `select *` leaves the column out
    assert await client.rows("select * from t order by _rw_timestamp, id") == [(1, 1), (2, 2)]
    got = await client.rows("select _rw_timestamp, a, id from t order by id")
    assert got == [(first, 1, 1), (first, 2, 2)]
    assert await client.rows("select _rw_timestamp, v from r") == [(first, 7)]
    # the batch now() is the last committed epoch's time (scheduler/snapshot.rs:132-145)
    got = await client.rows("select _rw_timestamp = now() from t where id = 1")
    assert got == [(True,)]
    # an update stamps the rows it changed, an upsert too; a row left as it was keeps its time
    await client.run("update t set a = 11 where id = 1")
    await client.run("update t set a = 2 where id = 2")  # changes nothing
    await client.run("RWSHIM TICK")
    assert await client.rows("select id, _rw_timestamp from t order by id") == [
        (1, second),
        (2, first),
    ]
    await client.run("insert into t values (3, 2)")  # overwrites key 2
    await client.run("RWSHIM TICK")
    third = epoch_at(server)
    got = await client.rows("select id, a, _rw_timestamp from t order by id")
    assert got == [(1, 11, second), (2, 3, third - dt.timedelta(seconds=1))]
    # a table without a key, an alias column list, a join
    got = await client.rows("select x.p, x._rw_timestamp, t.id from r as x(p) join t on t.id = 1")
    assert got == [(7, first, 1)]


async def test_rw_timestamp_of_a_materialized_view_is_refused(
    client: Client, server: Running
) -> None:
    await client.run("create table t (v int)")
    await run_ticking(client, server, "create materialized view mv as select v from t")
    sqlstate, text = await cause(client, "select _rw_timestamp from mv")
    assert (sqlstate, text) == (
        "XX000",
        "\n\nCaused by:\n  not supported by rwshim: _rw_timestamp of a materialized view (mv):"
        " rwshim computes its state again at each barrier and keeps no write epoch per row\n",
    )


async def test_rw_timestamp_in_a_streaming_query_is_refused(
    client: Client, server: Running
) -> None:
    # optimizer/mod.rs:720-725 (RwTimestampValidator), after the query bound
    await client.run("create table t (v int)")
    sqlstate, text = await cause(
        client, "create materialized view mv as select v, _rw_timestamp from t"
    )
    assert (sqlstate, text) == (
        "XX000",
        "\n\nCaused by:\n  Not supported: selecting `_rw_timestamp` in a streaming query is not"
        " allowed\nHINT: please run the sql in batch mode or remove the column `_rw_timestamp`"
        " from the streaming query\n",
    )
    # and a column no relation has is still the binder's
    sqlstate, text = await cause(client, "create materialized view mv as select nope from t")
    assert "Invalid column: nope" in text


async def test_rw_timestamp_of_writes_that_read_their_own_epoch(
    client: Client, server: Running
) -> None:
    # an UPDATE / DELETE of a table its epoch already wrote is evaluated against the committed
    # rows (dataplane/epochs.py FromSnapshot): it may read their write times, and what it
    # applies is stamped with the open epoch
    await client.run("create table t (k int primary key, v int)")
    await client.run("create table r (v int)")
    assert await client.rows("select * from r") == []
    await client.run("RWSHIM TICK")
    first = epoch_at(server)
    await client.run("insert into t values (1, 1), (2, 2)")
    await client.run("insert into r values (1), (2)")
    await client.run("RWSHIM TICK")
    second = epoch_at(server)
    await client.run("insert into t values (3, 3)")
    await client.run("insert into r values (3)")
    # t and r were written in this epoch: these read the committed snapshot
    tag = await client.run(f"update t set v = 10 where _rw_timestamp = '{first.isoformat()}'")
    assert tag == "UPDATE 2"
    await client.run("update r set v = 20 where v = 2")
    await client.run("RWSHIM TICK")
    assert await client.rows("select k, v, _rw_timestamp from t order by k") == [
        (1, 10, second),
        (2, 10, second),
        (3, 3, second),
    ]
    assert await client.rows("select v, _rw_timestamp from r order by v") == [
        (1, first),
        (3, second),
        (20, second),
    ]


async def test_rw_timestamp_of_a_sink_into_a_table(client: Client, server: Running) -> None:
    await client.run("create table src (k int primary key, v int)")
    await client.run("create table dst (k int primary key, v int)")
    await run_ticking(client, server, "create sink s into dst as select k, v from src")
    await client.run("RWSHIM TICK")
    written = epoch_at(server)
    await client.run("insert into src values (1, 1)")
    await client.run("RWSHIM TICK")
    # the sink's rows land in the epoch of the upstream's write (sinks deliver in its commit)
    assert await client.rows("select k, _rw_timestamp from dst") == [(1, written)]
    assert await client.rows("select k, _rw_timestamp from src") == [(1, written)]
