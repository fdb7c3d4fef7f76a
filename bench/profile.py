"""Where rwshim spends a pgbench workload: `python bench/profile.py [--mode M] [--sql S] [--mvs N]`.

Starts rwshim, attaches py-spy (sampling) for the length of one pgbench run, and
prints the functions with the largest share of busy samples: self (the frame on top of the stack)
and inclusive (anywhere on the stack).  Samples of an idle event loop are not counted (py-spy
leaves out idle threads), so the percentages are shares of the time rwshim was working.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import pgbench
from bench.scale import execute, grow, use_background_ddl
from bench.servers import BenchError, Rwshim


@dataclass(frozen=True, slots=True)
class Profile:
    samples: int
    self_pct: list[tuple[str, float]]
    total_pct: list[tuple[str, float]]


def _frame(text: str) -> str:
    """`func (path/to/file.py:123)` -> `func (file.py:123)`, short enough for a table."""
    if " (" in text and text.endswith(")"):
        func, where = text[:-1].split(" (", 1)
        return f"{func} ({Path(where).name})"
    return text


def _function(text: str) -> str:
    """The frame without its line number: all samples of one function count together."""
    frame = _frame(text)
    head, sep, _ = frame.rpartition(":")
    return f"{head})" if sep and frame.endswith(")") else frame


def summarize(collapsed: str, top: int = 20) -> Profile:
    """Self and inclusive shares per function from py-spy's collapsed (raw) stacks."""
    own: collections.Counter[str] = collections.Counter()
    anywhere: collections.Counter[str] = collections.Counter()
    total = 0
    for line in collapsed.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        # The first frame is the thread ("process 123:\"python\"" / "thread ..."), not code.
        frames = [_function(f) for f in stack.split(";") if "(" in f]
        if not frames:
            continue
        total += count
        own[frames[-1]] += count
        for f in set(frames):
            anywhere[f] += count
    if total == 0:
        return Profile(0, [], [])

    def pct(c: collections.Counter[str]) -> list[tuple[str, float]]:
        return [(k, 100.0 * v / total) for k, v in c.most_common(top)]

    return Profile(total, pct(own), pct(anywhere))


def profile(
    mode: str,
    clients: int,
    seconds: int,
    rate: int,
    script: str,
    mvs: int = 0,
    setup: Sequence[str] = (),
    top: int = 20,
) -> Profile:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise BenchError("py-spy not found (pip install py-spy)")
    with Rwshim() as rw, tempfile.TemporaryDirectory() as tmp:
        rw.start()
        if mvs:
            execute(rw.target, ["CREATE TABLE bench_base (v int)"])
            with rw.target.connect() as conn:
                grow(conn, use_background_ddl(conn), 1, mvs, 250, time.perf_counter() + 600)
        if setup:
            execute(rw.target, list(setup))
        out = Path(tmp) / "stacks.txt"
        # Blocking sampling: py-spy stops rwshim for each sample, so stacks are whole (without
        # it, stacks read from a running process come out truncated and inclusive shares lie).
        cmd = [spy, "record", "--pid", str(rw.pid), "--rate", str(rate)]
        cmd += ["--format", "raw", "--duration", str(seconds + 1), "-o", str(out)]
        spy_proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            res = pgbench.run(rw.target, script, clients=clients, mode=mode, seconds=seconds)
        finally:
            _, err = spy_proc.communicate(timeout=seconds + 30)
        if not out.exists():
            raise BenchError(f"py-spy wrote no profile: {err.decode(errors='replace').strip()}")
        prof = summarize(out.read_text(), top)
        print(f"{mode}, {clients} client(s): {res.tps:,.0f} tps, {prof.samples} busy samples")
        return prof


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="profile rwshim under a pgbench workload")
    ap.add_argument("--mode", default="simple", choices=("simple", "extended", "prepared"))
    ap.add_argument("--clients", type=int, default=1)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    ap.add_argument("--sql", default="SELECT 1;", help="the pgbench script (one statement)")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument(
        "--mvs", type=int, default=0, help="create this many MVs (bench_scale_mv_<i>) first"
    )
    ap.add_argument(
        "--setup",
        action="append",
        default=[],
        metavar="SQL",
        help="a statement to run before the workload (repeatable), e.g. the point lookup's table",
    )
    args = ap.parse_args(argv)
    # SIGTERM unwinds like Ctrl-C, so the servers are stopped and their directories deleted.
    signal.signal(signal.SIGTERM, _terminate)
    try:
        script = args.sql + "\n"
        prof = profile(
            args.mode, args.clients, args.seconds, args.rate, script, args.mvs, args.setup, args.top
        )
    except BenchError as e:
        print(f"profile: {e}", file=sys.stderr)
        return 2
    for title, rows in (("self", prof.self_pct), ("inclusive", prof.total_pct)):
        print(f"\ntop {args.top} by {title} share of busy samples")
        for name, share in rows[: args.top]:
            print(f"{share:6.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
