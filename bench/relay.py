"""The relay floor: a byte pipe in asyncio (`python bench/relay.py PORT UNIX_SOCKET`).

Every client connection gets its own connection to a PostgreSQL unix socket, and bytes are
copied both ways without being read: no message is split, decoded or re-encoded.  It is the
least any proxy in Python can do per query, on the same event loop rwshim uses (uvloop when
installed) and over the same kind of hop as rwshim's data plane (a unix socket), so
`rwshim / relay` says how much of a proxied query's cost is rwshim's own work, and
`relay / PostgreSQL` what one extra Python hop costs at all.  A benchmark aid only: it is no
part of rwshim.
"""

from __future__ import annotations

import asyncio
import sys
from typing import cast


class _Pipe(asyncio.Protocol):
    """One direction's receiving end: what arrives is written to the peer's transport."""

    def __init__(self) -> None:
        self.peer: asyncio.Transport | None = None
        self.transport: asyncio.Transport | None = None
        self.pending: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses; they have its methods
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        if self.peer is None:
            self.pending.append(data)
        else:
            self.peer.write(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.peer is not None:
            self.peer.close()


class _Client(_Pipe):
    def __init__(self, upstream: str) -> None:
        super().__init__()
        self.upstream = upstream

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        asyncio.get_running_loop().create_task(self._connect())

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            up_transport, up = await loop.create_unix_connection(_Pipe, self.upstream)
        except OSError:
            assert self.transport is not None
            self.transport.close()
            return
        assert self.transport is not None
        up.peer = self.transport
        self.peer = up_transport
        for chunk in self.pending:
            up_transport.write(chunk)
        self.pending.clear()


async def _serve(port: int, upstream: str) -> None:
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: _Client(upstream), "127.0.0.1", port)
    async with server:
        await server.serve_forever()


def main() -> None:
    port, upstream = int(sys.argv[1]), sys.argv[2]
    try:
        import uvloop

        uvloop.run(_serve(port, upstream))
    except ImportError:
        asyncio.run(_serve(port, upstream))


if __name__ == "__main__":
    main()
