"""RisingWave's texts for errors PostgreSQL raises in its own words, over a real socket:
pow/exp overflow and underflow (ExprError::NumericOverflow/Underflow, src/expr/impl/src/scalar/
arithmetic_op.rs:181-187, exp.rs:43-48), jsonb to a number (cast.rs:83-99 over
JsonbRef::as_number), ``jsonb_each`` of a non-object (table_function/jsonb.rs:41-55 over
JsonbRef::object_key_values), generate_series's decimal bounds (generate_series.rs:160-208) and
regexp_count's g flag (regexp.rs:58-63).
Statements from e2e_test/batch/functions/pow.slt.part, e2e_test/batch/types/jsonb.slt.part and
e2e_test/batch/basic/generate_series.slt.part."""

from __future__ import annotations

import pytest

from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause

_HEAD = "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n  2: "


@pytest.mark.parametrize(
    ("sql", "text"),
    [
        ("select pow(100000, 200000000000000)", "Numeric out of range: overflow"),
        ("select -100000 ^ 200000000000001", "Numeric out of range: overflow"),
        ("select exp(10000000)", "Numeric out of range: overflow"),
        ("select exp(-10000000)", "Numeric out of range: underflow"),
        ("select '[1.0]'::jsonb::real", "Parse error: cannot cast jsonb array to type number"),
        (
            "select '\"hello\"'::jsonb::smallint",
            "Parse error: cannot cast jsonb string to type number",
        ),
        (
            "select '\"hello\"'::jsonb::bigint",
            "Parse error: cannot cast jsonb string to type number",
        ),
        ("select * from jsonb_each('null')", "cannot deconstruct a jsonb null"),
        (
            "select regexp_count('foobar', 'b..', 1, 'g')",
            "regexp_count() does not support the global option",
        ),
        ("select * from jsonb_each('1')", "cannot deconstruct a jsonb number"),
        ("select * from jsonb_each_text('\"string\"')", "cannot deconstruct a jsonb string"),
        ("select * from jsonb_each_text('[]')", "cannot deconstruct a jsonb array"),
        (
            "SELECT * FROM generate_series(0::numeric,10::numeric,'nan'::numeric)",
            "Invalid parameter step: step value cannot be NaN",
        ),
        (
            "SELECT * FROM generate_series('infinity'::numeric,10::numeric)",
            "Invalid parameter start: start value cannot be infinity",
        ),
        (
            "SELECT * FROM generate_series(0::numeric,'nan'::numeric)",
            "Invalid parameter stop: stop value cannot be NaN",
        ),
    ],
)
async def test_expr_error_text(client: Client, sql: str, text: str) -> None:
    assert await cause(client, sql) == ("XX000", _HEAD + text + "\n")


async def test_jsonb_each_of_an_object_still_works(client: Client) -> None:
    rows = await client.rows(
        """select key, value::varchar from jsonb_each('{"a": 1, "b": [2]}') order by key"""
    )
    assert rows == [("a", "1"), ("b", "[2]")]
    rows = await client.rows("""select * from jsonb_each_text('{"a": "x"}')""")
    assert rows == [("a", "x")]
    assert await client.rows("select count(*) from jsonb_each(null)") == [(0,)]


async def test_jsonb_build_object_odd_arguments(client: Client) -> None:
    # src/frontend/src/expr/type_inference/func.rs:765-772 (e2e_test/batch/basic/to_jsonb.slt.part)
    assert await cause(client, "select jsonb_build_object(true)") == (
        "XX000",
        "\n\nCaused by:\n  Bind error: argument list must have even number of elements\n",
    )


async def test_star_except_of_a_constant(client: Client) -> None:
    # src/frontend/src/binder/select.rs:680-700 (e2e_test/batch/basic/select_except.slt.part)
    await client.run("CREATE TABLE ex1 (v1 int, v2 int)")
    for constant in ("1", "'test'"):
        assert await cause(client, f"select * except ({constant}) from ex1") == (
            "XX000",
            "\n\nCaused by:\n  Bind error: Only support column name in except list\n",
        )


@pytest.mark.parametrize(
    ("call", "n", "expect"),
    [("now(1)", 1, 0), ("pg_typeof()", 0, 1), ("date()", 0, 1)],
)
async def test_builtin_with_another_number_of_arguments(
    client: Client, call: str, n: int, expect: int
) -> None:
    # builtin_scalar.rs:52-65 guard_by_len (e2e_test/batch/functions/now.slt.part, cast.slt.part)
    assert await cause(client, f"select {call}") == (
        "XX000",
        f"\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: Failed to bind expression: {call}\n  2: Expr error\n"
        f"  3: unexpected arguments number {n}, expect {expect}\n",
    )
