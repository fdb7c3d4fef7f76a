"""The protocol session of one connection: simple and extended query flows over a Frontend.

Owns what the PostgreSQL protocol keeps per connection: prepared statements, portals (with
the rows still to send after a row-limited Execute), the transaction status byte sent in
ReadyForQuery, notices, and skip-until-Sync after an extended-protocol error.  What SQL
means is the ``Frontend``'s business (``rwshim/frontend/``), and so is what the meta store
needs around each statement (``Frontend.statement_scope``): the session never reaches the
store.  Answers from kept bytes are a ``Shortcuts`` object's (rwshim/server/shortcuts/kept.py)
that the session makes and calls; the registry of live sessions is the server's
(rwshim/server/registry.py).

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
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from datetime import UTC, tzinfo
from typing import TYPE_CHECKING, Any, TypeVar

from rwshim import errors
from rwshim.common.outcome import KeptRows, Outcome, Rows, command_tag
from rwshim.errors import RwError
from rwshim.frontend import Description, Frontend, Statement
from rwshim.lazy import lazy_module
from rwshim.logfmt import statement_log
from rwshim.server.params import decode_params
from rwshim.server.portals import (
    FLUSH_THRESHOLD,
    PARSE_PARAM_OIDS,
    TEXT_FORMATS,
    Portal,
    Prepared,
    ProcessInfo,
    command_complete,
    first_row,
)
from rwshim.server.shortcuts.exchanges import Exchanges
from rwshim.server.shortcuts.kept import Shortcuts
from rwshim.server.shortcuts.replies import ReplyCache, settings_free
from rwshim.wire import backend
from rwshim.wire import events as ev
from rwshim.wire.connection import ServerConnection
from rwshim.wire.results import (
    copy_row,
    render_error,
    render_notice,
    result_formats,
    row_encoder,
)

if TYPE_CHECKING:
    import zoneinfo
else:
    zoneinfo = lazy_module("zoneinfo")  # a TimeZone other than UTC only (it pulls sysconfig)

log = logging.getLogger("rwshim.session")
T = TypeVar("T")


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
        replies: ReplyCache | None = None,
    ) -> None:
        self.conn = conn
        # counts hand-overs of output mid-statement (an answer sent in parts is not kept)
        self._flushes = 0
        # Extended-protocol exchanges answered whole from their bytes
        # (rwshim/server/shortcuts/exchanges.py).
        self.exchanges = Exchanges()
        self.frontend = frontend
        # the meta store's part around each statement (readers, settle, sync, write failures)
        self._scope = frontend.statement_scope()
        self.process = process
        self._flush_cb = flush
        self._out: list[bytes] = []
        self.flush_requested = False
        # Set after a FATAL error: the shell closes the connection.
        self.closing = False
        self._statements: dict[str, Prepared] = {}
        self._portals: dict[str, Portal] = {}
        # Answers from kept bytes (rwshim/server/shortcuts/kept.py), over the server's kept
        # answers (replies.py; a session made alone keeps its own) and this session's state.
        self.shortcuts: Shortcuts[Prepared, Portal] = Shortcuts(
            conn,
            frontend,
            ReplyCache() if replies is None else replies,
            self.exchanges,
            self._out,
            self._statements,
            self._portals,
            Prepared,
            self._ready,
        )
        # Results being streamed now (their SQLite statements are active).
        self._streaming: set[Rows] = set()
        # The task the shell runs this session's waiting messages in (set by the shell; a
        # caller that drives ``handle`` from its own task leaves it None).
        self.task: asyncio.Task[Any] | None = None
        # True when the shell keeps ``task`` (None: the handler runs outside any task, and
        # ``adopt`` names the task it continues in), so no statement asks the loop for it
        # (asyncio.current_task is Python code in 3.11).
        self.shell_tasks = False
        self._task: asyncio.Task[Any] | None = None
        self._in_run = False  # inside ``_run``: the statement's call is being awaited
        self._cancel_requested = False
        self._tz_name = "UTC"
        self._tz: tzinfo = UTC
        # Handlers that never wait run without a coroutine (most extended-protocol messages).
        # A Query, Parse or Execute whose answer is kept encoded (rwshim/server/shortcuts/) is
        # answered here too; its handler returns None when the answer is not kept.
        shortcuts = self.shortcuts
        self._sync_handlers: dict[type, Callable[[Any], bool | None]] = {
            ev.Query: shortcuts.query,
            ev.Parse: shortcuts.parse,
            ev.Execute: shortcuts.execute,
            ev.Bind: self._on_bind,
            ev.Describe: self._on_describe,
            ev.Close: self._on_close,
            ev.Sync: self._on_sync,
            ev.Flush: self._on_flush,
            ev.Terminate: self._on_terminate,
            ev.ConnectionClosed: self._on_terminate,
            ev.CopyData: self._on_copy,
            ev.CopyDone: self._on_copy,
            ev.CopyFail: self._on_copy,
            ev.TooLarge: self._on_too_large,
        }
        # Parse may wait: a data statement is parsed and described by PostgreSQL.
        self._async_handlers: dict[type, Callable[[Any], Awaitable[bool]]] = {
            ev.Parse: self._on_parse,
            ev.Query: self._on_query,
            ev.Execute: self._on_execute,
        }

    # --- output --------------------------------------------------------------------------

    def send(self, data: bytes) -> None:
        self._out.append(data)

    def take_output(self) -> bytes:
        out = self._out
        data = out[0] if len(out) == 1 else b"".join(out)
        out.clear()
        self.flush_requested = False
        return data

    async def _flush_now(self) -> None:
        """A large result filled the buffer: hand it to the shell now (backpressure).  A
        CancelRequest while the client is slow to read cancels the statement here."""
        self._flushes += 1
        if self._flush_cb is not None:
            await self._run(self._flush_cb())

    def _error(self, err: RwError, envelope: str | None) -> None:
        self.exchanges.pure = False
        # The release's wording of the message (rwshim.common.releases.OLD_WORDING).
        release = getattr(getattr(self.frontend, "instance", None), "release", None)
        self.send(render_error(err, envelope, None if release is None else release.reword))
        if err.severity == "FATAL" or getattr(err, "closes_connection", False):
            # A FatalError from the frontend (or a caught handler panic, which RisingWave
            # answers as an ERROR) ends the connection after this message.
            self.closing = True
            self.flush_requested = True
        self.conn.error_sent()

    def _ready(self) -> None:
        if self.closing:  # no ReadyForQuery after a FATAL error
            return
        status = self.frontend.txn_status
        self.send(backend.ready_for_query(status))
        self.flush_requested = True
        self.exchanges.end(self.conn, self._out, status)

    def _parameter_changes(self) -> None:
        changes = self.frontend.parameter_changes
        if changes:
            for name, value in changes:
                self.send(backend.parameter_status(name, value))
                if name == "application_name":
                    self.process.application_name = value
            changes.clear()

    @property
    def tz(self) -> tzinfo:
        name = self.frontend.timezone
        if name != self._tz_name:
            self._tz_name = name
            try:
                self._tz = zoneinfo.ZoneInfo(name)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                # a name SET TIME ZONE accepted in another case (``us/pacific``)
                from rwshim.common.session_config import zone_name

                found = zone_name(name)
                self._tz = zoneinfo.ZoneInfo(found) if found is not None else UTC
        return self._tz

    # --- dispatch ------------------------------------------------------------------------

    async def handle(self, event: ev.Event) -> bool:
        """Handle one event; False when the connection is over."""
        handler = self._sync_handlers.get(type(event))
        if handler is not None:
            keep = handler(event)
            if keep is not None:
                return keep and not self.closing
        ahandler = self._async_handlers.get(type(event))
        if ahandler is None:
            return True
        return await ahandler(event) and not self.closing

    def handle_nowait(self, event: ev.Event) -> bool | None:
        """Handle ``event`` if that needs no waiting (then like ``handle``), else None."""
        handler = self._sync_handlers.get(type(event))
        if handler is None:
            self.exchanges.pure = False
            return None
        keep = handler(event)
        if keep is None:
            # the full path answers it: the exchange is not kept
            self.exchanges.pure = False
            return None
        return keep and not self.closing

    def cancel(self) -> bool:
        """Cancel the running statement (CancelRequest); False when nothing runs."""
        task = self._task
        if task is None or task.done():
            return False
        self._cancel_requested = True
        task.cancel()
        return True

    async def _run(self, awaitable: Awaitable[T]) -> T:
        """Await a frontend call so that ``cancel`` can interrupt it (-> 57014).

        No task per statement (it would cost two loop turns per query): ``cancel`` cancels
        the connection's task, which is only possible while it is suspended, and the only
        suspension point between setting and clearing ``_task`` is inside ``awaitable`` -
        so the CancelledError always lands here.  The shell names its task (``task``), so
        that no statement asks the loop for it.
        """
        task = self.task
        self._task = task if task is not None or self.shell_tasks else asyncio.current_task()
        self._cancel_requested = False
        self._in_run = True
        try:
            return await awaitable
        except asyncio.CancelledError:
            task = self._task
            if self._cancel_requested and task is not None and task.uncancel() == 0:
                raise errors.QueryCanceled() from None
            raise
        finally:
            self._in_run = False
            self._task = None
            self._cancel_requested = False

    def adopt(self, task: asyncio.Task[Any]) -> None:
        """The shell started this session's handler outside any task (it answers a message
        that never waits in place) and continues it in ``task`` from its first wait: a
        statement waiting there can be cancelled through that task."""
        self.task = task
        if self._in_run and self._task is None:
            self._task = task

    def _begin(self, sql: str) -> None:
        p = self.process
        p.statement = sql
        p.statement_started = time.time()
        p.active = True

    def _end(self) -> None:
        self.process.active = False

    def _failed(self, e: Exception) -> RwError:
        """The error a client sees for ``e``: the store's write failure or RisingWave's text
        (``Frontend.statement_scope``), else a generic internal error (the exception itself
        goes to the log, never to the client)."""
        failure = self._scope.failed(e)
        return failure if failure is not None else _internal(e)

    # --- simple query --------------------------------------------------------------------

    async def _on_query(self, msg: ev.Query) -> bool:
        if "\x00" in msg.sql:
            # A NUL inside the text: RisingWave's get_sql (pgwire pg_message.rs:271-284,
            # CStr::from_bytes_with_nul) fails with an io::Error, which do_process answers
            # with nothing (pg_protocol.rs:500-506 and 566-567: PsqlError::IoError other than
            # end of input writes no ErrorResponse and no ReadyForQuery); the connection reads
            # the next message as usual.
            return True
        process = self.process
        process.statement = msg.sql
        process.statement_started = time.time()
        process.active = True
        try:
            await self._simple_query(msg.sql)
        finally:
            process.active = False
        self._ready()
        return True

    async def _simple_query(self, sql: str) -> None:
        frontend = self.frontend
        try:
            stmts = frontend.parse(sql)
        except RwError as e:
            self._error(e, errors.RUN_QUERY)
            return
        except Exception as e:
            self._error(_internal(e), errors.RUN_QUERY)
            return
        if not stmts:
            self.send(backend.EMPTY_QUERY)
            return
        send = self._out.append
        out = self._out
        single = len(stmts) == 1
        for stmt in stmts:
            try:
                self._scope.begin(stmt)
                outcome = await self._run(frontend.execute(stmt, []))
                self._scope.done()
                headed = bool(outcome.notices or frontend.parameter_changes)
                if headed:
                    self._outcome_head(outcome)
                columns = outcome.columns
                if outcome.copy_out:
                    await self._copy_out(outcome)
                elif columns is not None:
                    encoder = row_encoder(columns, TEXT_FORMATS[len(columns)], self.tz)
                    mark, flushes = len(out), self._flushes
                    send(encoder.row_description)
                    rows = outcome.rows
                    if type(rows) is KeptRows:
                        encoded = self.shortcuts.encoding(stmt.text, rows, encoder, outcome)
                        if encoded is not None:
                            send(encoded)
                            continue
                    sent = await self._emit(rows, encoder.encode, 0)
                    send(command_complete(command_tag(outcome, sent)))
                    if type(rows) is KeptRows and flushes == self._flushes:
                        self.shortcuts.keep_encoding(
                            stmt.text, rows, encoder, outcome, out[mark + 1 :]
                        )
                    if (
                        single
                        and outcome.constant
                        and not headed
                        and flushes == self._flushes
                        and settings_free(columns)
                    ):
                        self.shortcuts.keep_query(sql, b"".join(out[mark:]))
                else:
                    send(command_complete(command_tag(outcome, 0)))
            except Exception as e:
                self._error(self._failed(e), errors.RUN_QUERY)
                return

    async def _copy_out(self, outcome: Outcome) -> None:
        """COPY ... TO STDOUT: every row, whatever Execute's row limit (pg_extended.rs:57-80)."""
        columns = outcome.columns or []
        tz = self.tz
        send = self._out.append
        send(backend.copy_out_response(len(columns)))
        sent = await self._emit(outcome.rows, lambda row: copy_row(columns, row, tz), 0)
        send(backend.COPY_DONE)
        send(command_complete(command_tag(outcome, sent)))

    async def _emit(
        self,
        rows: Iterable[Sequence[object]] | AsyncIterator[Sequence[object]],
        encode: Callable[[Sequence[object]], bytes],
        limit: int,
    ) -> int:
        """Send rows (at most ``limit`` when > 0), flushing as the buffer fills; the number
        sent.  Rows may come from an async iterator (the data plane streams): one left
        early by an error or a cancel is closed, which cancels its statement."""
        send = self._out.append
        sent = size = 0
        if isinstance(rows, AsyncIterator):
            finished = False
            try:
                while limit <= 0 or sent < limit:
                    try:
                        row = await anext(rows)
                    except StopAsyncIteration:
                        break
                    data = encode(row)
                    send(data)
                    sent += 1
                    size += len(data)
                    if size >= FLUSH_THRESHOLD:
                        await self._flush_now()
                        size = 0
                finished = True
            finally:
                if not finished:
                    aclose = getattr(rows, "aclose", None)
                    if aclose is not None:
                        await aclose()
            return sent
        # In-process rows read the store's SQLite connection: while they stream, another
        # session's write may read the rest into memory (``release_reads``, outcome.Rows).
        held = rows if isinstance(rows, Rows) else Rows(rows)
        self._streaming.add(held)
        try:
            for row in itertools.islice(held, limit) if limit > 0 else held:
                data = encode(row)
                send(data)
                sent += 1
                size += len(data)
                if size >= FLUSH_THRESHOLD:
                    await self._flush_now()
                    size = 0
        finally:
            self._streaming.discard(held)
        return sent

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
            for oid in msg.param_oids:
                if oid and oid not in PARSE_PARAM_OIDS:
                    # DataType::from_oid's UnsupportedOid (postgres_type.rs:85-114), which
                    # prints the OID as the i32 it was read as.
                    raise RwError(f"Unsupported oid {oid - 2**32 if oid >= 2**31 else oid}")
            if stmts:
                stmt: Statement | None = stmts[0]
                found = self.frontend.describe(stmts[0], list(msg.param_oids))
                desc = found if isinstance(found, Description) else await self._run(found)
            else:
                stmt = None
                desc = Description(list(msg.param_oids), None)
        except RwError as e:
            self._error(e, errors.PREPARE_STATEMENT)
            return True
        except Exception as e:
            self._error(_internal(e), errors.PREPARE_STATEMENT)
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

    def _on_bind(self, msg: ev.Bind) -> bool:
        if msg.portal:
            self.exchanges.pure = False  # its second run is an error
        else:
            touch = self.shortcuts.touch
            touch(self._statements, msg.statement)
            touch(self._portals, "")
        try:
            if msg.portal and msg.portal in self._portals:
                raise RwError("Duplicated portal name")
            prepared = self._statement(msg.statement)
            for code in (*msg.param_formats, *msg.result_formats):
                if code not in (0, 1):
                    raise RwError(f"Unknown format code: {code}")
            params = decode_params(prepared.description.param_oids, msg)
            # A wrong number of result format codes is not a Bind error in RisingWave: it
            # fails when rows are converted at Execute (handler/util.rs:208-209).
            formats = result_formats(msg.result_formats, len(prepared.description.columns or ()))
        except RwError as e:
            self._error(e, None)
            return True
        except Exception as e:
            self._error(_internal(e), None)
            return True
        if not msg.portal:
            self._drop_portal("")
        self._portals[msg.portal] = Portal(
            msg.statement, prepared, params, formats, tuple(msg.result_formats)
        )
        prepared.portals.add(msg.portal)
        self.send(backend.BIND_COMPLETE)
        return True

    def _on_describe(self, msg: ev.Describe) -> bool:
        self.shortcuts.touch(self._statements if msg.kind == "S" else self._portals, msg.name)
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
                if columns is not None and len(formats) != len(columns):
                    formats = result_formats((), len(columns))
            if columns is None:
                self.send(backend.NO_DATA)
            else:
                # a RowDescription names types and formats only: no time zone needed
                self.send(row_encoder(columns, formats).row_description)
        except RwError as e:
            self._error(e, None)
        except Exception as e:
            self._error(_internal(e), None)
        return True

    async def _on_execute(self, msg: ev.Execute) -> bool:
        try:
            portal = self._portal(msg.portal)
        except RwError as e:
            self._error(e, None)
            return True
        prepared = portal.prepared
        self._begin(prepared.sql)
        keep = False
        fresh: object = None
        try:
            if portal.rows is None:
                if prepared.stmt is None:
                    self.send(backend.EMPTY_QUERY)
                    return True
                if prepared.quick is not None and await self._execute_quick(portal, msg):
                    return True
                self._scope.begin(prepared.stmt)
                outcome = await self._run(self.frontend.execute(prepared.stmt, portal.params))
                self._scope.done()
                headed = bool(outcome.notices or self.frontend.parameter_changes)
                if headed:
                    self._outcome_head(outcome)
                if outcome.copy_out:
                    await self._copy_out(outcome)
                    return True
                if outcome.columns is None:
                    self.send(command_complete(command_tag(outcome, 0)))
                    return True
                portal.outcome = outcome
                rows = outcome.rows
                portal.rows = rows if isinstance(rows, AsyncIterator) else Rows(rows)
                formats = portal.formats
                ncols = len(outcome.columns)
                if len(formats) != ncols:
                    # RisingWave checks the codes Bind sent against the actual row width
                    # (pgwire types.rs:113-125), only when a row is converted.
                    codes = portal.codes
                    if len(codes) not in (0, 1, ncols):
                        if await first_row(portal.rows) is not None:
                            raise RwError(
                                f"internal error: format codes length {len(codes)} is not 0, "
                                f"1 or equal to actual length {ncols}"
                            )
                        codes = ()
                    formats = result_formats(codes, ncols)
                portal.encoder = row_encoder(outcome.columns, formats, self.tz)
                keep = (
                    outcome.constant
                    and not headed
                    and not msg.max_rows
                    and formats is portal.formats
                    and settings_free(outcome.columns)
                )
                if not (headed or msg.max_rows or any(formats)) and isinstance(rows, AsyncIterator):
                    fresh = rows  # a data query's rows: its run may be kept (_execute_quick)
            out, mark, flushes = self._out, len(self._out), self._flushes
            await self._send_rows(portal, msg.max_rows)
            if keep and flushes == self._flushes:
                self.shortcuts.keep_execute(portal, b"".join(out[mark:]))
            elif fresh is not None and portal.rows is None and portal.outcome is None:
                columns = outcome.columns or []  # (outcome: set above with fresh)
                prepared.quick = self.frontend.quick_of(fresh, columns)
        except Exception as e:
            _reset_portal(portal)
            self._error(self._failed(e), errors.EXECUTE_STATEMENT)
        finally:
            self._end()
        return True

    async def _execute_quick(self, portal: Portal, msg: ev.Execute) -> bool:
        """Execute of a portal whose statement's data query has a kept run
        (rwshim/dataplane/rerun.py): its rows and CommandComplete sent; False when the kept
        run no longer holds (then it is dropped, and the full path answers)."""
        prepared = portal.prepared
        if msg.max_rows or any(portal.formats) or statement_log.isEnabledFor(logging.DEBUG):
            return False
        assert prepared.quick is not None
        sent = await self._run(
            self.frontend.run_quick(
                prepared.quick, portal.params, self._out, self._flush_now, FLUSH_THRESHOLD
            )
        )
        if sent is None:
            prepared.quick = None
            return False
        self._scope.done()
        self.send(command_complete(f"SELECT {sent}"))
        return True

    async def _send_rows(self, portal: Portal, max_rows: int) -> None:
        rows = portal.rows
        encoder = portal.encoder
        outcome = portal.outcome
        assert rows is not None and encoder is not None and outcome is not None
        sent = await self._emit(rows, encoder.encode, max_rows)
        if max_rows > 0 and sent == max_rows:
            self._out.append(backend.PORTAL_SUSPENDED)
            return
        # Done: a later Execute of this portal runs the statement again, as in RisingWave
        # (the result cache is dropped, the portal kept: pg_protocol.rs:1126-1157).
        _reset_portal(portal)
        self.send(command_complete(command_tag(outcome, sent)))

    def _drop_portal(self, name: str) -> None:
        portal = self._portals.pop(name, None)
        if portal is not None:
            portal.prepared.portals.discard(name)
            _reset_portal(portal)  # (a data-plane query's rows give their connection back)

    def _on_close(self, msg: ev.Close) -> bool:
        self.exchanges.pure = False
        if msg.kind == "S":
            prepared = self._statements.pop(msg.name, None)
            if prepared is not None:
                for name in list(prepared.portals):
                    self._drop_portal(name)
        else:
            self._drop_portal(msg.name)
        self.send(backend.CLOSE_COMPLETE)
        return True

    def _on_too_large(self, msg: ev.TooLarge) -> bool:
        """A message past the query size limit (dropped unread by the connection).

        A Query gets RisingWave's error and ReadyForQuery, as in RisingWave; a Parse or Bind
        gets the error and then skip-until-Sync, as the extended protocol requires
        (RisingWave sends ReadyForQuery at once there too, which clients read as the answer
        to a Sync they have not sent yet)."""
        self._error(errors.ServerThrottled(msg.limit), None)  # (not kept: an error)
        if not msg.extended:
            self._ready()
        return True

    def _on_sync(self, msg: ev.Sync) -> bool:
        self._ready()
        return True

    def _on_flush(self, msg: ev.Flush) -> bool:
        self.exchanges.pure = False  # output leaves mid-exchange
        self.flush_requested = True
        return True

    def _on_terminate(self, msg: object) -> bool:
        return False

    def _on_copy(self, msg: object) -> bool:
        # COPY FROM STDIN is not offered (no statement starts it), so the connection never
        # enters COPY mode and drops these messages before they get here.
        self.exchanges.pure = False
        return True

    def release_reads(self) -> None:
        """Read into memory every result this session holds open on the store (results
        streaming now, portals suspended after a row-limited Execute, SQL cursors), so that
        another session's DDL does not find the store's tables locked (see ``Rows``)."""
        for rows in list(self._streaming):
            rows.materialise()
        for portal in self._portals.values():
            # (a data-plane portal reads this session's own PostgreSQL connection)
            if isinstance(portal.rows, Rows):
                portal.rows.materialise()
        # The frontend's DECLAREd cursors.
        self.frontend.release_reads()

    def close(self) -> None:
        """The connection is gone: drop statements and portals, release the frontend."""
        self._statements.clear()
        self._portals.clear()
        self.frontend.close()


def _internal(e: BaseException) -> RwError:
    """A generic internal error for an exception that is no RisingWave error (logged with
    its traceback; the client sees only this)."""
    log.error("unexpected error while handling a statement", exc_info=e)
    return errors.InternalError("the statement could not be executed")


def _reset_portal(portal: Portal) -> None:
    """The portal's rows are done or abandoned: its next Execute runs the statement again."""
    rows = portal.rows
    abandon = getattr(rows, "abandon", None)
    if abandon is not None:
        # a suspended data-plane query nobody reads any more: its statement is
        # cancelled before the session's next one
        abandon()
    portal.rows = None
    portal.outcome = None
    portal.encoder = None


__all__ = [
    "FLUSH_THRESHOLD",
    "PARSE_PARAM_OIDS",
    "ProcessInfo",
    "Session",
    "command_complete",
]
