"""Casts with PostgreSQL/RisingWave semantics over SQLite storage values.

``cast(value, from_oid, to_oid)`` takes a value in its storage form (see ``types``) and returns
the storage form of the target type, raising RisingWave's ``Expr error`` chain when the input
does not parse (``str_parse`` in src/expr/impl/src/scalar/cast.rs:44-52 prefixes the Rust parse
error with the target type's display name, e.g. ``bigint invalid digit found in string``).
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING

from rwshim.binder import types
from rwshim.common import pgtypes
from rwshim.errors import ExprError
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

INT_RANGE: dict[int, tuple[int, int]] = {
    pgtypes.INT2: (-(2**15), 2**15 - 1),
    pgtypes.INT4: (-(2**31), 2**31 - 1),
    pgtypes.INT8: (-(2**63), 2**63 - 1),
    types.OID_TAG: (0, 2**32 - 1),
}

_TRUE = {"t", "tr", "tru", "true", "y", "ye", "yes", "on", "1"}
_FALSE = {"f", "fa", "fal", "fals", "false", "n", "no", "of", "off", "0"}


def _parse_error(value: object, to_oid: int, why: str) -> ExprError:
    from rwshim.common import rwtypes  # an error's type name: not needed to start up

    return ExprError(
        f"str_parse('{value}')", f"Parse error: {rwtypes.DISPLAY.get(to_oid, 'unknown')} {why}"
    )


def out_of_range(evaluating: str) -> ExprError:
    return ExprError(evaluating, "Numeric out of range")


def check_int_range(v: int, oid: int, evaluating: str) -> int:
    lo, hi = INT_RANGE.get(oid, INT_RANGE[pgtypes.INT8])
    if v < lo or v > hi:
        raise out_of_range(evaluating)
    return v


def _round_half_away(x: float | Decimal) -> int:
    d = x if isinstance(x, Decimal) else Decimal(repr(x))
    return int(d.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def to_text(value: object, from_oid: int) -> str:
    """The text form of a stored value of type ``from_oid`` (PostgreSQL output rules)."""
    if from_oid == pgtypes.BOOL:
        return "true" if value not in (0, "0", False, "f", "false") else "false"
    if from_oid in types.FLOAT_OIDS:
        return types.format_float(float(value))  # type: ignore[arg-type]
    if from_oid == pgtypes.BYTEA:
        return "\\x" + (value if isinstance(value, bytes) else str(value).encode()).hex()
    if types.is_array(from_oid):
        elem = types.element_of(from_oid) or pgtypes.VARCHAR
        items = types.parse_array(value)
        return types.render_array_text([None if x is None else to_text(x, elem) for x in items])
    if from_oid == types.REGTYPE_TAG:
        return types.format_type_name(int(value))  # type: ignore[call-overload]
    if from_oid == pgtypes.NUMERIC and isinstance(value, float):
        return types.format_float(value)
    if from_oid in (pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ, pgtypes.TIME):
        return _datetime_text(str(value), from_oid)
    return str(value)


def _fraction(micros: int) -> str:
    """chrono's ``%.f``: no fraction when zero, else 3 or 6 digits, as few as hold it."""
    if micros == 0:
        return ""
    return f".{micros // 1000:03d}" if micros % 1000 == 0 else f".{micros:06d}"


def _datetime_text(stored: str, oid: int) -> str:
    """A stored time / timestamp / timestamptz as RisingWave's text: ``ToText`` of Time and
    Timestamp (src/common/src/types/datetime.rs:338-365, chrono's Display) and the
    timestamptz-to-varchar cast (write_date_time_tz, timestamptz.rs:240-256; rwshim's session
    zone there is UTC)."""
    if oid == pgtypes.TIME:
        t = dt.time.fromisoformat(stored)
        return t.replace(microsecond=0).isoformat() + _fraction(t.microsecond)
    d = dt.datetime.fromisoformat(stored)
    if oid == pgtypes.TIMESTAMPTZ and d.tzinfo is not None:
        d = d.astimezone(dt.UTC)
    text = f"{d:%Y-%m-%d %H:%M:%S}{_fraction(d.microsecond)}"
    return text + "+00:00" if oid == pgtypes.TIMESTAMPTZ else text


def cast(value: object, from_oid: int, to_oid: int) -> object:
    """Cast a stored value; None stays None."""
    if value is None:
        return None
    if to_oid in types.STRING_OIDS or to_oid == pgtypes.UNKNOWN:
        return to_text(value, from_oid)
    if types.is_array(to_oid):
        elem = types.element_of(to_oid) or pgtypes.VARCHAR
        if isinstance(value, str) and value.strip().startswith("{"):
            items = types.parse_pg_array_literal(value)
            src_elem = pgtypes.VARCHAR
        else:
            items = types.parse_array(value)
            src_elem = types.element_of(from_oid) or pgtypes.VARCHAR
        return types.to_array_json([cast(x, src_elem, elem) for x in items])
    if to_oid in types.INTEGER_OIDS:
        return _to_int(value, from_oid, to_oid)
    if to_oid in types.FLOAT_OIDS:
        return _to_float(value, to_oid)
    if to_oid == pgtypes.NUMERIC:
        return _to_numeric(value, to_oid)
    if to_oid == pgtypes.BOOL:
        return _to_bool(value, from_oid)
    if to_oid == pgtypes.BYTEA:
        if isinstance(value, bytes):
            return value
        s = str(value)
        return bytes.fromhex(s[2:]) if s.startswith("\\x") else s.encode()
    if to_oid in types.TEMPORAL_OIDS:
        return _to_temporal(value, from_oid, to_oid)
    if to_oid == pgtypes.JSONB:
        return _to_jsonb(value, from_oid)
    return value


