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
        """RisingWave's global recovery (worker.rs:1093-1150, rw-engine-semantics §1.1, §3,
        §2.7), the same for a bootstrap and an ad-hoc RECOVER but for its reason and pause:
        every finish wait fails with the reason (a foreground create that began waiting
        less than 30 s ago cancels its job), dirty creating jobs are cleaned, every database
        comes back unpaused (bootstrap: paused if ``pause_on_next_bootstrap``, which is then
        reset), and every job is re-rendered from the catalog, which applies DEFERRED
        parallelism.  A bootstrap runs in a new meta node (``Engine.restart`` builds one), so
        no session waits on it and no create is cancelled early, whatever the store."""
        reason = "bootstrap" if bootstrap else "adhoc recovery"
        with self.store.transaction():
            self._clean(None, self._fail_finish_waits(reason, None))
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
        """A database's own recovery (checkpoint/recovery.rs; worker.rs:618-640): the finish
        waits of its creates fail with the database's reset (the 30 s rule applies), its
        dirty creating jobs are cleaned (context/recovery.rs:1032-1037), it comes back
        unpaused, its jobs re-rendered from the catalog."""
        with self.store.transaction():
            reason = f"database {database_id} reset"
            self._clean(database_id, self._fail_finish_waits(reason, database_id))
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

    def _fail_finish_waits(self, reason: str, database_id: int | None) -> list[int]:
        """notify_creating_job_failed (worker.rs:1113-1119): every finish wait (of one
        database, or all) fails with ``reason``; the jobs of foreground creates that began
        waiting less than 30 s ago are returned, to be cancelled (stream_manager.rs:77,
        :416-440); later ones wait again."""
        now = self.meta.clock.now_ms()
        early = []
        for jid, started in list(self.waits.fg_started.items()):
            if database_id is not None and database_id != self.meta.val(
                "SELECT database_id FROM streaming_job WHERE job_id = ?", (jid,)
            ):
                continue
            if now - started < EARLY_FAILURE_MS and self.catalog.job_status(jid) == "CREATING":
                early.append(jid)
        for jid in early:
            self.waits.notify_finish_failed(jid, reason)
        return early

    def _clean(self, database_id: int | None, cancelled_early: list[int]) -> None:
        """clean_dirty_creating_jobs (controller/catalog/mod.rs:637-708), of one database or
        all: INITIAL jobs, and CREATING jobs with a non-recoverable (VALUES) fragment
        (fragment.rs:145-147); ``clean_all_foreground_jobs_on_recovery`` is off by default
        (config/meta.rs:231-236), so other foreground jobs resume.  The early-cancelled
        foreground jobs go too."""
        scope = "" if database_id is None else " AND j.database_id = ?"
        args: tuple[int, ...] = () if database_id is None else (database_id,)
        initial = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT j.job_id FROM streaming_job j WHERE j.job_status = 'INITIAL'" + scope,
                args,
            )
        ]
        unrecoverable = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT DISTINCT j.job_id FROM streaming_job j JOIN fragment f"
                " ON f.job_id = j.job_id WHERE j.job_status = 'CREATING'"
                " AND f.flags LIKE '%\"VALUES\"%'" + scope,
                args,
            )
        ]
        for jid in unrecoverable:
            rel = self.catalog.relation(jid)
            self.waits.notify_vanished(jid, "" if rel is None else rel.kind)
        gone = sorted(set(initial + unrecoverable + cancelled_early))
        self.catalog.remove_relations(gone, cancelled=False)

    def adhoc_recover(self, ctx: Context) -> Result:
        """RECOVER (recover.rs:22-30): superuser only."""
        if not self.users.is_super(ctx):
            raise PermissionDenied("only superusers can trigger adhoc recovery")
        self.recover()
        return Result()
