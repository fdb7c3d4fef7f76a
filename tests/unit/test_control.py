"""The control statements over the real Frontend and Instance, without sockets."""

from __future__ import annotations

import pytest

from rwshim.common.outcome import Outcome
from rwshim.control import statements as control
from rwshim.engine import ManualClock, SystemClock
from rwshim.errors import RwError
from rwshim.frontend import Frontend
from rwshim.instance import Instance


async def run(fe: Frontend, sql: str) -> Outcome:
    out = None
    for stmt in fe.parse(sql):
        out = await fe.execute(stmt, [])
    assert out is not None
    return out


@pytest.fixture
def fe() -> Frontend:
    return Frontend(Instance(manual_clock=True), "root", "dev")


async def test_tick_moves_a_manual_clock_one_interval_per_barrier(fe: Frontend) -> None:
    clock = fe.instance.clock
    assert isinstance(clock, ManualClock)
    start = clock.now_ms()
    await run(fe, "CREATE TABLE t (v int); ALTER SYSTEM SET barrier_interval_ms = 250")
    out = await run(fe, "RWSHIM TICK 4")
    assert (out.tag, out.columns) == ("RWSHIM", None)
    assert clock.now_ms() - start == 1000


async def test_backfill_hold_and_release(fe: Frontend) -> None:
    await run(fe, "CREATE TABLE t (v int); INSERT INTO t SELECT * FROM generate_series(1, 100)")
    await run(fe, "SET background_ddl = true; SET backfill_rate_limit = 10")
    await run(fe, "CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
    job = next(r for r in control.job_rows(fe.instance) if r[2] == "m")[0]
    await run(fe, f"RWSHIM HOLD BACKFILL {job}; RWSHIM TICK 10")
    rows = (await run(fe, "RWSHIM JOBS")).rows
    m = next(
        dict(zip([c.name for c in control.JOB_COLUMNS], r, strict=True))
        for r in rows
        if r[2] == "m"
    )
    assert (m["status"], m["backfill_held"], m["backfill_consumed"], m["backfill_total"]) == (
        "CREATING",
        True,
        0,
        100,
    )
    assert m["progress"] == "Snapshot [0.00% (0/100)]"
    await run(fe, f"RWSHIM RELEASE BACKFILL {job}; RWSHIM TICK 3")
    assert fe.instance.engine.catalog.job_status(int(job)) == "CREATED"  # type: ignore[call-overload]


async def test_clock_modes(fe: Frontend) -> None:
    await run(fe, "RWSHIM CLOCK AUTO")
    assert (fe.instance.manual, type(fe.instance.clock)) == (False, SystemClock)
    assert fe.instance.engine.clock is fe.instance.clock
    await run(fe, "RWSHIM CLOCK MANUAL")
    assert (fe.instance.manual, type(fe.instance.clock)) == (True, ManualClock)
    assert fe.instance.engine.clock is fe.instance.clock


async def test_faults(fe: Frontend) -> None:
    await run(fe, "RWSHIM FAULT crash_after_catalog_write ON")
    assert fe.instance.engine.faults.crash_after_catalog_write is True
    out = await run(fe, "RWSHIM FAULTS")
    assert list(out.rows) == [
        ("skip_batch_refresh_admission", False),
        ("crash_after_catalog_write", True),
    ]
    with pytest.raises(RwError) as info:
        await run(fe, "RWSHIM FAULT Nope OFF")
    assert info.value.report("Failed to run the query") == (
        "Failed to run the query\n\nCaused by:\n  Invalid parameter value: unknown fault "
        '"nope", expected one of: skip_batch_refresh_admission, crash_after_catalog_write\n'
    )


async def test_describe_gives_the_result_columns(fe: Frontend) -> None:
    (jobs,) = fe.parse("RWSHIM JOBS")
    (tick,) = fe.parse("RWSHIM TICK")
    assert fe.describe(jobs, []).columns == control.JOB_COLUMNS
    assert fe.describe(tick, []).columns is None


async def test_superuser_only(fe: Frontend) -> None:
    await run(fe, "CREATE USER bob")
    bob = Frontend(fe.instance, "bob", "dev")
    for sql in ("RWSHIM TICK", "RWSHIM JOBS", "RWSHIM RESTART", "RWSHIM CLOCK AUTO"):
        with pytest.raises(RwError) as info:
            await run(bob, sql)
        assert str(info.value.report(None)) == (
            "Permission denied: must be superuser to use rwshim control statements"
        )
    assert fe.instance.manual is True


@pytest.mark.parametrize("count", [0, 100_001])
async def test_tick_count_is_bounded(fe: Frontend, count: int) -> None:
    with pytest.raises(RwError) as info:
        await run(fe, f"RWSHIM TICK {count}")
    assert info.value.report(None) == (
        "Invalid parameter value: tick count must be between 1 and 100000"
    )
