"""Exchanges answered whole, from their bytes (issue 16).

A simple Query whose answer is kept whole (a constant, rwshim/server/shortcuts/replies.py) is
such an exchange of one message.  A driver in extended mode sends one statement as Parse,
Bind, Describe, Execute and Sync (pgbench ``-M extended``, libpq's ``PQsendQueryParams``), or,
for a statement it prepared, Bind, Describe, Execute and Sync (``-M prepared``,
``PQsendQueryPrepared``); a pool's health check sends the same bytes every time.  When every
message of such an exchange was answered by a kept answer (replies.py: a constant statement)
or by bookkeeping that reads only the session's statements and portals (or, for a Query, the
kept answer's entry), the exchange is a function of its bytes and of those few entries: the
session records its bytes, its whole reply (ParseComplete ... ReadyForQuery) and the
statement and portal objects it left behind.  When the same bytes arrive again and those
names still hold the very objects the exchange left, the transaction status is the same and
the statement log is off, running the messages one by one would rebuild equal objects and
send the same bytes: the reply is sent and the input consumed at once, without decoding a
message.

What can make an exchange a different function is kept out of it:

- a named Parse or a Bind to a named portal (their second run is a "Duplicated ..." error),
  Close, Flush, a simple Query not answered whole from the server's kept answers (whose entry
  the exchange then reads: replies.py), and any message that needed the full (waiting) path;
- any error (the reply would differ, and skip-until-Sync changes what is read);
- output left from before the exchange, or an exchange that arrived in more than one read
  (its bytes are not in one buffer).

RisingWave has no such shortcut; it answers the same messages with the same bytes
(src/utils/pgwire/src/pg_protocol.rs, the extended query flow), which is what the tests hold.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rwshim.wire.connection import ServerConnection

# Recorded exchanges kept per session (a driver repeats one or a few exchanges).
KEEP = 4

# A statement's or portal's state beyond its identity that a later message can change: a
# statement's portals (Close of the statement drops them), whether a portal has rows left to
# send (a row-limited Execute suspends it).
State = frozenset[str] | bool


class Table(Protocol):
    """Where an exchange reads or writes by name: a session's statements or portals (dicts),
    the instance's kept answers (rwshim/sql/cache.py SizedLRU)."""

    def get(self, key: str, /) -> Any: ...


# A table and name the exchange read or wrote, with the object it left there and its state.
Ref = tuple[Table, str, object, State]
# (bytes the client sent, the reply, transaction status, its refs)
Entry = tuple[bytes, bytes, str, tuple[Ref, ...]]


def _state(obj: object) -> State:
    portals = getattr(obj, "portals", None)
    if portals is not None:
        return frozenset(portals)
    return getattr(obj, "rows", None) is None


def _in_place(refs: tuple[Ref, ...]) -> bool:
    """Whether each name an exchange read or wrote still holds the object it left there, in
    the state it left it."""
    for table, name, obj, state in refs:
        if table.get(name) is not obj or _state(obj) != state:
            return False
    return True


class Exchanges:
    """One session's record of the exchange under way, and its recorded exchanges."""

    __slots__ = ("entries", "pure", "refs")

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        # Whether the exchange under way can still be recorded.
        self.pure = True
        # The (dict, name) pairs the exchange under way read or wrote.
        self.refs: list[tuple[Table, str]] = []

    def reset(self) -> None:
        """The next exchange starts (after a ReadyForQuery, or a recorded exchange answered
        whole)."""
        self.pure = True
        if self.refs:
            self.refs = []

    def end(self, conn: ServerConnection, out: list[bytes], status: str) -> None:
        """ReadyForQuery: record the exchange that ends here if it stayed pure and its bytes
        are in one buffer of ``conn`` (``out``: its whole reply), and start the next one."""
        data = conn.last_exchange() if self.pure and self.refs else None
        if data:
            refs = []
            seen: set[tuple[int, str]] = set()
            for table, name in self.refs:
                obj = table.get(name)
                if obj is None:
                    break
                if (id(table), name) not in seen:  # each entry is checked once
                    seen.add((id(table), name))
                    refs.append((table, name, obj, _state(obj)))
            else:
                entries = self.entries
                for i, entry in enumerate(entries):
                    if entry[0] == data:
                        del entries[i]
                        break
                if len(entries) >= KEEP:
                    del entries[0]
                entries.append((data, b"".join(out), status, tuple(refs)))
        self.reset()

    def answer_read(self, data: bytes, status: str) -> bytes | None:
        """The reply of a recorded exchange whose bytes are exactly ``data`` (one whole read)
        and whose objects are all still in place, in the state it left them, under this
        transaction status; None when there is none.  Nothing is consumed: the caller does
        (``ServerConnection.take_read``)."""
        for recorded_data, reply, recorded, refs in reversed(self.entries):
            if recorded_data == data:
                return reply if recorded == status and _in_place(refs) else None
        return None

    def answer(self, conn: ServerConnection, status: str) -> bytes | None:
        """The reply of a recorded exchange whose bytes are next in ``conn`` and whose objects
        are all still in place, in the state it left them, under this transaction status (its
        bytes are consumed); None when there is none."""
        buffered = conn.buffered
        for data, reply, recorded, refs in reversed(self.entries):
            if recorded != status or buffered < len(data):
                continue
            if _in_place(refs) and conn.take_exact(data):
                return reply
        return None
