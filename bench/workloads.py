"""The side-by-side workloads: one pgbench script per server, with set-up and tear-down SQL.

Where rwshim and PostgreSQL differ (the catalog query, the DDL cycle) each gets the nearest
equivalent statement; README.md says which.  `core` marks the workloads that need only the wire
server's `SELECT 1` path: the quick-mode test requires those to produce figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RWSHIM = "rwshim"
POSTGRES = "postgres"
SERVERS = (RWSHIM, POSTGRES)
# The canned-reply server (bench/floor.py), run beside both for the SELECT 1 workloads.
FLOOR = "floor"
# The byte relay to PostgreSQL (bench/relay.py), run beside both for the point lookups: the
# least one extra Python hop can cost.
RELAY = "relay"

CATALOG_MVS = 10


@dataclass(frozen=True, slots=True)
class Workload:
    name: str
    title: str
    scripts: dict[str, str]
    clients: int = 1
    mode: str = "simple"
    connect_each: bool = False
    unit: str = "tps"
    core: bool = False
    # Also run on the canned-reply floor (SELECT 1 only: the floor answers nothing else).
    floor: bool = False
    # Also run through the byte relay to PostgreSQL (its figure goes in the floor column).
    relay: bool = False
    # rwshim with --data-dir (its meta store in a file, committed with fsync) instead of the
    # in-memory store.
    data_dir: bool = False
    # A fixed number of transactions per pgbench run (-t) instead of the run's seconds (-T):
    # for a transaction that takes seconds, such as the 100k-row INSERT.
    transactions: int | None = None
    # Run once before the rounds, after them, and before each pgbench run.
    setup: dict[str, list[str]] = field(default_factory=dict)
    teardown: dict[str, list[str]] = field(default_factory=dict)
    reset: dict[str, list[str]] = field(default_factory=dict)


def _same(sql: str) -> dict[str, str]:
    return {RWSHIM: sql, POSTGRES: sql}


def _catalog_setup(server: str) -> list[str]:
    stmts = ["CREATE TABLE bench_cat_t (v int)"]
    stmts += [
        f"CREATE MATERIALIZED VIEW bench_cat_mv_{i} AS SELECT v FROM bench_cat_t"
        for i in range(1, CATALOG_MVS + 1)
    ]
    if server == RWSHIM:
        # A foreground CREATE waits for its backfill (a barrier): create in the background and
        # WAIT once, so the set-up takes one barrier, not ten.
        stmts = ["SET background_ddl = true", *stmts, "WAIT"]
    return stmts


def _catalog_teardown() -> list[str]:
    stmts = [
        f"DROP MATERIALIZED VIEW IF EXISTS bench_cat_mv_{i}" for i in range(1, CATALOG_MVS + 1)
    ]
    return [*stmts, "DROP TABLE IF EXISTS bench_cat_t"]


CATALOG_SQL = {
    RWSHIM: (
        "SELECT id, name, status, parallelism FROM rw_catalog.rw_streaming_jobs "
        "WHERE name = 'bench_cat_mv_5';\n"
    ),
    POSTGRES: (
        "SELECT oid, relname, relkind, relpersistence FROM pg_catalog.pg_class "
        "WHERE relname = 'bench_cat_mv_5';\n"
    ),
}

# What psql 15 sends for \\d (describe.c listTables with "tvmsE"), the same on both servers.
PSQL_LIST = """SELECT n.nspname as "Schema",
  c.relname as "Name",
  CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' \
WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' WHEN 't' THEN 'TOAST table' \
WHEN 'f' THEN 'foreign table' WHEN 'p' THEN 'partitioned table' \
WHEN 'I' THEN 'partitioned index' END as "Type",
  pg_catalog.pg_get_userbyid(c.relowner) as "Owner"
FROM pg_catalog.pg_class c
     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam
WHERE c.relkind IN ('r','p','v','m','S','f','')
      AND n.nspname <> 'pg_catalog'
      AND n.nspname !~ '^pg_toast'
      AND n.nspname <> 'information_schema'
  AND pg_catalog.pg_table_is_visible(c.oid)
