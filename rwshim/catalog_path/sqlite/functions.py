"""PostgreSQL and RisingWave functions and operators as Python for SQLite to call.

Each takes and returns values in SQLite's storage forms (rwshim/binder/types.py: booleans 0/1,
arrays as JSON text, instants as ISO text, intervals as PostgreSQL text) with PostgreSQL's NULL
handling, and raises RisingWave's ``Expr error`` texts where RisingWave fails (``arith``:
``general_add`` ... with ``Numeric out of range`` / ``Division by zero``, e2e_test/error_ui/
simple/expr.slt:27-35; ``split_part``, ``generate_series``, ``date_trunc``, ``extract``,
``tumble_start``).  They exist because SQLite lacks these functions or answers differently; the
helpers the lowering targets carry the ``rw_`` prefix when sqlite/install.py registers them
(clients.md §9.2 lists what clients call).
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rwshim.binder import types
from rwshim.catalog_path.sqlite import casts
from rwshim.common import names, pgtypes
from rwshim.errors import ExprError
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON


def _regex_flags(flags: str) -> int:
    return re.IGNORECASE if "i" in flags else 0


def compile_regex(pattern: str, flags: int) -> re.Pattern[str]:
    # cached by text: only patterns of a reasonable size (a long one would be kept with the
    # 511 others; sql/cache.py bounds caches by bytes)
    if len(pattern) > 1000:
        return re.compile(pattern, flags)
    return _compile_regex_cached(pattern, flags)


@functools.lru_cache(maxsize=512)
def _compile_regex_cached(pattern: str, flags: int) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def regex_match(s: object, pattern: object, ci: int = 0) -> int | None:
    if s is None or pattern is None:
        return None
    return 1 if compile_regex(str(pattern), re.IGNORECASE if ci else 0).search(str(s)) else 0


def like_escape(s: object, pattern: object, escape: object, ci: int = 0) -> int | None:
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
    rx = compile_regex("".join(out), (re.IGNORECASE if ci else 0) | re.DOTALL)
    return 1 if rx.fullmatch(str(s)) else 0


def array_items(v: object) -> list[object] | None:
    if v is None:
        return None
    return types.parse_array(v)


def json_array(items: list[object]) -> str:
    return types.to_array_json(items)


def number(v: object) -> Any:
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
    x, y = number(a), number(b)
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


def date_trunc(unit: object, v: object) -> str | None:
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


def extract(field_: object, v: object) -> float | int | None:
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


def ts_add(v: object, interval: object, sign: int) -> str | None:
    if v is None or interval is None:
        return None
    s = str(v)
    td = types.parse_interval(str(interval)) * sign
    if len(s) == 10:
        return (dt.datetime.fromisoformat(s) + td).isoformat(sep=" ", timespec="microseconds")
    d = dt.datetime.fromisoformat(s)
    return (d + td).isoformat(sep=" ", timespec="microseconds")


def interval_mul(interval: object, factor: object, divide: bool) -> str | None:
    """interval * number, interval / number (a month counted as 30 days, as this path's
    intervals are)."""
    if interval is None or factor is None:
        return None
    k = float(str(factor))
    if divide and k == 0:  # Interval::div_float is None: NumericOutOfRange (arithmetic_op.rs:344)
        evaluating = f"interval_float_div({_fmt_arg(interval)}, {_fmt_arg(factor)})"
        raise ExprError(evaluating, "Numeric out of range")
    td = types.parse_interval(str(interval))
    return types.format_interval(td / k if divide else td * k)


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


def tumble_start(v: object, size: object, offset: object = None) -> str | None:
    d = _window_start(v, size, offset)
    return None if d is None else _ts_text(d)


def hop_starts(v: object, hop: object, size: object, offset: object = None) -> str | None:
    """Starts of every HOP window (``hop`` apart, ``size`` long) that holds ``v``."""
    last = _window_start(v, hop, offset)
    if last is None or size is None:
        return None
    hop_td = dt.timedelta(microseconds=_interval_us(hop))
    n = max(1, _interval_us(size) // max(1, _interval_us(hop)))
    starts = [last - hop_td * k for k in reversed(range(n))]
    return json_array([_ts_text(x) for x in starts])


def ts_diff(a: object, b: object) -> str | None:
    if a is None or b is None:
        return None
    da, db = dt.datetime.fromisoformat(str(a)), dt.datetime.fromisoformat(str(b))
    if (da.tzinfo is None) != (db.tzinfo is None):
        da, db = da.replace(tzinfo=None), db.replace(tzinfo=None)
    return types.format_interval(da - db)


# --- string ------------------------------------------------------------------------------------


def split_part(s: object, sep: object, n: object) -> str | None:
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


def quote_ident(s: object) -> str | None:
    """quote_ident(text) (src/expr/impl/src/scalar/string.rs:367): RisingWave's QuoteIdent."""
    return None if s is None else names.quote_ident(str(s))


def pad(s: object, n: object, fill: object, left: bool) -> str | None:
    if s is None or n is None:
        return None
    t, k = str(s), int(n)  # type: ignore[call-overload]
    f = " " if fill is None else str(fill)
    if k <= len(t):
        return t[:k]
    if not f:
        return t
    filler: str = (f * (k - len(t)))[: k - len(t)]
    return filler + t if left else t + filler


def initcap(s: object) -> str | None:
    if s is None:
        return None
    return re.sub(r"[A-Za-z0-9]+", lambda m: m.group(0).capitalize(), str(s))


def regexp_replace(s: object, p: object, r: object, flags: object = None) -> str | None:
    if s is None or p is None or r is None:
        return None
    fl = str(flags or "")
    repl = re.sub(r"\\(\d)", r"\\g<\1>", str(r))
    return compile_regex(str(p), _regex_flags(fl)).sub(repl, str(s), count=0 if "g" in fl else 1)


