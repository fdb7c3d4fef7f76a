"""The soak run (bench/soak.py) in a few seconds, as CI runs it: it completes, every statement
kind ran, and no error was internal (a lost connection, a dead server, Python's or SQLite's
text, an ``internal error``).  No timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_soak_smoke(tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    res = subprocess.run(
        [sys.executable, str(REPO / "bench" / "soak.py"), "--seconds", "6", "--clients", "4",
         "--data-dir", str(tmp_path / "data"), "--json", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["internal_errors"] == 0, figures["internal_error_samples"]
    assert figures["statements"] > 0
    assert set(figures["by_kind"]) == {"ddl", "dml", "alter", "catalog", "read"}
    assert figures["rss_start_mib"] > 0 and figures["rss_end_mib"] > 0
