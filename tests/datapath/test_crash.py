"""One truth after a crash (``--data-dir``): rwshim, its PostgreSQL child, or both are killed
with SIGKILL while sessions run DDL and DML; after the restart every acknowledged DDL and row
is there, nothing half-done is visible (the catalog's relations read, the data plane holds no
object the catalog lacks), and the server carries on.  The meta store is the truth: at start
the data plane drops what the catalog does not have and makes the rest on first use.

A row is acknowledged when its INSERT returned under ``implicit_flush``: RisingWave promises
durability for a write once a checkpoint committed it (FLUSH, implicit_flush,
dml_wait_persistence), not when the DML statement alone returned."""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.datapath.conftest import IMPLICIT_FLUSH
from tests.rel.serverproc import ServerProcess

ROUNDS = 6


class Proc(ServerProcess):
    """rwshim with ``--data-dir``; its PostgreSQL child's postmaster pid."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__("--data-dir", str(data_dir))
        self.data_dir = data_dir

    def postmaster(self) -> int | None:
        try:
            return int((self.data_dir / "pg" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None


def _pg_objects(proc: Proc) -> set[str]:
    """The data plane's objects as PostgreSQL has them (rwshim's own bookkeeping aside)."""
    lines = (proc.data_dir / "pg" / "postmaster.pid").read_text().splitlines()
    socket_dir = lines[4]
    with psycopg.connect(host=socket_dir, user="postgres", dbname="rwshim") as pg:
        rows = pg.execute(
            "SELECT relname FROM pg_class WHERE relnamespace = 'rw'::regnamespace"
            " AND relkind IN ('r', 'v')"
        ).fetchall()
    return {str(r[0]) for r in rows}


@pytest.mark.parametrize("victim", ["rwshim", "postgres", "both"])
def test_kill_9_during_ddl_and_dml_keeps_every_acknowledged_row(
    tmp_path: Path, victim: str
) -> None:
    rnd = random.Random(victim)
    # table -> {key: value} as acknowledged; tables acknowledged dropped are absent
    acked: dict[str, dict[int, int]] = {}
    # a statement in flight at a kill may or may not have committed: its possible effects
    maybe: dict[str, dict[int, int]] = {}
    step = 0
    proc = Proc(tmp_path)
    for _ in range(ROUNDS):
        conn = proc.connect(options=IMPLICIT_FLUSH)
        _check(conn, acked, maybe)
        maybe = {}
        killed = threading.Event()
        timer = threading.Timer(rnd.uniform(0.2, 1.0), _kill, (proc, victim, killed))
        timer.start()
        after = 0  # statements run after a kill of postgres alone (the session carries on)
        try:
            while not killed.is_set() or (victim == "postgres" and after < 30):
                if killed.is_set():
                    after += 1
                step += 1
                name = f"ck{rnd.randrange(4)}"
                what = rnd.randrange(10)
                if what == 0:
                    sql, effect = f"DROP TABLE IF EXISTS {name}", ("drop", name, 0, 0)
                elif name not in acked:
                    sql = f"CREATE TABLE IF NOT EXISTS {name} (k int PRIMARY KEY, v int)"
                    effect = ("create", name, 0, 0)
                else:
                    k = rnd.randrange(20)
                    sql, effect = f"INSERT INTO {name} VALUES ({k}, {step})", ("row", name, k, step)
                try:
                    conn.execute(sql)
                except psycopg.Error as e:
                    _unsure(effect, acked, maybe)
                    if victim == "postgres":
                        # the data plane lost its server under this statement: it is reported
                        # as an error, the session carries on once the server is back
                        _wait_data(conn)
                        continue
                    if victim == "both" and isinstance(e, psycopg.errors.InternalError_):
                        # PostgreSQL is killed first: rwshim reports its loss (an error, not a
                        # lost connection) until its own kill lands a moment later
                        assert "the data plane's PostgreSQL is unavailable" in str(e), e
                        continue
                    raise
                _apply(effect, acked)
        except psycopg.OperationalError:
            pass  # rwshim itself was killed
        timer.join()
        if victim == "postgres":
            # rwshim restarted its PostgreSQL: the same server, the same session, carry on
            _wait_data(conn)
            _check(conn, acked, maybe)
            maybe = {}
            conn.close()
        else:
            proc = Proc(tmp_path)
    conn = proc.connect(options=IMPLICIT_FLUSH)
    _wait_data(conn)
    _check(conn, acked, maybe)
    # nothing half-done: the data plane has no object of a table the catalog lacks
    conn.execute("SELECT 1 FROM ck0 LIMIT 0") if "ck0" in acked else None
    names = {str(r[0]) for r in conn.execute("SELECT name FROM rw_catalog.rw_tables").fetchall()}
    ids = {str(r[0]) for r in conn.execute("SELECT id FROM rw_catalog.rw_tables").fetchall()}
    assert names >= set(acked)
    stale = {o for o in _pg_objects(proc) if o[1:] not in ids}
    assert stale == set(), stale
    conn.execute("CREATE TABLE after_crash (a int)")
    conn.execute("INSERT INTO after_crash VALUES (1)")
    assert conn.execute("SELECT count(*) FROM after_crash").fetchone() == (1,)
    assert sum(len(rows) for rows in acked.values()) > 0
    proc.kill()


def _kill(proc: Proc, victim: str, killed: threading.Event) -> None:
    pm = proc.postmaster()
    if victim in ("postgres", "both") and pm is not None:
        os.kill(pm, signal.SIGKILL)
    if victim in ("rwshim", "both"):
        proc.kill()
    killed.set()


def _apply(effect: tuple[str, str, int, int], acked: dict[str, dict[int, int]]) -> None:
    kind, name, k, v = effect
    if kind == "drop":
        acked.pop(name, None)
    elif kind == "create":
        acked.setdefault(name, {})
    else:
        acked[name][k] = v


def _unsure(
    effect: tuple[str, str, int, int],
    acked: dict[str, dict[int, int]],
    maybe: dict[str, dict[int, int]],
) -> None:
    kind, name, k, v = effect
    if kind == "row":
        maybe.setdefault(name, {})[k] = v
    else:
        maybe.setdefault(name, {})[-1] = 1 if kind == "create" else 0


def _wait_data(conn: psycopg.Connection[Any]) -> None:
    """Until a data statement succeeds (the data plane restarts its server meanwhile)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS probe (x int)")
            conn.execute("SELECT count(*) FROM probe").fetchone()
            return
        except psycopg.Error:
            assert time.monotonic() < deadline, "the data plane never came back"
            time.sleep(0.1)


