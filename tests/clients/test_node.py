"""node-postgres (``pg``) and ``postgres`` (porsager), from npm, against a real rwshim server.

Both are pinned in ``node/package.json`` / ``package-lock.json`` and installed into
``tests/clients/node/node_modules`` by ``.ci/setup`` (``npm ci``); ``node/rwnode.js`` runs
one scenario per driver and prints what the driver returned.  Error objects carry RisingWave's
SQLSTATE and whole message; RisingWave's ErrorResponse has only the S, C and M fields
(``pg_message.rs:882-896``), so ``pg`` reads the severity from S and ``postgres``, which
reads S as ``severity_local`` and V as ``severity``, has no ``severity``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.clients.drivers import by_label, installed, run_lines, tool
from tests.conftest import ThreadRunning

NODE_DIR = Path(__file__).resolve().parent / "node"

CATALOG = (
    "{envelope}\n\nCaused by these errors (recent errors listed first):\n"
    "  1: Catalog error\n  2: table or source not found: missing\n"
)


def alter_error(envelope: str, call: str, cause: str) -> str:
    return (
        f"{envelope}\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: gRPC request to meta service (call `/ddl_service.DdlService/{call}`) failed: "
        f"Internal error\n  2: {cause}\n"
    )


def run(server: ThreadRunning, scenario: str) -> dict[str, list[Any]]:
    for package in ("pg", "postgres"):
        installed(NODE_DIR / "node_modules" / package / "package.json")
    cmd = [tool("node"), "rwnode.js", server.host, str(server.port), scenario]
    # pg reads a timestamp without time zone as local time: pin the zone.
    env = {**os.environ, "TZ": "UTC"}
    return by_label(run_lines(cmd, cwd=NODE_DIR, env=env))


def test_node_postgres(rw_thread_server: ThreadRunning) -> None:
    got = run(rw_thread_server, "pg")
    assert got.pop("version") == [
        "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)"
    ]
    assert got.pop("create") == ["CREATE", None]
    assert got.pop("insert") == ["INSERT", 1]
    rows, fields = got.pop("rows")
    assert rows == [
        {
            "id": i,
            "name": name,
            "price": i * 1.25,
            "qty": str(10**10 + i),  # int8 arrives as a string (pg's default parser)
            "tags": [name, "fruit"],
            "meta": {"id": i, "ok": True},
            "at": f"2024-05-0{i}T12:00:00.000Z",
        }
        for i, name in ((1, "apple"), (2, "pear"), (3, "plum"))
    ]
    assert fields == [
        ["id", 23],
        ["name", 1043],
        ["price", 701],
        ["qty", 20],
        ["tags", 1015],
        ["meta", 3802],
        ["at", 1114],
    ]
    assert got.pop("named prepared") == [
        [[{"name": "pear", "price": 2.5}], [{"name": "plum", "price": 3.75}], []]
    ]
    assert got.pop("array rows") == [[[1, "apple"], [2, "pear"]]]
    for label, envelope in (
        ("catalog error, simple", "Failed to run the query"),
        ("catalog error, extended", "Failed to prepare the statement"),
    ):
        assert got.pop(label) == [
            {
                "class": "DatabaseError",
                "code": "42704",
                "message": CATALOG.format(envelope=envelope),
                "severity": "ERROR",
                "severity_local": None,
            }
        ], label
    assert got.pop("error 4") == [
        {
            "class": "DatabaseError",
            "code": "XX000",
            "message": alter_error(
                "Failed to run the query",
                "AlterBackfillParallelism",
                "specified backfill parallelism 8 should not exceed max parallelism 4",
            ),
            "severity": "ERROR",
            "severity_local": None,
        }
    ]
    assert got.pop("after errors") == [[{"one": 1}]]
    assert got.pop("pool") == [[2, 4, 6, 8, 10, 12, 14, 16], 3]
    assert got.pop("pool client") == [[{"n": 3}]]
    assert got == {}


def test_postgres_js(rw_thread_server: ThreadRunning) -> None:
    got = run(rw_thread_server, "postgres")
    # numeric arrives as text (RisingWave's normalized rendering); arrays as their text form
    # because RisingWave's pg_type has no typcategory for postgres.js to find them by.
    assert got.pop("rows") == [
        [
            {"id": 1, "name": "ada", "score": "1.5", "ids": "{1,2}"},
            {"id": 2, "name": "bob", "score": "3", "ids": "{2,3}"},
            {"id": 3, "name": "cy", "score": "4.5", "ids": "{3,4}"},
        ]
    ]
    assert got.pop("prepared") == [[[{"name": "ada"}], [{"name": "cy"}], []]]
    assert got.pop("unprepared") == [[{"s": "x", "i": 7}]]
    assert got.pop("multi statement") == [[[{"one": 1}], [{"two": 2}]]]
    assert got.pop("pool") == [[2, 4, 6, 8, 10, 12, 14, 16]]
    assert got.pop("begin") == [[{"n": 3}]]
    for label, envelope in (
        ("catalog error", "Failed to prepare the statement"),
        ("catalog error, simple", "Failed to run the query"),
    ):
        assert got.pop(label) == [
            {
                "class": "PostgresError",
                "code": "42704",
                "message": CATALOG.format(envelope=envelope),
                "severity": None,
                "severity_local": "ERROR",
            }
        ], label
    assert got.pop("error 4") == [
        {
            "class": "PostgresError",
            "code": "XX000",
            "message": alter_error(
                "Failed to execute the statement",
                "AlterParallelism",
                "specified parallelism 8 should not exceed max parallelism 4",
            ),
            "severity": None,
            "severity_local": "ERROR",
        }
    ]
    assert got.pop("after errors") == [[{"one": 1}]]
    assert got.pop("notices") == [
        [
            "Read-write transaction is not supported yet. Please specify `READ ONLY` to start a "
            "read-only transaction.\nFor compatibility, this statement will still succeed but no "
            "transaction is actually started."
        ]
    ]
    assert got == {}
