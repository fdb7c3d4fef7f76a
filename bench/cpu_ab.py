"""CPU per transaction of two rwshim checkouts, A B A B ...: `python bench/cpu_ab.py A B`.

Each round starts rwshim from checkout A, then from B (`python -m rwshim` run in that tree),
loads a 10,000-row table and runs pgbench point lookups (`-t`, a fixed number of
transactions) for each client count and protocol; what it reports is the CPU time rwshim and
its PostgreSQL child (the postmaster, its backends, and the backends already gone, through
the postmaster's children's times) spent per transaction, read from /proc, with pgbench's
tps beside it.  CPU time per transaction is what a loaded machine (other jobs on the same
cores) changes least; tps there swings by 2x from run to run.  Medians over the rounds.
Written to measure the data plane's connection pool (issue 27) against main.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.pgbench import pgbench_path
from bench.servers import free_port

HZ = os.sysconf("SC_CLK_TCK")
SCRIPT = "\\set k random(1, 10000)\nSELECT v FROM bench_kv WHERE k = :k;\n"
# (clients, transactions per client, protocol)
CASES = [(1, 10000, "prepared"), (1, 5000, "simple"), (8, 1500, "prepared"), (100, 150, "prepared")]


def tree_cpu(root: int) -> tuple[float, float]:
    """CPU seconds of ``root`` itself, and of its descendants with their reaped children."""
    parent: dict[int, int] = {}
    cpu: dict[int, tuple[float, float]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            st = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        rest = st[st.rindex(")") + 2 :].split()
        parent[int(d)] = int(rest[1])
        cpu[int(d)] = ((int(rest[11]) + int(rest[12])) / HZ, (int(rest[13]) + int(rest[14])) / HZ)

    def under(p: int) -> bool:
        while p > 1:
            if p == root:
                return True
            p = parent.get(p, 0)
        return False

    own = cpu.get(root, (0.0, 0.0))[0]
    children = sum(a + b for p, (a, b) in cpu.items() if p != root and under(p))
    return own, children


def start(tree: Path, port: int) -> tuple[subprocess.Popen[bytes], psycopg.Connection]:
    cmd = [sys.executable, "-m", "rwshim", "--port", str(port), "--no-uvloop"]
    proc = subprocess.Popen(
        [*cmd, "--max-connections", "400"],
        cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(300):
        try:
            conn = psycopg.connect(
                host="127.0.0.1", port=port, user="root", dbname="dev", autocommit=True
            )
            return proc, conn
        except psycopg.OperationalError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"rwshim from {tree} did not start")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path, help="checkout A (e.g. main)")
    ap.add_argument("b", type=Path, help="checkout B")
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(SCRIPT)
    res: dict[tuple[int, str, str], list[tuple[float, float, float]]] = {}
    for rnd in range(args.rounds):
        for tree in (args.a, args.b):
            port = free_port()
            proc, conn = start(tree, port)
            try:
                conn.execute("CREATE TABLE bench_kv (k int PRIMARY KEY, v int)")
                conn.execute(
                    "INSERT INTO bench_kv SELECT g, g * 2 FROM generate_series(1, 10000) g"
                )
                conn.execute("FLUSH")
                for clients, tx, mode in CASES:
                    own0, pg0 = tree_cpu(proc.pid)
                    out = subprocess.run(
                        [pgbench_path(), "-n", "-h", "127.0.0.1", "-p", str(port), "-U", "root",
                         "-c", str(clients), "-j", "2", "-t", str(tx), "-M", mode, "-f", f.name,
                         "dev"],
                        capture_output=True, text=True, check=False,
                    )  # fmt: skip
                    own1, pg1 = tree_cpu(proc.pid)
                    m = re.search(r"^tps = ([0-9.]+)", out.stdout, re.M)
                    if m is None:
                        raise SystemExit(f"pgbench failed: {out.stderr[-500:]}")
                    n = clients * tx
                    row = ((own1 - own0) / n * 1e6, (pg1 - pg0) / n * 1e6, float(m.group(1)))
                    res.setdefault((clients, mode, str(tree)), []).append(row)
                    line = f"round {rnd} {tree} c{clients} {mode}: rwshim {row[0]:.1f} us/tx,"
                    print(f"{line} postgres {row[1]:.1f} us/tx, {row[2]:.0f} tps", flush=True)
            finally:
                conn.close()
                proc.terminate()
                proc.wait(30)
    Path(f.name).unlink()
    for clients, _, mode in CASES:
        a = res[(clients, mode, str(args.a))]
        b = res[(clients, mode, str(args.b))]

        def med(rows: list[tuple[float, float, float]], i: int) -> float:
            return statistics.median(r[i] for r in rows)

        print(
            f"c{clients} {mode}: rwshim us/tx A {med(a, 0):.1f} B {med(b, 0):.1f}"
            f" (B/A {med(b, 0) / med(a, 0):.3f}); postgres us/tx A {med(a, 1):.1f}"
            f" B {med(b, 1):.1f}; tps A {med(a, 2):.0f} B {med(b, 2):.0f}"
            f" (B/A {med(b, 2) / med(a, 2):.3f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
