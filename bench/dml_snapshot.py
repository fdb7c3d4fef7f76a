"""What reading the committed state costs a DML statement (issue 28 item 1): an UPDATE by key
of a table holding N rows (1,000 / 100,000), when its epoch has not written the table (it
runs in the epoch's transaction as it is) and when it has (``epochs.FromSnapshot``: the
statement runs against a copy of the table's committed rows on the session's connection,
and what it changed is applied in the epoch's transaction); likewise ``INSERT ... SELECT``
of one row from a source the epoch wrote (``epochs.swap_sources``: the source's committed
rows are copied into the epoch's transaction).

    python bench/dml_snapshot.py               # prints a table; --json FILE writes the figures
    python bench/dml_snapshot.py --rows 1000 --repeat 5

Each figure is the median over ``--repeat`` statements, each in an epoch of its own (a FLUSH,
untimed, after it); the write that puts the statement on the copy path is untimed too.
rwshim runs in process (the pytest plugin's server, manual clock); nothing here is an
assertion.
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


def _ms(conn: Any, before: str | None, statement: str, repeat: int) -> float:
    runs = []
    for i in range(repeat):
        if before is not None:
            conn.execute(before.format(i=i))
        t = time.perf_counter()
        conn.execute(statement.format(i=i))
        runs.append(time.perf_counter() - t)
        conn.execute("FLUSH")
    return statistics.median(runs) * 1000


def dml_costs(sizes: list[int], repeat: int) -> dict[str, float]:
    import psycopg

    from rwshim.testing import RwShim

    out: dict[str, float] = {}
    s = RwShim()
    try:
        conn = psycopg.connect(s.dsn, autocommit=True)
        s.manual_clock()
        conn.execute("CREATE TABLE sink (k int PRIMARY KEY, v int)")
        for n in sizes:
            conn.execute(f"CREATE TABLE b{n} (k int PRIMARY KEY, v int)")
            conn.execute(f"INSERT INTO b{n} SELECT g, g FROM generate_series(1, {n}) AS g")
            conn.execute("FLUSH")
            update = f"UPDATE b{n} SET v = v + 1 WHERE k = {{i}} + 1"
            write = f"INSERT INTO b{n} VALUES ({n} + {{i}} + 1, 0)"
            out[f"update_{n}_rows_plain_ms"] = _ms(conn, None, update, repeat)
            out[f"update_{n}_rows_after_a_write_ms"] = _ms(conn, write, update, repeat)
            select = f"INSERT INTO sink SELECT k, v FROM b{n} WHERE k = {{i}} + 1"
            write = f"INSERT INTO b{n} VALUES ({n} + {repeat} + {{i}} + 1, 0)"
            out[f"insert_select_{n}_rows_plain_ms"] = _ms(conn, None, select, repeat)
            out[f"insert_select_{n}_rows_after_a_write_ms"] = _ms(conn, write, select, repeat)
        conn.close()
    finally:
        s.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path)
    ap.add_argument("--rows", default="1000,100000", help="rows in the table")
    ap.add_argument("--repeat", type=int, default=7, help="statements per figure")
    args = ap.parse_args()
    figures = dml_costs([int(x) for x in args.rows.split(",")], args.repeat)
    for k, v in figures.items():
        print(f"{k:40s} {v:10.2f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
