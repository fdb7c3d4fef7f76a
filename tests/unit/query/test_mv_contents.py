"""Materialized views read as their defining query: their rows follow their upstreams through
INSERT, UPDATE and DELETE, including an MV over an MV."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rwshim import pgtypes

from .conftest import World


@pytest.fixture
def shop(world: World) -> World:
    world.table(
        "customers",
        [
            ("id", pgtypes.INT4, "integer"),
            ("name", pgtypes.VARCHAR, "varchar"),
            ("region", pgtypes.VARCHAR, "varchar"),
        ],
        pk=("id",),
    )
    world.table(
        "orders",
        [
            ("oid", pgtypes.INT8, "bigint"),
            ("cid", pgtypes.INT4, "integer"),
            ("amount", pgtypes.NUMERIC, "numeric"),
        ],
        pk=("oid",),
    )
    world.rows("SELECT 1")
    world.query.execute(
        "INSERT INTO customers VALUES (1, 'ann', 'eu'), (2, 'bob', 'us'), (3, 'cid', 'eu')",
        (),
        world.ctx,
    )
    world.query.execute(
        "INSERT INTO orders VALUES (10, 1, 5.5), (11, 1, 4.5), (12, 2, 7)", (), world.ctx
    )
    return world


def test_join_group_by_mv_follows_dml(shop: World) -> None:
    shop.mv(
        "spend",
        "SELECT c.name, sum(o.amount) AS total, count(*) AS n "
        "FROM customers c JOIN orders o ON o.cid = c.id GROUP BY c.name",
    )
    cols = shop.query.describe("SELECT * FROM spend", [], shop.ctx).columns
    assert [(c.name, c.type_oid) for c in cols or []] == [
        ("name", pgtypes.VARCHAR),
        ("total", pgtypes.NUMERIC),
        ("n", pgtypes.INT8),
    ]
    assert shop.rows("SELECT * FROM spend ORDER BY name") == [
        ("ann", Decimal("10"), 2),
        ("bob", Decimal("7"), 1),
    ]
    shop.query.execute("INSERT INTO orders VALUES (13, 3, 1.25)", (), shop.ctx)
    shop.query.execute("UPDATE orders SET amount = 1 WHERE oid = 12", (), shop.ctx)
    shop.query.execute("DELETE FROM orders WHERE oid = 10", (), shop.ctx)
    assert shop.rows("SELECT * FROM spend ORDER BY name") == [
        ("ann", Decimal("4.5"), 1),
        ("bob", Decimal("1"), 1),
        ("cid", Decimal("1.25"), 1),
    ]


def test_distinct_and_mv_over_mv(shop: World) -> None:
    shop.mv("regions", "SELECT DISTINCT region FROM customers")
    shop.mv("region_count", "SELECT count(*) AS regions FROM regions")
    assert shop.rows("SELECT * FROM regions ORDER BY region") == [("eu",), ("us",)]
    assert shop.rows("SELECT regions FROM region_count") == [(2,)]
    shop.query.execute("INSERT INTO customers VALUES (4, 'dan', 'apac')", (), shop.ctx)
    assert shop.rows("SELECT regions FROM region_count") == [(3,)]
    shop.query.execute("DELETE FROM customers WHERE region = 'us'", (), shop.ctx)
    assert shop.rows("SELECT regions FROM region_count") == [(2,)]


def test_aggregates_over_changing_table(shop: World) -> None:
    shop.mv(
        "stats",
        "SELECT min(amount) AS lo, max(amount) AS hi, avg(amount) AS mean, "
        "count(DISTINCT cid) AS buyers FROM orders",
    )
    assert shop.rows("SELECT * FROM stats") == [
        (Decimal("4.5"), Decimal("7"), Decimal("5.6666666666666666666666666667"), 2)
    ]
    shop.query.execute("DELETE FROM orders", (), shop.ctx)
    assert shop.rows("SELECT * FROM stats") == [(None, None, None, 0)]


def test_mv_dependencies_are_direct_upstreams(shop: World) -> None:
    shop.mv("m1", "SELECT id FROM customers")
    an = shop.query.analyze("SELECT m1.id, o.oid FROM m1 JOIN orders o ON o.cid = m1.id", shop.ctx)
    ids = dict(shop.rows("SELECT name, id FROM rw_relations WHERE name IN ('m1', 'orders')"))
    assert sorted(an.upstreams) == sorted([ids["m1"], ids["orders"]])
    assert [c.name for c in an.columns] == ["id", "oid"]
