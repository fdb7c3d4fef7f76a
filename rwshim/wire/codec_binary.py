"""Binary forms of PostgreSQL builtin types: PostgreSQL's ``*send``/``*recv`` layouts (what
asyncpg asks for on every column; jsonb carries its version byte 1)."""

from __future__ import annotations

import datetime as dt
import math
import struct
import uuid
from collections.abc import Callable
from decimal import Context, Decimal
from typing import Any

from rwshim.common.pgtypes import Interval
from rwshim.wire.codec_base import (
    _I,
    PG_EPOCH,
    PG_EPOCH_ORDINAL,
    PG_EPOCH_TZ,
    USECS_PER_DAY,
    USECS_PER_HOUR,
    USECS_PER_MINUTE,
    USECS_PER_SEC,
    CodecError,
    Decoder,
    Encoder,
    _d,
    _f,
    _i,
    _q,
    _qi,
    _qii,
)
from rwshim.wire.codec_text import (
    _char_text,
    _float4_round,
    _json_parse,
    _json_str,
    _td_usecs,
    as_interval,
)

# --- binary output -------------------------------------------------------------------------


def _bool_bin(v: Any) -> bytes:
    return b"\x01" if v else b"\x00"


def _packer(s: struct.Struct, name: str) -> Encoder:
    pack = s.pack

    def enc(v: Any) -> bytes:
        try:
            return pack(v)
        except struct.error:
            raise CodecError(f"{name} out of range", name) from None

    return enc


def _oid_bin(v: Any) -> bytes:
    try:
        return _I.pack(int(v))
    except struct.error:
        raise CodecError("OID out of range", "oid") from None


def _float4_bin(v: Any) -> bytes:
    return _f.pack(_float4_round(float(v)))


def _float8_bin(v: Any) -> bytes:
    return _d.pack(float(v))


_NUMERIC_NAN = struct.pack("!hhHh", 0, 0, 0xC000, 0)
_NUMERIC_PINF = struct.pack("!hhHh", 0, 0, 0xD000, 0)
_NUMERIC_NINF = struct.pack("!hhHh", 0, 0, 0xF000, 0)


