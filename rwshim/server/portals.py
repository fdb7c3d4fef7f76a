"""What the protocol session keeps per connection, apart from the flows themselves: the
connection's process record (SHOW PROCESSLIST, KILL, CancelRequest), prepared statements and
portals, the registry of live sessions, and the small reply pieces built once
(CommandComplete per tag, text format codes per column count).

RisingWave: ``src/utils/pgwire/src/pg_protocol.rs`` (the statement and portal maps, the
cancel key), ``src/frontend/src/session.rs`` (the session map behind KILL and CancelRequest).
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TYPE_CHECKING

from msgspec import Struct, field

from rwshim.common.outcome import Outcome, Rows
from rwshim.frontend import Description, Statement
from rwshim.lazy import lazy_module
from rwshim.wire import backend
from rwshim.wire.results import RowEncoder

if TYPE_CHECKING:
    import hmac

    from rwshim.dataplane.rerun import Quick
    from rwshim.server.session import Session
else:
    hmac = lazy_module("hmac")  # CancelRequest's key check only

# Parameter type OIDs RisingWave accepts in Parse (DataType::from_oid, postgres_type.rs):
# its base types, their arrays, and text/text[] (read as varchar).  0 means "infer".
PARSE_PARAM_OIDS = frozenset(
    {16, 17, 20, 21, 23, 700, 701, 1043, 1082, 1083, 1114, 1184, 1186, 1700, 3802, 1307}
    | {1000, 1001, 1016, 1005, 1007, 1021, 1022, 1015, 1182, 1183, 1115, 1185, 1187, 1231}
    | {3807, 1308, 25, 1009}
)


class _TextFormats(dict[int, tuple[int, ...]]):
    """n -> (0,) * n, built once per column count (simple queries send text only)."""

    def __missing__(self, n: int) -> tuple[int, ...]:
        value = self[n] = (0,) * n
        return value


TEXT_FORMATS = _TextFormats()
_TAGS: dict[str, bytes] = {}


def command_complete(tag: str) -> bytes:
    """CommandComplete bytes, memoized per tag text (``SELECT 1`` recurs constantly)."""
    msg = _TAGS.get(tag)
    if msg is None:
        if len(_TAGS) > 10000:
            _TAGS.clear()
        msg = _TAGS[tag] = backend.command_complete(tag)
    return msg


# Flush to the socket once this much output is buffered inside one statement.
FLUSH_THRESHOLD = 256 * 1024


class ProcessInfo(Struct):
    """One live connection, as SHOW PROCESSLIST / KILL / CancelRequest see it."""

    pid: int
    key: int
    user: str
    database: str
    client_addr: str
    application_name: str = ""
    connected_at: float = field(default_factory=time.time)
    # The statement running now (or the last one run) and when it started.
    statement: str | None = None
    statement_started: float | None = None
    active: bool = False


class Prepared(Struct):
    sql: str
    stmt: Statement | None  # None: the empty query
    description: Description
    portals: set[str] = field(default_factory=set)
    # The kept run of its data query (rwshim/dataplane/rerun.py), once one ran to its end.
    quick: Quick | None = None


class Portal(Struct):
    statement_name: str
    prepared: Prepared
    params: list[object]
    formats: list[int]
    # The result format codes as Bind sent them (``formats`` is expanded for the described
    # columns; a statement described as NoData may still return rows, e.g. CANCEL JOBS).
    codes: tuple[int, ...] = ()
    # Set while a row-limited Execute left rows to send.
    outcome: Outcome | None = None
    rows: Rows | AsyncIterator[Sequence[object]] | None = None
    encoder: RowEncoder | None = None


async def first_row(rows: Iterator[Sequence[object]] | AsyncIterator[Sequence[object]]) -> object:
    """The next row, or None."""
    if isinstance(rows, AsyncIterator):
        try:
            return await anext(rows)
        except StopAsyncIteration:
            return None
    return next(rows, None)


class SessionRegistry:
    """Live sessions by process id (SHOW PROCESSLIST, KILL) and cancel key (CancelRequest)."""

    def __init__(self) -> None:
        self._next_pid = itertools.count(1)
        self._sessions: dict[int, Session] = {}

    def new_process(self, user: str, database: str, client_addr: str, app: str) -> ProcessInfo:
        pid = next(self._next_pid)
        # secrets.randbits(31) as it computes it (SystemRandom: os.urandom, the top 31 bits
        # of 4 bytes) without importing secrets, random and hmac with every start-up
        key = int.from_bytes(os.urandom(4), "big") >> 1
        return ProcessInfo(pid, key, user, database, client_addr, app)

    def add(self, session: Session) -> None:
        self._sessions[session.process.pid] = session

    def remove(self, session: Session) -> None:
        if self._sessions.get(session.process.pid) is session:
            del self._sessions[session.process.pid]

    def release_reads(self) -> None:
        """Every session's open results into memory, before a write (``Session.release_reads``)."""
        for session in list(self._sessions.values()):
            session.release_reads()

    def processes(self) -> list[ProcessInfo]:
        return [s.process for s in self._sessions.values()]

    def sessions(self) -> list[Session]:
        """The live sessions (SHOW CURSORS / SUBSCRIPTION CURSORS list their cursors)."""
        return list(self._sessions.values())

    def get(self, pid: int) -> Session | None:
        return self._sessions.get(pid)

    def kill(self, pid: int) -> bool:
        """KILL: cancel pid's running statement (RisingWave's handle_kill_local cancels the
        session's queries, it does not close the connection); False if no such session."""
        session = self._sessions.get(pid)
        if session is None:
            return False
        session.cancel()
        return True

    def cancel(self, pid: int, key: int) -> bool:
        """CancelRequest: cancel pid's running statement if the key matches."""
        session = self._sessions.get(pid)
        if session is None or not hmac.compare_digest(
            session.process.key.to_bytes(4, "big"), (key & 0xFFFFFFFF).to_bytes(4, "big")
        ):
            return False
        return session.cancel()

    def __len__(self) -> int:
        return len(self._sessions)
