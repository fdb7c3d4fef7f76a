"""Barriers: each database's epochs and barrier schedule, pause and resume, and the checks a
create command meets when it reaches the barrier worker (admission, apply).  A barrier moves
every creating job of its database one step (``Backfill.progress``); commands (create,
reschedule, drop, pause) get their barrier at once, periodic ones come from ``tick()``.

RisingWave: ``src/meta/src/barrier/checkpoint/control.rs`` (per-database checkpoint control,
admission :1191-1330, Pause/Resume), ``barrier/checkpoint/state.rs`` (the paused state, the
apply-time check :650-660), ``barrier/schedule.rs`` (periodic barriers at the database's
interval), ``src/common/src/util/epoch.rs`` (epochs), ``src/meta/src/manager/metadata.rs:
318-326`` (active databases), ``src/meta/src/rpc/stream_service.rs:168-184`` (risectl meta
pause/resume, which rwshim's ALTER DATABASE/SYSTEM PAUSE extension imitates).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rwshim.engine.backfill import Backfill
from rwshim.engine.catalog import Catalog
from rwshim.engine.params import Params
from rwshim.engine.state import Meta
from rwshim.engine.types import EPOCH_SHIFT, RISINGWAVE_DATE_EPOCH_MS, Context, Result
from rwshim.engine.users import Users
from rwshim.engine.waits import Waits
from rwshim.errors import BatchRefreshWhenPaused, PermissionDenied, SnapshotBackfillWhenPaused


class Barrier:
    """The barrier worker of every database."""

    def __init__(
        self,
        meta: Meta,
        users: Users,
        params: Params,
        catalog: Catalog,
        backfill: Backfill,
        waits: Waits,
    ) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.params = params
        self.catalog = catalog
        self.backfill = backfill
        self.waits = waits
        # Databases owed a barrier before their interval is up: a foreground create whose
        # backfill completes within the epoch after its command barrier (see jobs).
        self._early: set[int] = set()
        # Called after commit when a database is owed an early barrier (the server's loop).
        self.on_barrier_wanted: Callable[[], None] | None = None
        # Called after every periodic barrier, once it committed: time has moved, so the
        # meta node's own timers run (scale's parallelism control listens).
        self.on_periodic: list[Callable[[], None]] = []
        # Called with (database id, epoch) at every barrier, inside its transaction: the
        # subscriptions' change logs assign what was written before it to its epoch.
        self.on_barrier: list[Callable[[int, int], None]] = []
        # Whether the barrier whose listeners run is a checkpoint (read by them), and each
        # database's barriers since its last checkpoint (in memory, as RisingWave's
        # scheduler keeps num_uncheckpointed_barrier: schedule.rs:524-542).
        self.checkpoint = True
        self._uncheckpointed: dict[int, int] = {}

    # ------------------------------------------------------------------ epochs and barriers

    def ensure_state(self, database_id: int) -> None:
        """The database's checkpoint control exists from its first streaming job (or pause)."""
        self.conn.execute(
            "INSERT OR IGNORE INTO barrier_state(database_id, is_paused, epoch, barrier_count,"
            " last_barrier_ms) VALUES (?, 0, 0, 0, ?)",
            (database_id, self.meta.clock.now_ms()),
        )

    def next_epoch(self, prev: int) -> int:
        """The next epoch: the clock's physical time, shifted, and always above ``prev``."""
        physical = max(self.meta.clock.now_ms() - RISINGWAVE_DATE_EPOCH_MS, 0) << EPOCH_SHIFT
        return physical if physical > prev else prev + 1

    def barrier(self, database_id: int, *, periodic: bool = False) -> None:
        """One barrier on a database (inside a transaction): a new epoch, and every creating
        job of the database reads its share of upstream rows.  A command's barrier (every
        caller but the periodic ``tick``) is a checkpoint, as every command but Resume needs
        one (command.rs:710-713); a periodic one is a checkpoint when the database's
        ``checkpoint_frequency`` barriers have passed since the last (schedule.rs:497-531)."""
        self._early.discard(database_id)
        since = self._uncheckpointed.get(database_id, 0)
        checkpoint = not periodic or since + 1 >= self.params.checkpoint_frequency(database_id)
        self._uncheckpointed[database_id] = 0 if checkpoint else since + 1
        self.ensure_state(database_id)
        row = self.meta.q1(
            "SELECT epoch, is_paused FROM barrier_state WHERE database_id = ?", (database_id,)
        )
        assert row is not None
        epoch = self.next_epoch(int(row[0]))
        paused = bool(row[1])
        self.conn.execute(
            "UPDATE barrier_state SET epoch = ?, barrier_count = barrier_count + 1,"
            " last_barrier_ms = ? WHERE database_id = ?",
            (epoch, self.meta.clock.now_ms(), database_id),
        )
        interval: int | None = None  # read only when a job backfills (most barriers: none)
        for jid, jtype, held in self.conn.execute(
            "SELECT job_id, job_type, backfill_held FROM streaming_job"
            " WHERE database_id = ? AND job_status = 'CREATING' ORDER BY job_id",
            (database_id,),
        ).fetchall():
            if held:
                continue
            # Normal jobs' actors honour the pause; snapshot-backfill jobs run in their own
            # never-paused partial graph (creating_job/mod.rs:201-207).
            if paused and jtype not in ("SnapshotBackfill", "BatchRefresh"):
                continue
            if interval is None:
                interval = self.params.barrier_interval_ms(database_id)
            self.backfill.progress(int(jid), interval, epoch)
        self.checkpoint = checkpoint
        try:
            for listener in self.on_barrier:
                listener(database_id, epoch)
        finally:
            self.checkpoint = True
        self.waits.check_wait_all()

    def tick(self, database_id: int | None = None) -> None:
        """A periodic barrier on one database (or on every database with streaming jobs)."""
        with self.store.transaction():
            for db in self.databases() if database_id is None else [database_id]:
                self.barrier(db, periodic=True)
        # on disk before anyone hears of it, also while a DDL's deferred_sync holds the
        # connection at NORMAL (the barrier that completes a foreground create: that
        # create's own scope then finds nothing left to sync)
        self.store.flush()
        self.meta.commit_actions()
        for listener in self.on_periodic:
            listener()

    def due_databases(self) -> list[tuple[int, int]]:
        """(database id, ms until its next periodic barrier) for the server's barrier loop."""
        now = self.meta.clock.now_ms()
        out = []
        for db, last in self.conn.execute(
            "SELECT database_id, last_barrier_ms FROM barrier_state ORDER BY database_id"
        ).fetchall():
            due = (
                0
                if db in self._early
                else int(last) + self.params.barrier_interval_ms(int(db)) - now
            )
            out.append((int(db), max(due, 0)))
        return out

    # ------------------------------------------------- a create reaching the barrier worker

    def admit(self, database_id: int, job_type: str, call: str) -> None:
        """A create command reaching the barrier worker of its database: admission
        (control.rs:1285-1300) and the apply-time check (state.rs:650-660).  While the database
        is paused, a job that needs a snapshot backfill (error 3) or a batch refresh is
        refused; the ``skip_batch_refresh_admission`` fault lets a batch refresh through
        admission to fail at apply time (error 5)."""
        self.ensure_state(database_id)
        if self.is_paused(database_id) and job_type in ("SnapshotBackfill", "BatchRefresh"):
            if job_type == "BatchRefresh" and self.meta.faults.skip_batch_refresh_admission:
                raise BatchRefreshWhenPaused(call)
            raise SnapshotBackfillWhenPaused(call)

    def epoch(self, database_id: int) -> int:
        """The database's current epoch."""
        return int(
            self.meta.val("SELECT epoch FROM barrier_state WHERE database_id = ?", (database_id,))
        )

    def request_early_barrier(self, database_id: int) -> None:
        """The database is owed a barrier before its interval is up (see due_databases)."""
        self._early.add(database_id)
        self.meta.after_commit(self._want_barrier)

    def _want_barrier(self) -> None:
        if self.on_barrier_wanted is not None:
            self.on_barrier_wanted()

    # -------------------------------------------------------- barrier state after recovery

    def databases(self) -> list[int]:
        """The databases with barrier state (checkpoint control), by id."""
        return [
            int(r[0]) for r in self.conn.execute("SELECT database_id FROM barrier_state ORDER BY 1")
        ]

    def unpause(self, database_id: int | None = None) -> None:
        """Recovery comes back unpaused (checkpoint/recovery.rs:419): one database, or all."""
        if database_id is None:
            self.conn.execute("UPDATE barrier_state SET is_paused = 0")
        else:
            self.conn.execute(
                "UPDATE barrier_state SET is_paused = 0 WHERE database_id = ?", (database_id,)
            )

    def start_paused(self, database_id: int) -> None:
        """Bootstrap with pause_on_next_bootstrap: the database's barriers start paused."""
        self.ensure_state(database_id)
        self.conn.execute(
            "UPDATE barrier_state SET is_paused = 1 WHERE database_id = ?", (database_id,)
        )

    # ------------------------------------------------------------------ pause and resume

    def active_databases(self) -> list[int]:
        """list_active_database_ids: databases owning at least one fragment
        (metadata.rs:318-326)."""
        return [
            int(r[0])
            for r in self.conn.execute(
                "SELECT DISTINCT j.database_id FROM fragment f JOIN streaming_job j"
                " ON j.job_id = f.job_id ORDER BY 1"
            )
        ]

    def set_paused(self, databases: Iterable[int], paused: bool, *, create: bool = False) -> None:
        """Pause or resume each database's barriers (a Pause/Resume command with its own
        barrier); ``create`` makes the barrier state of a database that has none."""
        with self.store.transaction():
            for db in databases:
                if create:
                    self.ensure_state(db)
                if (
                    self.meta.val("SELECT 1 FROM barrier_state WHERE database_id = ?", (db,))
                    is None
                ):
                    continue  # no checkpoint control: Pause/Resume are no-ops (control.rs)
                self.conn.execute(
                    "UPDATE barrier_state SET is_paused = ? WHERE database_id = ?",
                    (int(paused), db),
                )
                self.barrier(db)
        self.meta.commit_actions()

    def _require_super(self, ctx: Context) -> None:
        if not self.users.is_super(ctx):
            # rwshim extension: pausing needs what risectl needs (meta access).
            raise PermissionDenied("must be superuser to pause or resume streaming")

    def pause_database(self, ctx: Context | None, name: str) -> Result:
        """ALTER DATABASE <name> PAUSE (rwshim extension: risectl meta pause on one database).

        Unlike the cluster-wide pause it also pauses a database that has no streaming job yet
        (its barrier state is created paused), so the next job created there starts paused.
        """
        if ctx is not None:  # None is the test-control path
            self._require_super(ctx)
        self.set_paused([self.catalog.database_id(name)], True, create=True)
        return Result()

    def resume_database(self, ctx: Context | None, name: str) -> Result:
        """ALTER DATABASE <name> RESUME (rwshim extension)."""
        if ctx is not None:
            self._require_super(ctx)
        self.set_paused([self.catalog.database_id(name)], False)
        return Result()

    def pause_all(self, ctx: Context | None = None) -> Result:
        """ALTER SYSTEM PAUSE (rwshim extension) = risectl meta pause: every active database
        (stream_service.rs:168-184).  ``ctx`` None is the test-control path."""
        if ctx is not None:
            self._require_super(ctx)
        self.set_paused(self.active_databases(), True)
        return Result()

    def resume_all(self, ctx: Context | None = None) -> Result:
        """ALTER SYSTEM RESUME (rwshim extension) = risectl meta resume."""
        if ctx is not None:
            self._require_super(ctx)
        self.set_paused(self.active_databases(), False)
        return Result()

    def is_paused(self, database_id: int) -> bool:
        """Whether the database's barriers are paused."""
        return bool(
            self.meta.val(
                "SELECT is_paused FROM barrier_state WHERE database_id = ?", (database_id,)
            )
        )

    # ------------------------------------------------------------------ FLUSH

    def flush(self, ctx: Context) -> Result:
        """FLUSH: a checkpoint barrier on the session's database."""
        with self.store.transaction():
            if self.meta.val(
                "SELECT 1 FROM barrier_state WHERE database_id = ?", (ctx.database_id,)
            ):
                self.barrier(ctx.database_id)
        self.meta.commit_actions()
        return Result()
