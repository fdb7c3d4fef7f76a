"""The ``rwshim`` command: serve, log one ready line, answer, stop cleanly on SIGTERM/SIGINT."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rwshim.cli.main import build_parser, config_from_args

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_are_risingwaves() -> None:
    cfg = config_from_args(build_parser().parse_args([]))
    assert (cfg.host, cfg.port, cfg.user, cfg.database, cfg.data_dir) == (
        "127.0.0.1",
        4566,
        "root",
        "dev",
        None,
    )
    assert cfg.auth_method == "trust"
    cfg = config_from_args(build_parser().parse_args(["serve", "--password", "x", "--auth", "md5"]))
    assert cfg.auth_method == "md5"


def test_tls_options_go_together(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from rwshim.cli.main import main

    cert = tmp_path / "a.pem"
    cert.write_text("")
    with pytest.raises(SystemExit) as info:
        main(["--tls-cert", str(cert)])
    assert info.value.code == 2
    assert capsys.readouterr().err.endswith(
        "error: --tls-cert and --tls-key must be given together\n"
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_and_shut_down(sig: signal.Signals) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rwshim", "--port", "0", "--no-uvloop"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        m = re.search(r"rwshim ready on 127\.0\.0\.1:(\d+) \(loopback only", line.strip())
        assert m, line
        r = subprocess.run(
            ["psql", "-X", "-At", "-h", "127.0.0.1", "-p", m.group(1), "-U", "root", "-d", "dev",
             "-c", "select 1"],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert (r.returncode, r.stdout) == (0, "1\n"), r.stderr
        proc.send_signal(sig)
        assert proc.wait(10) == 0
        assert "rwshim shutting down" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
