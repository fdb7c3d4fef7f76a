"""The asyncio shell: accept connections, TLS, startup and authentication, cancel keys,
buffered writes, graceful shutdown.  All protocol decisions are made by ``wire/`` and
``session.py``; this module only moves bytes and keeps the registry of live sessions.

Startup follows RisingWave's ``process_startup_msg`` (src/utils/pgwire/src/pg_protocol.rs:
715-812): ``user`` defaults to root and ``database`` to dev, ``options`` is parsed like
``parse_options`` (:1602-1658) and ``application_name`` wins over it.  Deviation: rwshim
always sends BackendKeyData (RisingWave omits it after a password login) so that
cancellation works for every session, and sends the full ParameterStatus set that clients
read (clients.md §1 item 4).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import socket
import ssl
from collections.abc import Callable
from typing import TYPE_CHECKING

from rwshim import errors, logfmt
from rwshim.config import Config, loopback
from rwshim.errors import RwError
from rwshim.frontend import Frontend, connect_check
from rwshim.instance import Instance
from rwshim.server.connection import ClientProtocol
from rwshim.server.session import ProcessInfo, Session, SessionRegistry
from rwshim.wire import auth, backend
from rwshim.wire import events as ev
from rwshim.wire.connection import ServerConnection

if TYPE_CHECKING:
    from rwshim.dashboard.app import Dashboard

log = logging.getLogger("rwshim.server")

FrontendFactory = Callable[[str, str, dict[str, str], ProcessInfo], Frontend]


def instance_frontend_factory(instance: Instance) -> FrontendFactory:
    """Frontends over one shared instance (catalog, engine, read path)."""

    def factory(
        user: str, database: str, options: dict[str, str], process: ProcessInfo
    ) -> Frontend:
        return Frontend(instance, user, database, options, process)

    return factory


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


def _reach(host: str) -> str:
    """Who can connect, for the start-up line: loopback unless told otherwise."""
    if loopback(host):
        return "loopback only; --host to listen elsewhere"
    return "reachable from other hosts"


def _bound_socket(host: str, port: int) -> socket.socket | None:
    """A socket bound to ``host`` (an IPv4 or IPv6 address literal) and ``port`` as
    ``create_server`` binds one (SO_REUSEADDR; IPV6_V6ONLY for IPv6), or None for a name or
    "" (``create_server`` resolves those).  Binding it here spares start-up what resolving
    the address costs: uvloop encodes the host with the ``idna`` codec (encodings.idna,
    stringprep, unicodedata: ~2 ms).  A failed bind raises ``create_server``'s error."""
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            socket.inet_pton(family, host)
        except (OSError, ValueError):
            continue
        sock = socket.socket(family, socket.SOCK_STREAM)
        address: tuple[str, int] | tuple[str, int, int, int] = (host, port)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                address = (host, port, 0, 0)
            sock.bind(address)
        except OSError as e:
            sock.close()
            # asyncio's and uvloop's words (base_events.py create_server)
            raise OSError(
                e.errno,
                f"error while attempting to bind on address {address!r}: "
                f"{(e.strerror or str(e)).lower()}",
            ) from None
        return sock
    return None


