"""A prepared data-plane query run again from its kept run (rwshim/dataplane/rerun.py): its
rows are passed through as PostgreSQL sent them, and what a client sees is what the full path
answers: the rows (NULLs, large results in several chunks and flushes), the relations and
search path of now, RisingWave's errors, a CancelRequest and statement_timeout.  psycopg's
``prepare=True`` sends Bind/Describe/Execute/Sync to a named statement, as pgbench
``-M prepared`` and pools do."""

from __future__ import annotations

import threading
import time
from typing import Any

import psycopg
import pytest

from rwshim.testing import RwShim

from .conftest import Client

LOOKUP = "SELECT v, b, n FROM kv WHERE k = %s"
ENVELOPE = (
    "Failed to execute the statement\n\nCaused by these errors (recent errors listed first):\n"
)


def _kept(rwshim: RwShim) -> set[str]:
    """The statement texts of the server's sessions that have a kept run."""

    def read() -> set[str]:
        return {
            p.sql
            for s in rwshim.server.registry.sessions()
            for p in s._statements.values()
            if p.quick is not None
        }

    return rwshim.call(read)


def _refused(conn: psycopg.Connection[Any], sql: str, params: tuple[Any, ...]) -> psycopg.Error:
    """The error of a prepared statement that must fail."""
    with pytest.raises(psycopg.Error) as info:
        conn.execute(sql, params, prepare=True)
    return info.value


def _lookup(db: Client, k: int) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in db.conn.execute(LOOKUP, (k,), prepare=True).fetchall()]


def _kv(db: Client, label: str = "v") -> None:
    db.run("CREATE TABLE kv (k int PRIMARY KEY, v varchar, b boolean, n bigint)")
    db.run(
        f"INSERT INTO kv SELECT g, '{label}' || g, g % 2 = 0, g * 1000000000000"
        " FROM generate_series(1, 50) AS g"
    )
    db.run("INSERT INTO kv VALUES (51, NULL, NULL, NULL)")
    db.run("FLUSH")


def test_a_prepared_lookup_is_kept_and_answers_every_run(db: Client, rwshim: RwShim) -> None:
    _kv(db)
    got = [_lookup(db, k) for k in (3, 50, 51, 52, 3, 1, 2)]
    assert got == [
        [("v3", False, 3000000000000)],
        [("v50", True, 50000000000000)],
        [(None, None, None)],
        [],
        [("v3", False, 3000000000000)],
        [("v1", False, 1000000000000)],
        [("v2", True, 2000000000000)],
    ]
    assert _kept(rwshim) == {"SELECT v, b, n FROM kv WHERE k = $1"}
    cur = db.conn.execute(LOOKUP, (4,), prepare=True)
    assert cur.statusmessage == "SELECT 1"
    assert [d.name for d in cur.description or []] == ["v", "b", "n"]


def test_a_kept_run_follows_the_table_dropped_and_made_again(db: Client, rwshim: RwShim) -> None:
    _kv(db)
    assert [_lookup(db, 7) for _ in range(3)] == [[("v7", False, 7000000000000)]] * 3
    assert _kept(rwshim)
    db.run("DROP TABLE kv")
    _kv(db, label="w")
    assert [_lookup(db, 7) for _ in range(3)] == [[("w7", False, 7000000000000)]] * 3
    db.run("DROP TABLE kv")
    e = _refused(db.conn, LOOKUP, (7,))
    assert e.sqlstate == "42704"
    assert e.diag.message_primary == (
        ENVELOPE + "  1: Catalog error\n  2: table or source not found: kv\n"
    )


def test_a_kept_run_follows_the_search_path(db: Client, rwshim: RwShim) -> None:
    for schema in ("s1", "s2"):
        db.run(f"CREATE SCHEMA {schema}")
        db.run(f"CREATE TABLE {schema}.t (k int, v varchar)")
        db.run(f"INSERT INTO {schema}.t VALUES (1, '{schema}')")
    db.run("FLUSH")
    sql = "SELECT v FROM t WHERE k = %s"
    seen = []
    for schema in ("s1", "s2", "s1"):
        db.run(f"SET search_path = {schema}")
        seen += [db.conn.execute(sql, (1,), prepare=True).fetchall() for _ in range(3)]
    assert seen == [[("s1",)]] * 3 + [[("s2",)]] * 3 + [[("s1",)]] * 3
    assert "SELECT v FROM t WHERE k = $1" in _kept(rwshim)


