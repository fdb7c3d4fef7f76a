"""Text forms of PostgreSQL builtin types: output as RisingWave's pgwire prints it (PostgreSQL's
output functions, except where RisingWave's own ``ToText`` differs: floats, fractional seconds,
timestamptz offsets; src/common/src/types/to_text.rs, datetime.rs, timestamptz.rs); input of
the types RisingWave lacks (uuid, oid, json, timetz) and the interval and array forms the
parameter input builds on.  RisingWave's own types take text parameters by RisingWave's rules
(codec_rwtext.py)."""

from __future__ import annotations

import datetime as dt
import math
import re
import uuid
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rwshim.common.pgtypes import Interval, RegOid
from rwshim.lazy import lazy_module, lazy_pattern
from rwshim.wire.codec_base import (
    USECS_PER_DAY,
    USECS_PER_HOUR,
    USECS_PER_MINUTE,
    USECS_PER_SEC,
    CodecError,
    Encoder,
    _f,
)

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# --- text output ---------------------------------------------------------------------------


def _bool_text(v: Any) -> bytes:
    return b"t" if v else b"f"


def _int_text(v: Any) -> bytes:
    return str(int(v)).encode()


def _float_shortest(v: float, fixed_max_exp: int, fixed_min_exp: int = -4) -> str:
    """Float output as shortest exact digits: fixed notation when the decimal exponent is in
    [fixed_min_exp, fixed_max_exp], else ``d.ddde+XX``."""
    if v != v:
        return "NaN"
    if v == math.inf:
        return "Infinity"
    if v == -math.inf:
        return "-Infinity"
    if v == 0:
        return "-0" if math.copysign(1.0, v) < 0 else "0"
    return _format_digits(repr(v), fixed_max_exp, fixed_min_exp)


def _format_digits(shortest: str, fixed_max_exp: int, fixed_min_exp: int = -4) -> str:
    sign, digits, exp = Decimal(shortest).as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    exp += len(digits) - len(ds)  # type: ignore[operator]
    e10 = len(ds) + int(exp) - 1  # exponent of the leading digit
    neg = "-" if sign else ""
    if fixed_min_exp <= e10 <= fixed_max_exp:
        if e10 < 0:
            return f"{neg}0.{'0' * (-e10 - 1)}{ds}"
        if len(ds) <= e10 + 1:
            return f"{neg}{ds}{'0' * (e10 + 1 - len(ds))}"
        return f"{neg}{ds[: e10 + 1]}.{ds[e10 + 1 :]}"
    mant = ds[0] + ("." + ds[1:] if len(ds) > 1 else "")
    return f"{neg}{mant}e{'-' if e10 < 0 else '+'}{abs(e10):02d}"


# RisingWave prints floats with ryu's format_finite (to_text.rs implement_using_ryu: ".0"
# dropped, the exponent signed and at least two digits): fixed notation for a decimal exponent
# in [-5, 15] for float8 and [-6, 12] for float4 (PostgreSQL: [-4, 14] and [-4, 5]).
_F8_FIXED = (-5, 15)
_F4_FIXED = (-6, 12)


def _float8_text(v: Any) -> bytes:
    return _float_shortest(float(v), _F8_FIXED[1], _F8_FIXED[0]).encode()


def _float4_round(v: float) -> float:
    try:
        return float(_f.unpack(_f.pack(v))[0])
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def _float4_repr(v: float) -> str:
    for p in range(1, 10):
        s = f"{v:.{p}g}"
        if _float4_round(float(s)) == v:
            return s
    return repr(v)  # pragma: no cover


def _float4_text(v: Any) -> bytes:
    x = _float4_round(float(v))
    if x != x or math.isinf(x) or x == 0:
        return _float_shortest(x, _F4_FIXED[1], _F4_FIXED[0]).encode()
    return _format_digits(_float4_repr(x), _F4_FIXED[1], _F4_FIXED[0]).encode()


def _numeric_text(v: Any) -> bytes:
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, int):
        return str(v).encode()
    if isinstance(v, float):
        if v != v:
            return b"NaN"
        if math.isinf(v):
            return b"Infinity" if v > 0 else b"-Infinity"
        v = Decimal(repr(v))
    d = v if isinstance(v, Decimal) else Decimal(str(v))
    if d.is_nan():
        return b"NaN"
    if d.is_infinite():
        return b"-Infinity" if d < 0 else b"Infinity"
    s = format(d, "f")
    if d == 0 and s.startswith("-"):
        s = s[1:]
    return s.encode()


