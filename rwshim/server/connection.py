"""One client connection as an asyncio protocol (``ClientProtocol``): bytes in through
``wire/``'s ``ServerConnection``, the session's replies out, the per-message fast path that
answers a message inside ``data_received`` until it must wait, and the task that carries on
from there (``_Resume``).  The server (rwshim/server/listener.py) accepts the connection and runs
its start-up; RisingWave's counterpart is the per-connection loop of
src/utils/pgwire/src/pg_protocol.rs (``PgProtocol::process``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Coroutine, Generator
from typing import TYPE_CHECKING, Any, cast

from rwshim import logfmt
from rwshim.server.session import Session
from rwshim.wire import backend
from rwshim.wire import events as ev
from rwshim.wire.connection import ServerConnection

if TYPE_CHECKING:
    from rwshim.server.listener import Server

log = logging.getLogger("rwshim.server")
READ_SIZE = 256 * 1024


class _Resume:
    """Awaitable that continues a coroutine which was started outside any task and stopped
    at ``waiting`` (the future it awaits): the task awaiting this waits for that future, and
    sends its result (or throws its exception, a cancellation included) into the coroutine,
    exactly as if the coroutine had been the task's own from the start."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Coroutine[Any, Any, bool], waiting: Any) -> None:
        self.coro = coro
        self.waiting = waiting

    def __await__(self) -> Generator[Any, Any, bool]:
        coro, waiting = self.coro, self.waiting
        while True:
            try:
                sent = yield waiting
            except BaseException as e:  # a cancellation too: the coroutine decides
                try:
                    waiting = coro.throw(e)
                except StopIteration as done:
                    return bool(done.value)
            else:
                try:
                    waiting = coro.send(sent)
                except StopIteration as done:
                    return bool(done.value)


_SHUTDOWN = backend.error_response(
    "FATAL", "57P01", "terminating connection due to administrator command"
)


