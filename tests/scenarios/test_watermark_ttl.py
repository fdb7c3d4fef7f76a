"""``WATERMARK FOR ts AS ts - 10 WITH TTL`` on a table with a key, as a RisingWave user sees
it, after RisingWave's e2e_test/streaming/watermark_ttl.slt (upsert_dml on, a barrier after
each statement).

RisingWave (448c657): the watermark filter is in front of the table for every chunk; the
table's state forgets a row once its ts is below the watermark
(src/stream/src/executor/mview/materialize.rs:197-215, 455-460) and ts joins the stream key
(optimizer/plan_node/stream_materialize.rs:362-369).  A write below the watermark over an
expired row changes nothing, a new row below it over a live one deletes it, a DELETE of an
expired row changes nothing; a row above it over an expired one is a new row downstream
beside the expired one, which rwshim cannot hold: refused.
"""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking


async def test_upserts_against_a_ttl_watermark(client: Client, server: Running) -> None:
    await client.run("set implicit_flush to true")
    await client.run("set upsert_dml to true")
    await client.run(
        "create table ttl (k int primary key, ts int, v varchar,"
        " watermark for ts as ts - 10 with ttl)"
    )
    await run_ticking(client, server, "create materialized view ttl_mv as select * from ttl")

    async def run(sql: str) -> None:
        await run_ticking(client, server, sql)

    async def mv() -> list[tuple[object, ...]]:
        return await client.rows("select * from ttl_mv order by k, ts")

    await run("insert into ttl values (1, 5, 'a')")
    await run("insert into ttl values (2, 20, 'b')")  # the watermark is 10 now
    await run("insert into ttl values (3, 15, 'c')")
    await run("insert into ttl values (4, 5, 'd')")  # below: dropped
    assert await mv() == [(1, 5, "a"), (2, 20, "b"), (3, 15, "c")]
    await run("insert into ttl values (3, 15, 'cc')")  # above, over a live row: updated
    await run("insert into ttl values (1, 5, 'aa')")  # below, over an expired row: nothing
    await run("insert into ttl values (1, 6, 'a')")
    assert await mv() == [(1, 5, "a"), (2, 20, "b"), (3, 15, "cc")]
    await run("insert into ttl values (3, 4, 'cc')")  # below, over a live row: deleted
    assert await mv() == [(1, 5, "a"), (2, 20, "b")]
    assert await cause(client, "insert into ttl values (1, 18, 'aa')") == (
        "XX000",
        "\n\nCaused by:\n  not supported by rwshim: an update or upsert of a row whose ts is"
        " below the watermark of a WATERMARK ... WITH TTL table to a row above it (RisingWave's"
        " state has forgotten the old row, which its downstream jobs keep beside the new"
        " one)\n",
    )
    await run("delete from ttl where k = 1")  # expired: nothing
    await run("delete from ttl where k = 2")
    assert await mv() == [(1, 5, "a")]
