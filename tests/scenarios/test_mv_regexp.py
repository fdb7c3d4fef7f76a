"""Regular-expression calls inside materialized views over a real socket: a subscripted
``(regexp_match(...))[2]`` (nexmark q21, e2e_test/streaming/nexmark/views/q21.slt.part) and
the table function ``regexp_matches`` under ``unnest`` (e2e_test/streaming/project_set.slt),
kept at barriers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    return await rw_server_factory()


async def test_regexp_calls_in_mvs(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE bid (auction int, channel varchar, url varchar)")
    await client.run(
        "CREATE MATERIALIZED VIEW q21 AS SELECT auction, CASE WHEN lower(channel) = 'apple'"
        " THEN '0' ELSE (regexp_match(url, '(&|^)channel_id=([^&]*)'))[2] END AS channel_id"
        " FROM bid WHERE (regexp_match(url, '(&|^)channel_id=([^&]*)'))[2] IS NOT NULL"
        " OR lower(channel) IN ('apple')"
    )
    await client.run(
        "INSERT INTO bid VALUES (1, 'x', 'a=1&channel_id=77'), (2, 'Apple', 'b'), (3, 'y', 'c')"
    )
    assert sorted(await client.rows("SELECT * FROM q21")) == [(1, "77"), (2, "0")]

    await client.run("CREATE TABLE tweet (text varchar)")
    await client.run(
        "CREATE MATERIALIZED VIEW tags AS WITH tags AS (SELECT unnest(regexp_matches(text,"
        " '#\\w+', 'g')) AS tag, text FROM tweet) SELECT tag, count(*) AS cnt FROM tags"
        " GROUP BY tag"
    )
    await client.run("INSERT INTO tweet VALUES ('#1 #2 abaaba'), ('ss #1 ggg #risingwave')")
    assert sorted(await client.rows("SELECT * FROM tags")) == [
        ("#1", 2),
        ("#2", 1),
        ("#risingwave", 1),
    ]
