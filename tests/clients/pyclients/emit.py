"""Output of the driver programs in this directory (run by another virtualenv's Python, so they
import nothing from rwshim or tests): one JSON array ``[label, value...]`` per line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any


def emit(label: str, *values: Any) -> None:
    print(json.dumps([label, *values], default=str), flush=True)


def attempt(label: str, fn: Callable[[], Any]) -> None:
    """``[label, "ok", result]`` or ``[label, "error", <exception class>, <message>]``."""
    try:
        emit(label, "ok", fn())
    except Exception as e:  # the test decides whether this error is the expected one
        cause = getattr(e, "orig", None) or e
        emit(label, "error", type(cause).__name__, str(cause).split("\n[SQL:")[0])


def dsn_args() -> tuple[str, int]:
    host, port = sys.argv[1], int(sys.argv[2])
    return host, port
