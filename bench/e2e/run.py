"""Run RisingWave's own sqllogictest files against rwshim (or any PostgreSQL-wire server) and
tabulate how many records pass (GitHub issue 12).

    python bench/e2e/run.py --mirror <RisingWave git dir>
    python bench/e2e/run.py --mirror <git dir> basic types        # e2e_test/batch/<dir>/
    python bench/e2e/run.py --mirror <git dir> --dsn "host=/tmp/pg dbname=postgres"
    python bench/e2e/run.py --dir some/dir file.slt               # files on disk
    python bench/e2e/run.py --summary bench/results/<run>.jsonl [--per-file]
    python bench/e2e/run.py --compare old.jsonl new.jsonl     # exit 1 if any silently wrong

The files are read from the git tree at run time (never copied here).  Each file runs on its
own in a worker process against a database that starts empty; the per-record results go to a
JSON-lines file in bench/results/ and the summary is printed.
"""

from __future__ import annotations

import argparse
import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.e2e import report, slt
from bench.e2e.executor import Result
from bench.e2e.judge import RUNNER_ERROR, Verdict

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results"
DEFAULT_DIRS = ("basic", "types", "functions", "aggregate")
# RisingWave's e2e_test/batch/local_mode.slt runs this before including the batch files.
DEFAULT_PREAMBLE = ("SET RW_IMPLICIT_FLUSH TO true",)


