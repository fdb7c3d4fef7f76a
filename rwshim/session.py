"""The protocol session of one connection: simple and extended query flows over a Frontend.

Owns what the PostgreSQL protocol keeps per connection: prepared statements, portals (with
the rows still to send after a row-limited Execute), the transaction status byte sent in
ReadyForQuery, notices, and skip-until-Sync after an extended-protocol error.  What SQL
means is the ``Frontend``'s business (``rwshim/frontend.py``).

Error envelopes follow RisingWave's pgwire (``src/utils/pgwire/src/pg_protocol.rs``):
simple query "Failed to run the query" (:841, :875); Parse "Failed to prepare the statement"
(:1008-1043); Execute "Failed to execute the statement" (:1149); Bind, Describe and unknown
statement/portal errors carry no envelope (``PsqlError::Uncategorized``, :1070-1094,
:1162-1207, :1245-1284).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
import zoneinfo
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from typing import Any

from rwshim import errors
from rwshim.errors import RwError
from rwshim.frontend import Description, Frontend, Statement
from rwshim.results import (
    Outcome,
    RowEncoder,
    command_tag,
    render_error,
    render_notice,
    render_row_description,
    result_formats,
)
from rwshim.wire import backend, codecs
from rwshim.wire import events as ev
from rwshim.wire.connection import ServerConnection

log = logging.getLogger("rwshim.session")

# Flush to the socket once this much output is buffered inside one statement.
FLUSH_THRESHOLD = 256 * 1024


@dataclass(slots=True)
class ProcessInfo:
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


@dataclass(slots=True)
class Prepared:
    sql: str
    stmt: Statement | None  # None: the empty query
    description: Description
    portals: set[str] = field(default_factory=set)


@dataclass(slots=True)
class Portal:
    statement_name: str
    prepared: Prepared
    params: list[object]
    formats: list[int]
    # Set while a row-limited Execute left rows to send.
    outcome: Outcome | None = None
    rows: Iterator[Sequence[object]] | None = None
    encoder: RowEncoder | None = None


class Session:
    """Handles the regular messages of one authenticated connection.

    ``handle`` takes one event and appends the reply to an output buffer that the shell
    takes with ``take_output``; ``flush`` (given by the shell) is awaited when a large
    result fills the buffer.  ``cancel`` interrupts the statement running now.
    """

    def __init__(
        self,
        conn: ServerConnection,
        frontend: Frontend,
        process: ProcessInfo,
        flush: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.conn = conn
        self.frontend = frontend
        self.process = process
        self._flush_cb = flush
        self._out: list[bytes] = []
        self._out_size = 0
        self.flush_requested = False
        self._statements: dict[str, Prepared] = {}
        self._portals: dict[str, Portal] = {}
        self._task: asyncio.Task[Any] | None = None
        self._cancel_requested = False
        self._tz_name = ""
        self._tz: tzinfo = UTC
        self._handlers: dict[type, Callable[[Any], Awaitable[bool]]] = {
            ev.Query: self._on_query,
            ev.Parse: self._on_parse,
            ev.Bind: self._on_bind,
            ev.Describe: self._on_describe,
            ev.Execute: self._on_execute,
            ev.Close: self._on_close,
            ev.Sync: self._on_sync,
            ev.Flush: self._on_flush,
            ev.Terminate: self._on_terminate,
            ev.ConnectionClosed: self._on_terminate,
            ev.CopyData: self._on_copy,
            ev.CopyDone: self._on_copy,
            ev.CopyFail: self._on_copy,
        }

    # --- output --------------------------------------------------------------------------

    def send(self, data: bytes) -> None:
        self._out.append(data)
        self._out_size += len(data)

    def take_output(self) -> bytes:
        data = b"".join(self._out)
        self._out.clear()
        self._out_size = 0
        self.flush_requested = False
        return data

    async def _maybe_flush(self) -> None:
        if self._out_size >= FLUSH_THRESHOLD and self._flush_cb is not None:
            await self._flush_cb()

    def _error(self, err: RwError, envelope: str | None) -> None:
        self.send(render_error(err, envelope))
        self.conn.error_sent()

    def _ready(self) -> None:
        self.send(backend.ready_for_query(self.frontend.txn_status))
        self.flush_requested = True

    def _parameter_changes(self) -> None:
        changes = self.frontend.parameter_changes
        if changes:
            for name, value in changes:
                self.send(backend.parameter_status(name, value))
            changes.clear()

    @property
    def tz(self) -> tzinfo:
        name = getattr(self.frontend, "timezone", "UTC")
        if name != self._tz_name:
            self._tz_name = name
            try:
                self._tz = zoneinfo.ZoneInfo(name)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                self._tz = UTC
        return self._tz

    # --- dispatch ------------------------------------------------------------------------

    async def handle(self, event: ev.Event) -> bool:
        """Handle one event; False when the connection is over."""
        handler = self._handlers.get(type(event))
        if handler is None:
            return True
        return await handler(event)

    def cancel(self) -> bool:
        """Cancel the running statement (CancelRequest); False when nothing runs."""
        task = self._task
        if task is None or task.done():
            return False
        self._cancel_requested = True
        task.cancel()
        return True

    async def _run(self, awaitable: Awaitable[Outcome]) -> Outcome:
        """Await a frontend call so that ``cancel`` can interrupt it (-> 57014).

        The call runs as its own task, so a cancel that races with its completion can never
        hit the connection's task.
        """
        task = asyncio.ensure_future(awaitable)
        self._task = task
        self._cancel_requested = False
        try:
            return await task
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if task.cancelled() and self._cancel_requested and not (me and me.cancelling()):
                raise errors.QueryCanceled() from None
            task.cancel()
            raise
        finally:
            self._task = None
            self._cancel_requested = False

    def _begin(self, sql: str) -> None:
        p = self.process
        p.statement = sql
        p.statement_started = time.time()
        p.active = True

    def _end(self) -> None:
        self.process.active = False

    @staticmethod
    def _internal(e: BaseException) -> RwError:
        log.error("unexpected error while handling a statement", exc_info=e)
        return RwError(f"internal error: {type(e).__name__}: {e}")

    # --- simple query --------------------------------------------------------------------

    async def _on_query(self, msg: ev.Query) -> bool:
        self._begin(msg.sql)
        try:
            await self._simple_query(msg.sql)
        finally:
            self._end()
        self._ready()
        return True

    async def _simple_query(self, sql: str) -> None:
        try:
            stmts = self.frontend.parse(sql)
        except RwError as e:
            self._error(e, errors.RUN_QUERY)
            return
        except Exception as e:
            self._error(self._internal(e), errors.RUN_QUERY)
            return
        if not stmts:
            self.send(backend.EMPTY_QUERY)
            return
        for stmt in stmts:
            try:
                outcome = await self._run(self.frontend.execute(stmt, []))
                self._outcome_head(outcome)
                if outcome.columns is not None:
                    n = len(outcome.columns)
                    encoder = RowEncoder(outcome.columns, [0] * n, self.tz)
                    self.send(render_row_description(outcome.columns, [0] * n))
                    sent = 0
                    for row in outcome.rows:
                        self.send(encoder.encode(row))
                        sent += 1
                        if self._out_size >= FLUSH_THRESHOLD:
                            await self._maybe_flush()
                    self.send(backend.command_complete(command_tag(outcome, sent)))
                else:
                    self.send(backend.command_complete(command_tag(outcome, 0)))
            except RwError as e:
                self._error(e, errors.RUN_QUERY)
                return
            except Exception as e:
                self._error(self._internal(e), errors.RUN_QUERY)
                return

    def _outcome_head(self, outcome: Outcome) -> None:
        """Notices and ParameterStatus changes go out before the statement's rows and
        CommandComplete (pg_protocol.rs:869-887)."""
        for notice in outcome.notices:
            self.send(render_notice(notice))
        self._parameter_changes()

    # --- extended query ------------------------------------------------------------------

    async def _on_parse(self, msg: ev.Parse) -> bool:
        try:
            if msg.name:
                if msg.name in self._statements:
                    raise RwError("Duplicated statement name")
            else:
                self._statements.pop("", None)
            stmts = self.frontend.parse(msg.sql)
            if len(stmts) > 1:
                raise RwError("Only one statement is allowed in extended query mode")
            if stmts:
                stmt: Statement | None = stmts[0]
                desc = self.frontend.describe(stmts[0], list(msg.param_oids))
            else:
                stmt = None
                desc = Description(list(msg.param_oids), None)
        except RwError as e:
            self._error(e, errors.PREPARE_STATEMENT)
            return True
        except Exception as e:
            self._error(self._internal(e), errors.PREPARE_STATEMENT)
            return True
        self._statements[msg.name] = Prepared(msg.sql, stmt, desc)
        self.send(backend.PARSE_COMPLETE)
        return True

    def _statement(self, name: str) -> Prepared:
        prepared = self._statements.get(name)
        if prepared is None:
            if name:
                raise RwError(f"Prepare statement {name} not found")
            raise RwError("unnamed prepare statement not found")
        return prepared

    def _portal(self, name: str) -> Portal:
        portal = self._portals.get(name)
        if portal is None:
            if name:
                raise RwError(f"Portal {name} not found")
            raise RwError("unnamed portal not found")
        return portal

    async def _on_bind(self, msg: ev.Bind) -> bool:
        try:
            if msg.portal and msg.portal in self._portals:
                raise RwError("Duplicated portal name")
            prepared = self._statement(msg.statement)
            for code in (*msg.param_formats, *msg.result_formats):
                if code not in (0, 1):
                    raise RwError(f"Unknown format code: {code}")
            params = self._decode_params(prepared, msg)
            ncols = len(prepared.description.columns or ())
            formats = result_formats(msg.result_formats, ncols)
            if prepared.description.columns is not None and len(formats) != ncols:
                raise RwError(
                    f"format codes length {len(msg.result_formats)} is not 0, 1 or equal to "
                    f"actual length {ncols}"
                )
        except RwError as e:
            self._error(e, None)
            return True
        except Exception as e:
            self._error(self._internal(e), None)
            return True
        if not msg.portal:
            self._drop_portal("")
        self._portals[msg.portal] = Portal(msg.statement, prepared, params, formats)
        prepared.portals.add(msg.portal)
        self.send(backend.BIND_COMPLETE)
        return True

    def _decode_params(self, prepared: Prepared, msg: ev.Bind) -> list[object]:
        oids = prepared.description.param_oids
        values = msg.params
        if len(values) != len(oids):
            raise RwError(
                f"bind message supplies {len(values)} parameters, but prepared statement "
                f'"{msg.statement}" requires {len(oids)}',
                sqlstate="08P01",
            )
        pformats = msg.param_formats
        nf = len(pformats)
        if nf not in (0, 1, len(values)):
            raise errors.BindError(
                f"format codes length {nf} is not 0, 1 or equal to actual length {len(values)}"
            )
        out: list[object] = []
        for i, raw in enumerate(values):
            if raw is None:
                out.append(None)
                continue
            binary = (pformats[i] if nf > 1 else pformats[0] if nf else 0) == 1
            try:
                out.append(codecs.decoder(oids[i], binary)(raw))
            except codecs.CodecError as e:
                raise RwError(str(e)) from None
            except (UnicodeDecodeError, ValueError) as e:
                raise RwError(f"invalid parameter ${i + 1}: {e}") from None
        return out

    async def _on_describe(self, msg: ev.Describe) -> bool:
        try:
            if msg.kind == "S":
                prepared = self._statement(msg.name)
                desc = prepared.description
                self.send(backend.parameter_description(desc.param_oids))
                columns = desc.columns
                formats = [0] * len(columns or ())
            else:
                portal = self._portal(msg.name)
                columns = portal.prepared.description.columns
                formats = portal.formats
        except RwError as e:
            self._error(e, None)
            return True
        if columns is None:
            self.send(backend.NO_DATA)
        else:
            self.send(render_row_description(columns, formats))
        return True

    async def _on_execute(self, msg: ev.Execute) -> bool:
        try:
            portal = self._portal(msg.portal)
        except RwError as e:
            self._error(e, None)
            return True
        prepared = portal.prepared
        self._begin(prepared.sql)
        try:
            if portal.rows is None:
                if prepared.stmt is None:
                    self.send(backend.EMPTY_QUERY)
                    return True
                outcome = await self._run(self.frontend.execute(prepared.stmt, portal.params))
                self._outcome_head(outcome)
                if outcome.columns is None:
                    self.send(backend.command_complete(command_tag(outcome, 0)))
                    return True
                portal.outcome = outcome
                portal.rows = iter(outcome.rows)
                portal.encoder = RowEncoder(outcome.columns, portal.formats, self.tz)
            await self._send_rows(portal, msg.max_rows)
        except RwError as e:
            self._reset_portal(portal)
            self._error(e, errors.EXECUTE_STATEMENT)
        except Exception as e:
            self._reset_portal(portal)
            self._error(self._internal(e), errors.EXECUTE_STATEMENT)
        finally:
            self._end()
        return True

    async def _send_rows(self, portal: Portal, max_rows: int) -> None:
        rows = portal.rows
        encoder = portal.encoder
        outcome = portal.outcome
        assert rows is not None and encoder is not None and outcome is not None
        sent = 0
        if max_rows > 0:
            for row in itertools.islice(rows, max_rows):
                self.send(encoder.encode(row))
                sent += 1
                if self._out_size >= FLUSH_THRESHOLD:
                    await self._maybe_flush()
            if sent == max_rows:
                self.send(backend.PORTAL_SUSPENDED)
                return
        else:
            for row in rows:
                self.send(encoder.encode(row))
                sent += 1
                if self._out_size >= FLUSH_THRESHOLD:
                    await self._maybe_flush()
        # Done: a later Execute of this portal runs the statement again, as in RisingWave
        # (the result cache is dropped, the portal kept: pg_protocol.rs:1126-1157).
        self._reset_portal(portal)
        self.send(backend.command_complete(command_tag(outcome, sent)))

    @staticmethod
    def _reset_portal(portal: Portal) -> None:
        portal.rows = None
        portal.outcome = None
        portal.encoder = None

    def _drop_portal(self, name: str) -> None:
        portal = self._portals.pop(name, None)
        if portal is not None:
            portal.prepared.portals.discard(name)

    async def _on_close(self, msg: ev.Close) -> bool:
        if msg.kind == "S":
            prepared = self._statements.pop(msg.name, None)
            if prepared is not None:
                for name in list(prepared.portals):
                    self._drop_portal(name)
        else:
            self._drop_portal(msg.name)
        self.send(backend.CLOSE_COMPLETE)
        return True

    async def _on_sync(self, msg: ev.Sync) -> bool:
        self._ready()
        return True

    async def _on_flush(self, msg: ev.Flush) -> bool:
        self.flush_requested = True
        return True

    async def _on_terminate(self, msg: object) -> bool:
        return False

    async def _on_copy(self, msg: object) -> bool:
        # COPY FROM STDIN is not offered (no statement starts it), so the connection never
        # enters COPY mode and drops these messages before they get here.
        return True

    def close(self) -> None:
        """The connection is gone: drop statements and portals, release the frontend."""
        self._statements.clear()
        self._portals.clear()
        close = getattr(self.frontend, "close", None)
        if callable(close):
            close()


class SessionRegistry:
    """Live sessions by process id (SHOW PROCESSLIST, KILL) and cancel key (CancelRequest)."""

    def __init__(self) -> None:
        self._next_pid = itertools.count(1)
        self._sessions: dict[int, Session] = {}

    def new_process(self, user: str, database: str, client_addr: str, app: str) -> ProcessInfo:
        pid = next(self._next_pid)
        key = secrets.randbits(31)
        return ProcessInfo(pid, key, user, database, client_addr, app)

    def add(self, session: Session) -> None:
        self._sessions[session.process.pid] = session

    def remove(self, session: Session) -> None:
        if self._sessions.get(session.process.pid) is session:
            del self._sessions[session.process.pid]

    def processes(self) -> list[ProcessInfo]:
        return [s.process for s in self._sessions.values()]

    def get(self, pid: int) -> Session | None:
        return self._sessions.get(pid)

    def cancel(self, pid: int, key: int) -> bool:
        """CancelRequest: cancel pid's running statement if the key matches."""
        session = self._sessions.get(pid)
        if session is None or not secrets.compare_digest(
            session.process.key.to_bytes(4, "big"), (key & 0xFFFFFFFF).to_bytes(4, "big")
        ):
            return False
        return session.cancel()

    def __len__(self) -> int:
        return len(self._sessions)
