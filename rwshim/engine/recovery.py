"""Recovery: what a meta-node bootstrap, an ad-hoc RECOVER and a database's own recovery do to
the streaming jobs.  INITIAL jobs are deleted, CREATING jobs with a VALUES fragment too, the
others resume; a foreground create that began waiting less than 30 s ago cancels its job;
every database comes back unpaused (a bootstrap paused if ``pause_on_next_bootstrap``); every
job is re-rendered from the catalog, which applies DEFERRED parallelism.

RisingWave: ``src/meta/src/barrier/worker.rs:1074-1119`` (recovery, failing every finish
wait), ``src/meta/src/barrier/context/recovery.rs`` (what is reloaded and what is cleaned),
``src/meta/src/barrier/checkpoint/recovery.rs:419`` (a database's own recovery, unpaused),
``src/meta/src/stream/stream_manager.rs:77, :416-450`` (the 30 s rule),
``src/frontend/src/handler/recover.rs:22-30``; rw-engine-semantics §1.1, §2.7, §3.
"""

from __future__ import annotations

from rwshim.engine.actors import Actors
from rwshim.engine.barrier import Barrier
from rwshim.engine.catalog import Catalog
from rwshim.engine.params import Params
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, Result
from rwshim.engine.users import Users
from rwshim.engine.waits import Waits
from rwshim.errors import PermissionDenied

# A foreground create that began waiting less than this long before a recovery cancels its
# job (stream_manager.rs:77).
EARLY_FAILURE_MS = 30_000


class Recovery:
    """Bootstrap, ad-hoc and per-database recovery."""

    def __init__(
        self,
        meta: Meta,
        users: Users,
        params: Params,
        catalog: Catalog,
        waits: Waits,
        actors: Actors,
        barrier: Barrier,
    ) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.params = params
        self.catalog = catalog
        self.waits = waits
        self.actors = actors
        self.barrier = barrier

    def recover(self, *, bootstrap: bool = False) -> None:
        """RisingWave's recovery (rw-engine-semantics §1.1, §3, §2.7): INITIAL jobs deleted,
        CREATING jobs with a VALUES fragment deleted, the others resume; every database
        unpaused (bootstrap: paused if ``pause_on_next_bootstrap``, which is then reset);
        every job re-rendered from the catalog, which applies DEFERRED parallelism."""
        with self.store.transaction():
            initial = [
                int(r[0])
                for r in self.conn.execute(
                    "SELECT job_id FROM streaming_job WHERE job_status = 'INITIAL'"
                )
            ]
            unrecoverable = [
                int(r[0])
                for r in self.conn.execute(
                    "SELECT DISTINCT j.job_id FROM streaming_job j JOIN fragment f"
                    " ON f.job_id = j.job_id WHERE j.job_status = 'CREATING'"
                    " AND f.flags LIKE '%\"VALUES\"%'"
                )
            ]
            # Recovery fails every finish wait (worker.rs:1113-1119); a foreground create that
            # began waiting less than 30 s ago cancels its job and returns the error
            # (stream_manager.rs:77, :416-450); later ones wait again.
            reason = "bootstrap" if bootstrap else "adhoc recovery"
            now = self.meta.clock.now_ms()
            early = [
                jid
                for jid, started in self.waits.fg_started.items()
                if now - started < EARLY_FAILURE_MS and self.catalog.job_status(jid) == "CREATING"
            ]
            for jid in early:
                self.waits.notify_finish_failed(jid, reason)
            self.catalog.remove_relations(initial + unrecoverable + early, cancelled=False)
            pause = bootstrap and self.params.take_pause_on_next_bootstrap()
            self.barrier.unpause()
            if pause:
                for db in self.barrier.active_databases():
                    self.barrier.start_paused(db)
            self.actors.render_jobs(
                {int(r[0]) for r in self.conn.execute("SELECT job_id FROM streaming_job")}
            )
            self.conn.execute("UPDATE streaming_job SET reschedule_pending = 0")
            for db in self.barrier.databases():
                self.barrier.barrier(db)
        self.meta.commit_actions()

    def database_recovery(self, database_id: int) -> None:
        """Per-database recovery: unpaused, jobs of the database re-rendered from the catalog."""
        with self.store.transaction():
            self.barrier.unpause(database_id)
            self.actors.render_jobs(
                {
                    int(r[0])
                    for r in self.conn.execute(
                        "SELECT job_id FROM streaming_job WHERE database_id = ?", (database_id,)
                    )
                }
            )
            self.barrier.barrier(database_id)
        self.meta.commit_actions()

    def adhoc_recover(self, ctx: Context) -> Result:
        """RECOVER (recover.rs:22-30): superuser only."""
        if not self.users.is_super(ctx):
            raise PermissionDenied("only superusers can trigger adhoc recovery")
        self.recover()
        return Result()
