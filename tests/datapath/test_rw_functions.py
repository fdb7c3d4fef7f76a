"""RisingWave's functions on the data plane (dataplane/plan/sqlfn), through a real server: a few
cases of each family, constant queries included (they run on PostgreSQL too), and RisingWave's
binder checks (query/pg/checks) with their whole texts."""

from __future__ import annotations

import math
from decimal import Decimal

from .conftest import Client, caused_by


def test_list_functions(db: Client) -> None:
    assert db.rows(
        "SELECT array_min(array[3, 1, NULL]), array_max(array['b', 'a']),"
        " array_sum(array[1, 2]::int2[]), pg_typeof(array_sum(array[1, 2]::int8[])),"
        " array_join(array[1, NULL, 3], ',', '*'), array_distinct(array[3, 1, 3, 2, 1])"
    ) == [(1, "b", 3, "numeric", "1,*,3", [3, 1, 2])]
    sql = "SELECT array_contains(array[1, 2], array[2]), array_is_overlap(array[1], array[2])"
    assert db.rows(sql) == [(True, False)]


def test_range_leaves_out_its_end(db: Client) -> None:
    assert db.rows("SELECT * FROM range(1, 4)") == [(1,), (2,), (3,)]
    assert db.rows("SELECT * FROM range(10, 2, -4)") == [(10,), (6,)]
    assert db.error("SELECT * FROM range(1, 4, 0)") == caused_by(
        "Expr error", "Invalid parameter step: step size cannot equal zero"
    )
    assert db.error("SELECT * FROM range(0::numeric, 'nan'::numeric)") == caused_by(
        "Expr error", "Invalid parameter stop: stop value cannot be NaN"
    )


def test_arg_min_and_arg_max(db: Client) -> None:
    db.run("CREATE TABLE am (a int, b int, c int, s varchar)")
    db.run("INSERT INTO am VALUES (1, 20, 100, 'x'), (2, 20, 200, NULL), (3, 30, 100, 'z')")
    sql = "SELECT arg_min(a, b ORDER BY c DESC), arg_max(s, b), arg_min(s, c) FROM am"
    assert db.rows(sql) == [(2, "z", "x")]
    assert db.error("SELECT arg_max(a, array[b]) FROM am") == caused_by(
        "arg_max does not support struct, array, map, vector, jsonb for comparison argument, "
        "got integer[]"
    )


def test_float_functions_are_nan_outside_their_domain(db: Client) -> None:
    rows = db.rows("SELECT asin(1.1), acosh(0.5), sind('Infinity'), coth(0), atanh(0.5)")
    assert all(math.isnan(v) for v in rows[0][:4]) and rows[0][4] == math.atanh(0.5)


def test_decimal_precision_is_rust_decimals(db: Client) -> None:
    assert db.rows("SELECT pow(2.0, 3.0), 2.0 ^ -2, exp(0.0), round(42, 1), round(42.55, 1)") == [
        (Decimal(8), Decimal("0.25"), Decimal(1), Decimal(42), Decimal("42.6"))
    ]  # fmt: skip
    assert db.rows("SELECT sqrt(82416.3252::decimal), sqrt(4::decimal)") == [
        (Decimal("287.08243624436518286386154499"), Decimal(2))
    ]
    assert db.error("SELECT pow(2::decimal, 96::decimal)") == caused_by(
        "Expr error", "Numeric out of range: overflow"
    )
    # a negative integer exponent divides 1 by a power that must fit (checked_powi)
    assert db.error("SELECT pow(1e28, -2)") == caused_by(
        "Expr error", "Numeric out of range: overflow"
    )
    assert db.rows("SELECT pow(0.5, -3)::varchar") == [("8",)]
    assert db.error("SELECT sqrt(-1::decimal)") == caused_by(
        "Expr error", "Invalid parameter sqrt input: input cannot be negative value"
    )


def test_decimal_division_is_rust_decimals(db: Client) -> None:
    """rust_decimal's div_impl (decimal.rs:256): an exact quotient keeps the dividend's scale
    less the divisor's, or the digits it needs (``unscale`` drops zeros by 10^8s, then 10^4,
    10^2 and 10 once each: ``2.0 / 8`` is ``0.250``); one that does not end has 28 digits,
    rounded half to even; avg is sum / count (logical_agg.rs:624-659)."""
    sql = (
        "SELECT (2::decimal / 2)::varchar, (1.50 / 1)::varchar, (1 / 8::decimal)::varchar,"
        " (1.50 / 3)::varchar, (2.0 / 8)::varchar, (1::decimal / 3)::varchar,"
        " (2::decimal / 3)::varchar, round(2::decimal / 2, 2)::varchar, (6.0 / 0.5)::varchar"
    )
    assert db.rows(sql) == [
        ("1", "1.50", "0.125", "0.50", "0.250", "0.3333333333333333333333333333",
         "0.6666666666666666666666666667", "1", "12")
    ]  # fmt: skip
    assert db.error("SELECT 1::decimal / 0") == caused_by("Expr error", "Division by zero")
    db.run("CREATE TABLE dd (a bigint, d decimal)")
    db.run("INSERT INTO dd VALUES (1, 1.50), (2, 2.0), (NULL, 1.000)")
    sql = "SELECT avg(d)::varchar, avg(a)::varchar, avg(a::int2)::varchar FROM dd"
    assert db.rows(sql) == [("1.500", "1.50", "1.50")]  # 3 / 2: unscale leaves 1.50
    db.run("CREATE MATERIALIZED VIEW ddm AS SELECT a, d / a AS q, avg(d) OVER () AS m FROM dd")
    rows = db.rows("SELECT a, q::varchar, m::varchar FROM ddm ORDER BY a")
    assert rows == [(1, "1.50", "1.500"), (2, "1.0", "1.500"), (None, None, "1.500")]
    db.run("DROP TABLE dd CASCADE")


