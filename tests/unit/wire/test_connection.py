"""The sans-I/O connection: framing, the state table, limits and hostile input (no sockets)."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rwshim.wire import events as ev
from rwshim.wire.connection import NEED_DATA, ServerConnection, State
from tests import wirekit as fe


def drain(conn: ServerConnection) -> list[ev.Event]:
    out: list[ev.Event] = []
    while (e := conn.next_event()) is not NEED_DATA:
        out.append(e)
        if isinstance(e, ev.ConnectionClosed | ev.ProtocolError):
            break
    return out


def ready_conn() -> ServerConnection:
    conn = ServerConnection()
    conn.receive_data(fe.startup({"user": "root"}))
    assert isinstance(conn.next_event(), ev.StartupMessage)
    conn.authenticated()
    return conn


EXTENDED_BATCH = (
    fe.parse("s1", "select $1", [23])
    + fe.bind("p1", "s1", [b"\x00\x00\x00\x07", None], [1], [1, 0])
    + fe.describe("S", "s1")
    + fe.describe("P", "p1")
    + fe.execute("p1", 5)
    + fe.close("P", "p1")
    + fe.close("S", "s1")
    + fe.FLUSH
    + fe.SYNC
    + fe.query("select 'é'; select 2")
    + fe.TERMINATE
)
EXPECTED = [
    ev.Parse("s1", "select $1", (23,)),
    ev.Bind("p1", "s1", (1,), (b"\x00\x00\x00\x07", None), (1, 0)),
    ev.Describe("S", "s1"),
    ev.Describe("P", "p1"),
    ev.Execute("p1", 5),
    ev.Close("P", "p1"),
    ev.Close("S", "s1"),
    ev.Flush(),
    ev.Sync(),
    ev.Query("select 'é'; select 2"),
    ev.Terminate(),
]


def test_regular_messages_decode() -> None:
    conn = ready_conn()
    conn.receive_data(EXTENDED_BATCH)
    assert drain(conn) == EXPECTED
    assert conn.state is State.CLOSED


def test_every_message_fed_one_byte_at_a_time() -> None:
    conn = ServerConnection()
    data = fe.ssl_request()
    events: list[ev.Event] = []
    for i in range(len(data)):
        conn.receive_data(data[i : i + 1])
        events += drain(conn)
    assert events == [ev.SSLRequest()]
    conn.ssl_negotiated()
    data = fe.startup({"user": "u", "database": "d", "application_name": "psql"})
    for i in range(len(data)):
        conn.receive_data(data[i : i + 1])
        events += drain(conn)
    assert events[-1] == ev.StartupMessage(
        {"user": "u", "database": "d", "application_name": "psql"}
    )
    data = fe.password("secret")
    for i in range(len(data)):
        conn.receive_data(data[i : i + 1])
        events += drain(conn)
    assert events[-1] == ev.PasswordMessage(b"secret\x00")
    conn.authenticated()
    got: list[ev.Event] = []
    for i in range(len(EXTENDED_BATCH)):
        assert conn.state is not State.CLOSED or i == len(EXTENDED_BATCH)
        conn.receive_data(EXTENDED_BATCH[i : i + 1])
        got += drain(conn)
    assert got == EXPECTED


@given(st.lists(st.integers(min_value=1, max_value=40), max_size=30))
def test_any_chunking_gives_the_same_events(cuts: list[int]) -> None:
    conn = ready_conn()
    data = EXTENDED_BATCH
    got: list[ev.Event] = []
    pos = 0
    for n in cuts:
        if data[pos : pos + n]:  # b"" would mean end of input
            conn.receive_data(data[pos : pos + n])
            got += drain(conn)
        pos += n
    if data[pos:]:
        conn.receive_data(data[pos:])
        got += drain(conn)
    assert got == EXPECTED


def test_cancel_request_and_gssenc() -> None:
    conn = ServerConnection()
    conn.receive_data(fe.gssenc_request())
    assert drain(conn) == [ev.GSSENCRequest()]
    conn.ssl_negotiated()
    conn.receive_data(fe.ssl_request())
    assert drain(conn) == [ev.SSLRequest()]
    conn.ssl_negotiated()
    conn.receive_data(fe.cancel_request(7, -5))
    assert drain(conn) == [ev.CancelRequest(7, -5)]
    assert conn.state is State.CLOSED


def test_protocol_3_2_is_negotiated_down_with_unknown_options_listed() -> None:
    conn = ServerConnection()
    conn.receive_data(fe.startup({"user": "u", "_pq_.foo": "1"}, version=(3 << 16) | 2))
    assert drain(conn) == [ev.StartupMessage({"user": "u"}, 2, ("_pq_.foo",))]


@pytest.mark.parametrize(
    ("data", "sqlstate", "message"),
    [
        (
            fe.startup({"user": "u"}, version=(2 << 16)),
            "0A000",
            "Unsupported protocol number in start up msg 131072",
        ),
        (struct.pack("!ii", 8, 1234), "0A000", "Unsupported protocol number in start up msg 1234"),
        (struct.pack("!i", 3) + b"xxxx", "08P01", "invalid length of startup packet"),
        (
            struct.pack("!i", 1_000_000) + b"\x00\x03\x00\x00",
            "08P01",
            "invalid length of startup packet",
        ),
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "08P01", "invalid length of startup packet"),
        (
            struct.pack("!ii", 12, 196608) + b"user",
            "08P01",
            "invalid startup packet layout: expected terminator as last byte",
        ),
        (
            fe.ssl_request() + b"\x16\x03\x01",
            "08P01",
            "received unencrypted data after SSL request",
        ),
    ],
)
def test_hostile_startup_packets(data: bytes, sqlstate: str, message: str) -> None:
    conn = ServerConnection()
    conn.receive_data(data)
    events = drain(conn)
    assert events[-1] == ev.ProtocolError(sqlstate, message)
    assert conn.state is State.CLOSED
    assert conn.next_event() == ev.ConnectionClosed()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (fe.raw(b"Z", b""), "invalid frontend message type 90"),
        (b"Q\x00\x00\x00\x02", "invalid message length"),
        (fe.raw(b"Q", b"select 1"), "invalid string in message"),
        (fe.raw(b"Q", b"\xff\xfe\x00"), 'invalid byte sequence for encoding "UTF8"'),
        (fe.raw(b"P", b"s\x00select 1\x00\x00"), "insufficient data left in message"),
        (
            fe.raw(b"B", b"\x00\x00\x00\x00\x00\x01\x00\x00\x00\x09ab\x00\x00"),
            "insufficient data left in message",
        ),
        (fe.raw(b"E", b"\x00\x00\x00\x00\x00\x00"), "invalid message format"),
        (fe.raw(b"D", b"X\x00"), "invalid DESCRIBE message subtype 88"),
        (fe.raw(b"p", b"pw\x00"), "invalid frontend message type 112"),
        # Sync has a small limit: a big length prefix is refused before any body arrives.
        (b"S" + struct.pack("!i", 20_000), "invalid message length"),
    ],
)
def test_hostile_regular_frames(data: bytes, message: str) -> None:
    conn = ready_conn()
    conn.receive_data(data)
    assert drain(conn) == [ev.ProtocolError("08P01", message)]
    assert conn.state is State.CLOSED


def test_oversized_length_prefix_is_refused_before_the_body() -> None:
    conn = ServerConnection(max_message_size=1000)
    conn.receive_data(fe.startup({"user": "u"}))
    drain(conn)
    conn.authenticated()
    conn.receive_data(b"Q" + struct.pack("!i", 0x7FFFFFFF))  # only the header has arrived
    assert conn.next_event() == ev.ProtocolError("08P01", "invalid message length")
    # A message exactly at the limit is fine.
    conn = ServerConnection(max_message_size=1000)
    conn.receive_data(fe.startup({"user": "u"}))
    drain(conn)
    conn.authenticated()
    sql = "x" * 999
    conn.receive_data(fe.query(sql))
    assert conn.next_event() == ev.Query(sql)


def test_auth_state_accepts_only_password_messages() -> None:
    conn = ServerConnection()
    conn.receive_data(fe.startup({"user": "u"}))
    drain(conn)
    assert conn.state is State.AUTH
    conn.receive_data(fe.query("select 1"))
    assert drain(conn) == [
        ev.ProtocolError("08P01", "expected password response, got message type 81")
    ]


def test_error_in_extended_message_skips_until_sync() -> None:
    conn = ready_conn()
    conn.receive_data(fe.parse("", "bad") + fe.bind("", "") + fe.execute("") + fe.query("x"))
    assert conn.next_event() == ev.Parse("", "bad", ())
    conn.error_sent()  # the session answered Parse with an ErrorResponse
    assert conn.state is State.SKIP
    assert conn.next_event() is NEED_DATA  # Bind, Execute and Query were dropped
    conn.receive_data(fe.SYNC + fe.execute(""))
    assert conn.next_event() == ev.Sync()
    assert conn.state is State.READY
    assert conn.next_event() == ev.Execute("", 0)


def test_error_in_simple_query_does_not_skip() -> None:
    conn = ready_conn()
    conn.receive_data(fe.query("bad") + fe.query("good"))
    assert conn.next_event() == ev.Query("bad")
    conn.error_sent()
    assert conn.state is State.READY
    assert conn.next_event() == ev.Query("good")


def test_copy_messages_outside_copy_are_dropped_and_copy_in_flow() -> None:
    conn = ready_conn()
    conn.receive_data(fe.raw(b"d", b"1\t2\n") + fe.raw(b"c", b"") + fe.query("q"))
    assert drain(conn) == [ev.Query("q")]
    conn.copy_in_started()
    conn.receive_data(fe.raw(b"d", b"1\n") + fe.FLUSH + fe.raw(b"c", b"") + fe.SYNC)
    assert drain(conn) == [ev.CopyData(b"1\n"), ev.CopyDone(), ev.Sync()]
    conn.copy_in_started()
    conn.receive_data(fe.raw(b"f", b"boom\x00"))
    assert drain(conn) == [ev.CopyFail("boom")]
    assert conn.state is State.READY
    conn.copy_in_started()
    conn.receive_data(fe.query("q"))
    assert drain(conn) == [
        ev.ProtocolError("08P01", "unexpected message type 0x51 during COPY from stdin")
    ]


def test_end_of_input_mid_frame_is_connection_closed() -> None:
    conn = ready_conn()
    conn.receive_data(fe.query("select 1")[:6])
    assert conn.next_event() is NEED_DATA
    conn.receive_data(b"")
    assert conn.next_event() == ev.ConnectionClosed()


@given(st.binary(max_size=200))
def test_garbage_never_raises(data: bytes) -> None:
    conn = ServerConnection()
    conn.receive_data(data)
    for e in drain(conn):
        assert isinstance(e, ev.Event.__args__)  # type: ignore[attr-defined]
    conn = ready_conn()
    conn.receive_data(data)
    drain(conn)


def test_data_pipelined_after_ssl_request_is_refused_even_if_answered() -> None:
    conn = ServerConnection()
    conn.receive_data(fe.ssl_request() + fe.startup({"user": "u"}))
    assert conn.next_event() == ev.ProtocolError(
        "08P01", "received unencrypted data after SSL request"
    )
    conn = ServerConnection()
    conn.receive_data(fe.gssenc_request() + b"x")
    assert conn.next_event() == ev.ProtocolError(
        "08P01", "received unencrypted data after GSSAPI encryption request"
    )


_name = st.text(st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=20)
_message = st.one_of(
    st.builds(ev.Query, _name),
    st.builds(
        ev.Parse,
        _name,
        _name,
        st.lists(st.integers(0, 2**32 - 1), max_size=5).map(tuple),
    ),
    st.builds(
        ev.Bind,
        _name,
        _name,
        st.lists(st.sampled_from([0, 1]), max_size=4).map(tuple),
        st.lists(st.one_of(st.none(), st.binary(max_size=30)), max_size=5).map(tuple),
        st.lists(st.sampled_from([0, 1]), max_size=4).map(tuple),
    ),
    st.builds(ev.Describe, st.sampled_from(["S", "P"]), _name),
    st.builds(ev.Close, st.sampled_from(["S", "P"]), _name),
    st.builds(ev.Execute, _name, st.integers(0, 2**31 - 1)),
    st.just(ev.Sync()),
    st.just(ev.Flush()),
)


def _encode(m: ev.Event) -> bytes:
    if isinstance(m, ev.Query):
        return fe.query(m.sql)
    if isinstance(m, ev.Parse):
        return fe.parse(m.name, m.sql, [o - 2**32 if o >= 2**31 else o for o in m.param_oids])
    if isinstance(m, ev.Bind):
        return fe.bind(m.portal, m.statement, m.params, m.param_formats, m.result_formats)
    if isinstance(m, ev.Describe):
        return fe.describe(m.kind, m.name)
    if isinstance(m, ev.Close):
        return fe.close(m.kind, m.name)
    if isinstance(m, ev.Execute):
        return fe.execute(m.portal, m.max_rows)
    return fe.SYNC if isinstance(m, ev.Sync) else fe.FLUSH


@given(st.lists(_message, max_size=12), st.integers(1, 64))
def test_message_round_trip(messages: list[ev.Event], chunk: int) -> None:
    """Frontend messages encoded by an independent encoder decode to the same events,
    whatever the chunking."""
    conn = ready_conn()
    data = b"".join(_encode(m) for m in messages)
    got: list[ev.Event] = []
    for i in range(0, len(data), chunk):
        conn.receive_data(data[i : i + chunk])
        got += drain(conn)
    assert got == messages


def _limited(max_query_size: int) -> ServerConnection:
    conn = ServerConnection(max_message_size=1 << 20, max_query_size=max_query_size)
    conn.receive_data(fe.startup({"user": "u"}))
    drain(conn)
    conn.authenticated()
    return conn


def test_query_past_the_query_size_is_dropped_as_it_arrives() -> None:
    conn = _limited(100)
    big = fe.query("x" * 5000)
    # Any chunking: nothing of the body is kept, one TooLarge comes after its last byte.
    conn.receive_data(big[:7])
    assert conn.next_event() is None
    for i in range(7, len(big), 700):
        conn.receive_data(big[i : i + 700])
        assert conn.buffered == 0
    conn.receive_data(fe.query("SELECT 1") + fe.SYNC)
    assert drain(conn) == [ev.TooLarge(100, False), ev.Query("SELECT 1"), ev.Sync()]
    assert conn.state is State.READY


def test_parse_past_the_query_size_is_extended() -> None:
    conn = _limited(100)
    conn.receive_data(fe.parse("", "x" * 500) + fe.bind("", "") + fe.SYNC)
    assert conn.next_event() == ev.TooLarge(100, True)
    conn.error_sent()  # the session answered it: skip until Sync
    assert drain(conn) == [ev.Sync()]
    assert conn.state is State.READY


# --- exchanges answered whole (rwshim/server/shortcuts/exchanges.py) ------------------------------

EXCHANGE = fe.parse("", "SELECT 1") + fe.bind("", "") + fe.execute("") + fe.SYNC


def test_last_exchange_is_the_bytes_since_the_previous_sync_or_query() -> None:
    conn = ready_conn()
    conn.receive_data(fe.query("SELECT 2") + EXCHANGE + EXCHANGE)
    assert isinstance(conn.next_event(), ev.Query)
    for _ in range(2):
        events = [conn.next_event() for _ in range(4)]
        assert isinstance(events[-1], ev.Sync)
        assert conn.last_exchange() == EXCHANGE


def test_an_exchange_decoded_from_two_reads_has_no_bytes() -> None:
    conn = ready_conn()
    head = fe.parse("", "SELECT 1") + fe.bind("", "")
    conn.receive_data(head)
    assert [type(e) for e in drain(conn)] == [ev.Parse, ev.Bind]
    conn.receive_data(EXCHANGE[len(head) :])
    assert [type(e) for e in drain(conn)] == [ev.Execute, ev.Sync]
    assert conn.last_exchange() is None
    # a frame cut in two is carried into the next read's buffer: that exchange is whole
    conn.receive_data(EXCHANGE[:10])
    assert drain(conn) == []
    conn.receive_data(EXCHANGE[10:])
    assert [type(e) for e in drain(conn)][-1] is ev.Sync
    assert conn.last_exchange() == EXCHANGE


def test_an_exchange_after_skip_until_sync_starts_after_that_sync() -> None:
    conn = ready_conn()
    conn.receive_data(fe.parse("", "x") + fe.execute("") + fe.SYNC + EXCHANGE)
    assert isinstance(conn.next_event(), ev.Parse)
    conn.error_sent()  # the Parse failed: skip until Sync
    assert isinstance(conn.next_event(), ev.Sync)
    assert [type(e) for e in drain(conn)][-1] is ev.Sync
    assert conn.last_exchange() == EXCHANGE


def test_take_exact_consumes_only_the_same_bytes_in_ready() -> None:
    conn = ready_conn()
    conn.receive_data(EXCHANGE + fe.query("SELECT 3"))
    assert not conn.take_exact(EXCHANGE[:-1] + b"\x05")
    assert conn.take_exact(EXCHANGE)
    assert drain(conn) == [ev.Query("SELECT 3")]
    # skipping until Sync: nothing is taken whole
    conn.receive_data(fe.parse("", "x") + EXCHANGE)
    assert isinstance(conn.next_event(), ev.Parse)
    conn.error_sent()
    assert not conn.take_exact(EXCHANGE)
    assert [type(e) for e in drain(conn)] == [ev.Sync]


def test_take_read_only_with_nothing_pending_in_ready() -> None:
    """A whole read answered as a recorded exchange is consumed without being buffered: only
    when no byte, end of input or dropped message is pending and the connection is READY."""
    conn = ready_conn()
    assert conn.take_read() and conn.drained
    # the next exchange is decoded and recorded as usual
    conn.receive_data(EXCHANGE)
    assert [type(e) for e in drain(conn)][-1] is ev.Sync
    assert conn.last_exchange() == EXCHANGE
    assert conn.take_read()
    # a byte pending (a frame cut in two): not taken
    conn.receive_data(EXCHANGE[:3])
    assert not conn.take_read() and not conn.drained
    conn.receive_data(EXCHANGE[3:])
    assert [type(e) for e in drain(conn)][-1] is ev.Sync
    # skipping until Sync after an error: not taken
    conn.receive_data(fe.parse("", "x"))
    assert isinstance(conn.next_event(), ev.Parse)
    conn.error_sent()
    assert not conn.take_read()
    conn.receive_data(fe.SYNC)
    assert [type(e) for e in drain(conn)] == [ev.Sync]
    assert conn.take_read()
    # end of input: not taken (the session must see it close)
    conn.receive_data(b"")
    assert not conn.take_read() and not conn.drained
    assert drain(conn) == [ev.ConnectionClosed()]
