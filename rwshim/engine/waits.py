"""Sessions waiting on streaming jobs: the finish notifiers of foreground creates (and of an
IF NOT EXISTS that meets a job still being created), the WAIT statement's waiters, and the
creation permits with the creates queued for one.

RisingWave: the finish notifiers are the catalog controller's
``creating_table_finish_notifier`` (src/meta/src/controller/catalog/mod.rs:366, :1374-1390;
``wait_streaming_job_finished``, src/meta/src/manager/metadata.rs:795-820), completed by
``finish_streaming_job`` and failed by ``try_abort_creating_streaming_job``
(controller/streaming_job.rs:1059-1076); the permits are the DDL controller's
``creating_streaming_job_permits`` (src/meta/src/rpc/ddl_controller.rs:305-315, :1200-1208);
WAIT is src/frontend/src/handler/wait.rs.

Waiters complete after commit (``Meta.after_commit``): a session never hears of a state that
a rolled-back transaction took back.
"""

from __future__ import annotations

from typing import Protocol

from rwshim.engine.kinds import CREATE_CALL
from rwshim.engine.state import Meta
from rwshim.engine.types import Waiter
from rwshim.errors import (
    DDL,
    CreateCancelled,
    MetaCatalogNotFound,
    MetaNodeRestarted,
    MetaRpcError,
    RwError,
)


class Queued(Protocol):
    """A create between its INITIAL catalog row and its creation permit."""

    job_id: int
    call: str
    waiter: Waiter

    def resume(self) -> None:
        """Go on with the create now that it holds a permit (answering its session itself
        if it cannot)."""


