"""Every store statement a DDL runs reads the catalog through an index (issue 16).

The DDLs of the 10,000-job curve (ALTER ... SET PARALLELISM, SHOW JOBS, CREATE and DROP of a
materialized view, CREATE and DROP TABLE) run against a real Instance while SQLite's trace
callback records each statement as executed (parameters bound); each is then planned with
``EXPLAIN QUERY PLAN``.  A full scan of a table that grows with the number of jobs would make
the statement's cost grow with the catalog, so none may appear.  Small fixed tables (workers,
barrier state, the catalog version) and the user table a backfill counts may be scanned.
"""

from __future__ import annotations

import re
import sqlite3

import pytest

from rwshim.common.outcome import Outcome
from rwshim.frontend import Frontend
from rwshim.instance import Instance

# Tables whose rows grow with the number of jobs (the schema's per-object tables).
GROWING = {
    "relation",
    "visible_relation",  # the view of the relations a session may see
    "relation_column",
    "dependency",
    "comment",
    "streaming_job",
    "fragment",
    "fragment_relation",
    "actor",
    "privilege",
}
_SCAN = re.compile(r"^SCAN (\w+)")
# An index search on the database alone reads every object of a one-database catalog: as good
# as a scan (SQLite, without statistics, may pick it over a name's index).
_BY_DATABASE = re.compile(r"^SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \(database_id=\?\)$")
# SQLite's plan for an aggregate over a table it has no index for: a scan by another name.
_BARE_SEARCH = re.compile(r"^SEARCH (\w+)$")
_ALIAS = re.compile(r"\b(?:FROM|JOIN)\s+(\w+)(?:\s+AS)?\s+(\w+)", re.I)
_SKIP = re.compile(r"\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA|CREATE|DROP)\b", re.I)


async def run(fe: Frontend, sql: str) -> Outcome:
    out = None
    for stmt in fe.parse(sql):
        out = await fe.execute(stmt, [])
    assert out is not None
    return out


def scanned_tables(conn: sqlite3.Connection, sql: str) -> set[str]:
    """The tables a statement's plan scans in full (aliases resolved to their table)."""
    aliases = {alias.lower(): table.lower() for table, alias in _ALIAS.findall(sql)}
    out: set[str] = set()
    for row in conn.execute("EXPLAIN QUERY PLAN " + sql):
        detail = str(row[3])
        m = _SCAN.match(detail) or _BY_DATABASE.match(detail) or _BARE_SEARCH.match(detail)
        if m:
            name = m.group(1).lower()
            out.add(aliases.get(name, name))
    return out


@pytest.fixture
async def fe() -> Frontend:
    fe = Frontend(Instance(manual_clock=True), "root", "dev")
    await run(fe, "SET background_ddl = true")
    await run(fe, "CREATE TABLE base (v int); CREATE TABLE pt (v int)")
    await run(fe, "CREATE MATERIALIZED VIEW pmv AS SELECT v FROM pt")
    for i in range(12):
        await run(fe, f"CREATE MATERIALIZED VIEW m{i} AS SELECT v FROM base")
    await run(fe, "RWSHIM TICK 5")
    return fe


DDLS = [
    "ALTER MATERIALIZED VIEW pmv SET PARALLELISM = 2",
    "ALTER MATERIALIZED VIEW m3 SET PARALLELISM = 3",
    "SHOW JOBS",
    "CREATE MATERIALIZED VIEW pn AS SELECT v FROM pt",
    "DROP MATERIALIZED VIEW pn",
    "CREATE MATERIALIZED VIEW pn2 AS SELECT v FROM base",
    "DROP MATERIALIZED VIEW pn2",
    "CREATE TABLE tt (v int)",
    "DROP TABLE tt",
]


async def test_per_ddl_store_statements_use_indexes(fe: Frontend) -> None:
    conn = fe.instance.conn
    offenders: list[str] = []
    planned = 0
    for ddl in DDLS:
        seen: list[str] = []
        conn.set_trace_callback(seen.append)
        try:
            await run(fe, ddl)
            await run(fe, "RWSHIM TICK 2")  # a background CREATE finishes before its DROP
        finally:
            conn.set_trace_callback(None)
        for sql in dict.fromkeys(seen):
            if _SKIP.match(sql):
                continue
            planned += 1
            bad = scanned_tables(conn, sql) & GROWING
            if bad:
                offenders.append(f"{ddl}: scans {sorted(bad)}: {sql[:200]}")
    assert planned > 50  # the trace saw the DDLs' statements
    assert offenders == []


async def test_creating_jobs_and_noshuffle_edges_are_read_through_indexes(fe: Frontend) -> None:
    conn = fe.instance.conn
    plan = " | ".join(
        str(r[3])
        for r in conn.execute(
            "EXPLAIN QUERY PLAN SELECT job_id FROM streaming_job"
            " WHERE job_status IN ('INITIAL', 'CREATING')"
        )
    )
    assert "SEARCH streaming_job USING COVERING INDEX streaming_job_by_status" in plan
    for column, index in (
        ("source_fragment_id", "fragment_relation_by_source_type"),
        ("target_fragment_id", "fragment_relation_by_target_type"),
    ):
        plan = " | ".join(
            str(r[3])
            for r in conn.execute(
                "EXPLAIN QUERY PLAN SELECT source_fragment_id, target_fragment_id FROM"
                f" fragment_relation WHERE {column} = 1 AND dispatcher_type = 'NoShuffle'"
            )
        )
        assert f"USING INDEX {index} ({column}=? AND dispatcher_type=?)" in plan, plan


def test_scanned_tables_resolves_aliases() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE streaming_job (job_id INTEGER PRIMARY KEY, job_status TEXT)")
    assert scanned_tables(
        conn, "SELECT j.job_id FROM streaming_job j WHERE j.job_status != 'CREATED'"
    ) == {"streaming_job"}
    assert scanned_tables(conn, "SELECT job_status FROM streaming_job WHERE job_id = 3") == set()
    conn.execute("CREATE TABLE relation (relation_id INTEGER PRIMARY KEY, database_id, name)")
    conn.execute("CREATE INDEX relation_by_database ON relation(database_id)")
    assert scanned_tables(conn, "SELECT name FROM relation WHERE database_id = 1") == {"relation"}
