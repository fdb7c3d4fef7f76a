"""Error 4's sibling, with psycopg: a parallelism above the job's max parallelism.

    specified parallelism <n> should not exceed max parallelism <max>

On CREATE the session's `streaming_parallelism` is checked against `streaming_max_parallelism`
(an InvalidParameter); on ALTER ... SET PARALLELISM the target is checked against the job's
stored max parallelism (an Internal meta error).  The pattern that avoids it: read
`max_parallelism` from rw_catalog.rw_table_fragments (or rw_streaming_jobs) and cap at it.

What each release answers (the example reads which from `SELECT version()`):
  head            the texts above; rw_streaming_jobs then shows parallelism `4`
  v3.0.3, v2.8.5  the same, the CREATE form worded `Invalid Parameter Value:` (before
                  07d2ebb3db9); v2.8.5 shows the capped parallelism as `FIXED(4)`

Run: RWSHIM_DSN='host=127.0.0.1 port=4566 user=root dbname=dev' python 04b_parallelism_above_max.py
Exits 0 only when the errors and the fix all behaved as described.
"""

from __future__ import annotations

import os
import re
import sys

import psycopg

DSN = os.environ.get("RWSHIM_DSN", "host=127.0.0.1 port=4566 user=root dbname=dev")
CREATE_ERROR = (
    "Failed to run the query\n\n"
    "Caused by:\n"
    "  Invalid parameter value: Invalid parameter: specified parallelism 6 should not exceed "
    "max parallelism 4\n"
)
ALTER_ERROR = (
    "Failed to run the query\n\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterParallelism`) failed:"
    " Internal error\n"
    "  2: specified parallelism 6 should not exceed max parallelism 4\n"
)


def release_of(version: str) -> str:
    """`3.0` or `2.8` from version()'s `...-RisingWave-3.0.3 (...)`, else `head`."""
    m = re.search(r"-RisingWave-(\d+\.\d+)\.", version)
    return m.group(1) if m and m.group(1) in ("3.0", "2.8") else "head"


def expect_error(conn: psycopg.Connection, sql: str, expected: str) -> bool:
    try:
        conn.execute(sql)
    except psycopg.Error as e:
        if (e.sqlstate, e.diag.message_primary) != ("XX000", expected):
            print(f"unexpected error from {sql!r}: {e.diag.message_primary!r}")
            return False
        print(f"{sql}\n-> {e}\n")
        return True
    print(f"{sql!r} succeeded: the error was not reproduced")
    return False


def main() -> int:
    with psycopg.connect(DSN, autocommit=True) as conn:
        row = conn.execute("SELECT version()").fetchone()
        assert row is not None
        release = release_of(row[0])
        print(f"answering as: {release}")
        create_error = CREATE_ERROR
        if release != "head":
            # The wording before 07d2ebb3db9.
            create_error = CREATE_ERROR.replace("parameter value:", "Parameter Value:")
        conn.execute("DROP TABLE IF EXISTS ex4b_metrics")
        conn.execute("SET streaming_max_parallelism = 4")

        # 1a. CREATE with a parallelism above the max.
        conn.execute("SET streaming_parallelism = 6")
        if not expect_error(conn, "CREATE TABLE ex4b_metrics (v int)", create_error):
            return 1
        conn.execute("SET streaming_parallelism = DEFAULT")
        conn.execute("CREATE TABLE ex4b_metrics (v int)")

        # 1b. ALTER above the job's max.
        if not expect_error(conn, "ALTER TABLE ex4b_metrics SET PARALLELISM = 6", ALTER_ERROR):
            return 1

        # 2. The pattern: cap at max_parallelism.
        row = conn.execute(
            "SELECT f.max_parallelism FROM rw_catalog.rw_table_fragments f"
            " JOIN rw_catalog.rw_tables t ON t.id = f.table_id WHERE t.name = 'ex4b_metrics'"
        ).fetchone()
        assert row is not None
        capped = min(6, int(row[0]))
        cur = conn.execute(f"ALTER TABLE ex4b_metrics SET PARALLELISM = {capped}")
        after = conn.execute(
            "SELECT parallelism FROM rw_catalog.rw_streaming_jobs WHERE name = 'ex4b_metrics'"
        ).fetchone()
        print(f"max_parallelism is {row[0]}: capped to {capped} -> {cur.statusmessage}, {after}")
        shown = f"FIXED({capped})" if release == "2.8" else str(capped)
        if (cur.statusmessage, after) != ("ALTER_TABLE", (shown,)):
            return 1
        conn.execute("DROP TABLE ex4b_metrics")
        return 0


if __name__ == "__main__":
    sys.exit(main())
