"""Struct values from PostgreSQL's composite text to RisingWave's text (dataplane/typecat.py)."""

from __future__ import annotations

import pytest

from rwshim.common import rwtypes
from rwshim.dataplane.typecat import parse_record, quote_struct_field, struct_decoder


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("(1,2)", ["1", "2"]),
        ("(,)", [None, None]),
        ("()", []),
        ('(1,"(1,2)")', ["1", "(1,2)"]),
        ('("a ""b"" \\\\c",)', ['a "b" \\c', None]),
        ('(,"{4,5,NULL}")', [None, "{4,5,NULL}"]),
        ('("",x)', ["", "x"]),
    ],
)
def test_composite_text_fields(text: str, fields: list[str | None]) -> None:
    assert parse_record(text) == fields


def test_fields_are_quoted_as_risingwave_quotes_them() -> None:
    assert quote_struct_field("abc") == "abc"
    assert quote_struct_field("") == '""'
    assert quote_struct_field("a b") == '"a b"'
    assert quote_struct_field('x"y\\z') == '"x""y\\\\z"'
    assert quote_struct_field("null") == "null"  # a struct does not quote null (lists do)


def test_struct_values_render_fields_in_risingwaves_forms() -> None:
    t = rwtypes.parse(
        "struct<i int, f double precision, ts timestamptz, tm time, l int[], s struct<v varchar>>"
    )
    dec = struct_decoder(t)
    pg = '(1,1e+15,"2020-01-01 10:00:00+02","10:00:00.5","{1,2}","(""a b"")")'
    assert dec(pg.encode()) == (
        '(1,1000000000000000,"2020-01-01 08:00:00+00:00",10:00:00.500,"{1,2}","(""a b"")")'
    )
    assert dec(b"(,,,,,)") == "(,,,,,)"


def test_dates_beyond_pythons_years_read_as_risingwaves_text() -> None:
    from rwshim.common import pgtypes
    from rwshim.dataplane import values

    assert values.decoder(pgtypes.TIMESTAMPTZ)(b"1973-07-15 08:15:55.33+00 BC") == (
        "1973-07-15 08:15:55.330+00:00 BC"
    )
    assert values.decoder(pgtypes.TIMESTAMP)(b"20240-01-26 14:20:26.1234") == (
        "20240-01-26 14:20:26.123400"
    )
    assert values.decoder(pgtypes.DATE)(b"2024-01-26 BC") == "2024-01-26 BC"
    # inside Python's years: a value, as before
    assert values.decoder(pgtypes.DATE)(b"2024-01-26").year == 2024  # type: ignore[attr-defined]
