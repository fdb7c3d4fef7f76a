"""Odd corners of RisingWave's batch e2e files, over a real socket: a column's COLLATE in
CREATE TABLE (create_table.rs:150-167, e2e_test/batch/basic/collation.slt.part)."""

from __future__ import annotations

import json

import pytest

from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause

_NOT_C = (
    "\n\nCaused by:\n  Feature is not yet implemented: Collate collation other than `C` or `POSIX` "
    "is not implemented\nNo tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&"
    "template=feature_request.yml\n"
)


@pytest.mark.parametrize(
    ("sql", "text"),
    [
        ('create table t3 (a text collate "pOsIx", b int)', _NOT_C),
        # unquoted, the name folds to `c` (ObjectName::real_value)
        ("create table t3 (a text collate C)", _NOT_C),
        (
            'create table t4 (a text collate "POSIX", b int collate "C")',
            "\n\nCaused by:\n  Not supported: INT is not a collatable data type\nHINT: The only "
            "built-in collatable data types are `varchar`, please check your type\n",
        ),
    ],
)
async def test_column_collation_refused(client: Client, sql: str, text: str) -> None:
    assert await cause(client, sql) == ("XX000", text)


async def test_column_collation_c_and_posix(client: Client) -> None:
    await client.run('create table t1 (a text collate "C", b varchar collate "POSIX", c int)')
    await client.run("drop table t1")


async def test_interval_times_and_divided_by_a_number(client: Client) -> None:
    """Interval::div_float / mul_float over from_floats (interval.rs:271-358): each unit an
    f64, fractions carried down rounded half to even (interval.slt.part:158-177)."""
    rows = await client.rows(
        "with t(v, d) as (values ('00:00:00.000003'::interval, 2), ('00:00:00.000005', 2),"
        " ('1 day', 16384), ('3 day', 16384), ('1 month', 32768), ('3 month', 32768))"
        " select (v / d)::varchar from t"
    )
    assert [r[0] for r in rows] == [
        "00:00:00.000002",
        "00:00:00.000002",
        "00:00:05.273438",
        "00:00:15.820312",
        "00:01:19.101562",
        "00:03:57.304688",
    ]
    rows = await client.rows(
        "with t(v) as (values (interval '3 mons -3 days')) select (v / 2)::varchar,"
        " (v * 1.5)::varchar, (0.5 * v)::varchar from t"
    )
    # 4.5 months: 4 and 15 carried days; -4.5 days: -4 and -12 hours, split before the carry
    assert rows == [
        ("1 mon 14 days -12:00:00", "4 mons 11 days -12:00:00", "1 mon 14 days -12:00:00")
    ]
    assert await cause(client, "with t(v) as (values (interval '1 day')) select v / 0 from t") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n  2: Numeric "
        "out of range\n",
    )


async def test_catalog_values_quantified_comparisons(client: Client) -> None:
    """On the catalog path: current_schemas(NULL) is NULL (builtin_scalar.rs:531-533),
    ``< ANY`` / ``ALL`` compare as SQL's three-valued logic (all_any_some.slt.part:55), and
    CURRENT_CATALOG is current_database() (builtin_scalar.rs:129,506; func.slt.part:320)."""
    assert await client.rows("select 1 < ANY(current_schemas(null)::integer[])") == [(None,)]
    assert await client.rows(
        "select current_schemas(null) IS NULL, 'public' < ALL(current_schemas(true)),"
        " 'a' < ALL(current_schemas(true)), 'zz' <= ANY(current_schemas(false))"
    ) == [(True, False, True, False)]
    assert await client.rows("select count(current_catalog), current_catalog") == [(1, "dev")]