def regexp_match(s: object, p: object, flags: object = None) -> str | None:
    """regexp_match(s, pattern [, flags]) (src/expr/impl/src/scalar/regexp.rs): the first
    match's capture groups (the whole match when there are none) as a varchar[]; NULL when
    nothing matches."""
    if s is None or p is None:
        return None
    m = compile_regex(str(p), _regex_flags(str(flags or ""))).search(str(s))
    if m is None:
        return None
    return json_array(list(m.groups()) if m.re.groups else [m.group(0)])


def size_pretty(n: object) -> str | None:
    if n is None:
        return None
    size = int(n)  # type: ignore[call-overload]
    for unit in ("bytes", "kB", "MB", "GB", "TB"):
        if abs(size) < 10 * 1024 or unit == "TB":
            return f"{size} {unit}"
        size = (size + 512) // 1024
    return f"{size} PB"


def format_type(oid: object, typmod: object = None) -> str | None:
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


def to_regtype(name: object) -> int | None:
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
    alias = types.oid_of_name(s)
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


def series(start: object, stop: object, step: object = 1) -> str | None:
    if start is None or stop is None or step is None:
        return None
    a, b, st = number(start), number(stop), number(step)
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
    return json_array(out)


def range_series(start: object, stop: object, step: object = 1) -> str | None:
    """``range(start, stop [, step])``: generate_series without its end
    (table_function/generate_series.rs, ``range``)."""
    if start is None or stop is None or step is None:
        return None
    a, b, st = number(start), number(stop), number(step)
    if st == 0:
        raise ExprError(
            f"range('{start}', '{stop}', '{step}')",
            "Invalid parameter step: step size cannot equal zero",
        )
    out: list[object] = []
    x = a
    while (st > 0 and x < b) or (st < 0 and x > b):
        out.append(x)
        x += st
        if len(out) > 10_000_000:
            break
    return json_array(out)


def array_position(arr: object, elem: object, start: object = None) -> int | None:
    items = array_items(arr)
    if items is None:
        return None
    begin = 1 if start is None else int(start)  # type: ignore[call-overload]
    for i, x in enumerate(items, start=1):
        if i >= begin and x is not None and str(x) == str(elem):
            return i
    return None


def array_to_string(arr: object, sep: object, null_str: object = None) -> str | None:
    items = array_items(arr)
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


def array_length(arr: object, dim: object = 1) -> int | None:
    items = array_items(arr)
    if items is None or dim != 1 or not items:
        return None
    return len(items)


def array_contains(arr: object, value: object) -> int | None:
    """``value = ANY(arr)``: true, false, or NULL when not found and NULLs are present."""
    items = array_items(arr)
    if items is None or value is None:
        return None
    sv = value
    for x in items:
        if x is None:
            continue
        if x == sv or str(x) == str(sv):
            return 1
    return None if any(x is None for x in items) else 0


_ORDERINGS: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: a == b,
    "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def array_compare(op: object, every: object, value: object, arr: object, numeric: object) -> Any:
    """``value <op> ANY(arr)`` (``every``: ALL) of numbers (``numeric``) or strings, in SQL's
    three-valued logic: ANY is true on one true comparison, ALL false on one false one; else
    NULL where an element or the value is NULL; an empty list is false (ANY) / true (ALL)."""
    items = array_items(arr)
    if items is None:
        return None
    cmp = _ORDERINGS[str(op)]
    decided = 0 if every else 1
    unknown = False
    for x in items:
        if x is None or value is None:
            unknown = True
            continue
        a, b = (number(value), number(x)) if numeric else (str(value), str(x))
        if cmp(a, b) == bool(decided):
            return decided
    return None if unknown else 1 - decided


def json_build_object(*args: object) -> str:
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


def jsonb_contains(a: object, b: object) -> int | None:
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


def array_contains_all(a: object, b: object) -> int | None:
    items, wanted = array_items(a), array_items(b)
    if items is None or wanted is None:
        return None
    have = {str(x) for x in items if x is not None}
    return 1 if all(x is not None and str(x) in have for x in wanted) else 0


def similar_to(s: object, pattern: object) -> int | None:
    """``SIMILAR TO``: SQL regular expressions (% and _ wildcards, whole-string match)."""
    if s is None or pattern is None:
        return None
    rx = []
    for c in str(pattern):
        rx.append(".*" if c == "%" else "." if c == "_" else "\\." if c == "." else c)
    return 1 if compile_regex("".join(rx), re.DOTALL).fullmatch(str(s)) else 0


def json_text(v: object) -> str | None:
    """``->>``: a JSON string unquoted, null as NULL, anything else as jsonb text."""
    if v is None:
        return None
    loaded = json.loads(str(v))
    if loaded is None:
        return None
    if isinstance(loaded, str):
        return loaded
    return json.dumps(loaded)


def greatest(*args: object) -> object:
    vals = [a for a in args if a is not None]
    return max(vals, key=_cmp_key) if vals else None


def least(*args: object) -> object:
    vals = [a for a in args if a is not None]
    return min(vals, key=_cmp_key) if vals else None


def _cmp_key(v: object) -> Any:
    return (0, v) if isinstance(v, (int, float)) else (1, str(v))


def round_to(x: object, digits: object = 0) -> object:
    if x is None or digits is None:
        return None
    d = Decimal(str(x)).quantize(
        Decimal(1).scaleb(-int(digits)),  # type: ignore[call-overload]
        rounding="ROUND_HALF_UP",
    )
    return int(d) if isinstance(x, int) else float(d)
