"""Soak: many clients mixing DDL, DML, catalog reads and ALTERs against one rwshim for a while.

    python bench/soak.py                      # 16 clients, 180 s, in-memory store
    python bench/soak.py --seconds 20 --clients 4 --data-dir /tmp/soak --json soak.json
    python bench/soak.py --data-dir tmp       # a throwaway durable store, removed afterwards

rwshim runs from this checkout on 127.0.0.1 (a port the OS picks), loopback only.  Each client
(psycopg, autocommit) loops over a random mix of statements on its own tables and views and on
one table and view all clients share (so that ALTERs meet creating jobs and DROPs meet
readers).  Reported: statements per second, p50/p99 latency, the server's RSS at start (after
a warm-up), at the end and at its highest, and the errors by kind.  An error is a *user error*
when it is a RisingWave answer to the statement (an ErrorResponse in RisingWave's form: an
object that is missing, exists, or is busy); anything else is *internal* and the goal is
none: a lost connection, a server that died, an ErrorResponse carrying Python's or SQLite's
own text (tests/rel/leaks.py), or an ``internal error``.  Exit status 1 when there was one.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.servers import free_port, rss_kib  # noqa: E402
from tests.rel.leaks import internal_text  # noqa: E402


def _ops(client: int, rnd: random.Random) -> list[tuple[str, str]]:
    """One step of one client: (kind, statement) pairs."""
    k = rnd.randrange(3)
    t, m = f"soak_c{client}_t{k}", f"soak_c{client}_m{k}"
    choice = rnd.randrange(100)
    if choice < 12:
        return [("ddl", f"CREATE TABLE IF NOT EXISTS {t} (v int, p varchar)")]
    if choice < 30:
        rows = rnd.randrange(1, 50)
        return [
            ("dml", f"INSERT INTO {t} SELECT n, 'p' || n FROM generate_series(1, {rows}) AS g(n)")
        ]
    if choice < 38:
        return [
            ("ddl", f"CREATE MATERIALIZED VIEW IF NOT EXISTS {m} AS SELECT count(*) AS n FROM {t}")
        ]
    if choice < 48:
        target = m if rnd.random() < 0.7 else "soak_shared_m"
        return [
            ("alter", f"ALTER MATERIALIZED VIEW {target} SET PARALLELISM = {rnd.randrange(1, 5)}")
        ]
    if choice < 66:
        return [
            ("catalog", rnd.choice([
                "SELECT name, status, parallelism FROM rw_catalog.rw_streaming_jobs",
                "SELECT relname FROM pg_catalog.pg_class WHERE relname LIKE 'soak%'",
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
                "SHOW JOBS",
                f"DESCRIBE {t}",
            ]))
        ]  # fmt: skip
    if choice < 80:
        reads = [
            f"SELECT count(*) FROM {t}",
            "SELECT count(*) FROM soak_shared_t",
            f"SELECT n FROM {m}",
        ]
        return [("read", rnd.choice(reads))]
    if choice < 86:
        return [
            ("dml", f"DELETE FROM {t} WHERE v % 7 = 0"),
            ("dml", f"UPDATE {t} SET p = 'u' WHERE v < 5"),
        ]
    if choice < 94:
        return [("ddl", f"DROP MATERIALIZED VIEW IF EXISTS {m}")]
    return [("ddl", f"DROP TABLE IF EXISTS {t} CASCADE")]


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.by_kind: Counter[str] = Counter()
        self.user_errors: Counter[str] = Counter()
        self.internal: list[str] = []

    def user(self, text: str) -> None:
        first = text.strip().splitlines()[-1].strip() if text.strip() else text
        first = re.sub(r"\d+", "N", re.sub(r"soak_c\d+_\w+", "<obj>", first))[:100]
        with self.lock:
            self.user_errors[first] += 1


def _client(
    client: int, port: int, deadline: float, tally: Tally, seed: int, stop: threading.Event
) -> None:
    rnd = random.Random(seed * 1000 + client)
    dsn = f"host=127.0.0.1 port={port} user=root dbname=dev"
    conn: psycopg.Connection[Any] | None = None
    while time.monotonic() < deadline and not stop.is_set():
        if conn is None:
            try:
                conn = psycopg.connect(dsn, autocommit=True, connect_timeout=20)
            except psycopg.Error as e:
                with tally.lock:
                    tally.internal.append(f"connect: {e}")
                return
        for kind, sql in _ops(client, rnd):
            started = time.monotonic()
            try:
                cur = conn.execute(sql, prepare=False)
                if cur.description is not None:
                    cur.fetchall()
            except psycopg.Error as e:
                text = str(e)
                if e.sqlstate is None or conn.closed or internal_text(text) is not None:
                    with tally.lock:
                        tally.internal.append(f"{kind}: {sql[:80]}: {text[:300]}")
                    if conn.closed:
                        conn = None
                        break
                else:
                    tally.user(text)
            elapsed = time.monotonic() - started
            with tally.lock:
                tally.latencies.append(elapsed)
                tally.by_kind[kind] += 1
    if conn is not None:
        conn.close()


def _start(args: argparse.Namespace) -> tuple[subprocess.Popen[str], int]:
    port = free_port()
    cmd = [sys.executable, "-m", "rwshim", "--host", "127.0.0.1", "--port", str(port),
           "--log-level", "WARNING"]  # fmt: skip
    if args.data_dir:
        cmd += ["--data-dir", str(args.data_dir)]
    proc = subprocess.Popen(cmd, cwd=REPO, stderr=subprocess.PIPE, text=True)
    for _ in range(200):
        try:
            with psycopg.connect(
                f"host=127.0.0.1 port={port} user=root dbname=dev", autocommit=True
            ):
                return proc, port
        except psycopg.OperationalError:
            if proc.poll() is not None:
                raise SystemExit(
                    f"rwshim exited: {proc.stderr.read() if proc.stderr else ''}"
                ) from None
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("rwshim did not start")


def run(args: argparse.Namespace) -> dict[str, Any]:
    proc, port = _start(args)
    try:
        with psycopg.connect(
            f"host=127.0.0.1 port={port} user=root dbname=dev", autocommit=True
        ) as c:
            c.execute("CREATE TABLE soak_shared_t (v int)")
            c.execute("INSERT INTO soak_shared_t SELECT * FROM generate_series(1, 1000)")
            c.execute(
                "CREATE MATERIALIZED VIEW soak_shared_m AS SELECT count(*) AS n FROM soak_shared_t"
            )
            for _ in range(20):  # warm-up: modules, grammar, catalogs, caches
                c.execute("SELECT name FROM rw_catalog.rw_streaming_jobs").fetchall()
        rss_start = rss_kib(proc.pid)
        rss_max = [rss_start]
        tally = Tally()
        stop = threading.Event()
        started = time.monotonic()
        deadline = started + args.seconds

        def sample() -> None:
            while not stop.wait(0.5):
                if proc.poll() is None:
                    rss_max[0] = max(rss_max[0], rss_kib(proc.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        threads = [
            threading.Thread(target=_client, args=(i, port, deadline, tally, args.seed, stop))
            for i in range(args.clients)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.seconds + 120)
        stop.set()
        elapsed = time.monotonic() - started
        alive = proc.poll() is None
        rss_end = rss_kib(proc.pid) if alive else 0
        if not alive:
            tally.internal.append(f"the server exited with status {proc.returncode}")
        lat = sorted(tally.latencies)
        n = len(lat)
        return {
            "clients": args.clients,
            "seconds": round(elapsed, 1),
            "statements": n,
            "statements_per_s": round(n / elapsed, 1) if elapsed else 0.0,
            "p50_ms": round(statistics.median(lat) * 1000, 2) if lat else None,
            "p99_ms": round(lat[min(n - 1, int(n * 0.99))] * 1000, 2) if lat else None,
            "max_ms": round(lat[-1] * 1000, 1) if lat else None,
            "by_kind": dict(tally.by_kind),
            "rss_start_mib": round(rss_start / 1024, 1),
            "rss_end_mib": round(rss_end / 1024, 1),
            "rss_max_mib": round(rss_max[0] / 1024, 1),
            "user_errors": sum(tally.user_errors.values()),
            "user_error_kinds": dict(tally.user_errors.most_common(12)),
            "internal_errors": len(tally.internal),
            "internal_error_samples": tally.internal[:10],
        }
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--seconds", type=float, default=180.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data-dir", type=Path, help="a durable store (default: in memory)")
    p.add_argument("--json", type=Path, help="write the figures here too")
    args = p.parse_args(argv)
    scratch = args.data_dir == Path("tmp")
    if scratch:  # a throwaway store, removed afterwards
        args.data_dir = Path(tempfile.mkdtemp(prefix="rwshim-soak-"))
    try:
        figures = run(args)
    finally:
        if scratch:
            shutil.rmtree(args.data_dir, ignore_errors=True)
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 1 if figures["internal_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
