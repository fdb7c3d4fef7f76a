"""pgjdbc (Debian's ``libpostgresql-jdbc-java``, the driver under DBeaver, DataGrip, Flink, Kafka
Connect and Metabase) against a real rwshim server.

``jdbc/RwJdbc.java`` is compiled once per session with the JDK's ``javac`` and run per
scenario; it prints what the driver returned and the assertions are here.  pgjdbc uses the
extended protocol for every statement unless ``preferQueryMode=simple``, so RisingWave's errors
arrive in the "Failed to prepare/execute the statement" envelopes (``pg_protocol.rs``: Parse
:1008-1043, Execute :1149) and, in simple mode, in "Failed to run the query" (:841).

``getPrimaryKeys`` selects ``information_schema._pg_expandarray(i.indkey)`` and its fields,
a set-returning function RisingWave has (binder/expr/function/mod.rs:103,
expr/impl/src/table_function/pg_expandarray.rs); RisingWave's pg_index has a pseudo index per
primary key whose ``indexrelid`` is the table's own id (pg_index.rs), so ``PK_NAME`` is the
table's name.  ``getIndexInfo`` then reads ``pg_class.reltuples``, ``getFunctions``
``pg_get_function_result``, neither of which RisingWave has: both fail with its text.
``getImportedKeys`` fails in pgjdbc itself (no ``max_index_keys`` setting).
"""

from __future__ import annotations

import os
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.clients.drivers import by_label, installed, run_lines, tool
from tests.conftest import ThreadRunning

HERE = Path(__file__).resolve().parent / "jdbc"
# Debian's libpostgresql-jdbc-java puts the driver here (42.5.5 on bookworm).
PGJDBC_JAR = Path(os.environ.get("RWSHIM_PGJDBC_JAR", "/usr/share/java/postgresql.jar"))


@pytest.fixture(scope="session")
def jdbc_classpath(tmp_path_factory: pytest.TempPathFactory) -> str:
    jar = installed(PGJDBC_JAR)
    out = tmp_path_factory.mktemp("jdbc")
    r = subprocess.run(
        [tool("javac"), "-d", str(out), "-cp", str(jar), str(HERE / "RwJdbc.java")],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert r.returncode == 0, r.stderr
    return f"{out}{os.pathsep}{jar}"


def run(classpath: str, server: ThreadRunning, scenario: str, query: str = "") -> list[list[Any]]:
    url = f"jdbc:postgresql://{server.host}:{server.port}/dev{query}"
    return run_lines([tool("java"), "-cp", classpath, "RwJdbc", url, scenario])


def test_statements_batches_and_types(jdbc_classpath: str, rw_thread_server: ThreadRunning) -> None:
    got = by_label(run(jdbc_classpath, rw_thread_server, "statements"))
    assert got.pop("product") == ["PostgreSQL", "13.14.0"]
    assert got.pop("create") == [0]
    assert got.pop("insert") == [2]
    assert got.pop("simple select") == [[["2", "two"]]]
    assert got.pop("batch") == [[1, 1, 1, 1, 1]]
    assert got.pop("insert nulls") == [1]
    ts, day, big = "2024-03-0{} 10:30:00.0", "2024-04-0{}", "1000000000{}"
    rows = [
        # numeric keeps the scale it was given (0.25 * 6 = 1.50): RisingWave's Decimal prints
        # rust_decimal's scale (types/decimal.rs ToText; e2e batch/types/decimal.slt.part:
        # round(1.1987, 2) is 1.20)
        [6, "item 6", "9.0", "1.50", "true", ts.format(6), day.format(6), big.format(6)],
        [7, "item 7", "10.5", "1.75", "false", ts.format(7), day.format(7), big.format(7)],
        [8, *(["null"] * 7)],
    ]
    for run_no in range(1, 7):
        assert got.pop(f"prepared select {run_no}") == [rows], run_no
    assert got.pop("column types") == [
        [
            ["id", "int4"],
            ["item", "varchar"],
            ["price", "float8"],
            ["amount", "numeric"],
            ["paid", "bool"],
            ["at", "timestamp"],
            ["day", "date"],
            ["big", "int8"],
        ]
    ]
    assert got.pop("rewritten batch") == [[-2, -2, -2, -2]]
    # BEGIN starts no read-write transaction in RisingWave (handler/transaction.rs:54-62).
    assert got.pop("transaction warnings") == [
        [
            "Read-write transaction is not supported yet. Please specify `READ ONLY` to start a "
            "read-only transaction.\nFor compatibility, this statement will still succeed but no "
            "transaction is actually started."
        ]
    ]
    # ids 1-8, 20-23 and 30: every row of every path arrived.
    assert got.pop("final count") == [[["13", "152"]]]
    assert got == {}

    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        row = conn.execute("SELECT item, amount FROM orders WHERE id = 6").fetchone()
        assert row == ("item 6", Decimal("1.5"))


def _classified(server: ThreadRunning) -> dict[str, list[list[str]]]:
    """pgjdbc's getTables types for the catalog's relations, from pg_class read with psycopg:
    schemas starting ``pg_`` or named ``information_schema`` are SYSTEM, relkind r/v/m/i are
    TABLE/VIEW/MATERIALIZED VIEW/INDEX (PgDatabaseMetaData.getTables)."""
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT n.nspname, c.relname, c.relkind FROM pg_catalog.pg_class c"
            " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
        ).fetchall()
    names = {"r": "TABLE", "v": "VIEW", "m": "MATERIALIZED VIEW", "i": "INDEX"}
    out: dict[str, list[list[str]]] = {}
    for schema, name, kind in rows:
        system = schema.startswith("pg_") or schema == "information_schema"
        if kind not in names or (system and kind not in "rv"):
            continue
        out.setdefault(("SYSTEM " if system else "") + names[kind], []).append([schema, name])
    return {k: sorted(v) for k, v in out.items()}


