"""Error 5, with psycopg: a batch-refresh materialized view created while the database is paused.

    cannot create batch refresh job while database barrier is paused

In RisingWave this check sits behind an earlier admission check that already rejects
batch-refresh creates on a paused database with error 3's text ("cannot create streaming job
with snapshot backfill when paused"), so a client sees error 3.  rwshim does the same, and
offers a documented fault, `skip_batch_refresh_admission`, that skips the admission check so
that the apply-time check (error 5) can be exercised: `RWSHIM FAULT ... ON` (superuser only).
The pattern that avoids both: resume before creating.

What each release answers (the example reads which from `SELECT version()`):
  head            the above: error 3's text, error 5's with the fault, Created after RESUME
  v3.0.3, v2.8.5  no batch-refresh materialized views (they came with 43f07e74cde): the
                  create is refused whether paused or not, with
                  `Protocol error: unexpected options in WITH clause: ["refresh.interval.sec"]`;
                  the alternative there is a plain (streaming) materialized view, created
                  after RESUME

Run: RWSHIM_DSN='host=127.0.0.1 port=4566 user=root dbname=dev' \\
        python 05_batch_refresh_when_paused.py
Exits 0 only when the errors and the fix all behaved as described.
"""

from __future__ import annotations

import os
import re
import sys

import psycopg

DSN = os.environ.get("RWSHIM_DSN", "host=127.0.0.1 port=4566 user=root dbname=dev")
ENVELOPE = (
    "Failed to run the query\n\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: gRPC request to meta service (call `/ddl_service.DdlService/CreateMaterializedView`)"
    " failed: Internal error\n"
)
ERROR_3 = ENVELOPE + "  2: cannot create streaming job with snapshot backfill when paused\n"
ERROR_5 = ENVELOPE + "  2: cannot create batch refresh job while database barrier is paused\n"
CREATE = (
    "CREATE MATERIALIZED VIEW ex5_hourly WITH (refresh.interval.sec = 60)"
    " AS SELECT * FROM ex5_readings"
)

PLAIN_CREATE = "CREATE MATERIALIZED VIEW ex5_hourly AS SELECT * FROM ex5_readings"
# v3.0.3 and v2.8.5: the frontend refuses the option before anything else.
NO_BATCH_REFRESH = (
    "Failed to run the query\n\n"
    "Caused by:\n"
    '  Protocol error: unexpected options in WITH clause: ["refresh.interval.sec"]\n'
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
            print(f"unexpected error: {e.diag.message_primary!r}")
            return False
        print(f"-> {e}\n")
        return True
    print("the create succeeded: the error was not reproduced")
    return False


def main() -> int:
    with psycopg.connect(DSN, autocommit=True) as conn:
        row = conn.execute("SELECT version()").fetchone()
        assert row is not None
        release = release_of(row[0])
        print(f"answering as: {release}")
        if release != "head":
            return without_batch_refresh(conn)
        conn.execute("DROP MATERIALIZED VIEW IF EXISTS ex5_hourly")
        conn.execute("DROP TABLE IF EXISTS ex5_readings")
        conn.execute("CREATE TABLE ex5_readings (sensor int, value float)")
        conn.execute("INSERT INTO ex5_readings VALUES (1, 0.5), (2, 1.5)")
        conn.execute("ALTER DATABASE dev PAUSE")
        try:
            # 1a. As in RisingWave: the admission check answers with error 3's text.
            print("paused, batch-refresh create:")
            if not expect_error(conn, CREATE, ERROR_3):
                return 1
            # 1b. With the fault, the create reaches the apply-time check: error 5.
            conn.execute("RWSHIM FAULT skip_batch_refresh_admission ON")
            print("paused, admission check skipped by the fault:")
            if not expect_error(conn, CREATE, ERROR_5):
                return 1
        finally:
            conn.execute("RWSHIM FAULT skip_batch_refresh_admission OFF")
            # 2. The pattern: resume before creating.
            conn.execute("ALTER DATABASE dev RESUME")
        cur = conn.execute(CREATE)
        row = conn.execute(
            "SELECT status FROM rw_catalog.rw_materialized_views WHERE name = 'ex5_hourly'"
        ).fetchone()
        print(f"after RESUME: {cur.statusmessage}, status {row}")
        if (cur.statusmessage, row) != ("CREATE_MATERIALIZED_VIEW", ("Created",)):
            return 1
        conn.execute("DROP MATERIALIZED VIEW ex5_hourly")
        conn.execute("DROP TABLE ex5_readings")
        return 0


def without_batch_refresh(conn: psycopg.Connection) -> int:
    """v3.0.3, v2.8.5: the WITH option is refused, paused or not; a plain MV after RESUME."""
    conn.execute("DROP MATERIALIZED VIEW IF EXISTS ex5_hourly")
    conn.execute("DROP TABLE IF EXISTS ex5_readings")
    conn.execute("CREATE TABLE ex5_readings (sensor int, value float)")
    conn.execute("INSERT INTO ex5_readings VALUES (1, 0.5), (2, 1.5)")
    conn.execute("ALTER DATABASE dev PAUSE")
    try:
        print("paused, batch-refresh create (this release has no batch refresh):")
        if not expect_error(conn, CREATE, NO_BATCH_REFRESH):
            return 1
    finally:
        conn.execute("ALTER DATABASE dev RESUME")
    print("resumed, batch-refresh create:")
    if not expect_error(conn, CREATE, NO_BATCH_REFRESH):
        return 1
    cur = conn.execute(PLAIN_CREATE)
    row = conn.execute(
        "SELECT status FROM rw_catalog.rw_materialized_views WHERE name = 'ex5_hourly'"
    ).fetchone()
    print(f"a plain MV after RESUME: {cur.statusmessage}, status {row}")
    if (cur.statusmessage, row) != ("CREATE_MATERIALIZED_VIEW", ("Created",)):
        return 1
    conn.execute("DROP MATERIALIZED VIEW ex5_hourly")
    conn.execute("DROP TABLE ex5_readings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
