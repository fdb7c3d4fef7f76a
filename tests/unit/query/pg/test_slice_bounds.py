"""A list slice's literal bounds: RisingWave's type of the number (bind_number), refused past
``integer`` (value.rs:242-270 cast_implicit to Int32)."""

from __future__ import annotations

from rwshim.dataplane.plan import slice_bounds


def test_bound_type() -> None:
    assert slice_bounds.bound_type("2147483647") is None
    assert slice_bounds.bound_type("-2147483648") is None
    assert slice_bounds.bound_type("4294967296") == "bigint"
    assert slice_bounds.bound_type("-4294967296") == "bigint"
    assert slice_bounds.bound_type("9223372036854775808") == "numeric"
    assert slice_bounds.bound_type("1.5") == "numeric"