def _str_text(v: Any) -> bytes:
    if isinstance(v, str):
        return v.encode()
    if isinstance(v, bytes):
        return v
    return str(v).encode()


def _bytea_text(v: Any) -> bytes:
    return b"\\x" + bytes(v).hex().encode()


def _frac(us: int) -> str:
    """An interval's fraction of a second: trailing zeros trimmed (interval.rs Display)."""
    return ("." + f"{us:06d}".rstrip("0")) if us else ""


def _chrono_frac(us: int) -> str:
    """A time's fraction of a second as chrono prints it (``%.f`` / NaiveTime's Display, used
    by RisingWave's time, timestamp and timestamptz): none, 3 or 6 digits."""
    if not us:
        return ""
    if us % 1000 == 0:
        return f".{us // 1000:03d}"
    return f".{us:06d}"


def _date_str(d: dt.date) -> str:
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d}"


def _date_text(v: Any) -> bytes:
    if isinstance(v, str):  # already RisingWave's text (outside Python's years: BC, > 9999)
        return v.encode()
    return _date_str(v).encode()


def _time_str(t: dt.time | dt.datetime) -> str:
    return f"{t.hour:02d}:{t.minute:02d}:{t.second:02d}{_chrono_frac(t.microsecond)}"


def _time_text(v: Any) -> bytes:
    if isinstance(v, dt.timedelta):
        us = _td_usecs(v)
        h, rem = divmod(us, USECS_PER_HOUR)
        m, rem = divmod(rem, USECS_PER_MINUTE)
        s, us = divmod(rem, USECS_PER_SEC)
        return f"{h:02d}:{m:02d}:{s:02d}{_chrono_frac(us)}".encode()
    return _time_str(v).encode()


def _offset_str(off: dt.timedelta | None) -> str:
    secs = int(off.total_seconds()) if off is not None else 0
    sign = "-" if secs < 0 else "+"
    secs = abs(secs)
    h, rem = divmod(secs, 3600)
    m, s = divmod(rem, 60)
    out = f"{sign}{h:02d}"
    if m or s:
        out += f":{m:02d}"
    if s:
        out += f":{s:02d}"
    return out


def _tz_offset_str(off: dt.timedelta | None) -> str:
    """chrono's ``%:z``, which RisingWave's timestamptz output uses (timestamptz.rs
    write_date_time_tz): ``+HH:MM`` always."""
    secs = int(off.total_seconds()) if off is not None else 0
    sign = "-" if secs < 0 else "+"
    h, rem = divmod(abs(secs), 3600)
    return f"{sign}{h:02d}:{rem // 60:02d}"


def _timetz_text(v: Any) -> bytes:
    return (_time_str(v) + _offset_str(v.utcoffset())).encode()


def _timestamp_text(v: Any) -> bytes:
    if isinstance(v, str):  # already RisingWave's text (outside Python's years)
        return v.encode()
    if isinstance(v, dt.datetime):
        return f"{_date_str(v)} {_time_str(v)}".encode()
    return f"{_date_str(v)} 00:00:00".encode()


def _timestamptz_text_in(tz: dt.tzinfo) -> Encoder:
    def enc(v: Any) -> bytes:
        if isinstance(v, str):  # already RisingWave's text (outside Python's years)
            return v.encode()
        if not isinstance(v, dt.datetime):
            v = dt.datetime(v.year, v.month, v.day)
        if v.tzinfo is None:
            v = v.replace(tzinfo=dt.UTC)
        local = v.astimezone(tz)
        off = _tz_offset_str(local.utcoffset())
        return f"{_date_str(local)} {_time_str(local)}{off}".encode()

    return enc


def _td_usecs(v: dt.timedelta) -> int:
    return (v.days * 86400 + v.seconds) * USECS_PER_SEC + v.microseconds


def as_interval(v: Any) -> Interval:
    if isinstance(v, Interval):
        return v
    if isinstance(v, dt.timedelta):
        return Interval(0, v.days, v.seconds * USECS_PER_SEC + v.microseconds)
    raise CodecError(f"cannot encode {type(v).__name__} as interval", "interval")


def _ctrunc(a: int, b: int) -> int:
    """C integer division (truncates toward zero)."""
    q = abs(a) // b
    return q if a >= 0 else -q


