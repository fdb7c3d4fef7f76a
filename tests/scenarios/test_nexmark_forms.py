"""Forms RisingWave's nexmark queries use, in materialized views over a real socket: an
aggregate FILTER under a GROUP BY of an expression (q15-q17: the FILTER reads the aggregated
rows, binder/expr/function/aggregate.rs), the columns of a HOP / TUMBLE named by the input
relation's name (q5: binder/relation/window_table_function.rs:118-120), and
``rw_cluster_id()`` / ``regexp_match`` (builtin_scalar.rs:771, scalar/regexp.rs).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


async def bids(c: Client) -> None:
    await c.run("SET RW_IMPLICIT_FLUSH TO true")
    await c.run(
        "CREATE TABLE bid (auction int, bidder int, price int, channel varchar,"
        " date_time timestamp)"
    )
    await c.run(
        "INSERT INTO bid VALUES (1, 2, 100, 'apple', '2024-01-01 10:00:00'),"
        " (1, 3, 20000, 'google', '2024-01-01 10:00:05'),"
        " (2, 3, 30000, 'google', '2024-01-02 10:00:01')"
    )


async def test_filter_under_group_by_expression(client: Client) -> None:
    await bids(client)
    await client.run(
        "CREATE MATERIALIZED VIEW q15 AS SELECT to_char(date_time, 'yyyy-MM-dd') AS day,"
        " count(*) AS total_bids, count(*) FILTER (WHERE price < 10000) AS rank1_bids,"
        " count(DISTINCT bidder) FILTER (WHERE price >= 10000) AS rank2_bids"
        " FROM bid GROUP BY to_char(date_time, 'yyyy-MM-dd')"
    )
    assert await client.rows("SELECT * FROM q15 ORDER BY day") == [
        ("2024-01-01", 2, 1, 1),
        ("2024-01-02", 1, 0, 1),
    ]


async def test_window_columns_named_by_the_input_relation(client: Client) -> None:
    await bids(client)
    await client.run(
        "CREATE MATERIALIZED VIEW q5 AS SELECT bid.auction, count(*) AS num, window_start"
        " FROM TUMBLE(bid, date_time, INTERVAL '1' DAY) GROUP BY window_start, bid.auction"
    )
    assert await client.rows("SELECT auction, num FROM q5 ORDER BY window_start") == [
        (1, 2),
        (2, 1),
    ]
    rows = await client.rows(
        "SELECT bid.auction, bid.window_end FROM HOP(bid, date_time, INTERVAL '1' DAY,"
        " INTERVAL '1' DAY) WHERE bid.price > 20000"
    )
    assert [r[0] for r in rows] == [2]


async def test_cluster_id_and_regexp_match(client: Client) -> None:
    rows = await client.rows(
        "SELECT length(rw_cluster_id()), rw_cluster_id() = rw_cluster_id(),"
        " regexp_match(rw_cluster_id(), '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}"
        "-[0-9a-f]{12}$') IS NOT NULL"
    )
    assert rows == [(36, True, True)]
    await bids(client)
    await client.run(
        "CREATE MATERIALIZED VIEW m AS SELECT auction,"
        " (regexp_match(channel, '(g)(o+)'))[2] AS o FROM bid"
    )
    assert await client.rows("SELECT * FROM m ORDER BY auction, o") == [
        (1, "oo"),
        (1, None),
        (2, "oo"),
    ]