def log(msg: str) -> None:
    print(f"[e2e {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def select_files(files: list[str], specs: list[str], mirror: bool) -> list[str]:
    """`basic` means e2e_test/batch/basic/ in a mirror; otherwise a file or a directory."""
    chosen: list[str] = []
    for spec in specs:
        spec = spec.strip("/")
        short = mirror and "/" not in spec and not spec.startswith("e2e_test")
        if short:
            spec = f"e2e_test/batch/{spec}"
        # A directory runs its `*.slt` files as RisingWave's CI does (`risedev slt
        # './e2e_test/streaming/**/*.slt'`, ci/scripts/e2e-test-serial.sh:100): a `.slt.part`
        # runs through the files that include it, a `.slt.disabled` / `.slt.bug` not at all.
        # A short name (`basic`: e2e_test/batch/basic, whose parts e2e_test/batch/*.slt
        # include after the preamble this runner gives, DEFAULT_PREAMBLE) runs its parts too,
        # except those another chosen file includes (`included_parts`).  A file named on its
        # own runs whatever it is.
        kinds = (".slt", ".part") if short else (".slt",)
        under = [f for f in files if f.startswith(spec + "/") and f.endswith(kinds)]
        hits = [spec] if spec in files else under
        if not hits:
            raise SystemExit(f"no test files under {spec!r}")
        chosen += [f for f in hits if f not in chosen]
    return chosen


def included_parts(parsed: dict[str, list[slt.Item]]) -> set[str]:
    """The `.part` files another of the chosen files includes."""
    return {
        i.file
        for f, items in parsed.items()
        for i in items
        if isinstance(i, slt.BeginInclude) and i.file != f and i.file.endswith(".part")
    }


class Pool:
    """Worker processes fed one file at a time; a worker silent for `timeout` seconds (a record
    that hangs) is killed and replaced, and the file's remaining records are runner errors."""

    def __init__(self, jobs: int, worker_args: list[str], timeout: float, log_file: IO[str]):
        self.jobs = jobs
        self.worker_args = worker_args
        self.timeout = timeout
        self.log_file = log_file
        self.lock = threading.Lock()
        self.pending: list[str] = []
        self.out: dict[str, tuple[dict[int, dict[str, Any]], str | None]] = {}

    def spawn(self) -> tuple[subprocess.Popen[str], queue.Queue[str | None]]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bench.e2e.worker", *self.worker_args],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log_file,
            text=True,
            encoding="utf-8",
        )
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        return proc, lines

    def run(self, files: list[str]) -> dict[str, tuple[dict[int, dict[str, Any]], str | None]]:
        self.pending = list(files)
        threads = [threading.Thread(target=self.manage) for _ in range(self.jobs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return self.out

    def manage(self) -> None:
        proc, lines = self.spawn()
        while True:
            with self.lock:
                if not self.pending:
                    break
                path = self.pending.pop(0)
            assert proc.stdin is not None
            proc.stdin.write(json.dumps({"file": path}) + "\n")
            proc.stdin.flush()
            results, problem = self.collect(lines)
            with self.lock:
                self.out[path] = (results, problem)
            if problem is not None and not problem.startswith("parse error"):
                log(f"{path}: {problem}; restarting the worker")
                proc.kill()
                proc.wait()
                proc, lines = self.spawn()
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()

    def collect(
        self, lines: queue.Queue[str | None]
    ) -> tuple[dict[int, dict[str, Any]], str | None]:
        results: dict[int, dict[str, Any]] = {}
        while True:
            try:
                line = lines.get(timeout=self.timeout)
            except queue.Empty:
                return results, f"no answer for {self.timeout:g} s (record timed out)"
            if line is None:
                return results, "the worker exited"
            msg = json.loads(line)
            if "result" in msg:
                results[msg["index"]] = msg["result"]
            elif "done" in msg:
                return results, msg.get("error")


def cost(items: list[slt.Item]) -> float:
    """Rough seconds a file takes: its sleeps plus a little per record (longest first)."""
    return sum(i.seconds for i in items if isinstance(i, slt.Sleep)) + 0.01 * len(items)


def execute(args: argparse.Namespace) -> int:
    if args.mirror:
        git_dir = Path(args.mirror)
        if (git_dir / "repo").is_dir():
            git_dir = git_dir / "repo"
        source: slt.Source = slt.GitSource(git_dir, args.rev)
        spec = f"git:{git_dir}@{args.rev}"
        files = select_files(source.files(), args.paths or list(DEFAULT_DIRS), True)
    else:
        source = slt.DirSource(Path(args.dir))
        spec = f"dir:{Path(args.dir).resolve()}"
        files = (
            select_files(source.files(), args.paths or [""], False)
            if args.paths
            else [f for f in source.files() if f.endswith((".slt", ".part"))]
        )
    parsed: dict[str, list[slt.Item]] = {}
    for f in files:
        try:
            parsed[f] = slt.parse_file(source, f)
        except slt.ParseError:
            parsed[f] = []  # the worker reports it
    named = set(args.paths or [])
    skip = included_parts(parsed) - named
    files = [f for f in files if f not in skip]
    plans: dict[str, list[slt.Judged]] = {}
    costs: dict[str, float] = {}
    for f in files:
        plans[f] = slt.judged_records(parsed[f])
        costs[f] = cost(parsed[f])
    target = "dsn" if args.dsn else "rwshim"
    out = (
        Path(args.out)
        if args.out
        else RESULTS / f"e2e-{target}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    worker_args = ["--source", spec]
    if args.dsn:
        worker_args += ["--dsn", args.dsn]
    for label in args.label or []:
        worker_args += ["--label", label]
    for sql in [] if args.no_preamble else args.preamble or list(DEFAULT_PREAMBLE):
        worker_args += ["--preamble", sql]
    log(
        f"{len(files)} files, {sum(map(len, plans.values()))} records, {args.jobs} workers -> {out}"
    )
    started = time.perf_counter()
    with out.with_suffix(".log").open("w", encoding="utf-8") as log_file:
        pool = Pool(args.jobs, worker_args, args.record_timeout, log_file)
        done = pool.run(sorted(files, key=lambda f: -costs[f]))
    elapsed = time.perf_counter() - started
    lines, parse_errors = list(assemble(files, plans, done)), []
    for f in files:
        problem = done[f][1]
        if problem is not None and problem.startswith("parse error"):
            parse_errors.append(problem)
    with out.open("w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps(line, ensure_ascii=False) + "\n")
    s = report.summary(lines)
    meta = {
        "source": spec,
        "commit": source.commit() if isinstance(source, slt.GitSource) else None,
        "target": args.dsn or "rwshim (in-process, fresh server per file)",
        "files": len(files),
        "parse_errors": parse_errors,
        "seconds": round(elapsed, 1),
    }
    out.with_suffix(".summary.json").write_text(json.dumps({**meta, **s}, indent=1) + "\n")
    head = f"{meta['target']}; {meta['source']} ({meta['commit']})"
    print(f"{head}; {len(files)} files; {elapsed:.1f} s")
    for e in parse_errors:
        print(f"not parsed: {e}")
    print(report.format_summary(s, per_file=args.per_file))
    print(f"results: {out}")
    return 0


def assemble(
    files: list[str],
    plans: dict[str, list[slt.Judged]],
    done: dict[str, tuple[dict[int, dict[str, Any]], str | None]],
) -> Iterator[dict[str, Any]]:
    """Every planned record in file order; one the worker never answered is a runner error."""
    for f in files:
        results, problem = done[f]
        for i, rec in enumerate(plans[f]):
            if i in results:
                yield results[i]
            else:
                why = "not run: " + (problem or "no result")
                yield Result(
                    rec,
                    f,
                    rec.sql if not isinstance(rec, slt.System) else rec.command,
                    Verdict(RUNNER_ERROR, why),
                    0.0,
                ).to_json()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--mirror", help="a RisingWave git directory (bare mirror or checkout)")
    where.add_argument("--dir", help="a directory of .slt files on disk instead")
    where.add_argument("--summary", metavar="RESULTS", help="print the summary of a results file")
    where.add_argument(
        "--compare", nargs=2, metavar=("OLD", "NEW"), help="compare two results files"
    )
    p.add_argument(
        "paths", nargs="*", help="directories or files (default: basic types functions aggregate)"
    )
    p.add_argument("--rev", default="HEAD")
    p.add_argument("--dsn", help="run against this PostgreSQL-wire server (a database per file)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", help="results file (default bench/results/e2e-<target>-<time>.jsonl)")
    p.add_argument(
        "--label", action="append", help="a skipif/onlyif label besides the engine name, postgres"
    )
    p.add_argument(
        "--preamble", action="append", help="SQL run first on each file's default connection"
    )
    p.add_argument("--no-preamble", action="store_true")
    p.add_argument("--record-timeout", type=float, default=60.0)
    p.add_argument("--per-file", action="store_true", help="also list every file's figures")
    args = p.parse_args(argv)
    if args.summary:
        print(
            report.format_summary(
                report.summary(report.load(Path(args.summary))), per_file=args.per_file
            )
        )
        return 0
    if args.compare:
        old, new = (report.load(Path(x)) for x in args.compare)
        comparison = report.compare(old, new)
        print(report.format_comparison(comparison))
        # Non-zero when the new run answers wrongly where the old one was right.
        return 1 if comparison.silent else 0
    if not args.mirror and not args.dir:
        p.error("one of --mirror, --dir, --summary or --compare is required")
    return execute(args)


if __name__ == "__main__":
    raise SystemExit(main())
