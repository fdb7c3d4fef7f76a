"""One rwshim "cluster": the meta store, the catalog and barrier engine, the read path, the data
plane and the clock, shared by every connection of a server (RisingWave's meta node plus its
frontend state, and its compute nodes' data on PostgreSQL).

No I/O here: the server drives ``tick()`` from its barrier loop, tests drive it by hand; the
data plane (rwshim/dataplane) does its I/O when a session awaits it, and starts nothing until
the first data statement.
"""

from __future__ import annotations

import datetime as dt
import math
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rwshim.binder.relations import RelKind
from rwshim.binder.rewrites import register_rewrite
from rwshim.catalog_path.engine import QueryEngine
from rwshim.catalog_path.reader import CatalogReader
from rwshim.catalog_path.store_source import StoreRelations
from rwshim.common.passwords import StoredPassword
from rwshim.common.releases import Release, check_store_release
from rwshim.common.releases import release as find_release
from rwshim.engine import Engine, ManualClock, SystemClock
from rwshim.engine.types import Clock
from rwshim.errors import NotImplementedError_, StoreUnusable
from rwshim.sql import changelog_cte, corresponding
from rwshim.sql.lenient import quote_keyword_relations
from rwshim.store import functions as store_functions
from rwshim.store.files import damaged
from rwshim.store.store import Store

if TYPE_CHECKING:
    from rwshim.dataplane.changelog import ChangeLog
    from rwshim.dataplane.plane import DataPlane
    from rwshim.dataplane.sinks.delivery import Sinks
    from rwshim.dataplane.sources.runtime import Sources


# The server's live sessions, as the instance and the frontend's handlers see them.  The
# registry is the server's (rwshim/server/registry.py, a layer above): these protocols name what
# is asked of it, so that nothing here or in the frontend imports the server.


class Process(Protocol):
    """One live connection as SHOW PROCESSLIST, SHOW CURSORS and its frontend see it (the
    server's ``ProcessInfo``, rwshim/server/portals.py)."""

    pid: int
    user: str
    database: str
    client_addr: str
    # The statement running now (or the last one run), when it started, whether it runs.
    statement: str | None
    statement_started: float | None
    active: bool


class LiveSession(Protocol):
    """One live session: its process record and its connection's frontend (a ``Frontend``,
    rwshim/frontend/, a layer above: its handlers narrow it)."""

    @property
    def process(self) -> Process: ...

    @property
    def frontend(self) -> object: ...


class Sessions(Protocol):
    """The server's registry of live sessions (SHOW PROCESSLIST, SHOW CURSORS, KILL), which
    also releases their open reads before a write."""

    def release_reads(self) -> None: ...

    def processes(self) -> Sequence[Process]: ...

    def sessions(self) -> Sequence[LiveSession]: ...

    def kill(self, pid: int) -> bool: ...