class Server:
    """An rwshim server: ``await start()``, then ``.port``; ``await stop()`` to end."""

    def __init__(
        self,
        config: Config,
        frontend_factory: FrontendFactory | None = None,
        *,
        instance: Instance | None = None,
    ) -> None:
        self.config = config
        self.registry = SessionRegistry()
        # An instance the server made is the server's to close (checkpoint) when it stops.
        self._owns_instance = instance is None and frontend_factory is None
        if instance is None and frontend_factory is None:
            instance = Instance(
                config.data_dir, manual_clock=config.manual_clock, postgres_url=config.postgres_url
            )
        self.instance = instance
        if instance is not None:
            instance.registry = self.registry
        if frontend_factory is None:
            assert instance is not None
            frontend_factory = instance_frontend_factory(instance)
        self.frontend_factory = frontend_factory
        self._barriers: asyncio.Task[None] | None = None
        # Set when the engine is owed a barrier before the interval is up (a foreground create
        # whose backfill the next barrier completes): the barrier loop wakes at once.
        self._barrier_wake: asyncio.Event | None = None
        self.port: int = config.port
        self.host: str = config.host
        self._server: asyncio.Server | None = None
        self.dashboard: Dashboard | None = None
        # Live connections (start-up included), for shutdown.
        self._clients: set[ClientProtocol] = set()
        self._ssl: ssl.SSLContext | None = None
        if config.tls_cert is not None and config.tls_key is not None:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(str(config.tls_cert), str(config.tls_key))
            self._ssl = ctx

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        bound = _bound_socket(self.config.host, self.config.port)
        if bound is not None:
            self._server = await loop.create_server(lambda: ClientProtocol(self), sock=bound)
        else:
            self._server = await loop.create_server(
                lambda: ClientProtocol(self), self.config.host, self.config.port
            )
        sock = self._server.sockets[0].getsockname()
        self.host, self.port = sock[0], sock[1]
        if self.instance is not None:
            self.instance.set_frontend_address(self.host, self.port)
            # Always running: a manual clock only makes it idle (RWSHIM CLOCK switches modes).
            loop = asyncio.get_running_loop()
            wake = self._barrier_wake = asyncio.Event()

            def wanted() -> None:
                # A closed loop (server stopped) has no barrier loop left to wake.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(wake.set)

            self.instance.engine.on_barrier_wanted = wanted
            self._barriers = loop.create_task(self._barrier_loop())
        log.info("rwshim ready on %s:%d (%s)", self.host, self.port, _reach(self.host))
        if self.config.dashboard_port is not None and self.instance is not None:
            await self._start_dashboard(self.instance)

    async def _start_dashboard(self, instance: Instance) -> None:
        """The web dashboard on the SQL port's host; the SQL port is already serving."""
        from rwshim import dashboard

        cfg = self.config
        assert cfg.dashboard_port is not None
        try:
            self.dashboard = await dashboard.start(
                instance, cfg.host, cfg.dashboard_port, control=cfg.dashboard_control
            )
        except OSError as e:
            if not cfg.dashboard_optional:
                await self.stop()
                raise
            log.warning(
                "no dashboard: %s (--dashboard-port N for another port, 0 for none)",
                e.strerror or e,
            )

    async def _barrier_loop(self) -> None:
        """Inject a barrier into each database at its barrier interval (decision 6)."""
        assert self.instance is not None
        while True:
            if self.instance.manual:
                await asyncio.sleep(0.05)
                continue
            engine = self.instance.engine
            wake = self._barrier_wake
            if wake is not None:
                wake.clear()
            due = engine.barrier.due_databases()
            ready = [db for db, ms in due if ms <= 0]
            for db in ready:
                try:
                    self.instance.tick(db)
                except Exception:
                    log.exception("barrier of database %d failed", db)
            if ready:
                # The databases just ticked are due again one interval from now.
                due = self.instance.engine.barrier.due_databases()
            wait_ms = min((ms for _, ms in due if ms > 0), default=100)
            if wake is None:
                await asyncio.sleep(max(wait_ms, 1) / 1000)
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), max(wait_ms, 1) / 1000)

    async def stop(self) -> None:
        """Stop accepting, then end every connection (FATAL 57P01, as PostgreSQL does)."""
        if self.dashboard is not None:
            await self.dashboard.stop()
            self.dashboard = None
        if self._barriers is not None:
            self._barriers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._barriers
            self._barriers = None
        if self._server is not None:
            self._server.close()
        tasks = [t for t in (c.shutdown() for c in list(self._clients)) if t is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()
            self._server = None
        if self._owns_instance and self.instance is not None:
            self._owns_instance = False
            # the barriers that happened are committed on the data plane; writes no barrier
            # covered are dropped, as RisingWave drops an epoch it did not checkpoint
            with contextlib.suppress(Exception):
                await self.instance.settle_changes()
            self.instance.close()

    async def serve_forever(self) -> None:
        assert self._server is not None
        await self._server.serve_forever()

    # --- one connection ------------------------------------------------------------------

    async def _begin(self, client: ClientProtocol) -> None:
        """Start-up of one connection (TLS, authentication, the session), then the messages
        that came with it; the connection's callbacks take over from there."""
        addr = client.addr
        try:
            try:
                session = await asyncio.wait_for(
                    self._startup(client.conn, client, client, addr), self.config.startup_timeout
                )
            except TimeoutError:
                log.info("startup timeout for %s", addr)
                session = None
            if session is None:
                client.finish()
                return
            self.registry.add(session)
            p = session.process
            log.info(
                logfmt.line(
                    "connection", addr=addr, pid=p.pid, user=p.user, db=p.database,
                    app=p.application_name,
                )
            )  # fmt: skip
            session.shell_tasks = True
            client.session = session
        except asyncio.CancelledError:
            client.terminate()
            return
        except (ConnectionError, ssl.SSLError, OSError) as e:
            log.debug("connection %s ended: %s", addr, e)
            client.finish()
            return
        except Exception:
            log.exception("connection %s failed", addr)
            client.finish()
            return
        await client.serve(None)

    async def _read(self, conn: ServerConnection, reader: ClientProtocol) -> ev.Event:
        while True:
            event = conn.next_event()
            if event is not None:
                return event
            await reader.wait_data()

    @staticmethod
    def _fatal(writer: ClientProtocol, err: RwError | ev.ProtocolError) -> None:
        if isinstance(err, ev.ProtocolError):
            writer.write(backend.error_response("FATAL", err.sqlstate, err.message))
        else:
            writer.write(backend.error_response("FATAL", err.code, err.report(None)))

    async def _startup(
        self,
        conn: ServerConnection,
        reader: ClientProtocol,
        writer: ClientProtocol,
        addr: str,
    ) -> Session | None:
        while True:
            event = await self._read(conn, reader)
            if isinstance(event, ev.SSLRequest):
                if self._ssl is not None and not writer.get_extra_info("ssl_object"):
                    writer.write(backend.SSL_YES)
                    await writer.drain()
                    await writer.start_tls(self._ssl)
                else:
                    writer.write(backend.SSL_NO)
                conn.ssl_negotiated()
            elif isinstance(event, ev.GSSENCRequest):
                writer.write(backend.SSL_NO)
                conn.ssl_negotiated()
            elif isinstance(event, ev.CancelRequest):
                # Answer nothing and close (PostgreSQL and RisingWave both do).
                self.registry.cancel(event.pid, event.key)
                return None
            elif isinstance(event, ev.ProtocolError):
                log.info("protocol violation from %s: %s", addr, event.message)
                self._fatal(writer, event)
                return None
            elif isinstance(event, ev.StartupMessage):
                return await self._login(conn, reader, writer, addr, event)
            else:
                return None

    async def _login(
        self,
        conn: ServerConnection,
        reader: ClientProtocol,
        writer: ClientProtocol,
        addr: str,
        startup: ev.StartupMessage,
    ) -> Session | None:
        cfg = self.config
        params = startup.params
        if cfg.tls_required and not writer.get_extra_info("ssl_object"):
            # RisingWave's RW_SSL_ENFORCE check (pg_protocol.rs:716-724).
            cause = RwError("SSL connection is required but not established")
            self._fatal(writer, errors.StartupFailed(cause))
            return None
        user = params.get("user") or cfg.user
        database = params.get("database") or cfg.database
        out: list[bytes] = []
        if startup.minor > 0 or startup.unrecognized:
            out.append(backend.negotiate_protocol_version(0, startup.unrecognized))
        try:
            options = parse_options(params.get("options", ""))
        except RwError as e:
            self._fatal(writer, errors.StartupFailed(e))
            return None
        app = params.get("application_name")
        if app is not None:
            options["application_name"] = app
        if len(self.registry) >= cfg.max_connections:
            writer.write(b"".join(out))
            self._fatal(writer, errors.TooManyConnections())
            return None
        if self.instance is not None:
            # RisingWave connects the session (database, role, LOGIN, CONNECT) before any
            # password exchange (pg_protocol.rs:737-740, session.rs connect_inner).
            try:
                connect_check(self.instance, user, database)
            except RwError as e:
                writer.write(b"".join(out))
                self._fatal(
                    writer, e if isinstance(e, errors.StartupFailed) else errors.StartupFailed(e)
                )
                return None
        try:
            authenticator = self._authenticator(user)
        except auth.AuthFailed as e:
            self._fatal(writer, ev.ProtocolError(e.sqlstate, str(e)))
            return None
        first = authenticator.start()
        if first is not None:
            out.append(first)
            writer.write(b"".join(out))
            out = []
            while True:
                event = await self._read(conn, reader)
                if isinstance(event, ev.ProtocolError):
                    self._fatal(writer, event)
                    return None
                if not isinstance(event, ev.PasswordMessage):
                    return None  # the client left (psql does, to prompt for a password)
                try:
                    step = authenticator.step(event.payload)
                except auth.AuthFailed as e:
                    if e.sqlstate == "28P01":
                        self._fatal(writer, errors.InvalidPassword())
                    else:
                        self._fatal(writer, ev.ProtocolError(e.sqlstate, str(e)))
                    return None
                if step.reply:
                    writer.write(step.reply)
                if step.done:
                    break
        out.append(backend.AUTH_OK)
        conn.authenticated()
        process = self.registry.new_process(
            user, database, addr, options.get("application_name", "")
        )
        try:
            frontend = self.frontend_factory(user, database, options, process)
        except RwError as e:
            writer.write(b"".join(out))
            fatal = e if isinstance(e, errors.StartupFailed) else errors.StartupFailed(e)
            self._fatal(writer, fatal)
            return None
        except Exception as e:
            log.exception("frontend factory failed")
            writer.write(b"".join(out))
            self._fatal(writer, errors.StartupFailed(RwError(f"internal error: {e}")))
            return None
        out.append(backend.backend_key_data(process.pid, process.key))
        for name, value in self._parameters(frontend, user, options):
            out.append(backend.parameter_status(name, value))
        out.append(backend.ready_for_query(frontend.txn_status))
        writer.write(b"".join(out))

        async def flush() -> None:
            writer.write(session.take_output())
            await writer.drain()

        session = Session(conn, frontend, process, flush)
        return session

    def _authenticator(self, user: str) -> auth.Authenticator:
        """The user's own password when CREATE USER gave one (RisingWave picks the exchange
        from the stored form, session.rs:1700-1733: md5 challenge for an md5 hash,
        cleartext for plaintext); otherwise ``--password`` for everyone, checked by
        ``--auth``; no password anywhere is trust."""
        cfg = self.config
        stored = self.instance.user_password(user) if self.instance is not None else None
        if stored is None:
            return auth.make_authenticator(cfg.auth_method, user, cfg.password)
        if stored.auth_type == "md5":
            return auth.Md5(user, stored=stored.value)
        if stored.auth_type == "plaintext":
            return auth.Cleartext(stored.value)
        # session.rs:1724-1729 bail_protocol_error!("Unsupported auth type: {}")
        kind = {"sha256": "SHA256"}.get(stored.auth_type, stored.auth_type.upper())
        raise auth.AuthFailed(f"Unsupported auth type: {kind}")

    def _parameters(
        self, frontend: Frontend, user: str, options: dict[str, str]
    ) -> list[tuple[str, str]]:
        superuser = getattr(frontend, "is_superuser", True)
        params = {
            "application_name": options.get("application_name", ""),
            "client_encoding": "UTF8",
            "DateStyle": "ISO, MDY",
            "integer_datetimes": "on",
            "IntervalStyle": "postgres",
            "is_superuser": "on" if superuser else "off",
            "server_encoding": "UTF8",
            "server_version": self.config.server_version,
            "session_authorization": user,
            "standard_conforming_strings": "on",
            "TimeZone": getattr(frontend, "timezone", "UTC"),
        }
        params.update(self.config.extra_parameters)
        return list(params.items())


async def serve(config: Config, frontend_factory: FrontendFactory | None = None) -> None:
    """Run a server until SIGINT/SIGTERM, then shut down cleanly."""
    server = Server(config, frontend_factory)
    # Handlers first: a signal that comes once the SQL port answers, while the dashboard is
    # still starting, shuts down cleanly too.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    await server.start()
    # What start-up built (modules, grammar, catalog caches) lives as long as the process:
    # move it out of the collector's generations so full collections stop rescanning it.
    gc.freeze()
    gc.enable()
    try:
        await stop.wait()
    finally:
        log.info("rwshim shutting down")
        await server.stop()


def run(config: Config, frontend_factory: FrontendFactory | None = None) -> None:
    """Run ``serve`` on a fresh event loop (uvloop when installed and not disabled)."""
    # A file-size limit (ulimit -f) makes a write past it fail (EFBIG, answered as a write
    # error) instead of killing the server with SIGXFSZ.
    with contextlib.suppress(ValueError, AttributeError):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    loop_factory = None
    if config.use_uvloop:
        try:
            import uvloop

            loop_factory = uvloop.new_event_loop
        except ImportError:
            pass
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(serve(config, frontend_factory))
