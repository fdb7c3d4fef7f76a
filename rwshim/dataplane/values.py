"""Values between the data plane and the wire: PostgreSQL's text output decoded into the Python
values rwshim's wire codecs render (the one place that renders values is ``rwshim.wire``), and
parameters encoded into the text PostgreSQL's input functions read.

The decoders are the wire layer's own text parsers (the ones that read clients' parameters), so
a value read from PostgreSQL renders exactly as a value rwshim computed would.  A few are
lighter here because PostgreSQL's output needs no checking (JSON text is kept as written).

Dates and timestamps outside Python's years (BC, after 9999) are kept as text, in RisingWave's
form (chrono's: fractional seconds in 3 or 6 digits, ``+HH:MM`` offsets, `` BC``), which the wire
sends as it is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from rwshim.common import pgtypes
from rwshim.wire import codecs

Decoder = Callable[[bytes], Any]


def _text(b: bytes) -> str:
    return b.decode()


_DATETIME = re.compile(
    r"(?P<date>\S+) (?P<time>\d\d:\d\d:\d\d)(?:\.(?P<frac>\d+))?"
    r"(?P<off>[+-]\d\d(?::\d\d(?::\d\d)?)?)?(?P<bc> BC)?"
)


def rw_datetime_text(text: str) -> str:
    """PostgreSQL's text of a date / timestamp / timestamptz as RisingWave prints it."""
    m = _DATETIME.fullmatch(text)
    if m is None:
        return text  # a date alone is printed alike
    frac = m["frac"] or ""
    if frac:
        frac = "." + (frac.ljust(3, "0") if len(frac) <= 3 else frac.ljust(6, "0"))
    off = m["off"] or ""
    if off:
        off = off[:3] + ":" + (off[4:6] if len(off) > 3 else "00")
    return f"{m['date']} {m['time']}{frac}{off}{m['bc'] or ''}"


# a JSON string (skipped) or number in PostgreSQL's jsonb output
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?')
_I64_MIN, _U64_MAX = -(2**63), 2**64 - 1


def rw_f64_text(x: float) -> str:
    """An f64 as RisingWave's jsonb prints it: the shortest round-trip digits laid out as the
    ``ryu`` crate's ``format64`` does (``1.0``, ``0.001234``, ``2e16``, ``1.5e-7``): plain
    when the decimal point falls within 16 digits (or up to 5 zeros after it), else
    ``d.ddde<exp>``."""
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    _sign, digits_t, exp = Decimal(repr(abs(x))).as_tuple()
    digits = "".join(map(str, digits_t)).rstrip("0")
    k = int(exp) + (len(digits_t) - len(digits))
    n = len(digits)
    kk = n + k
    head = "-" if x < 0 else ""
    if k >= 0 and kk <= 16:
        return f"{head}{digits}{'0' * k}.0"
    if 0 < kk <= 16:
        return f"{head}{digits[:kk]}.{digits[kk:]}"
    if -5 < kk <= 0:
        return f"{head}0.{'0' * -kk}{digits}"
    if n == 1:
        return f"{head}{digits}e{kk - 1}"
    return f"{head}{digits[0]}.{digits[1:]}e{kk - 1}"


def _rw_number(tok: str) -> str:
    plain = "." not in tok and "e" not in tok and "E" not in tok
    if plain and _I64_MIN <= int(tok) <= _U64_MAX:
        return tok
    return rw_f64_text(float(tok))


class _Raw:
    """A JSON number already in RisingWave's text."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _Obj(list[tuple[str, Any]]):
    """A JSON object's members, in PostgreSQL's order."""


def _dump(v: Any) -> str:
    if isinstance(v, _Raw):
        return v.text
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, _Obj):
        members = sorted(v, key=lambda kv: kv[0].encode())
        return "{" + ", ".join(f"{_dump(k)}: {_dump(x)}" for k, x in members) + "}"
    return "[" + ", ".join(_dump(x) for x in v) + "]"


def rw_jsonb_text(text: str) -> str:
    """PostgreSQL's jsonb text as RisingWave's jsonb prints it (src/common/src/types/jsonb.rs
    over the jsonbb crate): numbers as RisingWave holds them, an integer that fits i64 or u64
    as it is and any other an f64 (to_jsonb.rs adds floats and decimals with add_f64; sqlfn/
    jsonb.py stores a float with a fractional digit) printed by rw_f64_text; an object's keys
    in byte order, where PostgreSQL's jsonb orders them by length first."""
    if "{" in text:
        try:
            value = json.loads(
                text,
                object_pairs_hook=_Obj,
                parse_int=lambda t: _Raw(_rw_number(t)),
                parse_float=lambda t: _Raw(_rw_number(t)),
            )
        except ValueError:
            return text
        return _dump(value)
    if "." not in text and not re.search(r"\d{19}", text):
        return text

    def sub(m: re.Match[str]) -> str:
        tok = m.group(0)
        return tok if tok.startswith('"') else _rw_number(tok)

    return _JSON_TOKEN.sub(sub, text)


def _jsonb(b: bytes) -> str:
    return rw_jsonb_text(b.decode())


def _beyond_python(oid: int) -> Decoder:
    """The wire's decoder, or RisingWave's text where Python has no such date."""
    inner = codecs.decoder(oid, False)

    def dec(b: bytes) -> Any:
        try:
            return inner(b)
        except (codecs.CodecError, ValueError, OverflowError):
            return rw_datetime_text(b.decode())

    return dec


_DECODERS: dict[int, Decoder] = {
    pgtypes.JSONB: _jsonb,
    pgtypes.JSON: _text,
    pgtypes.VARCHAR: _text,
    pgtypes.TEXT: _text,
    pgtypes.DATE: _beyond_python(pgtypes.DATE),
    pgtypes.TIMESTAMP: _beyond_python(pgtypes.TIMESTAMP),
    pgtypes.TIMESTAMPTZ: _beyond_python(pgtypes.TIMESTAMPTZ),
}
_cache: dict[int, Decoder] = {}


def decoder(oid: int) -> Decoder:
    """The decoder of PostgreSQL's text output for a column of (RisingWave) type ``oid``."""
    found = _cache.get(oid)
    if found is None:
        found = _DECODERS.get(oid) or codecs.output_decoder(oid)
        _cache[oid] = found
    return found


def encode_param(value: object, oid: int) -> bytes | None:
    """A parameter value (decoded from the wire by its OID) as PostgreSQL's input text."""
    if value is None:
        return None
    if isinstance(value, bytes) and oid != pgtypes.BYTEA:
        return value
    return codecs.encoder(oid, False)(value)
