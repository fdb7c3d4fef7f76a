"""Protocol fuzzing: arbitrary, truncated, oversized and out-of-order frames against the
sans-I/O connection + session (real Frontend over a real Instance) and against a live
server.  Every stream ends in FATAL 08P01 and close, or in normal replies after which the
connection still answers; nothing raises, no task leaks, the other connections carry on."""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import struct
import time
import tracemalloc
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as hs

from rwshim.instance import Instance
from rwshim.wire import events as ev
from rwshim.wire.connection import ServerConnection
from tests import wirekit as fe
from tests.conftest import ThreadRunning
from tests.rel import fuzzkit
from tests.rel.leaks import internal_text
from tests.rel.liveclient import Client
from tests.wirekit import Msg

BACKEND_TAGS = set("RKSZTDCEINn123stGHcdvAW")
# PostgreSQL's texts for a broken frame (src/backend/tcop/postgres.c, pqcomm.c) as
# rwshim.wire.connection gives them.
FATAL_TEXTS = re.compile(
    r"invalid message length|invalid string in message|insufficient data left in message"
    r"|invalid message format|invalid frontend message type -?\d+"
    r'|invalid byte sequence for encoding "UTF8"|invalid (DESCRIBE|CLOSE) message subtype \d+'
    r"|unexpected message type 0x[0-9A-F]{2} during COPY from stdin"
    r"|insufficient data left in message|invalid message format"
)
LEAKS = ("Traceback", "sqlite", "internal error", "no such table", 'near "')
COUNTS = {"sans_io_frames": 0, "live_frames": 0}

_instance: Instance | None = None


def _shared_instance() -> Instance:
    # One cluster for all examples, as one server serves all its connections.
    global _instance
    if _instance is None:
        _instance = Instance(manual_clock=True)
    return _instance


def _check_output(msgs: list[Msg]) -> None:
    for m in msgs:
        assert m.tag in BACKEND_TAGS, m
        if m.tag in "EN":
            text = " ".join(m.fields().values())
            assert not any(leak in text for leak in LEAKS), text
            assert internal_text(text) is None, text


RECOVER = fe.raw(b"f", b"fuzz\x00") + fe.SYNC + fe.query("rollback") + fe.query("select 1")


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stream=fuzzkit.streams, cuts=hs.lists(hs.integers(0, 400), max_size=4))
def test_sans_io_streams_end_in_fatal_or_a_working_connection(
    stream: list[bytes], cuts: list[int]
) -> None:
    data = b"".join(stream)
    COUNTS["sans_io_frames"] += len(stream)
    points = sorted({c for c in cuts if 0 < c < len(data)})
    chunks = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    driver = fuzzkit.Driver(_shared_instance())
    try:
        r = asyncio.run(driver.feed(chunks))
        msgs = fe.split(bytes(r.out))
        _check_output(msgs)
        event("fatal" if r.fatal else "closed" if r.closed else "open")
        if r.fatal is not None:
            assert r.fatal.sqlstate == "08P01"
            assert FATAL_TEXTS.fullmatch(r.fatal.message), r.fatal.message
            return
        if r.closed:  # Terminate
            return
        # A misaligned frame may swallow the first RECOVER's Sync (the connection then still
        # skips until Sync, as PostgreSQL does): a client resending it gets back in step.
        for _ in range(3):
            before = len(r.out)
            r = asyncio.run(driver.feed([RECOVER]))
            if r.fatal is not None:
                # A truncated frame swallowed the start of RECOVER: still a framing error.
                assert FATAL_TEXTS.fullmatch(r.fatal.message), r.fatal.message
                return
            tail = fe.split(bytes(r.out[before:]))
            _check_output(tail)
            if fe.tags(tail).endswith("TDCZ"):
                break
        else:
            # RECOVER keeps feeding one long frame still arriving: the client's end of
            # input must close the connection cleanly.
            assert driver.conn.buffered
            r = asyncio.run(driver.feed([], eof=True))
            assert r.closed and r.fatal is None
            return
        assert tail[-3].row() == [b"1"]
        event("recovered")
    finally:
        driver.close()


