"""Extended-protocol exchanges answered whole from their bytes
(rwshim/server/shortcuts/exchanges.py), over a
real server and a raw-protocol client: a repeated exchange gets the first time's reply, and
whatever a message between two repeats changed (a suspended portal, a portal bound from the
statement, the transaction status, the statement log) is seen as if every message had been
run again.  Each test first checks that the exchange was recorded, so it fails if recording
stops, and then that the answer is right, so it fails if the replay ignores what changed."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator

import pytest

from rwshim.server.session import Session
from tests import wirekit as fe
from tests.conftest import ThreadRunning
from tests.rel.liveclient import Client
from tests.wirekit import Msg

SYNC = fe.raw(b"S", b"")
# pgbench -M extended / PQsendQueryParams: Parse, Bind, Describe portal, Execute, Sync
EXTENDED = fe.parse("", "SELECT 1") + fe.bind("", "") + fe.describe("P", "") + fe.execute("") + SYNC
# pgbench -M prepared / PQsendQueryPrepared of a statement prepared once
PREPARED = fe.bind("", "s1") + fe.describe("P", "") + fe.execute("") + SYNC


def _send(client: Client, data: bytes) -> list[Msg]:
    client.sock.sendall(data)
    return client.until("Z")


def _shape(msgs: list[Msg]) -> list[tuple[str, bytes]]:
    return [(m.tag, m.body) for m in msgs]


def _recorded(server: ThreadRunning, pid: int) -> list[bytes]:
    """The bytes of the exchanges the session of backend ``pid`` has recorded."""

    def read() -> list[bytes]:
        session = server.server.registry.get(pid)
        assert isinstance(session, Session)
        return [entry[0] for entry in session.exchanges.entries]

    got = server.call(read)
    assert isinstance(got, list)
    return got


def _record(server: ThreadRunning, client: Client, data: bytes) -> list[Msg]:
    """Send the exchange ``data`` twice (the first run keeps its answers, the second records
    it); the second reply, once the exchange is seen recorded."""
    _send(client, data)
    reply = _send(client, data)
    assert data in _recorded(server, client.pid)
    return reply


@pytest.fixture
def client(rw_thread_server: ThreadRunning) -> Iterator[Client]:
    c = Client(rw_thread_server)
    yield c
    c.close()


def test_a_repeated_exchange_gets_the_first_reply(
    rw_thread_server: ThreadRunning, client: Client
) -> None:
    first = _send(client, EXTENDED)
    assert fe.tags(first) == "12TDCZ"
    assert first[3].row() == [b"1"]
    again = [_send(client, EXTENDED) for _ in range(4)]
    assert _recorded(rw_thread_server, client.pid) == [EXTENDED]
    assert [_shape(r) for r in again] == [_shape(first)] * 4
    # a prepared statement's Bind / Describe / Execute / Sync, text and binary results
    assert fe.tags(_send(client, fe.parse("s1", "SELECT 1") + SYNC)) == "1Z"
    binary = fe.bind("", "s1", result_formats=[1]) + fe.describe("P", "") + fe.execute("")
    binary += SYNC
    answers = [_send(client, data) for data in (PREPARED, binary) * 3]
    assert PREPARED in _recorded(rw_thread_server, client.pid)
    assert binary in _recorded(rw_thread_server, client.pid)
    assert [m.row() for r in answers for m in r if m.tag == "D"] == [
        [b"1"],
        [b"\x00\x00\x00\x01"],
    ] * 3


def test_a_portal_suspended_between_repeats_is_bound_anew(
    rw_thread_server: ThreadRunning, client: Client
) -> None:
    _record(rw_thread_server, client, EXTENDED)
    assert _recorded(rw_thread_server, client.pid) == [EXTENDED]
    # a row-limited Execute leaves the unnamed portal suspended (its row is sent)
    assert fe.tags(_send(client, fe.execute("", 1) + SYNC)) == "DsZ"
    # the exchange again binds a fresh portal: its Execute runs the statement again
    assert fe.tags(_send(client, EXTENDED)) == "12TDCZ"
    msgs = _send(client, fe.execute("") + SYNC)
    assert fe.tags(msgs) == "DCZ"
    assert msgs[1].text() == "SELECT 1"


def test_a_portal_bound_from_the_statement_between_repeats_survives(
    rw_thread_server: ThreadRunning, client: Client
) -> None:
    _record(rw_thread_server, client, EXTENDED)
    assert _recorded(rw_thread_server, client.pid) == [EXTENDED]
    # portal p2 is bound from the unnamed statement the exchange left
    assert fe.tags(_send(client, fe.bind("p2", "") + SYNC)) == "2Z"
    # the exchange again parses a new unnamed statement: closing that one leaves p2 alone
    assert fe.tags(_send(client, EXTENDED)) == "12TDCZ"
    assert fe.tags(_send(client, fe.close("S", "") + SYNC)) == "3Z"
    msgs = _send(client, fe.execute("p2") + SYNC)
    assert fe.tags(msgs) == "DCZ", [m.fields() for m in msgs if m.tag == "E"]
    assert msgs[0].row() == [b"1"]


def test_the_reply_carries_the_transaction_status_of_its_time(
    rw_thread_server: ThreadRunning, client: Client
) -> None:
    assert _send(client, EXTENDED)[-1].body == b"I"
    assert _record(rw_thread_server, client, EXTENDED)[-1].body == b"I"
    assert _recorded(rw_thread_server, client.pid) == [EXTENDED]
    # RisingWave's transactions are read-only ones (a plain BEGIN stays idle, with a notice)
    assert _send(client, fe.query("BEGIN READ ONLY"))[-1].body == b"T"
    assert [_send(client, EXTENDED)[-1].body for _ in range(2)] == [b"T", b"T"]
    assert _send(client, fe.query("COMMIT"))[-1].body == b"I"
    assert _send(client, EXTENDED)[-1].body == b"I"


def test_an_exchange_with_an_error_or_a_named_parse_is_not_recorded(
    rw_thread_server: ThreadRunning, client: Client
) -> None:
    # a format code RisingWave refuses at Bind: the error every time, then skip until Sync
    bad = fe.parse("", "SELECT 1") + fe.bind("", "", result_formats=[7]) + fe.execute("") + SYNC
    for _ in range(3):
        msgs = _send(client, bad)
        assert fe.tags(msgs) == "1EZ"
        assert msgs[1].fields()["M"] == "Unknown format code: 7"
    named = fe.parse("n1", "SELECT 1") + fe.bind("", "n1") + fe.execute("") + SYNC
    assert fe.tags(_send(client, named)) == "12DCZ"
    msgs = _send(client, named)  # the second Parse of n1 is an error
    assert fe.tags(msgs) == "EZ"
    assert msgs[0].fields()["M"] == (
        "Failed to prepare the statement\n\nCaused by:\n  Duplicated statement name\n"
    )
    assert _recorded(rw_thread_server, client.pid) == []


def test_the_statement_log_sees_every_exchange(
    rw_thread_server: ThreadRunning, client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    text = fe.parse("", "SELECT 6 AS shown") + fe.bind("", "") + fe.execute("") + SYNC
    _record(rw_thread_server, client, text)
    assert _recorded(rw_thread_server, client.pid) == [text]
    with caplog.at_level(logging.DEBUG, logger="rwshim.statement"):
        for _ in range(3):
            assert fe.tags(_send(client, text)) == "12DCZ"
    lines = [r.getMessage() for r in caplog.records if r.name == "rwshim.statement"]
    assert sum("SELECT 6 AS shown" in line for line in lines) == 3, lines


def test_a_recorded_exchange_after_other_messages_of_its_exchange(
    rw_thread_server: ThreadRunning, client: Client
) -> None:
    """The recorded Bind/Describe/Execute/Sync of a prepared statement, sent after a Parse of
    another unnamed statement in the same exchange: answered as one by one, and the unnamed
    statement that Parse made is there after it."""
    assert fe.tags(_send(client, fe.parse("s1", "SELECT 1") + SYNC)) == "1Z"
    first = _send(client, PREPARED)
    for _ in range(2):
        assert _shape(_send(client, PREPARED)) == _shape(first)
    assert PREPARED in _recorded(rw_thread_server, client.pid)
    msgs = _send(client, fe.parse("", "SELECT 2 AS two") + PREPARED)
    assert fe.tags(msgs) == "12TDCZ"
    assert msgs[3].row() == [b"1"]
    msgs = _send(client, fe.bind("", "") + fe.describe("P", "") + fe.execute("") + SYNC)
    assert fe.tags(msgs) == "2TDCZ"
    assert msgs[1].columns()[0][0] == "two"
    assert msgs[2].row() == [b"2"]


QUERY = fe.query("SELECT 1")


def test_a_kept_simple_query_is_an_exchange_while_its_answer_is_kept(
    rw_thread_server: ThreadRunning, client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    """A simple Query answered whole from the instance's kept answers
    (rwshim/server/shortcuts/replies.py) is
    recorded as an exchange of one message, answered in its transaction status, in a
    pipeline, under the statement log, and only while that kept answer is the cached one."""
    first = _send(client, QUERY)
    assert fe.tags(first) == "TDCZ"
    assert first[1].row() == [b"1"] and first[-1].body == b"I"
    assert _shape(_record(rw_thread_server, client, QUERY)) == _shape(first)
    assert _recorded(rw_thread_server, client.pid) == [QUERY]
    # two in one read: both answered
    client.sock.sendall(QUERY + QUERY)
    assert fe.tags(client.until("Z") + client.until("Z")) == "TDCZTDCZ"
    # in a (read-only) transaction the reply says so
    assert _send(client, fe.query("BEGIN READ ONLY"))[-1].body == b"T"
    assert [_send(client, QUERY)[-1].body for _ in range(2)] == [b"T", b"T"]
    assert _send(client, fe.query("COMMIT"))[-1].body == b"I"
    # the statement log sees each one
    with caplog.at_level(logging.DEBUG, logger="rwshim.statement"):
        for _ in range(3):
            assert fe.tags(_send(client, QUERY)) == "TDCZ"
    lines = [r.getMessage() for r in caplog.records if r.name == "rwshim.statement"]
    assert sum("SELECT 1" in line for line in lines) == 3, lines
    assert QUERY in _recorded(rw_thread_server, client.pid)
    # the cached answer changes (here: another statement's bytes put in its place): the
    # recorded exchange no longer holds and the cache's answer is sent
    other = _send(client, fe.query("SELECT 2"))
    assert fe.tags(other) == "TDCZ" and other[1].row() == [b"2"]

    def swap() -> None:
        queries = rw_thread_server.server.replies.queries
        queries["SELECT 1"] = queries["SELECT 2"]

    rw_thread_server.call(swap)
    assert _shape(_send(client, QUERY)) == _shape(other)


def test_a_recorded_exchange_then_end_of_input_closes_the_session(
    rw_thread_server: ThreadRunning, client: Client
) -> None:
    """A recorded exchange answered whole, then the client's end of input (half-close): the
    reply comes, then the session ends and the server closes the connection."""
    _record(rw_thread_server, client, QUERY)
    for data in (QUERY, PREPARED):
        c = Client(rw_thread_server)
        try:
            if data is PREPARED:
                assert fe.tags(_send(c, fe.parse("s1", "SELECT 1") + SYNC)) == "1Z"
            _record(rw_thread_server, c, data)
            c.sock.sendall(data)
            c.sock.shutdown(socket.SHUT_WR)
            assert fe.tags(c.until("Z")) in ("TDCZ", "2TDCZ")
            assert c.read_msg() is None  # closed by the server
        finally:
            c.close()
