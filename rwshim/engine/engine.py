"""The Engine: RisingWave's meta node as a facade over its parts (synchronous, clock injected,
no I/O).

Each part owns one seam of RisingWave's meta node and is reached as an attribute:
``engine.ddl`` (CREATE/DROP of relations), ``engine.alter`` (renames, owners, schemas),
``engine.jobs`` (the streaming-job lifecycle,
CANCEL JOBS, WAIT), ``engine.scale`` (reschedules), ``engine.throttle`` (rate limits),
``engine.barrier`` (epochs, pause, admission), ``engine.backfill`` (the progress model,
SHOW JOBS), ``engine.recovery``, ``engine.catalog``, ``engine.users``,
``engine.privileges`` (GRANT/REVOKE, default privileges, a user's ACL), ``engine.params``,
``engine.actors``, ``engine.fragments``, ``engine.waits``, ``engine.secrets`` (secrets and
connections) and ``engine.streaming_config`` (ALTER ... SET / RESET CONFIG);
``ARCHITECTURE.md`` maps them to RisingWave's files.  The parts share ``Meta`` (the store,
the clock, the fault switches, the after-commit actions) and call each other only downwards,
in the order they are built here (tests/unit/test_layering.py holds it).

Every DDL method takes plain values (a ``Context``, names, definition text, columns, upstream
relation ids, WITH options as pairs) and returns a ``Result`` or raises the ``RwError`` that
RisingWave would send.  Time moves only through ``barrier.tick()`` (a periodic barrier) and
through commands, which get their barrier at once, as in RisingWave.  State lives in the
``Store``; the in-memory part is only what a restart loses in RisingWave too (waiting
sessions, fault switches).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from rwshim.common.releases import HEAD, Release
from rwshim.engine.actors import Actors
from rwshim.engine.alter import Alter
from rwshim.engine.backfill import Backfill
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog
from rwshim.engine.ddl import Ddl
from rwshim.engine.events import Events
from rwshim.engine.fragments import Fragments
from rwshim.engine.jobs import Jobs
from rwshim.engine.params import Params
from rwshim.engine.privileges import Privileges
from rwshim.engine.recovery import Recovery
from rwshim.engine.scale import Scale
from rwshim.engine.secrets import Secrets
from rwshim.engine.state import Faults, Meta
from rwshim.engine.subscriptions import Subscriptions
from rwshim.engine.throttle import Throttle
from rwshim.engine.types import Clock
from rwshim.engine.users import Users
from rwshim.engine.waits import Waits
from rwshim.store.store import Store

if TYPE_CHECKING:
    from rwshim.engine.alter_columns import AlterColumns
    from rwshim.engine.alter_connector import AlterConnector
    from rwshim.engine.alter_props import AlterProps
    from rwshim.engine.functions import Functions
    from rwshim.engine.streaming_config import StreamingJobConfig


class Engine:
    """RisingWave's control plane over a ``Store``: its parts, built bottom-up.  Construction
    runs bootstrap recovery."""

    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        *,
        row_count: Callable[[int], int] | None = None,
        streaming_slots: int = 4,
        backfill_rows_per_second: int = 1_000_000,
        release: Release = HEAD,
    ) -> None:
        self.meta = Meta(
            store,
            clock,
            release=release,
            row_count=row_count,
            streaming_slots=streaming_slots,
            backfill_rows_per_second=backfill_rows_per_second,
        )
        self.store = store
        self.conn: sqlite3.Connection = store.conn
        self.privileges = Privileges(self.meta)
        self.users = Users(self.meta, self.privileges)
        self.waits = Waits(self.meta)
        self.catalog = Catalog(self.meta, self.users, self.waits, self.privileges)
        self.params = Params(self.meta, self.users, self.catalog, self.waits)
        self.actors = Actors(self.meta)
        self.fragments = Fragments(self.meta)
        self.backfill = Backfill(self.meta, self.params, self.catalog, self.actors, self.waits)
        self.barrier = Barrier(
            self.meta, self.users, self.params, self.catalog, self.backfill, self.waits
        )
        self.scale = Scale(self.meta, self.catalog, self.actors, self.barrier, self.backfill)
        self.throttle = Throttle(self.meta, self.catalog, self.barrier)
        self.recovery = Recovery(
            self.meta,
            self.users,
            self.params,
            self.catalog,
            self.waits,
            self.actors,
            self.barrier,
        )
        self.jobs = Jobs(
            self.meta,
            self.catalog,
            self.waits,
            self.fragments,
            self.actors,
            self.backfill,
            self.barrier,
            self.recovery,
        )
        self.secrets = Secrets(self.meta, self.users, self.catalog)
        self.ddl = Ddl(self.meta, self.catalog, self.waits, self.barrier, self.jobs, self.secrets)
        self.alter = Alter(self.meta, self.users, self.catalog)
        self.subscriptions = Subscriptions(self.meta, self.users, self.catalog, self.barrier)
        self.events = Events(self.meta)
        # a cross-database scan needs a subscription on its upstream; a DROP of a subscribed
        # relation lists its subscriptions; a rename rewrites their definitions
        self.jobs.cross_db_check = self.subscriptions.refuse_unsubscribed
        self.ddl.subscriptions = self.subscriptions
        self.alter.subscriptions = self.subscriptions
        with self.store.transaction():
            self.params.ensure_defaults()
            self.actors.ensure_workers()
        self.recovery.recover(bootstrap=True)

    # The parts no other part uses and that keep no state of their own (each holds its
    # collaborators only): built, and their modules imported, on first use, not with every
    # start-up (issue 16).

    @cached_property
    def functions(self) -> Functions:
        from rwshim.engine.functions import Functions

        return Functions(self.meta, self.catalog, self.barrier)

    @cached_property
    def streaming_config(self) -> StreamingJobConfig:
        from rwshim.engine.streaming_config import StreamingJobConfig

        return StreamingJobConfig(self.meta, self.catalog)

    @cached_property
    def alter_columns(self) -> AlterColumns:
        from rwshim.engine.alter_columns import AlterColumns

        return AlterColumns(self.meta, self.catalog)

    @cached_property
    def alter_props(self) -> AlterProps:
        from rwshim.engine.alter_props import AlterProps

        return AlterProps(self.meta, self.catalog, self.secrets)

    @cached_property
    def alter_connector(self) -> AlterConnector:
        from rwshim.engine.alter_connector import AlterConnector

        return AlterConnector(self.meta, self.catalog)

    @property
    def clock(self) -> Clock:
        """The shared clock (the instance swaps it when a test takes the clock)."""
        return self.meta.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.meta.clock = clock

    @property
    def faults(self) -> Faults:
        return self.meta.faults

    @property
    def on_barrier_wanted(self) -> Callable[[], None] | None:
        """Called after commit when a database is owed an early barrier (the server's loop)."""
        return self.barrier.on_barrier_wanted

    @on_barrier_wanted.setter
    def on_barrier_wanted(self, fn: Callable[[], None] | None) -> None:
        self.barrier.on_barrier_wanted = fn

    def restart(self, on_open: Callable[[Store], None] | None = None) -> Engine:
        """Test control: a meta-node restart.  The meta node's process state goes with it:
        every part is built anew over the store (a file store is closed and reopened, an
        in-memory one is kept as it is), so nothing of the previous run survives but the
        store (no timers, no waiting sessions, no record of when foreground creates began,
        no fault switches), and the new engine's construction runs bootstrap recovery,
        whatever the store (barrier/worker.rs:367-402).  Sessions waiting on this engine are
        gone with it: their waits fail.  ``on_open`` is called with a reopened store before
        recovery runs on it (so ``row_count`` can follow)."""
        self.waits.meta_restarted()
        store = self.store
        if store.path is not None:
            data_dir = store.path.parent
            store.close()
            store = Store.open(data_dir)
            if on_open is not None:
                on_open(store)
        engine = Engine(
            store,
            self.meta.clock,
            row_count=self.meta.custom_row_count,
            streaming_slots=self.meta.streaming_slots,
            backfill_rows_per_second=self.meta.backfill_rows_per_second,
        )
        engine.on_barrier_wanted = self.on_barrier_wanted
        return engine
