"""Caches keyed by SQL text are bounded by the texts' bytes (rwshim/sql/cache.py), and the
parse cache uses one: 40 distinct 2 MB statements keep at most its budget."""

from __future__ import annotations

import contextlib

from rwshim.sql import parser
from rwshim.sql.cache import TextLRU


def test_evicts_oldest_past_the_byte_budget() -> None:
    made: list[str] = []
    cache: TextLRU[str] = TextLRU(max_bytes=2000)

    def get(text: str) -> str:
        return cache.get_or_make(text, lambda: made.append(text) or text.upper())

    for t in ("a" * 100, "b" * 100, "c" * 100):
        assert get(t) == t.upper()
    assert get("a" * 100) == "A" * 100  # a hit: made once
    assert made == ["a" * 100, "b" * 100, "c" * 100]
    for i in range(10):
        get(str(i) * 100)
    assert cache.bytes <= 2000
    assert len(cache) == 10  # 200 bytes charged each (100 + entry overhead)
    get("b" * 100)
    assert made.count("b" * 100) == 2  # evicted, made again


def test_text_too_large_for_the_budget_is_not_kept() -> None:
    cache: TextLRU[int] = TextLRU(max_bytes=8000)
    cache.get_or_make("x" * 2000, lambda: 1)
    assert len(cache) == 0 and cache.bytes == 0


def test_failures_are_not_cached() -> None:
    cache: TextLRU[int] = TextLRU(max_bytes=8000)
    calls = []

    def boom() -> int:
        calls.append(1)
        raise ValueError("no")

    for _ in range(2):
        with contextlib.suppress(ValueError):
            cache.get_or_make("q", boom)
    assert len(calls) == 2


def test_parse_cache_is_bounded_by_bytes() -> None:
    parser.parse_cache_clear()
    try:
        for i in range(40):
            parser.parse(f"SELECT length('{i}{'x' * 2_000_000}')")
        assert parser._PARSES.bytes <= parser.PARSE_CACHE_BYTES
        assert len(parser._PARSES) < 40
        # A repeated statement is still a hit.
        text = "SELECT 1 + 1"
        assert parser.parse(text)[0] is parser.parse(text)[0]
    finally:
        parser.parse_cache_clear()


def test_any_key_none_values_and_weighed_values() -> None:
    from rwshim.sql.cache import SizedLRU

    cache: SizedLRU[tuple[str, int], bytes | None] = SizedLRU(
        max_bytes=8000, weigh=lambda v: len(v or b"")
    )
    cache.put(("q", 1), None)
    assert ("q", 1) in cache and cache.get(("q", 1), b"miss") is None  # a kept None is a hit
    assert cache.get(("r", 1), b"miss") == b"miss"
    cache.put(("a" * 100, 2), b"x" * 500)
    assert cache.bytes == (1 + 100) + (100 + 500 + 100)  # texts, weighed value, overheads
    cache.put(("b", 3), b"x" * 1000)  # over an eighth of the budget: not kept
    assert ("b", 3) not in cache
    assert cache.pop(("a" * 100, 2)) == b"x" * 500 and cache.bytes == 101


def test_parse_handoff_is_bounded_by_bytes() -> None:
    from rwshim.sql import pgjson

    for i in range(40):
        text = f"SELECT length('{i}{'x' * 1_000_000}')"
        pgjson.offer(text, {"stmts": [text]})
    assert pgjson._HANDOFF.bytes <= pgjson._HANDOFF.max_bytes
    assert len(pgjson._HANDOFF) < 40
    small = "SELECT 1"
    pgjson.offer(small, {"stmts": []})
    assert pgjson.take(small) == {"stmts": []} and pgjson.take(small) is None
