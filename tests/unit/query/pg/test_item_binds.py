"""A list slice's literal bounds: RisingWave's type of the number (bind_number), refused past
``integer`` (value.rs:242-270 cast_implicit to Int32)."""

from __future__ import annotations

from rwshim.dataplane.plan import item_binds


def test_bound_type() -> None:
    assert item_binds.bound_type("2147483647") is None
    assert item_binds.bound_type("-2147483648") is None
    assert item_binds.bound_type("4294967296") == "bigint"
    assert item_binds.bound_type("-4294967296") == "bigint"
    assert item_binds.bound_type("9223372036854775808") == "numeric"
    assert item_binds.bound_type("1.5") == "numeric"


def test_empty_array_under_a_cast_binds() -> None:
    from rwshim.dataplane.plan import tree

    shape = tree.parse("select array[]::int[], map_from_entries(array[])")
    items = shape.node["targetList"]
    assert item_binds._item_error(items[0]) is None
    error = item_binds._item_error(items[1])
    assert error is not None and error.chain[0].startswith("Bind error: cannot determine type")


def test_ordinal() -> None:
    from rwshim.dataplane.plan.insert_values import ordinal

    assert [ordinal(i) for i in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]  # fmt: skip
