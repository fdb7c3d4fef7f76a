"""RisingWave's jsonb numbers and ``to_jsonb`` over a real socket (psycopg, values read as the
server's text): jsonb holds an integer that fits i64/u64 as it is and any other number as an
f64, printed as the ``ryu`` crate lays it out (src/common/src/types/jsonb.rs: ``1.0``, ``2e16``,
``1.1451419198101145e38``), an object's keys in byte order; ``to_jsonb`` of a float or
decimal is an f64, of NULL the jsonb ``null``, of a timestamptz RFC 3339 in UTC, of a timestamp
chrono's ``{date}T{time}``
(src/expr/impl/src/scalar/to_jsonb.rs).  Values from e2e_test/batch/basic/to_jsonb.slt.part,
e2e_test/batch/types/jsonb_issue_23376.slt.part and e2e_test/batch/aggregate/jsonb_agg.slt.part.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import psycopg
import pytest
from psycopg.types.string import TextLoader

from tests.conftest import Running


@pytest.fixture
async def conn(server: Running) -> AsyncIterator[psycopg.AsyncConnection[tuple[str, ...]]]:
    c = await psycopg.AsyncConnection.connect(server.dsn(), autocommit=True)
    c.adapters.register_loader("jsonb", TextLoader)
    yield c
    await c.close()


async def _one(conn: psycopg.AsyncConnection[tuple[str, ...]], sql: str) -> str:
    cur = await conn.execute(sql)
    row = await cur.fetchone()
    assert row is not None
    return row[0]


@pytest.mark.parametrize(
    ("sql", "text"),
    [
        ("SELECT to_jsonb(15.87::real)", "15.869999885559082"),
        ("SELECT to_jsonb('2e16'::float8)", "2e16"),
        ("SELECT to_jsonb(99.99::numeric)", "99.99"),
        ("SELECT to_jsonb(123.4567890123456789012345678::decimal)", "123.45678901234568"),
        ("SELECT to_jsonb(9.9999999999999999999999999999::decimal)", "10.0"),
        ("SELECT to_jsonb(-9.9999999999999999999999999999::decimal)", "-10.0"),
        ("SELECT to_jsonb(1.0::float8)", "1.0"),
        ("SELECT to_jsonb('infinity'::numeric)", '"Infinity"'),
        ("SELECT to_jsonb('nan'::numeric)", '"NaN"'),
        ("SELECT to_jsonb(10::integer)", "10"),
        ("SELECT to_jsonb(1::bigint << 63)", "-9223372036854775808"),
        ("SELECT to_jsonb(NULL::integer)", "null"),
        ("SELECT to_jsonb(NULL::text)", "null"),
        ("SELECT to_jsonb('Fred said \"Hi.\"'::text)", '"Fred said \\"Hi.\\""'),
        ("SELECT to_jsonb('2014-05-28 12:22:35.614298'::timestamp)",
         '"2014-05-28T12:22:35.614298"'),
        ("SELECT to_jsonb('2023-10-01 10:23:45.5'::timestamp)", '"2023-10-01T10:23:45.500"'),
        ("SELECT '[1.50, 1e-7, 0.00001, 18446744073709551615, -3]'::jsonb",
         "[1.5, 1e-7, 0.00001, 18446744073709551615, -3]"),
        # an object's keys in byte order (jsonbb), where PostgreSQL orders by length first
        ("""SELECT '{"one": 1, "two": "two", "three": true, "x": {"bb": [], "a": "{"}}'::jsonb""",
         '{"one": 1, "three": true, "two": "two", "x": {"a": "{", "bb": []}}'),
        ("""SELECT '{"": 114514191981011451419198101145141919810, "a.b": 1}'::jsonb""",
         '{"": 1.1451419198101145e38, "a.b": 1}'),
    ],
)  # fmt: skip
async def test_jsonb_text(
    conn: psycopg.AsyncConnection[tuple[str, ...]], sql: str, text: str
) -> None:
    assert await _one(conn, sql) == text


async def test_to_jsonb_over_a_table(conn: psycopg.AsyncConnection[tuple[str, ...]]) -> None:
    await conn.execute("SET RW_IMPLICIT_FLUSH TO true")
    await conn.execute("SET TIME ZONE 'Europe/London'")
    await conn.execute("CREATE TABLE jt (f float8, d decimal, r real, ts timestamptz)")
    await conn.execute(
        "INSERT INTO jt VALUES (2e16, 99.99, 15.87, '2014-05-28 12:22:35.614298'), (1, 1, 1, NULL)"
    )
    cur = await conn.execute(
        "SELECT to_jsonb(f), to_jsonb(d), to_jsonb(r), to_jsonb(ts) FROM jt ORDER BY f"
    )
    assert await cur.fetchall() == [
        ("1.0", "1.0", "1.0", "null"),
        ("2e16", "99.99", "15.869999885559082", '"2014-05-28T11:22:35.614298+00:00"'),
    ]


async def test_jsonb_aggregates_and_builders_take_risingwave_values(
    conn: psycopg.AsyncConnection[tuple[str, ...]],
) -> None:
    # e2e_test/batch/aggregate/jsonb_agg.slt.part: the values go in as to_jsonb makes them
    await conn.execute("SET RW_IMPLICIT_FLUSH TO true")
    await conn.execute("CREATE TABLE ja (v2 int, v3 varchar)")
    await conn.execute("INSERT INTO ja VALUES (NULL, NULL), (1, 'ccc'), (2, 'bbb'), (3, 'aaa')")
    assert await _one(conn, "select jsonb_agg(v2::float4 order by v2) from ja") == (
        "[1.0, 2.0, 3.0, null]"
    )
    assert await _one(conn, "select jsonb_agg(v2 order by v3 desc) from ja") == "[null, 1, 2, 3]"
    assert await _one(conn, "select jsonb_agg(DISTINCT v2::decimal) from ja") == "[1, 2, 3, null]"
    assert (
        await _one(
            conn,
            "select jsonb_object_agg(v3, v2::decimal order by v3) filter (where v3 is not null)"
            " from ja",
        )
        == '{"aaa": 3.0, "bbb": 2.0, "ccc": 1.0}'
    )
    assert (
        await _one(
            conn,
            "select jsonb_build_array(v2, v2::float8, v3) from ja where v2 = 2",
        )
        == '[2, 2.0, "bbb"]'
    )
    assert (
        await _one(conn, "select jsonb_build_object('b', v2::real, 'a', v2) from ja where v2 = 1")
        == '{"a": 1, "b": 1.0}'
    )


# jsonb to a number: read as an f64, rounded half to even into an integer; the jsonb null is
# SQL NULL (src/expr/impl/src/scalar/cast.rs:70-99; src/common/src/types/ordered_float.rs:
# 992-1016 round_ties_even).  PostgreSQL rounds the numeric half away from zero and raises on
# the null.
@pytest.mark.parametrize(
    ("sql", "text"),
    [
        ("SELECT '2.5'::jsonb::smallint", "2"),
        ("SELECT '3.5'::jsonb::smallint", "4"),
        ("SELECT '-2.5'::jsonb::integer", "-2"),
        ("SELECT '0.5'::jsonb::bigint", "0"),
        ("SELECT '1.5'::jsonb::bigint", "2"),
        # an integer beyond 2^53 goes through the f64 too
        ("SELECT '9007199254740993'::jsonb::bigint", "9007199254740992"),
        ("SELECT '1.5'::jsonb::real", "1.5"),
        ("SELECT 'null'::jsonb::smallint IS NULL", "True"),
        ("SELECT 'null'::jsonb::integer IS NULL", "True"),
        ("SELECT 'null'::jsonb::bigint IS NULL", "True"),
        ("SELECT 'null'::jsonb::real IS NULL", "True"),
        ("SELECT 'null'::jsonb::double precision IS NULL", "True"),
        ("SELECT 'null'::jsonb::numeric IS NULL", "True"),
        ("SELECT 'null'::jsonb::boolean IS NULL", "True"),
    ],
)  # fmt: skip
async def test_jsonb_to_number_casts(
    conn: psycopg.AsyncConnection[tuple[str, ...]], sql: str, text: str
) -> None:
    assert str(await _one(conn, sql)) == text


def _expr_error(cause: str) -> str:
    return (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: Expr error\n  2: {cause}\n"
    )


@pytest.mark.parametrize(
    ("sql", "cause"),
    [
        ("SELECT '70000'::jsonb::smallint", "Numeric out of range"),
        ("SELECT '1e300'::jsonb::real", "Numeric out of range"),
        ("""SELECT '"a"'::jsonb::integer""",
         "Parse error: cannot cast jsonb string to type number"),
    ],
)  # fmt: skip
async def test_jsonb_to_number_refusals(
    conn: psycopg.AsyncConnection[tuple[str, ...]], sql: str, cause: str
) -> None:
    with pytest.raises(psycopg.Error) as info:
        await conn.execute(sql)
    assert info.value.diag.message_primary == _expr_error(cause)
    assert info.value.sqlstate == "XX000"


async def test_jsonb_to_integer_over_a_table_rounds_half_to_even(
    conn: psycopg.AsyncConnection[tuple[str, ...]],
) -> None:
    await conn.execute("SET RW_IMPLICIT_FLUSH TO true")
    await conn.execute("CREATE TABLE jr (k int, j jsonb)")
    await conn.execute(
        """INSERT INTO jr VALUES (1, '2.5'), (2, '3.5'), (3, '-0.5'), (4, 'null'), (5, NULL)"""
    )
    cur = await conn.execute("SELECT j::smallint, j::int, j::bigint, j::real FROM jr ORDER BY k")
    rows = [tuple(None if v is None else str(v) for v in r) for r in await cur.fetchall()]
    assert rows == [
        ("2", "2", "2", "2.5"),
        ("4", "4", "4", "3.5"),
        ("0", "0", "0", "-0.5"),
        (None, None, None, None),
        (None, None, None, None),
    ]
