"""The dashboard's JSON API over HTTP against a real server: the documented endpoints, the
event stream, read-only refusal of control actions, and the actions when allowed."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import psycopg
import pytest

from tests.conftest import ThreadRunning

Make = Callable[..., tuple[ThreadRunning, str]]


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def post(url: str, body: object, content_type: str = "application/json") -> tuple[int, Any]:
    req = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": content_type}
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def first_event(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as resp:
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        lines = []
        for raw in resp:
            line = raw.decode().rstrip("\n")
            if line == "" and lines:
                break
            if line.startswith("data: "):
                lines.append(line.removeprefix("data: "))
    return json.loads("\n".join(lines))


def creating_mv(running: ThreadRunning) -> tuple[int, int]:
    with psycopg.connect(running.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE t (v int)")
        conn.execute("INSERT INTO t SELECT * FROM generate_series(1, 100)")
        conn.execute("SET background_ddl = true")
        conn.execute("SET backfill_rate_limit = 1")
        conn.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
        rows = conn.execute(
            "SELECT name, id FROM rw_catalog.rw_relations WHERE name IN ('t', 'm')"
        ).fetchall()
    ids = dict(rows)
    return int(ids["t"]), int(ids["m"])


def test_endpoints_answer_the_same_data(dashboard_server: Make) -> None:
    running, base = dashboard_server(manual_clock=True)
    t, m = creating_mv(running)
    status, index = get(base + "api")
    assert status == 200
    assert index["control"] is False
    assert set(index["endpoints"]) >= {"GET /api/blocked", "GET /api/events[?job=id]"}
    status, overview = get(base + "api/overview")
    assert (status, [d["name"] for d in overview["databases"]]) == (200, ["dev"])
    status, relations = get(base + "api/relations")
    nodes = {n["name"]: n for n in relations["nodes"]}
    assert nodes["m"]["job"]["status"] == "CREATING"
    assert relations["edges"] == [{"from": t, "to": m}]
    status, blocked = get(base + "api/blocked")
    by_id = {b["job_id"]: b for b in blocked["jobs"]}
    assert by_id[t]["parallelism"]["message"] == (
        f"Cannot alter the job {t} because it is blocked by creating unreschedulable backfill jobs"
    )
    status, job = get(base + f"api/jobs/{m}")
    assert (status, job["job"]["name"], job["blocked"]) == (200, "m", by_id[m])
    status, snap = get(base + f"api/snapshot?job={m}")
    assert status == 200
    assert (snap["relations"], snap["blocked"], snap["job"]) == (relations, blocked, job)
    event = first_event(base + f"api/events?job={m}")
    assert (event["relations"], event["blocked"], event["job"]) == (relations, blocked, job)
    # The statement the page reports as refused is refused with that text.
    with (
        psycopg.connect(running.dsn(), autocommit=True) as conn,
        pytest.raises(psycopg.errors.InternalError) as ex,
    ):
        conn.execute("ALTER TABLE t SET PARALLELISM = 2")
    assert ex.value.diag.message_primary == by_id[t]["parallelism"]["error"]


def test_bad_requests(dashboard_server: Make) -> None:
    _, base = dashboard_server()
    assert get(base + "api/jobs/999") == (404, {"error": "streaming job 999 not found"})
    assert get(base + "api/jobs/x") == (400, {"error": "not a job id: 'x'"})
    assert get(base + "api/snapshot?job=x") == (400, {"error": "not a job id: 'x'"})


def test_read_only_refuses_control(dashboard_server: Make) -> None:
    running, base = dashboard_server()
    status, body = post(base + "api/control/pause", {})
    assert (status, body) == (
        403,
        {
            "error": "the dashboard is read-only: start rwshim with --dashboard-control to allow "
            "control actions"
        },
    )
    assert running.call(lambda: running.server.instance.manual) is False


def test_control_actions(dashboard_server: Make) -> None:
    running, base = dashboard_server(manual_clock=True, dashboard_control=True)
    t, m = creating_mv(running)
    assert get(base + "api")[1]["control"] is True
    assert post(base + "api/control/tick", {}, content_type="text/plain")[0] == 415
    status, body = post(base + "api/control/hold_backfill", {"job_id": m})
    assert (status, body["ok"]) == (200, True)
    epoch = get(base + "api/overview")[1]["databases"][0]["epoch"]
    status, body = post(base + "api/control/tick", {"count": 3, "database": "dev"})
    assert status == 200
    assert body["overview"]["databases"][0]["epoch"] > epoch
    job = get(base + f"api/jobs/{m}")[1]["job"]
    assert (job["backfill_held"], job["backfill_consumed"]) == (True, 0)
    post(base + "api/control/release_backfill", {"job_id": m})
    post(base + "api/control/tick", {"count": 2})
    assert get(base + f"api/jobs/{m}")[1]["job"]["backfill_consumed"] == 8  # 4 actors, 1 row/s each
    status, body = post(base + "api/control/pause", {"database": "dev"})
    assert (status, body["overview"]["databases"][0]["paused"]) == (200, True)
    status, body = post(base + "api/control/resume", {})
    assert body["overview"]["databases"][0]["paused"] is False
    status, body = post(base + "api/control/clock", {"manual": False})
    assert (status, body["overview"]["manual_clock"]) == (200, False)
    assert post(base + "api/control/hold_backfill", {"job_id": 999}) == (
        400,
        {"error": "Invalid parameter value: streaming job 999 not found"},
    )
    assert post(base + "api/control/tick", {"count": 0})[0] == 400
    status, body = post(base + "api/control/nope", {})
    assert status == 404
    assert body["error"].startswith("unknown action 'nope'")
    assert t != m
