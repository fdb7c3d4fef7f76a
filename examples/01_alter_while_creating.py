"""Error 1, with asyncpg: ALTER ... SET PARALLELISM while a snapshot-backfill job is Creating.

    Cannot alter the job <id> because it is blocked by creating unreschedulable backfill jobs

A background materialized view over a table with rows, its backfill throttled, is Creating for
a long time; altering its parallelism (or its upstream table's) fails until it is Created.
The pattern that avoids it: read `status` in rw_catalog.rw_materialized_views (or
rw_streaming_jobs) before altering, and wait (WAIT, or poll) until the job is Created.

What each release answers (the example reads which from `SELECT version()`):
  head, v3.0.3  the text above (v3.0.3 checks background jobs only, as here)
  v2.8.5        Cannot alter the job <id> because it is a non-reschedulable background backfill
                job (only the creating job itself is refused, not its upstream,
                whose reschedule the barrier refuses instead: `cannot reschedule when
                creating streaming job with snapshot backfill`)
The create here is a background one: with a foreground create running (another session),
head refuses the ALTER at once with the text above, while v3.0.3 and v2.8.5 make the ALTER
wait for the create to finish, then run it.
Once Created the ALTER succeeds on each; rw_streaming_jobs shows the parallelism as `2`
(head, v3.0.3) or `FIXED(2)` (v2.8.5).

Run: RWSHIM_DSN='host=127.0.0.1 port=4566 user=root dbname=dev' python 01_alter_while_creating.py
Exits 0 only when the error and the fix both behaved as described.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time

import asyncpg

DSN = os.environ.get("RWSHIM_DSN", "host=127.0.0.1 port=4566 user=root dbname=dev")
EXPECTED = (
    "Failed to run the query\n\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: gRPC request to meta service (call `/ddl_service.DdlService/AlterParallelism`) failed: "
    "Internal error\n"
    "  2: Cannot alter the job {job} because {why}\n"
)
WHY = {
    "head": "it is blocked by creating unreschedulable backfill jobs",
    "3.0": "it is blocked by creating unreschedulable backfill jobs",
    "2.8": "it is a non-reschedulable background backfill job",
}
PARALLELISM_2 = {"head": "2", "3.0": "2", "2.8": "FIXED(2)"}


def release_of(version: str) -> str:
    """`3.0` or `2.8` from version()'s `...-RisingWave-3.0.3 (...)`, else `head`."""
    m = re.search(r"-RisingWave-(\d+\.\d+)\.", version)
    return m.group(1) if m and m.group(1) in ("3.0", "2.8") else "head"


def connect_args(dsn: str) -> dict[str, str]:
    """asyncpg takes URLs or keywords: turn a libpq key=value string into keywords."""
    if "://" in dsn:
        return {"dsn": dsn}
    args = dict(item.split("=", 1) for item in dsn.split())
    if "dbname" in args:
        args["database"] = args.pop("dbname")
    return args


async def main() -> int:
    conn = await asyncpg.connect(**connect_args(DSN))
    try:
        release = release_of(await conn.fetchval("SELECT version()"))
        print(f"answering as: {release}")
        await conn.execute("DROP MATERIALIZED VIEW IF EXISTS ex1_totals")
        await conn.execute("DROP TABLE IF EXISTS ex1_orders")
        await conn.execute("CREATE TABLE ex1_orders (id int, amount int)")
        await conn.execute("INSERT INTO ex1_orders SELECT g, g % 7 FROM generate_series(1, 1000) g")
        # A background create returns at once; a backfill rate limit keeps it Creating.
        await conn.execute("SET background_ddl = true")
        await conn.execute("SET backfill_rate_limit = 1")
        await conn.execute("CREATE MATERIALIZED VIEW ex1_totals AS SELECT * FROM ex1_orders")
        job = await conn.fetchval(
            "SELECT id FROM rw_catalog.rw_materialized_views WHERE name = 'ex1_totals'"
        )

        # 1. The error: the job is still backfilling.
        try:
            await conn.execute("ALTER MATERIALIZED VIEW ex1_totals SET PARALLELISM = 2")
        except asyncpg.PostgresError as e:
            got = (e.sqlstate, str(e))
            if got != ("XX000", EXPECTED.format(job=job, why=WHY[release])):
                print(f"unexpected error: {got!r}")
                return 1
            print(f"reproduced error 1:\n{str(e).rstrip()}\n")
        else:
            print("the ALTER succeeded while the job was Creating: error 1 not reproduced")
            return 1

        # 2. The pattern: check the status, let the backfill finish, poll until Created.
        status = await conn.fetchval(
            "SELECT status FROM rw_catalog.rw_materialized_views WHERE id = $1", job
        )
        print(f"status before altering: {status}")
        if status != "Creating":
            return 1
        await conn.execute("ALTER MATERIALIZED VIEW ex1_totals SET BACKFILL_RATE_LIMIT = DEFAULT")
        deadline = time.monotonic() + 30
        while status != "Created":
            if time.monotonic() > deadline:
                print("the job did not finish")
                return 1
            await asyncio.sleep(0.2)
            status = await conn.fetchval(
                "SELECT status FROM rw_catalog.rw_materialized_views WHERE id = $1", job
            )
        result = await conn.execute("ALTER MATERIALIZED VIEW ex1_totals SET PARALLELISM = 2")
        parallelism = await conn.fetchval(
            "SELECT parallelism FROM rw_catalog.rw_streaming_jobs WHERE id = $1", job
        )
        print(f"once Created: {result}, parallelism now {parallelism}")
        if (result, parallelism) != ("ALTER_MATERIALIZED_VIEW", PARALLELISM_2[release]):
            return 1
        await conn.execute("DROP MATERIALIZED VIEW ex1_totals")
        await conn.execute("DROP TABLE ex1_orders")
        return 0
    finally:
        await conn.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
