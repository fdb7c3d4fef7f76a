"""Test control over SQL (rwshim's extension statements): stepping barriers, holding backfill,
faults, restart.  Every statement here is an extension, listed in the README."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def handlers(frontend: Any) -> dict[type, Callable[..., Any]]:
    """Statement class -> handler for the control statements a frontend answers."""
    return {}
