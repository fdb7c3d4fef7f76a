"""Error 4, with psycopg: a backfill parallelism above the job's max parallelism.

    specified backfill parallelism <n> should not exceed max parallelism <max>

A job's max parallelism (its vnode count) is fixed when it is created, from the session's
`streaming_max_parallelism`.  Asking for more backfill parallelism fails, on ALTER (an Internal
meta error) as on CREATE (an InvalidParameter, with a different shape).  The pattern that
avoids it: read the job's `max_parallelism` from rw_catalog.rw_table_fragments and cap at it.

Run: RWSHIM_DSN='host=127.0.0.1 port=4566 user=root dbname=dev' \\
        python 04_backfill_parallelism_above_max.py
Exits 0 only when the errors and the fix all behaved as described.
"""

from __future__ import annotations

import os
import sys

import psycopg

DSN = os.environ.get("RWSHIM_DSN", "host=127.0.0.1 port=4566 user=root dbname=dev")
ALTER_ERROR = (
    "Failed to run the query\n\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterBackfillParallelism`)"
    " failed: Internal error\n"
    "  2: specified backfill parallelism 8 should not exceed max parallelism 4\n"
)
CREATE_ERROR = (
    "Failed to run the query\n\n"
    "Caused by:\n"
    "  Invalid parameter value: Invalid parameter: specified backfill parallelism 8 should not "
    "exceed max parallelism 4\n"
)


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
        conn.execute("DROP MATERIALIZED VIEW IF EXISTS ex4_by_region")
        conn.execute("DROP TABLE IF EXISTS ex4_sales")
        conn.execute("SET streaming_max_parallelism = 4")
        conn.execute("CREATE TABLE ex4_sales (region varchar, amount int)")
        conn.execute("INSERT INTO ex4_sales VALUES ('north', 3), ('south', 5)")
        conn.execute("CREATE MATERIALIZED VIEW ex4_by_region AS SELECT * FROM ex4_sales")

        # 1. The errors: 8 asked for, the job allows 4.
        if not expect_error(
            conn, "ALTER MATERIALIZED VIEW ex4_by_region SET BACKFILL_PARALLELISM = 8", ALTER_ERROR
        ):
            return 1
        conn.execute("SET streaming_parallelism_for_backfill = 8")
        if not expect_error(
            conn, "CREATE MATERIALIZED VIEW ex4_other AS SELECT * FROM ex4_sales", CREATE_ERROR
        ):
            return 1
        conn.execute("SET streaming_parallelism_for_backfill = DEFAULT")

        # 2. The pattern: cap the wanted value at the job's max parallelism.
        wanted = 8
        row = conn.execute(
            "SELECT f.max_parallelism FROM rw_catalog.rw_table_fragments f"
            " JOIN rw_catalog.rw_materialized_views m ON m.id = f.table_id"
            " WHERE m.name = 'ex4_by_region'"
        ).fetchone()
        assert row is not None
        capped = min(wanted, int(row[0]))
        cur = conn.execute(
            f"ALTER MATERIALIZED VIEW ex4_by_region SET BACKFILL_PARALLELISM = {capped}"
        )
        print(f"max_parallelism is {row[0]}: capped to {capped} -> {cur.statusmessage}")
        if (capped, cur.statusmessage) != (4, "ALTER_MATERIALIZED_VIEW"):
            return 1
        conn.execute("DROP MATERIALIZED VIEW ex4_by_region")
        conn.execute("DROP TABLE ex4_sales")
        return 0


if __name__ == "__main__":
    sys.exit(main())
