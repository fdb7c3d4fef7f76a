"""The blocked-job errors as a psql user sees them: ``ERROR:  `` and RisingWave's report, the
DEFERRED notice as ``NOTICE:  `` (rw-engine-semantics §4.3).  psql must be installed (CI
installs it): a missing psql fails the test."""

from __future__ import annotations

from collections.abc import Callable

from tests.conftest import ThreadRunning


def test_psql_session_with_error_1_and_the_deferred_notice(
    rw_thread_server_factory: Callable[..., ThreadRunning],
) -> None:
    server = rw_thread_server_factory(manual_clock=True)
    setup = server.psql(
        "-c",
        "create table t (a int); insert into t select generate_series(1, 100);"
        " set background_ddl = true; set backfill_rate_limit = 1;"
        " create materialized view mv as select * from t;",
    )
    assert setup.returncode == 0, setup.stderr
    ids = server.psql("-At", "-c", "select id from rw_streaming_jobs order by id")
    t_id, mv_id = (int(x) for x in ids.stdout.split())
    out = server.psql("-c", "alter table t set parallelism = 2")
    assert out.returncode == 1
    assert out.stderr == (
        "ERROR:  Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterParallelism`) "
        "failed: Internal error\n"
        f"  2: Cannot alter the job {t_id} because it is blocked by creating unreschedulable "
        "backfill jobs\n\n"
    )
    out = server.psql("-c", "alter materialized view mv set parallelism = 2 deferred")
    assert (out.returncode, out.stdout) == (0, "ALTER_MATERIALIZED_VIEW\n")
    assert out.stderr == (
        "NOTICE:  DEFERRED is used, please ensure that automatic parallelism control is enabled "
        "on the meta, otherwise, the alter will not take effect.\n"
    )
    # 4 actors at 1 row/s and 1 s barriers: 4 rows per barrier.
    server.tick(24)
    out = server.psql("-At", "-c", "show jobs")
    assert out.stdout == (
        f"{mv_id}|CREATE MATERIALIZED VIEW mv AS SELECT * FROM t|BACKGROUND|"
        "Snapshot [96.00% (96/100)]\n"
    )
    server.tick()
    assert server.psql("-At", "-c", "show jobs").stdout == ""
    out = server.psql("-c", "alter table t set parallelism = 2")
    assert (out.returncode, out.stdout, out.stderr) == (0, "ALTER_TABLE\n", "")
