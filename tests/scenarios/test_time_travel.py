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

import datetime as dt

from tests.conftest import Running
from tests.scenarios.conftest import Connect, engine
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


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
