"""What a session answers from kept bytes (issue 16): a constant statement's Query, Parse and
Execute (rwshim/server/shortcuts/replies.py), a kept catalog result's encoding
(outcome.KeptRows), and a whole extended-protocol exchange recorded from its bytes
(rwshim/server/shortcuts/exchanges.py).

``Shortcuts`` is an object the session (rwshim/server/session.py) makes and calls: the session
hands it, once, the state these answers read and write (its output buffer, its statement and
portal tables, its exchange record, its ReadyForQuery); the protocol flows stay in the session.
It names the session's records (rwshim/server/portals.py, a layer above) only by what it reads
of them (``PreparedLike``, ``PortalLike``) and is handed the class that makes a prepared
statement, so that nothing here imports the server.
RisingWave has no such shortcuts: it sends the same bytes by running each message
(src/utils/pgwire/src/pg_protocol.rs), which is what the tests hold.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from rwshim.logfmt import statement_log
from rwshim.sql.cache import SizedLRU
from rwshim.wire import backend
from rwshim.wire import events as ev

if TYPE_CHECKING:
    from rwshim.common.outcome import KeptRows, Outcome
    from rwshim.frontend import Description, Frontend, Statement
    from rwshim.server.shortcuts.exchanges import Exchanges, Table
    from rwshim.server.shortcuts.replies import ReplyCache
    from rwshim.wire.connection import ServerConnection
    from rwshim.wire.results import RowEncoder

# A kept result's encoding is kept per session within this many bytes (texts and encoded
# rows, rwshim/sql/cache.py), of at most this many rows each (the encoded bytes live as long
# as the session holds them).
KEEP_ENCODED_BYTES = 4 * 1024 * 1024
KEEP_ENCODED_ROWS = 2000


class PreparedLike(Protocol):
    """What is read of a prepared statement (the session's ``Prepared``)."""

    @property
    def sql(self) -> str: ...

    @property
    def stmt(self) -> Statement | None: ...

    @property
    def description(self) -> Description: ...


class PortalLike(Protocol):
    """What is read of a portal (the session's ``Portal``)."""

    @property
    def prepared(self) -> PreparedLike: ...

    @property
    def formats(self) -> list[int]: ...

    @property
    def rows(self) -> object: ...  # not None: rows left to send after a row-limited Execute


P = TypeVar("P", bound=PreparedLike)
Q = TypeVar("Q", bound=PortalLike)


class Shortcuts(Generic[P, Q]):
    """One session's answers from kept bytes.  A message handler here returns ``None`` when
    the answer is not kept: the session's full path answers then.

    The lists and dicts given are the session's own (the same objects for its lifetime: the
    session clears them, never replaces them), so nothing is copied per message.
    """

    __slots__ = (
        "conn",
        "encoded",
        "exchanges",
        "frontend",
        "out",
        "portals",
        "prepared",
        "ready",
        "replies",
        "statements",
    )

    def __init__(
        self,
        conn: ServerConnection,
        frontend: Frontend,
        replies: ReplyCache,
        exchanges: Exchanges,
        out: list[bytes],
        statements: dict[str, P],
        portals: dict[str, Q],
        prepared: Callable[[str, Statement | None, Description], P],
        ready: Callable[[], None],
    ) -> None:
        self.conn = conn
        self.frontend = frontend
        # the server's answers kept encoded, shared by its sessions (replies.py)
        self.replies = replies
        self.exchanges = exchanges
        # the session's output buffer, statements and portals
        self.out = out
        self.statements = statements
        self.portals = portals
        # makes the prepared statement a kept Parse leaves (the session's Prepared)
        self.prepared = prepared
        # the session's ReadyForQuery (which also ends the exchange under way)
        self.ready = ready
        # statement text -> (kept rows, encoder, (tag, count_rows), DataRows + CommandComplete)
        self.encoded: SizedLRU[str, tuple[KeptRows, RowEncoder, tuple[str, bool], bytes]] = (
            SizedLRU(KEEP_ENCODED_BYTES, weigh=lambda v: len(v[3]))
        )

    # --- exchanges answered whole (exchanges.py) --------------------------------------------

    def touch(self, table: Table, name: str) -> None:
        """The extended-protocol message being handled reads or writes ``table[name]``; the
        exchange it opens must find no output pending (rwshim/server/shortcuts/exchanges.py)."""
        x = self.exchanges
        if not x.refs and self.out:
            x.pure = False
        x.refs.append((table, name))

    def exchange(self) -> bool:
        """Answer the exchange next in the input if it is a recorded one whose objects are
        still in place (rwshim/server/shortcuts/exchanges.py); False when it is not.  Its reply
        is appended to the output, which the caller sends at once (it ends with ReadyForQuery).
        The caller has checked that the session is not closing."""
        if statement_log.isEnabledFor(logging.DEBUG):
            return False
        x = self.exchanges
        reply = x.answer(self.conn, self.frontend.txn_status)
        if reply is None:
            return False
        # it ends with its Sync: what the messages before it in this exchange touched (they
        # were answered one by one) is not the next exchange's
        x.reset()
        self.out.append(reply)
        return True

    def read(self, data: bytes) -> bytes | None:
        """The reply when one whole read, ``data``, is a recorded exchange whose objects are
        still in place and nothing else is pending (rwshim/server/shortcuts/exchanges.py);
        None: the read goes the usual way (buffered, then decoded or answered by
        ``exchange``).  The caller has checked that the session is not closing."""
        if self.out or statement_log.isEnabledFor(logging.DEBUG):
            return None
        x = self.exchanges
        reply = x.answer_read(data, self.frontend.txn_status)
        if reply is None or not self.conn.take_read():
            return None
        x.reset()
        return reply

    # --- constant statements (replies.py) ---------------------------------------------------

    def query(self, msg: ev.Query) -> bool | None:
        """A simple Query whose whole answer is kept: sent without running it (None: not
        kept).  The statement log, when on, sees every statement run.  (Nothing is active
        meanwhile, so SHOW PROCESSLIST, which shows only active statements, has nothing
        to show.)  Its ReadyForQuery records it as an exchange (exchanges.py) that holds while
        the kept answer is the one in the server's cache: the same bytes again are answered
        without being decoded."""
        queries = self.replies.queries
        data = queries.get(msg.sql)
        if data is None or statement_log.isEnabledFor(logging.DEBUG):
            return None
        self.touch(queries, msg.sql)
        self.out.append(data)
        self.ready()
        return True

    def parse(self, msg: ev.Parse) -> bool | None:
        """Parse of a text whose statement and description are kept (None: not kept, or a
        duplicate name, whose error the full path answers)."""
        if msg.param_oids:
            return None
        hit = self.replies.parses.get(msg.sql)
        if hit is None:
            return None
        name = msg.name
        statements = self.statements
        if name:
            if name in statements:
                return None
            self.exchanges.pure = False  # its second run is an error
        else:
            self.touch(statements, "")
            statements.pop("", None)
        statements[name] = self.prepared(msg.sql, hit[0], hit[1])
        self.out.append(backend.PARSE_COMPLETE)
        return True

    def execute(self, msg: ev.Execute) -> bool | None:
        """Execute (no row limit) of a fresh portal whose answer in its result formats is
        kept (None: not kept)."""
        if msg.max_rows:
            return None
        portal = self.portals.get(msg.portal)
        if portal is None or portal.rows is not None:
            return None
        data = self.replies.executes.get((portal.prepared.sql, tuple(portal.formats)))
        if data is None or statement_log.isEnabledFor(logging.DEBUG):
            return None
        self.touch(self.portals, msg.portal)
        self.out.append(data)
        return True

    def keep_query(self, sql: str, data: bytes) -> None:
        """Keep a constant statement's whole simple-Query answer."""
        self.replies.put_query(sql, data)

    def keep_execute(self, portal: Q, data: bytes) -> None:
        """Keep a constant statement's Execute answer, and its Parse."""
        prepared = portal.prepared
        self.replies.put_execute(prepared.sql, tuple(portal.formats), data)
        if not prepared.description.param_oids:
            self.replies.put_parse(prepared.sql, prepared.stmt, prepared.description)

    # --- kept catalog results (outcome.KeptRows) ----------------------------------------------

    def encoding(
        self, text: str, rows: KeptRows, encoder: RowEncoder, outcome: Outcome
    ) -> bytes | None:
        """The DataRows + CommandComplete this session sent for ``rows``, the very object a
        cache handed out again (outcome.KeptRows), encoded by the same encoder (columns,
        formats, time zone); None when not kept."""
        hit = self.encoded.get(text)
        if hit is None or hit[0] is not rows or hit[1] is not encoder:
            return None
        return hit[3] if hit[2] == (outcome.tag, outcome.count_rows) else None

    def keep_encoding(
        self,
        text: str,
        rows: KeptRows,
        encoder: RowEncoder,
        outcome: Outcome,
        sent: list[bytes],
    ) -> None:
        if len(rows) > KEEP_ENCODED_ROWS:
            return
        self.encoded.put(text, (rows, encoder, (outcome.tag, outcome.count_rows), b"".join(sent)))
