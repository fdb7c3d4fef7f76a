"""RisingWave's SQL tokenizer, as far as rwshim needs it: tokens with their source positions.

It mirrors ``src/sqlparser/src/tokenizer.rs`` (448c657): the same token kinds, the same
``Display`` of each token (what a parse error prints after ``found:``), the same 1-based
line/column locations (a column counts characters), and the same tokenizer error texts.
Whitespace and comments are dropped; each token keeps its character span in the input so
that statements can be cut out of a multi-statement string verbatim.
"""

from __future__ import annotations

import bisect
import re
from enum import Enum

from msgspec import Struct

from rwshim.common import names
from rwshim.errors import SqlParserError
from rwshim.lazy import lazy_pattern


class Kind(Enum):
    WORD = "word"  # keyword or identifier, possibly "quoted"
    NUMBER = "number"
    STRING = "string"  # '...'
    ESTRING = "estring"  # E'...'
    NSTRING = "nstring"  # N'...'
    XSTRING = "xstring"  # X'...'
    DOLLAR = "dollar"  # $$...$$ / $tag$...$tag$
    PARAM = "param"  # $1
    OP = "op"  # operators and punctuation
    EOF = "eof"


class Token(Struct, frozen=True, eq=False):
    """One token (a Struct: built per token, it costs a fraction of a dataclass).  Compared
    by identity."""

    kind: Kind
    value: str  # identifier without quotes / string contents / operator text
    start: int  # character offsets in the input
    end: int
    quoted: bool = False
    raw: str = ""  # source text of the token
    # Offsets where the input's lines start (one list shared by every token of an input):
    # line and column are computed when asked for (an error), not stored per token, which
    # keeps a token at about half the memory (issue 15: a 5 MB statement of 2.5M tokens).
    lines: list[int] | None = None

    @property
    def line(self) -> int:
        return bisect.bisect_right(self.lines, self.start) if self.lines else 1

    @property
    def col(self) -> int:
        if not self.lines:
            return self.start + 1
        return self.start - self.lines[self.line - 1] + 1

    def display(self) -> str:
        """The token as RisingWave's ``Display for Token`` prints it (tokenizer.rs:109-150)."""
        k = self.kind
        if k is Kind.EOF:
            return "EOF"
        if k is Kind.WORD:
            return names.quoted(self.value) if self.quoted else self.value
        if k is Kind.STRING:
            return f"'{self.value}'"
        if k is Kind.ESTRING:
            return f"E'{self.value}'"
        if k is Kind.NSTRING:
            return f"N'{self.value}'"
        if k is Kind.XSTRING:
            return f"X'{self.value}'"
        if k is Kind.PARAM:
            return "$" + self.value
        return self.raw if k is Kind.DOLLAR else self.value

    @property
    def upper(self) -> str:
        """The keyword this token would be, or '' for quoted words and non-words."""
        return self.value.upper() if self.kind is Kind.WORD and not self.quoted else ""

    def is_kw(self, *words: str) -> bool:
        return self.upper in words


_NEWLINE = re.compile(r"\n")
_FAST = re.compile(
    r"(?P<ws>[ \t\n\r]+)"
    r"|(?P<comment>--[^\n]*\n?)"
    r"|(?P<word>[A-Za-z_][A-Za-z0-9_$]*)"
    r"|(?P<number>[0-9]+(?:\.[0-9]*)?(?![.eExXoObB0-9]))"
    # Possessive runs: a repeated one-character alternative would keep a backtracking
    # mark per character (2.6 GB for a 10 MB literal); these keep none.
    r"|(?P<string>'[^']*+(?:''[^']*+)*+')"
    r"|(?P<qident>\"[^\"]*+(?:\"\"[^\"]*+)*+\")"
    r"|(?P<punct>[(),;\[\]{}]|::?|\.(?![0-9]))"
)
_OP_CHARS = set("+-*/<>=~!@#%^&|`?")
_OP_EXT = set("~!@#%^&|`?")
_SINGLE = {
    "(": "(",
    ")": ")",
    ",": ",",
    ";": ";",
    "\\": "\\",
    "[": "[",
    "]": "]",
    "{": "{",
    "}": "}",
}


def _ident_start(ch: str) -> bool:
    return ch.isascii() and (ch.isalpha() or ch == "_")


def _ident_part(ch: str) -> bool:
    return ch != "" and ch.isascii() and (ch.isalnum() or ch in "$_")


class _Scanner:
    def __init__(self, sql: str) -> None:
        self.sql = sql
        self.pos = 0
        # Offsets where lines start: a location is computed from an offset when needed
        # (RisingWave counts lines at \n and columns in characters).
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(sql)]

    def loc(self, pos: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, pos)
        return line, pos - self.starts[line - 1] + 1

    @property
    def line(self) -> int:
        return self.loc(self.pos)[0]

    @property
    def col(self) -> int:
        return self.loc(self.pos)[1]

    def peek(self, k: int = 0) -> str:
        i = self.pos + k
        return self.sql[i] if i < len(self.sql) else ""

    def next(self) -> str:
        ch = self.peek()
        if ch:
            self.pos += 1
        return ch

    def error(self, message: str) -> SqlParserError:
        prefix = f"LINE {self.line}: "
        lines = self.sql.split("\n")
        sql_line = lines[self.line - 1] if self.line - 1 < len(lines) else ""
        cursor = " " * (len(prefix) + self.col - 1)
        return SqlParserError(
            f"{message} at line {self.line}, column {self.col}\n{prefix}{sql_line}\n{cursor}^"
        )