@given(stream=fuzzkit.startup_garbage)
@settings(max_examples=300, deadline=None)
def test_startup_garbage_is_an_event_or_a_violation(stream: bytes) -> None:
    conn = ServerConnection()
    conn.receive_data(stream)
    conn.receive_data(b"")
    for _ in range(5):
        event = conn.next_event()
        assert event is not None  # end of input was given: never "need more"
        if isinstance(event, ev.ProtocolError):
            assert event.sqlstate in ("08P01", "0A000")
            break
        if isinstance(event, ev.StartupMessage | ev.CancelRequest | ev.ConnectionClosed):
            break
        assert isinstance(event, ev.SSLRequest | ev.GSSENCRequest)


@given(length=hs.integers(2**16 + 5, 2**31 - 1), tag=hs.sampled_from(b"QPBdp"))
@settings(max_examples=100, deadline=None)
def test_oversized_length_refused_from_the_header_alone(length: int, tag: int) -> None:
    conn = ServerConnection(max_message_size=2**16)
    conn.receive_data(fe.startup({"user": "root"}))
    assert isinstance(conn.next_event(), ev.StartupMessage)
    if tag != ord("p"):
        conn.authenticated()
    conn.receive_data(bytes([tag]) + struct.pack("!i", length))
    event = conn.next_event()
    assert isinstance(event, ev.ProtocolError), event
    assert (event.sqlstate, event.message) == ("08P01", "invalid message length")
    assert conn.buffered == 0


def test_a_large_declared_length_allocates_nothing_until_the_body_arrives() -> None:
    conn = ServerConnection()  # 64 MiB limit
    conn.receive_data(fe.startup({"user": "root"}))
    conn.next_event()
    conn.authenticated()
    tracemalloc.start()
    try:
        conn.receive_data(b"Q" + struct.pack("!i", 60 * 1024 * 1024))
        for _ in range(100):
            assert conn.next_event() is None
            conn.receive_data(b"x" * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # 100 KiB arrived; the 60 MiB the header announced were never reserved.
    assert peak < 2 * 1024 * 1024, peak
    assert conn.buffered == 5 + 100 * 1024


# --- live server ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def live() -> Iterator[ThreadRunning]:
    from tests.conftest import ThreadServer, _config

    config, factory = _config({"max_message_size": 1 << 16})
    ts = ThreadServer(config, factory)
    yield ThreadRunning(ts.server, ts.server.host, ts.server.port, ts)
    ts.stop()


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(stream=fuzzkit.streams)
def test_live_server_survives_fuzzed_connections(
    live: ThreadRunning, stream: list[bytes], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="rwshim")
    COUNTS["live_frames"] += len(stream)
    c = Client(live)
    try:
        # The sentinel ends with a query whose answer we wait for; a closed socket is the
        # other allowed ending (after a FATAL ErrorResponse).
        c.sock.sendall(b"".join(stream) + RECOVER + fe.query("select 'sentinel'"))
        # End of input: a frame left incomplete by the stream ends there (no waiting).
        c.sock.shutdown(socket.SHUT_WR)
        msgs: list[Msg] = []
        while True:
            m = c.read_msg()
            if m is None:
                fatal = [x for x in msgs if x.tag == "E" and x.fields()["S"] == "FATAL"]
                if fatal:
                    assert fatal[-1] is msgs[-1]
                    assert fatal[-1].fields()["C"] == "08P01"
                    assert FATAL_TEXTS.fullmatch(fatal[-1].fields()["M"])
                # else: closed at end of input inside a frame, or on a Terminate
                break
            msgs.append(m)
            _check_output([m])
            if m.tag == "D" and m.row() == [b"sentinel"]:
                assert fe.tags(c.until("Z"))[-1] == "Z"
                break
    except TimeoutError:
        pytest.fail("the server neither answered nor closed")
    finally:
        c.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def test_live_server_after_fuzzing_has_no_leaked_tasks(live: ThreadRunning) -> None:
    # Runs after the fuzz test in this module: every fuzzed connection is gone, and the idle
    # bystander holds no task (an idle connection is served by its callbacks).
    bystander = Client(live)
    assert live.thread is not None

    def counts() -> tuple[int, int, int]:
        clients = live.server._clients
        return len(live.server.registry), len(clients), sum(c.task is not None for c in clients)

    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        n = live.thread.call(counts)
        if n == (1, 1, 0):
            break
        time.sleep(0.05)
    assert n == (1, 1, 0)
    bystander.sock.sendall(fe.query("select 1"))
    msgs = bystander.until("Z")
    assert fe.tags(msgs) == "TDCZ"
    bystander.close()