def interval_str(iv: Interval) -> str:
    """IntervalStyle postgres (EncodeInterval, src/backend/utils/adt/datetime.c)."""
    year = _ctrunc(iv.months, 12)
    mon = iv.months - year * 12
    mday = iv.days
    t = iv.microseconds
    hour = _ctrunc(t, USECS_PER_HOUR)
    t -= hour * USECS_PER_HOUR
    minute = _ctrunc(t, USECS_PER_MINUTE)
    t -= minute * USECS_PER_MINUTE
    sec = _ctrunc(t, USECS_PER_SEC)
    fsec = t - sec * USECS_PER_SEC
    out = ""
    is_zero = True
    is_before = False
    for value, unit in ((year, "year"), (mon, "mon"), (mday, "day")):
        if value == 0:
            continue
        out += f"{'' if is_zero else ' '}{'+' if is_before and value > 0 else ''}{value} {unit}"
        out += "s" if value != 1 else ""
        is_before = value < 0
        is_zero = False
    if is_zero or hour or minute or sec or fsec:
        minus = hour < 0 or minute < 0 or sec < 0 or fsec < 0
        out += (
            f"{'' if is_zero else ' '}{'-' if minus else ('+' if is_before else '')}"
            f"{abs(hour):02d}:{abs(minute):02d}:{abs(sec):02d}{_frac(abs(fsec))}"
        )
    return out


def _interval_text(v: Any) -> bytes:
    return interval_str(as_interval(v)).encode()


def _json_str(v: Any) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, bytes):
        return v.decode()
    return json.dumps(v)


def _json_text(v: Any) -> bytes:
    return _json_str(v).encode()


def _uuid_text(v: Any) -> bytes:
    return str(v if isinstance(v, uuid.UUID) else uuid.UUID(str(v))).encode()


def _reg_text(v: Any) -> bytes:
    if isinstance(v, RegOid):
        return v.name.encode()
    if isinstance(v, str):
        return v.encode()
    return str(int(v)).encode()


def _char_text(v: Any) -> bytes:
    if isinstance(v, int):
        return bytes([v]) if v else b""
    return str(v).encode()[:1] if v else b""


def _vector_text(v: Any) -> bytes:
    if isinstance(v, str):
        return v.encode()
    return " ".join(str(int(x)) for x in v).encode()


def _void_text(v: Any) -> bytes:
    return b""


def _lsn_int(v: Any) -> int:
    if isinstance(v, int):
        return v
    hi, _, lo = str(v).partition("/")
    return (int(hi, 16) << 32) | int(lo, 16)


def _lsn_text(v: Any) -> bytes:
    n = _lsn_int(v)
    return f"{n >> 32:X}/{n & 0xFFFFFFFF:X}".encode()


_ARRAY_SPECIAL = lazy_pattern(r'[{}",\\\s]')