def tokenize(sql: str) -> list[Token]:
    """Tokens of ``sql`` (comments and whitespace dropped), ending with an EOF token.

    Raises SqlParserError with RisingWave's tokenizer texts (tokenizer.rs:653-1003).
    """
    s = _Scanner(sql)
    out: list[Token] = []
    n = len(sql)
    while True:
        # Fast path: whitespace, plain words, plain numbers, '' strings, "" identifiers and
        # -- comments by regex; everything else below, character by character.
        m = _FAST.match(sql, s.pos)
        if m is not None:
            group = m.lastgroup
            end = m.end()
            if group == "ws" or group == "comment":
                s.pos = end
                continue
            if not (
                group == "word"
                and end - s.pos == 1
                and sql[s.pos] in "NEeXx"
                and end < n
                and sql[end] == "'"
            ):
                if group == "number" and end < n and _ident_start(sql[end]):
                    pass  # trailing junk, or 0x...: the slow path reports or reads it
                else:
                    start = s.pos
                    lines = s.starts
                    text = m.group(0)
                    if group == "word":
                        out.append(Token(Kind.WORD, text, start, end, False, text, lines))
                    elif group == "number":
                        out.append(Token(Kind.NUMBER, text, start, end, False, text, lines))
                    elif group == "string":
                        out.append(
                            Token(
                                Kind.STRING,
                                text[1:-1].replace("''", "'"),
                                start,
                                end,
                                False,
                                text,
                                lines,
                            )
                        )
                    elif group == "qident":
                        out.append(
                            Token(
                                Kind.WORD,
                                text[1:-1].replace('""', '"'),
                                start,
                                end,
                                True,
                                text,
                                lines,
                            )
                        )
                    else:
                        out.append(Token(Kind.OP, text, start, end, False, text, lines))
                    s.pos = end
                    continue
        ch = s.peek()
        if not ch:
            break
        start = s.pos

        def emit(kind: Kind, value: str, quoted: bool = False, start: int = start) -> None:
            out.append(Token(kind, value, start, s.pos, quoted, sql[start : s.pos], s.starts))

        nxt = s.peek(1)
        if ch in "NEeXx" and nxt == "'":
            s.next()
            if ch in "Ee":
                emit(Kind.ESTRING, _estring(s))
            else:
                emit(Kind.NSTRING if ch == "N" else Kind.XSTRING, _string(s))
        elif _ident_start(ch):
            s.next()
            while _ident_part(s.peek()):
                s.next()
            emit(Kind.WORD, sql[start : s.pos])
        elif ch == "'":
            emit(Kind.STRING, _string(s))
        elif ch == '"':
            s.next()
            buf = []
            while True:
                c = s.next()
                if not c:
                    raise s.error("Expected close delimiter '\"' before EOF.")
                if c == '"':
                    if s.peek() == '"':
                        s.next()
                        buf.append('"')
                        continue
                    break
                buf.append(c)
            emit(Kind.WORD, "".join(buf), quoted=True)
        elif "0" <= ch <= "9" or ch == ".":  # ASCII only, as tokenizer.rs:492
            _number(s)
            text = sql[start : s.pos]
            emit(Kind.OP if text == "." else Kind.NUMBER, text)
        elif ch == ":":
            s.next()
            if s.peek() == ":":
                s.next()
            emit(Kind.OP, sql[start : s.pos])
        elif ch == "$":
            dkind, value = _dollar(s)
            emit(dkind, value)
        elif ch in _SINGLE:
            s.next()
            emit(Kind.OP, ch)
        elif ch in _OP_CHARS:
            j = s.pos
            while j < len(sql) and sql[j] in _OP_CHARS:
                j += 1
            taken = sql[s.pos : j]
            cut = min(
                (p for p in (taken.find("/*"), taken.find("--")) if p >= 0), default=len(taken)
            )
            op = taken[:cut]
            if not op:
                if taken.startswith("--"):
                    while s.peek() and s.peek() != "\n":
                        s.next()
                    s.next()
                else:
                    _block_comment(s)
                continue
            if len(op) > 1 and op[-1] in "+-" and not (set(op) & _OP_EXT):
                op = op.rstrip("+-") or taken[:1]
            for _ in op:
                s.next()
            emit(Kind.OP, "<>" if op == "!=" else op)
        else:
            s.next()
            emit(Kind.OP, ch)
    out.append(Token(Kind.EOF, "", len(sql), len(sql), False, "", s.starts))
    return out