def _numeric_bin(v: Any) -> bytes:
    if isinstance(v, bool):
        v = int(v)
    if isinstance(v, float):
        if v != v:
            return _NUMERIC_NAN
        if math.isinf(v):
            return _NUMERIC_PINF if v > 0 else _NUMERIC_NINF
        v = Decimal(repr(v))
    d = v if isinstance(v, Decimal) else Decimal(v)
    if d.is_nan():
        return _NUMERIC_NAN
    if d.is_infinite():
        return _NUMERIC_NINF if d < 0 else _NUMERIC_PINF
    sign, digits, exp = d.as_tuple()
    exp = int(exp)
    dscale = max(0, -exp)
    ds = "".join(map(str, digits))
    if exp >= 0:
        ipart, fpart = ds + "0" * exp, ""
    elif len(ds) > -exp:
        ipart, fpart = ds[:exp], ds[exp:]
    else:
        ipart, fpart = "", ds.rjust(-exp, "0")
    ipart = ipart.lstrip("0")
    ipart = ipart.rjust((len(ipart) + 3) // 4 * 4, "0")
    fpart = fpart.ljust((len(fpart) + 3) // 4 * 4, "0")
    groups = [int(ipart[i : i + 4]) for i in range(0, len(ipart), 4)]
    groups += [int(fpart[i : i + 4]) for i in range(0, len(fpart), 4)]
    weight = len(ipart) // 4 - 1
    start = 0
    while start < len(groups) and groups[start] == 0:
        start += 1
        weight -= 1
    groups = groups[start:]
    while groups and groups[-1] == 0:
        groups.pop()
    if not groups:
        weight = 0
    flag = 0x4000 if sign and groups else 0
    head = struct.pack("!hhHh", len(groups), weight, flag, dscale)
    return head + struct.pack(f"!{len(groups)}H", *groups)


def _bytes_bin(v: Any) -> bytes:
    return bytes(v)


def _date_bin(v: Any) -> bytes:
    if v == dt.date.max:
        return _i.pack(0x7FFFFFFF)
    if v == dt.date.min:
        return _i.pack(-0x80000000)
    return _i.pack(v.toordinal() - PG_EPOCH_ORDINAL)


def _time_usecs(t: dt.time) -> int:
    return ((t.hour * 60 + t.minute) * 60 + t.second) * USECS_PER_SEC + t.microsecond


def _time_bin(v: Any) -> bytes:
    if isinstance(v, dt.timedelta):
        return _q.pack(_td_usecs(v))
    return _q.pack(_time_usecs(v))


def _timetz_bin(v: Any) -> bytes:
    off = v.utcoffset()
    secs = int(off.total_seconds()) if off is not None else 0
    return _qi.pack(_time_usecs(v), -secs)


def _timestamp_bin(v: Any) -> bytes:
    if not isinstance(v, dt.datetime):
        v = dt.datetime(v.year, v.month, v.day)
    if v.tzinfo is not None:
        v = v.replace(tzinfo=None)
    return _q.pack(_td_usecs(v - PG_EPOCH))


def _timestamptz_bin(v: Any) -> bytes:
    if not isinstance(v, dt.datetime):
        v = dt.datetime(v.year, v.month, v.day)
    if v.tzinfo is None:
        v = v.replace(tzinfo=dt.UTC)
    return _q.pack(_td_usecs(v - PG_EPOCH_TZ))


def _interval_bin(v: Any) -> bytes:
    iv = as_interval(v)
    return _qii.pack(iv.microseconds, iv.days, iv.months)


def _json_bin(v: Any) -> bytes:
    return _json_str(v).encode()


def _jsonb_bin(v: Any) -> bytes:
    return b"\x01" + _json_str(v).encode()


def _uuid_bin(v: Any) -> bytes:
    return (v if isinstance(v, uuid.UUID) else uuid.UUID(str(v))).bytes


def _char_bin(v: Any) -> bytes:
    return _char_text(v)


def _array_shape(v: Any) -> list[int]:
    dims: list[int] = []
    cur = v
    while isinstance(cur, list | tuple):
        dims.append(len(cur))
        if not cur:
            break
        cur = cur[0]
    return dims


def _array_bin_of(elem_oid: int, elem: Encoder) -> Encoder:
    def enc(v: Any) -> bytes:
        dims = _array_shape(v)
        if not dims or dims[0] == 0:
            return struct.pack("!iii", 0, 0, elem_oid)
        parts: list[bytes] = []
        has_null = False

        def walk(x: Any, depth: int) -> None:
            nonlocal has_null
            if depth < len(dims):
                if not isinstance(x, list | tuple) or len(x) != dims[depth]:
                    raise CodecError(
                        "multidimensional arrays must have array expressions with matching "
                        "dimensions",
                        "array",
                    )
                for y in x:
                    walk(y, depth + 1)
            elif x is None:
                has_null = True
                parts.append(b"\xff\xff\xff\xff")
            else:
                b = elem(x)
                parts.append(_i.pack(len(b)))
                parts.append(b)

        walk(v, 0)
        head = struct.pack("!iii", len(dims), 1 if has_null else 0, elem_oid)
        head += b"".join(struct.pack("!ii", n, 1) for n in dims)
        return head + b"".join(parts)

    return enc


# --- binary input --------------------------------------------------------------------------


def _fixed(size: int, name: str, unpack: Callable[[bytes], Any]) -> Decoder:
    def dec(b: bytes) -> Any:
        if len(b) != size:
            raise CodecError("incorrect binary data format in bind parameter", name)
        return unpack(b)

    return dec


def _numeric_from_bin(b: bytes) -> Decimal:
    if len(b) < 8:
        raise CodecError("insufficient data left in message", "numeric")
    ndigits, weight, sign, dscale = struct.unpack_from("!hhHh", b)
    if sign == 0xC000:
        return Decimal("NaN")
    if sign == 0xD000:
        return Decimal("Infinity")
    if sign == 0xF000:
        return Decimal("-Infinity")
    if len(b) != 8 + 2 * ndigits or ndigits < 0:
        raise CodecError("insufficient data left in message", "numeric")
    groups = struct.unpack_from(f"!{ndigits}H", b, 8)
    n = int("".join(f"{g:04d}" for g in groups) or "0")
    ctx = Context(prec=(max(ndigits, weight + 1) + 1) * 4 + max(dscale, 0) + 10)
    d = Decimal(n).scaleb((weight - ndigits + 1) * 4, context=ctx)
    d = d.quantize(Decimal(1).scaleb(-dscale), context=ctx)
    return d.copy_negate() if sign == 0x4000 else d


def _date_from_bin(b: bytes) -> dt.date:
    (days,) = _i.unpack(b)
    if days == 0x7FFFFFFF:
        return dt.date.max
    if days == -0x80000000:
        return dt.date.min
    try:
        return dt.date.fromordinal(days + PG_EPOCH_ORDINAL)
    except (ValueError, OverflowError):
        raise CodecError("date out of range", "date") from None


def _usecs_time(us: int) -> dt.time:
    if not 0 <= us <= USECS_PER_DAY:
        raise CodecError("time out of range", "time")
    if us == USECS_PER_DAY:
        return dt.time(23, 59, 59, 999999)
    h, rem = divmod(us, USECS_PER_HOUR)
    m, rem = divmod(rem, USECS_PER_MINUTE)
    s, us = divmod(rem, USECS_PER_SEC)
    return dt.time(h, m, s, us)


def _time_from_bin(b: bytes) -> dt.time:
    (us,) = _q.unpack(b)
    return _usecs_time(us)


def _timetz_from_bin(b: bytes) -> dt.time:
    us, zone = _qi.unpack(b)
    return _usecs_time(us).replace(tzinfo=dt.timezone(dt.timedelta(seconds=-zone)))


def _timestamp_from_bin(b: bytes) -> dt.datetime:
    (us,) = _q.unpack(b)
    if us == 0x7FFFFFFFFFFFFFFF:
        return dt.datetime.max
    if us == -0x8000000000000000:
        return dt.datetime.min
    try:
        return PG_EPOCH + dt.timedelta(microseconds=us)
    except OverflowError:
        raise CodecError("timestamp out of range", "timestamp") from None


def _timestamptz_from_bin(b: bytes) -> dt.datetime:
    v = _timestamp_from_bin(b)
    return v.replace(tzinfo=dt.UTC)


def _interval_from_bin(b: bytes) -> Interval:
    us, days, months = _qii.unpack(b)
    return Interval(months, days, us)


def _jsonb_from_bin(b: bytes) -> str:
    if not b or b[0] != 1:
        raise CodecError("unsupported jsonb version number", "jsonb")
    return _json_parse(b[1:])


def _array_from_bin_of(elem_oid: int, lookup: Callable[[int], Decoder]) -> Decoder:
    """Binary array input; ``lookup`` gives the element decoder of the OID in the payload."""

    def dec(b: bytes) -> list[Any]:
        try:
            ndim, _flags, oid = struct.unpack_from("!iii", b)
            if ndim < 0 or ndim > 6:
                raise CodecError("invalid number of dimensions", "array")
            if ndim == 0:
                return []
            dims = [struct.unpack_from("!ii", b, 12 + 8 * i)[0] for i in range(ndim)]
            pos = 12 + 8 * ndim
            edec = lookup(oid or elem_oid)

            def build(depth: int) -> list[Any]:
                nonlocal pos
                out: list[Any] = []
                for _ in range(dims[depth]):
                    if depth + 1 < ndim:
                        out.append(build(depth + 1))
                        continue
                    (ln,) = _i.unpack_from(b, pos)
                    pos += 4
                    if ln == -1:
                        out.append(None)
                    else:
                        if ln < 0 or pos + ln > len(b):
                            raise CodecError("insufficient data left in message", "array")
                        out.append(edec(b[pos : pos + ln]))
                        pos += ln
                return out

            result = build(0)
        except struct.error:
            raise CodecError("insufficient data left in message", "array") from None
        if pos != len(b):
            raise CodecError("incorrect binary data format in bind parameter", "array")
        return result

    return dec
