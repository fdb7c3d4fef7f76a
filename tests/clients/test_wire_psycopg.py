"""psycopg 3 against rwshim: autocommit and default mode, parameters, pipelines, binary."""

from __future__ import annotations

import psycopg
import pytest

from tests.conftest import ThreadRunning


def test_autocommit_select_and_parameters(rw_thread_server: ThreadRunning) -> None:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        assert conn.info.server_version == 131400
        assert conn.info.parameter_status("DateStyle") == "ISO, MDY"
        assert conn.info.parameter_status("IntervalStyle") == "postgres"
        assert conn.execute("select 1").fetchone() == (1,)
        # Parameters go extended with Describe Portal; psycopg sends ints as binary int2.
        assert conn.execute("select %s::int4 + 1, %s::text", [41, "x"]).fetchone() == (42, "x")
        with conn.cursor(binary=True) as cur:
            assert cur.execute("select %s::int8, %s::float8", [2**40, 0.25]).fetchone() == (
                2**40,
                0.25,
            )
        for _ in range(7):  # crosses prepare_threshold: named statements are used
            assert conn.execute("select %s::int4", [5]).fetchone() == (5,)
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def test_default_mode_sends_begin_and_survives_risingwaves_answer(
    rw_thread_server: ThreadRunning,
) -> None:
    notices: list[str] = []
    with psycopg.connect(rw_thread_server.dsn()) as conn:
        conn.add_notice_handler(lambda d: notices.append(d.severity or ""))
        assert conn.execute("select 2").fetchone() == (2,)
        conn.commit()
        assert conn.execute("select 3").fetchone() == (3,)
        conn.rollback()
    assert notices and set(notices) == {"NOTICE"}


def test_errors_keep_the_connection_usable(rw_thread_server: ThreadRunning) -> None:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InternalError_) as info:
            conn.execute("selet 1")
        assert info.value.diag.sqlstate == "XX000"
        assert info.value.diag.message_primary == (
            "Failed to run the query\n\nCaused by:\n"
            "  sql parser error: expected statement, found: selet\nLINE 1: selet 1\n        ^\n"
        )
        with pytest.raises(psycopg.errors.InternalError_):
            conn.execute("select %s::int4 + nosuchcolumn", [1])
        assert conn.execute("select 4").fetchone() == (4,)


def test_pipeline_mode(rw_thread_server: ThreadRunning) -> None:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        with conn.pipeline():
            curs = [conn.execute("select %s::int4 * 10", [i]) for i in range(20)]
        assert [c.fetchone() for c in curs] == [(i * 10,) for i in range(20)]
        with conn.cursor() as cur:
            cur.executemany("select %s::int4", [(i,) for i in range(10)])
        # An error inside a pipeline aborts the rest of it (skip until Sync).
        with pytest.raises(psycopg.errors.InternalError_), conn.pipeline():
            conn.execute("select %s::int4", [1])
            conn.execute("selet %s", [2])
            conn.execute("select %s::int4", [3])
        assert conn.execute("select 5").fetchone() == (5,)


def test_cancel_safe(rw_thread_server: ThreadRunning) -> None:
    import threading

    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        timer = threading.Timer(0.3, conn.cancel_safe)
        timer.start()
        with pytest.raises(psycopg.errors.QueryCanceled) as info:
            conn.execute("select pg_sleep(20)")
        timer.join()
        assert info.value.diag.message_primary == "canceling statement due to user request"
        assert conn.execute("select 6").fetchone() == (6,)


def test_uuid_and_json_parameters_fail_as_in_risingwave(rw_thread_server: ThreadRunning) -> None:
    """psycopg sends UUID as OID 2950 and Json as 114; RisingWave's Parse refuses both."""
    import uuid

    from psycopg.types.json import Json

    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        for value, oid in ((uuid.UUID(int=1), 2950), (Json({"a": 1}), 114)):
            with pytest.raises(psycopg.errors.InternalError_) as info:
                conn.execute("select %s", [value])
            assert info.value.diag.message_primary == (
                f"Failed to prepare the statement\n\nCaused by:\n  Unsupported oid {oid}\n"
            )
