"""Where RisingWave's parser is more lenient than PostgreSQL's, made readable by pglast.

RisingWave parses queries with its own hand-written parser (src/sqlparser/src/parser.rs); rwshim
checks them with PostgreSQL's (pglast).  Two forms RisingWave accepts and PostgreSQL rejects are
rewritten here into equivalent PostgreSQL text before pglast reads it:

- a subscript on a function result or an ARRAY constructor, ``regexp_match(s, p)[1]``,
  ``array[1, 2][1]``: RisingWave's ``[`` is an infix operator on any expression
  (parser.rs parse_infix / parse_array_index, precedence ``Array``); PostgreSQL subscripts only
  column references and parenthesised expressions, so the operand is parenthesised;
- a keyword as a relation or user name, ``SELECT * FROM table``, ``INSERT INTO user ...``,
  ``CREATE USER user``: RisingWave
  reads relation names with ``parse_object_name`` / ``parse_identifier``, which take any word
  (parser.rs:4476-4545); PostgreSQL's reserved and type/function-name keywords are not
  relation names there, so such a word is replaced by a placeholder of the same length and the
  real name is remembered by offset (the caller maps the parse tree's names back).

The other direction, words RisingWave reserves where PostgreSQL does not, is
``RESERVED_FOR_COLUMN_OR_TABLE_NAME`` (src/sqlparser/src/keywords.rs): a column definition or a
column list naming one fails with ``syntax error at or near <word>``
(``parse_identifier_non_reserved``, parser.rs:4548-4559).

Everything here is a pure function of the statement's tokens.
"""

from __future__ import annotations

import bisect
import functools
import re

from msgspec import Struct, field

from rwshim.common.keywords_generated import RESERVED_FOR_COLUMN_OR_TABLE_NAME
from rwshim.sql import changelog_cte, session_frames
from rwshim.sql.tokens import Kind, Token, tokenize


@functools.cache
def _pg_not_relation() -> frozenset[str]:
    """PostgreSQL keywords that cannot be a relation name (not a ColId): reserved and
    type/function-name keywords (pglast loads on first use, with the first such statement)."""
    from pglast import keywords as pg_keywords

    return frozenset(
        k.upper() for k in (*pg_keywords.RESERVED_KEYWORDS, *pg_keywords.TYPE_FUNC_NAME_KEYWORDS)
    )


@functools.cache
def _candidate_rx() -> re.Pattern[str]:
    """A quick test for texts that may hold a keyword as a relation name."""
    words = "|".join(sorted(_pg_not_relation()))
    return re.compile(rf"(?i)(?:\b(?:from|join|into|update|truncate|copy|table)|,)\s+(?:{words})\b")


# Words after which a relation name follows in a query level (parse_table_factor, parse_insert,
# parse_update, parse_delete, parse_truncate).
_RELATION_AFTER = {"FROM", "JOIN", "INTO", "UPDATE", "TRUNCATE", "COPY"}
# What may stand before the verb UPDATE (``EXPLAIN [ANALYZE] [VERBOSE] [(...)] UPDATE``)
_BEFORE_VERB = {"EXPLAIN", "ANALYZE", "VERBOSE"}
# ... of which these may be followed by a table function instead (``FROM generate_series(...)``).
_FROM_LIKE = {"FROM", "JOIN"}
# Words that end a FROM list (its commas no longer separate relations).
_FROM_ENDS = {
    "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "OFFSET", "FETCH", "UNION",
    "INTERSECT", "EXCEPT", "RETURNING", "SET", "VALUES", "SELECT", "EMIT",
}  # fmt: skip
# A word before `(` that makes the parentheses something other than a function call's
# arguments (a subquery, a list, a window, a quantified comparison...): never subscripted.
_NOT_A_CALL = {
    "IN", "EXISTS", "VALUES", "ANY", "ALL", "SOME", "USING", "ON", "AS", "OVER", "FILTER",
    "WITHIN", "AND", "OR", "NOT", "WHERE", "SELECT", "FROM", "JOIN", "LATERAL", "WITH", "INTO",
    "TABLE", "ROW", "BY", "WHEN", "THEN", "ELSE", "CASE", "IS", "LIKE", "ILIKE", "BETWEEN",
}  # fmt: skip


