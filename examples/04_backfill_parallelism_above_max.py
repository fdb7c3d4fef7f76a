"""Error 4, with psycopg: a backfill parallelism above the job's max parallelism.

    specified backfill parallelism <n> should not exceed max parallelism <max>

A job's max parallelism (its vnode count) is fixed when it is created, from the session's
`streaming_max_parallelism`.  Asking for more backfill parallelism fails, on ALTER (an Internal
meta error) as on CREATE (an InvalidParameter, with a different shape).  The pattern that
avoids it: read the job's `max_parallelism` from rw_catalog.rw_table_fragments and cap at it.

What each release answers (the example reads which from `SELECT version()`):
  head     the texts above; the capped ALTER succeeds
  v3.0.3   the same, the CREATE form worded `Invalid Parameter Value:` (before 07d2ebb3db9)
  v2.8.5   no BACKFILL_PARALLELISM: the ALTER does not parse (`sql parser error: expected
           SCHEMA/PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET, found:
           BACKFILL_PARALLELISM`); the CREATE form checks only the initial parallelism, with
           the plain text `specified parallelism 8 should not exceed max parallelism 4`
           (`Invalid Parameter Value:`).  The pattern there: cap
           streaming_parallelism_for_backfill before creating.

Run: RWSHIM_DSN='host=127.0.0.1 port=4566 user=root dbname=dev' \\
        python 04_backfill_parallelism_above_max.py
Exits 0 only when the errors and the fix all behaved as described.
"""

from __future__ import annotations

import os
import re
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
ALTER = "ALTER MATERIALIZED VIEW ex4_by_region SET BACKFILL_PARALLELISM = 8"
# v2.8.5's parser (parser.rs:3547) knows no BACKFILL_PARALLELISM.
ALTER_ERROR_2_8 = (
    "Failed to run the query\n\n"
    "Caused by:\n"
    "  sql parser error: expected SCHEMA/PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET, found:"
    " BACKFILL_PARALLELISM\n"
    f"LINE 1: {ALTER}\n" + " " * (len("LINE 1: ") + ALTER.index("BACKFILL_PARALLELISM")) + "^\n"
)
CREATE_ERROR_2_8 = (
    "Failed to run the query\n\n"
    "Caused by:\n"
    "  Invalid Parameter Value: Invalid parameter: specified parallelism 8 should not "
    "exceed max parallelism 4\n"
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
        if release == "2.8":
            alter_error, create_error = ALTER_ERROR_2_8, CREATE_ERROR_2_8
        elif release == "3.0":
            alter_error = ALTER_ERROR
            # The wording before 07d2ebb3db9.
            create_error = CREATE_ERROR.replace("parameter value:", "Parameter Value:")
        else:
            alter_error, create_error = ALTER_ERROR, CREATE_ERROR
        conn.execute("DROP MATERIALIZED VIEW IF EXISTS ex4_other")
        conn.execute("DROP MATERIALIZED VIEW IF EXISTS ex4_by_region")
        conn.execute("DROP TABLE IF EXISTS ex4_sales")
        conn.execute("SET streaming_max_parallelism = 4")
        conn.execute("CREATE TABLE ex4_sales (region varchar, amount int)")
        conn.execute("INSERT INTO ex4_sales VALUES ('north', 3), ('south', 5)")
        conn.execute("CREATE MATERIALIZED VIEW ex4_by_region AS SELECT * FROM ex4_sales")

        # 1. The errors: 8 asked for, the job allows 4.
        if not expect_error(conn, ALTER, alter_error):
            return 1
        conn.execute("SET streaming_parallelism_for_backfill = 8")
        if not expect_error(
            conn, "CREATE MATERIALIZED VIEW ex4_other AS SELECT * FROM ex4_sales", create_error
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
        if release == "2.8":
            # No ALTER for it: cap the session variable, then create.
            conn.execute(f"SET streaming_parallelism_for_backfill = {capped}")
            cur = conn.execute("CREATE MATERIALIZED VIEW ex4_other AS SELECT * FROM ex4_sales")
            conn.execute("SET streaming_parallelism_for_backfill = DEFAULT")
            print(f"max_parallelism is {row[0]}: capped to {capped} -> {cur.statusmessage}")
            if (capped, cur.statusmessage) != (4, "CREATE_MATERIALIZED_VIEW"):
                return 1
            conn.execute("DROP MATERIALIZED VIEW ex4_other")
            conn.execute("DROP MATERIALIZED VIEW ex4_by_region")
            conn.execute("DROP TABLE ex4_sales")
            return 0
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
