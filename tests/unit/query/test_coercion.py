"""Untyped literals take the type of what they are compared with (PostgreSQL's unknown-type
resolution), so they compare as instants or booleans, not as text."""

from __future__ import annotations

from rwshim.binder.context import QueryContext
from rwshim.catalog_path.engine import QueryEngine
from rwshim.common import pgtypes

from .conftest import Catalog


def test_string_literal_compared_to_an_instant_is_an_instant(
    engine: QueryEngine, ctx: QueryContext, catalog: Catalog
) -> None:
    catalog.rows(
        "ts",
        [("id", pgtypes.INT4), ("at", pgtypes.TIMESTAMPTZ), ("d", pgtypes.DATE)],
        "(1, '2024-01-01 00:00:00+00:00'::timestamptz, '2024-01-01'::date), "
        "(2, '2024-01-01 00:00:01+00:00'::timestamptz, '2024-01-02'::date)",
    )
    assert list(engine.execute("SELECT id FROM ts WHERE at > '2024-01-01'", (), ctx).rows) == [(2,)]
    assert list(
        engine.execute("SELECT id FROM ts WHERE at = '2024-01-01 00:00:00+00'", (), ctx).rows
    ) == [(1,)]
    assert list(engine.execute("SELECT id FROM ts WHERE d <= '2024-01-01'", (), ctx).rows) == [(1,)]
