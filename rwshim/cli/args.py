"""The command line's argument types: each parses one option's text or says in one line why
not (argparse's ``ArgumentTypeError``), and the parser class whose errors are one line.
Shared by ``rwshim serve`` (``cli/main.py``) and ``rwshim ctl`` (``control/ctl.py``).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import NoReturn

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage block); ``--help`` has it.
    Subparsers are made with the parent's class, so every subcommand answers the same way."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def port(text: str) -> int:
    """A TCP port, 1-65535, or 0 for one the OS picks (the tests' way of avoiding clashes)."""
    n = _int(text)
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"{n} is not a port (1-65535, or 0 for any free port)")
    return n


def dashboard_port(text: str) -> int:
    """The dashboard's TCP port, 1-65535, or 0 for no dashboard."""
    n = _int(text)
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"{n} is not a port (1-65535, or 0 for no dashboard)")
    return n


def positive_int(text: str) -> int:
    n = _int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def positive_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (x > 0 and math.isfinite(x)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return x


def log_level(text: str) -> str:
    level = text.upper()
    if level not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown level {text!r} (choose from {', '.join(LOG_LEVELS)})"
        )
    return level


def pem_file(text: str) -> Path:
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return path


def data_dir(text: str) -> Path:
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a directory: {text}")
    return path
