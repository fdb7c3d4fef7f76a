"""The ``rwshim`` command's flags, run as a real subprocess: ``--version``, one-line errors with
exit status 2 for bad values (no traceback, nothing started), ``rwshim ctl --dsn`` after the
subcommand, and the LICENSE matching pyproject's license."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ThreadRunning

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
NOT_A_PORT = "is not a port (1-65535, or 0 for any free port)"


def rwshim(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rwshim", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_version() -> None:
    r = rwshim("--version")
    assert (r.returncode, r.stdout, r.stderr) == (
        0,
        f"rwshim {PYPROJECT['project']['version']}\n",
        "",
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--port", "65536"], f"argument --port: 65536 {NOT_A_PORT}"),
        (["--port", "-1"], f"argument --port: -1 {NOT_A_PORT}"),
        (["--port", "4566x"], "argument --port: not an integer: '4566x'"),
        (
            ["--log-level", "LOUD"],
            "argument --log-level: unknown level 'LOUD' (choose from DEBUG, INFO, WARNING, ERROR)",
        ),
        (["--max-connections", "0"], "argument --max-connections: must be at least 1, not 0"),
        (["--max-message-size", "-5"], "argument --max-message-size: must be at least 1, not -5"),
        (
            ["--startup-timeout", "0"],
            "argument --startup-timeout: must be a positive number of seconds, not 0",
        ),
        (
            ["--startup-timeout", "inf"],
            "argument --startup-timeout: must be a positive number of seconds, not inf",
        ),
        (["--auth", "kerberos"], "argument --auth: invalid choice: 'kerberos' (choose from "
         "'scram', 'md5', 'cleartext', 'trust')"),
        (["--tls-cert", "/no/such.pem", "--tls-key", "/no/such.key"],
         "argument --tls-cert: no such file: /no/such.pem"),
        (["--data-dir", "pyproject.toml"], "argument --data-dir: not a directory: pyproject.toml"),
        (["--tls-required"], "--tls-required needs --tls-cert and --tls-key"),
        (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    ],
)  # fmt: skip
def test_bad_flag_is_one_line_and_status_2(args: list[str], line: str) -> None:
    for argv in (args, ["serve", *args]):
        r = rwshim(*argv)
        # A value's error names the (sub)command that parsed it; leftovers and the checks
        # across flags (Config's) are reported by the top-level command.
        serve = argv[0] == "serve" and line.startswith("argument ")
        prefix = "rwshim serve" if serve else "rwshim"
        assert (r.returncode, r.stdout, r.stderr) == (2, "", f"{prefix}: error: {line}\n"), argv


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["tick", "0"], "rwshim ctl tick: error: argument count: must be at least 1, not 0"),
        (
            ["jobs", "--interval", "-1"],
            "rwshim ctl jobs: error: argument --interval: must be a positive number of seconds, "
            "not -1",
        ),
        (["--dsn"], "rwshim ctl: error: argument --dsn: expected one argument"),
    ],
)
def test_bad_ctl_flag_is_one_line_and_status_2(args: list[str], line: str) -> None:
    r = rwshim("ctl", *args)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"{line}\n")


def test_ctl_dsn_before_or_after_the_subcommand(rw_thread_server: ThreadRunning) -> None:
    good = rw_thread_server.dsn()
    faults = "skip_batch_refresh_admission: off\ncrash_after_catalog_write: off\n"
    # A DSN nothing listens on: used only when no later --dsn replaces it.
    bad = "host=127.0.0.1 port=1 user=root dbname=dev connect_timeout=2"
    for argv in (
        ["ctl", "--dsn", good, "fault"],
        ["ctl", "fault", "--dsn", good],
        ["ctl", "--dsn", bad, "fault", "--dsn", good],
    ):
        r = rwshim(*argv)
        assert (r.returncode, r.stdout, r.stderr) == (0, faults, ""), argv
    r = rwshim("ctl", "meta", "pause", "--dsn", good)
    assert (r.returncode, r.stdout) == (0, "Done.\n"), r.stderr
    r = rwshim("ctl", "meta", "--dsn", good, "resume")
    assert (r.returncode, r.stdout) == (0, "Done.\n"), r.stderr
    r = rwshim("ctl", "--dsn", good, "fault", "--dsn", bad)
    assert r.returncode == 1
    assert r.stderr.startswith("rwshim ctl: connection failed:"), r.stderr


def test_license_matches_pyproject() -> None:
    assert PYPROJECT["project"]["license"] == {"text": "Apache-2.0"}
    text = (ROOT / "LICENSE").read_text()
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert "9. Accepting Warranty or Additional Liability." in text
