"""rwshim-only runs: latency against the number of jobs, memory, and start-up time.

The catalog is grown to each size with materialized views over one table (`bench_base`); the
probed statements work on objects of their own (`bench_probe_t` and its MVs), so a probe measures
how the *catalog* size weighs on it, not the fan-out of a shared upstream.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg

from bench import pgbench
from bench.report import MemoryResult, Population, Probe, ScaleResult, Series
from bench.servers import BenchError, Rwshim, Target, one_line, rss_kib

SCALE_MV = "bench_scale_mv_{}"


@dataclass(frozen=True, slots=True)
class ProbeSpec:
    name: str
    statement: str  # the line of the script whose latency is the figure
    script: str
    reset: tuple[str, ...] = ()
    # Run a fixed number of transactions instead of for a duration: pgbench -T may end a
    # script between its statements, and a CREATE that takes a barrier (~1 s) would leave the
    # DROP after it unmeasured.
    fixed_count: bool = False


PROBES = (
    ProbeSpec(
        "alter_parallelism",
        "ALTER MATERIALIZED VIEW bench_probe_mv SET PARALLELISM = :p;",
        "\\set p random(1, 4)\nALTER MATERIALIZED VIEW bench_probe_mv SET PARALLELISM = :p;\n",
    ),
    ProbeSpec(
        "catalog_query",
        "SELECT id, name, status, parallelism FROM rw_catalog.rw_streaming_jobs "
        "WHERE name = 'bench_scale_mv_5';",
        "SELECT id, name, status, parallelism FROM rw_catalog.rw_streaming_jobs "
        "WHERE name = 'bench_scale_mv_5';\n",
    ),
    ProbeSpec("show_jobs", "SHOW JOBS;", "SHOW JOBS;\n"),
    ProbeSpec(
        "create_mv",
        "CREATE MATERIALIZED VIEW bench_probe_new AS SELECT v FROM bench_probe_t;",
        "CREATE MATERIALIZED VIEW bench_probe_new AS SELECT v FROM bench_probe_t;\n"
        "DROP MATERIALIZED VIEW bench_probe_new;\n",
        ("DROP MATERIALIZED VIEW IF EXISTS bench_probe_new",),
        fixed_count=True,
    ),
    ProbeSpec(
        "drop_mv",
        "DROP MATERIALIZED VIEW bench_probe_new;",
        "CREATE MATERIALIZED VIEW bench_probe_new AS SELECT v FROM bench_probe_t;\n"
        "DROP MATERIALIZED VIEW bench_probe_new;\n",
        ("DROP MATERIALIZED VIEW IF EXISTS bench_probe_new",),
        fixed_count=True,
    ),
)

SCALE_SETUP = (
    "CREATE TABLE bench_base (v int)",
    "CREATE TABLE bench_probe_t (v int)",
    "CREATE MATERIALIZED VIEW bench_probe_mv AS SELECT v FROM bench_probe_t",
)


def sql_error(e: Exception) -> str:
    """The server's message of a failed statement, on one line."""
    if isinstance(e, psycopg.Error) and e.diag.message_primary:
        return one_line(e.diag.message_primary)
    return one_line(str(e)) or type(e).__name__


def execute(target: Target, statements: list[str] | tuple[str, ...]) -> None:
    """Run statements one by one on a fresh connection; raise BenchError on the first failure."""
    if not statements:
        return
    try:
        with target.connect() as conn:
            for s in statements:
                conn.execute(s.encode())
    except psycopg.Error as e:
        raise BenchError(sql_error(e)) from e


def populate(
    conn: psycopg.Connection[tuple[object, ...]],
    start: int,
    end: int,
    batch: int,
    deadline: float,
) -> int:
    """Create MVs start..end (inclusive), `batch` CREATEs per simple-protocol Query message.

    Returns the last index created: `end`, or less when the deadline passed first.
    IF NOT EXISTS keeps a batch idempotent: when a multi-statement batch fails, it is retried one
    statement at a time, and only an error of a single statement is reported.
    """

    def create(i: int) -> str:
        name = SCALE_MV.format(i)
        return f"CREATE MATERIALIZED VIEW IF NOT EXISTS {name} AS SELECT v FROM bench_base"

    for lo in range(start, end + 1, batch):
        hi = min(end, lo + batch - 1)
        try:
            conn.execute(";\n".join(create(i) for i in range(lo, hi + 1)).encode())
        except psycopg.Error:
            for i in range(lo, hi + 1):
                try:
                    conn.execute(create(i).encode())
                except psycopg.Error as e:
                    raise BenchError(f"creating MV {i}: {sql_error(e)}") from e
        if time.perf_counter() > deadline:
            return hi
    return end