def test_a_kept_run_streams_a_large_result(db: Client, rwshim: RwShim) -> None:
    """Several of PostgreSQL's chunks (1,000 rows) and several of the session's flushes."""
    db.run("CREATE TABLE big (k int PRIMARY KEY, v varchar)")
    db.run("INSERT INTO big SELECT g, repeat('x', 200) || g FROM generate_series(1, 5000) AS g")
    db.run("FLUSH")
    sql = "SELECT k, v FROM big WHERE k > %s ORDER BY k"
    for low in (4990, 4995, 0, 2500):
        rows = db.conn.execute(sql, (low,), prepare=True).fetchall()
        assert [r[0] for r in rows] == list(range(low + 1, 5001))
        assert all(r[1] == "x" * 200 + str(r[0]) for r in rows)
    assert "SELECT k, v FROM big WHERE k > $1 ORDER BY k" in _kept(rwshim)


def test_an_error_of_a_kept_run_is_risingwaves(db: Client, rwshim: RwShim) -> None:
    db.run("CREATE TABLE z (k int, a int)")
    db.run("INSERT INTO z VALUES (1, 1), (2, 0)")
    db.run("FLUSH")
    sql = "SELECT 10 / a FROM z WHERE k = %s"
    assert [db.conn.execute(sql, (1,), prepare=True).fetchall() for _ in range(2)] == [[(10,)]] * 2
    assert "SELECT 10 / a FROM z WHERE k = $1" in _kept(rwshim)
    e = _refused(db.conn, sql, (2,))
    assert e.sqlstate == "XX000"
    assert e.diag.message_primary == ENVELOPE + "  1: Expr error\n  2: Division by zero\n"
    # the session and its connection carry on
    assert db.conn.execute(sql, (1,), prepare=True).fetchall() == [(10,)]


HEAVY = "SELECT count(*) FROM h, generate_series(1, %s) AS g"
MINUTES = 3_000_000_000  # minutes of work for PostgreSQL


def test_a_cancel_and_the_timeout_stop_a_kept_run(db: Client, rwshim: RwShim) -> None:
    db.run("CREATE TABLE h (a int)")
    db.run("INSERT INTO h VALUES (1)")
    db.run("FLUSH")
    assert [db.conn.execute(HEAVY, (n,), prepare=True).fetchall() for n in (5, 6)] == [
        [(5,)],
        [(6,)],
    ]
    assert "SELECT count(*) FROM h, generate_series(1, $1) AS g" in _kept(rwshim)
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["rows"] = db.conn.execute(HEAVY, (MINUTES,), prepare=True).fetchall()
        except psycopg.Error as e:
            outcome["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    time.sleep(0.5)
    db.conn.cancel_safe()
    t.join(60)
    assert not t.is_alive()
    err = outcome.get("error")
    assert isinstance(err, psycopg.errors.QueryCanceled), outcome
    assert err.diag.message_primary == "canceling statement due to user request"
    assert db.conn.execute(HEAVY, (7,), prepare=True).fetchall() == [(7,)]
    # statement_timeout: a new context (the full path runs once and keeps the run again)
    db.run("SET statement_timeout = '1s'")
    assert [db.conn.execute(HEAVY, (n,), prepare=True).fetchall() for n in (8, 9)] == [
        [(8,)],
        [(9,)],
    ]
    started = time.monotonic()
    e = _refused(db.conn, HEAVY, (MINUTES,))
    assert e.sqlstate == "XX000"
    assert e.diag.message_primary == (
        ENVELOPE + "  1: Scheduler error\n  2: Query cancelled: timeout after 1 seconds\n"
    )
    print(f"statement_timeout 1s ended the kept run after {time.monotonic() - started:.2f} s")
    assert db.conn.execute(HEAVY, (3,), prepare=True).fetchall() == [(3,)]


def test_a_kept_run_follows_a_revoked_privilege(db: Client, rwshim: RwShim) -> None:
    """A GRANT or REVOKE makes the session's query context anew: the kept run no longer holds,
    and the full path answers RisingWave's permission error."""
    _kv(db)
    db.run("CREATE USER alice WITH PASSWORD 'pw'")
    db.run("GRANT SELECT ON kv TO alice")
    dsn = f"host={rwshim.host} port={rwshim.port} user=alice password=pw dbname=dev"
    with psycopg.connect(dsn, autocommit=True) as alice:
        runs = [alice.execute(LOOKUP, (5,), prepare=True).fetchall() for _ in range(3)]
        assert runs == [[("v5", False, 5000000000000)]] * 3
        assert LOOKUP.replace("%s", "$1") in _kept(rwshim)
        db.run("REVOKE SELECT ON kv FROM alice")
        e = _refused(alice, LOOKUP, (5,))
        assert e.sqlstate == "XX000"
        assert e.diag.message_primary == (
            "Failed to execute the statement\n\nCaused by:\n  Permission denied: "
            'permission denied for table or materialized view "kv": "SELECT"\n'
        )
