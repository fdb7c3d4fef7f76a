"""Error 2, with psycopg: ALTER ... SET BACKFILL_PARALLELISM while a snapshot-backfill job is
Creating.

    Cannot alter the job <id> because its creating backfill contains a scan type that does not
    support online rescheduling

A snapshot backfill cannot be rescheduled online.  The pattern that avoids it: add DEFERRED,
which records the new backfill parallelism in the catalog without rescheduling now (RisingWave
answers with a NOTICE), or wait until the job is Created.

What each release answers (the example reads which from `SELECT version()`):
  head     the text above; with DEFERRED, success and the NOTICE
  v3.0.3   Cannot alter the job <id> because it is a non-reschedulable background backfill job
           (background jobs only, as here); with DEFERRED, success and the NOTICE
  v2.8.5   no BACKFILL_PARALLELISM at all: the statement, with or without DEFERRED, does not
           parse (`sql parser error: expected SCHEMA/PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG
           after SET, found: BACKFILL_PARALLELISM`); there the backfill parallelism can only be
           chosen before creating, with the session variable streaming_parallelism_for_backfill

Run: RWSHIM_DSN='host=127.0.0.1 port=4566 user=root dbname=dev' \\
        python 02_backfill_parallelism_while_creating.py
Exits 0 only when the error and the fix both behaved as described.
"""

from __future__ import annotations

import os
import re
import sys

import psycopg

DSN = os.environ.get("RWSHIM_DSN", "host=127.0.0.1 port=4566 user=root dbname=dev")
EXPECTED = (
    "Failed to run the query\n\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterBackfillParallelism`)"
    " failed: Internal error\n"
    "  2: Cannot alter the job {job} because {why}\n"
)
WHY = {
    "head": "its creating backfill contains a scan type that does not support online rescheduling",
    "3.0": "it is a non-reschedulable background backfill job",
}
# v2.8.5's parser (parser.rs:3547), and psql-style position of the unknown word.
PARSE_ERROR = (
    "Failed to run the query\n\n"
    "Caused by:\n"
    "  sql parser error: expected SCHEMA/PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET, found:"
    " BACKFILL_PARALLELISM\n"
    "LINE 1: {sql}\n"
    "{caret}^\n"
)


def parse_error(sql: str) -> str:
    caret = " " * (len("LINE 1: ") + sql.index("BACKFILL_PARALLELISM"))
    return PARSE_ERROR.format(sql=sql, caret=caret)


def release_of(version: str) -> str:
    """`3.0` or `2.8` from version()'s `...-RisingWave-3.0.3 (...)`, else `head`."""
    m = re.search(r"-RisingWave-(\d+\.\d+)\.", version)
    return m.group(1) if m and m.group(1) in ("3.0", "2.8") else "head"


DEFERRED_NOTICE = (
    "DEFERRED is used, please ensure that automatic parallelism control is enabled on the meta, "
    "otherwise, the alter will not take effect."
)


def main() -> int:
    with psycopg.connect(DSN, autocommit=True) as conn:
        notices: list[str] = []
        conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
        row = conn.execute("SELECT version()").fetchone()
        assert row is not None
        release = release_of(row[0])
        print(f"answering as: {release}")
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
        alter = "ALTER MATERIALIZED VIEW ex2_daily SET BACKFILL_PARALLELISM = 2"
        if release == "2.8":
            expected = parse_error(alter)
        else:
            expected = EXPECTED.format(job=job, why=WHY[release])
        try:
            conn.execute(alter)
        except psycopg.Error as e:
            got = (e.sqlstate, e.diag.message_primary)
            if got != ("XX000", expected):
                print(f"unexpected error: {got!r}")
                return 1
            print(f"reproduced error 2 (as {release} answers it):\n{e}\n")
        else:
            print("the ALTER succeeded online: error 2 not reproduced")
            return 1

        if release == "2.8":
            # v2.8.5 has no BACKFILL_PARALLELISM, so no DEFERRED form either.
            deferred = alter + " DEFERRED"
            try:
                conn.execute(deferred)
            except psycopg.Error as e:
                if (e.sqlstate, e.diag.message_primary) != ("XX000", parse_error(deferred)):
                    print(f"unexpected error: {e.diag.message_primary!r}")
                    return 1
                print(f"v2.8.5 does not parse the DEFERRED form either:\n{e}\n")
            else:
                print("DEFERRED parsed on v2.8.5")
                return 1
            conn.execute("DROP MATERIALIZED VIEW ex2_daily")
            conn.execute("DROP TABLE ex2_events")
            return 0

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
