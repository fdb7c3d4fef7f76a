"""What a session answers from kept bytes (issue 16): a constant statement's Query, Parse and
Execute (rwshim/server/shortcuts/replies.py), a kept catalog result's encoding (outcome.KeptRows),
and a whole
extended-protocol exchange recorded from its bytes (rwshim/server/shortcuts/exchanges.py).

A mixin of ``Session`` (rwshim/server/session.py), which owns the state these read; kept here so the
protocol flows there stay readable.  RisingWave has no such shortcuts: it sends the same bytes
by running each message (src/utils/pgwire/src/pg_protocol.rs), which is what the tests hold.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from rwshim.logfmt import statement_log
from rwshim.server.portals import Portal, Prepared
from rwshim.wire import backend
from rwshim.wire import events as ev

if TYPE_CHECKING:
    from rwshim.common.outcome import KeptRows, Outcome
    from rwshim.frontend import Frontend
    from rwshim.server.shortcuts.exchanges import Exchanges, Table
    from rwshim.server.shortcuts.replies import ReplyCache
    from rwshim.sql.cache import SizedLRU
    from rwshim.wire.connection import ServerConnection
    from rwshim.wire.results import RowEncoder

# A kept result's encoding is kept per session within this many bytes (texts and encoded
# rows, rwshim/sql/cache.py), of at most this many rows each (the encoded bytes live as long
# as the session holds them).
KEEP_ENCODED_BYTES = 4 * 1024 * 1024
KEEP_ENCODED_ROWS = 2000


class KeptAnswers:
    """The session's answers from kept bytes; ``None`` from a handler: not kept, the full
    path answers."""

    # Session's state (set in Session.__init__).
    conn: ServerConnection
    frontend: Frontend
    closing: bool
    flush_requested: bool
    exchanges: Exchanges
    _out: list[bytes]
    _replies: ReplyCache
    _statements: dict[str, Prepared]
    _portals: dict[str, Portal]
    _encoded: SizedLRU[str, tuple[KeptRows, RowEncoder, tuple[str, bool], bytes]]

    def _ready(self) -> None:
        raise NotImplementedError  # Session's

    def _touch(self, table: Table, name: str) -> None:
        """The extended-protocol message being handled reads or writes ``table[name]``; the
        exchange it opens must find no output pending (rwshim/server/shortcuts/exchanges.py)."""
        x = self.exchanges
        if not x.refs and self._out:
            x.pure = False
        x.refs.append((table, name))

    def kept_exchange(self) -> bool:
        """Answer the exchange next in the input if it is a recorded one whose objects are
        still in place (rwshim/server/shortcuts/exchanges.py); False when it is not."""
        if self.closing or statement_log.isEnabledFor(logging.DEBUG):
            return False
        x = self.exchanges
        reply = x.answer(self.conn, self.frontend.txn_status)
        if reply is None:
            return False
        # it ends with its Sync: what the messages before it in this exchange touched (they
        # were answered one by one) is not the next exchange's
        x.reset()
        self._out.append(reply)
        self.flush_requested = True
        return True

    def kept_read(self, data: bytes) -> bytes | None:
        """The reply when one whole read, ``data``, is a recorded exchange whose objects are
        still in place and nothing else is pending (rwshim/server/shortcuts/exchanges.py); None:
        the read
        goes the usual way (buffered, then decoded or answered by ``kept_exchange``)."""
        if self.closing or self._out or statement_log.isEnabledFor(logging.DEBUG):
            return None
        x = self.exchanges
        reply = x.answer_read(data, self.frontend.txn_status)
        if reply is None or not self.conn.take_read():
            return None
        x.reset()
        return reply

    def _query_kept(self, msg: ev.Query) -> bool | None:
        """A simple Query whose whole answer is kept: sent without running it (None: not
        kept).  The statement log, when on, sees every statement run.  (Nothing is active
        meanwhile, so SHOW PROCESSLIST, which shows only active statements, has nothing
        to show.)  Its ReadyForQuery records it as an exchange
        (rwshim/server/shortcuts/exchanges.py) that
        holds while the kept answer is the one in the instance's cache: the same bytes
        again are answered without being decoded."""
        data = self._replies.queries.get(msg.sql)
        if data is None or statement_log.isEnabledFor(logging.DEBUG):
            return None
        self._touch(self._replies.queries, msg.sql)
        self._out.append(data)
        self._ready()
        return True

    def _parse_kept(self, msg: ev.Parse) -> bool | None:
        """Parse of a text whose statement and description are kept (None: not kept, or a
        duplicate name, whose error the full path answers)."""
        if msg.param_oids:
            return None
        hit = self._replies.parses.get(msg.sql)
        if hit is None:
            return None
        name = msg.name
        statements = self._statements
        if name:
            if name in statements:
                return None
            self.exchanges.pure = False  # its second run is an error
        else:
            self._touch(statements, "")
            statements.pop("", None)
        statements[name] = Prepared(msg.sql, hit[0], hit[1])
        self._out.append(backend.PARSE_COMPLETE)
        return True

    def _execute_kept(self, msg: ev.Execute) -> bool | None:
        """Execute (no row limit) of a fresh portal whose answer in its result formats is
        kept (None: not kept)."""
        if msg.max_rows:
            return None
        portal = self._portals.get(msg.portal)
        if portal is None or portal.rows is not None:
            return None
        data = self._replies.executes.get((portal.prepared.sql, tuple(portal.formats)))
        if data is None or statement_log.isEnabledFor(logging.DEBUG):
            return None
        self._touch(self._portals, msg.portal)
        self._out.append(data)
        return True

    def _kept_encoding(
        self, text: str, rows: KeptRows, encoder: RowEncoder, outcome: Outcome
    ) -> bytes | None:
        """The DataRows + CommandComplete this session sent for ``rows``, the very object a
        cache handed out again (outcome.KeptRows), encoded by the same encoder (columns,
        formats, time zone); None when not kept."""
        hit = self._encoded.get(text)
        if hit is None or hit[0] is not rows or hit[1] is not encoder:
            return None
        return hit[3] if hit[2] == (outcome.tag, outcome.count_rows) else None

    def _keep_encoding(
        self,
        text: str,
        rows: KeptRows,
        encoder: RowEncoder,
        outcome: Outcome,
        sent: list[bytes],
    ) -> None:
        if len(rows) > KEEP_ENCODED_ROWS:
            return
        self._encoded.put(text, (rows, encoder, (outcome.tag, outcome.count_rows), b"".join(sent)))

    def _keep_execute(self, portal: Portal, data: bytes) -> None:
        """Keep a constant statement's Execute answer, and its Parse."""
        prepared = portal.prepared
        self._replies.put_execute(prepared.sql, tuple(portal.formats), data)
        if not prepared.description.param_oids:
            self._replies.put_parse(prepared.sql, prepared.stmt, prepared.description)
