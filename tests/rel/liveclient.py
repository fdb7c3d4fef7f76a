"""A blocking raw-protocol client for the live-server suites: simple queries, whole
backend messages, CancelRequest when a statement outlasts its budget."""

from __future__ import annotations

import contextlib
import socket
import struct

from tests import wirekit as fe
from tests.conftest import Running
from tests.wirekit import Msg


class Client:
    def __init__(self, server: Running, user: str = "root", timeout: float = 10) -> None:
        self.server = server
        self.sock = socket.create_connection((server.host, server.port), timeout=timeout)
        self.buf = b""
        self.sock.sendall(fe.startup({"user": user, "database": "dev"}))
        msgs = self.until("Z")
        keys = [m for m in msgs if m.tag == "K"]
        assert keys, fe.tags(msgs)
        self.pid, self.key = struct.unpack("!ii", keys[0].body)

    def read_msg(self) -> Msg | None:
        while True:
            if len(self.buf) >= 5:
                (n,) = struct.unpack_from("!i", self.buf, 1)
                if len(self.buf) >= n + 1:
                    msg = fe.split(self.buf[: n + 1])[0]
                    self.buf = self.buf[n + 1 :]
                    return msg
            try:
                data = self.sock.recv(65536)
            except ConnectionResetError:
                data = b""
            if not data:
                assert self.buf == b"", "connection closed inside a message"
                return None
            self.buf += data

    def until(self, tag: str) -> list[Msg]:
        msgs: list[Msg] = []
        while True:
            m = self.read_msg()
            if m is None:
                return msgs
            msgs.append(m)
            if m.tag == tag:
                return msgs

    def cancel(self) -> None:
        s = socket.create_connection((self.server.host, self.server.port), timeout=5)
        s.sendall(fe.cancel_request(self.pid, self.key))
        s.recv(1)
        s.close()

    def run(self, sql: str, budget: float = 5.0) -> tuple[list[Msg], bool]:
        """Send one simple query; returns its messages up to ReadyForQuery and whether it had
        to be cancelled after ``budget`` seconds (a statement RisingWave would also block on,
        e.g. a foreground CREATE with its backfill rate limit at 0)."""
        self.sock.sendall(fe.query(sql))
        self.sock.settimeout(budget)
        try:
            return self.until("Z"), False
        except TimeoutError:
            self.sock.settimeout(10)
            self.cancel()
            return self.until("Z"), True
        finally:
            self.sock.settimeout(10)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.sendall(fe.TERMINATE)
        self.sock.close()


def errors(msgs: list[Msg]) -> list[dict[str, str]]:
    return [m.fields() for m in msgs if m.tag == "E"]