class ClientProtocol(asyncio.Protocol):
    """One client connection as an asyncio protocol: bytes in, the session's replies out.

    A message whose handler does not wait is answered inside ``data_received`` (``_pump``):
    no task and no loop turn per message, which is most of what a ``SELECT 1`` costs on top of
    the socket.  The first message that must wait (a statement awaiting a barrier or the data
    plane, a large result flushed to a slow client) gets a task (``serve``) that handles it and
    the messages buffered after it, in order, and hands back to the callbacks once the input is
    drained.  Start-up (TLS, authentication) runs in such a task too.  While a task runs,
    input is only buffered (reading pauses past ``READ_SIZE``); while the client does not read
    its replies, reading pauses too.
    """

    def __init__(self, server: Server) -> None:
        self.server = server
        self.conn = ServerConnection(server.config.max_message_size, server.config.max_query_size)
        self.transport: asyncio.Transport | None = None
        self.session: Session | None = None
        self.addr = ""
        # The task handling messages now (start-up, or a message that waits); None: callbacks.
        self.task: asyncio.Task[None] | None = None
        self._data: asyncio.Future[None] | None = None  # a task waiting for input
        self._drained: asyncio.Future[None] | None = None  # a task waiting for the client
        self._read_paused = False
        self._write_paused = False
        self._lost = False
        self._finished = False

    # --- asyncio callbacks ----------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports do not derive from asyncio.Transport, but have its methods.
        self.transport = cast(asyncio.Transport, transport)
        peer = self.transport.get_extra_info("peername")
        self.addr = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer or "")
        self.server._clients.add(self)
        self.task = asyncio.get_running_loop().create_task(self.server._begin(self))

    def data_received(self, data: bytes) -> None:
        if self.task is None:
            session = self.session
            if session is not None and session.exchanges.entries and not session.closing:
                reply = session.shortcuts.read(data)
                if reply is not None:
                    # the read is a recorded exchange (rwshim/server/shortcuts/exchanges.py):
                    # answered whole, neither buffered nor decoded
                    self.write(reply)
                    if self._write_paused:
                        self._wait_for_client()
                    return
            self.conn.receive_data(data)
            self._pump()
            return
        self.conn.receive_data(data)
        waiter = self._data
        if waiter is not None:
            self._data = None
            if not waiter.done():
                waiter.set_result(None)
        elif self.conn.buffered > READ_SIZE and not self._read_paused:
            # A task is busy with a statement: stop reading until it has caught up.
            self._read_paused = True
            self._pause_reading()

    def eof_received(self) -> bool:
        self.data_received(b"")
        # Keep the transport open for the replies; it is closed once the session ends (a TLS
        # transport cannot stay half-open: it closes after this).
        return self.get_extra_info("sslcontext") is None

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        self.conn.receive_data(b"")
        for fut in (self._data, self._drained):
            if fut is not None and not fut.done():
                fut.set_result(None)
        self._data = self._drained = None
        if self.task is None:
            self.finish()

    def pause_writing(self) -> None:
        self._write_paused = True

    def resume_writing(self) -> None:
        self._write_paused = False
        fut = self._drained
        if fut is not None:
            self._drained = None
            if not fut.done():
                fut.set_result(None)
        if self._read_paused and self.task is None:
            self._read_paused = False
            self._resume_reading()

    # --- what start-up and the session's flush use (StreamWriter's names) -----------------

    def write(self, data: bytes) -> None:
        if self.transport is not None and not self._lost:
            self.transport.write(data)

    async def drain(self) -> None:
        """Wait until the client has read what was written (past the write buffer's limit)."""
        if self._write_paused and not self._lost:
            fut = self._drained = asyncio.get_running_loop().create_future()
            await fut

    async def wait_data(self) -> None:
        """Wait for more input (the connection has no complete message)."""
        if self._lost:
            return
        fut = self._data = asyncio.get_running_loop().create_future()
        await fut

    def get_extra_info(self, name: str) -> Any:
        return None if self.transport is None else self.transport.get_extra_info(name)

    async def start_tls(self, ctx: ssl.SSLContext) -> None:
        assert self.transport is not None
        loop = asyncio.get_running_loop()
        transport = await loop.start_tls(self.transport, self, ctx, server_side=True)
        assert transport is not None
        self.transport = transport

    # --- messages ---------------------------------------------------------------------------

    def _pump(self) -> None:
        """Handle the buffered messages here, until one must wait: that one starts a task."""
        session = self.session
        if session is None:
            return
        conn = self.conn
        next_event = conn.next_event
        nowait = session.handle_nowait
        recorded = session.exchanges.entries
        kept = session.shortcuts.exchange
        transport = self.transport
        assert transport is not None
        while True:
            if recorded and not session.closing and kept():
                # a recorded exchange, answered whole (rwshim/server/shortcuts/exchanges.py)
                transport.write(session.take_output())
                if self._write_paused:
                    self._wait_for_client()
                    return
                if conn.drained:
                    return  # the usual end: one exchange per read, nothing else to do
                continue
            event = next_event()
            if event is None:
                out = session.take_output()
                if out:
                    transport.write(out)
                    if self._write_paused and not self._read_paused:
                        # The client does not read its replies: read no more queries.
                        self._read_paused = True
                        self._pause_reading()
                return
            keep = nowait(event)
            if keep is None:
                if isinstance(event, ev.ProtocolError):
                    self._violation(session, event)
                    return
                # Run the handler's coroutine here until it first waits: a statement that
                # never waits (SELECT 1, a catalog query) is answered without a task.  One
                # that waits is continued from that point in a task (``serve``).
                coro = session.handle(event)
                try:
                    waiting = coro.send(None)
                except StopIteration as done:
                    keep = done.value
                except Exception:
                    log.exception("connection %s failed", self.addr)
                    self.finish()
                    return
                else:
                    resume = _Resume(coro, waiting)
                    task = asyncio.get_running_loop().create_task(self.serve(None, resume))
                    self.task = task
                    session.adopt(task)
                    return
            if session.flush_requested:
                # Sync, Flush and the end of a Query go out at once, even when more input is
                # already buffered (a pipeline's later statements may take long).
                transport.write(session.take_output())
                if self._write_paused and keep:
                    self._wait_for_client()
                    return
            if not keep:
                self._close_session(session)
                return

    def _wait_for_client(self) -> None:
        """The client does not read its replies (the transport's buffer is past its limit):
        the messages still buffered wait in a task until it has read them, instead of their
        replies piling up in memory (a pipelined query can answer megabytes)."""
        self.task = asyncio.get_running_loop().create_task(self.serve(None))

    async def serve(self, event: ev.Event | None, resume: _Resume | None = None) -> None:
        """Handle ``event`` (or finish the handler ``resume`` continues) and the messages
        after it in this task, then hand back."""
        session = self.session
        assert session is not None
        session.task = self.task
        conn = self.conn
        try:
            if resume is not None:
                kept = await resume
                if session.flush_requested:
                    self.write(session.take_output())
                if not kept:
                    self._close_session(session)
                    return
            while True:
                if self._write_paused:
                    await self.drain()  # the client reads slowly: wait for it
                if event is None:
                    event = conn.next_event()
                    if event is None:
                        out = session.take_output()
                        if out:
                            self.write(out)
                        await self.drain()  # the client reads slowly: wait for it
                        event = conn.next_event()
                        if event is None:
                            break
                if isinstance(event, ev.ProtocolError):
                    self._violation(session, event)
                    return
                keep = session.handle_nowait(event)
                if keep is None:
                    keep = await session.handle(event)
                if session.flush_requested:
                    self.write(session.take_output())
                if not keep:
                    self._close_session(session)
                    return
                event = None
        except asyncio.CancelledError:
            # Server shutdown (a CancelRequest's cancel ends inside the session as 57014).
            self.terminate()
            return
        except (ConnectionError, ssl.SSLError, OSError) as e:
            log.debug("connection %s ended: %s", self.addr, e)
            self.finish()
            return
        except Exception:
            log.exception("connection %s failed", self.addr)
            self.finish()
            return
        finally:
            session.task = None
        self.task = None
        if self._lost:
            self.finish()
        elif self._read_paused and not self._write_paused:
            self._read_paused = False
            self._resume_reading()

    def _violation(self, session: Session, event: ev.ProtocolError) -> None:
        out = session.take_output()
        if out:
            self.write(out)
        log.info("protocol violation: %s", event.message)
        self.server._fatal(self, event)
        self.finish()

    def _close_session(self, session: Session) -> None:
        out = session.take_output()
        if out:
            self.write(out)
        self.finish()

    def _pause_reading(self) -> None:
        if self.transport is not None and not self._lost:
            with contextlib.suppress(RuntimeError):
                self.transport.pause_reading()

    def _resume_reading(self) -> None:
        if self.transport is not None and not self._lost:
            with contextlib.suppress(RuntimeError):
                self.transport.resume_reading()

    # --- the end ----------------------------------------------------------------------------

    def shutdown(self) -> asyncio.Task[None] | None:
        """Server shutdown: a task is cancelled (it ends the connection), an idle connection
        ends here; the task to wait for, if any."""
        task = self.task
        if task is not None and not task.done():
            task.cancel()
            return task
        self.terminate()
        return None

    def terminate(self) -> None:
        """FATAL 57P01, as PostgreSQL ends its connections at shutdown, then close."""
        with contextlib.suppress(Exception):
            self.write(_SHUTDOWN)
        self.finish()

    def finish(self) -> None:
        """The connection is over: the session leaves the registry, the socket closes."""
        if self._finished:
            return
        self._finished = True
        self.task = None
        session = self.session
        server = self.server
        if session is not None:
            server.registry.remove(session)
            log.info(logfmt.line("disconnection", addr=self.addr, pid=session.process.pid))
            with contextlib.suppress(Exception):
                session.close()
        if self.transport is not None:
            with contextlib.suppress(Exception):
                self.transport.close()
        server._clients.discard(self)