async def test_interval_group_keys_justified(client: Client) -> None:
    """An interval group key comes back as its class's justified member (interval.rs:723-781
    IntervalCmpValue, 851-871 HashKeySer/De): '30 days' and '1 mon' are one group, ``1 mon``
    (interval.slt.part:77-90)."""
    rows = await client.rows(
        "select (s.v)::varchar from (select distinct v from (values (interval '30' day),"
        " (interval '1' month)) as t(v)) s"
    )
    assert rows == [("1 mon",)]
    rows = await client.rows(
        "select v::varchar, count(*) from (values (interval '-1 mon 15 days'),"
        " (interval '-15 days'), (interval '25 hours')) t(v) group by v order by 1"
    )
    assert rows == [("-15 days", 2), ("1 day 01:00:00", 1)]


async def test_star_except_of_a_name_one_relation_repeats(client: Client) -> None:
    """A name an EXCEPT list gives binds to every column of that name, one relation's too:
    two are ``Ambiguous column name`` (bind_context.rs:160-172; select_except.slt.part:69)."""
    await client.run("create table t1 (v1 int, v2 int, v3 int)")
    for sql in ("select * except (a) from t1 t(a,a,a)", "select * except (t.a) from t1 t(a,a,b)"):
        assert await cause(client, sql) == (
            "XX000",
            "\n\nCaused by:\n  internal error: Ambiguous column name: a\n",
        )
    await client.run("drop table t1")


async def test_jsonb_build_object_keys_are_their_text(client: Client) -> None:
    """A key is its ToText (jsonb_build.rs:96-105): a timestamptz ``+00:00`` with a space, not
    the JSON form its value takes; a list key is refused (to_jsonb.slt.part:281)."""
    await client.run("set rw_implicit_flush = true")
    await client.run(
        "create table tj (a timestamptz, b timestamp, c boolean, d int[], e double, f real)"
    )
    await client.run(
        "insert into tj values ('2023-09-01 21:12:54+00', '2023-09-01 22:12:54.5', false,"
        " array[1], 1023789440, 1e13)"
    )
    rows = await client.rows("select jsonb_build_object(a, a, b, b, c, c, e, 1, f, 2) from tj")
    got = rows[0][0] if isinstance(rows[0][0], dict) else json.loads(rows[0][0])
    assert got == {
        "2023-09-01 21:12:54+00:00": "2023-09-01T21:12:54+00:00",
        "2023-09-01 22:12:54.500": "2023-09-01T22:12:54.500",
        "false": False,
        "1023789440": 1,  # ryu's layout (to_text.rs:122-170): fixed up to 10^15 for float8
        "1e+13": 2,  # and 10^12 for float4
    }
    assert await cause(client, "select jsonb_build_object(d, 1) from tj") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n  2: Invalid "
        "parameter args: key value must be scalar, not array, composite, or json\n",
    )
    await client.run("drop table tj")


async def test_star_argument_of_an_aggregate_but_count(client: Client) -> None:
    """``f(*)`` binds as no argument (function/mod.rs:815): only count has that signature
    (arg_min_max.slt.part:98,101)."""
    for name in ("arg_min", "max"):
        code, text = await cause(client, f"select {name}(*)")
        assert text == (
            "\n\nCaused by these errors (recent errors listed first):\n  1: Failed to bind "
            f"expression: {name}(*)\n  2: function {name}() does not exist\n"
        )
        assert code == "42883"
    assert await client.rows("select count(*)") == [(1,)]


_EXPR = "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n  2: "


async def test_decimal_range_of_casts_and_sum(client: Client) -> None:
    """rust_decimal's 96-bit mantissa: float -> decimal (cast.rs:118-131 try_cast), jsonb ->
    decimal (cast.rs:86-99) and sum(decimal) (checked_add) past it fail
    (decimal.slt.part:96, interoperate_decimal_float.slt.part:98,101, sum.slt.part:80)."""
    assert await cause(client, "select '1e29'::float4::decimal") == (
        "XX000",
        _EXPR + "Casting to risingwave_common::types::decimal::Decimal out of range\n",
    )
    assert await cause(client, "select '1e29'::jsonb::decimal") == (
        "XX000",
        _EXPR + "Numeric out of range\n",
    )
    assert await client.rows("select '1e28'::float4::decimal::varchar") == [
        ("10000000000000000000000000000",)
    ]
    await client.run("set rw_implicit_flush = true")
    await client.run("create table td (d decimal)")
    await client.run("insert into td values " + ", ".join(["(9000000000000000000000000000)"] * 8))
    assert await client.rows("select sum(d)::varchar from td") == [
        ("72000000000000000000000000000",)
    ]
    await client.run("insert into td values (9000000000000000000000000000)")
    assert await cause(client, "select sum(d) from td") == (
        "XX000",
        _EXPR + "Numeric out of range\n",
    )
    await client.run("drop table td")


