"""Backend messages: encoders that turn what the server says into bytes (protocol v3).

Constant messages are prebuilt once; the rest are small functions over ``struct``.  The
layouts follow PostgreSQL's protocol-message-formats page, and the field choices follow
RisingWave's ``src/utils/pgwire/src/pg_message.rs`` (ErrorResponse/NoticeResponse carry only
S, C and M: ``write_err_or_notice`` at :882-896).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

_I = struct.Struct("!i")
_HDR = struct.Struct("!ci")
_II = struct.Struct("!ii")
_FIELD = struct.Struct("!ihihih")
_H = struct.Struct("!h")

# Single-byte answers to SSLRequest / GSSENCRequest.
SSL_YES = b"S"
SSL_NO = b"N"

AUTH_OK = b"R\x00\x00\x00\x08\x00\x00\x00\x00"
AUTH_CLEARTEXT = b"R\x00\x00\x00\x08\x00\x00\x00\x03"
PARSE_COMPLETE = b"1\x00\x00\x00\x04"
BIND_COMPLETE = b"2\x00\x00\x00\x04"
CLOSE_COMPLETE = b"3\x00\x00\x00\x04"
NO_DATA = b"n\x00\x00\x00\x04"
PORTAL_SUSPENDED = b"s\x00\x00\x00\x04"
EMPTY_QUERY = b"I\x00\x00\x00\x04"
COPY_DONE = b"c\x00\x00\x00\x04"
READY = {
    "I": b"Z\x00\x00\x00\x05I",
    "T": b"Z\x00\x00\x00\x05T",
    "E": b"Z\x00\x00\x00\x05E",
}


def message(tag: bytes, body: bytes) -> bytes:
    """Frame ``body`` as a typed message (tag, int32 length including itself, body)."""
    return tag + _I.pack(len(body) + 4) + body


def cstr(s: str) -> bytes:
    """A protocol String: UTF-8 and a NUL terminator (NULs inside are dropped, they cannot
    travel in a C string)."""
    b = s.encode()
    if b"\x00" in b:
        b = b.replace(b"\x00", b"")
    return b + b"\x00"


def auth_md5(salt: bytes) -> bytes:
    return message(b"R", _I.pack(5) + salt)


def auth_sasl(mechanisms: Sequence[str]) -> bytes:
    return message(b"R", _I.pack(10) + b"".join(cstr(m) for m in mechanisms) + b"\x00")


def auth_sasl_continue(data: bytes) -> bytes:
    return message(b"R", _I.pack(11) + data)


def auth_sasl_final(data: bytes) -> bytes:
    return message(b"R", _I.pack(12) + data)


def backend_key_data(pid: int, key: int) -> bytes:
    return message(b"K", _II.pack(pid, key))


def parameter_status(name: str, value: str) -> bytes:
    return message(b"S", cstr(name) + cstr(value))


def negotiate_protocol_version(newest_minor: int, unrecognized: Sequence[str]) -> bytes:
    body = _II.pack(newest_minor, len(unrecognized)) + b"".join(cstr(o) for o in unrecognized)
    return message(b"v", body)


def ready_for_query(status: str) -> bytes:
    return READY.get(status) or message(b"Z", status.encode()[:1])


def command_complete(tag: str) -> bytes:
    return message(b"C", cstr(tag))


def error_or_notice(tag: bytes, severity: str, sqlstate: str, text: str) -> bytes:
    """ErrorResponse ('E') or NoticeResponse ('N') with exactly the S, C and M fields."""
    body = b"S" + cstr(severity) + b"C" + cstr(sqlstate) + b"M" + cstr(text) + b"\x00"
    return message(tag, body)


def error_response(severity: str, sqlstate: str, text: str) -> bytes:
    return error_or_notice(b"E", severity, sqlstate, text)


def notice_response(text: str) -> bytes:
    """A RisingWave notice: severity NOTICE, SQLSTATE 00000 (error_or_notice.rs:56-63)."""
    return error_or_notice(b"N", "NOTICE", "00000", text)


def parameter_description(oids: Sequence[int]) -> bytes:
    return message(b"t", _H.pack(len(oids)) + b"".join(_I.pack(o) for o in oids))


def row_description(
    fields: Sequence[tuple[str, int, int, int]], formats: Sequence[int] | None = None
) -> bytes:
    """RowDescription from (name, type oid, type size, type modifier) per column.

    Table OID and attribute number are 0, as RisingWave sends them.  ``formats`` holds one
    format code per column (None = all text).
    """
    parts = [_H.pack(len(fields))]
    for i, (name, oid, size, typmod) in enumerate(fields):
        fmt = formats[i] if formats else 0
        parts.append(cstr(name) + _FIELD.pack(0, 0, oid, size, typmod, fmt))
    return message(b"T", b"".join(parts))


def data_row(values: Sequence[bytes | None]) -> bytes:
    parts = [_H.pack(len(values))]
    for v in values:
        if v is None:
            parts.append(b"\xff\xff\xff\xff")
        else:
            parts.append(_I.pack(len(v)))
            parts.append(v)
    body = b"".join(parts)
    return b"D" + _I.pack(len(body) + 4) + body


def copy_out_response(ncols: int) -> bytes:
    return message(b"H", b"\x00" + _H.pack(ncols) + _H.pack(0) * ncols)


def copy_data(data: bytes) -> bytes:
    return message(b"d", data)
