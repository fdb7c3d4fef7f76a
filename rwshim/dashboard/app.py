"""The dashboard's web application (aiohttp, on the server's own event loop): the page and its
static files, the JSON API under ``/api/``, the event stream that keeps the page live, and the
control actions, which answer only when the server was started with ``--dashboard-control``.

    GET  /                       the page (relations, a job's fragments, the blocked set)
    GET  /api                    this list, as JSON
    GET  /api/overview           databases: pause state, epoch, barrier interval; the clock
    GET  /api/relations          relations and their dependencies, with each job's progress
    GET  /api/blocked            for every job: would SET PARALLELISM, SET BACKFILL_PARALLELISM,
                                 ALTER FRAGMENT be refused now, with RisingWave's error
    GET  /api/jobs/{id}          a job's fragments, their edges, its blocked-set entry
    GET  /api/snapshot[?job=id]  all of the above in one value
    GET  /api/events[?job=id]    the snapshot as server-sent events, sent again on each change
    POST /api/control/{action}   pause, resume, tick, clock, hold_backfill, release_backfill

Everything runs on the loop that owns the store, as the SQL sessions do; the event stream
recomputes a snapshot only when the store changed (SQLite's ``total_changes``), after a barrier
or at most every ``poll_interval`` seconds, so an idle page costs one integer read a poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import web

from rwshim.control import statements as control
from rwshim.dashboard import model
from rwshim.errors import RwError

if TYPE_CHECKING:
    from rwshim.instance import Instance

log = logging.getLogger("rwshim.dashboard")

STATIC = Path(__file__).resolve().parent / "static"
# Seconds between comments on an idle event stream (keeps proxies from closing it).
KEEPALIVE_S = 15.0
READ_ONLY = (
    "the dashboard is read-only: start rwshim with --dashboard-control to allow control actions"
)

ENDPOINTS = {
    "GET /api/overview": "databases (pause state, epoch, barrier interval) and the clock",
    "GET /api/relations": "relations and dependencies, each job's status and backfill progress",
    "GET /api/blocked": "for every job: would SET PARALLELISM, SET BACKFILL_PARALLELISM and "
    "ALTER FRAGMENT be refused now, with RisingWave's error and the creating jobs causing it",
    "GET /api/jobs/{id}": "a job's fragments and their edges, and its blocked-set entry",
    "GET /api/snapshot[?job=id]": "overview, relations, blocked (and job) in one value",
    "GET /api/events[?job=id]": "the snapshot as server-sent events, again on every change",
    "POST /api/control/{action}": "pause, resume, tick, clock, hold_backfill, release_backfill "
    "(JSON body; only with --dashboard-control)",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _json(value: Any, status: int = 200) -> web.Response:
    return web.json_response(value, status=status, dumps=lambda v: json.dumps(v, indent=1))


def _error(status: int, message: str) -> web.Response:
    return _json({"error": message}, status)


class Dashboard:
    """The dashboard of one ``Instance``: ``await start(host, port)``, ``.port``, ``stop()``."""

    def __init__(
        self, instance: Instance, *, control: bool = False, poll_interval: float = 0.2
    ) -> None:
        self.instance = instance
        self.control = control
        self.poll_interval = poll_interval
        self.host = ""
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        # Resolved at every barrier (and at shutdown): wakes the event streams at once.
        self._tick: asyncio.Future[None] | None = None
        self._closing = False

    # ------------------------------------------------------------------ lifecycle

    def application(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_static("/static/", STATIC, append_version=False)
        app.router.add_get("/api", self._api_index)
        app.router.add_get("/api/overview", self._overview)
        app.router.add_get("/api/relations", self._relations)
        app.router.add_get("/api/blocked", self._blocked)
        app.router.add_get("/api/jobs/{job_id}", self._job)
        app.router.add_get("/api/snapshot", self._snapshot)
        app.router.add_get("/api/events", self._events)
        app.router.add_post("/api/control/{action}", self._control)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def start(self, host: str, port: int) -> None:
        self._loop = asyncio.get_running_loop()
        self._tick = self._loop.create_future()
        runner = web.AppRunner(self.application(), access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        address = runner.addresses[0]
        self.host, self.port = str(address[0]), int(address[1])
        self.instance.on_tick.append(self._ticked)
        mode = "control actions enabled" if self.control else "read-only"
        log.info("dashboard on %s (%s)", self.url, mode)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    async def stop(self) -> None:
        if self._runner is None:
            return
        with contextlib.suppress(ValueError):
            self.instance.on_tick.remove(self._ticked)
        await self._runner.cleanup()
        self._runner = None

    async def _on_shutdown(self, app: web.Application) -> None:
        self._closing = True
        self._wake()

    def _ticked(self) -> None:
        """Instance.on_tick: a barrier passed (called on the loop, or from another thread)."""
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        fut = self._tick
        if self._loop is not None:
            self._tick = self._loop.create_future()
        if fut is not None and not fut.done():
            fut.set_result(None)

    # ------------------------------------------------------------------ pages and API

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _api_index(self, request: web.Request) -> web.StreamResponse:
        return _json({"endpoints": ENDPOINTS, "control": self.control})

    async def _overview(self, request: web.Request) -> web.StreamResponse:
        return _json(model.overview(self.instance, control_enabled=self.control))

    async def _relations(self, request: web.Request) -> web.StreamResponse:
        return _json(model.relations(self.instance))

    async def _blocked(self, request: web.Request) -> web.StreamResponse:
        return _json(model.blocked(self.instance))

    async def _job(self, request: web.Request) -> web.StreamResponse:
        job_id = _int(request.match_info["job_id"])
        if job_id is None:
            return _error(400, f"not a job id: {request.match_info['job_id']!r}")
        detail = model.job(self.instance, job_id)
        if detail is None:
            return _error(404, f"streaming job {job_id} not found")
        return _json(detail)

    def _job_param(self, request: web.Request) -> tuple[int | None, web.Response | None]:
        text = request.query.get("job")
        if text is None or text == "":
            return None, None
        job_id = _int(text)
        if job_id is None:
            return None, _error(400, f"not a job id: {text!r}")
        return job_id, None

    async def _snapshot(self, request: web.Request) -> web.StreamResponse:
        job_id, bad = self._job_param(request)
        if bad is not None:
            return bad
        return _json(self._take(job_id))

    def _take(self, job_id: int | None) -> model.Json:
        return model.snapshot(self.instance, job_id=job_id, control_enabled=self.control)

    def _change_key(self) -> tuple[int, int, bool]:
        """Changes whenever anything a page shows may have: a write to the store (a restart
        reopens it), or the clock mode."""
        return (*self.instance.catalog_reader.version(), self.instance.manual)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        job_id, bad = self._job_param(request)
        if bad is not None:
            return bad
        resp = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await resp.prepare(request)
        last_key: tuple[int, int, bool] | None = None
        last_data = ""
        idle = 0.0
        try:
            while not self._closing:
                key = self._change_key()
                if key != last_key:
                    last_key = key
                    data = json.dumps(self._take(job_id))
                    if data != last_data:
                        last_data = data
                        idle = 0.0
                        await resp.write(f"data: {data}\n\n".encode())
                if idle >= KEEPALIVE_S:
                    idle = 0.0
                    await resp.write(b": keepalive\n\n")
                tick = self._tick
                assert tick is not None
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(tick), self.poll_interval)
                idle += self.poll_interval
        except ConnectionError:
            pass  # the page went away
        return resp

    # ------------------------------------------------------------------ control actions

    async def _control(self, request: web.Request) -> web.StreamResponse:
        if not self.control:
            return _error(403, READ_ONLY)
        # A JSON body only: a page of another origin cannot send one without a CORS preflight,
        # which this server never grants.
        if request.content_type != "application/json":
            return _error(415, "control actions take a JSON body (Content-Type: application/json)")
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "the body is not JSON")
        if not isinstance(body, dict):
            return _error(400, "the body must be a JSON object")
        action = request.match_info["action"]
        act = self._actions().get(action)
        if act is None:
            return _error(404, f"unknown action {action!r} (one of: {', '.join(self._actions())})")
        try:
            act(body)
        except RwError as e:
            return _error(400, e.report(None))
        except (TypeError, ValueError) as e:
            return _error(400, str(e))
        self._wake()
        return _json({"ok": True, "overview": model.overview(self.instance, control_enabled=True)})

    def _actions(self) -> dict[str, Callable[[dict[str, Any]], None]]:
        inst = self.instance

        def database_id(body: dict[str, Any]) -> int | None:
            name = body.get("database")
            if name is None:
                return None
            if not isinstance(name, str):
                raise TypeError("database must be a name")
            return inst.engine.catalog.database_id(name)

        def pause(body: dict[str, Any], paused: bool) -> None:
            name = body.get("database")
            if name is not None and not isinstance(name, str):
                raise TypeError("database must be a name")
            control.set_paused(inst, name, paused)

        def tick(body: dict[str, Any]) -> None:
            count = body.get("count", 1)
            if not isinstance(count, int) or not 1 <= count <= control.MAX_TICKS:
                raise ValueError(f"count must be an integer between 1 and {control.MAX_TICKS}")
            inst.step(count, database_id(body))

        def clock(body: dict[str, Any]) -> None:
            manual = body.get("manual")
            if not isinstance(manual, bool):
                raise TypeError("manual must be true or false")
            inst.set_manual(manual)

        def backfill(body: dict[str, Any], hold: bool) -> None:
            job_id = body.get("job_id")
            if not isinstance(job_id, int):
                raise TypeError("job_id must be an integer")
            control.hold_backfill(inst, job_id, hold)

        return {
            "pause": lambda b: pause(b, True),
            "resume": lambda b: pause(b, False),
            "tick": tick,
            "clock": clock,
            "hold_backfill": lambda b: backfill(b, True),
            "release_backfill": lambda b: backfill(b, False),
        }


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None
