"""RisingWave's map literal ``MAP {k: v, ...}`` (src/sqlparser/src/parser.rs parse_map, shown as
``MAP {k: v}``) found in a statement's tokens, and a same-length form of it PostgreSQL parses.

A literal and the subscripts that follow it (``MAP {'a': 1}['a']``, a MapAccess: binder/expr/
value.rs bind_index) become one row constructor whose fields are the keys, values and
subscripts at their own offsets: ``MAP`` -> ``ROW``, ``{`` -> ``(``, each top-level ``:`` ->
``,``; with subscripts, ``}`` and each ``[`` / ``]`` but the last -> ``,`` / spaces and the last
``]`` -> ``)``.  So the parse tree's locations stay those of the user's text (pglast's check in
sql/pgparser.py, the data plane's pre-pass), and the data plane replaces the whole span with
the map functions' calls (dataplane/plan/maptype.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rwshim.errors import RwError
from rwshim.sql.tokens import Kind, Token, tokenize


@dataclass(slots=True)
class MapLiteral:
    """One ``MAP {...}`` with its subscripts: character offsets in the text."""

    start: int  # the MAP keyword
    brace_end: int  # just past the closing brace
    end: int  # just past the last subscript's ``]`` (brace_end without subscripts)
    keys: list[tuple[int, int]] = field(default_factory=list)
    values: list[tuple[int, int]] = field(default_factory=list)
    subscripts: list[tuple[int, int]] = field(default_factory=list)
    # the characters to put in place, offset -> the character (same length)
    edits: dict[int, str] = field(default_factory=dict)
    inner: list[MapLiteral] = field(default_factory=list)


def _op(t: Token, value: str) -> bool:
    return t.kind is Kind.OP and t.value == value


_OPEN = {"(": ")", "[": "]", "{": "}"}


def find(text: str, toks: list[Token] | None = None) -> list[MapLiteral]:
    """The outermost map literals of ``text`` (nested ones in their ``inner``), in order."""
    if toks is None:
        try:
            toks = tokenize(text)
        except RwError:
            return []
    out: list[MapLiteral] = []
    i = 0
    while i < len(toks):
        found = _literal(toks, i)
        if found is None:
            i += 1
            continue
        lit, i = found
        out.append(lit)
    return out


def _literal(toks: list[Token], i: int) -> tuple[MapLiteral, int] | None:
    """The literal starting at token ``i`` and the index after it, or None."""
    t = toks[i]
    if not (t.kind is Kind.WORD and not t.quoted and t.upper == "MAP"):
        return None
    if i + 1 >= len(toks) or not _op(toks[i + 1], "{"):
        return None
    lit = MapLiteral(start=t.start, brace_end=-1, end=-1)
    lit.edits.update({t.start: "R", t.start + 1: "O", t.start + 2: "W"})
    lit.edits[toks[i + 1].start] = "("
    j = i + 2
    item_start = toks[j].start if j < len(toks) else -1
    part_end = -1
    key: tuple[int, int] | None = None
    while j < len(toks):
        tok = toks[j]
        nested = _literal(toks, j)
        if nested is not None:
            lit.inner.append(nested[0])
            part_end = nested[0].end
            j = nested[1]
            continue
        if tok.kind is Kind.OP and tok.value in _OPEN:
            close = _skip(toks, j)
            if close is None:
                return None
            # literals nested inside parentheses / brackets of a key or value
            k = j + 1
            while k < close:
                inner = _literal(toks, k)
                if inner is None:
                    k += 1
                    continue
                lit.inner.append(inner[0])
                k = inner[1]
            part_end = toks[close].end
            j = close + 1
            continue
        if _op(tok, ":") and key is None:
            if part_end < 0:
                return None
            key = (item_start, part_end)
            lit.edits[tok.start] = ","
            item_start, part_end = (toks[j + 1].start if j + 1 < len(toks) else -1), -1
            j += 1
            continue
        if _op(tok, ",") or _op(tok, "}"):
            if key is not None:
                if part_end < 0:
                    return None
                lit.keys.append(key)
                lit.values.append((item_start, part_end))
                key = None
            elif part_end >= 0 or _op(tok, ","):
                return None  # an entry without its ``:``
            if _op(tok, "}"):
                lit.brace_end = lit.end = tok.end
                return _subscripts(toks, j, lit)
            item_start, part_end = (toks[j + 1].start if j + 1 < len(toks) else -1), -1
            j += 1
            continue
        if tok.kind is Kind.EOF or _op(tok, ";") or (tok.kind is Kind.OP and tok.value in ")]"):
            return None
        part_end = tok.end
        j += 1
    return None


def _skip(toks: list[Token], j: int) -> int | None:
    """The index of the token closing the bracket at ``j``."""
    stack = [_OPEN[toks[j].value]]
    k = j + 1
    while k < len(toks):
        t = toks[k]
        if t.kind is Kind.OP and t.value in _OPEN:
            stack.append(_OPEN[t.value])
        elif t.kind is Kind.OP and t.value in (")", "]", "}"):
            if t.value != stack.pop():
                return None
            if not stack:
                return k
        k += 1
    return None


def _subscripts(toks: list[Token], close: int, lit: MapLiteral) -> tuple[MapLiteral, int]:
    """The ``[k]`` subscripts after the closing brace at ``close`` (a slice ends them)."""
    j = close + 1
    brackets: list[tuple[int, int]] = []  # (index of [, index of ])
    while j < len(toks) and _op(toks[j], "["):
        end = _skip(toks, j)
        if end is None or end == j + 1:
            break
        if any(_op(t, ":") for t in toks[j + 1 : end]):
            break  # a slice: not a map's subscript
        brackets.append((j, end))
        j = end + 1
    if not brackets:
        lit.edits[toks[close].start] = ")"
        return lit, close + 1
    lit.edits[toks[close].start] = " "
    for n, (a, b) in enumerate(brackets):
        lit.edits[toks[a].start] = ","
        lit.edits[toks[b].start] = ")" if n == len(brackets) - 1 else " "
        lit.subscripts.append((toks[a + 1].start, toks[b - 1].end))
        for k in range(a + 1, b):
            inner = _literal(toks, k)
            if inner is not None:
                lit.inner.append(inner[0])
    lit.end = toks[brackets[-1][1]].end
    return lit, brackets[-1][1] + 1


def all_edits(lits: list[MapLiteral]) -> dict[int, str]:
    """Every character to replace, nested literals' included."""
    out: dict[int, str] = {}
    stack = list(lits)
    while stack:
        lit = stack.pop()
        out.update(lit.edits)
        stack.extend(lit.inner)
    return out


def placeholder(text: str, lits: list[MapLiteral] | None = None) -> str:
    """``text`` with its map literals as row constructors (same length, offsets kept)."""
    if lits is None:
        if "{" not in text:
            return text
        lits = find(text)
    if not lits:
        return text
    chars = list(text)
    for at, c in all_edits(lits).items():
        chars[at] = c
    return "".join(chars)
