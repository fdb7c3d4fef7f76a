"""``GAP_FILL(rel, time_col, interval [, LOCF(c) | INTERPOLATE(c) | KEEPNULL(c) ...]
[, PARTITION_BY(c, ...)])`` in FROM as a PostgreSQL subquery (RisingWave:
src/frontend/src/binder/relation/gap_fill.rs, src/stream/src/executor/gap_fill.rs
``generate_filled_rows``, src/common/src/gap_fill.rs).

The relation's rows, and between two rows consecutive in time (within a partition) one row
per ``prev + interval``, ``prev + 2 * interval``, ... before the next row's time: its time
column the filled time, its partition columns the previous row's, a LOCF column the previous
row's value, an INTERPOLATE column ``prev`` plus the step ``(next - prev) / (n + 1)`` added
once per row (integers: the step floored; floats: added in their own precision, as the
executor adds it), every other column NULL.  A materialized view is recomputed at barriers, so
an insert between two rows refills the gap as the executor does.
"""

from __future__ import annotations

from typing import Any

from rwshim.binder.relations import Relation
from rwshim.common import pgtypes
from rwshim.dataplane.plan import typemap
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA as F
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import BindError, NotImplementedError_

_INT = {pgtypes.INT2: "int2", pgtypes.INT4: "int4", pgtypes.INT8: "int8"}
_FLOAT = {pgtypes.FLOAT4: "float4", pgtypes.FLOAT8: "float8"}
_STRATEGIES = ("locf", "interpolate", "keepnull")


class GapFillRefused(NotImplementedError_):
    """A GAP_FILL form rwshim cannot answer faithfully."""


def _name(text: str) -> str:
    t = text.strip()
    if t.startswith('"') and t.endswith('"'):
        return t[1:-1].replace('""', '"')
    return t.lower()


def _call(text: str) -> tuple[str, list[str]] | None:
    """``name(a, b)`` -> ("name", ["a", "b"]) for a strategy or PARTITION_BY argument."""
    t = text.strip()
    i = t.find("(")
    if i <= 0 or not t.endswith(")"):
        return None
    inner = t[i + 1 : -1]
    return t[:i].strip().lower(), [a for a in (x.strip() for x in inner.split(",")) if a]


def subquery(rel: Relation, source: str, args: list[str]) -> str:
    """The subquery a GAP_FILL call becomes (``source`` is the relation's PostgreSQL name;
    ``args`` the call's argument texts)."""
    if len(args) < 3:
        # gap_fill.rs:45-50
        raise BindError("GAP_FILL requires at least 3 arguments: input, time_col, interval")
    cols = [c for c in rel.columns if not c.hidden]
    by_name = {c.name: c for c in cols}
    ts = _name(args[1])
    if ts not in by_name:
        raise GapFillRefused("GAP_FILL whose time column is not a column of its relation")
    if by_name[ts].type_oid not in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ):
        raise BindError(
            "The 2nd arg of GAP_FILL should be a column of type timestamp or timestamptz"
        )
    interval = args[2]
    strategies: dict[str, str] = {}
    partition: list[str] = []
    for a in args[3:]:
        call = _call(a)
        if call is None or (call[0] not in _STRATEGIES and call[0] != "partition_by"):
            raise GapFillRefused(f"GAP_FILL argument {a.strip()}")
        kind, names = call
        if kind == "partition_by":
            partition += [_name(n) for n in names]
            continue
        if len(names) != 1:
            raise GapFillRefused(f"GAP_FILL argument {a.strip()}")
        strategies[_name(names[0])] = kind
    for n in [*partition, *strategies]:
        if n not in by_name:
            raise GapFillRefused(f"GAP_FILL of a column {n} its relation lacks")
    w = ", ".join(qi(c.name) for c in cols)
    part = f"PARTITION BY {', '.join(qi(p) for p in partition)} " if partition else ""
    leads = "".join(
        f", lead({qi(n)}) OVER __rw_gw AS {qi('__rw_next_' + n)}"
        for n, k in strategies.items()
        if k == "interpolate"
    )
    fills = []
    for c in cols:
        fills.append(
            f"{_fill(c.name, c.type_oid, c.rw_type, ts, partition, strategies)} AS {qi(c.name)}"
        )
    return (
        f"(SELECT {w} FROM {source} AS __rw_g0 UNION ALL SELECT {', '.join(fills)} FROM"
        f" (SELECT {w}, lead({qi(ts)}) OVER __rw_gw AS __rw_next_time{leads}"
        f" FROM {source} AS __rw_g1 WINDOW __rw_gw AS ({part}ORDER BY {qi(ts)})) AS __rw_p"
        f" CROSS JOIN LATERAL (SELECT __rw_t, row_number() OVER () AS __rw_k,"
        f" count(*) OVER () AS __rw_n FROM pg_catalog.generate_series(__rw_p.{qi(ts)}"
        f" + ({interval}), __rw_p.__rw_next_time, ({interval})) AS __rw_s(__rw_t)"
        f" WHERE __rw_t < __rw_p.__rw_next_time) AS __rw_f)"
    )


def _fill(
    name: str, oid: int, rw_type: str, ts: str, partition: list[str], strategies: dict[str, Any]
) -> str:
    prev = f"__rw_p.{qi(name)}"
    if name == ts:
        return "__rw_f.__rw_t"
    if name in partition or strategies.get(name) == "locf":
        return prev
    typ = typemap.column_type(oid, rw_type)
    if strategies.get(name) != "interpolate":
        return f"NULL::{typ}"
    nxt = f"__rw_p.{qi('__rw_next_' + name)}"
    if oid in _INT:
        # div_floor of the difference, added k times (gap_fill.rs: Integer::div_floor)
        step = f"pg_catalog.floor(({nxt} - {prev})::numeric / (__rw_f.__rw_n + 1))"
        return f"({prev} + __rw_f.__rw_k * {step})::{_INT[oid]}"
    if oid in _FLOAT:
        t = _FLOAT[oid]
        step = f"(({nxt} - {prev}) / (__rw_f.__rw_n + 1)::{t})"
        return f"{F}.gap_fill_add_{t}({prev}, {step}, __rw_f.__rw_k::int4)"
    # a decimal's step is rust_decimal's 28-digit quotient (src/common/src/gap_fill.rs);
    # other types are not interpolated (NULL)
    if oid == pgtypes.NUMERIC:
        raise GapFillRefused("INTERPOLATE of a decimal column (RisingWave's 28-digit step)")
    return f"NULL::{typ}"
