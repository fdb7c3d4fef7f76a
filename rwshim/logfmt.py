"""Structured log lines (logfmt: ``event key=value ...``), so a server log can be grepped and
parsed: one line per connection at INFO (``rwshim.server``), one per statement at DEBUG
(``rwshim.statement``)."""

from __future__ import annotations

import logging

statement_log = logging.getLogger("rwshim.statement")


def _value(v: object) -> str:
    text = str(v)
    if text == "" or any(c in text for c in ' "=\n\t'):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return text


def line(event: str, **fields: object) -> str:
    """``event k1=v1 k2="v 2"``: values quoted when they hold spaces, quotes, = or newlines."""
    return " ".join([event, *(f"{k}={_value(v)}" for k, v in fields.items())])
