"""Random DDL, alters, pause/resume, barriers, cancels, drops and restarts keep the engine's
invariants (issue 4): no fixed parallelism above max, no INITIAL job after an operation or a
recovery, catalog and fragments consistent, and the store reopens to the same state."""

from __future__ import annotations

import contextlib
import shutil
import tempfile

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from rwshim.engine.engine import Engine
from rwshim.engine.types import ManualClock, ObjectName
from rwshim.errors import RwError
from rwshim.store.store import Store
from tests.unit.engine.helpers import Counts, V, ctx, set_rows

NAMES = ["a", "b", "c", "d", "e"]
PARALLELISM = ["1", "2", "3", "8", "300", "adaptive", "bounded(2)", "ratio(0.5)", "0"]


def _state(e: Engine) -> dict[str, list[tuple[object, ...]]]:
    out = {}
    for t in ("relation_column", "dependency", "fragment_relation"):
        out[t] = sorted(e.conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
    # A creating job may finish at the recovery barrier: its created_at and status move.
    out["relation"] = sorted(
        e.conn.execute(
            "SELECT relation_id, kind, name, schema_id, owner_id, definition FROM relation"
        ).fetchall()
    )
    out["streaming_job"] = sorted(
        e.conn.execute(
            "SELECT job_id, database_id, create_type, job_type, backfill_type, parallelism_kind,"
            " parallelism_fixed, adaptive_parallelism_strategy, backfill_parallelism_kind,"
            " backfill_parallelism_fixed, max_parallelism FROM streaming_job"
        ).fetchall()
    )
    out["fragment"] = sorted(
        e.conn.execute(
            "SELECT fragment_id, job_id, flags, scan_type, state_table_ids FROM fragment"
        ).fetchall()
    )
    return out


def _without(
    state: dict[str, list[tuple[object, ...]]], jobs: set[int]
) -> dict[str, list[tuple[object, ...]]]:
    """The state with the given INITIAL jobs (their relation and columns) removed."""
    out = dict(state)
    out["relation"] = [r for r in state["relation"] if r[0] not in jobs]
    out["relation_column"] = [r for r in state["relation_column"] if r[0] not in jobs]
    out["streaming_job"] = [r for r in state["streaming_job"] if r[0] not in jobs]
    out["dependency"] = [r for r in state["dependency"] if r[1] not in jobs]
    return out


class EngineMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="rwshim-sm-")
        self.clock = ManualClock()
        self.e = Engine(Store.open(self.dir), self.clock, row_count=Counts())

    def teardown(self) -> None:
        self.e.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _relations(self, kinds: tuple[str, ...]) -> list[tuple[int, str, str]]:
        marks = ",".join("?" * len(kinds))
        q = f"SELECT relation_id, kind, name FROM relation WHERE kind IN ({marks})"
        return [(int(r[0]), str(r[1]), str(r[2])) for r in self.e.conn.execute(q, kinds)]

    def _jobs(self) -> list[tuple[int, str, str]]:
        return self._relations(("table", "materialized view"))

    @rule(name=st.sampled_from(NAMES), rows=st.integers(0, 30))
    def create_table(self, name: str, rows: int) -> None:
        try:
            self.e.ddl.create_table(ctx(), ObjectName(name), V, definition=f"CREATE TABLE {name}")
        except RwError:
            return
        rel = self.e.catalog.lookup(ctx(), ObjectName(name))
        if rel is None:  # waiting for the creation permit
            assert any(p.spec.name == name for p in self.e.waits.queue)
            return
        set_rows(self.e, rel.id, rows)

    @rule(
        name=st.sampled_from(NAMES),
        data=st.data(),
        background=st.booleans(),
        snapshot=st.booleans(),
        rate=st.sampled_from(["-1", "0", "1", "5"]),
        parallelism=st.sampled_from(["default", *PARALLELISM]),
    )
    def create_mv(
        self,
        name: str,
        data: st.DataObject,
        background: bool,
        snapshot: bool,
        rate: str,
        parallelism: str,
    ) -> None:
        ups = self._jobs()
        if not ups:
            return
        up = data.draw(st.sampled_from(ups))
        c = ctx(
            background_ddl=str(background).lower(),
            streaming_use_snapshot_backfill=str(snapshot).lower(),
            backfill_rate_limit=rate,
            streaming_parallelism=parallelism,
        )
        with contextlib.suppress(RwError):
            self.e.ddl.create_materialized_view(
                c,
                ObjectName(name),
                V,
                definition=f"CREATE MATERIALIZED VIEW {name}",
                upstream_ids=[up[0]],
            )

    @rule(
        data=st.data(),
        value=st.sampled_from(PARALLELISM),
        deferred=st.booleans(),
        backfill=st.booleans(),
    )
    def alter(self, data: st.DataObject, value: str, deferred: bool, backfill: bool) -> None:
        jobs = self._jobs()
        if not jobs:
            return
        _, kind, name = data.draw(st.sampled_from(jobs))
        fn = self.e.scale.alter_backfill_parallelism if backfill else self.e.scale.alter_parallelism
        with contextlib.suppress(RwError):
            fn(ctx(), kind, ObjectName(name), value, deferred=deferred)

    @rule(pause=st.booleans())
    def pause_or_resume(self, pause: bool) -> None:
        (self.e.barrier.pause_all if pause else self.e.barrier.resume_all)(ctx())

    @rule(n=st.integers(1, 5))
    def tick(self, n: int) -> None:
        for _ in range(n):
            self.clock.advance(1000)
            self.e.barrier.tick()

    @rule(data=st.data())
    def cancel(self, data: st.DataObject) -> None:
        jobs = self._jobs()
        if jobs:
            self.e.jobs.cancel_jobs(ctx(), [data.draw(st.sampled_from(jobs))[0]])

    @rule(data=st.data(), cascade=st.booleans())
    def drop(self, data: st.DataObject, cascade: bool) -> None:
        jobs = self._jobs()
        if not jobs:
            return
        _, kind, name = data.draw(st.sampled_from(jobs))
        with contextlib.suppress(RwError):
            self.e.ddl.drop_relation(ctx(), kind, ObjectName(name), cascade=cascade)

    @rule()
    def restart(self) -> None:
        before = _state(self.e)
        queued = {p.job_id for p in self.e.waits.queue}
        self.e = self.e.restart()
        after = _state(self.e)
        # Recovery deletes nothing here (no INITIAL jobs, no VALUES fragments); progress and
        # actors may move, the catalog may not.
        # Queued creates die with the meta node: their INITIAL jobs are deleted by recovery.
        assert self.e.conn.execute(
            "SELECT count(*) FROM streaming_job WHERE job_status = 'INITIAL'"
        ).fetchone() == (0,)
        assert after == _without(before, queued)
        assert not self.e.barrier.is_paused(1)

    @invariant()
    def no_fixed_parallelism_above_max(self) -> None:
        bad = {
            r[0]
            for r in self.e.conn.execute(
                "SELECT job_id FROM streaming_job WHERE (parallelism_kind = 'Fixed' AND"
                " parallelism_fixed > max_parallelism) OR (backfill_parallelism_kind = 'Fixed'"
                " AND backfill_parallelism_fixed > max_parallelism)"
            )
        }
        # A create waiting for the permit is not validated yet: RisingWave checks the
        # parallelism after taking it (ddl_controller.rs:1200-1208, then :1928-1932).
        assert bad <= {p.job_id for p in self.e.waits.queue}

    @invariant()
    def initial_jobs_are_only_those_waiting_for_a_permit(self) -> None:
        initial = {
            r[0]
            for r in self.e.conn.execute(
                "SELECT job_id FROM streaming_job WHERE job_status = 'INITIAL'"
            )
        }
        assert initial == {p.job_id for p in self.e.waits.queue}

    @invariant()
    def catalog_and_fragments_consistent(self) -> None:
        c = self.e.conn
        checks = {
            "job without relation": "SELECT job_id FROM streaming_job WHERE job_id NOT IN"
            " (SELECT relation_id FROM relation)",
            "job relation without job": "SELECT relation_id FROM relation WHERE kind IN"
            " ('table', 'materialized view', 'index', 'sink') AND relation_id NOT IN"
            " (SELECT job_id FROM streaming_job)",
            "fragment without job": "SELECT fragment_id FROM fragment WHERE job_id NOT IN"
            " (SELECT job_id FROM streaming_job)",
            "job without fragment": "SELECT job_id FROM streaming_job WHERE job_id NOT IN"
            " (SELECT job_id FROM fragment) AND job_status != 'INITIAL'",
            "INITIAL job with fragments": "SELECT DISTINCT f.job_id FROM fragment f JOIN"
            " streaming_job j ON j.job_id = f.job_id WHERE j.job_status = 'INITIAL'",
            "dangling edge": "SELECT * FROM fragment_relation WHERE source_fragment_id NOT IN"
            " (SELECT fragment_id FROM fragment) OR target_fragment_id NOT IN"
            " (SELECT fragment_id FROM fragment)",
            "dangling actor": "SELECT actor_id FROM actor WHERE fragment_id NOT IN"
            " (SELECT fragment_id FROM fragment)",
            "fragment without actors": "SELECT fragment_id FROM fragment WHERE fragment_id NOT"
            " IN (SELECT fragment_id FROM actor)",
            "dangling dependency": "SELECT * FROM dependency WHERE referenced_id NOT IN"
            " (SELECT relation_id FROM relation) OR dependent_id NOT IN"
            " (SELECT relation_id FROM relation)",
            "orphan internal table": "SELECT relation_id FROM relation WHERE kind = 'internal'"
            " AND owner_job_id NOT IN (SELECT job_id FROM streaming_job)",
            "created job still backfilling": "SELECT j.job_id FROM streaming_job j JOIN fragment"
            " f ON f.job_id = j.job_id WHERE j.job_status = 'CREATED' AND"
            " f.scan_relation_id IS NOT NULL AND f.backfill_done = 0",
        }
        for what, sql in checks.items():
            assert c.execute(sql).fetchall() == [], what


TestEngineMachine = EngineMachine.TestCase
TestEngineMachine.settings = settings(
    max_examples=25,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
