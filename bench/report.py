"""Figures of a benchmark run: medians, ratios, the machine, the printed table and the JSON file.

A figure that could not be measured carries the reason instead ("not available: <error>").
"""

from __future__ import annotations

import json
import os
import platform
import statistics
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


@dataclass(slots=True)
class Series:
    """Repeated measurements of one figure on one server (or why there are none)."""

    runs: list[float] = field(default_factory=list)
    error: str | None = None

    @property
    def median(self) -> float | None:
        return statistics.median(self.runs) if self.runs and self.error is None else None

    def fail(self, error: str) -> None:
        if self.error is None:
            self.error = error

    def to_json(self) -> dict[str, Any]:
        return {"runs": self.runs, "median": self.median, "error": self.error}


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


@dataclass(slots=True)
class WorkloadResult:
    name: str
    title: str
    unit: str
    core: bool
    rwshim: Series = field(default_factory=Series)
    postgres: Series = field(default_factory=Series)
    # The floor's figures, for the workloads that have one (else None): the canned-reply
    # server (SELECT 1) or the byte relay to PostgreSQL (the point lookups), per floor_kind.
    floor: Series | None = None
    floor_kind: str = ""

    @property
    def ratio(self) -> float | None:
        """rwshim / PostgreSQL of the medians (higher is better for rates)."""
        return ratio(self.rwshim.median, self.postgres.median)

    @property
    def floor_ratio(self) -> float | None:
        """rwshim / the floor of the medians."""
        return None if self.floor is None else ratio(self.rwshim.median, self.floor.median)

    @property
    def spread(self) -> float | None:
        """The larger spread (max / min - 1) of rwshim's and PostgreSQL's runs: how far the
        runs of a workload moved on a machine other work shares."""
        spreads = [
            max(s.runs) / min(s.runs) - 1
            for s in (self.rwshim, self.postgres)
            if s.runs and min(s.runs) > 0
        ]
        return max(spreads) if spreads else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "unit": self.unit,
            "core": self.core,
            "rwshim": self.rwshim.to_json(),
            "postgres": self.postgres.to_json(),
            "ratio": self.ratio,
            "floor": self.floor.to_json() if self.floor is not None else None,
            "floor_kind": self.floor_kind or None,
            "floor_ratio": self.floor_ratio,
            "spread": self.spread,
        }


@dataclass(slots=True)
class Probe:
    """Latency (ms) of one statement at each catalog size, and largest/smallest."""

    name: str
    statement: str
    latency_ms: dict[int, float] = field(default_factory=dict)
    error: str | None = None

    @property
    def ratio(self) -> float | None:
        if self.error is not None or len(self.latency_ms) < 2:
            return None
        sizes = sorted(self.latency_ms)
        return ratio(self.latency_ms[sizes[-1]], self.latency_ms[sizes[0]])

    def to_json(self) -> dict[str, Any]:
        return {
            "statement": self.statement,
            "latency_ms": {str(k): v for k, v in self.latency_ms.items()},
            "ratio": self.ratio,
            "error": self.error,
        }


@dataclass(slots=True)
class Population:
    count: int
    seconds: float
    strategy: str


@dataclass(slots=True)
class ScaleResult:
    # The catalog sizes asked for, and those reached and measured.
    requested: list[int]
    counts: list[int] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    population: list[Population] = field(default_factory=list)
    rss_kib: dict[int, int] = field(default_factory=dict)
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "requested": self.requested,
            "counts": self.counts,
            "probes": {p.name: p.to_json() for p in self.probes},
            "population": [asdict(p) for p in self.population],
            "rss_kib": {str(k): v for k, v in self.rss_kib.items()},
            "error": self.error,
        }


@dataclass(slots=True)
class MemoryResult:
    idle_connections: int
    rss_idle_kib: int | None = None
    rss_connections_kib: int | None = None
    error: str | None = None


