"""A table's storage retention, ``WITH (retention_seconds = n)`` (table TTL), under the manual
clock: no test sleeps.

RisingWave (448c657): a read at epoch ``e`` skips the keys written before ``e`` less n seconds
(src/storage/src/store.rs:554-566 gen_min_epoch; hummock/iterator/forward_user.rs:43-44,
:208); an index has its table's retention (handler/create_index.rs:366, :432); after
e2e_test/ttl/ttl.slt.  rwshim refuses what it cannot do as RisingWave does
(rwshim/dataplane/plan/retention.py): a materialized view or sink reading such a table, its
UPDATE and DELETE, its time travel.
"""

from __future__ import annotations

import datetime as dt

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

_MV_REFUSAL = (
    "\n\nCaused by:\n  not supported by rwshim: a materialized view or sink reading a table with"
    " retention_seconds ({}): RisingWave's state keeps the rows its backfill and stream"
    " brought after they expire in the table, rwshim computes the state again from the table"
    " at barriers and would drop them\n"
)


def _refusal(what: str, name: str) -> str:
    return (
        f"\n\nCaused by:\n  not supported by rwshim: {what} of a table with retention_seconds"
        f" ({name}): rwshim keeps the expired rows in PostgreSQL and filters them out on reads"
        " only\n"
    )


async def _now(client: Client) -> dt.datetime:
    rows = await client.rows("select now()")
    value = rows[0][0]
    assert isinstance(value, dt.datetime)
    return value


async def test_rows_expire_from_the_table_and_its_index(client: Client, server: Running) -> None:
    await client.run("create table t (v int) append only with (retention_seconds = 5)")
    await run_ticking(client, server, "create index i on t (v)")
    await client.run("create table keep (v int) append only")
    await client.run("insert into t values (1)")
    await client.run("insert into keep values (1)")
    await client.run("flush")
    [(written,)] = await client.rows("select _rw_timestamp from t")
    assert await client.rows("select * from i") == [(1,)]
    # a second row, written one barrier later, expires one barrier later (RWSHIM TICK moves
    # the manual clock a barrier interval on, then injects a barrier)
    await client.run("RWSHIM TICK")
    await client.run("insert into t values (2)")
    await client.run("flush")
    [(second,)] = await client.rows("select _rw_timestamp from t where v = 2")
    assert second > written
    seen: list[tuple[bool, bool]] = []
    for _ in range(12):
        now = await _now(client)
        cutoff = now - dt.timedelta(seconds=5)
        # visible while the write's epoch is not before the read's epoch less 5 s
        want = sorted(v for v, ts in ((1, written), (2, second)) if ts >= cutoff)
        assert [r[0] for r in await client.rows("select v from t order by v")] == want
        assert [r[0] for r in await client.rows("select v from i order by v")] == want
        assert await client.rows("select count(*) from t") == [(len(want),)]
        seen.append((1 in want, 2 in want))
        await client.run("RWSHIM TICK")
    # each row was seen and then expired, the older first (the clock passed both cutoffs)
    assert (True, True) in seen and (False, True) in seen and seen[-1] == (False, False)
    # another table's rows stay
    assert await client.rows("select * from keep") == [(1,)]
    # a row written now is visible
    await client.run("insert into t values (3)")
    await client.run("flush")
    assert await client.rows("select * from t") == [(3,)]
    assert await client.rows("select * from i") == [(3,)]


async def test_streaming_jobs_over_a_table_with_retention_are_refused(
    client: Client, server: Running
) -> None:
    await client.run("create table t (v int) append only with (retention_seconds = 5)")
    await run_ticking(client, server, "create index i on t (v)")
    await client.run("create view vw as select v from t")
    for sql in (
        "create materialized view mv as select * from t",
        "create materialized view mv as select count(*) from vw",
        "create materialized view mv as select v from i",
        "create sink s as select * from t with (connector = 'blackhole')",
    ):
        assert await cause(client, sql) == ("XX000", _MV_REFUSAL.format("t"))
    # a table without retention is not affected
    await client.run("create table u (v int)")
    await run_ticking(client, server, "create materialized view mv as select * from u")


async def test_update_and_delete_are_refused(client: Client) -> None:
    await client.run("set unsafe_enable_storage_retention_for_non_append_only_tables to true")
    await client.run("create table t (v int primary key) with (retention_seconds = 5)")
    await client.run("insert into t values (1)")
    await client.run("flush")
    assert await cause(client, "update t set v = 2") == ("XX000", _refusal("UPDATE", "t"))
    assert await cause(client, "delete from t") == ("XX000", _refusal("DELETE", "t"))
    assert await client.rows("select * from t") == [(1,)]
