"""PostgreSQL functions and operators as SQLite functions (clients.md §9.2 and common SELECTs).

``install(conn, state)`` registers them on a connection.  Functions that depend on the
statement (current database, user, schema, settings) read ``state.ctx``, set by the engine
before each statement.  A RisingWave error raised inside a function cannot cross SQLite, so it
is parked in ``state.error`` and re-raised by the engine when SQLite reports the failure.
Function names starting with ``rw_`` are rwshim's own helpers that translation targets.
"""

from __future__ import annotations

import datetime as dt
import decimal
import functools
import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from rwshim import pgtypes
from rwshim.errors import ExprError, RwError
from rwshim.query import casts, types
from rwshim.query.context import QueryContext

RW_VERSION = "3.2.0-alpha"
GIT_SHA = "448c6570b1b9d636736708340f61a85900c2b7d7"


def version_string(git_sha: str = GIT_SHA) -> str:
    """``version()``: PostgreSQL {PG_VERSION}-RisingWave-{RW_VERSION} ({GIT_SHA})
    (src/common/src/lib.rs:116, 142-147)."""
    return f"PostgreSQL 13.14.0-RisingWave-{RW_VERSION} ({git_sha})"


@dataclass(slots=True)
class FunctionState:
    """Per-connection state the registered functions read."""

    ctx: QueryContext | None = None
    error: RwError | None = None
    version: str = field(default_factory=version_string)
    now: Callable[[], dt.datetime] = field(default=lambda: dt.datetime.now(dt.UTC))
    statement_time: dt.datetime | None = None
    # set_config(name, value, is_local) calls of the current statement, for the session.
    settings: list[tuple[str, str]] = field(default_factory=list)
    # whether a schema exists in a database (current_schema skips missing ones)
    schema_exists: Callable[[int, str], bool] = field(default=lambda db, s: True)

    def current_schema(self) -> str | None:
        """``current_schema()``: the first schema of the search path that exists."""
        ctx = self.ctx
        if ctx is None:
            return None
        for s in ctx.search_path:
            name = ctx.user if s == "$user" else s
            if self.schema_exists(ctx.database_id, name):
                return name
        return None


def _guard(state: FunctionState, fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any) -> Any:
        try:
            return fn(*args)
        except RwError as e:
            state.error = e
            raise

    return wrapper


# --- helpers -----------------------------------------------------------------------------------


def _regex_flags(flags: str) -> int:
    return re.IGNORECASE if "i" in flags else 0


@functools.lru_cache(maxsize=512)
def _compile(pattern: str, flags: int) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def _regex_match(s: object, pattern: object, ci: int = 0) -> int | None:
    if s is None or pattern is None:
        return None
    return 1 if _compile(str(pattern), re.IGNORECASE if ci else 0).search(str(s)) else 0


