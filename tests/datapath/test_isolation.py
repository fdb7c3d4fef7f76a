"""Nothing on the event loop waits for data: a heavy PostgreSQL query in one session does not
delay another session's SELECT 1, its data statements or a barrier; its CancelRequest stops it
on PostgreSQL (PostgreSQL's own cancel); statement_timeout bounds queries (never DML, as
RisingWave: handler/query.rs:501-512)."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest

from rwshim.testing import RwShim

# minutes of work for PostgreSQL: it reads a user table, so it runs on the data plane
HEAVY = "SELECT count(*) FROM h, generate_series(1, 3000000000) AS g"
GUARD = 60.0  # a test that fails rather than hangs


def _running(other: psycopg.Connection[Any], sql: str) -> bool:
    """Whether a session is running ``sql`` now (SHOW PROCESSLIST: Info is the statement of an
    active session)."""
    return any(r[6] == sql for r in other.execute("SHOW PROCESSLIST").fetchall())


def _start_heavy(
    rwshim: RwShim,
) -> tuple[psycopg.Connection[Any], threading.Thread, dict[str, Any]]:
    heavy = psycopg.connect(rwshim.dsn, autocommit=True)
    heavy.execute("CREATE TABLE h (a int)")
    heavy.execute("INSERT INTO h VALUES (1)")
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["rows"] = heavy.execute(HEAVY).fetchall()
        except psycopg.Error as e:
            outcome["error"] = e
            outcome["ended"] = time.monotonic()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return heavy, t, outcome


def _wait_running(other: psycopg.Connection[Any], sql: str) -> None:
    deadline = time.monotonic() + GUARD
    while not _running(other, sql):
        assert time.monotonic() < deadline, "the heavy query never started"
        time.sleep(0.02)


@pytest.mark.rwshim(manual=True)
def test_heavy_query_does_not_delay_others_and_cancel_stops_it(rwshim: RwShim) -> None:
    heavy, t, outcome = _start_heavy(rwshim)
    with psycopg.connect(rwshim.dsn, autocommit=True) as other:
        _wait_running(other, HEAVY)
        # While it runs: a constant, a login, data statements and a barrier all answer.
        assert other.execute("SELECT 1").fetchone() == (1,)
        with psycopg.connect(rwshim.dsn, autocommit=True) as login:
            assert login.execute("SELECT 2").fetchone() == (2,)
        other.execute("CREATE TABLE o (x int)")
        other.execute("INSERT INTO o VALUES (1), (2)")
        other.execute("FLUSH")
        assert other.execute("SELECT count(*) FROM o").fetchone() == (2,)
        # a barrier (the clock is manual: RWSHIM TICK injects one and answers once it is done)
        assert other.execute("RWSHIM TICK").statusmessage == "RWSHIM"
        assert _running(other, HEAVY) and t.is_alive(), outcome
        # CancelRequest: PostgreSQL cancels the running query.
        asked = time.monotonic()
        heavy.cancel_safe()
        t.join(GUARD)
        assert not t.is_alive()
        err = outcome.get("error")
        assert isinstance(err, psycopg.errors.QueryCanceled), outcome
        assert err.diag.message_primary == "canceling statement due to user request"
        print(f"cancel stopped the heavy query in {(outcome['ended'] - asked) * 1000:.0f} ms")
        assert not _running(other, HEAVY)
    # The session carries on, on its own PostgreSQL connection.
    assert heavy.execute("SELECT count(*) FROM h").fetchone() == (1,)
    heavy.close()


def test_statement_timeout_stops_a_query_not_dml(rwshim: RwShim) -> None:
    with psycopg.connect(rwshim.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE h (a int)")
        conn.execute("INSERT INTO h VALUES (1)")
        conn.execute("SET statement_timeout = '1s'")
        started = time.monotonic()
        with pytest.raises(psycopg.Error) as info:
            conn.execute(HEAVY)
        assert info.value.sqlstate == "XX000"
        assert info.value.diag.message_primary == (
            "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
            "  1: Scheduler error\n  2: Query cancelled: timeout after 1 seconds\n"
        )
        print(f"statement_timeout 1s ended the query after {time.monotonic() - started:.2f} s")
        assert conn.execute("SELECT count(*) FROM h").fetchone() == (1,)
        # DML is never timed out: an INSERT that takes longer than the timeout completes.
        tag = conn.execute(
            "INSERT INTO h SELECT g FROM generate_series(1, 3000000) AS g"
        ).statusmessage
        assert tag == "INSERT 0 3000000"