async def test_number_literal_overflows(client: Client) -> None:
    """bind_number (value.rs:57-89): no i64 nor rust_decimal (scientific scale past 28) is
    ``Number <text> overflows`` (scientific_number.slt.part:20-26)."""
    await client.run("create table tn (v1 int, v2 int)")
    for text in ("1e-1000", "-1e1000"):
        assert await cause(client, f"insert into tn values ({text}, 1)") == (
            "XX000",
            "\n\nCaused by these errors (recent errors listed first):\n  1: Failed to bind "
            f"expression: {text}\n  2: Bind error: Number {text} overflows\n",
        )
    # the binder meets the left operand first
    big, other = "3" + "0" * 37, "1" + "0" * 37
    assert await cause(client, f"select {big}::decimal / {other}::decimal") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Failed to bind "
        f"expression: {big}\n  2: Bind error: Number {big} overflows\n",
    )
    await client.run("drop table tn")


async def test_iso_8601_interval_literal(client: Client) -> None:
    """from_iso_8601 cuts the seconds past microseconds off (interval.slt.part:196-199)."""
    assert await client.rows("select ('P12Y2M30DT4H5M0.1234567S'::interval)::varchar") == [
        ("12 years 2 mons 30 days 04:05:00.123456",)
    ]


async def test_slice_bound_past_integer(client: Client) -> None:
    """bind_array_range_index casts a bound implicitly to integer (array_ty.slt.part:237-241)."""
    assert await cause(client, "select (array[1,NULL,2])[1:4294967296]") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Failed to bind "
        'expression: (ARRAY[1, NULL, 2])[1:4294967296]\n  2: cannot cast type "bigint" to '
        '"integer" in Implicit context\n',
    )
    assert await client.rows("select (array[1,NULL,2])[2:3]::varchar") == [("{NULL,2}",)]


async def test_untyped_empty_array(client: Client) -> None:
    """bind_array (value.rs:118-122): ARRAY[] not directly cast has no type, under the item's
    bind error (map.slt.part:219-228); ARRAY[]::t[] binds."""
    assert await cause(client, "select map_from_entries(array[])") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Failed to bind "
        "expression: map_from_entries(ARRAY[])\n  2: Bind error: cannot determine type of empty "
        "array\nHINT:  Explicitly cast to the desired type, for example ARRAY[]::integer[].\n",
    )
    assert await client.rows("select (array[]::int[])::varchar") == [("{}",)]


async def test_insert_list_of_nulls(client: Client) -> None:
    """ARRAY[NULL] is character varying[], which no assignment cast takes to double precision[]
    (insert.rs:397-423, cast.rs:234-238; list_cast.slt.part:29-30)."""
    await client.run("create table tl (a double[], b int, c varchar[])")
    head = "\n\nCaused by these errors (recent errors listed first):\n"
    cast = (
        'cannot cast type "character varying[]" to "double precision[]"\n  {n}: cannot cast '
        'type "character varying" to "double precision" in Assign context\n'
    )
    assert await cause(client, "insert into tl (a) values (array[null])") == (
        "XX000",
        head + "  1: " + cast.format(n=2),
    )
    assert await cause(client, "insert into tl (b, a) values (1, array[null, null])") == (
        "XX000",
        head + "  1: failed to cast the 2nd column\n  2: " + cast.format(n=3),
    )
    await client.run("insert into tl (c) values (array[null])")
    await client.run("insert into tl (a) values (array[null]::double[])")
    await client.run("drop table tl")
