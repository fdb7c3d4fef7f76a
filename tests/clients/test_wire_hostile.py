"""Raw sockets against a real server: the startup sequence byte for byte, hostile frames,
and that a bad client never disturbs the others."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable

import asyncpg
import pytest

from tests import wirekit as fe
from tests.conftest import Running
from tests.wirekit import Msg, split, tags


class Raw:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, server: Running) -> Raw:
        return cls(*await asyncio.open_connection(server.host, server.port))

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def until(self, tag: str) -> list[Msg]:
        """Read messages up to and including the first with ``tag``."""
        msgs: list[Msg] = []
        while not msgs or msgs[-1].tag != tag:
            head = await asyncio.wait_for(self.reader.readexactly(5), 5)
            (n,) = struct.unpack("!i", head[1:])
            body = await asyncio.wait_for(self.reader.readexactly(n - 4), 5)
            msgs.append(split(head + body)[0])
        return msgs

    async def closed(self) -> bool:
        return await asyncio.wait_for(self.reader.read(1), 5) == b""

    async def login(self, **params: str) -> list[Msg]:
        await self.send(fe.startup({"user": "root", "database": "dev", **params}))
        return await self.until("Z")

    def close(self) -> None:
        self.writer.close()


async def test_startup_sequence(rw_server: Running) -> None:
    c = await Raw.open(rw_server)
    await c.send(fe.ssl_request())
    assert await c.reader.readexactly(1) == b"N"
    msgs = await c.login(application_name="probe", client_encoding="'utf-8'")
    assert tags(msgs) == "RK" + "S" * 11 + "Z"
    assert msgs[0].body == b"\x00\x00\x00\x00"
    params = dict(m.parameter() for m in msgs if m.tag == "S")
    assert params == {
        "application_name": "probe",
        "client_encoding": "UTF8",
        "DateStyle": "ISO, MDY",
        "integer_datetimes": "on",
        "IntervalStyle": "postgres",
        "is_superuser": "on",
        "server_encoding": "UTF8",
        "server_version": "13.14.0",
        "session_authorization": "root",
        "standard_conforming_strings": "on",
        "TimeZone": "UTC",
    }
    pid, key = struct.unpack("!ii", msgs[1].body)
    (proc,) = rw_server.server.registry.processes()
    assert (proc.pid, proc.key, proc.application_name) == (pid, key, "probe")
    await c.send(fe.TERMINATE)
    assert await c.closed()


async def test_gssenc_then_ssl_then_startup(rw_server: Running) -> None:
    c = await Raw.open(rw_server)
    await c.send(fe.gssenc_request())
    assert await c.reader.readexactly(1) == b"N"
    await c.send(fe.ssl_request())
    assert await c.reader.readexactly(1) == b"N"
    assert (await c.login())[-1].body == b"I"
    c.close()


async def test_protocol_3_2_gets_negotiate_protocol_version(rw_server: Running) -> None:
    c = await Raw.open(rw_server)
    await c.send(fe.startup({"user": "root", "_pq_.x": "1"}, version=(3 << 16) | 2))
    msgs = await c.until("Z")
    assert msgs[0].tag == "v"
    assert msgs[0].body == struct.pack("!ii", 0, 1) + b"_pq_.x\x00"
    await c.send(fe.query("select 1"))
    assert tags(await c.until("Z")) == "TDCZ"
    c.close()


async def test_cancel_request_connection_is_closed_without_reply(rw_server: Running) -> None:
    c = await Raw.open(rw_server)
    pid, key = struct.unpack("!ii", (await c.login())[1].body)
    await c.send(fe.query("select pg_sleep(20)"))
    await asyncio.sleep(0.1)
    x = await Raw.open(rw_server)
    await x.send(fe.ssl_request())
    assert await x.reader.readexactly(1) == b"N"
    await x.send(fe.cancel_request(pid, key))
    assert await x.closed()
    msgs = await c.until("Z")
    assert tags(msgs) == "EZ"
    assert msgs[0].fields() == {
        "S": "ERROR",
        "C": "57014",
        "M": "canceling statement due to user request",
    }
    c.close()


HOSTILE = [
    (
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40,
        "invalid length of startup packet",
    ),
    (struct.pack("!i", 0x7FFFFFFF), "invalid length of startup packet"),
    (struct.pack("!ii", 8, 131072), "Unsupported protocol number in start up msg 131072"),
    (b"GET / HTTP/1.1\r\n\r\n", "invalid length of startup packet"),
]


@pytest.mark.parametrize(("data", "message"), HOSTILE)
async def test_garbage_before_startup(rw_server: Running, data: bytes, message: str) -> None:
    good = await Raw.open(rw_server)
    await good.login()
    bad = await Raw.open(rw_server)
    await bad.send(data)
    (err,) = await bad.until("E")
    assert err.fields()["S"] == "FATAL" and err.fields()["M"] == message
    assert await bad.closed()
    await good.send(fe.query("select 1"))
    assert tags(await good.until("Z")) == "TDCZ"
    good.close()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (fe.raw(b"Z", b"hello"), "invalid frontend message type 90"),
        (b"Q" + struct.pack("!i", 2**31 - 1), "invalid message length"),
        (fe.raw(b"Q", b"no terminator"), "invalid string in message"),
        (fe.raw(b"B", b"\x00\x00\x00\x01"), "insufficient data left in message"),
    ],
)
async def test_hostile_frames_after_login(rw_server: Running, data: bytes, message: str) -> None:
    good = await Raw.open(rw_server)
    await good.login()
    bad = await Raw.open(rw_server)
    await bad.login()
    await bad.send(data)
    (err,) = await bad.until("E")
    assert err.fields() == {"S": "FATAL", "C": "08P01", "M": message}
    assert await bad.closed()
    await good.send(fe.query("select 1"))
    assert tags(await good.until("Z")) == "TDCZ"
    assert len(rw_server.server.registry) == 1
    good.close()


async def test_truncated_frame_then_disconnect(rw_server: Running) -> None:
    bad = await Raw.open(rw_server)
    await bad.login()
    await bad.send(fe.query("select 1")[:7])
    bad.close()
    await asyncio.sleep(0.1)
    assert len(rw_server.server.registry) == 0
    conn = await asyncpg.connect(
        host=rw_server.host, port=rw_server.port, user="root", database="dev"
    )
    assert await conn.fetchval("select 1") == 1
    await conn.close()


async def test_oversized_message_limit(rw_server_factory: Callable[..., object]) -> None:
    server: Running = await rw_server_factory(max_message_size=100)  # type: ignore[misc]
    c = await Raw.open(server)
    await c.login()
    await c.send(fe.query("select '" + "x" * 200 + "'"))
    (err,) = await c.until("E")
    assert err.fields() == {"S": "FATAL", "C": "08P01", "M": "invalid message length"}
    assert await c.closed()


async def test_unknown_database_is_refused_at_startup(rw_server: Running) -> None:
    c = await Raw.open(rw_server)
    await c.send(fe.startup({"user": "root", "database": "nope"}))
    msgs = await c.until("E")
    # the session is connected (database, role, LOGIN, CONNECT) before authentication, so the
    # refusal comes first and alone (pg_protocol.rs:737-740)
    assert tags(msgs) == "E"
    assert msgs[0].fields() == {
        "S": "FATAL",
        "C": "3D000",
        "M": "Failed to start a new session: Catalog error: database not found: nope",
    }
    assert await c.closed()
    c = await Raw.open(rw_server)
    msgs = await c.login(options="-c search_path=s1 --application-name=x", application_name="app")
    assert msgs[-1].tag == "Z"
    c.close()


async def test_bad_startup_options(rw_server: Running) -> None:
    c = await Raw.open(rw_server)
    await c.send(fe.startup({"user": "root", "options": "-c novalue"}))
    (err,) = await c.until("E")
    assert err.fields() == {
        "S": "FATAL",
        "C": "XX000",
        "M": "Failed to start a new session: invalid config format: novalue",
    }


async def test_max_connections(rw_server_factory: Callable[..., object]) -> None:
    server: Running = await rw_server_factory(max_connections=1)  # type: ignore[misc]
    a = await Raw.open(server)
    await a.login()
    b = await Raw.open(server)
    await b.send(fe.startup({"user": "root"}))
    (err,) = await b.until("E")
    assert err.fields() == {"S": "FATAL", "C": "53300", "M": "sorry, too many clients already"}
    a.close()


async def test_stop_terminates_sessions(rw_server_factory: Callable[..., object]) -> None:
    server: Running = await rw_server_factory()  # type: ignore[misc]
    c = await Raw.open(server)
    await c.login()
    await c.send(fe.query("select pg_sleep(20)"))
    await asyncio.sleep(0.1)
    await asyncio.wait_for(server.server.stop(), 5)
    (err,) = await c.until("E")
    assert err.fields() == {
        "S": "FATAL",
        "C": "57P01",
        "M": "terminating connection due to administrator command",
    }


async def test_startup_timeout_closes_silent_clients(
    rw_server_factory: Callable[..., object],
) -> None:
    server: Running = await rw_server_factory(startup_timeout=0.2)  # type: ignore[misc]
    c = await Raw.open(server)
    await c.send(struct.pack("!i", 100))  # a length prefix, then nothing
    assert await c.closed()
    c = await Raw.open(server)
    assert (await c.login())[-1].tag == "Z"  # the timeout covers startup only
    await asyncio.sleep(0.3)
    await c.send(fe.query("select 1"))
    assert tags(await c.until("Z")) == "TDCZ"
    c.close()