class Waits:
    """Who waits for which streaming job, and who holds a creation permit."""

    def __init__(self, meta: Meta) -> None:
        self.meta = meta
        self.job_waiters: dict[int, list[tuple[Waiter, str]]] = {}
        self.wait_all: list[tuple[Waiter, int | None]] = []
        self.permit_holders: set[int] = set()
        # When each foreground create began waiting for its job (the 30 s early-failure rule
        # of recovery).
        self.fg_started: dict[int, int] = {}
        self.queue: list[Queued] = []
        # Reschedules waiting for the reschedule lock that foreground creates hold while
        # their job runs (the releases: Release.foreground_holds_reschedule_lock).
        self.lock_waiters: list[Waiter] = []

    # ------------------------------------------------------------------ finish notifiers

    def register(self, job_id: int, waiter: Waiter, call: str) -> None:
        """``waiter`` completes when job ``job_id`` is Created (or fails when it goes);
        ``call`` names the meta call its errors report ('' = the job's own create call)."""
        self.job_waiters.setdefault(job_id, []).append((waiter, call))

    def notify_finished(self, job_id: int) -> None:
        """The job is Created: its creator's permit frees, its waiters succeed."""
        self.release_permit(job_id)
        for w, _ in self.job_waiters.pop(job_id, []):
            self.meta.after_commit(lambda w=w: w.complete())  # type: ignore[misc]

    def notify_finish_failed(self, job_id: int, reason: str) -> None:
        """Recovery fails a finish wait (worker.rs:1113-1119)."""
        for w, call in self.job_waiters.pop(job_id, []):
            err = MetaRpcError(call, f"failed to wait streaming job finish: {reason}")
            self.meta.after_commit(lambda w=w, err=err: w.complete(err))  # type: ignore[misc]

    def notify_vanished(self, job_id: int, kind: str) -> None:
        """A job recovery cleaned while a foreground create kept waiting for it (it began
        more than 30 s ago, so it registers again): streaming_job_is_finished finds no job,
        catalog_id_not_found (controller/catalog/mod.rs:1358-1372), which ends the create
        (stream_manager.rs:420-422) as a Catalog error with its 42704."""
        for w, waiter_call in self.job_waiters.pop(job_id, []):
            call = waiter_call or CREATE_CALL.get(kind, DDL + "CreateMaterializedView")
            err = MetaCatalogNotFound(call, "streaming job", "may have been cancelled/dropped")
            self.meta.after_commit(lambda w=w, err=err: w.complete(err))  # type: ignore[misc]

    def notify_removed(self, job_id: int, kind: str, status: str | None, cancelled: bool) -> None:
        """A relation went from the catalog: a create queued for a permit, or waiting on the
        job, fails as RisingWave's do (streaming_job.rs:1059-1076)."""
        self.release_permit(job_id)
        for p in [p for p in self.queue if p.job_id == job_id]:
            # A create still waiting for the permit: answer its session now, as the
            # queue drain would once a permit frees (it finds the job gone).
            self.queue.remove(p)
            self.meta.after_commit(
                lambda w=p.waiter, call=p.call: w.complete(CreateCancelled(call))  # type: ignore[misc]
            )
        for w, waiter_call in self.job_waiters.pop(job_id, []):
            call = waiter_call or CREATE_CALL.get(kind, DDL + "CreateMaterializedView")
            if cancelled:
                err: RwError = CreateCancelled(call)
            elif status == "CREATING":
                err = MetaRpcError(
                    call,
                    "failed to wait streaming job finish: streaming job aborted Cancelled: "
                    f"streaming job {job_id} is cancelled",
                )
            else:
                err = MetaRpcError(call, f"streaming job {job_id} failed")
            self.meta.after_commit(lambda w=w, err=err: w.complete(err))  # type: ignore[misc]

    # ------------------------------------------------------------------ creation permits

    def permits(self) -> int:
        """max_concurrent_creating_streaming_jobs; 0 means unlimited (ddl_controller.rs:305-315)."""
        try:
            n = int(self.meta.system_param("max_concurrent_creating_streaming_jobs") or "1")
        except ValueError:
            n = 1
        return n if n > 0 else 1 << 30

    def permit_available(self) -> bool:
        return len(self.permit_holders) < self.permits()

    def enqueue(self, create: Queued) -> None:
        """The permit is taken (ddl_controller.rs:1200-1208): the create waits, its job INITIAL
        (SHOW JOBS lists it)."""
        self.queue.append(create)

    def hold_permit(self, job_id: int, waiter: Waiter, call: str) -> None:
        """A foreground create waits for its job: it holds its permit until the job finishes
        or goes."""
        self.permit_holders.add(job_id)
        self.fg_started[job_id] = self.meta.clock.now_ms()
        self.register(job_id, waiter, call)

    def release_permit(self, job_id: int) -> None:
        self.fg_started.pop(job_id, None)
        if job_id in self.permit_holders:
            self.permit_holders.discard(job_id)
            self.meta.after_commit(self.drain)
            self.meta.after_commit(self._wake_lock_waiters)

    # ------------------------------------------------------------------ the reschedule lock

    def reschedule_lock(self) -> Waiter:
        """A waiter that completes once no foreground create holds the reschedule lock's read
        side: at v3.0.3 and v2.8.5 ``create_streaming_job`` takes it before the create
        (v3.0.3:ddl_controller.rs:1144, v2.8.5:ddl_controller.rs:999) and keeps it while a
        foreground create waits for its job (v3.0.3:stream_manager.rs:382-386), and every
        reschedule takes its write side (v3.0.3:stream_manager.rs:798).  A foreground create
        holds a creation permit exactly while it runs, so the permit holders are the lock's
        readers.  (tokio's RwLock is fair: a create that arrives after a waiting reschedule
        queues behind it; rwshim lets it start, the reschedule waits for it too.)"""
        w = Waiter()
        self.lock_waiters.append(w)
        self._wake_lock_waiters()
        return w

    def _wake_lock_waiters(self) -> None:
        if self.permit_holders or not self.lock_waiters:
            return
        waiters, self.lock_waiters = self.lock_waiters, []
        for w in waiters:
            w.complete()

    def drain(self) -> None:
        """Queued creates take the permits free now, in order."""
        while self.queue and self.permit_available():
            self.queue.pop(0).resume()

    # ------------------------------------------------------------------ WAIT

    def wait(self, target: int | None) -> Waiter:
        """A waiter that completes once no job (or job ``target``) is creating."""
        w = Waiter()
        self.wait_all.append((w, target))
        self.check_wait_all()
        return w

    def check_wait_all(self) -> None:
        if not self.wait_all:
            return
        keep: list[tuple[Waiter, int | None]] = []
        for w, target in self.wait_all:
            if target is None:
                pending = self.meta.val(
                    "SELECT count(*) FROM streaming_job WHERE job_status IN ('INITIAL', 'CREATING')"
                )
            else:
                pending = self.meta.val(
                    "SELECT count(*) FROM streaming_job WHERE job_id = ? AND job_status !="
                    " 'CREATED'",
                    (target,),
                )
            if pending:
                keep.append((w, target))
            else:
                self.meta.after_commit(lambda w=w: w.complete())  # type: ignore[misc]
        self.wait_all = keep

    # ------------------------------------------------------------------ restart

    def meta_restarted(self) -> None:
        """The meta node goes away: every wait on it fails, every permit and queued create
        with it (and nothing of it is kept: the restarted node starts with empty waits)."""
        for waiters in self.job_waiters.values():
            for w, call in waiters:
                w.complete(MetaNodeRestarted(call))
        for w, _ in self.wait_all:
            w.complete(MetaNodeRestarted(DDL + "Wait"))
        for p in self.queue:
            p.waiter.complete(MetaNodeRestarted(p.call))
        self.job_waiters.clear()
        self.wait_all.clear()
        self.queue.clear()
        self.permit_holders.clear()
        self._wake_lock_waiters()
        self.fg_started.clear()
