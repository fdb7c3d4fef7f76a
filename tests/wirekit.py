"""Test helpers: build frontend messages as bytes, split backend bytes into messages.

Written independently of ``rwshim.wire`` (plain ``struct``), so the tests check the server's
codec against a second implementation of the protocol rather than against itself.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass


def _msg(tag: bytes, body: bytes) -> bytes:
    return tag + struct.pack("!i", len(body) + 4) + body


def _c(s: str) -> bytes:
    return s.encode() + b"\x00"


def startup(params: dict[str, str], version: int = 196608) -> bytes:
    body = struct.pack("!i", version) + b"".join(_c(k) + _c(v) for k, v in params.items()) + b"\0"
    return struct.pack("!i", len(body) + 4) + body


def ssl_request() -> bytes:
    return struct.pack("!ii", 8, 80877103)


def gssenc_request() -> bytes:
    return struct.pack("!ii", 8, 80877104)


def cancel_request(pid: int, key: int) -> bytes:
    return struct.pack("!iiii", 16, 80877102, pid, key)


def query(sql: str) -> bytes:
    return _msg(b"Q", _c(sql))


def parse(name: str, sql: str, oids: Sequence[int] = ()) -> bytes:
    return _msg(b"P", _c(name) + _c(sql) + struct.pack(f"!h{len(oids)}i", len(oids), *oids))


def bind(
    portal: str,
    stmt: str,
    params: Sequence[bytes | None] = (),
    param_formats: Sequence[int] = (),
    result_formats: Sequence[int] = (),
) -> bytes:
    body = _c(portal) + _c(stmt)
    body += struct.pack(f"!h{len(param_formats)}h", len(param_formats), *param_formats)
    body += struct.pack("!h", len(params))
    for p in params:
        body += struct.pack("!i", -1) if p is None else struct.pack("!i", len(p)) + p
    body += struct.pack(f"!h{len(result_formats)}h", len(result_formats), *result_formats)
    return _msg(b"B", body)


def describe(kind: str, name: str) -> bytes:
    return _msg(b"D", kind.encode() + _c(name))


def execute(portal: str, max_rows: int = 0) -> bytes:
    return _msg(b"E", _c(portal) + struct.pack("!i", max_rows))


def close(kind: str, name: str) -> bytes:
    return _msg(b"C", kind.encode() + _c(name))


def password(pw: str) -> bytes:
    return _msg(b"p", _c(pw))


def sasl_initial(mechanism: str, data: bytes) -> bytes:
    return _msg(b"p", _c(mechanism) + struct.pack("!i", len(data)) + data)


def sasl_response(data: bytes) -> bytes:
    return _msg(b"p", data)


SYNC = _msg(b"S", b"")
FLUSH = _msg(b"H", b"")
TERMINATE = _msg(b"X", b"")


def raw(tag: bytes, body: bytes) -> bytes:
    return _msg(tag, body)


@dataclass
class Msg:
    tag: str
    body: bytes

    def fields(self) -> dict[str, str]:
        """ErrorResponse / NoticeResponse fields."""
        out: dict[str, str] = {}
        pos = 0
        while self.body[pos] != 0:
            code = chr(self.body[pos])
            end = self.body.index(b"\0", pos + 1)
            out[code] = self.body[pos + 1 : end].decode()
            pos = end + 1
        return out

    def text(self) -> str:
        """CommandComplete tag."""
        return self.body.rstrip(b"\0").decode()

    def row(self) -> list[bytes | None]:
        (n,) = struct.unpack_from("!h", self.body)
        pos = 2
        out: list[bytes | None] = []
        for _ in range(n):
            (ln,) = struct.unpack_from("!i", self.body, pos)
            pos += 4
            if ln < 0:
                out.append(None)
            else:
                out.append(self.body[pos : pos + ln])
                pos += ln
        return out

    def columns(self) -> list[tuple[str, int, int, int, int, int, int]]:
        """RowDescription: (name, table oid, attnum, type oid, size, typmod, format)."""
        (n,) = struct.unpack_from("!h", self.body)
        pos = 2
        out = []
        for _ in range(n):
            end = self.body.index(b"\0", pos)
            name = self.body[pos:end].decode()
            vals = struct.unpack_from("!ihihih", self.body, end + 1)
            out.append((name, *vals))
            pos = end + 1 + 18
        return out

    def param_oids(self) -> list[int]:
        (n,) = struct.unpack_from("!h", self.body)
        return list(struct.unpack_from(f"!{n}i", self.body, 2))

    def parameter(self) -> tuple[str, str]:
        name, value, _ = self.body.split(b"\0")
        return name.decode(), value.decode()


def split(data: bytes) -> list[Msg]:
    """Backend bytes -> messages (asserts the stream ends on a message boundary)."""
    out = []
    pos = 0
    while pos < len(data):
        tag = chr(data[pos])
        (ln,) = struct.unpack_from("!i", data, pos + 1)
        out.append(Msg(tag, data[pos + 5 : pos + 1 + ln]))
        pos += 1 + ln
    assert pos == len(data), "trailing partial message"
    return out


def tags(msgs: Sequence[Msg]) -> str:
    return "".join(m.tag for m in msgs)
