"""PostgreSQL's parse tree of a text as JSON (pglast's C parser, ``parse_sql_json``: a few
microseconds, where pglast's Python AST of the same statement costs ~100), and its hand-over
from the SQL front end to the data path's planner, so that one parse of a query's text serves
both (the front end reads only the statement's kind; the planner, query/pg/tree, walks it).

A tree handed over is taken at most once (``take`` removes it), so no reader ever sees a tree
another reader had: the hand-over holds the last few texts only (what the front end parsed and
the planner has not taken yet, e.g. a query answered in process), within a bound on their
bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rwshim.lazy import lazy_module
from rwshim.sql.cache import TextLRU

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# Bounded by the texts' bytes (a tree holds a copy of the text's literals: factor 2), so that
# a few long statements are not kept after their session ends (rwshim/sql/cache.py).
_HANDOFF: TextLRU[dict[str, Any]] = TextLRU(16 * 1024 * 1024, factor=2)


def parse(text: str) -> dict[str, Any]:
    """The JSON tree of ``text`` (raises pglast's ParseError, as ``parse_sql`` does), its
    identifiers over 63 bytes whole (rwshim/sql/long_names.py: byte offsets are the text's)."""
    from pglast import parser  # not at import: `SELECT 1` never needs it

    from rwshim.sql import long_names

    masked, long = long_names.mask(text)
    tree: dict[str, Any] = json.loads(parser.parse_sql_json(masked))
    return long_names.restore_json(tree, long) if long else tree


def offer(text: str, tree: dict[str, Any]) -> None:
    """``tree`` is ``parse(text)``, untouched: the next ``take(text)`` may have it."""
    _HANDOFF.put(text, tree)


def take(text: str) -> dict[str, Any] | None:
    """A tree offered for ``text`` (then no longer offered), or None."""
    return _HANDOFF.pop(text)


def parse_once(text: str) -> dict[str, Any]:
    """The offered tree of ``text`` if there is one, else a fresh parse."""
    found = take(text)
    return found if found is not None else parse(text)
