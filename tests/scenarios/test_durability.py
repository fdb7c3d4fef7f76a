"""Durability over a real process: ``python -m rwshim --data-dir D`` takes a stream of DDL from
psycopg, is killed with SIGKILL at a random moment, and restarts on the same directory.  Every
acknowledged statement must be there afterwards, nothing unacknowledged may be (except the one
statement in flight at the kill), and no half-done job is visible (decision 3; RisingWave's
recovery, rw-engine-semantics §1.1)."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
READY = re.compile(r"rwshim ready on ([0-9.]+):(\d+)")


@contextmanager
def rwshim_process(data_dir: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Start ``python -m rwshim --data-dir data_dir --port 0``; yield it and its DSN."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rwshim",
            "--data-dir",
            str(data_dir),
            "--port",
            "0",
            "--host",
            "127.0.0.1",
            "--log-level",
            "INFO",
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 20
        dsn = None
        seen: list[str] = []
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            seen.append(line)
            m = READY.search(line)
            if m:
                dsn = f"host={m.group(1)} port={m.group(2)} user=root dbname=dev"
                break
        assert dsn is not None, f"rwshim did not start (exit {proc.wait(10)}): {''.join(seen)}"
        # Keep draining stderr so the server never blocks on a full pipe.
        threading.Thread(target=proc.stderr.read, daemon=True).start()
        yield proc, dsn
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


@dataclass
class Acked:
    """What the server acknowledged, by kind of object."""

    tables: dict[str, int] = field(default_factory=dict)  # name -> rows inserted
    mvs: set[str] = field(default_factory=set)
    views: set[str] = field(default_factory=set)
    indexes: set[str] = field(default_factory=set)
    parallelism: dict[str, str] = field(default_factory=dict)
    dropped: set[str] = field(default_factory=set)
    in_flight: str | None = None


def ddl_stream(round_: int, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """(kind, name, sql) forever: the DDL a migration tool would send."""
    i = 0
    while True:
        t, m, v, x = (f"{p}{round_}_{i}" for p in ("t", "m", "v", "x"))
        yield "table", t, f"create table {t} (a int, b varchar)"
        n = rng.randint(1, 20)
        yield (
            "insert",
            t,
            f"insert into {t} select g, 'r' || g from generate_series(1, {n}) g",
        )
        yield (
            "mv",
            m,
            f"create materialized view {m} as select a, count(*) as c from {t} group by a",
        )
        yield "view", v, f"create view {v} as select * from {t} where a > 1"
        yield "index", x, f"create index {x} on {t} (a)"
        yield "parallelism", t, f"alter table {t} set parallelism = 2 deferred"
        if i % 3 == 2:
            yield "drop", f"v{round_}_{i - 1}", f"drop view v{round_}_{i - 1}"
        i += 1


def run_until_killed(dsn: str, proc: subprocess.Popen[str], round_: int, acked: Acked) -> int:
    rng = random.Random(round_ * 7919 + os.getpid())
    delay = rng.uniform(0.3, 1.5)
    killer = threading.Timer(delay, lambda: os.kill(proc.pid, signal.SIGKILL))
    done = 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("set background_ddl = true")
        # an INSERT is acknowledged once a barrier committed it (RisingWave's promise: durable
        # after its checkpoint; without a flush, the epoch may be lost with the process)
        conn.execute("set rw_implicit_flush = true")
        killer.start()
        try:
            for kind, name, sql in ddl_stream(round_, rng):
                acked.in_flight = name
                try:
                    cur = conn.execute(sql)
                except psycopg.OperationalError:
                    break
                acked.in_flight = None
                done += 1
                if kind == "table":
                    acked.tables[name] = 0
                elif kind == "insert":
                    acked.tables[name] += int((cur.statusmessage or "").split()[-1])
                elif kind == "mv":
                    acked.mvs.add(name)
                elif kind == "view":
                    acked.views.add(name)
                elif kind == "index":
                    acked.indexes.add(name)
                elif kind == "parallelism":
                    acked.parallelism[name] = "2"
                elif kind == "drop":
                    acked.dropped.add(name)
        finally:
            killer.cancel()
    proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    return done


def names(conn: psycopg.Connection[tuple[object, ...]], sql: str) -> set[str]:
    return {str(r[0]) for r in conn.execute(sql).fetchall()}


def user_names(conn: psycopg.Connection[tuple[object, ...]], catalog: str) -> set[str]:
    return names(
        conn,
        f"select c.name from {catalog} c join rw_schemas s on s.id = c.schema_id"
        " where s.name = 'public'",
    )


def check(dsn: str, acked: Acked) -> None:
    with psycopg.connect(dsn, autocommit=True) as conn:
        flight = {acked.in_flight} if acked.in_flight else set()
        tables = user_names(conn, "rw_tables")
        assert set(acked.tables) <= tables <= set(acked.tables) | flight
        mvs = user_names(conn, "rw_materialized_views")
        assert acked.mvs <= mvs | flight and mvs <= acked.mvs | flight
        views = user_names(conn, "rw_views")
        assert acked.views - acked.dropped <= views | flight
        assert views <= (acked.views - acked.dropped) | flight
        indexes = user_names(conn, "rw_indexes")
        assert acked.indexes <= indexes <= acked.indexes | flight
        for t in tables:
            (n,) = conn.execute(f"select count(*) from {t}").fetchone() or (None,)
            if t == acked.in_flight:
                # The statement in flight at the kill may or may not have been applied: from
                # now on, what the server shows is what was done.
                acked.tables[t] = int(str(n))
            assert n == acked.tables[t]
        if acked.in_flight in mvs:
            acked.mvs.add(acked.in_flight)
        if acked.in_flight in indexes:
            acked.indexes.add(acked.in_flight)
        if acked.in_flight in views:
            acked.views.add(acked.in_flight)
        elif acked.in_flight in acked.views:
            acked.dropped.add(acked.in_flight)
        parallelism = {
            str(r[0]): str(r[1])
            for r in conn.execute("select name, parallelism from rw_streaming_jobs").fetchall()
        }
        for t, p in acked.parallelism.items():
            assert parallelism[t] == p
        acked.in_flight = None
        # Recovery deleted every job that never passed its first barrier; the rest resume.
        statuses = names(conn, "select distinct status from rw_streaming_jobs")
        assert statuses <= {"CREATED", "CREATING"}
        progress = conn.execute("select ddl_id, progress from rw_ddl_progress").fetchall()
        assert all(not p.startswith("0.0%") or p == "0.0%" for _, p in progress)
        # Every job has its fragments, every fragment its job.
        assert conn.execute(
            "select count(*) from rw_streaming_jobs j where not exists"
            " (select 1 from rw_fragments f where f.table_id = j.id)"
        ).fetchone() == (0,)
        # Creating background jobs resume and finish.
        assert conn.execute("wait").statusmessage == "WAIT"
        assert names(conn, "select distinct status from rw_streaming_jobs") <= {"CREATED"}
        for m in mvs:
            total = conn.execute(f"select coalesce(sum(c), 0) from {m}").fetchone()
            assert total == (acked.tables["t" + m[1:]],)


def test_kill_9_during_a_ddl_stream_loses_nothing_acknowledged(tmp_path: Path) -> None:
    acked = Acked()
    data = tmp_path / "data"
    with rwshim_process(data) as (proc, dsn), psycopg.connect(dsn, autocommit=True) as conn:
        # Shorter barriers so background jobs move while the stream runs.
        assert conn.execute("alter system set barrier_interval_ms = 100").statusmessage == (
            "ALTER_SYSTEM"
        )
    total = 0
    for round_ in range(3):
        with rwshim_process(data) as (proc, dsn):
            if round_:
                check(dsn, acked)
            total += run_until_killed(dsn, proc, round_, acked)
    with rwshim_process(data) as (proc, dsn):
        check(dsn, acked)
    assert total > 10
