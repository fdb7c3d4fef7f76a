"""parse() is on the per-query path: cached parses must be far cheaper than cold ones."""

from __future__ import annotations

import time

from rwshim.sql import parse, parse_cache_clear


def _time(fn: object, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()  # type: ignore[operator]
    return (time.perf_counter() - start) / n


def test_select_1_cold_and_cached() -> None:
    parse("SELECT 1")  # build the lark parser and import pglast once

    def cold() -> None:
        parse_cache_clear()
        parse("SELECT 1")

    cold_s = _time(cold, 200)
    cached_s = _time(lambda: parse("SELECT 1"), 2000)
    print(f"\nparse('SELECT 1'): cold {cold_s * 1e6:.1f} us, cached {cached_s * 1e6:.2f} us")
    assert cached_s < cold_s
    assert cached_s < 50e-6
