"""Text splicing at the parse tree's byte offsets: the user's text goes to PostgreSQL as written
except for the spans replaced, never deparsed.

The parse tree gives where a name starts, not where it ends; ``name_end`` reads the name's
parts (quoted or not, with whitespace and comments around the dots) from that point.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# whitespace and comments (PostgreSQL's nested block comments are not nested here: a nested
# comment inside a qualified name makes the match fail, and the caller refuses the statement)
_GAP = rb"(?:\s+|--[^\n]*(?:\n|$)|/\*(?:[^*]|\*(?!/))*\*/)*"
_IDENT = rb'(?:[Uu]&"(?:[^"]|"")*"|"(?:[^"]|"")*"|[A-Za-z_\x80-\xff][A-Za-z0-9_$\x80-\xff]*)'
_NAMES = [
    re.compile(_IDENT + (rb"(?:" + _GAP + rb"\." + _GAP + _IDENT + rb")") * (n - 1))
    for n in range(1, 6)
]
_ALIAS = re.compile(_GAP + rb"(?:(?i:AS)" + _GAP + rb")?" + _IDENT)
_ALIAS_COLS = re.compile(_GAP + rb"\((?:[^()\"']|\"(?:[^\"]|\"\")*\")*\)")
_KEYWORD = re.compile(rb"[A-Za-z_]+")


class SpliceError(Exception):
    """The text around a parse-tree location is not what the tree says."""


def name_end(text: bytes, location: int, parts: int) -> int:
    """End offset of a ``parts``-part qualified name starting at ``location``."""
    if location < 0 or parts < 1 or parts > len(_NAMES):
        raise SpliceError(f"no name at {location}")
    m = _NAMES[parts - 1].match(text, location)
    if m is None:
        raise SpliceError(f"no {parts}-part name at {location}")
    return m.end()


def alias_end(text: bytes, pos: int, with_columns: bool) -> int:
    """End offset of ``[AS] alias [(cols)]`` starting at ``pos`` (after a name)."""
    m = _ALIAS.match(text, pos)
    if m is None:
        raise SpliceError(f"no alias at {pos}")
    end = m.end()
    if with_columns:
        c = _ALIAS_COLS.match(text, end)
        if c is None:
            raise SpliceError(f"no alias column list at {end}")
        end = c.end()
    return end


def paren_end(text: bytes, pos: int) -> int:
    """End offset of a parenthesized name list ``(a, "b")`` starting at ``pos`` (after
    whitespace); ``pos`` itself when there is none."""
    m = _ALIAS_COLS.match(text, pos)
    return m.end() if m is not None else pos


def _literal_end(text: bytes, i: int) -> int:
    """Offset of the closing quote of the string literal or quoted name opening at ``i``
    (doubled quotes inside; an ``E'...'`` string's backslash escapes), or the text's end."""
    c = text[i : i + 1]
    backslash = c == b"'" and i > 0 and text[i - 1 : i] in (b"E", b"e")
    i += 1
    n = len(text)
    while i < n:
        d = text[i : i + 1]
        if backslash and d == b"\\":
            i += 2
            continue
        if d == c:
            if text[i + 1 : i + 2] == c:
                i += 2
                continue
            break
        i += 1
    return i


def bracket_end(text: bytes, pos: int) -> int:
    """End offset (past its ``]``) of the bracketed list opening at the first ``[`` at or after
    ``pos`` (``ARRAY[...]``), literals and nested brackets skipped."""
    start = text.find(b"[", pos)
    if start < 0:
        raise SpliceError(f"no bracket after {pos}")
    depth = 0
    i, n = start, len(text)
    while i < n:
        c = text[i : i + 1]
        if c in (b"'", b'"'):
            i = _literal_end(text, i)
        elif c == b"[":
            depth += 1
        elif c == b"]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise SpliceError(f"no closing bracket after {pos}")


def string_end(text: bytes, i: int) -> int:
    """End offset of the string literal starting at ``i`` (``'...'`` or ``E'...'``)."""
    if text[i : i + 1] in (b"E", b"e"):
        i += 1
    return _literal_end(text, i) + 1


def call_args(text: bytes, pos: int) -> tuple[int, list[tuple[int, int]]]:
    """For a call whose name starts at ``pos``: the end offset of its closing parenthesis and
    the spans of its arguments (split at top-level commas; literals and quoted names
    skipped)."""
    open_at = text.find(b"(", pos)
    if open_at < 0:
        raise SpliceError(f"no call at {pos}")
    depth = 0
    i = open_at
    start = open_at + 1
    spans: list[tuple[int, int]] = []
    n = len(text)
    while i < n:
        c = text[i : i + 1]
        if c in (b"'", b'"'):
            i = _literal_end(text, i)
        elif c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
            if depth == 0:
                spans.append((start, i))
                return i + 1, [sp for sp in spans if text[sp[0] : sp[1]].strip()]
        elif c == b"," and depth == 1:
            spans.append((start, i))
            start = i + 1
        i += 1
    raise SpliceError(f"unbalanced call at {pos}")


def keyword_before(text: bytes, pos: int, keyword: bytes) -> int:
    """Start of the last ``keyword`` (case-insensitive, as a whole word) before ``pos``."""
    for m in reversed(list(_KEYWORD.finditer(text, 0, pos))):
        if m.group(0).upper() == keyword:
            return m.start()
    raise SpliceError(f"no {keyword.decode()} before {pos}")


def statement_end(text: bytes) -> int:
    """End of the statement: before trailing whitespace, comments and semicolons."""
    end = len(text)
    while True:
        stripped = text[:end].rstrip()
        if stripped.endswith(b";"):
            end = len(stripped) - 1
            continue
        if stripped.endswith(b"*/"):
            start = stripped.rfind(b"/*")
            if start >= 0:
                end = start
                continue
        # a trailing line comment: the last line holds "--" outside any literal; only
        # cut it when the line before it ends the statement text (rare: be conservative)
        line_start = stripped.rfind(b"\n") + 1
        dash = stripped.find(b"--", line_start)
        if dash >= 0 and b"'" not in stripped[line_start:] and b'"' not in stripped[line_start:]:
            end = dash
            continue
        return len(stripped)


class Splicer:
    """Replacements over one text, applied at once."""

    def __init__(self, text: bytes) -> None:
        self.text = text
        self._edits: list[tuple[int, int, int, str]] = []

    def replace(self, start: int, end: int, new: str) -> None:
        self._edits.append((start, end, len(self._edits), new))

    def insert(self, pos: int, new: str) -> None:
        self._edits.append((pos, pos, len(self._edits), new))

    def replace_around(self, start: int, end: int, new: Callable[[], str]) -> None:
        """Replace ``[start, end)``, edits inside it included, with ``new()`` (which may read
        the spliced ``section``s of the span's parts first): a construct rebuilt around the
        already rewritten text of its parts (a map literal: dataplane/plan/maptype.py)."""
        text = new()
        self._edits = [
            e
            for e in self._edits
            if not ((start <= e[0] and e[1] <= end and e[0] != e[1]) or start < e[0] == e[1] < end)
        ]
        self.replace(start, end, text)

    def __bool__(self) -> bool:
        return bool(self._edits)

    def result(self) -> str:
        return self._spliced(0, len(self.text), self._edits)

    def section(self, start: int, end: int) -> str:
        """The text of ``[start, end)`` with the edits made inside it (an insertion at either
        end belongs to the text around it)."""
        inside = [
            e
            for e in self._edits
            if (start <= e[0] and e[1] <= end and e[0] != e[1]) or start < e[0] == e[1] < end
        ]
        return self._spliced(start, end, inside)

    def _spliced(self, begin: int, stop: int, edits: list[tuple[int, int, int, str]]) -> str:
        text = self.text[:stop]
        if not edits:
            return text[begin:].decode()
        out: list[bytes] = []
        pos = begin
        for start, end, _, new in sorted(edits):
            if start < pos:
                raise SpliceError(f"overlapping edits at {start}")
            out.append(text[pos:start])
            out.append(new.encode())
            pos = end
        out.append(text[pos:])
        return b"".join(out).decode()


def expr_end(text: bytes, pos: int) -> int:
    """End offset of the expression starting at ``pos``: the first ``,`` or closing ``)`` /
    ``]`` outside parentheses, brackets and literals (a VALUES item, a call's argument)."""
    depth = 0
    i, n = pos, len(text)
    while i < n:
        c = text[i : i + 1]
        if c in (b"'", b'"'):
            i = _literal_end(text, i)
        elif c in (b"(", b"["):
            depth += 1
        elif c in (b")", b"]"):
            if depth == 0:
                return len(text[pos:i].rstrip()) + pos
            depth -= 1
        elif c == b"," and depth == 0:
            return len(text[pos:i].rstrip()) + pos
        i += 1
    raise SpliceError(f"no expression end after {pos}")
