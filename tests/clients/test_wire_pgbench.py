"""pgbench in its three query modes: simple, extended and prepared."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import ThreadRunning


@pytest.mark.parametrize("mode", ["simple", "extended", "prepared"])
def test_pgbench_select_1(rw_thread_server: ThreadRunning, tmp_path: Path, mode: str) -> None:
    script = tmp_path / "select1.sql"
    script.write_text("SELECT 1;\n")
    r = subprocess.run(
        ["pgbench", "-n", "-f", str(script), "-M", mode, "-t", "200", "-c", "2"],
        env=rw_thread_server.env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert "number of transactions actually processed: 400/400" in r.stdout
    assert "number of failed transactions: 0 (0.000%)" in r.stdout
