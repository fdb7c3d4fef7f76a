"""Time travel (``SELECT ... FROM t FOR SYSTEM_TIME AS OF <point>``) under the manual clock, as a
RisingWave user sees it.

RisingWave: a point in whole seconds s reads the epoch of (s + 1) * 1000 ms, the newest
version committed at or before it (src/frontend/src/optimizer/plan_node/utils.rs:501-575,
src/meta/src/hummock/manager/time_travel.rs:534-571); a point older than
time_travel_retention_ms (default 600000; 0 turns time travel off) has no version:
``Time-travel version expired: table {id}, epoch {epoch}`` (src/storage/src/hummock/error.rs:
53-54); a future point reads the current data.  Ported from e2e_test/time_travel/.
"""

from __future__ import annotations

import asyncio
import datetime as dt

from tests.conftest import Running
from tests.scenarios.conftest import Connect, engine
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking


def clock(server: Running) -> dt.datetime:
    return dt.datetime.fromtimestamp(engine(server).clock.now_ms() / 1000, tz=dt.UTC)


def at(t: dt.datetime, seconds: int = 0) -> str:
    return (t + dt.timedelta(seconds=seconds)).isoformat()


async def as_of(c: Client, point: str) -> list[tuple[object, ...]]:
    return await c.rows(f"select k from t for system_time as of '{point}' order by k")


async def test_each_point_reads_the_epoch_it_names(
    client_factory: Connect, server: Running
) -> None:
    c = await client_factory()
    await c.run("create table t (k int primary key, v int)")
    await c.run("RWSHIM TICK")
    t1 = clock(server)  # the epoch started here holds the first insert
    await c.run("insert into t values (1, 10), (2, 20)")
    await c.run("RWSHIM TICK")
    await c.run("RWSHIM TICK")
    t2 = clock(server)  # ... and this one the delete and the update
    await c.run("delete from t where k = 1")
    await c.run("update t set v = 21 where k = 2")
    await c.run("insert into t values (3, 30)")
    await c.run("RWSHIM TICK")
    assert await c.rows("select k, v from t order by k") == [(2, 21), (3, 30)]
    # a point s reads the epoch of (s + 1) * 1000 ms: what was written up to second s + 1
    assert await as_of(c, at(t1, -2)) == []
    assert await as_of(c, at(t1)) == [(1,), (2,)]
    assert await as_of(c, at(t2, -2)) == [(1,), (2,)]
    assert await c.rows(f"select k, v from t for system_time as of '{at(t2, -2)}' where k = 2") == [
        (2, 20)
    ]
    assert await as_of(c, at(t2)) == [(2,), (3,)]
    # a point in the future reads the current data (e2e_test/time_travel/syntax.slt:26-32)
    assert await as_of(c, "2130-02-10T12:13:14-08:30") == [(2,), (3,)]
    assert await c.rows("select count(*) from t for system_time as of 5066075780") == [(2,)]


async def test_a_join_of_two_points(client_factory: Connect, server: Running) -> None:
    # e2e_test/time_travel/join.slt, with points of the manual clock
    c = await client_factory()
    await c.run("set rw_implicit_flush = true")
    await c.run("create table t1 (k1 int)")
    await c.run("create table t2 (k2 int)")
    await c.run("RWSHIM TICK")
    t0 = clock(server)
    await c.run("RWSHIM TICK")
    await c.run("insert into t1 values (1)")
    await c.run("insert into t2 values (1)")
    q = (
        "select count(*) from t1 for system_time as of '{}'"
        " join t2 for system_time as of '{}' on t1.k1 = t2.k2"
    )
    now = at(clock(server), 5)
    assert await c.rows(q.format(at(t0), now)) == [(0,)]
    assert await c.rows(q.format(now, at(t0))) == [(0,)]
    assert await c.rows(q.format(now, now)) == [(1,)]


EXPIRED = "\n\nCaused by:\n  Time-travel version expired: table {}, epoch 0\n"


async def test_points_outside_the_retention_are_refused(client: Client) -> None:
    # e2e_test/time_travel/syntax.slt:14-23, basic.slt:4-5
    await client.run("create table t (k int)")
    await client.run("insert into t values (1)")
    ((tid,),) = await client.rows("select id from rw_catalog.rw_tables where name = 't'")
    for point in ("963716300", "'2000-02-20T12:13:14-08:30'", "NOW() - '100' YEAR"):
        assert await cause(client, f"select * from t for system_time as of {point}") == (
            "XX000",
            EXPIRED.format(tid),
        )
    assert await cause(client, "alter system set time_travel_retention_ms to 10") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: gRPC request to meta service (call `/meta.SystemParamsService/SetSystemParam`)"
        " failed: Internal error\n"
        "  2: System parameters error: time_travel_retention_ms cannot be less than 600000\n",
    )


