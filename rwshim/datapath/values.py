"""Values between the data plane and the wire: PostgreSQL's text output decoded into the Python
values rwshim's wire codecs render (the one place that renders values is ``rwshim.wire``), and
parameters encoded into the text PostgreSQL's input functions read.

The decoders are the wire layer's own text parsers (the ones that read clients' parameters), so
a value read from PostgreSQL renders exactly as a value rwshim computed would.  A few are
lighter here because PostgreSQL's output needs no checking (JSON text is kept as written).

Registering: ``register_decoder(oid, fn)`` for a RisingWave-only type's PostgreSQL text (struct
as a composite, map, rw_int256...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rwshim import pgtypes
from rwshim.wire import codecs

Decoder = Callable[[bytes], Any]


def _text(b: bytes) -> str:
    return b.decode()


_DECODERS: dict[int, Decoder] = {
    pgtypes.JSONB: _text,
    pgtypes.JSON: _text,
    pgtypes.VARCHAR: _text,
    pgtypes.TEXT: _text,
}
_cache: dict[int, Decoder] = {}


def register_decoder(oid: int, fn: Decoder) -> None:
    _DECODERS[oid] = fn
    _cache.clear()


def decoder(oid: int) -> Decoder:
    """The decoder of PostgreSQL's text output for a column of (RisingWave) type ``oid``."""
    found = _cache.get(oid)
    if found is None:
        found = _DECODERS.get(oid) or codecs.decoder(oid, False)
        _cache[oid] = found
    return found


def encode_param(value: object, oid: int) -> bytes | None:
    """A parameter value (decoded from the wire by its OID) as PostgreSQL's input text."""
    if value is None:
        return None
    if isinstance(value, bytes) and oid != pgtypes.BYTEA:
        return value
    return codecs.encoder(oid, False)(value)
