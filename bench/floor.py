"""The floor: a canned-reply PostgreSQL-protocol server in asyncio (`python bench/floor.py PORT`).

It answers every query with the reply of `SELECT 1` (one int4 column, one row) without looking
at the query, in the simple and extended protocols, and accepts any start-up without a
password.  It does what no server can skip (read the socket, split messages, write a reply) on
the same event loop rwshim uses (uvloop when installed), so `rwshim / floor` says how much of
the per-query cost is rwshim's own work.  A benchmark aid only: it is no part of rwshim.
"""

from __future__ import annotations

import asyncio
import struct
import sys
from typing import cast


def _msg(tag: bytes, body: bytes = b"") -> bytes:
    return tag + struct.pack("!I", len(body) + 4) + body


def _param(name: str, value: str) -> bytes:
    return _msg(b"S", name.encode() + b"\0" + value.encode() + b"\0")


# int4 column "?column?" (table 0, attnum 0, type 23, size 4, typmod -1, text format).
ROW_DESCRIPTION = _msg(
    b"T", struct.pack("!H", 1) + b"?column?\0" + struct.pack("!IhIhih", 0, 0, 23, 4, -1, 0)
)
DATA_ROW = _msg(b"D", struct.pack("!HI", 1, 1) + b"1")
COMPLETE = _msg(b"C", b"SELECT 1\0")
READY = _msg(b"Z", b"I")
STARTUP_REPLY = (
    _msg(b"R", struct.pack("!I", 0))
    + _param("server_version", "13.14.0")
    + _param("client_encoding", "UTF8")
    + _param("DateStyle", "ISO, MDY")
    + _param("integer_datetimes", "on")
    + _param("standard_conforming_strings", "on")
    + _msg(b"K", struct.pack("!II", 1, 2))
    + READY
)
SIMPLE_REPLY = ROW_DESCRIPTION + DATA_ROW + COMPLETE + READY
REPLIES = {
    ord("P"): _msg(b"1"),  # Parse -> ParseComplete
    ord("B"): _msg(b"2"),  # Bind -> BindComplete
    ord("C"): _msg(b"3"),  # Close -> CloseComplete
    ord("E"): DATA_ROW + COMPLETE,  # Execute
    ord("S"): READY,  # Sync
    ord("H"): b"",  # Flush
}
SSL_REQUEST = 80877103


class Canned(asyncio.Protocol):
    """One connection: start-up, then canned replies, one write per batch of input."""

    def __init__(self) -> None:
        self.buf = bytearray()
        self.started = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        out: list[bytes] = []
        pos = 0
        while True:
            if not self.started:
                if len(buf) - pos < 8:
                    break
                (n,) = struct.unpack_from("!I", buf, pos)
                if len(buf) - pos < n:
                    break
                (code,) = struct.unpack_from("!I", buf, pos + 4)
                pos += n
                if code == SSL_REQUEST:
                    out.append(b"N")
                else:
                    self.started = True
                    out.append(STARTUP_REPLY)
                continue
            if len(buf) - pos < 5:
                break
            tag = buf[pos]
            (n,) = struct.unpack_from("!I", buf, pos + 1)
            if len(buf) - pos < n + 1:
                break
            if tag == ord("D"):  # Describe: a statement also gets its parameters
                kind = buf[pos + 5]
                if kind == ord("S"):
                    out.append(_msg(b"t", struct.pack("!H", 0)))
                out.append(ROW_DESCRIPTION)
            elif tag == ord("Q"):
                out.append(SIMPLE_REPLY)
            elif tag == ord("X"):
                assert self.transport is not None
                self.transport.close()
                return
            else:
                out.append(REPLIES.get(tag, b""))
            pos += n + 1
        del buf[:pos]
        if out:
            assert self.transport is not None
            self.transport.write(b"".join(out))


async def serve(port: int) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(Canned, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


def main() -> None:
    port = int(sys.argv[1])
    try:
        import uvloop
    except ImportError:
        asyncio.run(serve(port))
    else:
        uvloop.run(serve(port))


if __name__ == "__main__":
    main()
