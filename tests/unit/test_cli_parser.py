"""The ``rwshim`` command line: a server's start builds the ``ctl`` and ``store`` subcommands
by name and help only (rwshim/cli/main.py ``build_parser``); what any command line parses to, and
what ``--help`` says, is the same as with them built in full."""

from __future__ import annotations

import pytest

from rwshim.cli.main import build_parser


def test_the_top_level_help_is_the_full_parsers() -> None:
    assert build_parser(["--help"]).format_help() == build_parser().format_help()
    assert build_parser([]).format_help() == build_parser().format_help()


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--port", "0", "--dashboard-port", "0"],
        ["serve", "--port", "5"],
        ["ctl", "--dsn", "postgresql://x/dev", "jobs"],
        ["store", "check", "--data-dir", "/tmp/d"],
    ],
)
def test_a_command_line_parses_as_with_every_subparser(argv: list[str]) -> None:
    assert vars(build_parser(argv).parse_args(argv)) == vars(build_parser().parse_args(argv))


def test_an_unknown_subcommand_is_the_same_error(capsys: pytest.CaptureFixture[str]) -> None:
    errors = []
    for parser in (build_parser(["nope"]), build_parser()):
        with pytest.raises(SystemExit) as e:
            parser.parse_args(["nope"])
        assert e.value.code == 2
        errors.append(capsys.readouterr().err)
    assert errors[0] == errors[1]
    assert "invalid choice: 'nope'" in errors[0]
