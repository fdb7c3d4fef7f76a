"""Least-recently-used caches bounded by bytes, for caches keyed by SQL text.

``functools.lru_cache`` (or a dict cleared at a count) bounds the number of entries, not their
size: 4,096 cached parses of 5 MB statements would keep 20 GB.  Here each entry is charged the
length of its text (times ``factor``, for values that hold copies of the text, as parsed
statements and plans do), plus whatever else its value is known to hold, and the oldest
entries go once the charges pass ``max_bytes``; an entry costing more than an eighth of the
budget is not cached at all (it would evict everything for one statement).

- ``SizedLRU[K, V]``: any key, the text it is charged for given with it (``text_of``: the key
  itself when it is a string, the strings of a tuple key);
- ``TextLRU[V]``: keyed by the text itself.

A cached value may be None (``get`` takes a default to tell a miss from it).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")

_MISSING = object()


def text_size(text: str) -> int:
    """What a str costs: one byte a character for ASCII, up to four otherwise."""
    return len(text) * (1 if text.isascii() else 4)


def key_size(key: object) -> int:
    """The text a key holds: a string, or the strings (and string tuples) of a tuple."""
    if isinstance(key, str):
        return text_size(key)
    if isinstance(key, bytes):
        return len(key)
    if isinstance(key, tuple):
        return sum(key_size(k) for k in key)
    return 0


class SizedLRU(Generic[K, V]):
    """A cache from ``K`` to ``V`` charged by the text of its keys (times ``factor``) and, with
    ``weigh``, by what its values hold besides (encoded answers: their bytes)."""

    def __init__(
        self, max_bytes: int, factor: int = 1, weigh: Callable[[V], int] | None = None
    ) -> None:
        self.max_bytes = max_bytes
        self.factor = factor
        self.weigh = weigh
        self.bytes = 0
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: D) -> V | D: ...
    def get(self, key: K, default: object = None) -> object:
        hit = self._items.get(key, _MISSING)
        if hit is _MISSING:
            return default
        self._items.move_to_end(key)
        return hit[0]  # type: ignore[index]

    def __getitem__(self, key: K) -> V:
        hit = self.get(key, _MISSING)
        if hit is _MISSING:
            raise KeyError(key)
        return hit  # type: ignore[return-value]

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def put(self, key: K, value: V, extra: int = 0) -> None:
        """Keep ``value``; ``extra``: bytes it holds beyond copies of the key's text."""
        if self.weigh is not None:
            extra += self.weigh(value)
        cost = key_size(key) * self.factor + extra + 100  # ~100 bytes of entry overhead
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= old[1]
        if cost * 8 > self.max_bytes:
            return
        self._items[key] = (value, cost)
        self.bytes += cost
        while self.bytes > self.max_bytes:
            _, (_, gone) = self._items.popitem(last=False)
            self.bytes -= gone

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        hit = self.get(key, _MISSING)
        if hit is not _MISSING:
            return hit  # type: ignore[return-value]
        value = make()  # an exception is not cached
        self.put(key, value)
        return value

    def pop(self, key: K) -> V | None:
        old = self._items.pop(key, None)
        if old is None:
            return None
        self.bytes -= old[1]
        return old[0]

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)


class TextLRU(SizedLRU[str, V]):
    """``get_or_make(text, make)``: ``make()``'s value for ``text``, cached."""
