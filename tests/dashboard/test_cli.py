"""``rwshim --dashboard-port`` / ``--dashboard-control`` as a user runs them: the default port
is RisingWave's 5691 (busy: the server starts without a dashboard and says so), ``0`` switches
it off, an explicit busy port is a start-up failure, and the dashboard binds the SQL port's
host; the pytest plugin starts one only when asked."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from rwshim.cli.main import build_parser, config_from_args
from rwshim.testing import RwShim

ROOT = Path(__file__).resolve().parents[2]


def parse(*args: str) -> tuple[int | None, bool, bool]:
    cfg = config_from_args(build_parser().parse_args(list(args)))
    return cfg.dashboard_port, cfg.dashboard_optional, cfg.dashboard_control


def test_flags() -> None:
    assert parse() == (5691, True, False)
    assert parse("--dashboard-port", "0") == (None, False, False)
    assert parse("--dashboard-port", "8000", "--dashboard-control") == (8000, False, True)
    assert parse("serve", "--dashboard-port", "8001") == (8001, False, False)


def test_a_bad_port_is_one_line() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "rwshim", "--dashboard-port", "70000"],
        cwd=ROOT, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert (r.returncode, r.stderr) == (
        2,
        "rwshim: error: argument --dashboard-port: 70000 is not a port (1-65535, or 0 for no"
        " dashboard)\n",
    )


@contextmanager
def occupied() -> Iterator[int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield int(s.getsockname()[1])


@contextmanager
def serve(*args: str) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rwshim", "--port", "0", "--no-uvloop", *args],
        cwd=ROOT, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    lines = [proc.stderr.readline()]
    try:
        assert "rwshim ready on 127.0.0.1:" in lines[0], lines
        yield proc, lines
    finally:
        proc.terminate()
        proc.wait(30)
        proc.stderr.close()


def test_served_on_the_sql_host_read_only_by_default() -> None:
    with occupied() as busy:
        pass  # a port that was free a moment ago
    with serve("--dashboard-port", str(busy)) as (proc, lines):
        assert proc.stderr is not None
        lines.append(proc.stderr.readline())
        m = re.search(r"dashboard on http://127\.0\.0\.1:(\d+)/ \(read-only\)$", lines[1].strip())
        assert m, lines
        with urllib.request.urlopen(f"http://127.0.0.1:{m.group(1)}/api", timeout=30) as r:
            assert json.load(r)["control"] is False
        with urllib.request.urlopen(f"http://127.0.0.1:{m.group(1)}/", timeout=30) as r:
            assert b"rwshim dashboard" in r.read()


def test_the_default_port_taken_is_a_warning() -> None:
    """A second rwshim on one machine still starts (the default is RisingWave's port)."""
    try:
        holder = socket.socket()
        holder.bind(("127.0.0.1", 5691))
        holder.listen()
    except OSError:
        holder = None  # someone else holds it: the server must warn all the same
    try:
        with serve() as (proc, lines):
            assert proc.stderr is not None
            lines.append(proc.stderr.readline())
            expected = (
                "WARNING rwshim.server: no dashboard: error while attempting to bind"
                " on address"
                " ('127.0.0.1', 5691): address already in use (--dashboard-port N for another"
                " port, 0 for none)"
            )
            assert lines[1].rstrip().endswith(expected), lines
    finally:
        if holder is not None:
            holder.close()


def test_an_explicit_busy_port_fails_to_start() -> None:
    with occupied() as busy:
        r = subprocess.run(
            [sys.executable, "-m", "rwshim", "--port", "0", "--no-uvloop",
             "--dashboard-port", str(busy)],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert r.returncode == 1, r.stderr
    assert r.stderr.splitlines()[-1].endswith(
        f"ERROR rwshim: cannot serve: [Errno 98] error while attempting to bind on address"
        f" ('127.0.0.1', {busy}): address already in use"
    ), r.stderr


def test_the_plugin_starts_a_dashboard_only_when_asked() -> None:
    plain = RwShim()
    try:
        assert plain.dashboard_url is None
    finally:
        plain.stop()
    with_dashboard = RwShim(dashboard=True)
    try:
        url = with_dashboard.dashboard_url
        assert url is not None and url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url + "api", timeout=30) as r:
            assert json.load(r)["control"] is True
    finally:
        with_dashboard.stop()


@pytest.mark.parametrize("flag", [[], ["--dashboard-port", "0"]])
def test_sql_port_first(flag: list[str]) -> None:
    """The SQL port's ready line comes first, as scripts read it."""
    with serve(*flag) as (_, lines):
        assert lines[0].split(" INFO ")[1].startswith("rwshim.server: rwshim ready on")
