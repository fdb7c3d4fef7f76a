"""Text-format parameters read as RisingWave reads them: ``ScalarImpl::from_text``
(src/common/src/types/mod.rs:1138-1169), each type by its own ``FromStr``, with their texts.

- bool: ``str_to_bool`` (src/common/src/cast/mod.rs:28-49): trimmed, case-insensitive
  prefixes of true/false/yes/no, ``on``/``off``, ``1``/``0``; else ``Invalid bool``;
- int2/int4/int8: Rust's ``from_str`` (no whitespace, one optional sign): ``cannot parse integer
  from empty string``, ``invalid digit found in string``, ``number too large to fit in target
  type``, ``number too small to fit in target type``;
- float4/float8: Rust's float ``from_str`` (``inf``/``infinity``/``nan`` in any case, no
  whitespace): ``cannot parse float from empty string``, ``invalid float literal``;
- numeric: types/decimal.rs:772-785 (lower-cased; ``nan``/``inf``; rust_decimal 1.40's
  ``from_str``, then ``from_scientific``: the exponent a ``u32`` after an optional ``-`` (Rust
  takes a ``+`` too), the scale at most 28; ``Failed to parse`` is the usual answer);
- date / time / timestamp: types/datetime.rs:118-180 (speedate's RFC 3339 date, speedate's time
  with a trailing ``Z`` dropped, jiff's civil datetime) and their ``Can't cast string to ...``
  texts (datetime.rs:259-267);
- timestamptz: types/timestamptz.rs:196-232: an offset is required;
- interval: types/interval.rs (``Invalid interval: <text>``, ``Invalid unit: <unit>``);
- jsonb: serde_json's parse error (``expected value at line 1 column 1``; rwshim gives
  serde_json's words for a missing value and trailing characters, and ``expected value`` for
  every other syntax error);
- bytea: ``str_to_bytea`` (cast/mod.rs:118-190);
- arrays: ``ListValue::from_str`` (src/common/src/array/list_array.rs:747-975), each element
  by its type's rules.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Container
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

from rwshim.lazy import lazy_module, lazy_pattern
from rwshim.wire.codec_base import CodecError, Decoder

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

_TRUE = ("true", "tru", "tr", "t", "on", "1", "yes", "ye", "y")
_FALSE = ("false", "fals", "fal", "fa", "f", "off", "of", "0", "no", "n")


def _error(message: str, type_name: str, text: str) -> CodecError:
    return CodecError(message, type_name, text)


def bool_from_text(b: bytes) -> bool:
    s = b.decode().strip().lower()
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    raise _error("Invalid bool", "boolean", b.decode())


def int_from_text(name: str, bits: int) -> Decoder:
    lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1

    def dec(b: bytes) -> int:
        s = b.decode()
        if not s:
            raise _error("cannot parse integer from empty string", name, s)
        negative = s[0] == "-"
        digits = s[1:] if s[0] in "+-" else s
        if not digits:
            raise _error("invalid digit found in string", name, s)
        value = 0
        # digit by digit, as Rust does: an overflow is reported before a later bad digit
        for ch in digits:
            if not "0" <= ch <= "9":
                raise _error("invalid digit found in string", name, s)
            value = value * 10 + (ord(ch) - 48)
            if negative and -value < lo:
                raise _error("number too small to fit in target type", name, s)
            if not negative and value > hi:
                raise _error("number too large to fit in target type", name, s)
        return -value if negative else value

    return dec


_FLOAT = lazy_pattern(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")
_FLOAT_WORDS = {"inf": math.inf, "infinity": math.inf, "nan": math.nan}


def float_from_text(name: str) -> Decoder:
    def dec(b: bytes) -> float:
        s = b.decode()
        if not s:
            raise _error("cannot parse float from empty string", name, s)
        body = s[1:] if s[0] in "+-" else s
        word = _FLOAT_WORDS.get(body.lower())
        if word is not None:
            return -word if s[0] == "-" else word
        if not _FLOAT.match(s):
            raise _error("invalid float literal", name, s)
        return float(s)

    return dec


# rust_decimal 1.40 parse_str_radix_10: digits with at most one '.', underscores after the
# first digit; its error texts (src/str.rs)
_DECIMAL = lazy_pattern(r"[+-]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)\Z")


def _rust_decimal(s: str) -> Decimal:
    if not s:
        raise ValueError("Invalid decimal: empty")
    if _DECIMAL.match(s):
        return Decimal(s.replace("_", ""))
    body = s[1:] if s[0] in "+-" else s
    if body.count(".") > 1:
        raise ValueError("Invalid decimal: two decimal points")
    if body.startswith("_"):
        raise ValueError("Invalid decimal: must start lead with a number")
    if body in ("", "."):
        raise ValueError("Invalid decimal: no digits found")
    raise ValueError("Invalid decimal: unknown character")


def numeric_from_text(b: bytes) -> Decimal:
    text = b.decode()
    s = text.lower()
    if s == "nan":
        return Decimal("NaN")
    if s in ("inf", "+inf", "infinity", "+infinity"):
        return Decimal("Infinity")
    if s in ("-inf", "-infinity"):
        return Decimal("-Infinity")
    try:
        return _rust_decimal(s)
    except ValueError:
        pass
    try:
        return _from_scientific(s)
    except (ValueError, InvalidOperation) as e:
        raise _error(str(e), "numeric", text) from None


# rust_decimal's limits: 28 fractional digits, a 96-bit mantissa
_MAX_SCALE = 28
_MAX_VALUE = 2**96 - 1


def _u32(s: str) -> int:
    """Rust's ``u32::from_str``: an optional ``+``, then ASCII digits, at most 2**32 - 1."""
    digits = s[1:] if s.startswith("+") else s
    if not digits or not digits.isascii() or not digits.isdigit() or int(digits) >= 2**32:
        raise ValueError("Failed to parse")
    return int(digits)


