"""Side-by-side benchmarks of rwshim against PostgreSQL 15: `python bench/run.py [--quick|--full]`.

Starts rwshim and a throwaway PostgreSQL, runs each pgbench workload on both alternately
(A B A B ...), prints medians and rwshim/PostgreSQL ratios, then the rwshim-only scale, memory
and start-up runs.  A figure rwshim cannot produce yet is reported as "not available: <error>".
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

if __package__ in (None, ""):
    # Run as a script: make `bench` importable from the checkout.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import pgbench
from bench.report import Report, Series, WorkloadResult, format_text, machine
from bench.scale import execute, run_interpreter, run_memory, run_scale, run_startup
from bench.servers import BenchError, Floor, Postgres, Relay, Rwshim, Target
from bench.workloads import FLOOR, POSTGRES, RELAY, RWSHIM, SERVERS, Workload, all_workloads


@dataclass(frozen=True, slots=True)
class Settings:
    mode: str
    seconds: float
    rounds: int
    scale_counts: tuple[int, ...]
    probe_seconds: float
    populate_batch: int
    populate_budget_s: float
    startups: int
    idle_connections: int = 100


QUICK = Settings("quick", 1, 1, (10, 1000), 1, 250, 40, 3)
FULL = Settings("full", 4, 3, (10, 1000, 10000), 3, 250, 180, 7)


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Runner:
    """Holds both servers; restarts rwshim if a workload killed it."""

    def __init__(
        self,
        settings: Settings,
        rw: Rwshim,
        pg: Postgres,
        report: Report,
        floor: Floor | None = None,
        rw_data_dir: Rwshim | None = None,
        relay: Relay | None = None,
    ) -> None:
        self.s = settings
        self.mem = rw
        self.rw = rw
        self.pg = pg
        self.floor = floor
        self.relay = relay
        self.disk = rw_data_dir
        self.report = report
        self.rw_error: str | None = None

    def target(self, server: str) -> Target:
        if server == FLOOR:
            assert self.floor is not None
            return self.floor.target
        if server == RELAY:
            assert self.relay is not None
            return self.relay.target
        return self.rw.target if server == RWSHIM else self.pg.target

    def ensure_rwshim(self) -> None:
        """Start rwshim on first use, and again if a workload killed it (a failed start sticks)."""
        if self.rw_error or (self.rw.proc is not None and self.rw.proc.poll() is None):
            return
        if self.rw.proc is not None:
            note = f"rwshim exited ({self.rw.log_tail(1)}); restarted"
            self.report.notes.append(note)
            log(note)
            self.rw.stop()
        try:
            self.rw.start()
        except BenchError as e:
            self.rw_error = f"rwshim did not start: {e}"

    def workload(self, w: Workload) -> WorkloadResult:
        res = WorkloadResult(w.name, w.title, w.unit, w.core)
        series = {RWSHIM: res.rwshim, POSTGRES: res.postgres}
        servers: tuple[str, ...] = SERVERS
        if w.floor and self.floor is not None:
            res.floor = series[FLOOR] = Series()
            servers = (*SERVERS, FLOOR)
            res.floor_kind = "canned"
        elif w.relay and self.relay is not None:
            res.floor = series[RELAY] = Series()
            servers = (*SERVERS, RELAY)
            res.floor_kind = "relay"
        if w.data_dir and self.disk is not None:
            self.rw, self.rw_error = self.disk, None
        try:
            return self._workload(w, res, series, servers)
        finally:
            if self.rw is not self.mem:
                self.rw.stop()
                self.rw, self.rw_error = self.mem, None

    def _workload(
        self, w: Workload, res: WorkloadResult, series: dict[str, Series], servers: tuple[str, ...]
    ) -> WorkloadResult:
        self.ensure_rwshim()
        if self.rw_error:
            res.rwshim.fail(self.rw_error)
        for server in SERVERS:
            if series[server].error is None:
                try:
                    execute(self.target(server), w.setup.get(server, []))
                except BenchError as e:
                    series[server].fail(f"set-up failed: {e}")
        for server in servers:
            self.warm_up(w, server, series[server])
        for _ in range(self.s.rounds):
            for server in servers:
                self.one_run(w, server, series[server])
        for server in SERVERS:
            try:
                if server == POSTGRES or self.rw.proc is not None:
                    execute(self.target(server), w.teardown.get(server, []))
            except BenchError as e:
                log(f"{w.name}: tear-down on {server} failed: {e}")
        return res

    def warm_up(self, w: Workload, server: str, series: Series) -> None:
        """One uncounted transaction first: what a server does once (rwshim's first DDL
        imports its parser and binder, its first data statement starts the data plane's
        PostgreSQL) is not measured as the workload's rate.  Its errors show in the runs."""
        if series.error is not None or w.connect_each:
            return
        try:
            execute(self.target(server), w.reset.get(server, []))
            pgbench.run(
                self.target(server),
                w.scripts.get(server, w.scripts[RWSHIM]),
                clients=1,
                mode=w.mode,
                transactions=1,
            )
        except BenchError:
            pass

    def one_run(self, w: Workload, server: str, series: Series) -> None:
        if series.error is not None:
            return
        try:
            execute(self.target(server), w.reset.get(server, []))
            r = pgbench.run(
                self.target(server),
                w.scripts.get(server, w.scripts[RWSHIM]),
                clients=w.clients,
                mode=w.mode,
                seconds=self.s.seconds,
                transactions=w.transactions,
                connect_each=w.connect_each,
            )
            series.runs.append(r.tps)
        except BenchError as e:
            series.fail(str(e))


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="a few seconds per workload (CI)")
    g.add_argument("--full", action="store_true", help="the full run, under ten minutes")
    ap.add_argument("--json", type=Path, help="write the figures to this file")
    ap.add_argument("--only", help="run only workloads whose name contains this text")
    ap.add_argument("--no-scale", action="store_true", help="skip the scale/memory/start-up runs")
    ap.add_argument(
        "--rwshim-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="pass ARG to every rwshim started (repeatable), e.g. --rwshim-arg=--no-uvloop",
    )
    args = ap.parse_args(argv)
    # SIGTERM unwinds like Ctrl-C, so the servers are stopped and their directories deleted.
    signal.signal(signal.SIGTERM, _terminate)
    Rwshim.extra_args = tuple(args.rwshim_arg)
    try:
        report = run(QUICK if args.quick else FULL, args.only, not args.no_scale)
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 2
    print(format_text(report))
    if args.json:
        report.write_json(args.json)
    return 0


