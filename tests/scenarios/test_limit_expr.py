"""LIMIT's expression on user data, over a real socket: folded to bigint at bind time as
RisingWave's binder does (binder/query.rs:200-237), with its errors: a string that is no
bigint, a negative value (with the value), a type with no assignment cast to bigint, an
expression that is no constant. NULL is no limit.

Cases from RisingWave's e2e_test/batch/order/test_limit.slt.part.
"""

from __future__ import annotations

import pytest

from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause

Q = "SELECT * FROM generate_series(0,3,1) AS t(v) ORDER BY v LIMIT "
INTEGER = "expects an integer or expression that can be evaluated to an integer after LIMIT"


async def test_constant_limits(client: Client) -> None:
    assert await client.rows(Q + "'2'") == [(0,), (1,)]
    assert await client.rows(Q + "2.1::decimal") == [(0,), (1,)]
    assert await client.rows(Q + "NULL + '1'::bigint") == [(0,), (1,), (2,), (3,)]


@pytest.mark.parametrize(
    ("limit", "cause_text"),
    [
        ("'-2'", "LIMIT must not be negative, but found: -2"),
        ("-2", "LIMIT must not be negative, but found: -2"),
        (
            "'2.2'",
            f"{INTEGER},\nbut the evaluation of the expression returns error:Expr error: error"
            " while evaluating expression `str_parse('2.2')`: Parse error: bigint invalid digit"
            " found in string",
        ),
        ("'1'::jsonb", INTEGER),
        ("generate_series(1, 2)", f"{INTEGER}, but found non-const expression"),
    ],
)
async def test_refused_limits(client: Client, limit: str, cause_text: str) -> None:
    assert await cause(client, Q + limit) == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n"
        f"  2: {cause_text}\n",
    )
