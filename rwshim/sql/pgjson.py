"""PostgreSQL's parse tree of a text as JSON (pglast's C parser, ``parse_sql_json``: a few
microseconds, where pglast's Python AST of the same statement costs ~100), and its hand-over
from the SQL front end to the data path's planner, so that one parse of a query's text serves
both (the front end reads only the statement's kind; the planner, query/pg/tree, walks it).

A tree handed over is taken at most once (``take`` removes it), so no reader ever sees a tree
another reader had: the hand-over holds the last few texts only (what the front end parsed and
the planner has not taken yet, e.g. a query answered in process).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import json
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

_HANDOFF_MAX = 16
_HANDOFF: OrderedDict[str, dict[str, Any]] = OrderedDict()


def parse(text: str) -> dict[str, Any]:
    """The JSON tree of ``text`` (raises pglast's ParseError, as ``parse_sql`` does)."""
    from pglast import parser  # not at import: `SELECT 1` never needs it

    tree: dict[str, Any] = json.loads(parser.parse_sql_json(text))
    return tree


def offer(text: str, tree: dict[str, Any]) -> None:
    """``tree`` is ``parse(text)``, untouched: the next ``take(text)`` may have it."""
    _HANDOFF[text] = tree
    while len(_HANDOFF) > _HANDOFF_MAX:
        _HANDOFF.popitem(last=False)


def take(text: str) -> dict[str, Any] | None:
    """A tree offered for ``text`` (then no longer offered), or None."""
    return _HANDOFF.pop(text, None)


def parse_once(text: str) -> dict[str, Any]:
    """The offered tree of ``text`` if there is one, else a fresh parse."""
    found = take(text)
    return found if found is not None else parse(text)
