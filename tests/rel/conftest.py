"""Prints what the reliability suites tried (frames, statements, races, crashes) at the end
of a run, for the closing note of issue 7."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from tests.rel import serverproc


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    lines = []
    for name in ("test_fuzz_protocol", "test_fuzz_sql", "test_races", "test_crash"):
        mod = sys.modules.get(f"tests.rel.{name}")
        counts = getattr(mod, "COUNTS", None)
        if counts and any(counts.values()):
            lines.append(f"{name}: " + ", ".join(f"{k}={v}" for k, v in counts.items()))
    if lines:
        terminalreporter.write_sep("-", "reliability counts")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture(autouse=True)
def _reap_server_processes() -> Iterator[None]:
    """Kill any rwshim child a failed test left running (serverproc.reap)."""
    before = serverproc.live()  # a module fixture's server outlives the test
    yield
    serverproc.reap(keep=before)
