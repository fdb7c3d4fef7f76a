"""RisingWave's ``to_timestamp(text, pattern)`` input rules: the PostgreSQL pattern compiled to
chrono's strftime items (src/expr/impl/src/scalar/to_char.rs ``ChronoPattern::compile``) and
the input scanned as chrono's parser does (chrono's format/parse.rs: numbers of 1 up to their
width, ``%3f``/``%6f``/``%9f`` exactly that many digits, literals exact, white space skipped),
which is stricter than PostgreSQL's ``to_timestamp``.  Only the shape of the input is checked
here (what chrono refuses with ``premature end of input``, ``input contains invalid
characters`` or ``trailing input``); the value itself is PostgreSQL's.
"""

from __future__ import annotations

# to_char.rs ChronoPattern::compile: PostgreSQL pattern -> chrono item (leftmost longest)
PATTERNS: tuple[tuple[str, str], ...] = (
    ("HH24", "%H"), ("hh24", "%H"), ("HH12", "%I"), ("hh12", "%I"), ("HH", "%I"), ("hh", "%I"),
    ("AM", "%p"), ("PM", "%p"), ("am", "%P"), ("pm", "%P"), ("MI", "%M"), ("mi", "%M"),
    ("SS", "%S"), ("ss", "%S"), ("YYYY", "%Y"), ("yyyy", "%Y"), ("YY", "%y"), ("yy", "%y"),
    ("IYYY", "%G"), ("iyyy", "%G"), ("IY", "%g"), ("iy", "%g"), ("MM", "%m"), ("mm", "%m"),
    ("Month", "%B"), ("Mon", "%b"), ("DD", "%d"), ("dd", "%d"), ("NS", "%9f"), ("ns", "%9f"),
    ("US", "%6f"), ("us", "%6f"), ("MS", "%3f"), ("ms", "%3f"), ("TZH:TZM", "%:z"),
    ("tzh:tzm", "%:z"), ("TZHTZM", "%z"), ("tzhtzm", "%z"), ("TZH", "%#z"), ("tzh", "%#z"),
)  # fmt: skip

# chrono item -> (min digits, max digits, signed) of a number
_NUMBERS = {
    "%Y": (1, 4, True), "%G": (1, 4, True), "%y": (1, 2, False), "%g": (1, 2, False),
    "%m": (1, 2, False), "%d": (1, 2, False), "%H": (1, 2, False), "%I": (1, 2, False),
    "%M": (1, 2, False), "%S": (1, 2, False),
}  # fmt: skip
_FRACTIONS = {"%3f": 3, "%6f": 6, "%9f": 9}
_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip

TOO_SHORT = "premature end of input"
INVALID = "input contains invalid characters"
TOO_LONG = "trailing input"


def compile_pattern(tmpl: str) -> list[str]:
    """The chrono items of a PostgreSQL pattern: ``%X`` items, ``" "`` for white space and
    one-character literals."""
    out: list[str] = []
    i = 0
    while i < len(tmpl):
        best = ""
        item = ""
        for pg, ch in PATTERNS:
            if tmpl.startswith(pg, i) and len(pg) > len(best):
                best, item = pg, ch
        if best:
            out.append(item)
            i += len(best)
            continue
        c = tmpl[i]
        out.append(" " if c.isspace() else c)
        i += 1
    return out


def _number(s: str, lo: int, hi: int) -> tuple[str | None, str]:
    """(error, rest) after scanning ``lo``..``hi`` digits (chrono scan::number)."""
    n = 0
    while n < len(s) and n < hi and s[n].isdigit():
        n += 1
    if n < lo:
        return (TOO_SHORT if n == len(s) else INVALID), s
    return None, s[n:]


def scan(text: str, tmpl: str) -> str | None:
    """chrono's error for ``text`` under the pattern, or None when its shape parses."""
    s = text
    for item in compile_pattern(tmpl):
        if item == " ":
            s = s.lstrip()
            continue
        if item in _NUMBERS:
            lo, hi, signed = _NUMBERS[item]
            s = s.lstrip()
            if not s:
                return TOO_SHORT
            if signed and s[0] in "+-":
                err, s = _number(s[1:], 1, 10**6)
            else:
                err, s = _number(s, lo, hi)
            if err:
                return err
            continue
        if item in _FRACTIONS:
            err, s = _number(s, _FRACTIONS[item], _FRACTIONS[item])
            if err:
                return err
            continue
        if item in ("%p", "%P"):
            if len(s) < 2:
                return TOO_SHORT
            if s[:2].upper() not in ("AM", "PM"):
                return INVALID
            s = s[2:]
            continue
        if item in ("%b", "%B"):
            low = s.lower()
            names = [m for m in _MONTHS if low.startswith(m)] if item == "%B" else []
            names += [m[:3] for m in _MONTHS if low.startswith(m[:3])]
            if not names:
                return TOO_SHORT if len(s) < 3 else INVALID
            s = s[len(max(names, key=len)) :]
            continue
        if item in ("%:z", "%z", "%#z"):
            if not s:
                return TOO_SHORT
            if s[0] not in "+-":
                return INVALID
            err, rest = _number(s[1:], 2, 2)
            if err:
                return err
            if item == "%:z" or (item == "%#z" and rest.startswith(":")):
                if not rest.startswith(":"):
                    return TOO_SHORT if not rest else INVALID
                rest = rest[1:]
            if item != "%#z" or rest[:1].isdigit():
                err, rest = _number(rest, 2, 2)
                if err:
                    return err
            s = rest
            continue
        if not s:
            return TOO_SHORT
        if not s.startswith(item):
            return INVALID
        s = s[len(item) :]
    return TOO_LONG if s else None


# chrono item -> PostgreSQL's to_char pattern printing the same (chrono's %B is the month's
# whole name unpadded: FMMonth; %9f the nanoseconds: the data plane's values are whole
# microseconds, so US and three zeros)
_PG_FORMAT = {
    "%H": "HH24", "%I": "HH12", "%p": "AM", "%P": "am", "%M": "MI", "%S": "SS", "%Y": "YYYY",
    "%y": "YY", "%G": "IYYY", "%g": "IY", "%m": "MM", "%B": "FMMonth", "%b": "Mon", "%d": "DD",
    "%9f": 'US"000"', "%6f": "US", "%3f": "MS", "%:z": "TZH:TZM", "%z": "TZHTZM", "%#z": "TZH",
}  # fmt: skip


def to_char_format(tmpl: str) -> str | None:
    """PostgreSQL's ``to_char`` format printing what RisingWave's ``to_char`` prints for the
    pattern (to_char.rs ``ChronoPattern::compile``: RisingWave's patterns, leftmost longest,
    everything else literal text, where PostgreSQL reads more patterns); None for a pattern
    holding ``%``, which chrono would read as its own item."""
    if "%" in tmpl:
        return None
    out: list[str] = []
    literal: list[str] = []
    i = 0
    while i < len(tmpl):
        best, item = "", ""
        for pg, ch in PATTERNS:
            if tmpl.startswith(pg, i) and len(pg) > len(best):
                best, item = pg, ch
        if not best:
            literal.append(tmpl[i])
            i += 1
            continue
        if literal:
            out.append(_quoted("".join(literal)))
            literal = []
        out.append(_PG_FORMAT[item])
        i += len(best)
    if literal:
        out.append(_quoted("".join(literal)))
    return "".join(out)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