def wait_background(conn: psycopg.Connection[tuple[object, ...]], budget_s: float) -> str:
    """Wait for background jobs (RisingWave's WAIT); return how, for the report.

    A WAIT still running when the budget is spent (at least 30 s are granted) is cancelled
    (CancelRequest), so a slow backfill cannot hang the harness.
    """
    timer = threading.Timer(max(budget_s, 30.0), conn.cancel_safe)
    timer.start()
    try:
        conn.execute(b"WAIT")
        return "background DDL + WAIT"
    except psycopg.Error as e:
        return f"background DDL, WAIT failed: {sql_error(e)}"
    finally:
        timer.cancel()


def use_background_ddl(conn: psycopg.Connection[tuple[object, ...]]) -> bool:
    """Background DDL makes CREATE return without waiting for backfill, when rwshim has it."""
    try:
        conn.execute(b"SET background_ddl = true")
        return True
    except psycopg.Error:
        return False


def grow(
    conn: psycopg.Connection[tuple[object, ...]],
    background: bool,
    start: int,
    end: int,
    batch: int,
    deadline: float,
) -> tuple[int, str]:
    """Create MVs start..end and wait until they are created.

    Returns the last index created (less than `end` when the deadline passed) and how, for the
    report.
    """
    reached = populate(conn, start, end, batch, deadline)
    how = f"{batch} CREATEs per Query; "
    if not background:
        return reached, how + "foreground DDL"
    return reached, how + wait_background(conn, deadline - time.perf_counter())


def run_scale(
    server: Rwshim,
    counts: list[int],
    seconds: float,
    batch: int,
    budget_s: float,
    log: Callable[[str], None],
) -> ScaleResult:
    """Grow the catalog to each count and measure every probe there (pgbench -r, 1 client).

    When the population budget runs out, the probes run once more at the size reached, and the
    run ends there.
    """
    result = ScaleResult(requested=list(counts))
    probes = {p.name: Probe(p.name, p.statement) for p in PROBES}
    result.probes = list(probes.values())
    target = server.target
    try:
        execute(target, SCALE_SETUP)
    except BenchError as e:
        result.error = f"set-up failed: {e}"
        for p in result.probes:
            p.error = result.error
        return result
    deadline = time.perf_counter() + budget_s
    done = 0
    with target.connect() as conn:
        background = use_background_ddl(conn)
        for n in counts:
            t0 = time.perf_counter()
            try:
                reached, how = grow(conn, background, done + 1, n, batch, deadline)
            except BenchError as e:
                result.error = str(e)
                break
            if reached < n:
                result.error = (
                    f"population stopped at {reached:,} of {n:,} MVs: "
                    f"over its {budget_s:.0f} s budget"
                )
            done = n = reached
            result.counts.append(n)
            result.population.append(Population(n, time.perf_counter() - t0, how))
            result.rss_kib[n] = rss_kib(server.pid)
            log(f"scale: {n:,} MVs (+{result.population[-1].seconds:.1f} s)")
            for spec in PROBES:
                probe = probes[spec.name]
                if probe.error is not None:
                    continue
                try:
                    execute(target, spec.reset)
                    res = pgbench.run(
                        target,
                        spec.script,
                        seconds=seconds,
                        transactions=max(2, round(seconds)) if spec.fixed_count else None,
                        per_statement=True,
                    )
                    execute(target, spec.reset)
                except BenchError as e:
                    probe.error = str(e)
                    continue
                lat = res.statements.get(spec.statement)
                if not lat:
                    probe.error = f"pgbench reported no latency for {spec.statement!r}"
                else:
                    probe.latency_ms[n] = lat
            if result.error is not None:
                break
    return result


def run_memory(server: Rwshim, connections: int) -> MemoryResult:
    """RSS of an idle rwshim, then with `connections` idle connections open."""
    mem = MemoryResult(idle_connections=connections)
    conns: list[psycopg.Connection[tuple[object, ...]]] = []
    try:
        mem.rss_idle_kib = rss_kib(server.pid)
        for _ in range(connections):
            conns.append(server.target.connect())
        # Each connection has answered a query, so its session is fully set up.
        for c in conns:
            c.execute(b"SELECT 1").fetchall()
        time.sleep(0.2)
        mem.rss_connections_kib = rss_kib(server.pid)
    except (psycopg.Error, BenchError) as e:
        mem.error = sql_error(e)
    finally:
        for c in conns:
            c.close()
    return mem


def run_interpreter(times: int) -> Series:
    """Seconds to spawn and finish `python -c pass` with the Python that runs rwshim."""
    series = Series()
    for _ in range(times):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        series.runs.append(time.perf_counter() - t0)
    return series


def run_startup(times: int, dashboard: bool = False) -> Series:
    """Seconds from spawning rwshim to its first answered SELECT 1, over `times` fresh starts
    (with its web dashboard, as the CLI starts by default, when `dashboard`).

    One uncounted start comes first, so every counted one finds the bytecode cache written.
    """
    series = Series()
    for i in range(times + 1):
        with Rwshim(dashboard=dashboard) as srv:
            try:
                took = srv.start()
            except BenchError as e:
                series.fail(str(e))
                break
        if i > 0:
            series.runs.append(took)
    return series