def _like_escape(s: object, pattern: object, escape: object, ci: int = 0) -> int | None:
    """``LIKE ... ESCAPE`` (and ILIKE) with PostgreSQL's rules (default escape is ``\\``)."""
    if s is None or pattern is None:
        return None
    esc = "\\" if escape is None else str(escape)
    out = []
    p = str(pattern)
    i = 0
    while i < len(p):
        c = p[i]
        if esc and c == esc and i + 1 < len(p):
            out.append(re.escape(p[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    rx = _compile("".join(out), (re.IGNORECASE if ci else 0) | re.DOTALL)
    return 1 if rx.fullmatch(str(s)) else 0


def _arr(v: object) -> list[object] | None:
    if v is None:
        return None
    return types.parse_array(v)


def _json_arr(items: list[object]) -> str:
    return types.to_array_json(items)


def _num(v: object) -> Any:
    if isinstance(v, str):
        try:
            return int(v)
        except ValueError:
            return float(v)
    return v


def _fmt_arg(v: object) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, float):
        return f"'{types.format_float(v)}'"
    return f"'{v}'"


def arith(op: str, result_oid: int, a: object, b: object) -> object:
    """Arithmetic with PostgreSQL's integer semantics and RisingWave's errors
    (``general_add``... in e2e_test/error_ui/simple/expr.slt:27-35, main.slt:46-55)."""
    if a is None or b is None:
        return None
    x, y = _num(a), _num(b)
    name = {
        "+": "general_add",
        "-": "general_sub",
        "*": "general_mul",
        "/": "general_div",
        "%": "general_mod",
    }[op]
    evaluating = f"{name}({_fmt_arg(a)}, {_fmt_arg(b)})"
    if result_oid in types.INTEGER_OIDS:
        x, y = int(x), int(y)
        if op == "+":
            r = x + y
        elif op == "-":
            r = x - y
        elif op == "*":
            r = x * y
        else:
            if y == 0:
                raise ExprError(evaluating, "Division by zero")
            q = abs(x) // abs(y)
            if op == "/":
                r = q if (x >= 0) == (y >= 0) else -q
            else:
                r = abs(x) - q * abs(y)
                r = r if x >= 0 else -r
        return casts.check_int_range(r, result_oid, evaluating)
    if result_oid == pgtypes.NUMERIC:
        dx = Decimal(str(x)) if not isinstance(x, Decimal) else x
        dy = Decimal(str(y)) if not isinstance(y, Decimal) else y
        if op in "/%" and dy == 0:
            raise ExprError(evaluating, "Division by zero")
        dr = {"+": dx + dy, "-": dx - dy, "*": dx * dy}.get(op)
        if dr is None:
            dr = dx / dy if op == "/" else dx % dy
        # a SQLite function cannot return an integer past 64 bits: those are REAL, as stored
        if dr == dr.to_integral_value() and op != "/" and -(2**63) <= dr < 2**63:
            return int(dr)
        return float(dr)
    fx, fy = float(x), float(y)
    if op in "/%" and fy == 0:
        raise ExprError(evaluating, "Division by zero")
    fr = {"+": fx + fy, "-": fx - fy, "*": fx * fy, "/": fx / fy if fy else 0.0}[op]
    if op == "%":
        fr = math.fmod(fx, fy)
    if math.isinf(fr) and not (math.isinf(fx) or math.isinf(fy)):
        raise ExprError(evaluating, "Numeric out of range")
    return fr


class _ArrayAgg:
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
        return _json_arr(self._ordered())


def _row_key(i: int, row: tuple[object, tuple[object, ...]]) -> tuple[int, Any]:
    return _sort_key(row[1][2 * i])


def _sort_key(v: object) -> tuple[int, Any]:
    # NULLs sort last ascending and first descending, as in PostgreSQL.
    if v is None:
        return (1, 0)
    if isinstance(v, (int, float)):
        return (0, (0, v))
    return (0, (1, str(v)))


class _StringAgg(_ArrayAgg):
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


_DEC_CTX = decimal.Context(prec=60)
_RW_MAX_MANTISSA = 2**96 - 1


def rw_decimal(d: Decimal) -> Decimal:
    """A decimal as RisingWave's rust_decimal holds it: at most 28 fractional digits and a
    96-bit mantissa, trailing zeros dropped."""
    if not d.is_finite():
        return d
    scale = min(28, max(0, -d.as_tuple().exponent))  # type: ignore[operator]
    q = d.quantize(Decimal(1).scaleb(-scale), context=_DEC_CTX, rounding=decimal.ROUND_HALF_EVEN)
    while scale > 0 and abs(int(q.scaleb(scale, context=_DEC_CTX))) > _RW_MAX_MANTISSA:
        scale -= 1
        q = d.quantize(
            Decimal(1).scaleb(-scale), context=_DEC_CTX, rounding=decimal.ROUND_HALF_EVEN
        )
    n = q.normalize(context=_DEC_CTX)
    return n if n.as_tuple().exponent <= 0 else n.quantize(Decimal(1))  # type: ignore[operator]


def _dec(v: object) -> Decimal:
    return Decimal(repr(v)) if isinstance(v, float) else Decimal(str(v))


class _SumDec:
    """sum() of numeric/int8 in decimal arithmetic (result as decimal text)."""

    def __init__(self) -> None:
        self.total: Decimal | None = None
        self.n = 0

    def step(self, x: object) -> None:
        if x is None:
            return
        d = _dec(x)
        self.total = d if self.total is None else _DEC_CTX.add(self.total, d)
        self.n += 1

    def inverse(self, x: object) -> None:
        # a row leaving a window frame
        if x is None or self.total is None:
            return
        self.total = _DEC_CTX.subtract(self.total, _dec(x))
        self.n -= 1
        if self.n == 0:
            self.total = None

    def value(self) -> str | None:
        return None if self.total is None else str(rw_decimal(self.total))

    def finalize(self) -> str | None:
        return self.value()


class _AvgDec(_SumDec):
    def value(self) -> str | None:
        if self.total is None or self.n == 0:
            return None
        return str(rw_decimal(_DEC_CTX.divide(self.total, Decimal(self.n))))


class _BoolAnd:
    def __init__(self) -> None:
        self.v: int | None = None

    def step(self, x: object) -> None:
        if x is None:
            return
        self.v = (1 if x else 0) if self.v is None else (self.v & (1 if x else 0))

    def finalize(self) -> int | None:
        return self.v


class _BoolOr(_BoolAnd):
    def step(self, x: object) -> None:
        if x is None:
            return
        self.v = (1 if x else 0) if self.v is None else (self.v | (1 if x else 0))


# --- date/time ---------------------------------------------------------------------------------

_TRUNC_UNITS = (
    "microseconds",
    "milliseconds",
    "second",
    "minute",
    "hour",
    "day",
    "week",
    "month",
    "quarter",
    "year",
    "decade",
    "century",
    "millennium",
)


def _parse_ts(v: object) -> dt.datetime:
    s = str(v)
    d = dt.datetime.fromisoformat(s)
    return d


def _date_trunc(unit: object, v: object) -> str | None:
    if unit is None or v is None:
        return None
    u = str(unit).lower()
    d = _parse_ts(v)
    if u == "microseconds":
        pass
    elif u == "milliseconds":
        d = d.replace(microsecond=d.microsecond // 1000 * 1000)
    elif u == "second":
        d = d.replace(microsecond=0)
    elif u == "minute":
        d = d.replace(second=0, microsecond=0)
    elif u == "hour":
        d = d.replace(minute=0, second=0, microsecond=0)
    elif u == "day":
        d = d.replace(hour=0, minute=0, second=0, microsecond=0)
    elif u == "week":
        d = (d - dt.timedelta(days=d.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)
    elif u == "month":
        d = d.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    elif u == "quarter":
        d = d.replace(
            month=(d.month - 1) // 3 * 3 + 1, day=1, hour=0, minute=0, second=0, microsecond=0
        )
    elif u == "year":
        d = d.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    else:
        raise ExprError(
            f"date_trunc('{unit}', '{v}')", f'Invalid parameter field: unsupported unit "{unit}"'
        )
    return d.isoformat(sep=" ", timespec="microseconds")


def _extract(field_: object, v: object) -> float | int | None:
    if field_ is None or v is None:
        return None
    f = str(field_).lower()
    s = str(v)
    if ":" in s and "-" not in s[:5] and len(s) <= 15 and " " not in s:
        t = dt.time.fromisoformat(s)
        d = dt.datetime.combine(dt.date(2000, 1, 1), t)
    elif len(s) == 10:
        d = dt.datetime.fromisoformat(s + " 00:00:00")
    else:
        d = _parse_ts(v)
    if f == "epoch":
        if d.tzinfo is None:
            d = d.replace(tzinfo=dt.UTC)
        return d.timestamp()
    table: dict[str, float | int] = {
        "year": d.year,
        "month": d.month,
        "day": d.day,
        "hour": d.hour,
        "minute": d.minute,
        "second": d.second + d.microsecond / 1e6,
        "dow": (d.weekday() + 1) % 7,
        "isodow": d.isoweekday(),
        "doy": d.timetuple().tm_yday,
        "quarter": (d.month - 1) // 3 + 1,
        "week": d.isocalendar()[1],
        "millisecond": d.second * 1000 + d.microsecond / 1000,
        "microsecond": d.second * 1_000_000 + d.microsecond,
        "decade": d.year // 10,
        "century": (d.year + 99) // 100,
        "millennium": (d.year + 999) // 1000,
        "isoyear": d.isocalendar()[0],
    }
    if f not in table:
        raise ExprError(
            f"extract('{field_}', '{v}')", f'Invalid parameter field: unsupported field "{field_}"'
        )
    return table[f]


def _ts_add(v: object, interval: object, sign: int) -> str | None:
    if v is None or interval is None:
        return None
    s = str(v)
    td = types.parse_interval(str(interval)) * sign
    if len(s) == 10:
        return (dt.datetime.fromisoformat(s) + td).isoformat(sep=" ", timespec="microseconds")
    d = dt.datetime.fromisoformat(s)
    return (d + td).isoformat(sep=" ", timespec="microseconds")


_EPOCH = dt.datetime(1970, 1, 1)


def _window_start(v: object, size: object, offset: object = None) -> dt.datetime | None:
    """RisingWave's tumble_start: the start of the ``size`` window (aligned on the Unix
    epoch, shifted by ``offset``) that holds ``v``."""
    if v is None or size is None:
        return None
    d = dt.datetime.fromisoformat(str(v))
    tz = d.tzinfo
    naive = d.astimezone(dt.UTC).replace(tzinfo=None) if tz is not None else d
    size_us = _interval_us(size)
    off_us = _interval_us(offset) if offset is not None else 0
    if size_us <= 0:
        raise ExprError(
            f"tumble_start('{v}', '{size}')", "Invalid parameter window: window must be positive"
        )
    us = (naive - _EPOCH) // dt.timedelta(microseconds=1) - off_us
    start = naive - dt.timedelta(microseconds=us % size_us)
    return start.replace(tzinfo=dt.UTC) if tz is not None else start


def _interval_us(v: object) -> int:
    return types.parse_interval(str(v)) // dt.timedelta(microseconds=1)


def _ts_text(d: dt.datetime) -> str:
    return d.isoformat(sep=" ", timespec="microseconds")


def _tumble_start(v: object, size: object, offset: object = None) -> str | None:
    d = _window_start(v, size, offset)
    return None if d is None else _ts_text(d)


def _hop_starts(v: object, hop: object, size: object, offset: object = None) -> str | None:
    """Starts of every HOP window (``hop`` apart, ``size`` long) that holds ``v``."""
    last = _window_start(v, hop, offset)
    if last is None or size is None:
        return None
    hop_td = dt.timedelta(microseconds=_interval_us(hop))
    n = max(1, _interval_us(size) // max(1, _interval_us(hop)))
    starts = [last - hop_td * k for k in reversed(range(n))]
    return _json_arr([_ts_text(x) for x in starts])


def _ts_diff(a: object, b: object) -> str | None:
    if a is None or b is None:
        return None
    da, db = dt.datetime.fromisoformat(str(a)), dt.datetime.fromisoformat(str(b))
    if (da.tzinfo is None) != (db.tzinfo is None):
        da, db = da.replace(tzinfo=None), db.replace(tzinfo=None)
    return types.format_interval(da - db)


# --- string ------------------------------------------------------------------------------------


def _split_part(s: object, sep: object, n: object) -> str | None:
    if s is None or sep is None or n is None:
        return None
    parts = str(s).split(str(sep)) if str(sep) else [str(s)]
    k = int(n)  # type: ignore[call-overload]
    if k == 0:
        raise ExprError(
            f"split_part('{s}', '{sep}', '{n}')",
            "Invalid parameter n: field position must not be zero",
        )
    idx = k - 1 if k > 0 else len(parts) + k
    return parts[idx] if 0 <= idx < len(parts) else ""


_SAFE_IDENT = re.compile(r"^[a-z_][a-z0-9_$]*$")


def _quote_ident(s: object) -> str | None:
    if s is None:
        return None
    t = str(s)
    if _SAFE_IDENT.match(t):
        return t
    return '"' + t.replace('"', '""') + '"'


def _pad(s: object, n: object, fill: object, left: bool) -> str | None:
    if s is None or n is None:
        return None
    t, k = str(s), int(n)  # type: ignore[call-overload]
    f = " " if fill is None else str(fill)
    if k <= len(t):
        return t[:k]
    if not f:
        return t
    pad: str = (f * (k - len(t)))[: k - len(t)]
    return pad + t if left else t + pad


def _initcap(s: object) -> str | None:
    if s is None:
        return None
    return re.sub(r"[A-Za-z0-9]+", lambda m: m.group(0).capitalize(), str(s))


def _regexp_replace(s: object, p: object, r: object, flags: object = None) -> str | None:
    if s is None or p is None or r is None:
        return None
    fl = str(flags or "")
    repl = re.sub(r"\\(\d)", r"\\g<\1>", str(r))
    return _compile(str(p), _regex_flags(fl)).sub(repl, str(s), count=0 if "g" in fl else 1)


def _size_pretty(n: object) -> str | None:
    if n is None:
        return None
    size = int(n)  # type: ignore[call-overload]
    for unit in ("bytes", "kB", "MB", "GB", "TB"):
        if abs(size) < 10 * 1024 or unit == "TB":
            return f"{size} {unit}"
        size = (size + 512) // 1024
    return f"{size} PB"


def _format_type(oid: object, typmod: object = None) -> str | None:
    if oid is None:
        return None
    t = pgtypes.BY_OID.get(int(oid))  # type: ignore[call-overload]
    if t is None:
        return "???"
    mod = -1 if typmod is None else int(typmod)  # type: ignore[call-overload]
    if t.oid in (pgtypes.VARCHAR, pgtypes.BPCHAR) and mod >= 4:
        return f"{t.display}({mod - 4})"
    if t.oid == pgtypes.NUMERIC and mod >= 4:
        m = mod - 4
        return f"numeric({m >> 16},{m & 0xFFFF})"
    return t.display


def _to_regtype(name: object) -> int | None:
    if name is None:
        return None
    s = str(name).strip().lower().removeprefix("pg_catalog.")
    s = s.strip('"')
    t = pgtypes.BY_NAME.get(s)
    if t is not None:
        return t.oid
    for t in pgtypes.BY_OID.values():
        if t.display == s:
            return t.oid
    alias = types.NAME_TO_OID.get(s)
    if alias is not None and alias in pgtypes.BY_OID:
        # SQL spellings such as "int"/"integer" name a builtin type
        return {
            "int": pgtypes.INT4,
            "integer": pgtypes.INT4,
            "text": pgtypes.TEXT,
            "name": pgtypes.NAME,
            "char": pgtypes.BPCHAR,
        }.get(s, alias)
    return None


def _series(start: object, stop: object, step: object = 1) -> str | None:
    if start is None or stop is None or step is None:
        return None
    a, b, st = _num(start), _num(stop), _num(step)
    if st == 0:
        raise ExprError(
            f"generate_series('{start}', '{stop}', '{step}')",
            "Invalid parameter step: step size cannot equal zero",
        )
    out: list[object] = []
    x = a
    while (st > 0 and x <= b) or (st < 0 and x >= b):
        out.append(x)
        x += st
        if len(out) > 10_000_000:
            break
    return _json_arr(out)


def _array_position(arr: object, elem: object, start: object = None) -> int | None:
    items = _arr(arr)
    if items is None:
        return None
    begin = 1 if start is None else int(start)  # type: ignore[call-overload]
    for i, x in enumerate(items, start=1):
        if i >= begin and x is not None and str(x) == str(elem):
            return i
    return None


def _array_to_string(arr: object, sep: object, null_str: object = None) -> str | None:
    items = _arr(arr)
    if items is None or sep is None:
        return None
    out = []
    for x in items:
        if x is None:
            if null_str is not None:
                out.append(str(null_str))
            continue
        out.append(casts.to_text(x, pgtypes.BOOL) if isinstance(x, bool) else str(x))
    return str(sep).join(out)


def _array_length(arr: object, dim: object = 1) -> int | None:
    items = _arr(arr)
    if items is None or dim != 1 or not items:
        return None
    return len(items)


def _array_contains(arr: object, value: object) -> int | None:
    """``value = ANY(arr)``: true, false, or NULL when not found and NULLs are present."""
    items = _arr(arr)
    if items is None or value is None:
        return None
    sv = value
    for x in items:
        if x is None:
            continue
        if x == sv or str(x) == str(sv):
            return 1
    return None if any(x is None for x in items) else 0


def _json_build_object(*args: object) -> str:
    obj: dict[str, object] = {}
    for k, v in zip(args[0::2], args[1::2], strict=False):
        obj[str(k)] = _json_value(v)
    return json.dumps(obj)


def _json_value(v: object) -> object:
    if isinstance(v, str) and v[:1] in "[{":
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def _jsonb_contains(a: object, b: object) -> int | None:
    """``jsonb @> jsonb`` (PostgreSQL's containment)."""
    if a is None or b is None:
        return None
    return 1 if _contains(json.loads(str(a)), json.loads(str(b)), True) else 0


def _contains(a: Any, b: Any, top: bool) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return all(k in a and _contains(a[k], v, False) for k, v in b.items())
    if isinstance(a, list):
        if isinstance(b, list):
            return all(any(_contains(x, y, False) for x in a) for y in b)
        return top and any(_contains(x, b, False) for x in a)
    return bool(a == b)


def _array_contains_all(a: object, b: object) -> int | None:
    items, wanted = _arr(a), _arr(b)
    if items is None or wanted is None:
        return None
    have = {str(x) for x in items if x is not None}
    return 1 if all(x is not None and str(x) in have for x in wanted) else 0


def _similar(s: object, pattern: object) -> int | None:
    """``SIMILAR TO``: SQL regular expressions (% and _ wildcards, whole-string match)."""
    if s is None or pattern is None:
        return None
    rx = []
    for c in str(pattern):
        rx.append(".*" if c == "%" else "." if c == "_" else "\\." if c == "." else c)
    return 1 if _compile("".join(rx), re.DOTALL).fullmatch(str(s)) else 0


def _greatest(*args: object) -> object:
    vals = [a for a in args if a is not None]
    return max(vals, key=_cmp_key) if vals else None


def _least(*args: object) -> object:
    vals = [a for a in args if a is not None]
    return min(vals, key=_cmp_key) if vals else None


def _cmp_key(v: object) -> Any:
    return (0, v) if isinstance(v, (int, float)) else (1, str(v))


def _round(x: object, digits: object = 0) -> object:
    if x is None or digits is None:
        return None
    d = Decimal(str(x)).quantize(
        Decimal(1).scaleb(-int(digits)),  # type: ignore[call-overload]
        rounding="ROUND_HALF_UP",
    )
    return int(d) if isinstance(x, int) else float(d)


def _view_query(definition: object) -> str | None:
    """The query of ``CREATE [MATERIALIZED] VIEW name [(cols)] [WITH (...)] AS query``: what
    follows the first ``AS`` outside parentheses (pglast's scanner skips strings and comments)."""
    if definition is None:
        return None
    text = str(definition)
    from pglast.parser import scan

    depth = 0
    for tok in scan(text):
        if tok.name == "ASCII_40":
            depth += 1
        elif tok.name == "ASCII_41":
            depth -= 1
        elif tok.name == "AS" and depth == 0:
            return text[tok.end + 1 :].strip()
    return text


def install(conn: Any, state: FunctionState) -> None:
    """Register every function on ``conn`` (a sqlite3.Connection)."""

    def ctx() -> QueryContext:
        assert state.ctx is not None, "statement context not set"
        return state.ctx

    def reg(name: str, nargs: int, fn: Callable[..., Any], deterministic: bool = True) -> None:
        conn.create_function(name, nargs, _guard(state, fn), deterministic=deterministic)

    def now() -> str:
        t = state.statement_time or state.now()
        return t.astimezone(dt.UTC).isoformat(sep=" ", timespec="microseconds")

    reg("rw_view_query", 1, _view_query)
    # statement context
    reg("rw_current_database_id", 0, lambda: ctx().database_id, False)
    reg("rw_current_user_id", 0, lambda: ctx().user_id, False)
    reg("rw_current_schema", 0, state.current_schema, False)
    reg("rw_current_user", 0, lambda: ctx().user, False)
    reg("rw_current_database", 0, lambda: ctx().database, False)
    reg(
        "rw_current_schemas",
        1,
        lambda implicit: _json_arr(
            [
                s
                for s in ctx().resolved_path()
                if (implicit or s not in ("pg_catalog", "rw_catalog"))
                and (s in ("pg_catalog", "rw_catalog") or state.schema_exists(ctx().database_id, s))
            ]
        ),
        False,
    )
    reg("rw_version", 0, lambda: state.version)
    reg("rw_now", 0, now, False)

    def current_setting(name: object, missing_ok: object = 0) -> str | None:
        key = str(name).lower()
        value = ctx().variables.get(key)
        if value is None and not missing_ok:
            from rwshim.errors import SessionConfigError

            raise SessionConfigError(f"Unrecognized config entry `{name}`")
        return value

    reg("current_setting", 1, current_setting, False)
    reg("current_setting", 2, current_setting, False)

    def set_config(name: object, value: object, is_local: object) -> str | None:
        state.settings.append((str(name), str(value)))
        return None if value is None else str(value)

    reg("set_config", 3, set_config, False)

    # operators and casts targeted by translation
    reg("rw_regex", 3, _regex_match)
    reg("rw_like", 4, _like_escape)
    reg("rw_cast", 3, lambda v, f, t: casts.cast(v, int(f), int(t)))
    reg("rw_arith", 4, arith)
    reg("rw_any_eq", 2, lambda v, arr: _array_contains(arr, v))
    reg("rw_array", -1, lambda *xs: _json_arr(list(xs)))
    reg("rw_jsonb_contains", 2, _jsonb_contains)
    reg("rw_array_contains_all", 2, _array_contains_all)
    reg("rw_similar", 2, _similar)
    reg(
        "rw_array_cat",
        2,
        lambda a, b: (
            None if a is None and b is None else _json_arr((_arr(a) or []) + (_arr(b) or []))
        ),
    )
    reg("rw_array_append", 2, lambda a, x: _json_arr((_arr(a) or []) + [x]))
    reg(
        "rw_array_get",
        2,
        lambda a, i: (
            None
            if a is None or i is None or not (1 <= int(i) <= len(_arr(a) or []))
            else (_arr(a) or [])[int(i) - 1]
        ),
    )
    reg("rw_ts_add", 3, lambda v, iv, sign: _ts_add(v, iv, int(sign)))
    reg("rw_ts_diff", 2, _ts_diff)
    reg("tumble_start", 2, _tumble_start)
    reg("tumble_start", 3, _tumble_start)
    reg("rw_hop_starts", 3, _hop_starts)
    reg("rw_hop_starts", 4, _hop_starts)
    reg("rw_series", 2, _series)
    reg("rw_series", 3, _series)
    reg(
        "rw_distinct",
        2,
        lambda a, b: (
            0 if (a is None and b is None) or (a is not None and b is not None and a == b) else 1
        ),
    )

    # clients.md §9.2
    reg("array_position", 2, _array_position)
    reg("array_position", 3, _array_position)
    reg("array_to_string", 2, _array_to_string)
    reg("array_to_string", 3, _array_to_string)
    reg("array_length", 2, _array_length)
    reg("array_length", 1, _array_length)
    reg("cardinality", 1, lambda a: None if a is None else len(_arr(a) or []))
    reg("array_upper", 2, _array_length)
    reg("array_lower", 2, lambda a, d: None if not _arr(a) else 1)
    reg("format_type", 2, _format_type)
    reg("format_type", 1, _format_type)
    reg("pg_encoding_to_char", 1, lambda e: "UTF8" if e == 6 else "SQL_ASCII" if e == 0 else "")
    reg("pg_get_expr", 2, lambda e, r: e)
    reg("pg_get_expr", 3, lambda e, r, p: e)
    reg("pg_get_constraintdef", 1, lambda o: None)
    reg("pg_get_constraintdef", 2, lambda o, p: None)
    reg("pg_get_ruledef", 1, lambda o: None)
    reg("pg_get_ruledef", 2, lambda o, p: None)
    reg("pg_relation_is_publishable", 1, lambda o: 0)
    reg("pg_get_function_result", 1, lambda o: None)
    reg("pg_get_function_arguments", 1, lambda o: None)
    reg("pg_get_function_identity_arguments", 1, lambda o: None)
    reg("pg_function_is_visible", 1, lambda o: 1)
    reg("pg_type_is_visible", 1, lambda o: 1)
    reg("has_table_privilege", 2, lambda o, p: 1)
    reg("has_table_privilege", 3, lambda u, o, p: 1)
    reg("has_schema_privilege", 2, lambda o, p: 1)
    reg("has_schema_privilege", 3, lambda u, o, p: 1)
    reg("has_database_privilege", 2, lambda o, p: 1)
    reg("has_database_privilege", 3, lambda u, o, p: 1)
    reg("pg_collation_is_visible", 1, lambda o: 1)
    reg("pg_get_serial_sequence", 2, lambda t, c: None)
    reg("pg_advisory_unlock_all", 0, lambda: None)
    reg("pg_size_pretty", 1, _size_pretty)
    reg("pg_table_size", 1, lambda o: 0)
    reg("pg_relation_size", 1, lambda o: 0)
    reg("pg_total_relation_size", 1, lambda o: 0)
    reg("quote_ident", 1, _quote_ident)
    reg("quote_literal", 1, lambda s: None if s is None else "'" + str(s).replace("'", "''") + "'")
    reg("split_part", 3, _split_part)
    reg(
        "starts_with",
        2,
        lambda s, p: None if s is None or p is None else int(str(s).startswith(str(p))),
    )
    reg("to_regtype", 1, _to_regtype)
    reg("json_build_object", -1, _json_build_object)
    reg("jsonb_build_object", -1, _json_build_object)
    reg("version", 0, lambda: state.version)

    # common scalar functions SQLite lacks or answers differently
    reg("greatest", -1, _greatest)
    reg("least", -1, _least)
    reg("rw_round", 1, _round)
    reg("rw_round", 2, _round)
    reg("ceil", 1, lambda x: None if x is None else math.ceil(_num(x)))
    reg("ceiling", 1, lambda x: None if x is None else math.ceil(_num(x)))
    reg("floor", 1, lambda x: None if x is None else math.floor(_num(x)))
    reg("trunc", 1, lambda x: None if x is None else float(math.trunc(_num(x))))
    reg("sqrt", 1, lambda x: None if x is None else math.sqrt(_num(x)))
    reg("power", 2, lambda x, y: None if x is None or y is None else float(_num(x)) ** _num(y))
    reg("pow", 2, lambda x, y: None if x is None or y is None else float(_num(x)) ** _num(y))
    reg("exp", 1, lambda x: None if x is None else math.exp(_num(x)))
    reg("ln", 1, lambda x: None if x is None else math.log(_num(x)))
    reg("log10", 1, lambda x: None if x is None else math.log10(_num(x)))
    reg("sign", 1, lambda x: None if x is None else (x > 0) - (x < 0))
    reg(
        "mod",
        2,
        lambda a, b: arith(
            "%", pgtypes.INT8 if isinstance(a, int) and isinstance(b, int) else pgtypes.FLOAT8, a, b
        ),
    )
    reg("pi", 0, lambda: math.pi)
    reg("strpos", 2, lambda s, p: None if s is None or p is None else str(s).find(str(p)) + 1)
    reg("rw_concat", -1, lambda *xs: "".join(str(x) for x in xs if x is not None))
    reg(
        "concat_ws",
        -1,
        lambda sep, *xs: (
            None if sep is None else str(sep).join(str(x) for x in xs if x is not None)
        ),
    )
    reg(
        "rw_left",
        2,
        lambda s, n: None if s is None or n is None else str(s)[: int(n)],
    )
    reg(
        "rw_right",
        2,
        lambda s, n: (
            None
            if s is None or n is None
            else (str(s)[-int(n) :] if int(n) > 0 else str(s)[-int(n) :] if int(n) < 0 else "")
        ),
    )
    reg("lpad", 2, lambda s, n: _pad(s, n, None, True))
    reg("lpad", 3, lambda s, n, f: _pad(s, n, f, True))
    reg("rpad", 2, lambda s, n: _pad(s, n, None, False))
    reg("rpad", 3, lambda s, n, f: _pad(s, n, f, False))
    reg("repeat", 2, lambda s, n: None if s is None or n is None else str(s) * max(int(n), 0))
    reg("reverse", 1, lambda s: None if s is None else str(s)[::-1])
    reg("initcap", 1, _initcap)
    reg(
        "md5",
        1,
        lambda s: (
            None
            if s is None
            else hashlib.md5(s if isinstance(s, bytes) else str(s).encode()).hexdigest()
        ),
    )
    reg("btrim", 1, lambda s: None if s is None else str(s).strip(" "))
    reg("btrim", 2, lambda s, c: None if s is None or c is None else str(s).strip(str(c)))
    reg("regexp_replace", 3, _regexp_replace)
    reg("regexp_replace", 4, _regexp_replace)
    reg("char_length", 1, lambda s: None if s is None else len(str(s)))
    reg("character_length", 1, lambda s: None if s is None else len(str(s)))
    reg(
        "octet_length",
        1,
        lambda s: None if s is None else len(s if isinstance(s, bytes) else str(s).encode()),
    )
    reg("date_trunc", 2, _date_trunc)
    reg("rw_extract", 2, _extract)
    reg("date_part", 2, _extract)
    reg(
        "to_timestamp",
        1,
        lambda x: (
            None
            if x is None
            else dt.datetime.fromtimestamp(float(x), dt.UTC).isoformat(
                sep=" ", timespec="microseconds"
            )
        ),
    )

    conn.create_aggregate("rw_array_agg", -1, _ArrayAgg)
    conn.create_aggregate("rw_string_agg", -1, _StringAgg)
    # also usable with OVER (...)
    conn.create_window_function("rw_sum_dec", 1, _SumDec)
    conn.create_window_function("rw_avg_dec", 1, _AvgDec)
    conn.create_aggregate("bool_and", 1, _BoolAnd)
    conn.create_aggregate("every", 1, _BoolAnd)
    conn.create_aggregate("bool_or", 1, _BoolOr)