def _to_int(value: object, from_oid: int, to_oid: int) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return check_int_range(value, to_oid, f"cast('{value}')")
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise out_of_range(f"cast('{types.format_float(value)}')")
        return check_int_range(_round_half_away(value), to_oid, f"cast('{value}')")
    s = str(value).strip()
    if from_oid == pgtypes.NUMERIC:
        try:
            return check_int_range(_round_half_away(Decimal(s)), to_oid, f"cast('{s}')")
        except InvalidOperation:
            pass
    if not s:
        raise _parse_error(value, to_oid, "cannot parse integer from empty string")
    body = s[1:] if s[0] in "+-" else s
    if not body.isdigit():
        raise _parse_error(value, to_oid, "invalid digit found in string")
    v = int(s)
    lo, hi = INT_RANGE.get(to_oid, INT_RANGE[pgtypes.INT8])
    if v < lo or v > hi:
        why = (
            "number too large to fit in target type"
            if v > hi
            else ("number too small to fit in target type")
        )
        raise _parse_error(value, to_oid, why)
    return v


def _to_float(value: object, to_oid: int) -> float:
    if isinstance(value, (int, float)):
        return float(value)
    s = str(value).strip()
    low = s.lower()
    special = {"infinity": math.inf, "+infinity": math.inf, "-infinity": -math.inf, "nan": math.nan}
    if low in special:
        return special[low]
    try:
        return float(s)
    except ValueError:
        raise _parse_error(value, to_oid, "invalid float literal") from None


def _to_numeric(value: object, to_oid: int) -> int | float | str:
    if isinstance(value, (int, float)):
        return value
    s = str(value).strip()
    try:
        d = Decimal(s)
    except InvalidOperation:
        raise _parse_error(value, to_oid, "Invalid decimal literal") from None
    # integers beyond 64 bits are stored as REAL: sqlite3 cannot bind them
    if (
        d == d.to_integral_value()
        and "." not in s
        and "e" not in s.lower()
        and -(2**63) <= d < 2**63
    ):
        return int(d)
    return float(d)


def _to_bool(value: object, from_oid: int) -> int:
    if isinstance(value, (int, float)) and from_oid != pgtypes.VARCHAR:
        return 1 if value else 0
    s = str(value).strip().lower()
    if s in _TRUE:
        return 1
    if s in _FALSE:
        return 0
    raise ExprError(f"str_parse('{value}')", "Parse error: Invalid bool")


def _to_temporal(value: object, from_oid: int, to_oid: int) -> str:
    s = str(value).strip()
    try:
        if to_oid == pgtypes.INTERVAL:
            return types.format_interval(types.parse_interval(_interval_words(s)))
        if to_oid == pgtypes.DATE:
            return (
                dt.datetime.fromisoformat(s).date().isoformat()
                if len(s) > 10
                else (dt.date.fromisoformat(s).isoformat())
            )
        if to_oid == pgtypes.TIME:
            return dt.time.fromisoformat(s).isoformat()
        d = dt.datetime.fromisoformat(s.replace("T", " ") if "T" in s else s)
        if to_oid == pgtypes.TIMESTAMP:
            if d.tzinfo is not None and from_oid == pgtypes.TIMESTAMPTZ:
                d = d.astimezone(dt.UTC)
            return d.replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")
        if d.tzinfo is None:
            d = d.replace(tzinfo=dt.UTC)
        return d.astimezone(dt.UTC).isoformat(sep=" ", timespec="microseconds")
    except ValueError:
        raise _parse_error(value, to_oid, "invalid input syntax") from None


_UNIT_WORDS = {
    "year": "years",
    "years": "years",
    "mon": "mons",
    "mons": "mons",
    "month": "mons",
    "months": "mons",
    "day": "days",
    "days": "days",
    "hour": "h",
    "hours": "h",
    "minute": "m",
    "minutes": "m",
    "min": "m",
    "mins": "m",
    "second": "s",
    "seconds": "s",
    "sec": "s",
    "secs": "s",
    "week": "w",
    "weeks": "w",
}


def _interval_words(s: str) -> str:
    """Normalise ``'1 hour 30 minutes'``/``'2 weeks'`` into the postgres interval style."""
    words = s.split()
    if len(words) < 2 or ":" in s:
        return s
    years = mons = days = 0
    secs = 0.0
    for num, unit in zip(words[0::2], words[1::2], strict=False):
        kind = _UNIT_WORDS.get(unit.lower())
        n = float(num)
        if kind == "years":
            years += int(n)
        elif kind == "mons":
            mons += int(n)
        elif kind == "days":
            days += int(n)
        elif kind == "w":
            days += int(n * 7)
        elif kind == "h":
            secs += n * 3600
        elif kind == "m":
            secs += n * 60
        elif kind == "s":
            secs += n
        else:
            raise ValueError(s)
    td = dt.timedelta(days=years * 360 + mons * 30 + days, seconds=secs)
    return types.format_interval(td)


def _to_jsonb(value: object, from_oid: int) -> str:
    if from_oid in types.STRING_OIDS or from_oid == pgtypes.UNKNOWN or from_oid == pgtypes.JSONB:
        try:
            return json.dumps(json.loads(str(value)))
        except ValueError:
            raise ExprError(f"str_parse('{value}')", "Parse error: jsonb invalid") from None
    if from_oid == pgtypes.BOOL:
        return "true" if value else "false"
    return json.dumps(value)
