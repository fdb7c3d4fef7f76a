"""Value types: decoding stored values, encoding parameters, context helpers."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from rwshim.binder import types
from rwshim.binder.context import QueryContext, parse_search_path
from rwshim.catalog_path.sqlite.executor import encode_param
from rwshim.common import pgtypes


@pytest.mark.parametrize(
    ("stored", "oid", "value"),
    [
        (1, pgtypes.BOOL, True),
        (0, pgtypes.BOOL, False),
        (7, pgtypes.INT8, 7),
        (2.5, pgtypes.FLOAT8, 2.5),
        (2.5, pgtypes.NUMERIC, Decimal("2.5")),
        (3, pgtypes.NUMERIC, Decimal(3)),
        ("x", pgtypes.VARCHAR, "x"),
        (b"\x01", pgtypes.BYTEA, b"\x01"),
        ("2024-01-02", pgtypes.DATE, dt.date(2024, 1, 2)),
        ("10:11:12", pgtypes.TIME, dt.time(10, 11, 12)),
        ("2024-01-02 03:04:05", pgtypes.TIMESTAMP, dt.datetime(2024, 1, 2, 3, 4, 5)),
        (
            "2024-01-02 03:04:05+00:00",
            pgtypes.TIMESTAMPTZ,
            dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.UTC),
        ),
        ("1 day 02:00:00", pgtypes.INTERVAL, dt.timedelta(days=1, hours=2)),
        ('{"a": 1}', pgtypes.JSONB, '{"a": 1}'),
        ("[1,2]", pgtypes.INT4_ARRAY, [1, 2]),
        ('["a",null]', pgtypes.VARCHAR_ARRAY, ["a", None]),
        (None, pgtypes.INT4, None),
    ],
)
def test_decode(stored: object, oid: int, value: object) -> None:
    assert types.decode(stored, oid) == value


@pytest.mark.parametrize(
    ("value", "oid", "stored"),
    [
        (True, pgtypes.BOOL, 1),
        (Decimal("1.5"), pgtypes.NUMERIC, 1.5),
        (
            dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.UTC),
            pgtypes.TIMESTAMPTZ,
            "2024-01-02 03:04:05.000000+00:00",
        ),
        (dt.date(2024, 1, 2), pgtypes.DATE, "2024-01-02"),
        (dt.timedelta(hours=1), pgtypes.INTERVAL, "01:00:00"),
        (["r", "p"], pgtypes.VARCHAR_ARRAY, '["r","p"]'),
        ("{r,p}", pgtypes.VARCHAR_ARRAY, '["r","p"]'),
        ("12", pgtypes.INT4, 12),
    ],
)
def test_encode_param(value: object, oid: int, stored: object) -> None:
    assert encode_param(value, oid) == stored


def test_interval_text_round_trip() -> None:
    for td in (
        dt.timedelta(0),
        dt.timedelta(days=2),
        dt.timedelta(seconds=-90),
        dt.timedelta(days=1, microseconds=5),
    ):
        assert types.parse_interval(types.format_interval(td)) == td


def test_external_oids_are_risingwave_types() -> None:
    assert types.external(pgtypes.TEXT) == pgtypes.VARCHAR
    assert types.external(pgtypes.NAME) == pgtypes.VARCHAR
    assert types.external(pgtypes.OID) == pgtypes.INT4
    assert types.external(pgtypes.TEXT_ARRAY) == pgtypes.VARCHAR_ARRAY
    assert types.external(pgtypes.INT4_ARRAY) == pgtypes.INT4_ARRAY


def test_search_path_parsing_and_resolution() -> None:
    assert parse_search_path('"$user", public') == ("$user", "public")
    ctx = QueryContext(1, "dev", 1, "root", search_path=("s1", "pg_catalog"))
    assert ctx.resolved_path() == ["rw_catalog", "s1", "pg_catalog"]