def test_database_metadata(jdbc_classpath: str, rw_thread_server: ThreadRunning) -> None:
    got = by_label(run(jdbc_classpath, rw_thread_server, "metadata"))
    assert got.pop("catalogs") == [[["dev"]]]
    assert got.pop("schemas") == [
        [
            ["information_schema", None],
            ["pg_catalog", None],
            ["public", None],
            ["rw_catalog", None],
        ]
    ]
    assert got.pop("schemas like") == [[["public"]]]
    types = [t for [t] in got.pop("table types")[0]]
    assert {"TABLE", "VIEW", "MATERIALIZED VIEW", "INDEX", "SYSTEM TABLE"} <= set(types)
    assert got.pop("public tables") == [
        [
            [None, "public", "trades_by_sym", "INDEX", None],
            [None, "public", "trade_count", "MATERIALIZED VIEW", None],
            [None, "public", "trades", "TABLE", None],
            [None, "public", "cheap", "VIEW", None],
        ]
    ]
    expected = _classified(rw_thread_server)
    assert ["public", "trades"] in expected["TABLE"]
    assert ["rw_catalog", "rw_tables"] in expected["TABLE"]
    assert ["pg_catalog", "pg_class"] in expected["SYSTEM TABLE"]
    assert ["information_schema", "tables"] in expected["SYSTEM VIEW"]
    for kind in ("TABLE", "VIEW", "MATERIALIZED VIEW", "INDEX", "SYSTEM TABLE", "SYSTEM VIEW"):
        assert sorted(got.pop(f"tables {kind}")[0]) == expected[kind], kind
    assert got.pop("tables SEQUENCE") == [[]]
    assert got.pop("tables FOREIGN TABLE") == [[]]
    # RisingWave's pg_attribute has attnotnull = false for every column (pg_attribute.rs), so
    # the NOT NULL column reads as nullable, as it does against RisingWave.
    assert got.pop("columns") == [
        [
            ["id", "4", "int4", "10", "0", "1", "YES", "1", "NO"],
            ["sym", "12", "varchar", "2147483647", "0", "1", "YES", "2", "NO"],
            ["px", "2", "numeric", "0", None, "1", "YES", "3", "NO"],
        ]
    ]
    assert got.pop("view columns") == [[["sym", "varchar", "1"], ["n", "int8", "2"]]]
    assert got == {}


