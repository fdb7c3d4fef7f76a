"""Hostile input for the fuzz suites: hypothesis strategies of frontend byte streams, and
a sans-I/O driver that runs a real ``ServerConnection`` + ``Session`` + ``Frontend`` over a
real ``Instance`` the way ``server.py`` does (used by the tests and the atheris harness)."""

from __future__ import annotations

import asyncio
import struct
from dataclasses import dataclass, field

from hypothesis import strategies as hs

from rwshim.frontend import Frontend
from rwshim.instance import Instance
from rwshim.server.session import ProcessInfo, Session
from rwshim.wire import events as ev
from rwshim.wire.connection import ServerConnection
from tests import wirekit as fe
from tests.wirekit import Msg

# Statements a fuzzed message may carry: cheap ones of every kind the extended and simple
# protocols treat differently (rows, no rows, errors, parameters, transactions, DDL).
SQL = [
    "select 1",
    "select $1::int + 1",
    "select $1, $2",
    "select * from fz",
    "insert into fz values ($1)",
    "insert into fz values (1), (2)",
    "create table if not exists fz (a int)",
    "drop table if exists fz",
    "begin",
    "commit",
    "rollback",
    "show search_path",
    "set search_path to public",
    "select 1; select 2",
    "select broken from",
    "",
    ";",
    "copy fz from stdin",
    "select generate_series(1, 50)",
]

names = hs.sampled_from(["", "s1", "p1", "x"]) | hs.text(max_size=4)
int16 = hs.integers(-(2**15), 2**15 - 1)
int32 = hs.integers(-(2**31), 2**31 - 1)
oids = hs.lists(hs.sampled_from([0, 23, 25, 1043]) | int32, max_size=3)
sql = hs.sampled_from(SQL) | hs.text(max_size=40)
param = hs.none() | hs.binary(max_size=8) | hs.sampled_from([b"1", b"42", b"\x00\x00\x00\x01"])


@hs.composite
def _bind(draw: hs.DrawFn) -> bytes:
    return fe.bind(
        draw(names),
        draw(names),
        draw(hs.lists(param, max_size=3)),
        draw(hs.lists(hs.sampled_from([0, 1]) | int16, max_size=3)),
        draw(hs.lists(hs.sampled_from([0, 1]) | int16, max_size=3)),
    )


@hs.composite
def _header(draw: hs.DrawFn) -> bytes:
    """A bare header with any length: negative, tiny, huge (no body follows)."""
    return draw(hs.sampled_from(b"QPBDECSHXdcfpZ")).to_bytes(1, "big") + struct.pack(
        "!i", draw(int32)
    )


well_formed = hs.one_of(
    sql.map(fe.query),
    hs.builds(fe.parse, names, sql, oids),
    _bind(),
    hs.builds(fe.describe, hs.sampled_from("SP") | hs.text(max_size=1), names),
    hs.builds(fe.execute, names, int32),
    hs.builds(fe.close, hs.sampled_from("SP") | hs.text(max_size=1), names),
    hs.just(fe.SYNC),
    hs.just(fe.FLUSH),
    hs.builds(fe.raw, hs.just(b"d"), hs.binary(max_size=16)),
    hs.just(fe.raw(b"c", b"")),
    hs.builds(fe.raw, hs.just(b"f"), hs.binary(max_size=8).map(lambda b: b + b"\x00")),
)

malformed = hs.one_of(
    hs.builds(fe.raw, hs.binary(min_size=1, max_size=1), hs.binary(max_size=24)),
    _header(),
    hs.binary(max_size=24),
)


@hs.composite
def frame(draw: hs.DrawFn) -> bytes:
    msg = draw(hs.one_of(well_formed, well_formed, well_formed, malformed))
    if draw(hs.integers(0, 9)) == 0:  # truncated
        msg = msg[: draw(hs.integers(0, max(len(msg) - 1, 0)))]
    return msg


streams = hs.lists(frame(), min_size=1, max_size=10)

startup_garbage = hs.one_of(
    hs.binary(max_size=40),
    hs.builds(lambda n, rest: struct.pack("!i", n) + rest, int32, hs.binary(max_size=16)),
    hs.builds(
        lambda code, rest: struct.pack("!ii", 8 + len(rest), code) + rest,
        hs.sampled_from([80877103, 80877104, 80877102, 196608, 196610, 131072]) | int32,
        hs.binary(max_size=16),
    ),
    hs.dictionaries(hs.text(max_size=6), hs.text(max_size=6), max_size=3).map(fe.startup),
)


def split_msgs(data: bytes) -> list[Msg]:
    return fe.split(data)


@dataclass
class Outcome:
    """What one sans-I/O connection did with a stream."""

    out: bytearray = field(default_factory=bytearray)
    fatal: ev.ProtocolError | None = None
    closed: bool = False
    events: int = 0


class Driver:
    """One logged-in connection over ``instance``, driven like ``ClientProtocol.serve``."""

    def __init__(self, instance: Instance, max_message_size: int = 1 << 16) -> None:
        self.instance = instance
        self.conn = ServerConnection(max_message_size)
        self.conn.receive_data(fe.startup({"user": "root", "database": "dev"}))
        assert isinstance(self.conn.next_event(), ev.StartupMessage)
        self.conn.authenticated()  # trust: what ClientProtocol._login does next
        process = ProcessInfo(1, 1, "root", "dev", "fuzz")
        self.session = Session(self.conn, Frontend(instance, "root", "dev", {}, process), process)
        self.result = Outcome()

    async def feed(self, chunks: list[bytes], eof: bool = False) -> Outcome:
        r = self.result
        for chunk in [*chunks, b""] if eof else chunks:
            if r.closed:
                break
            self.conn.receive_data(chunk)
            while not r.closed:
                event = self.conn.next_event()
                if event is None:
                    break
                r.events += 1
                if isinstance(event, ev.ProtocolError):
                    r.fatal = event
                    r.closed = True
                    break
                keep = self.session.handle_nowait(event)
                if keep is None:
                    # A statement may wait for barriers: the "barrier loop" ticks meanwhile.
                    # The limit only catches a hang: on a loaded 2-core machine one statement
                    # took over 20 s once, and the shared instance then kept a lock of the
                    # ended event loop, failing the next example for the wrong reason.
                    keep = await asyncio.wait_for(self._with_barriers(event), 120)
                r.out += self.session.take_output()
                if not keep:
                    r.closed = True
        r.out += self.session.take_output()
        return r

    async def _with_barriers(self, event: ev.Event) -> bool:
        task = asyncio.ensure_future(self.session.handle(event))
        while not task.done():
            self.instance.tick()
            await asyncio.sleep(0.001)
        return task.result()

    def close(self) -> None:
        self.session.close()