def _quote_array_elem(s: str) -> str:
    if s == "" or s.upper() == "NULL" or _ARRAY_SPECIAL.search(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return s


def _array_text_of(elem: Encoder) -> Encoder:
    def fmt(v: Any) -> str:
        if isinstance(v, str):
            return v  # already in array text form
        items = []
        for x in v:
            if x is None:
                items.append("NULL")
            elif isinstance(x, list | tuple):
                items.append(fmt(x))
            else:
                items.append(_quote_array_elem(elem(x).decode()))
        return "{" + ",".join(items) + "}"

    def enc(v: Any) -> bytes:
        return fmt(v).encode()

    return enc


# --- text input ----------------------------------------------------------------------------


def _syntax(type_name: str, text: str) -> CodecError:
    return CodecError(f'invalid input syntax for type {type_name}: "{text}"', type_name, text)


def _str_parse(b: bytes) -> str:
    return b.decode()


def _fix_offset(s: str) -> str:
    # PostgreSQL writes "+05" / "+05:30"; fromisoformat wants "+05:00".
    m = re.search(r"([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$", s)
    if not m or (":" not in s[: m.start()] and " " not in s[: m.start()] and "T" not in s):
        return s
    hh, mm, ss = m.group(2), m.group(3) or "00", m.group(4)
    return s[: m.start()] + f"{m.group(1)}{hh}:{mm}" + (f":{ss}" if ss else "")


def _timetz_parse(b: bytes) -> dt.time:
    s = b.decode().strip()
    try:
        return dt.time.fromisoformat(_fix_offset(s))
    except ValueError:
        raise _syntax("time with time zone", s) from None


_IV_UNITS: dict[str, tuple[int, int, int]] = {}
for _names, _val in (
    (("millennium", "millennia", "millenniums"), (12000, 0, 0)),
    (("century", "centuries"), (1200, 0, 0)),
    (("decade", "decades"), (120, 0, 0)),
    (("year", "years", "y", "yr", "yrs"), (12, 0, 0)),
    (("month", "months", "mon", "mons"), (1, 0, 0)),
    (("week", "weeks", "w"), (0, 7, 0)),
    (("day", "days", "d"), (0, 1, 0)),
    (("hour", "hours", "h", "hr", "hrs"), (0, 0, USECS_PER_HOUR)),
    (("minute", "minutes", "m", "min", "mins"), (0, 0, USECS_PER_MINUTE)),
    (("second", "seconds", "s", "sec", "secs"), (0, 0, USECS_PER_SEC)),
    (("millisecond", "milliseconds", "ms", "msec", "msecs"), (0, 0, 1000)),
    (("microsecond", "microseconds", "us", "usec", "usecs"), (0, 0, 1)),
):
    for _n in _names:
        _IV_UNITS[_n] = _val

_IV_TOKEN = lazy_pattern(
    r"\s*(?:(?P<clock>[+-]?\d+:\d{1,2}(?::\d{1,2}(?:\.\d*)?)?)"
    r"|(?P<num>[+-]?\d+(?:\.\d*)?|[+-]?\.\d+)\s*(?P<unit>[a-z]+)?|(?P<ago>ago))",
)


def parse_interval(s: str) -> Interval:
    """PostgreSQL interval input in the forms clients send: ``1 day 02:00:00``,
    ``-1 days +02:00:00``, ``3 mons``, ``1.5 hours``, ``00:00:01.5``, ``... ago``."""
    text = s
    t = s.strip().lower()
    if t.startswith("@"):
        t = t[1:]
    months = days = usecs = 0
    pos = 0
    seen = False
    ago = False
    while pos < len(t):
        m = _IV_TOKEN.match(t, pos)
        if not m or m.end() == pos:
            if t[pos:].strip() == "":
                break
            raise _syntax("interval", text)
        pos = m.end()
        seen = True
        if m.group("ago"):
            ago = True
        elif m.group("clock"):
            c = m.group("clock")
            neg = c.startswith("-")
            parts = c.lstrip("+-").split(":")
            h = int(parts[0])
            mi = int(parts[1])
            sec = Decimal(parts[2]) if len(parts) > 2 else Decimal(0)
            total = h * USECS_PER_HOUR + mi * USECS_PER_MINUTE + int(sec * USECS_PER_SEC)
            usecs += -total if neg else total
        else:
            num = Decimal(m.group("num"))
            unit = m.group("unit") or "second"
            if unit not in _IV_UNITS:
                raise _syntax("interval", text)
            mo, dd, us = _IV_UNITS[unit]
            if mo:
                whole = int(num * mo)
                months += whole
                frac_days = (num * mo - whole) * 30
                days += int(frac_days)
                usecs += int((frac_days - int(frac_days)) * USECS_PER_DAY)
            elif dd:
                whole = int(num * dd)
                days += whole
                usecs += int((num * dd - whole) * USECS_PER_DAY)
            else:
                usecs += int(num * us)
    if not seen:
        raise _syntax("interval", text)
    if ago:
        months, days, usecs = -months, -days, -usecs
    return Interval(months, days, usecs)


def _interval_parse(b: bytes) -> Interval:
    return parse_interval(b.decode())


def _uuid_parse(b: bytes) -> uuid.UUID:
    s = b.decode()
    try:
        return uuid.UUID(s.strip())
    except ValueError:
        raise _syntax("uuid", s) from None


def _json_parse(b: bytes) -> str:
    s = b.decode()
    try:
        json.loads(s)
    except ValueError:
        raise _syntax("json", s) from None
    return s


def _oid_parse(b: bytes) -> int:
    s = b.decode()
    try:
        v = int(s.strip())
    except ValueError:
        raise _syntax("oid", s) from None
    if not -0x80000000 <= v <= 0xFFFFFFFF:
        raise CodecError(f'value "{s}" is out of range for type oid', "oid", s)
    return v & 0xFFFFFFFF


def _char_parse(b: bytes) -> str:
    return b.decode()[:1]


def _vector_parse(b: bytes) -> list[int]:
    return [int(x) for x in b.decode().split()]