def _alter_error(envelope: str, call: str, cause: str) -> str:
    return (
        f"{envelope}\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: gRPC request to meta service (call `/ddl_service.DdlService/{call}`) failed: "
        f"Internal error\n  2: {cause}\n"
    )


@pytest.mark.parametrize("mode", ["extended", "simple"])
def test_documented_errors_are_psqlexceptions(
    jdbc_classpath: str, rw_thread_server: ThreadRunning, mode: str
) -> None:
    query = "?preferQueryMode=simple" if mode == "simple" else ""
    got = by_label(run(jdbc_classpath, rw_thread_server, "errors", query))
    [[[job, status]]] = got.pop("creating job")
    assert status == "Creating"
    run_env = "Failed to run the query"
    prepare_env = run_env if mode == "simple" else "Failed to prepare the statement"
    execute_env = run_env if mode == "simple" else "Failed to execute the statement"
    catalog = (
        f"{prepare_env}\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table or source not found: missing\n"
    )
    expected = {
        "catalog error, simple": ("42704", catalog),
        "catalog error, prepared": ("42704", catalog),
        "error 1": (
            "XX000",
            _alter_error(
                execute_env,
                "AlterParallelism",
                f"Cannot alter the job {job} because it is blocked by creating unreschedulable "
                "backfill jobs",
            ),
        ),
        "error 4": (
            "XX000",
            _alter_error(
                execute_env,
                "AlterBackfillParallelism",
                "specified backfill parallelism 8 should not exceed max parallelism 4",
            ),
        ),
        "error 4'": (
            "XX000",
            _alter_error(
                execute_env,
                "AlterParallelism",
                "specified parallelism 8 should not exceed max parallelism 4",
            ),
        ),
    }
    expected["error 4, prepared"] = expected["error 4"]
    for label, (sqlstate, text) in expected.items():
        assert got.pop(label) == [
            "org.postgresql.util.PSQLException",
            sqlstate,
            f"ERROR: {text}",
            "ERROR",
            text,
        ], label
    assert got.pop("after errors") == [[["1"]]]
    assert got == {}


def _bind_failure(cause: list[str], sqlstate: str = "XX000") -> list[object]:
    text = (
        "Failed to prepare the statement\n\nCaused by these errors (recent errors listed "
        "first):\n" + "".join(f"  {i}: {c}\n" for i, c in enumerate(cause, start=1))
    )
    return ["org.postgresql.util.PSQLException", sqlstate, f"ERROR: {text}", "ERROR", text]


def test_keys_indexes_and_functions(jdbc_classpath: str, rw_thread_server: ThreadRunning) -> None:
    got = by_label(run(jdbc_classpath, rw_thread_server, "keys"))
    assert got.pop("primary keys") == [
        [["public", "legs", "trip", "1", "legs"], ["public", "legs", "seq", "2", "legs"]]
    ]
    assert got.pop("primary keys, none") == [[]]
    assert got.pop("index info") == _bind_failure(
        ["Failed to bind expression: ci.reltuples", "Item not found: Invalid column: reltuples"]
    )
    assert got.pop("functions") == _bind_failure(
        [
            "Failed to bind expression: CASE WHEN (format_type(p.prorettype, NULL) = 'unknown') "
            "THEN 0 WHEN (SUBSTRING(pg_get_function_result(p.oid) FROM 0 FOR 6) = 'TABLE') OR "
            "(SUBSTRING(pg_get_function_result(p.oid) FROM 0 FOR 6) = 'SETOF') THEN 2 ELSE 1 END",
            "function pg_get_function_result(integer) does not exist",
        ],
        "42883",
    )
    assert got.pop("imported keys") == [
        "org.postgresql.util.PSQLException",
        "99999",
        "Unable to determine a value for MaxIndexKeys due to missing system catalog data.",
        None,
        None,
    ]
    assert got == {}
