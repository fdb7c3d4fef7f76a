"""The pytest plugin works for a user: ``uses_fixture.py`` (only the fixtures) passes in its
own pytest process, the plugin loaded through the installed entry point when there is one."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

HERE = Path(__file__).resolve().parent


def plugin_load_args() -> list[str]:
    """Nothing when the installed package's entry point loads the plugin (adding ``-p`` then
    would register it twice), else ``-p rwshim.testing``."""
    installed = any(ep.value == "rwshim.testing" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "rwshim.testing"]


def test_fixture_only_file_passes(tmp_path: Path) -> None:
    load = plugin_load_args()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *load,
            "-p",
            "no:cacheprovider",
            "-o",
            "asyncio_mode=auto",
            "-o",
            "asyncio_default_fixture_loop_scope=function",
            "--rootdir",
            str(tmp_path),
            "-c",
            "/dev/null",
            "-q",
            str(HERE / "uses_fixture.py"),
        ],
        cwd=HERE.parents[1],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "6 passed" in out.stdout