ORDER BY 1,2;
"""

# One cycle is a pgbench transaction.  PostgreSQL has no parallelism to alter: its nearest
# statement sets the matview's `parallel_workers` storage parameter (a catalog update too).
_T = "bench_ddl_t_:client_id"
_MV = "bench_ddl_mv_:client_id"


def _cycle(alter: str) -> str:
    return "".join(
        f"{stmt};\n"
        for stmt in (
            f"CREATE TABLE {_T} (v int)",
            f"CREATE MATERIALIZED VIEW {_MV} AS SELECT v FROM {_T}",
            f"ALTER MATERIALIZED VIEW {_MV} {alter}",
            f"DROP MATERIALIZED VIEW {_MV}",
            f"DROP TABLE {_T}",
        )
    )


DDL_CYCLE = {RWSHIM: _cycle("SET PARALLELISM = 2"), POSTGRES: _cycle("SET (parallel_workers = 2)")}
DDL_CLEANUP = [
    "DROP MATERIALIZED VIEW IF EXISTS bench_ddl_mv_0",
    "DROP TABLE IF EXISTS bench_ddl_t_0",
]


# User data (issue 16): on rwshim these rows live in its PostgreSQL data plane, one hop away.
KV_ROWS = 10_000
_KV_SETUP = [
    "DROP TABLE IF EXISTS bench_kv",
    "CREATE TABLE bench_kv (k int PRIMARY KEY, v varchar)",
    f"INSERT INTO bench_kv SELECT g, 'v' || g FROM generate_series(1, {KV_ROWS}) AS g",
]
PK_LOOKUP = _same(f"\\set k random(1, {KV_ROWS})\nSELECT v FROM bench_kv WHERE k = :k;\n")
INSERT_ROWS = 100_000
_INS_SETUP = [
    "DROP TABLE IF EXISTS bench_ins",
    "CREATE TABLE bench_ins (k int PRIMARY KEY, v int, w varchar)",
]
INSERT_100K = _same(
    "INSERT INTO bench_ins SELECT g, g * 2, 'x' || g "
    f"FROM generate_series(1, {INSERT_ROWS}) AS g;\n"
)


def _user_data_workloads() -> list[Workload]:
    out = [
        Workload(
            name=f"pk-lookup-{mode}-c1",
            title=f"point lookup by primary key ({KV_ROWS:,} rows), {mode} protocol, 1 client",
            scripts=PK_LOOKUP,
            mode=mode,
            relay=True,
            # RisingWave's INSERT is visible after FLUSH; PostgreSQL's at once.
            setup={RWSHIM: [*_KV_SETUP, "FLUSH"], POSTGRES: _KV_SETUP},
            teardown=_same_list(["DROP TABLE IF EXISTS bench_kv"]),
        )
        for mode in ("simple", "prepared")
    ]
    out.append(
        Workload(
            name="insert-100k-pk-c1",
            title=f"INSERT ... SELECT of {INSERT_ROWS:,} rows into a table with a primary key",
            scripts=INSERT_100K,
            unit="statements/s",
            transactions=1,
            setup=_same_list(_INS_SETUP),
            # Each run inserts into an empty table (RisingWave has no TRUNCATE).
            reset={RWSHIM: ["DELETE FROM bench_ins", "FLUSH"], POSTGRES: ["TRUNCATE bench_ins"]},
            teardown=_same_list(["DROP TABLE IF EXISTS bench_ins"]),
        )
    )
    return out


def _same_list(stmts: list[str]) -> dict[str, list[str]]:
    return {RWSHIM: stmts, POSTGRES: stmts}


def all_workloads() -> list[Workload]:
    out: list[Workload] = []
    for clients in (1, 8):
        for mode in ("simple", "extended", "prepared"):
            out.append(
                Workload(
                    name=f"select1-{mode}-c{clients}",
                    title=f"SELECT 1, {mode} protocol, {clients} client(s)",
                    scripts=_same("SELECT 1;\n"),
                    clients=clients,
                    mode=mode,
                    core=True,
                    floor=True,
                )
            )
    for mode in ("simple", "extended"):
        out.append(
            Workload(
                name=f"catalog-{mode}-c1",
                title=f"catalog lookup by name ({CATALOG_MVS} MVs), {mode} protocol, 1 client",
                scripts=CATALOG_SQL,
                mode=mode,
                setup={RWSHIM: _catalog_setup(RWSHIM), POSTGRES: _catalog_setup(POSTGRES)},
                teardown={RWSHIM: _catalog_teardown(), POSTGRES: _catalog_teardown()},
            )
        )
    out.append(
        Workload(
            name="psql-list-c1",
            title=f"psql's \\d list query ({CATALOG_MVS} MVs), simple protocol, 1 client",
            scripts=_same(PSQL_LIST),
            setup={RWSHIM: _catalog_setup(RWSHIM), POSTGRES: _catalog_setup(POSTGRES)},
            teardown={RWSHIM: _catalog_teardown(), POSTGRES: _catalog_teardown()},
        )
    )
    for data_dir in (False, True):
        out.append(
            Workload(
                name="ddl-cycle-datadir-c1" if data_dir else "ddl-cycle-c1",
                title="DDL cycle (create table, create MV, alter parallelism, drop, drop), "
                + ("1 client, rwshim --data-dir" if data_dir else "1 client"),
                scripts=DDL_CYCLE,
                unit="cycles/s",
                data_dir=data_dir,
                # A run that failed mid-cycle must leave no objects for the next run.
                reset={RWSHIM: DDL_CLEANUP, POSTGRES: DDL_CLEANUP},
                teardown={RWSHIM: DDL_CLEANUP, POSTGRES: DDL_CLEANUP},
            )
        )
    # after the DDL cycles: they start rwshim's data plane, which the cycle would then pay for
    out.extend(_user_data_workloads())
    for clients in (1, 8):
        out.append(
            Workload(
                name=f"connect-c{clients}",
                title=f"connection set-up + SELECT 1 (pgbench -C), {clients} client(s)",
                scripts=_same("SELECT 1;\n"),
                clients=clients,
                connect_each=True,
                unit="connections/s",
                core=True,
            )
        )
    return out
