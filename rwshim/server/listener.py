"""The server (``Server``): listen, the TLS context, accept, the cancel keys' registry, the
barrier loop, graceful shutdown.  Each accepted connection is a ``ClientProtocol``
(rwshim/server/connection.py), which runs its own start-up and authentication with what a
``Context`` made here hands it (config, registry, kept replies, instance, frontend factory, TLS
context); all protocol decisions are made by ``wire/``, the connection and ``session.py``.

RisingWave: ``src/utils/pgwire/src/pg_server.rs`` (``pg_serve``: listen, accept, one
``PgProtocol`` per connection) and the frontend's barrier-driving meta node for the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import socket
import ssl
from typing import TYPE_CHECKING

from rwshim.config import Config, loopback
from rwshim.frontend import Frontend
from rwshim.instance import Instance
from rwshim.server.connection import ClientProtocol, Context, FrontendFactory
from rwshim.server.portals import ProcessInfo
from rwshim.server.registry import SessionRegistry
from rwshim.server.shortcuts.replies import ReplyCache

if TYPE_CHECKING:
    from rwshim.dashboard.app import Dashboard

log = logging.getLogger("rwshim.server")


def instance_frontend_factory(instance: Instance) -> FrontendFactory:
    """Frontends over one shared instance (catalog, engine, read path)."""

    def factory(
        user: str, database: str, options: dict[str, str], process: ProcessInfo
    ) -> Frontend:
        return Frontend(instance, user, database, options, process)

    return factory


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
        # Constant statements' answers kept encoded, shared by every session of this server
        # (rwshim/server/shortcuts/replies.py): wire bytes are the server's, not the instance's.
        self.replies = ReplyCache()
        # An instance the server made is the server's to close (checkpoint) when it stops.
        self._owns_instance = instance is None and frontend_factory is None
        if instance is None and frontend_factory is None:
            instance = Instance(
                config.data_dir,
                manual_clock=config.manual_clock,
                postgres_url=config.postgres_url,
                data_pool_size=config.data_pool_size,
                release=config.rw_version,
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
        tls: ssl.SSLContext | None = None
        if config.tls_cert is not None and config.tls_key is not None:
            tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            tls.load_cert_chain(str(config.tls_cert), str(config.tls_key))
        # What each connection is handed: no connection calls back into the server.
        self._context = Context(
            config, self.registry, self.replies, instance, frontend_factory, self._clients, tls
        )

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        bound = _bound_socket(self.config.host, self.config.port)
        context = self._context
        if bound is not None:
            self._server = await loop.create_server(lambda: ClientProtocol(context), sock=bound)
        else:
            self._server = await loop.create_server(
                lambda: ClientProtocol(context), self.config.host, self.config.port
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
