"""Temporal filters (``WHERE ts > now() - ...`` in a materialized view) under the manual clock,
as a RisingWave user sees them, and where RisingWave refuses ``now()`` in a streaming query.

RisingWave: the Now executor takes the timestamp of each barrier's epoch and its value is seen
once the next barrier commits (src/stream/src/executor/now.rs:141-167); a temporal filter is a
dynamic filter over it (optimizer/rule/stream/filter_with_now_to_join_rule.rs), so rows leave
and enter the view as barriers pass, with no write upstream; ``now()`` in a streaming query
only in WHERE / HAVING / ON / FROM (binder/expr/function/builtin_scalar.rs:869-893).  Ported
from e2e_test/streaming/temporal_filter.slt and planner_test's expr.yaml:536-554.
"""

from __future__ import annotations

import datetime as dt

from tests.conftest import Running
from tests.scenarios.conftest import Connect, engine
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking


def clock(server: Running) -> dt.datetime:
    """The manual clock (each ``RWSHIM TICK`` moves it by barrier_interval_ms, 1 s)."""
    return dt.datetime.fromtimestamp(engine(server).clock.now_ms() / 1000, tz=dt.UTC)


async def ids(c: Client) -> list[int]:
    return [r[0] for r in await c.rows("select id from mv order by id")]


async def test_rows_enter_and_leave_as_barriers_pass_without_writes(
    client_factory: Connect, server: Running
) -> None:
    c = await client_factory()
    await c.run("create table t (id int, ts timestamptz)")
    await run_ticking(
        c,
        server,
        "create materialized view mv as select id from t"
        " where ts > now() - interval '3 second' and ts <= now()",
    )
    t0 = clock(server)
    await c.run(
        f"insert into t values (1, '{t0}'::timestamptz + interval '1 second'),"
        f" (2, '{t0}'::timestamptz + interval '4 second')"
    )
    seen = []
    for _ in range(9):
        # the barrier at t0 + k + 1 s commits now() = t0 + k s (the previous barrier's epoch)
        await c.run("RWSHIM TICK")
        seen.append(await ids(c))
    assert seen == [[], [1], [1], [1], [2], [2], [2], [], []]


async def test_a_view_on_a_temporal_filter_moves_with_it(
    client_factory: Connect, server: Running
) -> None:
    c = await client_factory()
    await c.run("create table t (id int, ts timestamptz)")
    await run_ticking(
        c,
        server,
        "create materialized view mv as select id from t where ts > now() - interval '2 second'",
    )
    await run_ticking(c, server, "create materialized view n as select count(*) as k from mv")
    t0 = clock(server)
    await c.run(f"insert into t values (1, '{t0}'), (2, '{t0}'::timestamptz + interval '1 second')")
    counts = []
    for _ in range(5):
        await c.run("RWSHIM TICK")
        counts.append((await c.rows("select k from n"))[0][0])
    assert counts == [2, 2, 1, 0, 0]


async def test_e2e_temporal_filter_between(client_factory: Connect, server: Running) -> None:
    # e2e_test/streaming/temporal_filter.slt:4-50
    c = await client_factory()
    await c.run("set rw_implicit_flush = true")
    await c.run("create table t1 (v1 timestamp)")
    await run_ticking(
        c,
        server,
        "create materialized view mv1 as select v1 from t1"
        " where v1 between now() and now() + interval '1 day' * 365 * 2000",
    )
    await c.run(
        "insert into t1 values ('3031-01-01 19:00:00'), ('3031-01-01 20:00:00'),"
        " ('3031-01-01 21:00:00'), ('5031-01-01 21:00:00'), ('0001-01-01 21:00:00')"
    )
    rows = await c.rows("select v1::varchar from mv1 order by v1")
    assert rows == [("3031-01-01 19:00:00",), ("3031-01-01 20:00:00",), ("3031-01-01 21:00:00",)]
    await c.run("delete from t1 where v1 = '3031-01-01 19:00:00' or v1 = '5031-01-01 21:00:00'")
    await c.run(
        "update t1 set v1 = v1 + interval '1 hour'"
        " where v1 = '3031-01-01 20:00:00' or v1 = '0001-01-01 21:00:00'"
    )
    rows = await c.rows("select v1::varchar from mv1 order by v1")
    assert rows == [("3031-01-01 21:00:00",), ("3031-01-01 21:00:00",)]
    # (the e2e file inserts now() - 1 minute and now() + 3000 years: under the manual clock
    # a DML's now() is PostgreSQL's, so the same two sides of the window as literals)
    await c.run("insert into t1 values ('2000-01-01 00:00:00'), ('5500-01-01 00:00:00')")
    rows = await c.rows("select v1::varchar from mv1 order by v1")
    assert rows == [("3031-01-01 21:00:00",), ("3031-01-01 21:00:00",)]


NOW_ONLY = (
    "Invalid input syntax: For streaming queries, `NOW()` function is only allowed in `WHERE`,"
    " `HAVING`, `ON` and `FROM`. Found in clause: {}. Please refer to"
    " https://docs.risingwave.com/processing/sql/temporal-filters for more information"
)


def bind_error(expr: str, clause: str) -> tuple[str, str]:
    return (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: Failed to bind expression: {expr}\n  2: {NOW_ONLY.format(clause)}\n",
    )


async def test_now_outside_where_having_on_from_is_refused(client: Client) -> None:
    await client.run("create table t (v1 timestamptz, v2 int)")
    assert await cause(client, "create materialized view mv as select now()") == bind_error(
        "now()", "None"
    )
    assert await cause(
        client, "create materialized view mv as select now() as n, * from t where v1 >= now()"
    ) == bind_error("now()", "None")
    assert await cause(
        client, "create materialized view mv as select sum(v2) as s from t group by v1 >= now()"
    ) == bind_error("v1 >= now()", "Some(GroupBy)")
    assert await cause(
        client,
        "create materialized view mv as select sum(v2) filter (where v1 >= now()) as s from t",
    ) == bind_error("sum(v2) FILTER (WHERE v1 >= now())", "Some(Filter)")
    # a batch query may use now() anywhere
    assert await client.rows("select now() + interval '1 day' * 2 > now()") == [(True,)]
