"""Text rewrites applied to a statement before the read path's parser (sqlglot) reads it.

Registered by the layer that parses statements, which the read path may not import: the
composition root (rwshim.instance) registers rwshim.sql.lenient.quote_keyword_relations, so a
keyword RisingWave takes as a relation name (``INSERT INTO table``,
src/sqlparser/src/parser.rs parse_object_name) reaches sqlglot double-quoted.  Kept apart from
``rwshim.binder.parse`` so registering costs no sqlglot import.
"""

from __future__ import annotations

from collections.abc import Callable

REWRITES: list[Callable[[str], str]] = []


def register_rewrite(fn: Callable[[str], str]) -> None:
    """Apply ``fn`` to every statement text before it is parsed (idempotent)."""
    if fn not in REWRITES:
        REWRITES.append(fn)


def rewrite(text: str) -> str:
    for fn in REWRITES:
        text = fn(text)
    return text
