"""Text and binary codecs of PostgreSQL builtin types: Python values <-> wire bytes.

Output follows PostgreSQL's own output functions (``t``/``f``, ISO dates, ``+00`` offsets,
``1 day 02:00:00`` intervals in IntervalStyle postgres, ``{a,b}`` arrays with PostgreSQL's
quoting, shortest-exact floats with PostgreSQL's switch to exponent notation) because
psycopg, psycopg2 and psql parse exactly those forms.  Binary forms are PostgreSQL's
``*send``/``*recv`` layouts (jsonb carries its version byte 1), which asyncpg uses for every
column.

Python values: bool, int, float, decimal.Decimal, str, bytes, datetime.date/time/datetime,
``pgtypes.Interval`` (or datetime.timedelta), uuid.UUID, ``pgtypes.RegOid`` (or int) for
OID types, json as str (already serialized) or any JSON-able object, lists (nested for
multi-dimensional arrays) for arrays.  ``encoder(oid, binary)`` and ``decoder(oid, binary)``
pick the function once per column; a value that cannot be converted raises ``CodecError``.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from rwshim.common import pgtypes
from rwshim.wire.codec_base import (
    _I,
    CodecError,
    Decoder,
    Encoder,
    _d,
    _f,
    _h,
    _i,
    _q,
    _type_name,
)
from rwshim.wire.codec_binary import (
    _array_bin_of,
    _array_from_bin_of,
    _bool_bin,
    _bytes_bin,
    _char_bin,
    _date_bin,
    _date_from_bin,
    _fixed,
    _float4_bin,
    _float8_bin,
    _interval_bin,
    _interval_from_bin,
    _json_bin,
    _jsonb_bin,
    _jsonb_from_bin,
    _numeric_bin,
    _numeric_from_bin,
    _oid_bin,
    _packer,
    _time_bin,
    _time_from_bin,
    _timestamp_bin,
    _timestamp_from_bin,
    _timestamptz_bin,
    _timestamptz_from_bin,
    _timetz_bin,
    _timetz_from_bin,
    _uuid_bin,
)
from rwshim.wire.codec_rwtext import (
    array_from_text,
    bool_from_text,
    bytea_from_text,
    date_from_text,
    float_from_text,
    int_from_text,
    interval_from_text,
    jsonb_from_text,
    numeric_from_text,
    time_from_text,
    timestamp_from_text,
    timestamptz_from_text,
)
from rwshim.wire.codec_text import (
    _IV_UNITS,
    _array_text_of,
    _bool_text,
    _bytea_text,
    _char_parse,
    _char_text,
    _date_text,
    _float4_round,
    _float4_text,
    _float8_text,
    _int_text,
    _interval_parse,
    _interval_text,
    _json_parse,
    _json_text,
    _lsn_int,
    _lsn_text,
    _numeric_text,
    _oid_parse,
    _reg_text,
    _str_parse,
    _str_text,
    _time_text,
    _timestamp_text,
    _timestamptz_text_in,
    _timetz_parse,
    _timetz_text,
    _uuid_parse,
    _uuid_text,
    _vector_parse,
    _vector_text,
    _void_text,
    as_interval,
    interval_str,
    parse_interval,
)

# --- tables --------------------------------------------------------------------------------

_TEXT_OUT: dict[int, Encoder] = {
    16: _bool_text,
    17: _bytea_text,
    18: _char_text,
    20: _int_text,
    21: _int_text,
    22: _vector_text,
    23: _int_text,
    24: _reg_text,
    26: _int_text,
    28: _int_text,
    30: _vector_text,
    114: _json_text,
    700: _float4_text,
    701: _float8_text,
    1082: _date_text,
    1083: _time_text,
    1114: _timestamp_text,
    1186: _interval_text,
    1266: _timetz_text,
    1700: _numeric_text,
    2205: _reg_text,
    2206: _reg_text,
    2278: _void_text,
    3220: _lsn_text,
    2950: _uuid_text,
    3802: _json_text,
    4089: _reg_text,
}

_BIN_OUT: dict[int, Encoder] = {
    16: _bool_bin,
    17: _bytes_bin,
    18: _char_bin,
    19: _str_text,
    20: _packer(_q, "bigint"),
    21: _packer(_h, "smallint"),
    23: _packer(_i, "integer"),
    24: _oid_bin,
    25: _str_text,
    26: _oid_bin,
    28: _oid_bin,
    114: _json_bin,
    700: _float4_bin,
    701: _float8_bin,
    705: _str_text,
    1042: _str_text,
    1043: _str_text,
    1082: _date_bin,
    1083: _time_bin,
    1114: _timestamp_bin,
    1184: _timestamptz_bin,
    1186: _interval_bin,
    1266: _timetz_bin,
    1700: _numeric_bin,
    2205: _oid_bin,
    2206: _oid_bin,
    2950: _uuid_bin,
    3802: _jsonb_bin,
    4089: _oid_bin,
    2275: _str_text,
    1790: _str_text,
    194: _str_text,  # pg_node_tree sends its text
    2278: _void_text,
    3220: lambda v: _q.pack(_lsn_int(v)),
    # RisingWave's own types (src/common/src/types/num256.rs ToBinary: 32 bytes big-endian
    # two's complement; to_binary.rs: a vector as a float4 array)
    1301: lambda v: int(v).to_bytes(32, "big", signed=True),
    1305: lambda v: _array_bin_of(700, _float4_bin)(
        [float(x) for x in str(v).strip("[]").split(",") if x.strip()]
    ),
}

# Text parameters: RisingWave's types by RisingWave's ``from_text`` (codec_rwtext.py); the
# others (which RisingWave does not take as parameter types) by PostgreSQL's input functions.
_TEXT_IN: dict[int, Decoder] = {
    16: bool_from_text,
    17: bytea_from_text,
    18: _char_parse,
    20: int_from_text("bigint", 64),
    21: int_from_text("smallint", 16),
    22: _vector_parse,
    23: int_from_text("integer", 32),
    24: _oid_parse,
    26: _oid_parse,
    28: _oid_parse,
    30: _vector_parse,
    114: _json_parse,
    700: lambda b: _float4_round(float_from_text("real")(b)),
    701: float_from_text("double precision"),
    1082: date_from_text,
    1083: time_from_text,
    1114: timestamp_from_text,
    1184: timestamptz_from_text,
    1186: interval_from_text(_interval_parse, _IV_UNITS),
    1266: _timetz_parse,
    1700: numeric_from_text,
    2205: _oid_parse,
    2206: _oid_parse,
    2950: _uuid_parse,
    3802: jsonb_from_text,
    4089: _oid_parse,
}

_BIN_IN: dict[int, Decoder] = {
    16: _fixed(1, "boolean", lambda b: b != b"\x00"),
    17: bytes,
    18: lambda b: b.decode()[:1],
    19: _str_parse,
    20: _fixed(8, "bigint", lambda b: _q.unpack(b)[0]),
    21: _fixed(2, "smallint", lambda b: _h.unpack(b)[0]),
    23: _fixed(4, "integer", lambda b: _i.unpack(b)[0]),
    24: _fixed(4, "oid", lambda b: _I.unpack(b)[0]),
    25: _str_parse,
    26: _fixed(4, "oid", lambda b: _I.unpack(b)[0]),
    28: _fixed(4, "xid", lambda b: _I.unpack(b)[0]),
    114: _json_parse,
    700: _fixed(4, "real", lambda b: _f.unpack(b)[0]),
    701: _fixed(8, "double precision", lambda b: _d.unpack(b)[0]),
    705: _str_parse,
    1042: _str_parse,
    1043: _str_parse,
    1082: _fixed(4, "date", _date_from_bin),
    1083: _fixed(8, "time", _time_from_bin),
    1114: _fixed(8, "timestamp", _timestamp_from_bin),
    1184: _fixed(8, "timestamptz", _timestamptz_from_bin),
    1186: _fixed(16, "interval", _interval_from_bin),
    1266: _fixed(12, "timetz", _timetz_from_bin),
    1700: _numeric_from_bin,
    2205: _fixed(4, "oid", lambda b: _I.unpack(b)[0]),
    2206: _fixed(4, "oid", lambda b: _I.unpack(b)[0]),
    2950: _fixed(16, "uuid", lambda b: uuid.UUID(bytes=b)),
    3802: _jsonb_from_bin,
    4089: _fixed(4, "oid", lambda b: _I.unpack(b)[0]),
    2275: _str_parse,
    1790: _str_parse,
}

_UTC = dt.UTC
_TSTZ_UTC = _timestamptz_text_in(_UTC)


def _elem_oid(oid: int) -> int:
    t = pgtypes.BY_OID.get(oid)
    return t.elem_oid if t and t.elem_oid else 0


def encoder(oid: int, binary: bool = False, tz: dt.tzinfo | None = None) -> Encoder:
    """The function that renders a non-NULL value of type ``oid``.

    ``tz`` is the session time zone for timestamptz text output (UTC when None).
    """
    if binary:
        enc = _BIN_OUT.get(oid)
        if enc is not None:
            return enc
        elem = _elem_oid(oid)
        if elem:
            return _array_bin_of(elem, encoder(elem, True))
        if oid in (22, 30):  # int2vector / oidvector travel as arrays
            return _array_bin_of(21 if oid == 22 else 26, encoder(21 if oid == 22 else 26, True))
        name = _type_name(oid)
        # RisingWave sends a variant's Parquet Variant bytes (variant.rs ToBinary:
        # value_serialize); rwshim does not make them
        why = (
            "not supported by rwshim: the binary format of variant values"
            if oid == 1307
            else f"no binary output function available for type {name}"
        )

        def no_binary(_v: Any) -> bytes:
            raise CodecError(why, name)

        return no_binary
    if oid == 1184:
        return _TSTZ_UTC if tz is None or tz is _UTC else _timestamptz_text_in(tz)
    enc = _TEXT_OUT.get(oid)
    if enc is not None:
        return enc
    elem = _elem_oid(oid)
    if elem:
        return _array_text_of(encoder(elem, False, tz))
    return _str_text


def decoder(oid: int, binary: bool = False) -> Decoder:
    """The function that reads a non-NULL parameter of type ``oid`` (0 = unknown: text)."""
    if binary:
        dec = _BIN_IN.get(oid)
        if dec is not None:
            return dec
        elem = _elem_oid(oid)
        if elem:
            return _array_from_bin_of(elem, _binary_decoder)
        if oid in (22, 30):
            return _array_from_bin_of(21 if oid == 22 else 26, _binary_decoder)
        name = _type_name(oid)

        def no_binary(_b: bytes) -> Any:
            raise CodecError(f"no binary input function available for type {name}", name)

        return no_binary
    dec = _TEXT_IN.get(oid)
    if dec is not None:
        return dec
    elem = _elem_oid(oid)
    if elem:
        return array_from_text(decoder(elem, False))
    return _str_parse


# PostgreSQL's MAXDIM (src/include/utils/array.h): the most levels its array output holds.
PG_ARRAY_MAXDIM = 6


def output_decoder(oid: int) -> Decoder:
    """The reader of PostgreSQL's own text output of type ``oid`` (the data plane's results):
    as ``decoder``, except that an array column's text may hold up to ``PG_ARRAY_MAXDIM``
    levels (one OID serves every depth; a parameter is one level per OID)."""
    elem = _elem_oid(oid)
    if elem and oid not in _TEXT_IN:
        return array_from_text(decoder(elem, False), PG_ARRAY_MAXDIM)
    return decoder(oid, False)


def _binary_decoder(oid: int) -> Decoder:
    return decoder(oid, True)


__all__ = [
    "PG_ARRAY_MAXDIM",
    "CodecError",
    "Decoder",
    "Encoder",
    "array_from_text",
    "as_interval",
    "decoder",
    "encoder",
    "interval_str",
    "output_decoder",
    "parse_interval",
]