def _check(
    conn: psycopg.Connection[Any],
    acked: dict[str, dict[int, int]],
    maybe: dict[str, dict[int, int]],
) -> None:
    """Every acknowledged table and row is there; a row may show an unacknowledged value only
    where a statement was in flight.  Then ``acked`` becomes what is there (the in-flight
    statements decided one way or the other)."""
    tables = {str(r[0]) for r in conn.execute("SELECT name FROM rw_catalog.rw_tables")}
    for name in sorted(set(acked) | set(maybe)):
        rows = acked.get(name)
        unsure = maybe.get(name, {})
        if name not in tables:
            assert rows is None or unsure.get(-1) == 0, (name, "acknowledged table missing")
            acked.pop(name, None)
            continue
        if rows is None:
            assert unsure.get(-1) == 1, (name, "a table nobody created")
            rows = {}
        got = dict(conn.execute(f"SELECT k, v FROM {name}").fetchall())
        for k, v in rows.items():
            assert got.get(k) in (v, unsure.get(k)), (name, k, v, got.get(k))
        for k in got:
            assert k in rows or k in unsure, (name, k, "a row nobody acknowledged")
        acked[name] = got


def test_kill_9_keeps_what_a_barrier_committed(tmp_path: Path) -> None:
    """RisingWave's promise for a write: durable once a checkpoint committed it (FLUSH waits
    for that); a write no barrier committed yet may be lost.  A materialized view comes back
    at the same epoch as its table."""
    proc = Proc(tmp_path)
    conn = proc.connect()
    conn.execute("CREATE TABLE d (k int PRIMARY KEY, v int)")
    conn.execute("CREATE MATERIALIZED VIEW dm AS SELECT count(*) AS n FROM d")
    conn.execute("INSERT INTO d VALUES (1, 1), (2, 2)")
    assert conn.execute("FLUSH").statusmessage == "FLUSH"
    conn.execute("INSERT INTO d VALUES (3, 3)")  # acknowledged, maybe not committed
    proc.kill()
    proc = Proc(tmp_path)
    conn = proc.connect()
    _wait_data(conn)
    rows = conn.execute("SELECT k FROM d ORDER BY k").fetchall()
    assert rows[:2] == [(1,), (2,)]
    assert conn.execute("SELECT n FROM dm").fetchall() == [(len(rows),)]
    conn.execute("INSERT INTO d VALUES (4, 4)")
    conn.execute("FLUSH")
    assert conn.execute("SELECT max(k) FROM d").fetchall() == [(4,)]
    proc.kill()