async def test_retention_zero_turns_time_travel_off(client: Client) -> None:
    await client.run("create table t (k int)")
    ((tid,),) = await client.rows("select id from rw_catalog.rw_tables where name = 't'")
    await client.run("alter system set time_travel_retention_ms to 0")
    code, text = await cause(client, "select * from t for system_time as of now()")
    assert (code, text.split("epoch ")[0]) == (
        "XX000",
        f"\n\nCaused by:\n  Time-travel version expired: table {tid}, ",
    )


async def test_a_materialized_view_reads_its_versions(
    client_factory: Connect, server: Running
) -> None:
    # RisingWave binds AS OF on any table of the catalog, a materialized view's included
    # (src/frontend/src/binder/relation/table_or_source.rs:174-189); a view's equal rows are
    # versions of their own
    c = await client_factory()
    await c.run("create table t (k int primary key)")
    await run_ticking(c, server, "create materialized view odd as select k % 2 as p from t")
    await run_ticking(c, server, "create materialized view n as select count(*) as c from t")
    # (rwshim makes a view's state, and its history, when it is first read)
    assert await c.rows("select (select count(*) from odd), (select c from n)") == [(0, 0)]
    await c.run("RWSHIM TICK")
    await c.run("RWSHIM TICK")
    t0 = clock(server)
    await c.run("RWSHIM TICK")
    await c.run("insert into t values (1), (2), (3)")
    await c.run("RWSHIM TICK")
    await c.run("RWSHIM TICK")
    t1 = clock(server)
    await c.run("RWSHIM TICK")
    await c.run("delete from t where k = 3")
    await c.run("RWSHIM TICK")
    odd = "select p from odd for system_time as of '{}' order by p"
    # (a point s reads the epoch of (s + 1) * 1000 ms: what was written up to second s + 1)
    assert await c.rows(odd.format(at(t0, -2))) == []
    assert await c.rows(odd.format(at(t1, -2))) == [(0,), (1,), (1,)]
    assert await c.rows(odd.format(at(clock(server), 5))) == [(0,), (1,)]
    assert await c.rows("select p from odd order by p") == [(0,), (1,)]
    n = "select c from n for system_time as of '{}'"
    assert await c.rows(n.format(at(t0, -2))) == [(0,)]
    assert await c.rows(n.format(at(t1, -2))) == [(3,)]
    assert await c.rows(n.format(at(clock(server), 5))) == [(2,)]
    # two points of one view in one query
    assert await c.rows(
        f"select a.c, b.c from n for system_time as of '{at(t1, -2)}' as a,"
        f" n for system_time as of '{at(t0, -2)}' as b"
    ) == [(3, 0)]


async def test_views_read_now_and_sources_are_refused(client: Client, server: Running) -> None:
    await client.run("set rw_implicit_flush = true")
    await client.run("create table t (k int)")
    await client.run("insert into t values (1)")
    # a view binds its query and drops the AS OF (binder/relation/table_or_source.rs:193-197):
    # it reads the current data, even at a point before the table had a row
    await client.run("create view v as select k from t")
    assert await client.rows("select k from v for system_time as of 963716300") == [(1,)]
    await client.run("create source s (a int) with (connector = 'datagen')")
    # src/frontend/src/optimizer/plan_node/logical_source.rs:91-93
    assert await cause(client, "select * from s for system_time as of now()") == (
        "XX000",
        "\n\nCaused by:\n  Time travel is not supported for the source\n",
    )
    await run_ticking(client, server, "create materialized view m as select k from t")
    ((mv,),) = await client.rows("select id from rw_materialized_views where name = 'm'")
    assert await cause(client, "select * from m for system_time as of 963716300") == (
        "XX000",
        EXPIRED.format(mv),
    )


