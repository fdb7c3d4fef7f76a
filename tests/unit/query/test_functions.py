"""PostgreSQL functions registered as SQLite functions, called through real statements."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from rwshim.binder.context import QueryContext
from rwshim.binder.functions import version_string
from rwshim.catalog_path.engine import QueryEngine
from rwshim.errors import RwError

from .conftest import FIXED_NOW


def one(
    engine: QueryEngine, ctx: QueryContext, sql: str, params: tuple[object, ...] = ()
) -> object:
    rows = list(engine.execute(sql, params, ctx).rows)
    assert len(rows) == 1 and len(rows[0]) == 1, rows
    return rows[0][0]


def test_version_is_risingwaves_form(engine: QueryEngine, ctx: QueryContext) -> None:
    expected = (
        "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)"
    )
    assert version_string() == expected
    assert one(engine, ctx, "SELECT version()") == expected
    assert one(engine, ctx, "select pg_catalog.version()") == expected


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("SELECT upper('ab'), 1", None),
        ("SELECT split_part('a,b,c', ',', 2)", "b"),
        ("SELECT split_part('a,b,c', ',', -1)", "c"),
        ("SELECT starts_with('rwshim', 'rw')", True),
        ("SELECT quote_ident('Foo')", '"Foo"'),
        ("SELECT quote_ident('foo')", "foo"),
        ("SELECT array_to_string(ARRAY['a', NULL, 'c'], ',')", "a,c"),
        ("SELECT array_to_string(ARRAY['a', NULL], ',', '*')", "a,*"),
        ("SELECT array_position(ARRAY['x', 'y'], 'y')", 2),
        ("SELECT array_length(ARRAY[1, 2, 3], 1)", 3),
        ("SELECT cardinality(ARRAY[1, 2])", 2),
        ("SELECT pg_encoding_to_char(6)", "UTF8"),
        ("SELECT jsonb_build_object('a', 1)", '{"a": 1}'),
        ("SELECT pg_tablespace_location(0)", None),
        ("SELECT obj_description(1, 'pg_class'), col_description(1, 1)", None),
        ("SELECT current_setting('jit')", "off"),
        ("SELECT set_config('jit', 'on', false)", "on"),
        ("SELECT length('héllo'), char_length('ab')", None),
        ("SELECT lpad('7', 3, '0'), rpad('ab', 4)", None),
        ("SELECT concat('a', NULL, 1), concat_ws('-', 'a', NULL, 'b')", None),
        ("SELECT left('abcd', 2), right('abcd', 2), repeat('ab', 2), reverse('abc')", None),
        ("SELECT replace('aXbX', 'X', '-'), strpos('abc', 'c'), initcap('hello world')", None),
        ("SELECT regexp_replace('a1b22', '[0-9]+', '#', 'g')", "a#b#"),
        ("SELECT md5('a')", "0cc175b9c0f1b6a831c399e269772661"),
        ("SELECT round(2.5), round(1.234, 2), abs(-3), ceil(1.2), floor(1.8)", None),
        ("SELECT date_trunc('month', '2024-03-15 10:11:12'::timestamp)", dt.datetime(2024, 3, 1)),
        ("SELECT extract(year FROM '2024-03-15'::date)", Decimal(2024)),
        ("SELECT now()", FIXED_NOW),
        ("SELECT current_timestamp = now()", True),
    ],
)
def test_scalar(engine: QueryEngine, ctx: QueryContext, sql: str, expected: object) -> None:
    out = list(engine.execute(sql, (), ctx).rows)
    if expected is not None:
        assert out == [(expected,)]
    else:
        assert len(out) == 1


def test_multi_value_scalars(engine: QueryEngine, ctx: QueryContext) -> None:
    def row(sql: str) -> tuple[object, ...]:
        return tuple(next(iter(engine.execute(sql, (), ctx).rows)))

    assert row("SELECT length('héllo'), char_length('ab')") == (5, 2)
    assert row("SELECT lpad('7', 3, '0'), rpad('ab', 4)") == ("007", "ab  ")
    assert row("SELECT concat('a', NULL, 1), concat_ws('-', 'a', NULL, 'b')") == ("a1", "a-b")
    assert row("SELECT left('abcd', 2), right('abcd', 2), repeat('ab', 2), reverse('abc')") == (
        "ab",
        "cd",
        "abab",
        "cba",
    )
    assert row("SELECT replace('aXbX', 'X', '-'), strpos('abc', 'c'), initcap('hello world')") == (
        "a-b-",
        3,
        "Hello World",
    )
    assert row("SELECT round(2.5), round(1.234, 2), abs(-3), ceil(1.2), floor(1.8)") == (
        Decimal(3),
        Decimal("1.23"),
        3,
        Decimal(2),
        Decimal(1),
    )


def test_set_config_is_reported_to_the_session(engine: QueryEngine, ctx: QueryContext) -> None:
    one(engine, ctx, "SELECT set_config('jit', $1, false)", ("off",))
    assert engine.take_settings() == [("jit", "off")]
    assert engine.take_settings() == []


def test_current_setting_unknown(engine: QueryEngine, ctx: QueryContext) -> None:
    with pytest.raises(RwError) as info:
        one(engine, ctx, "SELECT current_setting('nosuch')")
    assert info.value.chain == [
        "Failed to get or set session config",
        "Unrecognized config entry `nosuch`",
    ]
    assert one(engine, ctx, "SELECT current_setting('nosuch', true)") is None


def test_aggregates_on_empty_input(engine: QueryEngine, ctx: QueryContext) -> None:
    sql = (
        "SELECT count(*), sum(x), array_agg(x), string_agg(x::text, ','), bool_and(x > 0) "
        "FROM generate_series(1, 0) AS g(x)"
    )
    assert list(engine.execute(sql, (), ctx).rows) == [(0, None, None, None, None)]


def test_numeric_sum_and_avg_are_decimal(engine: QueryEngine, ctx: QueryContext) -> None:
    """rust_decimal: 28 fractional digits at most, trailing zeros dropped."""
    sql = "SELECT sum(x), avg(x), avg(DISTINCT x) FROM (VALUES (0.1), (0.2), (0.2)) AS v(x)"
    assert list(engine.execute(sql, (), ctx).rows) == [
        (Decimal("0.5"), Decimal("0.1666666666666666666666666667"), Decimal("0.15"))
    ]
    assert one(engine, ctx, "SELECT avg(x) FROM (VALUES (1), (2)) AS v(x)") == Decimal("1.5")
    assert one(
        engine, ctx, "SELECT sum(x) FROM (VALUES (9223372036854775807::int8), (1::int8)) AS v(x)"
    ) == Decimal("9223372036854775808")


def test_view_query_is_the_query_after_as() -> None:
    # pg_get_viewdef answers the query, as RisingWave's pg_get_viewdef.rs does
    from rwshim.binder.functions import view_query as _view_query

    assert _view_query("CREATE MATERIALIZED VIEW mv AS SELECT 1") == "SELECT 1"
    assert (
        _view_query("create view v (a, b) with (x = 'as') as select 'as' as a, 2 as b")
        == "select 'as' as a, 2 as b"
    )
    assert _view_query(None) is None


@pytest.mark.parametrize(
    ("sql", "signature"),
    [
        ("SELECT pg_size_pretty(123456789)", "pg_size_pretty(integer)"),
        ("SELECT to_regtype('integer')", "to_regtype(character varying)"),
        ("SELECT json_build_object('a', 1)", "json_build_object(character varying, integer)"),
        ("SELECT pg_get_function_result(1)", "pg_get_function_result(integer)"),
        ("SELECT pg_function_is_visible(1)", "pg_function_is_visible(integer)"),
        ("SELECT pg_total_relation_size(1)", "pg_total_relation_size(integer)"),
    ],
)
def test_functions_risingwave_lacks(
    engine: QueryEngine, ctx: QueryContext, sql: str, signature: str
) -> None:
    """Neither builtin_scalar.rs nor any ``#[function]`` has them: RisingWave's
    ``function ... does not exist``."""
    with pytest.raises(RwError) as info:
        engine.execute(sql, (), ctx)
    assert info.value.chain[-1] == f"function {signature} does not exist"


def test_descriptions_are_empty(engine: QueryEngine, ctx: QueryContext) -> None:
    """binder/expr/function/mod.rs:133-141: '' without binding the arguments."""
    out = list(
        engine.execute("SELECT obj_description(x::regclass), col_description(1)", (), ctx).rows
    )
    assert out == [("", "")]