def _scale_error(scale: int) -> ValueError:
    return ValueError(f"Scale exceeds the maximum precision allowed: {scale} > {_MAX_SCALE}")


def _from_scientific(s: str) -> Decimal:
    """rust_decimal 1.40 ``Decimal::from_scientific`` (src/decimal.rs:579-637): the base before
    the first ``e`` by ``from_str``, the exponent a ``u32`` after an optional ``-`` (so
    ``4e+8``, psycopg's text of ``Decimal('4E+8')``, is 400000000), the scale at most 28."""
    base, sep, exp = s.partition("e")
    if not sep:
        raise ValueError("Failed to parse")
    mantissa = _rust_decimal(base)
    scale = max(0, -int(mantissa.as_tuple().exponent))
    if exp.startswith("-"):
        n = _u32(exp[1:])
        if n > _MAX_SCALE:
            raise _scale_error(n)
        if scale + n > _MAX_SCALE:  # set_scale
            raise _scale_error(scale + n)
        return mantissa.scaleb(-n)
    n = _u32(exp)
    if n <= scale:
        return mantissa.scaleb(n)
    if n > _MAX_SCALE:
        raise _scale_error(n)
    # the mantissa times 10**n (checked_mul), normalized: a whole number
    sign, digits, exponent = mantissa.as_tuple()
    value = int("".join(map(str, digits)) or "0") * 10 ** (int(exponent) + n)
    if value > _MAX_VALUE:
        raise ValueError("Number exceeds maximum value that can be represented.")
    return Decimal(-value if sign else value)


_DATE = lazy_pattern(r"(\d{4})-(\d{2})-(\d{2})\Z")
_TIME = lazy_pattern(r"(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(?:[+-]\d{2}(?::?\d{2})?)?\Z")
_TIMESTAMP = lazy_pattern(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:[Tt ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:[+-]\d{2}(?::?\d{2})?)?)?\Z"
)
_DATE_ERROR = "Can't cast string to date (expected format is YYYY-MM-DD)"
_TIME_ERROR = (
    "Can't cast string to time (expected format is HH:MM:SS[.D+{up to 6 digits}][Z] or HH:MM)"
)
_TIMESTAMP_ERROR = (
    "Can't cast string to timestamp (expected format is YYYY-MM-DD HH:MM:SS[.D+{up to 9 "
    "digits}] or YYYY-MM-DD HH:MM or YYYY-MM-DD or ISO 8601 format)"
)
_TIMESTAMPTZ_ERROR = (
    "Can't cast string to timestamp with time zone (expected format is YYYY-MM-DD "
    "HH:MM:SS[.D+{up to 6 digits}] followed by +hh:mm or literal Z)\n"
    "For example: '2021-04-01 00:00:00+00:00'"
)


def _micros(frac: str | None) -> int:
    return int((frac or "0").ljust(9, "0")[:6])


def date_from_text(b: bytes) -> dt.date:
    s = b.decode()
    m = _DATE.match(s)
    try:
        if m is None:
            raise ValueError
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        raise _error(_DATE_ERROR, "date", s) from None


def time_from_text(b: bytes) -> dt.time:
    s = b.decode()
    m = _TIME.match(s.rstrip("Z"))
    try:
        if m is None:
            raise ValueError
        return dt.time(int(m[1]), int(m[2]), int(m[3] or 0), _micros(m[4]))
    except ValueError:
        raise _error(_TIME_ERROR, "time without time zone", s) from None


def timestamp_from_text(b: bytes) -> dt.datetime:
    s = b.decode()
    m = _TIMESTAMP.match(s)
    try:
        if m is None:
            raise ValueError
        return dt.datetime(
            int(m[1]),
            int(m[2]),
            int(m[3]),
            int(m[4] or 0),
            int(m[5] or 0),
            int(m[6] or 0),
            _micros(m[7]),
        )
    except ValueError:
        raise _error(_TIMESTAMP_ERROR, "timestamp", s) from None