class Instance:
    """The state every session of one server shares."""

    def __init__(
        self,
        data_dir: str | Path | None = None,
        *,
        manual_clock: bool = False,
        postgres_url: str | None = None,
        release: Release | str | None = None,
        data_pool_size: int | None = None,
    ) -> None:
        # The RisingWave release this instance answers as (rwshim.common.releases).
        self.release = release if isinstance(release, Release) else find_release(release)
        self.data_dir = data_dir
        self.manual = manual_clock
        self.clock: Clock = ManualClock() if manual_clock else SystemClock()
        self.store = Store.open(data_dir)
        self._check_store_release()
        store_functions.register(self.store.conn, self.release)
        self.postgres_url = postgres_url
        self.data_pool_size = data_pool_size  # None: the data plane's default
        self._data: DataPlane | None = None
        self._sources: Sources | None = None
        self._changelog: ChangeLog | None = None
        self._sinks: Sinks | None = None
        try:
            # The read path first: opening an existing store runs recovery, whose first
            # barrier moves creating jobs and so counts upstream rows through it.
            self._attach_read_path()
            self.engine = Engine(
                self.store, self.clock, row_count=self.row_count, release=self.release
            )
            if self._data is not None:  # made while the engine recovered (row counts)
                self.engine.barrier.on_barrier.append(self._epoch_barrier)
        except sqlite3.DatabaseError as e:
            # A page that quick_check passed but recovery cannot read: refuse in one line.
            self.store.conn.close()
            raise damaged(self.store.path or Path(":memory:"), str(e)) from None
        self.registry = None
        # Called after every barrier (the pytest plugin and ctl watch progress through it).
        self.on_tick: list[Callable[[], None]] = []
        if any(self.relations.connector_relations(c) for c in ("datagen", "posix_fs")):
            self.sources  # noqa: B018 (they produce from the first barrier)
        if self.relations.connector_relations("postgres-cdc"):
            self.sources.cdc  # noqa: B018 (its tables read their upstream at the barriers)

    # Set by the server: lists live sessions for SHOW PROCESSLIST and KILL, and releases
    # their open reads before a write.  (A class default too: recovery, which may write,
    # runs in __init__ before it is set.)
    registry: Sessions | None = None

    def _release_reads(self) -> None:
        registry = self.registry
        if registry is not None:
            registry.release_reads()

    def _check_store_release(self) -> None:
        """A data directory last run by a later release is refused as that release's meta
        refuses a store with migrations it does not know; an earlier one's is taken (and
        upgraded: it now records this release).  (Release.added_migrations)"""
        if self.data_dir is None:
            return
        why = check_store_release(self.store.meta_value("rw_release"), self.release)
        if why is not None:
            self.store.close()
            raise StoreUnusable(why)
        if self.store.meta_value("rw_release") != self.release.key:
            with self.store.transaction() as c:
                c.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES ('rw_release', ?)",
                    (self.release.key,),
                )

    def _attach_read_path(self) -> None:
        self.store.release_hooks.append(self._release_reads)
        conn = self.store.conn
        # statement_timeout: SQLite checks the running batch query's deadline as it works
        # (one query runs at a time: the store is driven from one thread).
        conn.set_progress_handler(self._past_deadline, 50_000)
        self.relations = StoreRelations(conn)
        # the one read API over the store's rows for the frontend, dashboard and data plane
        self.catalog_reader = CatalogReader(conn)
        # The read path parses statements rwshim.sql accepted: RisingWave's keyword relation
        # names too.
        register_rewrite(quote_keyword_relations)
        # ... and its changelog CTEs as relations (binder/resolve.py gives them their columns)
        register_rewrite(changelog_cte.as_relations)
        # UNION CORRESPONDING & co as marked wrappers (rwshim.sql.corresponding)
        register_rewrite(corresponding.rewrite)
        self.query = QueryEngine(
            conn,
            self.relations,
            version=self.release.cluster_version,
            release=self.release,
            clock=self._now,
        )
        self.query.refuse_user_data = self._refuse_user_data
        if self._data is not None:
            self._data.relations = self.relations

    # time.monotonic() after which SQLite abandons the query running now (inf: none runs).
    deadline: float = math.inf

    def _past_deadline(self) -> int:
        return 1 if time.monotonic() > self.deadline else 0

    def _now(self) -> dt.datetime:
        """The in-process batch now(): as on the data plane, the time of the last committed
        epoch once a barrier committed there (src/frontend/src/scheduler/snapshot.rs:132-145;
        dataplane/temporal.py, Clocked.batch_now), else the clock's."""
        ms = None if self._data is None else self._data.epochs.clocked.current()
        if ms is None:
            ms = self.clock.now_ms()
        return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)

    @property
    def data(self) -> DataPlane:
        """The data plane (made, and its modules imported, on first use)."""
        if self._data is None:
            from rwshim.dataplane.plane import DataPlane

            pool = {} if self.data_pool_size is None else {"pool_size": self.data_pool_size}
            self._data = DataPlane(
                self.relations, postgres_url=self.postgres_url, data_dir=self.data_dir, **pool
            )
            # a time-travel NOW() reads the frontend's clock: rwshim's (manual or not)
            self._data.epochs.clocked.clock_ms = lambda: self.clock.now_ms()
            engine = getattr(self, "engine", None)  # (none yet while the engine recovers)
            # the epoch a write belongs to before a barrier reached the data plane
            self._data.epochs.clocked.epoch_of = lambda db: self.engine.barrier.epoch(db)
            if engine is not None:
                # every barrier from now on commits its epoch on the data plane
                engine.barrier.on_barrier.append(self._epoch_barrier)
            from rwshim.dataplane.sinks.delivery import Sinks

            # sinks deliver at the barriers' commits (dataplane/sinks)
            self._sinks = Sinks(self._data, self._sink_failed)
        return self._data

    @property
    def sinks(self) -> Sinks:
        """The delivering sinks (dataplane/sinks), made with the data plane."""
        _ = self.data
        assert self._sinks is not None
        return self._sinks

    def _sink_failed(self, sink_id: int, name: str, connector: str, error: str) -> None:
        """A sink failed: RisingWave's SINK_FAIL event (rw_event_logs)."""
        self.engine.events.sink_fail(sink_id, name, connector, error)

    async def settle_sinks(self) -> None:
        """Every external sink's log written as far as its target takes it now (a FLUSH:
        a sink that is not decoupled has written its epoch when the barrier completes)."""
        if self._sinks is not None:
            await self._sinks.settle()

    @property
    def sources(self) -> Sources:
        """The connector runtime over the data plane (dataplane/sources/: RWSHIM PUSH,
        datagen, posix_fs), made with the data plane it writes to."""
        data = self.data
        runtime = self._sources
        if runtime is None or runtime.plane is not data:
            from rwshim.dataplane.sources.runtime import Sources

            runtime = self._sources = Sources(data, lambda: self.clock.now_ms())
        return runtime

    @property
    def commits_pending(self) -> bool:
        """Whether a barrier's commit on the data plane has not run yet (a read then waits
        for it: it must see every barrier that came before it)."""
        return self._data is not None and self._data.epochs.pending

    def epoch_losses(self, database_id: int) -> int:
        """Open epochs of the database whose writes the data plane lost (epochs.py)."""
        return 0 if self._data is None else self._data.epochs.losses(database_id)

    async def settle_changes(self) -> None:
        """Every barrier so far has committed its epoch on the data plane and sealed its
        changes in the subscriptions' logs (a write after a barrier must not go into that
        barrier's epoch); nothing to wait for before the data plane starts."""
        if self._data is not None:
            await self._data.epochs.settle()
        if self._changelog is not None:
            await self._changelog.settle()

    @property
    def changelog(self) -> ChangeLog:
        """The subscriptions' change logs on the data plane (made on first use)."""
        if self._changelog is None:
            from rwshim.dataplane.changelog import ChangeLog

            self._changelog = ChangeLog(self.engine, self.data, self.catalog_reader)
        return self._changelog

    @property
    def conn(self) -> sqlite3.Connection:
        return self.store.conn

    def row_count(self, relation_id: int) -> int:
        """Rows a backfill of ``relation_id`` reads: a table's rows, or the rows of a
        materialized view's defining query (it reads as that query, decision 4), as the data
        plane last counted them (before the CREATE, and after DML).  Not counted in this
        process yet (a restart with a creating job): the total the engine stored at its last
        barrier, while the data plane counts again."""
        found = None if self._data is None else self._data.counts.get(relation_id)
        if found is not None:
            return found
        total = self.catalog_reader.backfill_total(relation_id)
        if self._data is not None or self.data_dir is not None or self.postgres_url:
            self.data.recount_soon(relation_id)
        return total or 0

    def _refuse_user_data(self, relation_ids: list[int]) -> None:
        """The in-process path was about to read user data: only catalog relations (and
        views of them) are there; everything else runs on PostgreSQL."""
        for rid in relation_ids:
            rel = self.relations.relation_by_id(rid)
            if rel is None:
                continue
            if rel.kind == RelKind.VIEW and self.data.catalog_only(rel):
                continue
            raise NotImplementedError_(
                f"this statement on {rel.kind.value} {rel.name}: its syntax cannot run on the"
                " PostgreSQL data plane yet"
            )

    def set_frontend_address(self, host: str, port: int) -> None:
        """The frontend worker's address in rw_worker_nodes / SHOW CLUSTER: the server's own
        listen address (RisingWave's frontend registers its advertise address, defaulting to
        its listen address: src/frontend/src/session.rs:313-321)."""
        with self.store.transaction():
            self.conn.execute(
                "UPDATE worker SET host = ?, port = ? WHERE worker_type = 'WORKER_TYPE_FRONTEND'",
                (host, port),
            )

    def user_password(self, name: str) -> StoredPassword | None:
        """The password stored for user ``name`` by CREATE USER ... PASSWORD (None when the
        user has none or does not exist: the server's ``--password`` applies then)."""
        return self.catalog_reader.stored_password(name)

    def _epoch_barrier(self, database_id: int, epoch: int) -> None:
        """A barrier reaches the data plane: a checkpoint commits the open epoch there, any
        other barrier leaves its writes queued (dataplane/epochs.py)."""
        if self._data is not None:
            checkpoint = self.engine.barrier.checkpoint
            self._data.epochs.on_barrier(database_id, epoch, checkpoint=checkpoint)

    def tick(self, database_id: int | None = None) -> None:
        """One barrier (all databases when None); the catalog may have changed."""
        self.engine.barrier.tick(database_id)
        self.query.invalidate()
        for fn in list(self.on_tick):
            fn()

    def set_manual(self, manual: bool) -> None:
        """Take the clock (no periodic barriers; time moves only with ``step``) or give it back
        to the wall clock.  The server's barrier loop reads ``manual`` before every barrier."""
        if manual == self.manual:
            return
        self.manual = manual
        # A manual clock starts where the wall clock is, so epochs and timestamps keep rising.
        self.clock = ManualClock(SystemClock().now_ms()) if manual else SystemClock()
        self.engine.clock = self.clock

    def step(self, count: int = 1, database_id: int | None = None) -> None:
        """``count`` barriers now; a manual clock first advances by the barrier interval, so
        each barrier carries one interval of backfill progress, as a periodic one does."""
        for _ in range(count):
            if isinstance(self.clock, ManualClock):
                self.clock.advance(self._interval_ms(database_id))
            self.tick(database_id)

    def _interval_ms(self, database_id: int | None) -> int:
        if database_id is not None:
            return self.engine.params.barrier_interval_ms(database_id)
        due = self.engine.barrier.due_databases()
        if not due:
            return int(self.engine.meta.system_param("barrier_interval_ms") or 1000)
        return min(self.engine.params.barrier_interval_ms(db) for db, _ in due)

    def restart(self) -> None:
        """Close and reopen the store: RisingWave's recovery on restart (decision 3)."""
        self.engine = self.engine.restart(on_open=self._reopened)
        self._reopened(self.engine.store)
        if self._data is not None:
            # recovery goes back to the last committed epoch: what no barrier committed is
            # gone (epochs.py); the new engine's barriers commit from now on
            self._data.epochs.close_now()
            self.engine.barrier.on_barrier.append(self._epoch_barrier)
        # a meta restart: the change logs' in-memory state (MV baselines) starts again
        if self._changelog is not None:
            self._changelog.close_now()
            self._changelog = None
        # Recovery may have deleted jobs: the read path's cached catalog is stale.
        self.query.invalidate()

    def _reopened(self, store: Store) -> None:
        """The store was reopened: the read path follows it (before recovery counts rows)."""
        if store is not self.store:
            self.store = store
            self._attach_read_path()

    def close(self) -> None:
        """Close the data plane's connections, checkpoint and close the store (nothing
        committed is left only in the WAL)."""
        if self._changelog is not None:
            self._changelog.close_now()
        if self._sinks is not None:
            self._sinks.close_now()
        if self._data is not None:
            self._data.close_now()
        self.store.close()
