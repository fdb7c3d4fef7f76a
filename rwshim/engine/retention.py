"""The retention of a subscription and the timeout of a FETCH: an interval text read as
RisingWave's ``Interval::from_str`` reads it, then whole seconds (I/O free).

RisingWave: ``src/frontend/src/handler/util.rs:284-295`` (convert_interval_to_u64_seconds),
``src/common/src/types/interval.rs`` (parse_interval's tokens :1225-1283, DateTimeField's unit
names :1205-1215, parse_postgres :1389-1450, epoch_in_micros :211-235: a year is 365.25 days,
a month 30).  The ISO 8601 form (``P1D``) is refused with a clear error, not read.
"""

from __future__ import annotations

import re
from fractions import Fraction

from rwshim.errors import InternalError, NotImplementedError_

_UNITS: dict[str, str] = {}
for _names, _unit in (
    (("years", "year", "yrs", "yr", "y"), "year"),
    (("days", "day", "d"), "day"),
    (("hours", "hour", "hrs", "hr", "h"), "hour"),
    (("minutes", "minute", "mins", "min", "m"), "minute"),
    (("months", "month", "mons", "mon"), "month"),
    (("seconds", "second", "secs", "sec", "s"), "second"),
):
    for _n in _names:
        _UNITS[_n] = _unit

# microseconds per unit as epoch_in_micros counts them
_USECS = {
    "year": Fraction(36525 * 86400 * 1_000_000, 100),
    "month": Fraction(30 * 86400 * 1_000_000),
    "day": Fraction(86400 * 1_000_000),
    "hour": Fraction(3600 * 1_000_000),
    "minute": Fraction(60 * 1_000_000),
    "second": Fraction(1_000_000),
}


class IntervalParseError(Exception):
    """IntervalParseError's Display text."""


def _tokens(s: str) -> list[tuple[str, object]]:
    """parse_interval (interval.rs:1225-1283): numbers, units, and an h:m:s group."""
    s = s.strip()
    tokens: list[tuple[str, object]] = []
    num = ""
    chars = ""
    hms: list[str] = []

    def flush_unit() -> None:
        nonlocal chars
        if chars:
            unit = _UNITS.get(chars.lower())
            if unit is None:
                raise IntervalParseError(f"Invalid unit: {chars}")
            tokens.append(("unit", unit))
            chars = ""

    def flush_num() -> None:
        nonlocal num
        if num:
            if not re.fullmatch(r"[+-]?\d+", num):
                raise IntervalParseError(f"Invalid interval: {num}")
            tokens.append(("num", int(num)))
            num = ""

    for i, c in enumerate(s):
        if c in "+-.":
            num += c
        elif c.isascii() and c.isdigit():
            flush_unit()
            num += c
        elif c.isascii() and c.isalpha():
            flush_num()
            chars += c
        elif c.isspace():
            flush_unit()
            if num not in ("-", "+"):
                flush_num()
        elif c == ":":
            if not num:
                raise IntervalParseError(f"Invalid interval: {s}")
            hms.append(num)
            num = ""
        else:
            raise IntervalParseError(
                f"Invalid character at offset {i} in {s}: {c!r}. "
                "Only support digit or alphabetic now"
            )
    if hms:
        if num:
            hms.append(num)
            num = ""
    else:
        flush_num()
    flush_unit()
    if len(hms) > 3:
        raise IntervalParseError(f"Invalid interval: {hms!r}")
    for part, unit in zip(hms, ("hour", "minute", "second"), strict=False):
        try:
            value: object = float(part) if unit == "second" else int(part)
        except ValueError:
            raise IntervalParseError(f"Invalid interval: {hms!r}") from None
        tokens += [("num", value), ("unit", unit)]
    return tokens


def interval_usecs(text: str) -> Fraction:
    """The interval as epoch_in_micros counts it (parse_postgres)."""
    if text.strip().startswith("P"):
        raise NotImplementedError_("an ISO 8601 interval (P...) as a retention or timeout")
    tokens = _tokens(text)
    if len(tokens) % 2 and tokens[-1][0] == "num":
        tokens.append(("unit", "second"))
    if len(tokens) % 2:
        raise IntervalParseError(f"Invalid interval: {text.strip()}")
    total = Fraction(0)
    for (k1, v1), (k2, v2) in zip(tokens[::2], tokens[1::2], strict=True):
        if k1 != "num" or k2 != "unit":
            raise IntervalParseError(f"Invalid interval: {text.strip()}")
        amount = Fraction(v1) if isinstance(v1, int) else Fraction(str(v1))
        total += amount * _USECS[str(v2)]
    return total


def interval_seconds(text: str) -> int:
    """convert_interval_to_u64_seconds: whole seconds (truncated toward zero, as Rust's
    integer division; a negative interval wraps as ``as u64`` does)."""
    try:
        usecs = interval_usecs(text)
    except IntervalParseError as e:
        # the error's report string printed with {:?}: a quoted Rust string
        quoted = '"' + str(e).replace("\\", "\\\\").replace('"', '\\"') + '"'
        raise InternalError(
            f"Convert interval to u64 error, please check format, error: {quoted}"
        ) from None
    micros = int(usecs)  # toward zero, as i128 division of the micros below
    seconds = abs(micros) // 1_000_000 * (1 if micros >= 0 else -1)
    return seconds % (1 << 64)
