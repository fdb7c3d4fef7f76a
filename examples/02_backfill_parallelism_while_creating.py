"""Error 2, with psycopg: ALTER ... SET BACKFILL_PARALLELISM while a snapshot-backfill job is
Creating.

    Cannot alter the job <id> because its creating backfill contains a scan type that does not
    support online rescheduling

A snapshot backfill cannot be rescheduled online.  The pattern that avoids it: add DEFERRED,
which records the new backfill parallelism in the catalog without rescheduling now (RisingWave
answers with a NOTICE), or wait until the job is Created.

Run: RWSHIM_DSN='host=127.0.0.1 port=4566 user=root dbname=dev' \\
        python 02_backfill_parallelism_while_creating.py
Exits 0 only when the error and the fix both behaved as described.
"""

from __future__ import annotations

import os
import sys

import psycopg

DSN = os.environ.get("RWSHIM_DSN", "host=127.0.0.1 port=4566 user=root dbname=dev")
EXPECTED = (
    "Failed to run the query\n\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterBackfillParallelism`)"
    " failed: Internal error\n"
    "  2: Cannot alter the job {job} because its creating backfill contains a scan type that "
    "does not support online rescheduling\n"
)
DEFERRED_NOTICE = (
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the meta, "
    "otherwise, the alter will not take effect."
)


def main() -> int:
    with psycopg.connect(DSN, autocommit=True) as conn:
        notices: list[str] = []
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        conn.execute("DROP MATERIALIZED VIEW IF EXISTS ex2_daily")
        conn.execute("DROP TABLE IF EXISTS ex2_events")
        conn.execute("CREATE TABLE ex2_events (id int, kind varchar)")
        conn.execute("INSERT INTO ex2_events SELECT g, 'click' FROM generate_series(1, 1000) g")
        conn.execute("SET background_ddl = true")
        conn.execute("SET backfill_rate_limit = 1")
        conn.execute("CREATE MATERIALIZED VIEW ex2_daily AS SELECT kind, id FROM ex2_events")
        row = conn.execute(
            "SELECT id, status FROM rw_catalog.rw_materialized_views WHERE name = 'ex2_daily'"
        ).fetchone()
        assert row is not None
        job, status = row
        print(f"job {job} is {status}")

        # 1. The error: an online change of a snapshot backfill's parallelism.
        try:
            conn.execute("ALTER MATERIALIZED VIEW ex2_daily SET BACKFILL_PARALLELISM = 2")
        except psycopg.Error as e:
            got = (e.sqlstate, e.diag.message_primary)
            if got != ("XX000", EXPECTED.format(job=job)):
                print(f"unexpected error: {got!r}")
                return 1
            print(f"reproduced error 2:\n{e}\n")
        else:
            print("the ALTER succeeded online: error 2 not reproduced")
            return 1

        # 2. The pattern: DEFERRED. The statement succeeds with RisingWave's notice.
        notices.clear()
        cur = conn.execute(
            "ALTER MATERIALIZED VIEW ex2_daily SET BACKFILL_PARALLELISM = 2 DEFERRED"
        )
        print(f"with DEFERRED: {cur.statusmessage}, notice: {notices}")
        if cur.statusmessage != "ALTER_MATERIALIZED_VIEW" or notices != [DEFERRED_NOTICE]:
            return 1
        conn.execute("DROP MATERIALIZED VIEW ex2_daily")
        conn.execute("DROP TABLE ex2_events")
        return 0


if __name__ == "__main__":
    sys.exit(main())