def run(s: Settings, only: str | None, scale: bool) -> Report:
    """Every workload on both servers, then (if `scale`) the rwshim-only runs."""
    t0 = time.perf_counter()
    with (
        Postgres() as pg,
        Rwshim() as rw,
        Rwshim(data_dir=True) as disk,
        Floor() as floor,
        Relay(pg) as relay,
    ):
        log("starting PostgreSQL")
        pg.start()
        report = Report(
            mode=s.mode, seconds=s.seconds, rounds=s.rounds, machine=machine(pg.version)
        )
        try:
            floor.start()
        except BenchError as e:
            report.notes.append(f"no floor figures: {e}")
        try:
            relay.start()
        except BenchError as e:
            report.notes.append(f"no relay figures: {e}")
        runner = Runner(
            s, rw, pg, report, floor if floor.proc else None, disk, relay if relay.proc else None
        )
        for w in all_workloads():
            if only and only not in w.name:
                continue
            log(f"workload {w.name}")
            report.workloads.append(runner.workload(w))
        rw.stop()
        pg.close()

    if scale:
        log("start-up runs")
        report.startup = run_startup(s.startups)
        report.startup_dashboard = run_startup(s.startups, dashboard=True)
        report.interpreter_s = run_interpreter(s.startups)
        with Rwshim() as srv:
            try:
                srv.start()
                log("memory with idle connections")
                report.memory = run_memory(srv, s.idle_connections)
                log("scale runs")
                report.scale = run_scale(
                    srv,
                    list(s.scale_counts),
                    s.probe_seconds,
                    s.populate_batch,
                    s.populate_budget_s,
                    log,
                )
            except BenchError as e:
                report.notes.append(f"scale and memory runs not available: {e}")

    report.elapsed_s = time.perf_counter() - t0
    return report


if __name__ == "__main__":
    sys.exit(main())
