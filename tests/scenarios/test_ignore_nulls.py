"""``first_value(x IGNORE NULLS)`` / ``last_value(x IGNORE NULLS)`` over windows, over a real
socket: in a view read in batch and in a materialized view kept at barriers, with the default
frame and a ROWS frame; RisingWave's refusals of IGNORE NULLS anywhere else
(binder/expr/function/window.rs:86-103, function/mod.rs:338-341), in batch and at CREATE.

Values from RisingWave's e2e_test/over_window/generated/batch/ignore_nulls/mod.slt.part.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


W = "partition by 1::int order by ts"
ROWS = f"{W} rows between 1 preceding and 1 following"
COLUMNS = (
    f"first_value(val) over ({W}) as first,"
    f" first_value(val ignore nulls) over ({W}) as first_non_null,"
    f" first_value(val ignore nulls) over ({ROWS}) as first_non_null_2,"
    f" last_value(val) over ({W}) as last,"
    f" last_value(val ignore nulls) over ({W}) as last_non_null,"
    f" last_value(val ignore nulls) over ({ROWS}) as last_non_null_2"
)
READ = (
    "select first, first_non_null, first_non_null_2, last, last_non_null, last_non_null_2"
    " from {} order by ts"
)
FIRST = [(3, 3, 3, 3, 3, 2), (3, 3, 3, 2, 2, 2), (3, 3, 2, None, 2, 2)]
THEN = [*FIRST, (3, 3, 7, None, 2, 7), (3, 3, 7, 7, 7, 7)]


async def test_view_and_mv(client: Client) -> None:
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("create table t (ts timestamptz, val int)")
    await client.run(f"create view v as select *, {COLUMNS} from t")
    await client.run(f"create materialized view m as select ts, {COLUMNS} from t")
    await client.run(
        "insert into t values ('2024-12-18T12:00:42Z', 3), ('2024-12-18T12:01:00Z', 2),"
        " ('2024-12-18T12:01:15Z', null)"
    )
    assert await client.rows(READ.format("v")) == FIRST
    assert await client.rows(READ.format("m")) == FIRST
    await client.run(
        "insert into t values ('2024-12-18T12:03:00Z', null), ('2024-12-18T12:12:00Z', 7)"
    )
    assert await client.rows(READ.format("v")) == THEN
    assert await client.rows(READ.format("m")) == THEN
    # the result column keeps the function's name
    assert await client.rows(
        "select * from (select first_value(val ignore nulls) over (order by ts) from t) s"
        " where first_value = 3 limit 1"
    ) == [(3,)]


TRACKING = (
    "\nNo tracking issue yet. Feel free to submit a feature request at https://github.com/"
    "risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&template=feature_request.yml"
)


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (
            "lag(val ignore nulls) over (order by ts)",
            "Feature is not yet implemented: `IGNORE NULLS` is not supported for `lag` yet"
            + TRACKING,
        ),
        (
            "sum(val ignore nulls) over (order by ts)",
            "Invalid input syntax: `IGNORE NULLS` is not allowed for `sum`",
        ),
        (
            "sum(val ignore nulls)",
            "Invalid input syntax: `IGNORE NULLS` is not allowed in aggregate/scalar/table"
            " function call",
        ),
        (
            "abs(val ignore nulls)",
            "Invalid input syntax: `IGNORE NULLS` is not allowed in aggregate/scalar/table"
            " function call",
        ),
    ],
)
async def test_refusals(client: Client, call: str, error: str) -> None:
    await client.run("create table t (ts timestamptz, val int)")
    expected = ("XX000", f"\n\nCaused by:\n  {error}\n")
    assert await cause(client, f"select {call} as x from t") == expected
    assert await cause(client, f"create materialized view m as select {call} as x from t") == (
        expected
    )
    # nothing was made
    await client.run("create materialized view m as select 1 as x")