_TIMESTAMPTZ = lazy_pattern(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)? ?"
    r"(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)\Z"
)


def timestamptz_from_text(b: bytes) -> dt.datetime:
    s = b.decode()
    m = _TIMESTAMPTZ.match(s)
    try:
        if m is None:
            raise ValueError
        if m[8]:
            tz = dt.UTC
        else:
            off = dt.timedelta(hours=int(m[10]), minutes=int(m[11] or 0))
            tz = dt.timezone(-off if m[9] == "-" else off)
        return dt.datetime(
            int(m[1]),
            int(m[2]),
            int(m[3]),
            int(m[4]),
            int(m[5]),
            int(m[6] or 0),
            _micros(m[7]),
            tzinfo=tz,
        )
    except ValueError:
        raise _error(_TIMESTAMPTZ_ERROR, "timestamp with time zone", s) from None


def interval_from_text(parse: Decoder, units: Container[str]) -> Decoder:
    """Interval input (the shared parser of the PostgreSQL forms ``units`` names), with
    RisingWave's texts."""

    def dec(b: bytes) -> Any:
        s = b.decode()
        try:
            return parse(b)
        except CodecError:
            for unit in re.findall(r"\d\s*([A-Za-z]+)", s):
                if unit.lower() != "ago" and unit.lower() not in units:
                    raise _error(f"Invalid unit: {unit.lower()}", "interval", s) from None
            raise _error(f"Invalid interval: {s}", "interval", s) from None

    return dec


def jsonb_from_text(b: bytes) -> str:
    """JSON text; a syntax error in serde_json's words for the cases clients hit (no value,
    or trailing characters), its position as serde_json counts it."""
    s = b.decode()
    deep = _json_too_deep(s)
    try:
        json.loads(s)
    except RecursionError:
        deep = deep if deep is not None else len(s)
    except json.JSONDecodeError as e:
        if deep is not None and deep < e.pos:
            raise _json_depth_error(s, deep) from None
        if e.msg == "Extra data":
            reason = "trailing characters"
        elif e.pos >= len(s.rstrip()):
            line = s[: e.pos].rsplit("\n", 1)[-1]
            raise _error(
                f"EOF while parsing a value at line {e.lineno} column {len(line)}", "jsonb", s
            ) from None
        else:
            reason = "expected value"
        raise _error(f"{reason} at line {e.lineno} column {e.colno}", "jsonb", s) from None
    if deep is not None:
        raise _json_depth_error(s, deep)
    return s


# serde_json's nesting limit (its Deserializer's remaining_depth, 128): the 128th open bracket
# is refused with RecursionLimitExceeded at that bracket (jsonbb parses through serde_json).
JSON_MAX_DEPTH = 128


def _json_too_deep(s: str) -> int | None:
    """The index of the bracket that opens nesting level ``JSON_MAX_DEPTH``, if any: one pass
    that skips strings, so a deep document never reaches the recursive parser's limit."""
    depth = 0
    in_string = escaped = False
    for i, c in enumerate(s):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth >= JSON_MAX_DEPTH:
                return i
        elif c in "]}":
            depth -= 1
    return None


def _json_depth_error(s: str, index: int) -> CodecError:
    line = s.count("\n", 0, index) + 1
    column = index - (s.rfind("\n", 0, index) + 1) + 1
    return _error(f"recursion limit exceeded at line {line} column {column}", "jsonb", s)


_HEX = "0123456789abcdefABCDEF"


def bytea_from_text(b: bytes) -> bytes:
    s = b.decode()
    out = bytearray()
    if s.startswith("\\x"):
        digits = [ch for ch in s[2:] if ch not in " \n\t\r"]  # white space is tolerated
        for ch in digits:
            if ch not in _HEX:
                raise _error(f'invalid hexadecimal digit: "{ch}"', "bytea", s)
        if len(digits) % 2:
            raise _error("invalid hexadecimal data: odd number of digits", "bytea", s)
        return bytes.fromhex("".join(digits))
    i = 0
    while i < len(b):
        c = b[i]
        if c != 0x5C:
            out.append(c)
            i += 1
        elif b[i + 1 : i + 2] == b"\\":
            out.append(0x5C)
            i += 2
        elif (
            len(b[i + 1 : i + 4]) == 3
            and 0x30 <= b[i + 1] <= 0x33
            and all(0x30 <= x <= 0x37 for x in b[i + 2 : i + 4])
        ):
            out.append(int(b[i + 1 : i + 4], 8))
            i += 4
        else:
            raise _error("invalid input syntax for type bytea", "bytea", s)
    return bytes(out)


