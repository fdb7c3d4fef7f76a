"""Helpers for the client suites that drive a non-Python driver (pgjdbc, node, Go) through a
small program kept beside the test: find the installed tool or fail saying how to install it
(never skip), run the program, and read back the JSON lines it prints (one ``[label, ...]``
array per line, holding what the driver returned)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

SETUP_HINT = "run `bash .ci/setup` (as root, it installs the drivers' Debian and npm packages)"


def tool(name: str) -> str:
    """The executable ``name`` on the PATH; a test failure saying how to install it if absent."""
    found = shutil.which(name)
    assert found is not None, f"{name} not found on the PATH: {SETUP_HINT}"
    return found


def installed(path: Path) -> Path:
    assert path.exists(), f"{path} not found: {SETUP_HINT}"
    return path


def run_lines(
    cmd: Sequence[str],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
) -> list[list[Any]]:
    """Run ``cmd`` to completion (it must exit 0) and parse every stdout line as JSON."""
    r = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{cmd[0]} exited {r.returncode}:\n{r.stderr}\n{r.stdout}"
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def by_label(records: list[list[Any]]) -> dict[str, list[Any]]:
    """``{label: values}`` for records whose labels are unique (a repeated label fails)."""
    out: dict[str, list[Any]] = {}
    for label, *values in records:
        assert label not in out, f"label {label!r} printed twice"
        out[label] = values
    return out
