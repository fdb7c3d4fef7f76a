"""Go's ``lib/pq`` through ``database/sql`` against a real rwshim server.

``go/rwpq.go`` is built once per session in GOPATH mode against Debian's source package
(``golang-github-lib-pq-dev`` puts it under ``/usr/share/gocode``), with modules and the module
proxy off, so the build never reaches the network; then it runs and prints what the driver
returned.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.clients.drivers import by_label, installed, run_lines, tool
from tests.conftest import ThreadRunning

SOURCE = Path(__file__).resolve().parent / "go" / "rwpq.go"
GOPATH = Path(os.environ.get("RWSHIM_GOPATH", "/usr/share/gocode"))


@pytest.fixture(scope="session")
def rwpq(tmp_path_factory: pytest.TempPathFactory) -> str:
    installed(GOPATH / "src" / "github.com" / "lib" / "pq" / "conn.go")
    out = tmp_path_factory.mktemp("go")
    env = {
        **os.environ,
        "GO111MODULE": "off",
        "GOPATH": str(GOPATH),
        "GOFLAGS": "",
        "GOPROXY": "off",
        "GOTOOLCHAIN": "local",
        "GOCACHE": str(out / "cache"),
    }
    exe = out / "rwpq"
    r = subprocess.run(
        [tool("go"), "build", "-o", str(exe), str(SOURCE)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    return str(exe)


def pq_error(code: str, name: str, message: str) -> dict[str, Any]:
    return {
        "code": code,
        "name": name,
        "class": code[:2],
        "message": message,
        "severity": "ERROR",
        "error": f"pq: {message}",
    }


def test_lib_pq(rwpq: str, rw_thread_server: ThreadRunning) -> None:
    dsn = rw_thread_server.dsn(sslmode="disable")
    got = by_label(run_lines([rwpq, dsn]))
    assert got.pop("version") == [
        "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)"
    ]
    assert got.pop("exec") == [1]

    def item(i: int, name: str, price: float, tags: list[str], ok: bool) -> dict[str, Any]:
        seen = f"2024-06-0{i} 08:00:00 +0000"
        return {"id": i, "name": name, "price": price, "seen": seen, "tags": tags, "ok": ok}

    assert got.pop("query") == [
        [item(3, "item 3", 0.75, ["x"], False), item(4, "item 4", 1, ["x"], True)]
    ]
    assert got.pop("prepared") == [[item(1, "apple", 1.25, ["red", "fruit"], True)], []]
    assert got.pop("aggregate") == [4, 3.5]
    catalog = (
        "{}\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table or source not found: missing\n"
    )
    assert got.pop("catalog error, simple") == [
        pq_error("42704", "undefined_object", catalog.format("Failed to run the query"))
    ]
    assert got.pop("catalog error, extended") == [
        pq_error("42704", "undefined_object", catalog.format("Failed to prepare the statement"))
    ]
    assert got.pop("error 4") == [
        pq_error(
            "XX000",
            "internal_error",
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            "  1: gRPC request to meta service (call "
            "`/ddl_service.DdlService/AlterBackfillParallelism`) failed: Internal error\n"
            "  2: specified backfill parallelism 8 should not exceed max parallelism 4\n",
        )
    ]
    # lib/pq's own check of the ReadyForQuery status after BEGIN (conn.go): RisingWave stays
    # idle for a read-write BEGIN, so database/sql's Begin fails; BEGIN READ ONLY works.
    assert got.pop("begin") == ["unexpected transaction status idle"]
    assert got.pop("read-only transaction") == [4, "<nil>"]
    assert got == {}