class PgText(Struct):
    """A statement's text as pglast should read it, with the way back to the original."""

    text: str
    # Offsets (relative to the statement's start, in the original text) before which one
    # character was inserted; sorted.
    inserts: list[int] = field(default_factory=list)
    # Offset (in ``text``) of a placeholder word -> the relation name it stands for (folded).
    names: dict[int, str] = field(default_factory=dict)

    def original_offset(self, offset: int) -> int:
        """An offset in ``text`` as an offset in the original statement text."""
        n = 0
        for pos in self.inserts:
            if pos + n < offset:
                n += 1
            else:
                break
        return offset - n

    def name_for(self, word: str) -> str:
        """The name a placeholder word of ``text`` stands for (``word`` when it is none)."""
        for name in self.names.values():
            if word == "_" + name[1:]:
                return name
        return word

    def pg_offset(self, original: int) -> int:
        """An offset in the original statement text as an offset in ``text``."""
        return original + bisect.bisect_right(self.inserts, original)


def pg_text(text: str, toks: list[Token]) -> PgText:
    """``text`` (the statement ``toks`` spans) in a form PostgreSQL's parser accepts whenever
    RisingWave's does, for the two forms above and the changelog CTE
    (rwshim.sql.changelog_cte)."""
    out = _pg_text(text, toks)
    if session_frames.mentions(out.text):  # SESSION WITH GAP <expr> blanked (same length)
        out = PgText(session_frames.blanked(out.text), out.inserts, out.names)
    if not changelog_cte.mentions(out.text):
        return out
    try:
        more = [t for t in tokenize(out.text) if t.kind is not Kind.EOF]
    except Exception:  # the statement's own parse reports what is wrong with it
        return out
    rewritten, added = changelog_cte.for_postgres_parse(out.text, more)
    if not added:
        return out
    # ``added`` are offsets in out.text: as offsets in the original, merged with out's own
    inserts = sorted([*out.inserts, *(out.original_offset(a) for a in added)])
    moved = {off + bisect.bisect_right(added, off): n for off, n in out.names.items()}
    return PgText(rewritten, inserts, moved)


def _pg_text(text: str, toks: list[Token]) -> PgText:
    if not toks:
        return PgText(text)
    base = toks[0].start
    names: dict[int, str] = {}
    chars = list(text)
    for i in _keyword_relations(toks):
        t = toks[i]
        off = t.start - base
        names[off] = t.value.lower()
        chars[off : t.end - base] = "_" + t.value[1:]
    text = "".join(chars)
    pairs = _subscript_operands(toks)
    if not pairs:
        return PgText(text, [], names)
    inserts: list[tuple[int, str]] = []
    for start, bracket in pairs:
        inserts.append((toks[start].start - base, "("))
        inserts.append((toks[bracket].start - base, ")"))
    inserts.sort(key=lambda p: p[0])
    out: list[str] = []
    prev = 0
    for off, ch in inserts:
        out.append(text[prev:off])
        out.append(ch)
        prev = off
    out.append(text[prev:])
    positions = [off for off, _ in inserts]
    # names' offsets move with the characters inserted before them
    moved = {off + bisect.bisect_right(positions, off): n for off, n in names.items()}
    return PgText("".join(out), positions, moved)


def _is(tok: Token, value: str) -> bool:
    return tok.kind is Kind.OP and tok.value == value


def _keyword_users(toks: list[Token]) -> list[int]:
    """Indexes of words standing as user names in CREATE / ALTER USER (and ALTER USER's
    RENAME TO) that PostgreSQL would read as keywords: RisingWave reads them with
    parse_object_name / parse_identifier (parser.rs parse_create_user, parse_alter_user),
    so ``CREATE USER user`` is a user named user (e2e_test/ddl/privilege.slt)."""
    if len(toks) < 3 or toks[0].upper not in ("CREATE", "ALTER") or toks[1].upper != "USER":
        return []
    out = []
    for i in range(2, len(toks)):
        if i == 2 or (toks[i - 1].upper == "TO" and toks[i - 2].upper == "RENAME"):
            cand = toks[i]
            if cand.kind is Kind.WORD and not cand.quoted and cand.upper in _pg_not_relation():
                out.append(i)
    return out


