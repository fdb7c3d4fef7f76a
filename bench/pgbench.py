"""Running pgbench with a custom script and reading its figures.

Every run is `pgbench -n -f SCRIPT` over TCP to 127.0.0.1, so both servers pay the same
loopback cost; `-j` (threads) is the client count, at most 2 (the machine's cores).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

from bench.servers import BenchError, Target, one_line

_TPS = re.compile(r"^tps = ([0-9.]+) ", re.M)
_LAT = re.compile(r"^latency average = ([0-9.]+) ms", re.M)
_DONE = re.compile(r"^number of transactions actually processed: (\d+)", re.M)
# "statement latencies in milliseconds and failures:" then "  <ms>  <failures>  <command>".
_STMT = re.compile(r"^\s+([0-9.]+)\s+\d+\s+(.*)$", re.M)


@dataclass(frozen=True, slots=True)
class PgbenchResult:
    tps: float
    latency_ms: float
    transactions: int
    # Per-statement average latency in ms (with -r), keyed by the script's line.
    statements: dict[str, float] = field(default_factory=dict)


def pgbench_path() -> str:
    found = shutil.which("pgbench")
    if not found:
        raise BenchError("pgbench not found on PATH (Debian: postgresql-contrib)")
    return found


def error_text(stderr: str, stdout: str) -> str:
    """The server's error (or pgbench's own) from a failed run, on one line."""
    lines = stderr.splitlines()
    for i, line in enumerate(lines):
        if "ERROR:" in line:
            # The message goes on until libpq's position lines or pgbench's next message.
            message = [line.split("ERROR:", 1)[1]]
            for more in lines[i + 1 :]:
                if more.startswith(("pgbench:", "LINE ", "CONTEXT:")):
                    break
                message.append(more)
            return one_line("\n".join(message))
    for line in stderr.splitlines():
        if line.startswith("pgbench: error:"):
            return line.removeprefix("pgbench: error:").strip()
    lines = [ln for ln in (stderr + stdout).splitlines() if ln.strip()]
    return lines[-1].strip() if lines else "pgbench failed without output"


def run(
    target: Target,
    script: str,
    *,
    clients: int = 1,
    mode: str = "simple",
    seconds: float | None = None,
    transactions: int | None = None,
    connect_each: bool = False,
    per_statement: bool = False,
    timeout: float = 300.0,
) -> PgbenchResult:
    """Run one pgbench; raise BenchError with the server's error text when it fails."""
    with tempfile.NamedTemporaryFile("w", suffix=".sql", prefix="rwshim-bench-") as f:
        f.write(script)
        f.flush()
        cmd = [pgbench_path(), "-n", "-f", f.name, "-M", mode]
        cmd += ["-c", str(clients), "-j", str(min(clients, 2))]
        if transactions is not None:
            cmd += ["-t", str(transactions)]
        else:
            cmd += ["-T", str(max(1, round(seconds or 1)))]
        if connect_each:
            cmd.append("-C")
        if per_statement:
            cmd.append("-r")
        cmd += ["-h", target.host, "-p", str(target.port), "-U", target.user, target.dbname]
        try:
            res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired as e:
            raise BenchError(f"pgbench did not finish in {timeout:.0f}s") from e
        return parse(res.returncode, res.stdout, res.stderr)


def parse(returncode: int, stdout: str, stderr: str) -> PgbenchResult:
    """Figures of a pgbench run; a failed or empty run raises BenchError."""
    if returncode != 0:
        raise BenchError(error_text(stderr, stdout))
    tps, lat, done = _TPS.search(stdout), _LAT.search(stdout), _DONE.search(stdout)
    if not (tps and lat and done):
        raise BenchError(f"unreadable pgbench output: {error_text(stderr, stdout)}")
    if int(done.group(1)) == 0:
        raise BenchError("no transaction completed in the run")
    statements: dict[str, float] = {}
    tail = stdout.split("statement latencies in milliseconds", 1)
    if len(tail) == 2:
        for m in _STMT.finditer(tail[1]):
            statements[m.group(2).strip()] = float(m.group(1))
    return PgbenchResult(float(tps.group(1)), float(lat.group(1)), int(done.group(1)), statements)
