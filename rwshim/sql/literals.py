"""Parses and plans shared by statements that differ only in integer literals
(``... WHERE k = 42`` and ``... WHERE k = 43``): a client sending a new literal in every
simple query would otherwise pay the whole parse, routing, checking and rewriting of its text
each time (PostgreSQL's plan cache cannot share them; pg_stat_statements' fingerprint,
``pglast.parser.normalize``, does).  Users: rwshim/sql/parser.py (the statement) and
rwshim/dataplane/plane.py (the data plane's plan).

The rule keeps answers exactly those of planning each text on its own:

- Only literals PostgreSQL's scanner reads as ``ICONST`` written as ASCII digits (so int4
  values: a larger one is ``FCONST``), with no identifier character, dot or quote on either
  side: every reader of the text (RisingWave's tokenizer, rwshim's passes, PostgreSQL) sees
  the same token and only its digits differ.  The skeleton (the text with those literals
  cut out) is the key, with everything else the plan depends on (the caller's).
- A template is made from two parses or plans, the text's own and a probe's (the literals
  replaced by marker values of the same class): it is kept only if filling the probe's
  outputs with the text's literals gives the text's own result exactly, and (plans) if no
  binder check read a literal's value (``query/pg/checks.constant_reads``: the one rule that
  does, ordered-set aggregates' direct argument, makes the skeleton unshared).  A skeleton
  that fails is remembered as unshared.
- A plan filled from a template has no parse tree (``Routed.shape`` is None): what runs after
  planning reads only the texts and the resolved relations.
"""

from __future__ import annotations

import re
from typing import Any

from msgspec import Struct

from rwshim.lazy import lazy_pattern

# markers: int4 values of ten digits, none a prefix of another's digits at its place
_MARKER_BASE = 1_987_000_000
_MARKER_STEP = 1_009
MAX_LITERALS = 64


class Literals(Struct, frozen=True):
    """A text cut at its shareable integer literals."""

    skeleton: tuple[str, ...]  # the text around the literals (one more than the literals)
    values: tuple[str, ...]  # the literals as written


def literals(text: str) -> Literals | None:
    """The text's integer literals, or None when it has none or one that is not shareable
    (then the text is planned on its own)."""
    last = _LAST[0]
    if last is not None and last[0] == text:
        return last[1]  # the parser's, for the planner a moment later
    found = _literals(text)
    _LAST[0] = (text, found)
    return found


# the last text asked about and its answer (one list item: replaced, never mutated inside)
_LAST: list[tuple[str, Literals | None] | None] = [None]
_DIGIT = lazy_pattern(r"[0-9]")


def _literals(text: str) -> Literals | None:
    from pglast import parser  # not at import: `SELECT 1` never needs it

    if _DIGIT.search(text) is None:
        return None
    try:
        tokens = parser.scan(text)
    except parser.ParseError:
        return None
    parts: list[str] = []
    values: list[str] = []
    prev = 0
    for tok in tokens:
        if tok.name != "ICONST":
            continue
        start, end = tok.start, tok.end + 1
        lit = text[start:end]
        if not (lit.isascii() and lit.isdigit()):
            return None  # 0x1f, 1_000: leave such texts alone
        if _joined(text[start - 1] if start else " ") or _joined(text[end : end + 1] or " "):
            return None
        parts.append(text[prev:start])
        values.append(lit)
        prev = end
    if not values or len(values) > MAX_LITERALS:
        return None
    parts.append(text[prev:])
    return Literals(tuple(parts), tuple(values))


def _joined(ch: str) -> bool:
    return ch.isalnum() or ch in "_$.'\"`"


def fill(lits: Literals, values: tuple[str, ...]) -> str:
    """The skeleton with ``values`` in the literals' places."""
    out = [lits.skeleton[0]]
    for v, part in zip(values, lits.skeleton[1:], strict=True):
        out.append(v)
        out.append(part)
    return "".join(out)


def markers(n: int) -> tuple[str, ...]:
    return tuple(str(_MARKER_BASE + i * _MARKER_STEP) for i in range(n))


# a text with holes: its parts, a hole being the index of a literal
Holes = tuple[str | int, ...]


def holes(text: str, marks: tuple[str, ...]) -> Holes:
    """``text`` (an output planned from the probe) cut at the markers' digits."""
    index = {m: i for i, m in enumerate(marks)}
    rx = re.compile(r"(?<![0-9])(" + "|".join(marks) + r")(?![0-9])")
    out: list[str | int] = []
    prev = 0
    for m in rx.finditer(text):
        out.append(text[prev : m.start()])
        out.append(index[m.group(1)])
        prev = m.end()
    out.append(text[prev:])
    return tuple(out)


def put(h: Holes, values: tuple[str, ...]) -> str:
    return "".join(p if isinstance(p, str) else values[p] for p in h)


def mentions_marker(texts: tuple[Any, ...], marks: tuple[str, ...]) -> bool:
    """Whether a marker's digits occur anywhere in these texts (then holes would be
    ambiguous: the skeleton is not shared)."""
    return any(isinstance(t, str) and any(m in t for m in marks) for t in texts)
