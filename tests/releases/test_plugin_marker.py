"""The pytest plugin's release option: ``uses_marker.py`` passes in its own pytest process
(the plugin loaded as tests/plugin/test_plugin.py loads it), with ``RWSHIM_RW_VERSION=3.0``
for the test the marker does not choose for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.plugin.test_plugin import plugin_load_args

HERE = Path(__file__).resolve().parent


def test_marker_and_environment(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *plugin_load_args(),
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            "-c",
            "/dev/null",
            "-q",
            str(HERE / "uses_marker.py"),
        ],
        cwd=HERE.parents[1],
        env={**os.environ, "RWSHIM_RW_VERSION": "3.0"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 passed" in out.stdout
