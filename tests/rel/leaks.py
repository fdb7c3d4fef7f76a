"""What must never reach a client: Python's and SQLite's own texts.  Every error a client sees
is RisingWave's text, or PostgreSQL's where RisingWave has none (issue 15, rule 7); the
fuzzers and the regression tests check every ErrorResponse and NoticeResponse with this."""

from __future__ import annotations

import re

INTERNAL = re.compile(
    r"Traceback|sqlite|SQLite"
    # a Python exception's name: OperationalError, OverflowError, KeyError, ...
    r"|\b(?:[A-Z][a-z]+)+(?:Error|Exception)\b"
    r"|codec can't|can't decode|unpack requires|object has no attribute|NoneType"
    r"|invalid literal for int|too large to convert|maximum recursion depth"
    r"|internal error|no such table|near \""
)


def internal_text(text: str) -> str | None:
    """The internal text found in ``text``, or None."""
    m = INTERNAL.search(text)
    return None if m is None else m.group(0)
