"""Backfill: the model of a creating job reading its upstreams' snapshot (rows per barrier
from the upstream row counts, the job's actors and its backfill rate limit), the job's
finish when every scan is done, and how progress is reported (SHOW JOBS, rw_ddl_progress,
the progress column RWSHIM JOBS shows).

RisingWave: ``src/meta/src/barrier/progress.rs`` (CreateMviewProgressTracker, TrackingJob::
finish, the progress texts :246-296), ``barrier/checkpoint/independent_job/creating_job/
mod.rs:757-793`` (snapshot-backfill progress), ``src/meta/src/barrier/manager.rs:59-104``
(get_ddl_progress), ``src/frontend/src/handler/show.rs:413-420, :789-799`` (SHOW JOBS).
The model itself is rwshim's (decision 7 of the design): no rows really move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common.outcome import Column
from rwshim.engine.actors import Actors
from rwshim.engine.catalog import Catalog
from rwshim.engine.params import Params
from rwshim.engine.state import Meta
from rwshim.engine.types import Result
from rwshim.engine.waits import Waits
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON


class Backfill:
    """Backfill progress of creating jobs."""

    def __init__(
        self, meta: Meta, params: Params, catalog: Catalog, actors: Actors, waits: Waits
    ) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.params = params
        self.catalog = catalog
        self.actors = actors
        self.waits = waits
        # Called with a job's id once its backfill finished and it is Created, inside the
        # finishing barrier's transaction (RisingWave's LocalNotification::
        # StreamingJobBackfillFinished; scale's post-backfill restore listens).
        self.on_finished: list[Callable[[int], None]] = []

    # ------------------------------------------------------------------ the model

    def start(self, scans: Iterable[tuple[int, str | None, int]]) -> None:
        """The snapshot each connected scan (fragment, scan type, upstream) will read: its
        upstream's rows now; an UpstreamOnly scan reads none (only new changes from its first
        barrier on)."""
        for fid, scan_type, scan_rel in scans:
            if scan_type == "UpstreamOnly":
                # No backfill: reads only new changes from its first barrier on.
                self.conn.execute(
                    "UPDATE fragment SET backfill_total = 0, backfill_done = 1"
                    " WHERE fragment_id = ?",
                    (fid,),
                )
                continue
            total = self.meta.row_count(scan_rel)
            self.conn.execute(
                "UPDATE fragment SET backfill_total = ? WHERE fragment_id = ?", (total, fid)
            )

    def progress(self, job_id: int, interval_ms: int, epoch: int) -> None:
        """One barrier of a creating job's backfill (rw-engine-semantics §1.2): each unfinished
        scan reads its budget of rows, per second of ``interval_ms`` per actor at its rate
        limit; a job whose scans are all done is Created at ``epoch``."""
        all_done = True
        for fid, scan_rel, flags, rate, consumed, done in self.conn.execute(
            "SELECT fragment_id, scan_relation_id, flags, backfill_rate_limit, backfill_consumed,"
            " backfill_done FROM fragment WHERE job_id = ? AND scan_relation_id IS NOT NULL",
            (job_id,),
        ).fetchall():
            if done:
                continue
            is_source = "SOURCE_SCAN" in json.loads(flags)
            actors = max(
                self.actors.actor_count(fid),
                1,
            )
            per_second = self.meta.backfill_rows_per_second if rate is None else int(rate)
            if per_second == 0:
                all_done = False
                continue
            budget = max(per_second * actors * interval_ms // 1000, 1)
            if is_source:
                # A fresh shared source's backfill catches up at once (nothing buffered).
                self.conn.execute(
                    "UPDATE fragment SET backfill_done = 1 WHERE fragment_id = ?", (fid,)
                )
                continue
            total = self.meta.row_count(int(scan_rel))
            new = min(total, int(consumed) + budget)
            finished = new >= total
            self.conn.execute(
                "UPDATE fragment SET backfill_consumed = ?, backfill_total = ?, backfill_done = ?"
                " WHERE fragment_id = ?",
                (new, total, int(finished), fid),
            )
            all_done = all_done and finished
        if all_done:
            self.finish(job_id, epoch)
        else:
            self.store_progress(job_id)

    def finish(self, job_id: int, epoch: int) -> None:
        """TrackingJob::finish (barrier/progress.rs): the job is Created at ``epoch``; then
        whoever follows finished backfills (scale's post-backfill restore), then its waiters."""
        self.catalog.finish_streaming_job(job_id, epoch)
        for listener in self.on_finished:
            listener(job_id)
        self.waits.notify_finished(job_id)

    def fits_one_barrier(self, database_id: int, job_id: int, paused: bool) -> bool:
        """Whether every unfinished backfill of a just-started job completes within the budget
        of one barrier: not held, not paused, no rate limit of 0, rows left within budget."""
        row = self.meta.q1(
            "SELECT backfill_held, job_type FROM streaming_job WHERE job_id = ?", (job_id,)
        )
        if row is None or row[0]:
            return False
        if paused and row[1] not in ("SnapshotBackfill", "BatchRefresh"):
            return False
        interval = self.params.barrier_interval_ms(database_id)
        for fid, scan_rel, flags, rate, consumed in self.conn.execute(
            "SELECT fragment_id, scan_relation_id, flags, backfill_rate_limit, backfill_consumed"
            " FROM fragment WHERE job_id = ? AND scan_relation_id IS NOT NULL"
            " AND backfill_done = 0",
            (job_id,),
        ).fetchall():
            if "SOURCE_SCAN" in json.loads(flags):
                continue
            per_second = self.meta.backfill_rows_per_second if rate is None else int(rate)
            if per_second == 0:
                return False
            actors = max(self.actors.actor_count(fid), 1)
            budget = max(per_second * actors * interval // 1000, 1)
            if self.meta.row_count(int(scan_rel)) - int(consumed) > budget:
                return False
        return True

    # ------------------------------------------------------------------ reporting

    def progress_text(self, job_id: int, status: str, job_type: str) -> str:
        """progress.rs:246-296 and creating_job/mod.rs:757-793."""
        if status == "INITIAL":
            return "0.0%"
        rows = self.conn.execute(
            "SELECT flags, backfill_consumed, backfill_total, backfill_done FROM fragment"
            " WHERE job_id = ? AND scan_relation_id IS NOT NULL",
            (job_id,),
        ).fetchall()
        mv = [r for r in rows if "SOURCE_SCAN" not in json.loads(r[0])]
        src = [r for r in rows if "SOURCE_SCAN" in json.loads(r[0])]
        done = all(r[3] for r in rows)
        if done or not rows:
            text = "100%"
        else:
            mv_text: str | None = None
            if mv:
                consumed = sum(int(r[1]) for r in mv)
                total = sum(int(r[2] or 0) for r in mv)
                if total == 0:
                    mv_text = "99.99%"
                else:
                    p = min(consumed / total, 0.9999) if consumed <= total else 0.9999
                    mv_text = f"{p * 100:.2f}% ({consumed}/{total})"
            src_text = f"{sum(int(r[1]) for r in src)} rows consumed" if src else None
            if mv_text and src_text:
                text = f"MView Backfill: {mv_text}, Source Backfill: {src_text}"
            else:
                text = mv_text or src_text or "Unknown"
        if job_type in ("SnapshotBackfill", "BatchRefresh"):
            return "Snapshot finished" if done else f"Snapshot [{text}]"
        return text

    def store_progress(self, job_id: int) -> None:
        """Keep streaming_job.progress (what the catalogs show) in step with the model."""
        row = self.meta.q1(
            "SELECT job_status, job_type FROM streaming_job WHERE job_id = ?", (job_id,)
        )
        if row is not None:
            text = self.progress_text(job_id, str(row[0]), str(row[1]))
            self.conn.execute(
                "UPDATE streaming_job SET progress = ? WHERE job_id = ?", (text, job_id)
            )

    def ddl_progress(self) -> list[tuple[int, str, str, str, str, bool, str]]:
        """rw_ddl_progress rows: (ddl_id, ddl_statement, create_type, progress, initialized_at,
        is_serverless_backfill, backfill_type) for INITIAL/CREATING tables, MVs, indexes and
        sinks in all databases (manager.rs:59-104, list_op.rs:99-145)."""
        out = []
        for jid, defn, ctype, status, jtype, init, serverless, btype in self.conn.execute(
            "SELECT j.job_id, r.definition, j.create_type, j.job_status, j.job_type,"
            " r.initialized_at, j.is_serverless_backfill, j.backfill_type FROM streaming_job j"
            " JOIN relation r ON r.relation_id = j.job_id"
            " WHERE j.job_status IN ('INITIAL', 'CREATING') AND r.kind != 'source'"
            " ORDER BY j.job_id"
        ).fetchall():
            out.append(
                (
                    int(jid),
                    str(defn),
                    str(ctype),
                    self.progress_text(int(jid), str(status), str(jtype)),
                    str(init),
                    bool(serverless),
                    str(btype),
                )
            )
        return out

    def show_jobs(self) -> Result:
        """SHOW JOBS (show.rs:413-420, :789-799): Id, Statement, Create Type, Progress."""
        cols = [
            Column("Id", pgtypes.INT8, 8),
            Column("Statement", pgtypes.VARCHAR),
            Column("Create Type", pgtypes.VARCHAR),
            Column("Progress", pgtypes.VARCHAR),
        ]
        rows: list[tuple[object, ...]] = [(r[0], r[1], r[2], r[3]) for r in self.ddl_progress()]
        return Result(columns=cols, rows=rows)

    def hold(self, job_id: int, held: bool = True) -> None:
        """Test control: stop (or let go) a creating job's backfill progress."""
        with self.store.transaction():
            self.conn.execute(
                "UPDATE streaming_job SET backfill_held = ? WHERE job_id = ?", (int(held), job_id)
            )
