"""A simple Query whose text holds a NUL byte, over a raw-protocol client (libpq cuts a C
string at its NUL; asyncpg's simple ``execute`` sends the text as it is).

RisingWave reads the text with ``CStr::from_bytes_with_nul`` (src/utils/pgwire/src/
pg_message.rs:271-284), which refuses an interior NUL with an io::Error; ``do_process`` answers
a PsqlError::IoError other than end of input with nothing at all (pg_protocol.rs:500-506,
566-567): no ErrorResponse, no ReadyForQuery, and the next message is read as usual."""

from __future__ import annotations

from tests import wirekit as fe
from tests.conftest import ThreadRunning
from tests.rel.liveclient import Client


def test_a_query_with_a_nul_gets_no_answer_and_the_next_one_does(
    rw_thread_server: ThreadRunning,
) -> None:
    client = Client(rw_thread_server)
    try:
        nul = fe.raw(b"Q", b"SELECT 1\x00; SELECT 3\x00")
        client.sock.sendall(nul + fe.query("SELECT 2"))
        msgs = client.until("Z")
        assert fe.tags(msgs) == "TDCZ"  # SELECT 2's answer, and nothing before it
        assert msgs[1].row() == [b"2"]
        client.sock.sendall(fe.raw(b"Q", b"\x00\x00") + fe.query("SELECT 4"))
        msgs = client.until("Z")
        assert fe.tags(msgs) == "TDCZ" and msgs[1].row() == [b"4"]
    finally:
        client.sock.close()
