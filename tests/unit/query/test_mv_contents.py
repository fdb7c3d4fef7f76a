"""Materialized views read as their defining query: their rows follow their upstreams through
INSERT, UPDATE and DELETE, including an MV over an MV."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rwshim import pgtypes
from rwshim.errors import RwError

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


def test_cached_translation_follows_catalog_changes_without_invalidate(world: World) -> None:
    from rwshim.engine.types import Context, ObjectName

    world.table("a", [("x", pgtypes.INT4, "integer")])
    world.query.execute("INSERT INTO a VALUES (1)", (), world.ctx)
    world.mv("m", "SELECT x FROM a")
    assert world.rows("SELECT * FROM m") == [(1,)]
    world.engine.ddl.drop_relation(Context(), "materialized view", ObjectName("m"))  # type: ignore[attr-defined]
    with pytest.raises(RwError) as info:
        world.rows("SELECT * FROM m")
    assert info.value.chain == ["Catalog error", "table or source not found: m"]


def test_row_count_for_the_backfill_model(shop: World) -> None:
    shop.mv("big", "SELECT o.oid FROM orders o JOIN customers c ON c.id = o.cid")
    ids = dict(shop.rows("SELECT name, id FROM rw_relations WHERE name IN ('big', 'orders')"))
    assert shop.query.row_count(ids["orders"]) == 3
    assert shop.query.row_count(ids["big"]) == 3
    assert shop.query.row_count(999_999) == 0


def test_index_reads_as_its_columns_of_the_table(shop: World) -> None:
    from rwshim.engine.types import Context, ObjectName

    shop.engine.ddl.create_index(  # type: ignore[attr-defined]
        Context(),
        ObjectName("idx_region"),
        ObjectName("customers"),
        definition="CREATE INDEX idx_region ON customers(region)",
        key_columns=["region"],
    )
    for _ in range(20):
        shop.engine.barrier.tick()  # type: ignore[attr-defined]
    out = shop.query.execute("SELECT * FROM idx_region ORDER BY id", (), shop.ctx)
    names = [c.name for c in out.columns or []]
    assert names[0] == "region" and "id" in names
    assert [r[0] for r in out.rows] == ["eu", "us", "eu"]


def test_tumble_and_hop_windows(world: World) -> None:
    world.table(
        "ev", [("id", pgtypes.INT4, "integer"), ("ts", pgtypes.TIMESTAMP, "timestamp")], pk=("id",)
    )
    world.query.execute(
        "INSERT INTO ev VALUES (1, '2024-01-01 00:00:30'), "
        "(2, '2024-01-01 00:01:10'), (3, '2024-01-01 00:01:50')",
        (),
        world.ctx,
    )
    import datetime as dt

    m = dt.datetime(2024, 1, 1, 0, 0)
    world.mv(
        "per_minute",
        "SELECT window_start, count(*) AS n "
        "FROM TUMBLE(ev, ts, INTERVAL '1 minute') GROUP BY window_start",
    )
    assert world.rows("SELECT * FROM per_minute ORDER BY 1") == [
        (m, 1),
        (m + dt.timedelta(minutes=1), 2),
    ]
    out = world.query.execute(
        "SELECT * FROM tumble(ev, ts, INTERVAL '1 minute') WHERE id = 1", (), world.ctx
    )
    assert [(c.name, c.type_oid) for c in out.columns or []] == [
        ("id", pgtypes.INT4),
        ("ts", pgtypes.TIMESTAMP),
        ("window_start", pgtypes.TIMESTAMP),
        ("window_end", pgtypes.TIMESTAMP),
    ]
    assert list(out.rows) == [
        (1, dt.datetime(2024, 1, 1, 0, 0, 30), m, m + dt.timedelta(minutes=1))
    ]
    hop = world.rows(
        "SELECT window_start, window_end FROM hop(ev, ts, INTERVAL '1 minute', "
        "INTERVAL '2 minutes') WHERE id = 2 ORDER BY 1"
    )
    assert hop == [
        (m, m + dt.timedelta(minutes=2)),
        (m + dt.timedelta(minutes=1), m + dt.timedelta(minutes=3)),
    ]
