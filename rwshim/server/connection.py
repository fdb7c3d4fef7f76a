"""One client connection as an asyncio protocol (``ClientProtocol``): its start-up (TLS,
CancelRequest, authentication, the session), bytes in through ``wire/``'s
``ServerConnection``, the session's replies out, the per-message fast path that answers a
message inside ``data_received`` until it must wait, and the task that carries on from there
(``_Resume``).  The server (rwshim/server/listener.py) accepts the connection and hands it a
``Context``: what the connection needs of the server, and nothing that calls back into it.
RisingWave's counterpart is src/utils/pgwire/src/pg_protocol.rs (``PgProtocol::process``, its
per-connection loop, and ``process_startup_msg``).

Start-up follows RisingWave's ``process_startup_msg`` (pg_protocol.rs:715-812): ``user``
defaults to root and ``database`` to dev, ``options`` is parsed like ``parse_options``
(:1602-1658) and ``application_name`` wins over it.  Deviation: rwshim always sends
BackendKeyData (RisingWave omits it after a password login) so that cancellation works for
every session, and sends the full ParameterStatus set that clients read (clients.md §1 item 4).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Callable, Coroutine, Generator
from typing import TYPE_CHECKING, Any, cast

from rwshim import errors, logfmt
from rwshim.errors import RwError
from rwshim.frontend import Frontend, connect_check
from rwshim.server.session import Session
from rwshim.wire import auth, backend
from rwshim.wire import events as ev
from rwshim.wire.connection import ServerConnection

if TYPE_CHECKING:
    from rwshim.config import Config
    from rwshim.instance import Instance
    from rwshim.server.portals import ProcessInfo
    from rwshim.server.registry import SessionRegistry
    from rwshim.server.shortcuts.replies import ReplyCache

log = logging.getLogger("rwshim.server")
READ_SIZE = 256 * 1024

# A message of a megabyte or more (a long statement) switches the process to unmapping large
# buffers when they are freed.  glibc's malloc raises its mmap threshold each time such a
# buffer is freed (up to 32 MB), so the next ones come from the heap, which it keeps: 40
# statements of 5 MB, their texts and plans long dropped, left the process 250 MB larger.
# A fixed threshold (mallopt M_MMAP_THRESHOLD) gives each large buffer back when it goes.
LARGE_BUFFER = 1 << 20
_M_MMAP_THRESHOLD = -3
_unmapping = False


def _unmap_large_buffers() -> None:
    global _unmapping
    _unmapping = True
    import ctypes  # here, not at start-up: only a process that meets a long statement needs it

    try:
        mallopt = getattr(ctypes.CDLL(None), "mallopt", None)  # glibc's (absent on macOS)
        if mallopt is not None:
            mallopt(_M_MMAP_THRESHOLD, LARGE_BUFFER)
    except OSError:
        pass


# (user, database, startup options, process record) -> the connection's frontend
FrontendFactory = Callable[[str, str, dict[str, str], "ProcessInfo"], Frontend]


class Context:
    """What a connection needs of the server that accepted it, handed to each connection:
    the configuration, the registry of live sessions (cancel keys, process ids), the kept
    replies its session shares, the instance (login checks, stored passwords; None with a
    custom frontend factory), the factory of its frontend, the set of live connections (the
    server ends them at shutdown), and the TLS context (None: no TLS offered)."""

    __slots__ = ("clients", "config", "frontend_factory", "instance", "registry", "replies", "tls")

    def __init__(
        self,
        config: Config,
        registry: SessionRegistry,
        replies: ReplyCache,
        instance: Instance | None,
        frontend_factory: FrontendFactory,
        clients: set[ClientProtocol],
        tls: ssl.SSLContext | None,
    ) -> None:
        self.config = config
        self.registry = registry
        self.replies = replies
        self.instance = instance
        self.frontend_factory = frontend_factory
        self.clients = clients
        self.tls = tls


def parse_options(options: str) -> dict[str, str]:
    """The startup ``options`` value: ``-c key=value`` and ``--key=value``, backslash
    escapes, ``-`` in keys read as ``_`` (RisingWave's parse_options, pg_protocol.rs:1602)."""
    args: list[str] = []
    cur: list[str] = []
    chars = iter(options)
    for c in chars:
        if c == "\\":
            nxt = next(chars, None)
            if nxt is not None:
                cur.append(nxt)
        elif c.isspace() and c.isascii():
            if cur:
                args.append("".join(cur))
                cur = []
        else:
            cur.append(c)
    if cur:
        args.append("".join(cur))
    config: dict[str, str] = {}
    it = iter(args)
    for arg in it:
        if arg == "-c":
            item = next(it, None)
            if item is None:
                raise RwError("missing argument for -c")
            if "=" not in item:
                raise RwError(f"invalid config format: {item}")
        elif arg.startswith("--"):
            item = arg[2:]
            if "=" not in item:
                raise RwError(f"invalid config format: {item}")
        else:
            log.warning("ignoring unrecognized option %r for backward compatibility", arg)
            continue
        key, value = item.split("=", 1)
        config[key.replace("-", "_")] = value
    return config


def _authenticator(context: Context, user: str) -> auth.Authenticator:
    """The user's own password when CREATE USER gave one (RisingWave picks the exchange from
    the stored form, session.rs:1700-1733: md5 challenge for an md5 hash, cleartext for
    plaintext); otherwise ``--password`` for everyone, checked by ``--auth``; no password
    anywhere is trust."""
    cfg = context.config
    instance = context.instance
    stored = instance.user_password(user) if instance is not None else None
    if stored is None:
        return auth.make_authenticator(cfg.auth_method, user, cfg.password)
    if stored.auth_type == "md5":
        return auth.Md5(user, stored=stored.value)
    if stored.auth_type == "plaintext":
        return auth.Cleartext(stored.value)
    if stored.auth_type == "oauth":
        # RisingWave checks a JWT against the user's jwks_url (session.rs:1720-1723), which
        # rwshim cannot fetch
        raise auth.AuthFailed("not supported by rwshim: OAuth authentication")
    # session.rs:1724-1729 bail_protocol_error!("Unsupported auth type: {}")
    kind = {"sha256": "SHA256"}.get(stored.auth_type, stored.auth_type.upper())
    raise auth.AuthFailed(f"Unsupported auth type: {kind}")


def _parameters(
    cfg: Config, frontend: Frontend, user: str, options: dict[str, str]
) -> list[tuple[str, str]]:
    """The ParameterStatus set sent after authentication (clients.md §1 item 4)."""
    params = {
        "application_name": options.get("application_name", ""),
        "client_encoding": "UTF8",
        "DateStyle": "ISO, MDY",
        "integer_datetimes": "on",
        "IntervalStyle": "postgres",
        "is_superuser": "on" if frontend.is_superuser else "off",
        "server_encoding": "UTF8",
        "server_version": cfg.server_version,
        "session_authorization": user,
        "standard_conforming_strings": "on",
        "TimeZone": frontend.timezone,
    }
    params.update(cfg.extra_parameters)
    return list(params.items())


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
    drained.  Start-up (TLS, authentication: ``_begin``) runs in such a task too.  While a task
    runs, input is only buffered (reading pauses past ``READ_SIZE``); while the client does not
    read its replies, reading pauses too.
    """

    def __init__(self, context: Context) -> None:
        self.context = context
        config = context.config
        self.conn = ServerConnection(config.max_message_size, config.max_query_size)
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
        self.context.clients.add(self)
        self.task = asyncio.get_running_loop().create_task(self._begin())

    def data_received(self, data: bytes) -> None:
        if not _unmapping and self.conn.buffered + len(data) >= LARGE_BUFFER:
            _unmap_large_buffers()
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

    # --- start-up -------------------------------------------------------------------------

    async def _begin(self) -> None:
        """Start-up of this connection (TLS, authentication, the session), then the messages
        that came with it; the callbacks take over from there."""
        addr = self.addr
        context = self.context
        try:
            try:
                session = await asyncio.wait_for(self._startup(), context.config.startup_timeout)
            except TimeoutError:
                log.info("startup timeout for %s", addr)
                session = None
            if session is None:
                self.finish()
                return
            context.registry.add(session)
            p = session.process
            log.info(
                logfmt.line(
                    "connection", addr=addr, pid=p.pid, user=p.user, db=p.database,
                    app=p.application_name,
                )
            )  # fmt: skip
            session.shell_tasks = True
            self.session = session
        except asyncio.CancelledError:
            self.terminate()
            return
        except (ConnectionError, ssl.SSLError, OSError) as e:
            log.debug("connection %s ended: %s", addr, e)
            self.finish()
            return
        except Exception:
            log.exception("connection %s failed", addr)
            self.finish()
            return
        await self.serve(None)

    async def _read(self) -> ev.Event:
        """The next start-up message (waiting for its bytes)."""
        conn = self.conn
        while True:
            event = conn.next_event()
            if event is not None:
                return event
            await self.wait_data()

    def _fatal(self, err: RwError | ev.ProtocolError) -> None:
        if isinstance(err, ev.ProtocolError):
            self.write(backend.error_response("FATAL", err.sqlstate, err.message))
        else:
            self.write(backend.error_response("FATAL", err.code, err.report(None)))

    async def _startup(self) -> Session | None:
        conn = self.conn
        tls = self.context.tls
        while True:
            event = await self._read()
            if isinstance(event, ev.SSLRequest):
                if tls is not None and not self.get_extra_info("ssl_object"):
                    self.write(backend.SSL_YES)
                    await self.drain()
                    await self.start_tls(tls)
                else:
                    self.write(backend.SSL_NO)
                conn.ssl_negotiated()
            elif isinstance(event, ev.GSSENCRequest):
                self.write(backend.SSL_NO)
                conn.ssl_negotiated()
            elif isinstance(event, ev.CancelRequest):
                # Answer nothing and close (PostgreSQL and RisingWave both do).
                self.context.registry.cancel(event.pid, event.key)
                return None
            elif isinstance(event, ev.ProtocolError):
                log.info("protocol violation from %s: %s", self.addr, event.message)
                self._fatal(event)
                return None
            elif isinstance(event, ev.StartupMessage):
                return await self._login(event)
            else:
                return None

    async def _login(self, startup: ev.StartupMessage) -> Session | None:
        context = self.context
        cfg = context.config
        conn = self.conn
        params = startup.params
        if cfg.tls_required and not self.get_extra_info("ssl_object"):
            # RisingWave's RW_SSL_ENFORCE check (pg_protocol.rs:716-724).
            cause = RwError("SSL connection is required but not established")
            self._fatal(errors.StartupFailed(cause))
            return None
        user = params.get("user") or cfg.user
        database = params.get("database") or cfg.database
        out: list[bytes] = []
        if startup.minor > 0 or startup.unrecognized:
            out.append(backend.negotiate_protocol_version(0, startup.unrecognized))
        try:
            options = parse_options(params.get("options", ""))
        except RwError as e:
            self._fatal(errors.StartupFailed(e))
            return None
        app = params.get("application_name")
        if app is not None:
            options["application_name"] = app
        if len(context.registry) >= cfg.max_connections:
            self.write(b"".join(out))
            self._fatal(errors.TooManyConnections())
            return None
        if context.instance is not None:
            # RisingWave connects the session (database, role, LOGIN, CONNECT) before any
            # password exchange (pg_protocol.rs:737-740, session.rs connect_inner).
            try:
                connect_check(context.instance, user, database)
            except RwError as e:
                self.write(b"".join(out))
                self._fatal(e if isinstance(e, errors.StartupFailed) else errors.StartupFailed(e))
                return None
        try:
            authenticator = _authenticator(context, user)
        except auth.AuthFailed as e:
            self._fatal(ev.ProtocolError(e.sqlstate, str(e)))
            return None
        first = authenticator.start()
        if first is not None:
            out.append(first)
            self.write(b"".join(out))
            out = []
            while True:
                event = await self._read()
                if isinstance(event, ev.ProtocolError):
                    self._fatal(event)
                    return None
                if not isinstance(event, ev.PasswordMessage):
                    return None  # the client left (psql does, to prompt for a password)
                try:
                    step = authenticator.step(event.payload)
                except auth.AuthFailed as e:
                    if e.sqlstate == "28P01":
                        self._fatal(errors.InvalidPassword())
                    else:
                        self._fatal(ev.ProtocolError(e.sqlstate, str(e)))
                    return None
                if step.reply:
                    self.write(step.reply)
                if step.done:
                    break
        out.append(backend.AUTH_OK)
        conn.authenticated()
        process = context.registry.new_process(
            user, database, self.addr, options.get("application_name", "")
        )
        try:
            frontend = context.frontend_factory(user, database, options, process)
        except RwError as e:
            self.write(b"".join(out))
            fatal = e if isinstance(e, errors.StartupFailed) else errors.StartupFailed(e)
            self._fatal(fatal)
            return None
        except Exception as e:
            log.exception("frontend factory failed")
            self.write(b"".join(out))
            self._fatal(errors.StartupFailed(RwError(f"internal error: {e}")))
            return None
        out.append(backend.backend_key_data(process.pid, process.key))
        for name, value in _parameters(cfg, frontend, user, options):
            out.append(backend.parameter_status(name, value))
        out.append(backend.ready_for_query(frontend.txn_status))
        self.write(b"".join(out))

        async def flush() -> None:
            self.write(session.take_output())
            await self.drain()

        session = Session(conn, frontend, process, flush, context.replies)
        return session

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
        self._fatal(event)
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
        context = self.context
        if session is not None:
            context.registry.remove(session)
            log.info(logfmt.line("disconnection", addr=self.addr, pid=session.process.pid))
            with contextlib.suppress(Exception):
                session.close()
        if self.transport is not None:
            with contextlib.suppress(Exception):
                self.transport.close()
        context.clients.discard(self)
