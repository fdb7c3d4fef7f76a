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

import re
from collections.abc import Callable
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
    pgtypes.JSONB: _text,
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