def test_kill_9_between_the_barrier_and_its_data_commit(tmp_path: Path) -> None:
    """The barrier is in the meta store before its epoch commits on the data plane (the
    commit runs after the barrier's transaction), and FLUSH answers only after both.  Here
    the data commit is held (the test locks the view state the commit recomputes) while a
    FLUSH waits, and rwshim is killed with SIGKILL: the FLUSH never answers, so the rows it
    was to make durable were never acknowledged and are gone after the restart (PostgreSQL
    rolled their transaction back); nobody saw them; the table and its view agree."""
    proc = Proc(tmp_path)
    conn = proc.connect()
    conn.execute("CREATE TABLE d (k int PRIMARY KEY, v int)")
    conn.execute("CREATE MATERIALIZED VIEW dm AS SELECT count(*) AS n FROM d")
    conn.execute("INSERT INTO d VALUES (1, 1), (2, 2)")
    conn.execute("FLUSH")
    assert conn.execute("SELECT n FROM dm").fetchall() == [(2,)]  # its state is made
    (mv_id,) = conn.execute("SELECT id FROM rw_materialized_views WHERE name = 'dm'").fetchone()
    conn.execute("INSERT INTO d VALUES (3, 3)")
    lines = (proc.data_dir / "pg" / "postmaster.pid").read_text().splitlines()
    pg = psycopg.connect(host=lines[4], user="postgres", dbname="rwshim")
    pg.execute(f'LOCK TABLE rw."m{mv_id}" IN ACCESS EXCLUSIVE MODE')  # (a transaction)
    flusher = proc.connect()
    outcome: list[object] = []

    def flush() -> None:
        try:
            outcome.append(flusher.execute("FLUSH").statusmessage)
        except psycopg.Error as e:
            outcome.append(e)

    t = threading.Thread(target=flush)
    t.start()
    # the FLUSH's barrier is in the meta store; its data commit waits for the lock
    deadline = time.monotonic() + 30
    while True:
        waiting = pg.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = 'rwshim'"
        ).fetchone()
        if waiting is not None and waiting[0] > 0:
            break
        assert time.monotonic() < deadline, "the data commit never waited for the lock"
        time.sleep(0.05)
    assert outcome == []
    proc.kill()
    t.join(30)
    assert len(outcome) == 1 and isinstance(outcome[0], psycopg.Error)
    pg.close()
    proc = Proc(tmp_path)
    conn = proc.connect()
    _wait_data(conn)
    assert conn.execute("SELECT k FROM d ORDER BY k").fetchall() == [(1,), (2,)]
    assert conn.execute("SELECT n FROM dm").fetchall() == [(2,)]
    conn.execute("INSERT INTO d VALUES (4, 4)")
    conn.execute("FLUSH")
    assert conn.execute("SELECT k, n FROM d, dm ORDER BY k").fetchall() == [
        (1, 3), (2, 3), (4, 3)
    ]  # fmt: skip
    proc.kill()