_SPACE = " \t\n\r\f\v"


class _ListParser:
    """RisingWave's array text (list_array.rs:747-975): braces, unquoted or double-quoted
    elements with backslash escapes, NULL in any case.  The parse is directed by the type, as
    RisingWave's is: ``levels`` is how many list levels the type has, and a brace below the
    last one is ``Unexpected "{" character.`` (list_array.rs:836).  A parameter's type comes
    from its OID, and ``DataType::from_oid`` gives one level for every array OID
    (src/common/src/types/postgres_type.rs:89-104), so a client's ``int4[]`` parameter is one level
    deep whatever its text holds; the walk is iterative and its stack bounded by ``levels``.
    """

    def __init__(self, text: str, elem: Decoder, levels: int = 1) -> None:
        self.s = text
        self.i = 0
        self.elem = elem
        self.levels = levels

    def _skip(self) -> None:
        s, i, n = self.s, self.i, len(self.s)
        while i < n and s[i] in _SPACE:
            i += 1
        self.i = i

    def rest(self) -> str:
        return self.s[self.i :]

    def array(self) -> list[Any]:
        self._skip()
        if not self.s.startswith("{", self.i):
            raise ValueError('Array value must start with "{"')
        self.i += 1
        stack: list[list[Any]] = [[]]
        fresh = True  # just after "{": "}" closes an empty list
        while True:
            self._skip()
            if fresh and self.s.startswith("}", self.i):
                self.i += 1
                done = stack.pop()
                if not stack:
                    return done
                stack[-1].append(done)
                fresh = False
                if self._after_item(stack):
                    return stack.pop()
                continue
            fresh = False
            if self.s.startswith("{", self.i):
                if len(stack) >= self.levels:
                    raise ValueError('Unexpected "{" character.')
                self.i += 1
                stack.append([])
                fresh = True
                continue
            if self.s.startswith('"', self.i):
                stack[-1].append(self._quoted())
            else:
                stack[-1].append(self._bare())
            if self._after_item(stack):
                return stack.pop()

    def _after_item(self, stack: list[list[Any]]) -> bool:
        """After an element: "," goes on, "}" closes lists (True when the outermost closed,
        left on the stack for the caller); anything else is RisingWave's error."""
        while True:
            self._skip()
            if self.i >= len(self.s):
                raise ValueError("Unexpected end of input.")
            c = self.s[self.i]
            if c == ",":
                self.i += 1
                return False
            if c != "}":
                raise ValueError("Unexpected array element.")
            self.i += 1
            if len(stack) == 1:
                return True
            done = stack.pop()
            stack[-1].append(done)

    def _quoted(self) -> Any:
        s, i, n = self.s, self.i + 1, len(self.s)
        out: list[str] = []
        while True:
            if i >= n:
                raise ValueError("Unexpected end of input.")
            c = s[i]
            if c == "\\":
                if i + 1 >= n:
                    raise ValueError("Unexpected end of input.")
                out.append(s[i + 1])
                i += 2
            elif c == '"':
                self.i = i + 1
                return self._value("".join(out))
            else:
                out.append(c)
                i += 1

    def _bare(self) -> Any:
        s, i, n = self.s, self.i, len(self.s)
        out: list[str] = []
        escaped_upto = 0
        while True:
            if i >= n:
                raise ValueError("Unexpected end of input.")
            c = s[i]
            if c == "\\":
                if i + 1 >= n:
                    raise ValueError("Unexpected end of input.")
                out.append(s[i + 1])
                escaped_upto = len(out)
                i += 2
            elif c in ",}":
                self.i = i
                text = "".join(out)
                if escaped_upto:
                    return self._value(text[:escaped_upto] + text[escaped_upto:].rstrip())
                text = text.rstrip()
                if not text:
                    raise ValueError(f'Unexpected "{c}" character.')
                if text.lower() == "null":
                    return None
                return self._value(text)
            elif c == "{":
                raise ValueError('Unexpected "{" character.')
            elif c == '"':
                raise ValueError("Unexpected array element.")
            else:
                out.append(c)
                i += 1

    def _value(self, text: str) -> Any:
        return self.elem(text.encode())


def array_from_text(elem: Decoder, levels: int = 1) -> Decoder:
    """A list of ``levels`` list levels from its text (a parameter's type has one level per
    array OID; PostgreSQL's output of an array column can hold up to its MAXDIM, 6)."""

    def dec(b: bytes) -> list[Any]:
        s = b.decode()
        p = _ListParser(s, elem, levels)
        try:
            out = p.array()
            p._skip()
            if p.rest():
                raise ValueError("Junk after closing right brace.")
        except ValueError as e:
            if isinstance(e, CodecError):
                raise  # an element's own error, as RisingWave reports it
            raise _error(str(e), "array", s) from None
        return out

    return dec
