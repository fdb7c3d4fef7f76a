"""Secrets and exposure: the server password from a file or from $RWSHIM_PASSWORD (never
visible in the process list), and no password-less server on a non-loopback address unless
the user asks for it with --allow-remote-without-password."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from rwshim.cli.main import build_parser, config_from_args
from tests.rel.serverproc import ServerProcess, run_cli

SECRET = "s3cret-Pw"
REFUSED = (
    "rwshim: refusing to listen on '{host}' without a password (any client that reaches it"
    " is a superuser): give --password-file, $RWSHIM_PASSWORD or --password, or"
    " --allow-remote-without-password\n"
)


def _requires(sp: ServerProcess, password: str) -> None:
    with pytest.raises(psycopg.OperationalError) as e:
        sp.connect(password="wrong").close()
    assert "Invalid password" in str(e.value)
    with sp.connect(password=password) as c:
        assert c.execute("SELECT 1").fetchone() == (1,)
    cmdline = Path(f"/proc/{sp.p.pid}/cmdline").read_bytes()
    assert password.encode() not in cmdline


def test_password_from_a_file(tmp_path: Path) -> None:
    f = tmp_path / "pw"
    f.write_text(SECRET + "\n")
    sp = ServerProcess("--password-file", str(f))
    try:
        _requires(sp, SECRET)
    finally:
        sp.stop()


def test_password_from_the_environment() -> None:
    sp = ServerProcess(env={"RWSHIM_PASSWORD": SECRET})
    try:
        _requires(sp, SECRET)
    finally:
        sp.stop()


def test_unreadable_or_empty_password_file_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.write_text("")
    done = run_cli("--port", "0", "--password-file", str(empty))
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == f"rwshim: error: --password-file {empty} is empty"
    done = run_cli("--port", "0", "--password-file", str(tmp_path / "missing"))
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"rwshim: error: cannot read --password-file: No such file or directory: "
        f"{tmp_path / 'missing'}"
    )


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "example.invalid"])
def test_non_loopback_without_password_is_refused(host: str) -> None:
    done = run_cli("--port", "0", "--host", host, env={"RWSHIM_PASSWORD": ""})
    assert (done.returncode, done.stderr) == (2, REFUSED.format(host=host))


def test_help_names_every_password_source() -> None:
    done = run_cli("--help")
    text = " ".join(done.stdout.split())
    for needle in ("--password-file", "$RWSHIM_PASSWORD", "--allow-remote-without-password"):
        assert needle in text


@pytest.mark.parametrize(
    ("argv", "exposed"),
    [
        (["--host", "0.0.0.0"], True),
        (["--host", "0.0.0.0", "--allow-remote-without-password"], False),
        (["--host", "0.0.0.0", "--password", "x"], False),
        (["--host", "127.0.0.1"], False),
        (["--host", "::1"], False),
        (["--host", "localhost"], False),
    ],
)
def test_exposure_rule(argv: list[str], exposed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RWSHIM_PASSWORD", raising=False)
    config = config_from_args(build_parser().parse_args(argv))
    assert config.exposed_without_password() is exposed
