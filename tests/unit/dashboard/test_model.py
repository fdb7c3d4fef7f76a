"""The dashboard's values (rwshim/dashboard/model.py) over a real Frontend and Instance, without
sockets: each refusal the blocked set shows is the error the ALTER then raises, word for word."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rwshim.common.outcome import Outcome
from rwshim.dashboard import model
from rwshim.errors import RwError
from rwshim.frontend import Frontend
from rwshim.instance import Instance


async def run(fe: Frontend, sql: str) -> Outcome:
    out = None
    for stmt in fe.parse(sql):
        out = await fe.execute(stmt, [])
    assert out is not None
    return out


async def fails(fe: Frontend, sql: str) -> RwError:
    with pytest.raises(RwError) as ex:
        await run(fe, sql)
    return ex.value


@pytest.fixture
def fe() -> Frontend:
    return Frontend(Instance(manual_clock=True), "root", "dev")


async def creating_mv(fe: Frontend) -> tuple[int, int]:
    """A table of 100 rows and a background MV over it with a slow backfill: (table, mv)."""
    await run(fe, "CREATE TABLE t (v int); INSERT INTO t SELECT * FROM generate_series(1, 100)")
    await run(fe, "SET background_ddl = true; SET backfill_rate_limit = 1")
    await run(fe, "CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
    ids = {n["name"]: n["id"] for n in model.relations(fe.instance)["nodes"]}
    return ids["t"], ids["m"]


def entry(fe: Frontend, job_id: int) -> dict[str, Any]:
    return next(b for b in model.blocked(fe.instance)["jobs"] if b["job_id"] == job_id)


async def test_relations_show_status_progress_and_dependencies(fe: Frontend) -> None:
    t, m = await creating_mv(fe)
    rel = model.relations(fe.instance)
    nodes = {n["id"]: n for n in rel["nodes"]}
    assert rel["edges"] == [{"from": t, "to": m}]
    assert (nodes[t]["kind"], nodes[t]["job"]["status"], nodes[t]["job"]["fraction"]) == (
        "table",
        "CREATED",
        1.0,
    )
    job = nodes[m]["job"]
    assert (job["status"], job["create_type"], job["job_type"]) == (
        "CREATING",
        "BACKGROUND",
        "SnapshotBackfill",
    )
    assert (job["backfill_consumed"], job["backfill_total"]) == (0, 100)
    await run(fe, "RWSHIM TICK 2")
    job = {n["id"]: n for n in model.relations(fe.instance)["nodes"]}[m]["job"]
    # 1 row/s per actor, 4 actors, one second per manual barrier.
    assert (job["backfill_consumed"], job["fraction"], job["progress"]) == (
        8,
        0.08,
        "Snapshot [8.00% (8/100)]",
    )
    # A view is a relation without a streaming job.
    await run(fe, "CREATE VIEW v AS SELECT * FROM t")
    v = next(n for n in model.relations(fe.instance)["nodes"] if n["name"] == "v")
    assert (v["kind"], v["job"]) == ("view", None)


async def test_blocked_set_is_what_the_alters_answer(fe: Frontend) -> None:
    t, m = await creating_mv(fe)
    for job_id, kind, name in ((t, "TABLE", "t"), (m, "MATERIALIZED VIEW", "m")):
        shown = entry(fe, job_id)["parallelism"]
        err = await fails(fe, f"ALTER {kind} {name} SET PARALLELISM = 2")
        assert shown == {
            "refused": True,
            "when": "always",
            "message": f"Cannot alter the job {job_id} because it is blocked by creating "
            "unreschedulable backfill jobs",
            "error": err.report(),
            "sqlstate": "XX000",
            "call": "/ddl_service.DdlService/AlterParallelism",
            "causes": [{"id": m, "name": "m"}],
        }
    shown = entry(fe, m)["backfill_parallelism"]
    err = await fails(fe, "ALTER MATERIALIZED VIEW m SET BACKFILL_PARALLELISM = 2")
    assert (shown["error"], shown["causes"]) == (err.report(), [{"id": m, "name": "m"}])
    assert shown["message"] == (
        f"Cannot alter the job {m} because its creating backfill contains a scan type that does "
        "not support online rescheduling"
    )
    assert entry(fe, t)["backfill_parallelism"] == {"refused": False}
    # ALTER FRAGMENT: refused at the barrier for a value that changes the layout.
    fragments = entry(fe, t)["fragments"]
    assert sorted(fragments) == sorted(
        str(f["id"]) for f in model.job(fe.instance, t)["fragments"] if not f["external"]
    )
    fid, shown = next(iter(fragments.items()))
    assert (shown["when"], shown["causes"]) == ("layout change", [{"id": m, "name": "m"}])
    err = await fails(fe, f"ALTER FRAGMENT {fid} SET PARALLELISM = 2")
    assert shown["error"] == err.report()
    assert shown["message"] == (
        f"cannot reschedule jobs {{{t}}} when creating jobs with unreschedulable backfill fragments"
    )


async def test_nothing_blocked_once_the_backfill_is_done(fe: Frontend) -> None:
    t, m = await creating_mv(fe)
    before = model.snapshot(fe.instance, job_id=m)
    assert model.snapshot(fe.instance, job_id=m) == before  # asking changes nothing
    await run(fe, "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = DEFAULT; RWSHIM TICK")
    for b in model.blocked(fe.instance)["jobs"]:
        assert b["parallelism"] == b["backfill_parallelism"] == {"refused": False}
        assert all(r == {"refused": False} for r in b["fragments"].values())
    statuses = {n["id"]: n["job"]["status"] for n in model.relations(fe.instance)["nodes"]}
    assert statuses == {t: "CREATED", m: "CREATED"}
    await run(fe, "ALTER TABLE t SET PARALLELISM = 2")


async def test_job_fragments_edges_and_rate_limits(fe: Frontend) -> None:
    t, m = await creating_mv(fe)
    detail = model.job(fe.instance, m)
    assert detail is not None
    assert detail["job"]["statement_kind"] == "MATERIALIZED VIEW"
    own = [f for f in detail["fragments"] if not f["external"]]
    (scan,) = [f for f in own if f["scan_type"]]
    assert scan["scan_type"] == "SnapshotBackfill"
    assert scan["scan_relation"] == {"id": t, "name": "t"}
    assert (scan["backfill_rate_limit"], scan["actors"], scan["distribution"]) == (1, 4, "HASH")
    assert scan["backfill"] == {"consumed": 0, "total": 100, "done": False}
    upstream = [f for f in detail["fragments"] if f["external"]]
    assert {f["job_name"] for f in upstream} == {"t"}
    assert {e["dispatcher"] for e in detail["edges"]} == {"Hash"}
    assert {(e["source"], e["target"]) for e in detail["edges"]} == {
        (upstream[0]["id"], scan["id"])
    }
    assert detail["blocked"] == entry(fe, m)
    assert model.job(fe.instance, 999) is None


async def test_overview_pause_epoch_interval(fe: Frontend) -> None:
    await run(fe, "CREATE TABLE t (v int); ALTER DATABASE dev SET barrier_interval_ms = 250")
    ov = model.overview(fe.instance)
    (dev,) = ov["databases"]
    assert (dev["name"], dev["paused"], dev["barrier_interval_ms"], ov["manual_clock"]) == (
        "dev",
        False,
        250,
        True,
    )
    epoch = dev["epoch"]
    await run(fe, "ALTER DATABASE dev PAUSE; RWSHIM TICK")
    (dev,) = model.overview(fe.instance)["databases"]
    assert dev["paused"] is True
    assert dev["epoch"] > epoch
    assert dev["epoch_time_ms"] == (dev["epoch"] >> 16) + 1_617_235_200_000
    json.dumps(model.snapshot(fe.instance))  # all of it is JSON
