"""A least-recently-used cache bounded by the bytes of its keys, for caches keyed by SQL text.

``functools.lru_cache`` bounds the number of entries, not their size: 4,096 cached parses of
5 MB statements would keep 20 GB.  Here each entry is charged the length of its key text
(times ``factor``, for values that hold copies of the text, as parsed statements do) and the
oldest entries go once the charges pass ``max_bytes``; a text longer than an eighth of the
budget is not cached at all (it would evict everything for one statement).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class TextLRU(Generic[V]):
    """``get_or_make(text, make)``: ``make()``'s value for ``text``, cached."""

    def __init__(self, max_bytes: int, factor: int = 1) -> None:
        self.max_bytes = max_bytes
        self.factor = factor
        self.bytes = 0
        self._items: OrderedDict[str, V] = OrderedDict()

    def get_or_make(self, text: str, make: Callable[[], V]) -> V:
        hit = self._items.get(text)
        if hit is not None:
            self._items.move_to_end(text)
            return hit
        value = make()  # an exception is not cached
        cost = self._cost(text)
        if cost * 8 > self.max_bytes:
            return value
        self._items[text] = value
        self.bytes += cost
        while self.bytes > self.max_bytes:
            old, _ = self._items.popitem(last=False)
            self.bytes -= self._cost(old)
        return value

    def _cost(self, text: str) -> int:
        # str memory: one byte a character for ASCII, up to four otherwise (about 100 bytes
        # of entry overhead on top).
        return (len(text) * (1 if text.isascii() else 4)) * self.factor + 100

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)
