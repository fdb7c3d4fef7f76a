"""``approx_percentile(q [, relative_error]) WITHIN GROUP (ORDER BY x [DESC])`` in a batch
query and a materialized view, over a real socket: RisingWave's bucket estimate to the last
digit (src/expr/impl/src/aggregate/approx_percentile.rs), the default relative error 0.01,
DESC as ``1 - q``.  Values from RisingWave's
e2e_test/streaming/aggregate/shuffle_approx_percentile.slt.
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


QUERY = """SELECT
    approx_percentile(0.01, 0.01) WITHIN GROUP (ORDER BY p_col) AS p01,
    approx_percentile(0.1, 0.01) WITHIN GROUP (ORDER BY p_col) AS p10,
    approx_percentile(0.5) WITHIN GROUP (ORDER BY p_col) AS p50,
    approx_percentile(0.9, 0.01) WITHIN GROUP (ORDER BY p_col) AS p90,
    approx_percentile(0.99, 0.01) WITHIN GROUP (ORDER BY p_col DESC) AS p01_desc
FROM t GROUP BY grp_col"""


async def test_batch_and_materialized_view(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (p_col double, grp_col int)")
    await client.run("INSERT INTO t SELECT a, 1 FROM generate_series(-1000, 1000) t(a)")
    await client.run("INSERT INTO t VALUES (NULL, 1)")
    await client.run(f"CREATE MATERIALIZED VIEW m1 AS {QUERY}")
    first = (
        -982.5779489474152, -804.4614206837127, 0.0, 804.4614206837127, -982.5779489474152,
    )  # fmt: skip
    assert await client.rows(QUERY) == [first]
    assert await client.rows("SELECT * FROM m1") == [first]
    await client.run("INSERT INTO t SELECT 0.001, 1 FROM generate_series(1, 500)")
    await client.run("INSERT INTO t SELECT 0.0001, 1 FROM generate_series(1, 501)")
    assert await client.rows("SELECT * FROM m1") == [
        (
            -963.1209598593477,
            -699.3618972397041,
            0.00009999833511933609,
            699.3618972397041,
            -963.1209598593477,
        )
    ]
    await client.run("DELETE FROM t")
    assert await client.rows("SELECT * FROM m1") == []
    assert await client.rows(
        "SELECT approx_percentile(0.5) WITHIN GROUP (ORDER BY p_col) FROM t"
    ) == [(None,)]
