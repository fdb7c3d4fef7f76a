"""Tests written as a user of rwshim writes them: only the ``rwshim`` / ``rwshim_session``
fixtures of the pytest plugin, no conftest, no rwshim imports.

Not collected by the main run (its name does not start with ``test_``): ``test_plugin.py``
runs it in a separate pytest process, with the plugin loaded through its ``pytest11`` entry
point when rwshim is installed, or with ``-p rwshim.testing`` otherwise.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import psycopg
import pytest

BLOCKED = (
    "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
    "  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterParallelism`) "
    "failed: Internal error\n"
    "  2: Cannot alter the job {} because it is blocked by creating unreschedulable backfill jobs"
)


def mv_id(conn: Any, name: str) -> int:
    return conn.execute(
        "SELECT id FROM rw_catalog.rw_materialized_views WHERE name = %s", (name,)
    ).fetchone()[0]


def status(conn: Any, name: str) -> str:
    return conn.execute(
        "SELECT status FROM rw_catalog.rw_materialized_views WHERE name = %s", (name,)
    ).fetchone()[0]


@pytest.mark.rwshim(manual=True)
def test_hold_tick_release(rwshim: Any) -> None:
    with psycopg.connect(rwshim.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (v int)")
        conn.execute("INSERT INTO t SELECT * FROM generate_series(1, 100)")
        conn.execute("SET background_ddl = true")
        conn.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
        job = mv_id(conn, "m")
        rwshim.hold_backfill(job)
        rwshim.tick(5)
        assert status(conn, "m") == "Creating"
        with pytest.raises(psycopg.Error) as info:
            conn.execute("ALTER MATERIALIZED VIEW m SET PARALLELISM = 2")
        assert str(info.value) == BLOCKED.format(job)
        rwshim.release_backfill(job)
        rwshim.tick()
        assert status(conn, "m") == "Created"
        conn.execute("ALTER MATERIALIZED VIEW m SET PARALLELISM = 2")
        assert rwshim.job_status(job) == "CREATED"


def test_fresh_catalog_each_test(rwshim: Any) -> None:
    with psycopg.connect(rwshim.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (v int)")  # the same name as in the test above
        assert conn.execute("SELECT name FROM rw_catalog.rw_tables").fetchall() == [("t",)]


def test_pause_resume_and_fault(rwshim: Any) -> None:
    with psycopg.connect(rwshim.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (v int)")
        rwshim.pause("dev")
        assert rwshim.is_paused("dev")
        rwshim.fault("skip_batch_refresh_admission")
        with pytest.raises(psycopg.Error) as info:
            conn.execute(
                "CREATE MATERIALIZED VIEW b WITH (refresh.interval.sec = 5) AS SELECT * FROM t"
            )
        assert str(info.value).endswith(
            "  2: cannot create batch refresh job while database barrier is paused"
        )
        rwshim.fault("skip_batch_refresh_admission", False)
        rwshim.resume("dev")
        conn.execute(
            "CREATE MATERIALIZED VIEW b WITH (refresh.interval.sec = 5) AS SELECT * FROM t"
        )


def test_restart_runs_recovery(rwshim: Any) -> None:
    with psycopg.connect(rwshim.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (v int)")
        rwshim.pause()
        assert rwshim.is_paused()
        rwshim.restart()
        assert not rwshim.is_paused()
        assert conn.execute("SELECT name FROM rw_catalog.rw_tables").fetchall() == [("t",)]


async def test_asyncpg_on_the_test_loop(rwshim: Any) -> None:
    conn = await asyncpg.connect(rwshim.url)
    try:
        assert await conn.fetchval("SELECT 1 + 1") == 2
        assert rwshim.port > 0 and f"port={rwshim.port}" in rwshim.dsn
    finally:
        await conn.close()


def test_session_scoped_server(rwshim_session: Any) -> None:
    with psycopg.connect(rwshim_session.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS shared (v int)")
        rwshim_session.tick()
        assert ("public.shared",) in conn.execute("SHOW TABLES").fetchall()