@dataclass(slots=True)
class Report:
    mode: str
    seconds: float
    rounds: int
    machine: dict[str, str]
    date: str = field(default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))
    workloads: list[WorkloadResult] = field(default_factory=list)
    scale: ScaleResult | None = None
    memory: MemoryResult | None = None
    startup: Series = field(default_factory=Series)
    # The same with the web dashboard on (the CLI's default).
    startup_dashboard: Series = field(default_factory=Series)
    # The same measure for a bare `python -c pass`: the floor no Python server can go under.
    interpreter_s: Series = field(default_factory=Series)
    notes: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    rwshim_args: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "date": self.date,
            "mode": self.mode,
            "seconds_per_run": self.seconds,
            "rounds": self.rounds,
            "machine": self.machine,
            "workloads": [w.to_json() for w in self.workloads],
            "scale": self.scale.to_json() if self.scale else None,
            "memory": asdict(self.memory) if self.memory else None,
            "startup_s": self.startup.to_json(),
            "startup_dashboard_s": self.startup_dashboard.to_json(),
            "interpreter_start_s": self.interpreter_s.to_json(),
            "rwshim_args": self.rwshim_args,
            "notes": self.notes,
            "elapsed_s": self.elapsed_s,
        }

    def write_json(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n")


def machine(pg_version: str = "") -> dict[str, str]:
    """nproc, CPU model, memory, and the software measured."""
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem_kib = next(
            int(ln.split()[1])
            for ln in Path("/proc/meminfo").read_text().splitlines()
            if ln.startswith("MemTotal:")
        )
        mem = f"{mem_kib / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        mem = "unknown"
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = "unknown"
    return {
        "nproc": str(os.cpu_count() or 0),
        # Other work on the machine moves absolute figures; ratios within one run hold better.
        "loadavg_at_start": load,
        "cpu": cpu,
        "memory": mem,
        "kernel": platform.release(),
        "python": platform.python_version(),
        "postgres": pg_version,
    }


def _num(v: float | None, unit: str = "") -> str:
    if v is None:
        return "-"
    text = f"{v:,.0f}" if v >= 100 else f"{v:,.2f}" if v >= 1 else f"{v:.3f}"
    return f"{text}{unit}"


def _why(error: str | None) -> str:
    return f"not available: {error}" if error else ""


_FLOOR_KINDS = {
    "canned": "canned = a Python server answering SELECT 1 without reading the query",
    "relay": "relay = a Python byte pipe to PostgreSQL's unix socket, reading nothing",
}


def format_text(rep: Report) -> str:
    """The printed summary: one line per figure, rwshim/PostgreSQL ratios, then the reasons."""
    m = rep.machine
    out = [
        f"rwshim vs PostgreSQL {m.get('postgres', '')} - {rep.mode} mode, {rep.date}",
        f"machine: {m['nproc']} CPUs ({m['cpu']}), {m['memory']}, Python {m['python']}, "
        f"load average at start {m.get('loadavg_at_start', '?')}",
        f"pgbench: {rep.rounds} round(s) A B per workload, {rep.seconds:g} s per run, medians"
        + (f"; rwshim started with {' '.join(rep.rwshim_args)}" if rep.rwshim_args else ""),
        "",
        f"{'workload':<22} {'unit':<14} {'rwshim':>10} {'postgres':>10} {'ratio':>7}"
        f" {'floor':>10} {'rw/floor':>8} {'spread':>7}",
    ]
    for w in rep.workloads:
        floor = w.floor.median if w.floor is not None else None
        spread = f"{w.spread:.0%}" if w.spread is not None else "-"
        out.append(
            f"{w.name:<22} {w.unit:<14} {_num(w.rwshim.median):>10} "
            f"{_num(w.postgres.median):>10} {_num(w.ratio):>7}"
            f" {_num(floor):>10} {_num(w.floor_ratio):>8} {spread:>7}"
        )
        series = [("rwshim", w.rwshim), ("postgres", w.postgres)]
        if w.floor is not None:
            series.append((w.floor_kind or "floor", w.floor))
        for label, s in series:
            if s.error:
                out.append(f"    {label}: {_why(s.error)}")
    kinds = {w.floor_kind for w in rep.workloads if w.floor is not None}
    if kinds:
        out.append("floor: " + "; ".join(_FLOOR_KINDS[k] for k in sorted(kinds) if k))
    for w in rep.workloads:
        if w.floor_kind == "relay" and w.floor is not None:
            hop = ratio(w.floor.median, w.postgres.median)
            out.append(f"    {w.name}: relay / postgres {_num(hop)} (one Python hop, no work)")
    if rep.scale is not None:
        sc = rep.scale
        out += ["", "scale (rwshim; latency in ms at each number of materialized views)"]
        out.append(
            f"{'statement':<22} "
            + " ".join(f"{n:>10,}" for n in sc.counts)
            + f" {'last/first':>10}"
        )
        for p in sc.probes:
            cells = " ".join(f"{_num(p.latency_ms.get(n)):>10}" for n in sc.counts)
            out.append(f"{p.name:<22} {cells} {_num(p.ratio):>10}")
            if p.error:
                out.append(f"    {_why(p.error)}")
        rss = " ".join(
            f"{_num(sc.rss_kib[n] / 1024) if n in sc.rss_kib else '-':>10}" for n in sc.counts
        )
        out.append(f"{'rss (MiB)':<22} {rss}")
        for pop in sc.population:
            out.append(f"populated to {pop.count:,} MVs in {pop.seconds:.2f} s ({pop.strategy})")
        if sc.error:
            out.append(f"    {_why(sc.error)}")
    if rep.memory is not None:
        mem = rep.memory
        idle = mem.rss_idle_kib / 1024 if mem.rss_idle_kib else None
        conns = mem.rss_connections_kib / 1024 if mem.rss_connections_kib else None
        out += [
            "",
            f"rss idle: {_num(idle, ' MiB')}; with {mem.idle_connections} idle connections: "
            f"{_num(conns, ' MiB')}",
        ]
        if mem.error:
            out.append(f"    {_why(mem.error)}")
    st = rep.startup
    runs = ", ".join(f"{r * 1000:.0f}" for r in st.runs)
    med = st.median
    if st.runs or st.error:
        out.append(
            f"start-up to first SELECT 1: median {_num(med * 1000 if med else None, ' ms')} "
            f"(runs, ms: {runs or '-'})"
        )
    if st.error:
        out.append(f"    {_why(st.error)}")
    sd = rep.startup_dashboard
    if sd.runs or sd.error:
        med = sd.median
        out.append(
            "start-up with the web dashboard (the CLI default): median "
            f"{_num(med * 1000 if med else None, ' ms')}"
            + (f"; {_why(sd.error)}" if sd.error else "")
        )
    base = rep.interpreter_s.median
    if base is not None:
        out.append(f"bare interpreter start (python -c pass): median {base * 1000:.0f} ms")
    out += [f"note: {n}" for n in rep.notes]
    out.append(f"elapsed: {rep.elapsed_s:.0f} s")
    return "\n".join(out)
