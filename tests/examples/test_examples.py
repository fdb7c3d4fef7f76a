"""Every example in examples/ passes against a fresh server of each RisingWave release rwshim
answers as (head, v3.0.3, v2.8.5): each reads the release from version() and expects its answer."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ThreadRunning

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PYTHON_EXAMPLES = sorted(p.name for p in EXAMPLES.glob("*.py"))
SQL_EXAMPLES = sorted(p.name for p in EXAMPLES.glob("*.sql"))
RELEASES = ("head", "3.0", "2.8")


def _env(srv: ThreadRunning) -> dict[str, str]:
    return {**os.environ, "RWSHIM_DSN": srv.dsn()}


def test_one_example_per_documented_error() -> None:
    names = PYTHON_EXAMPLES + SQL_EXAMPLES
    assert [n.split("_")[0] for n in sorted(names)] == ["01", "02", "03", "04", "04b", "05"]
    assert SQL_EXAMPLES == ["03_snapshot_backfill_when_paused.sql"]


@pytest.fixture(params=RELEASES)
def release(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def release_server(
    release: str, rw_thread_server_factory: Callable[..., ThreadRunning]
) -> ThreadRunning:
    """A fresh server answering as ``release``."""
    return rw_thread_server_factory(rw_version=release)


@pytest.mark.parametrize("name", PYTHON_EXAMPLES)
def test_python_example(release_server: ThreadRunning, release: str, name: str) -> None:
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        env=_env(release_server),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "error" in out.stdout
    # It read the release it talked to from version().
    assert f"answering as: {release}\n" in out.stdout


@pytest.mark.parametrize("name", SQL_EXAMPLES)
def test_psql_example(release_server: ThreadRunning, name: str) -> None:
    # The command the example's header gives.
    out = subprocess.run(
        ["psql", "-X", "-f", str(EXAMPLES / name), release_server.dsn()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1].startswith("example passed")
    assert out.stdout.splitlines()[0].startswith("talking to PostgreSQL 13.14.0-RisingWave-")


def test_examples_run_twice_on_one_server(rw_thread_server: ThreadRunning) -> None:
    """They clean up after themselves, so a user can rerun them against one server."""
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, str(EXAMPLES / "04b_parallelism_above_max.py")],
            env=_env(rw_thread_server),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stdout + out.stderr
