"""What a barrier costs on the data plane (issue 28): a FLUSH (one barrier and the wait for its
commit) against the number of materialized views over the table written (10 / 100 / 1000)
and the rows the epoch changed (0 / 1 / 10,000), and a barrier on an instance with no data.

    python bench/barriers.py                 # prints a table; --json FILE writes the figures
    python bench/barriers.py --mvs 10,100 --repeat 5

Set-up: ``t (k int PRIMARY KEY, v int)`` holding 10,000 rows and N materialized views
``SELECT k, v FROM t WHERE k % 100 = i % 100`` (100 rows each, every one reading all of t),
each read once so that its state exists on the data plane.  One figure: the epoch's writes
(an overwrite of 1 or 10,000 existing keys, untimed), then ``FLUSH`` timed; the median over
``--repeat`` runs.  rwshim refreshes a written table's views by recomputing them (their
query, upstream first), so the cost grows with N times the table's size; a barrier that
wrote nothing costs a look-up.  rwshim runs in process (the pytest plugin's server, manual
clock: no periodic barrier interferes); nothing here is an assertion.  ``--changelog``: each
view is also read by a view over its changelog (``WITH c AS changelog FROM mv<i>``), whose
barriers diff the view's state before and after its refresh (dataplane/plan/changelogs.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ROWS = 10_000


def _flush_ms(conn: Any, write: str | None, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        if write is not None:
            conn.execute(write)
        t = time.perf_counter()
        conn.execute("FLUSH")
        runs.append(time.perf_counter() - t)
    return statistics.median(runs) * 1000


def barrier_costs(
    mv_counts: list[int], changed: list[int], repeat: int, changelog: bool = False
) -> dict[str, float]:
    import psycopg

    from rwshim.testing import RwShim

    out: dict[str, float] = {}
    s = RwShim()
    try:
        conn = psycopg.connect(s.dsn, autocommit=True)
        out["flush_without_data_ms"] = _flush_ms(conn, None, repeat)
        conn.execute("CREATE TABLE t (k int PRIMARY KEY, v int)")
        conn.execute(f"INSERT INTO t SELECT g, g FROM generate_series(1, {ROWS}) AS g")
        conn.execute("FLUSH")
        made = 0
        for n in sorted(mv_counts):
            conn.execute("SET background_ddl = true")
            for i in range(made, n):
                where = f"k % 100 = {i % 100}"
                conn.execute(f"CREATE MATERIALIZED VIEW mv{i} AS SELECT k, v FROM t WHERE {where}")
            conn.execute("WAIT")
            for i in range(made, n) if changelog else ():  # its barriers diff mv<i>'s state
                conn.execute(
                    f"CREATE MATERIALIZED VIEW cl{i} AS"
                    f" WITH c AS changelog FROM mv{i} SELECT * FROM c"
                )
            conn.execute("WAIT")
            for i in range(made, n):  # the view's state is made on first use
                conn.execute(f"SELECT count(*) FROM mv{i}").fetchall()
                if changelog:
                    conn.execute(f"SELECT count(*) FROM cl{i}").fetchall()
            made = n
            s.manual_clock()
            out[f"flush_no_change_{n}_mvs_ms"] = _flush_ms(conn, None, repeat)
            for rows in changed:
                write = f"INSERT INTO t SELECT g, g + 1 FROM generate_series(1, {rows}) AS g"
                out[f"flush_{rows}_rows_{n}_mvs_ms"] = _flush_ms(conn, write, repeat)
            s.manual_clock(False)
        conn.close()
    finally:
        s.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path)
    ap.add_argument("--mvs", default="10,100,1000", help="materialized view counts")
    ap.add_argument("--rows", default="1,10000", help="rows changed in the epoch")
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure")
    ap.add_argument(
        "--changelog", action="store_true", help="each view read by a changelog CTE's view"
    )
    args = ap.parse_args()
    mvs = [int(x) for x in args.mvs.split(",")]
    rows = [int(x) for x in args.rows.split(",")]
    figures = barrier_costs(mvs, rows, args.repeat, args.changelog)
    for k, v in figures.items():
        print(f"{k:40s} {v:10.2f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
