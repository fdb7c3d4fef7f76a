"""The benchmark harness in quick mode, as CI runs it: it completes and every figure exists.

No timing is asserted.  A workload beyond the `SELECT 1` path (catalog query, DDL cycle, scale
probes) may instead carry the reason rwshim could not run it; PostgreSQL's figures and the
`SELECT 1`-path figures (the `core` workloads, start-up, memory) must be positive.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def figures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("bench") / "quick.json"
    res = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--quick", "--json", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    print(res.stdout)
    assert res.returncode == 0, res.stderr[-2000:]
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def _positive(series: dict[str, Any]) -> bool:
    return (
        series["error"] is None
        and series["median"] is not None
        and series["median"] > 0
        and all(r > 0 for r in series["runs"])
    )


def test_every_workload_ran_on_both_servers(figures: dict[str, Any]) -> None:
    names = [w["name"] for w in figures["workloads"]]
    assert "select1-prepared-c8" in names and "ddl-cycle-c1" in names and len(names) == 16
    assert "ddl-cycle-datadir-c1" in names and "psql-list-c1" in names
    assert "pk-lookup-prepared-c1" in names and "insert-100k-pk-c1" in names
    for w in figures["workloads"]:
        # The canned-reply floor runs beside both for SELECT 1, the byte relay to PostgreSQL
        # for the point lookups, and no floor elsewhere.
        kinds = (("select1-", "canned"), ("pk-lookup-", "relay"))
        kind = next((k for prefix, k in kinds if w["name"].startswith(prefix)), None)
        if kind is not None:
            assert w["floor_kind"] == kind, w
            assert _positive(w["floor"]), w
            assert w["floor_ratio"] > 0
        else:
            assert w["floor"] is None, w
        assert _positive(w["postgres"]), w
        if w["core"]:
            assert _positive(w["rwshim"]), w
            assert w["ratio"] > 0
        else:
            assert _positive(w["rwshim"]) or w["rwshim"]["error"], w


def test_startup_and_memory_figures(figures: dict[str, Any]) -> None:
    assert _positive(figures["startup_s"])
    mem = figures["memory"]
    assert mem["error"] is None, mem
    assert mem["idle_connections"] == 100
    assert mem["rss_connections_kib"] > mem["rss_idle_kib"] > 0


def test_scale_figures(figures: dict[str, Any]) -> None:
    scale = figures["scale"]
    assert scale["requested"] == [10, 1000]
    counts = [str(n) for n in scale["counts"]]
    assert set(scale["probes"]) == {
        "alter_parallelism",
        "catalog_query",
        "show_jobs",
        "create_mv",
        "drop_mv",
    }
    for name, probe in scale["probes"].items():
        if probe["error"] is None:
            assert counts and set(probe["latency_ms"]) == set(counts), name
            assert all(v > 0 for v in probe["latency_ms"].values()), name
            assert len(counts) < 2 or probe["ratio"] > 0
        else:
            assert probe["error"].strip(), name
    assert [p["count"] for p in scale["population"]] == scale["counts"]
    assert all(p["seconds"] > 0 for p in scale["population"])
    assert set(scale["rss_kib"]) == set(counts)
    if scale["error"] is None:
        assert scale["counts"] == scale["requested"]
    else:
        assert scale["error"].strip()