async def _versions(server: Running, relation_id: int) -> int:
    """How many versions the history of a table or materialized view holds, counted in the
    data plane's PostgreSQL (rwshim's own store of them)."""
    import psycopg

    assert server.server.instance is not None
    conninfo = server.server.instance.data.conninfo()
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as pg:
        cur = await pg.execute(f'SELECT count(*) FROM rw."h{relation_id}"')
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def test_versions_older_than_the_retention_are_deleted(
    client_factory: Connect, server: Running
) -> None:
    # RisingWave's meta deletes the time-travel metadata of epochs older than now less
    # time_travel_retention_ms every 30 s (src/meta/src/hummock/manager/gc.rs:478-495,
    # time_travel.rs:70-200): the history holds the current rows and the retention's changes
    c = await client_factory()
    await c.run("create table t (k int primary key, v int)")
    await run_ticking(c, server, "create materialized view m as select v from t")
    ((tid,),) = await c.rows("select id from rw_tables where name = 't'")
    ((mid,),) = await c.rows("select id from rw_materialized_views where name = 'm'")
    assert await c.rows("select count(*) from m") == [(0,)]  # (its state and history made)
    await c.run("RWSHIM TICK")
    await c.run("insert into t values (1, 0)")
    await c.run("RWSHIM TICK")
    for v in range(1, 6):
        await c.run(f"update t set v = {v} where k = 1")
        await c.run("RWSHIM TICK")
    old = at(clock(server), -3)
    assert await c.rows(f"select v from m for system_time as of '{old}'") == [(4,)]
    assert (await _versions(server, tid), await _versions(server, mid)) == (6, 6)
    # ten minutes and a vacuum interval of barriers later, one version each is left: the
    # current one
    await c.run("RWSHIM TICK 640")
    await c.run("flush")  # (after every barrier's commit on the data plane)
    assert (await _versions(server, tid), await _versions(server, mid)) == (1, 1)
    assert await c.rows("select v from t for system_time as of now()") == [(5,)]
    assert await c.rows("select v from m for system_time as of now()") == [(5,)]
    code, text = await cause(c, f"select v from m for system_time as of '{old}'")
    assert (code, text.split("epoch ")[0]) == (
        "XX000",
        f"\n\nCaused by:\n  Time-travel version expired: table {mid}, ",
    )


def epoch_of(t: dt.datetime) -> int:
    """RisingWave's epoch of a time (src/common/src/util/epoch.rs)."""
    return (int(t.timestamp() * 1000) - 1_617_235_200_000) << 16


async def test_a_view_read_before_rwshim_computed_it_is_refused(
    client_factory: Connect, server: Running
) -> None:
    # what rwshim cannot give (a view's versions before its state was first made) is refused,
    # never answered with the rows of later
    c = await client_factory()
    await c.run("create table t (k int)")
    await run_ticking(c, server, "create materialized view m as select k from t")
    await c.run("RWSHIM TICK")
    before = clock(server)
    await c.run("insert into t values (1)")
    await c.run("RWSHIM TICK")
    await c.run("RWSHIM TICK")
    assert await c.rows("select k from m") == [(1,)]
    made = clock(server)
    point = int(before.timestamp())
    assert await cause(c, f"select k from m for system_time as of {point}") == (
        "XX000",
        "\n\nCaused by:\n  not supported by rwshim: time travel on materialized view m at epoch"
        f" {epoch_of(dt.datetime.fromtimestamp(point + 1, tz=dt.UTC))}, before rwshim first"
        f" computed it (epoch {epoch_of(made)})\n",
    )
    await c.run("RWSHIM TICK")
    assert await c.rows(f"select k from m for system_time as of '{at(clock(server), 2)}'") == [
        (1,)
    ]


async def test_a_batch_now_is_the_committed_epochs_time(
    client_factory: Connect, server: Running
) -> None:
    # RisingWave inlines a batch query's now() / current_timestamp as the physical time of the
    # largest committed epoch of its snapshot (src/frontend/src/scheduler/snapshot.rs:132-145,
    # src/frontend/src/expr/now.rs:47-84; binder/expr/function/builtin_scalar.rs:784): under
    # the manual clock it moves only with the barriers
    c = await client_factory()
    await c.run("create table t (ts timestamptz)")
    await c.run("insert into t values ('2000-01-01 00:00:00+00')")
    await c.run("RWSHIM TICK")
    await c.run("RWSHIM TICK")
    q = "select now(), current_timestamp from t"
    ((a, a2),) = await c.rows(q)
    await asyncio.sleep(0.05)
    ((b, b2),) = await c.rows(q)
    assert a == a2 == b == b2
    assert await c.rows("select now()") == [(a,)]  # (answered in process: the same rule)
    assert a <= clock(server)
    await c.run("RWSHIM TICK")
    ((d, _),) = await c.rows(q)
    assert d - a == dt.timedelta(seconds=1)  # one barrier interval
    # a DML's now() too (a batch INSERT inlines it the same way)
    await c.run("insert into t select now() from t")
    await c.run("flush")
    assert sorted(r[0] for r in await c.rows("select ts from t"))[-1] == d


async def test_time_travel_needs_a_license(client: Client) -> None:
    # e2e_test/time_travel/license.slt: Feature::TimeTravel.check_available() when the scan's
    # epoch is made (src/frontend/src/optimizer/plan_node/utils.rs:512), under Scheduler error
    await client.run("create table t (k int)")
    await client.run("alter system set license_key to ''")
    assert await cause(client, "select * from t for system_time as of now()") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Scheduler error\n"
        "  2: feature TimeTravel is not available based on your license\n\n"
        "Hint: You may want to set a license key with `ALTER SYSTEM SET license_key = '...';`"
        " command. For more information, visit https://go.risingwave.com/premium.\n",
    )
    await client.run("alter system set license_key to default")
    assert await client.rows("select * from t for system_time as of now()") == []
