"""ISO 8601 interval literals as RisingWave's from_iso_8601 reads them (interval.rs:1061-1094):
the seconds' fraction past microseconds cut off, not rounded; only the full form."""

from __future__ import annotations

from rwshim.dataplane.plan import rw_texts


def test_iso_8601_truncates_the_seconds() -> None:
    assert rw_texts.iso_8601("P12Y2M30DT4H5M0.1234567S") == (
        "146 mons 30 days 14700123456 microseconds"
    )
    assert rw_texts.iso_8601("P0Y0M0DT0H0M0.9999999S") == (
        "0 mons 0 days 999999 microseconds"
    )


def test_iso_8601_other_forms_are_left_to_postgresql() -> None:
    assert rw_texts.iso_8601("P1Y") is None
    assert rw_texts.iso_8601("P0Y0M0DT0H0M0S1") is None
    assert rw_texts.iso_8601("P2147483648Y0M0DT0H0M0S") is None
