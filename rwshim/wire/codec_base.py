"""Shared pieces of the type codecs: the error class, function types, struct packers and
PostgreSQL's epoch constants."""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import Callable
from typing import Any

from rwshim.common import pgtypes

Encoder = Callable[[Any], bytes]
Decoder = Callable[[bytes], Any]


class CodecError(ValueError):
    """A value that cannot be encoded, or bytes that cannot be decoded, for a type.

    ``type_name`` is the PostgreSQL type name; ``text`` the offending input (for decoding).
    """

    def __init__(self, message: str, type_name: str = "", text: str = "") -> None:
        super().__init__(message)
        self.type_name = type_name
        self.text = text


_h = struct.Struct("!h")
_i = struct.Struct("!i")
_I = struct.Struct("!I")
_q = struct.Struct("!q")
_f = struct.Struct("!f")
_d = struct.Struct("!d")
_qii = struct.Struct("!qii")
_qi = struct.Struct("!qi")

PG_EPOCH_DATE = dt.date(2000, 1, 1)
PG_EPOCH_ORDINAL = PG_EPOCH_DATE.toordinal()
PG_EPOCH = dt.datetime(2000, 1, 1)
PG_EPOCH_TZ = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
USECS_PER_DAY = 86_400_000_000
USECS_PER_HOUR = 3_600_000_000
USECS_PER_MINUTE = 60_000_000
USECS_PER_SEC = 1_000_000


def _type_name(oid: int) -> str:
    t = pgtypes.BY_OID.get(oid)
    return t.display if t else str(oid)
