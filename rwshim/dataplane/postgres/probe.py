"""A minimal PostgreSQL client for the supervisor: a startup handshake over the unix socket
(trust authentication), kept open as a sentinel.

No driver is imported for this (psycopg alone costs 120-170 ms to import): readiness is "a
startup completes with ReadyForQuery", and a crash anywhere in the server ends the idle
sentinel's session.  The postmaster answers a crash of any backend by ending every session;
a backend that is still alive says so first (SQLSTATE 57P02, ``terminating connection
because of crash of another server process``), the crashed one says nothing.  A session
ended on purpose (``pg_terminate_backend``, shutdown) gets a FATAL with another SQLSTATE.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from dataclasses import dataclass

PROTOCOL_3_0 = 196608
CRASH_SHUTDOWN = "57P02"
CANNOT_CONNECT_NOW = "57P03"  # starting up, shutting down, in recovery


class ProbeRefused(Exception):
    """The server answered the startup with an error (or asked for a password)."""

    def __init__(self, sqlstate: str, message: str) -> None:
        super().__init__(f"{message} (SQLSTATE {sqlstate})")
        self.sqlstate = sqlstate
        self.message = message


@dataclass
class Ended:
    """How a sentinel's session ended: the last error or notice the server sent, if any."""

    sqlstate: str | None
    message: str | None

    @property
    def crash(self) -> bool:
        """A crash: the server said so, or the backend vanished without a word."""
        return self.sqlstate is None or self.sqlstate == CRASH_SHUTDOWN


def _fields(body: bytes) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in body.split(b"\0"):
        if part:
            out[chr(part[0])] = part[1:].decode(errors="replace")
    return out


async def _message(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    head = await reader.readexactly(5)
    kind, length = head[:1], struct.unpack("!i", head[1:])[0]
    return kind, await reader.readexactly(length - 4)


class Sentinel:
    """One idle session; ``ended()`` returns when the server ends it."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        parameters: dict[str, str],
        backend_pid: int,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self.parameters = parameters
        self.backend_pid = backend_pid

    @classmethod
    async def connect(
        cls, socket_path: str, user: str, dbname: str, application_name: str
    ) -> Sentinel:
        """Connect and complete the startup; ``ProbeRefused`` or ``OSError`` when the server
        is not (yet) accepting sessions."""
        reader, writer = await asyncio.open_unix_connection(socket_path)
        try:
            params = b"".join(
                k.encode() + b"\0" + v.encode() + b"\0"
                for k, v in (
                    ("user", user),
                    ("database", dbname),
                    ("application_name", application_name),
                )
            )
            body = struct.pack("!i", PROTOCOL_3_0) + params + b"\0"
            writer.write(struct.pack("!i", len(body) + 4) + body)
            parameters: dict[str, str] = {}
            backend_pid = 0
            while True:
                kind, payload = await _message(reader)
                if kind == b"R":
                    code = struct.unpack("!i", payload[:4])[0]
                    if code != 0:
                        raise ProbeRefused("28000", "the server asks for a password")
                elif kind == b"S":
                    name, value, _ = payload.split(b"\0", 2)
                    parameters[name.decode()] = value.decode(errors="replace")
                elif kind == b"K":
                    backend_pid = struct.unpack("!i", payload[:4])[0]
                elif kind == b"E":
                    f = _fields(payload)
                    raise ProbeRefused(f.get("C", "XX000"), f.get("M", "startup failed"))
                elif kind == b"Z":
                    return cls(reader, writer, parameters, backend_pid)
        except asyncio.IncompleteReadError as e:
            writer.close()
            raise ConnectionResetError("the server closed the connection during startup") from e
        except BaseException:
            writer.close()
            raise

    async def ended(self) -> Ended:
        """Wait until the server ends the session."""
        last: dict[str, str] = {}
        try:
            while True:
                kind, payload = await _message(self._reader)
                if kind in (b"E", b"N"):
                    last = _fields(payload)
        except (asyncio.IncompleteReadError, OSError):
            pass
        self.close()
        return Ended(last.get("C"), last.get("M"))

    def close(self) -> None:
        if not self._writer.is_closing():
            with contextlib.suppress(OSError, RuntimeError):
                self._writer.write(b"X\0\0\0\4")  # Terminate
            self._writer.close()
