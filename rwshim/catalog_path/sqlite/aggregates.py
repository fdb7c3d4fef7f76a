"""PostgreSQL aggregates SQLite lacks or answers differently, as SQLite aggregate classes.

``rw_array_agg`` / ``rw_string_agg`` take their ORDER BY keys as trailing ``(key, desc)``
arguments (sqlite/lower_expr.py ``ordered_agg``) and sort with PostgreSQL's NULL placement;
``rw_sum_dec`` / ``rw_avg_dec`` add in decimal and answer as RisingWave's rust_decimal holds the
result (``types.rw_decimal``; they also run as window functions); ``bool_and`` / ``bool_or``
/ ``every`` over 0/1.  Registered by sqlite/install.py.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any

from rwshim.binder import types
from rwshim.catalog_path.sqlite.functions import json_array


class ArrayAgg:
    """``array_agg(x [ORDER BY k, ...])``: arguments (x, k1, desc1, k2, desc2, ...)."""

    def __init__(self) -> None:
        self.rows: list[tuple[object, tuple[object, ...]]] = []

    def step(self, value: object, *keys: object) -> None:
        self.rows.append((value, keys))

    def _ordered(self) -> list[object]:
        rows = self.rows
        if rows and rows[0][1]:
            nkeys = len(rows[0][1]) // 2
            for i in reversed(range(nkeys)):
                desc = bool(rows[0][1][2 * i + 1])
                rows = sorted(rows, key=functools.partial(_row_key, i), reverse=desc)
        return [v for v, _ in rows]

    def finalize(self) -> object:
        if not self.rows:
            return None
        return json_array(self._ordered())


def _row_key(i: int, row: tuple[object, tuple[object, ...]]) -> tuple[int, Any]:
    return _sort_key(row[1][2 * i])


def _sort_key(v: object) -> tuple[int, Any]:
    # NULLs sort last ascending and first descending, as in PostgreSQL.
    if v is None:
        return (1, 0)
    if isinstance(v, (int, float)):
        return (0, (0, v))
    return (0, (1, str(v)))


class StringAgg(ArrayAgg):
    """``string_agg(x, sep [ORDER BY ...])``: arguments (x, sep, k1, desc1, ...)."""

    def __init__(self) -> None:
        super().__init__()
        self.sep: str | None = None

    def step(self, value: object, sep: object = None, *keys: object) -> None:
        if self.sep is None and sep is not None:
            self.sep = str(sep)
        if value is not None:
            self.rows.append((value, keys))

    def finalize(self) -> object:
        if not self.rows:
            return None
        return (self.sep or "").join(str(v) for v in self._ordered())


def _dec(v: object) -> Decimal:
    return Decimal(repr(v)) if isinstance(v, float) else Decimal(str(v))


class SumDec:
    """sum() of numeric/int8 in decimal arithmetic (result as decimal text)."""

    def __init__(self) -> None:
        self.total: Decimal | None = None
        self.n = 0

    def step(self, x: object) -> None:
        if x is None:
            return
        d = _dec(x)
        self.total = d if self.total is None else types.DECIMAL_CONTEXT.add(self.total, d)
        self.n += 1

    def inverse(self, x: object) -> None:
        # a row leaving a window frame
        if x is None or self.total is None:
            return
        self.total = types.DECIMAL_CONTEXT.subtract(self.total, _dec(x))
        self.n -= 1
        if self.n == 0:
            self.total = None

    def value(self) -> str | None:
        return None if self.total is None else str(types.rw_decimal(self.total))

    def finalize(self) -> str | None:
        return self.value()


class AvgDec(SumDec):
    def value(self) -> str | None:
        if self.total is None or self.n == 0:
            return None
        return str(types.rw_decimal(types.DECIMAL_CONTEXT.divide(self.total, Decimal(self.n))))


class BoolAnd:
    def __init__(self) -> None:
        self.v: int | None = None

    def step(self, x: object) -> None:
        if x is None:
            return
        self.v = (1 if x else 0) if self.v is None else (self.v & (1 if x else 0))

    def finalize(self) -> int | None:
        return self.v


class BoolOr(BoolAnd):
    def step(self, x: object) -> None:
        if x is None:
            return
        self.v = (1 if x else 0) if self.v is None else (self.v | (1 if x else 0))