def _string(s: _Scanner) -> str:
    # Whole runs at a time (str.find), not a Python step per character.
    sql = s.sql
    pos = s.pos + 1
    parts: list[str] = []
    while True:
        q = sql.find("'", pos)
        if q < 0:
            s.pos = len(sql)
            raise s.error("Unterminated string literal")
        parts.append(sql[pos:q])
        if sql.startswith("''", q):
            parts.append("'")
            pos = q + 2
            continue
        s.pos = q + 1
        return "".join(parts)


# The body of an E'' string: runs without quote or backslash, escaped pairs, doubled quotes.
_ESTRING_BODY = lazy_pattern(r"(?:[^'\\]++|\\.|'')*+", re.DOTALL)


def _estring(s: _Scanner) -> str:
    # The Display of an E'' token prints its raw text (escapes kept).
    sql = s.sql
    start = s.pos + 1
    m = _ESTRING_BODY.match(sql, start)
    end = m.end() if m else start
    if end >= len(sql) or sql[end] != "'":
        s.pos = len(sql)
        raise s.error("Unterminated string literal")
    raw = sql[start:end].replace("''", "\\'")
    s.pos = end + 1
    try:
        unescape_c_style(raw)
    except ValueError as e:
        raise s.error(str(e)) from None
    return raw


def unescape_c_style(raw: str) -> str:
    """The value of an E'' string (tokenizer.rs unescape_c_style); raises ValueError with
    RisingWave's text for a bad escape."""
    out: list[str] = []
    i = 0
    n = len(raw)
    while i < n:
        c = raw[i]
        i += 1
        if c != "\\":
            out.append(c)
            continue
        if i >= n:
            raise ValueError("unterminated escape sequence")
        e = raw[i]
        i += 1
        simple = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
        if e in simple:
            out.append(simple[e])
        elif e in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[e]
            j = i
            while j < n and j - i < width and raw[j] in "0123456789abcdefABCDEF":
                j += 1
            digits = raw[i:j]
            i = j
            if e == "x":
                out.append(chr(int(digits, 16)) if digits else "x")
            elif len(digits) < width:
                raise ValueError("invalid unicode sequence: must be \\uXXXX or \\UXXXXXXXX")
            else:
                try:
                    out.append(chr(int(digits, 16)))
                except ValueError:
                    raise ValueError(f"invalid unicode sequence: {digits}") from None
        elif e in "01234567":
            j = i
            while j < n and j - i < 2 and raw[j] in "01234567":
                j += 1
            out.append(chr(int(e + raw[i:j], 8) & 0xFF))
            i = j
        else:
            out.append(e)
    return "".join(out)


def _number(s: _Scanner) -> None:
    def digits(base: int = 10) -> str:
        out = ""
        while s.peek() != "" and s.peek().lower() in "0123456789abcdef"[:base]:
            out += s.next()
        return out

    start = s.pos
    first = digits()
    if first == "0" and s.peek().lower() in ("x", "o", "b"):
        radix = s.next().lower()
        if not digits({"x": 16, "o": 8, "b": 2}[radix]):
            raise s.error("incomplete integer literal")
        _reject_junk(s)
        return
    if s.peek() == ".":
        s.next()
        digits()
    if s.sql[start : s.pos] == ".":
        return  # a lone period (tokenizer.rs: `No number -> Token::Period`)
    if s.peek() in ("e", "E"):
        s.next()
        if s.peek() == "-":
            s.next()
        digits()
    _reject_junk(s)


def _reject_junk(s: _Scanner) -> None:
    if _ident_start(s.peek()):
        raise s.error("trailing junk after numeric literal")


def _dollar(s: _Scanner) -> tuple[Kind, str]:
    s.next()
    if s.peek() == "$":
        s.next()
        close = s.sql.find("$$", s.pos)
        if close < 0:
            s.pos = len(s.sql)
            raise s.error("Unterminated dollar-quoted string")
        body = s.sql[s.pos : close]
        s.pos = close + 2
        return Kind.DOLLAR, body
    tag = ""
    while s.peek() and (s.peek().isascii() and (s.peek().isalnum() or s.peek() == "_")):
        tag += s.next()
    if s.peek() != "$":
        return Kind.PARAM, tag
    if not (tag and (tag[0].isalpha() or tag[0] == "_")):
        raise s.error(f'Invalid dollar-quoted string tag "{tag}"')
    s.next()
    delim = f"${tag}$"
    close = s.sql.find(delim, s.pos)
    if close < 0:
        s.pos = len(s.sql)
        raise s.error(f'Unterminated dollar-quoted string at or near "{tag}"')
    body = s.sql[s.pos : close]
    s.pos = close + len(delim)
    return Kind.DOLLAR, body


_COMMENT_MARK = lazy_pattern(r"/\*|\*/")


def _block_comment(s: _Scanner) -> None:
    # Nested /* */ (tokenizer.rs tokenize_multiline_comment), jumping from mark to mark.
    depth = 1
    pos = s.pos + 2
    for m in _COMMENT_MARK.finditer(s.sql, pos):
        depth += 1 if m.group(0) == "/*" else -1
        if depth == 0:
            s.pos = m.end()
            return
    s.pos = len(s.sql)
    raise s.error("Unexpected EOF while in a multi-line comment")
