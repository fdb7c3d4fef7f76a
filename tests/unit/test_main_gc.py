"""``rwshim`` / ``python -m rwshim`` load the server's modules with the cyclic garbage collector
off (rwshim/__main__.py, issue 16's start-up): collecting while they loaded was ~45 collections
and ~9 ms of every start.  A client subcommand turns it back on."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import gc, sys
import rwshim.__main__ as launcher
before = gc.get_stats()[0]["collections"]  # the interpreter's own start-up collects too
sys.argv = ["rwshim", *{argv!r}]
try:
    launcher.main()
except SystemExit:
    pass
import rwshim.cli.main  # loaded by main()
print(gc.get_stats()[0]["collections"] - before, gc.isenabled())
"""


def run(*argv: str) -> tuple[int, bool]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(argv=list(argv))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    collections, enabled = done.stdout.split()[-2:]
    return int(collections), enabled == "True"


def test_the_modules_load_without_collections() -> None:
    collections, enabled = run("--version")
    # rwshim.cli.main and what it imports (asyncio, msgspec, the config) make thousands of
    # container objects: with the collector on, dozens of generation-0 collections
    assert collections == 0
    assert not enabled


def test_a_client_subcommand_turns_the_collector_back_on() -> None:
    _, enabled = run("store", "check", "--data-dir", "/nonexistent-rwshim-dir")
    assert enabled