def test_date_trunc_and_int8recv(db: Client) -> None:
    assert db.error("SELECT date_trunc('s', TIMESTAMP '2202-02-16 20:38:40')") == caused_by(
        "Expr error",
        'Invalid parameter field: invalid field "s". must be one of: microseconds, milliseconds,'
        " second, minute, hour, day, week, month, quarter, year, decade, century, millennium",
    )
    # an interval by a column's field: the 'week' refusal only for 'week' (date_trunc.rs:90)
    db.run("CREATE TABLE dtf (f varchar)")
    db.run("INSERT INTO dtf VALUES ('hour'), ('month')")
    sql = "SELECT f, date_trunc(f, INTERVAL '1 year 4 months 5 days 02:47:33')::varchar FROM dtf"
    assert sorted(db.rows(sql)) == [
        ("hour", "1 year 4 mons 5 days 02:00:00"),
        ("month", "1 year 4 mons"),
    ]
    db.run("DROP TABLE dtf")
    assert db.error("SELECT date_trunc('week', INTERVAL '3 days')") == caused_by(
        "Expr error",
        'Unsupported function: interval units "week" not supported because months usually have'
        " fractional weeks",
    )
    assert db.rows("SELECT int8recv(int8send(76))") == [(76,)]
    assert db.error("SELECT int8recv('a'::bytea)") == caused_by(
        "Expr error", "Parse error: could not convert slice to array"
    )


def test_binder_checks_refuse_what_risingwave_refuses(db: Client) -> None:
    db.run("CREATE TABLE d (d date, v int)")
    assert db.error("INSERT INTO d VALUES ('1900-1-1', 1)") == caused_by(
        "Expr error",
        "error while evaluating expression `str_parse('1900-1-1')`",
        "Parse error: date Can't cast string to date (expected format is YYYY-MM-DD)",
    )
    assert db.error(
        "SELECT percentile_cont(array[0.5]) WITHIN GROUP (ORDER BY v) FROM d"
    ) == caused_by(
        "Invalid input syntax: direct arg in `percentile_cont` must be castable to float64"
    )
    assert db.error("SELECT xmlcomment(v::text) FROM d").endswith("does not exist\n")


def test_make_date_and_time_check_as_risingwave(db: Client) -> None:
    assert db.error("SELECT make_date(2013, 2, 30)") == caused_by(
        "Expr error", "Invalid parameter year, month, day: invalid date: 2013-2-30"
    )
    assert db.error("SELECT make_timestamptz(1973, 7, 15, 8, 15, -55.33)") == caused_by(
        "Expr error", "Invalid parameter sec: invalid sec: -55.33"
    )
    assert db.error("SELECT make_timestamptz(1910, 12, 24, 0, 0, 0, 'Nehwon/Lankhmar')") == (
        caused_by(
            "Expr error",
            "Invalid parameter time_zone: 'Nehwon/Lankhmar' is not a valid timezone",
        )
    )
    from psycopg.types.string import TextLoader

    db.conn.adapters.register_loader(1082, TextLoader)
    assert db.rows("SELECT make_date(-5, 2, 29)::varchar, make_date(20240, 1, 26)") == [
        ("0005-02-29 BC", "20240-01-26")
    ]


def test_bytea_bits_and_uuid_as_risingwave(db: Client) -> None:
    """bytea_bits.rs:27-136 checks and texts; gen_random_uuid is a varchar (random.rs:28)."""
    sql = "SELECT get_bit('\\x1234567890'::bytea, 30), set_byte('\\x12'::bytea, 0, 256)"
    assert db.rows(sql) == [(1, b"\x00")]
    assert db.error("SELECT set_bit('\\x1234567890'::bytea, 34, 10)") == caused_by(
        "Expr error", "Invalid parameter set_bit: value 10 is invalid, new bit must be 0 or 1"
    )
    assert db.error("SELECT get_byte('\\x1234567890'::bytea, 7)") == caused_by(
        "Expr error", "Invalid parameter get_byte: index 7 out of valid range, 0..4"
    )
    rows = db.rows("SELECT pg_typeof(gen_random_uuid()), gen_random_uuid() ~ '^[0-9a-f-]{36}$'")
    assert rows == [("character varying", True)]