def _keyword_relations(toks: list[Token]) -> list[int]:
    """Indexes of words standing as relation names that PostgreSQL would read as keywords."""
    out: list[int] = _keyword_users(toks)
    # one entry per open parenthesis: (is a query level, FROM list active)
    levels: list[list[bool]] = [[True, False]]
    n = len(toks)
    for i, t in enumerate(toks):
        level = levels[-1]
        if _is(t, "("):
            nxt = toks[i + 1] if i + 1 < n else None
            query = nxt is not None and (nxt.upper in ("SELECT", "WITH", "VALUES") or _is(nxt, "("))
            levels.append([query, False])
            continue
        if _is(t, ")"):
            if len(levels) > 1:
                levels.pop()
            continue
        if not level[0]:
            continue
        up = t.upper
        if up == "FROM" and i > 0 and toks[i - 1].upper == "DISTINCT":
            continue  # IS [NOT] DISTINCT FROM <expr>
        if up == "FROM":
            level[1] = True
        elif up in _FROM_ENDS:
            level[1] = False
        if i + 1 >= n:
            continue
        comma = _is(t, ",") and level[1]
        truncate_table = up == "TABLE" and i > 0 and toks[i - 1].upper == "TRUNCATE"
        if not (up in _RELATION_AFTER or comma or truncate_table):
            continue
        cand = toks[i + 1]
        if cand.kind is not Kind.WORD or cand.quoted or cand.upper not in _pg_not_relation():
            continue
        if cand.upper in ("LATERAL", "SELECT", "WITH", "VALUES", "ONLY"):
            continue  # RisingWave reads these as keywords there too
        if (
            up == "UPDATE"
            and i > 0
            and not (toks[i - 1].upper in _BEFORE_VERB or _is(toks[i - 1], ")"))
        ):
            continue  # UPDATE names its table only as the statement's verb: a CTE or relation
            # named update elsewhere (``WITH update AS (...) ... FROM a, update WHERE``)
        if up == "TRUNCATE" and cand.upper == "TABLE" and i + 2 < n:
            continue  # TRUNCATE TABLE <name>
        if (up in _FROM_LIKE or comma) and i + 2 < n and _is(toks[i + 2], "("):
            continue  # a table function
        out.append(i + 1)
    return out


def _subscript_operands(toks: list[Token]) -> list[tuple[int, int]]:
    """(operand start, `[` index) of each subscript whose operand PostgreSQL cannot subscript:
    a function call ``name(...)`` (possibly schema-qualified) or ``ARRAY[...]``/``ARRAY(...)``."""
    out: list[tuple[int, int]] = []
    opener: dict[int, int] = {}  # index of a closing bracket -> index of its opening one
    stack: list[int] = []
    for i, t in enumerate(toks):
        if t.kind is not Kind.OP:
            continue
        if t.value in ("(", "["):
            stack.append(i)
        elif t.value in (")", "]") and stack:
            opener[i] = stack.pop()
    for j, t in enumerate(toks):
        if not _is(t, "[") or j == 0:
            continue
        close = j - 1
        if not (_is(toks[close], ")") or _is(toks[close], "]")) or close not in opener:
            continue
        open_ = opener[close]
        if open_ == 0:
            continue
        head = toks[open_ - 1]
        if head.kind is not Kind.WORD:
            continue
        if head.upper == "ARRAY":
            out.append((open_ - 1, j))
            continue
        if not _is(toks[open_], "(") or (not head.quoted and head.upper in _NOT_A_CALL):
            continue
        start = open_ - 1
        while start >= 2 and _is(toks[start - 1], ".") and toks[start - 2].kind is Kind.WORD:
            start -= 2
        out.append((start, j))
    return out


def reserved_name_error_at(toks: list[Token], i: int) -> Token | None:
    """If ``toks[i]`` is a word RisingWave reserves as a column or table name, the token its
    error points at (the next one: the parser has consumed the word), else None."""
    t = toks[i]
    if t.kind is not Kind.WORD or t.quoted or t.upper not in RESERVED_FOR_COLUMN_OR_TABLE_NAME:
        return None
    return toks[i + 1] if i + 1 < len(toks) else None


def quote_keyword_relations(text: str) -> str:
    """``text`` with each keyword standing as a relation name double-quoted (lower-cased, as
    RisingWave folds it), for readers that take such a word as a keyword (sqlglot)."""
    if not _candidate_rx().search(text):
        return text
    try:
        toks = [t for t in tokenize(text) if t.kind is not Kind.EOF]
    except Exception:  # the statement's own parse reports what is wrong with it
        return text
    idx = _keyword_relations(toks)
    if not idx:
        return text
    out: list[str] = []
    prev = 0
    for i in idx:
        t = toks[i]
        out.append(text[prev : t.start])
        out.append('"' + t.value.lower() + '"')
        prev = t.end
    out.append(text[prev:])
    return "".join(out)
