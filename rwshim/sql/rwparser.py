"""RisingWave's own statements: grammar/risingwave.lark over our tokens, to typed statements.

The lark parser (LALR) is built once and cached.  Its lexer does not scan text: it walks the
tokens of ``tokens.tokenize`` and, asking the parser which terminals the current state accepts,
emits an unquoted word as a keyword only where that keyword is accepted (so keywords remain
usable as names, as in RisingWave), a parenthesised group as one PARENS token, a query as one
QUERY token and the remainder of a statement as REST where the grammar wants them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lark import Lark
from lark import Token as LarkToken
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Lexer, LexerState

from rwshim.errors import SqlParserError
from rwshim.sql import statements as st
from rwshim.sql.builder import Build
from rwshim.sql.errors_text import (
    expected_error,
    expected_text,
    generic_expected,
    located,
    signature,
)
from rwshim.sql.pgparser import blank_rw_query_syntax, check_pg
from rwshim.sql.tokens import Kind, Token

_HERE = Path(__file__).resolve()


def grammar_path() -> Path:
    """Where risingwave.lark is: inside the wheel (rwshim/grammar) or in a checkout (grammar/)."""
    for cand in (
        _HERE.parents[1] / "grammar" / "risingwave.lark",
        _HERE.parents[2] / "grammar" / "risingwave.lark",
    ):
        if cand.is_file():
            return cand
    raise FileNotFoundError("risingwave.lark not found beside rwshim/ nor in rwshim/grammar/")


_PUNCT = {
    "=": "EQ",
    ",": "COMMA",
    "(": "LPAR",
    ")": "RPAR",
    ".": "DOT",
    "-": "MINUS",
    "->": "ARROW",
}
_LITERAL_KIND = {
    Kind.NUMBER: "NUMBER",
    Kind.STRING: "STRING",
    Kind.ESTRING: "ESTRING",
    Kind.NSTRING: "NSTRING",
    Kind.XSTRING: "XSTRING",
    Kind.DOLLAR: "DOLLAR",
    Kind.PARAM: "PARAM",
}


_NOT_KEYWORDS = {
    "IDENT",
    "NUMBER",
    "STRING",
    "ESTRING",
    "NSTRING",
    "XSTRING",
    "DOLLAR",
    "PARAM",
    "EQ",
    "COMMA",
    "LPAR",
    "RPAR",
    "DOT",
    "ARROW",
    "OP",
    "MINUS",
    "QUERY",
    "PARENS",
    "REST",
    "BAD",
}


class _Source(str):
    """The statement handed to lark: its text plus the tokens the lexer walks."""

    toks: list[Token]
    stop: Token  # the token after the statement (`;` or EOF)
    emitted: list[tuple[str, Token]]
    queries: list[tuple[int, int]]  # token index spans of the QUERY tokens emitted


class _TokenLexer(Lexer):
    """Feeds lark our tokens, choosing each token's terminal from the parser state."""

    __future_interface__ = 2

    def __init__(self, lexer_conf: Any) -> None:
        self.keywords: set[str] = set()

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[LarkToken]:
        src = lexer_state.text.text if hasattr(lexer_state.text, "text") else lexer_state.text
        assert isinstance(src, _Source)
        toks = src.toks
        states = parser_state.parse_conf.parse_table.states
        if not self.keywords:
            # %declare'd terminals are not in the lexer configuration: take them from the table.
            self.keywords = {k for acts in states.values() for k in acts} - _NOT_KEYWORDS
            self.keywords.discard("$END")
        i = 0
        while i < len(toks):
            accepts = states[parser_state.position]
            tok = toks[i]
            kind, end = self._classify(toks, i, accepts, parser_state)
            last = toks[end - 1]
            src.emitted.append((kind, tok))
            if kind == "QUERY":
                src.queries.append((i, end))
            value = src[tok.start - toks[0].start : last.end - toks[0].start]
            yield LarkToken(
                kind, value, start_pos=tok.start, line=tok.line, column=tok.col, end_pos=last.end
            )
            i = end

    def _classify(
        self, toks: list[Token], i: int, accepts: dict[str, Any], parser_state: Any
    ) -> tuple[str, int]:
        """The terminal for ``toks[i]`` (and how many tokens it covers).

        Candidates in order of preference: the keyword, the token's own kind, then the
        stretch terminals.  LALR states share look-aheads between contexts, so when several
        candidates look acceptable each is tried on a copy of the parser state.
        """
        tok = toks[i]
        up = tok.upper
        cands: list[str] = []
        if up and up in self.keywords and not (up == "IF" and not _if_keywords_follow(toks, i)):
            cands.append(up)
        if tok.kind is Kind.WORD:
            cands.append("IDENT")
        elif tok.kind in _LITERAL_KIND:
            cands.append(_LITERAL_KIND[tok.kind])
        else:
            cands.append(_PUNCT.get(tok.value, "OP"))
            if tok.value == "(":
                cands.append("PARENS")
        cands += ["QUERY", "REST"]
        live = [c for c in cands if c in accepts]
        if not live:
            return cands[0], i + 1
        if len(live) > 1:
            live = [c for c in live if self._feeds(parser_state, c, tok)] or live
        choice = live[0]
        if choice == "QUERY":
            return choice, _query_end(toks, i)
        if choice == "PARENS":
            return choice, _group_end(toks, i)
        if choice == "REST":
            return choice, len(toks)
        return choice, i + 1

    @staticmethod
    def _feeds(parser_state: Any, terminal: str, tok: Token) -> bool:
        # Values are deep-copied: lark extends the first child's list in place when it
        # reduces a repetition, which would otherwise leak into the real parse.
        trial = parser_state.copy()
        try:
            trial.feed_token(LarkToken(terminal, tok.value, start_pos=tok.start))
        except UnexpectedToken:
            return False
        return True


def _if_keywords_follow(toks: list[Token], i: int) -> bool:
    """IF is a keyword only as IF [NOT] EXISTS, or in ON CONFLICT DO UPDATE IF NOT NULL
    (parser.rs:2893-2900): RisingWave reads both with parse_keywords, all or nothing, and
    otherwise takes the word as a name."""
    nxt = [t.upper for t in toks[i + 1 : i + 3]]
    return nxt[:1] == ["EXISTS"] or nxt in (["NOT", "EXISTS"], ["NOT", "NULL"])


def _group_end(toks: list[Token], i: int) -> int:
    depth = 0
    for j in range(i, len(toks)):
        v = toks[j].value if toks[j].kind is Kind.OP else ""
        if v in ("(", "["):
            depth += 1
        elif v in (")", "]"):
            depth -= 1
            if depth == 0:
                return j + 1
    return len(toks)


def _query_end(toks: list[Token], i: int) -> int:
    """A query runs to a top-level `WITH (` (sink options) or `EMIT ...` (an EMIT clause, or a
    trailing EMIT), else to the end."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.kind is Kind.OP and t.value in ("(", "["):
            depth += 1
        elif t.kind is Kind.OP and t.value in (")", "]"):
            depth -= 1
        elif depth == 0 and j > i and j + 1 < len(toks):
            nxt = toks[j + 1]
            if t.upper == "WITH" and nxt.kind is Kind.OP and nxt.value == "(":
                return j
            if t.upper == "EMIT" and nxt.upper in ("IMMEDIATELY", "ON"):
                return j
        elif depth == 0 and j > i and t.upper == "EMIT":
            return j  # a trailing EMIT: the emit clause, incomplete
    return len(toks)


@functools.cache
def lark_parser() -> Lark:
    """The LALR parser for grammar/risingwave.lark, built once."""
    return Lark(
        grammar_path().read_text(),
        parser="lalr",
        lexer=_TokenLexer,
        start="start",
        maybe_placeholders=True,
        propagate_positions=False,
        cache=True,
    )


def parse_rw(sql: str, toks: list[Token], stop: Token, text: str) -> st.Statement:
    """Parse one RisingWave statement (``toks``, without the `;`) of the query string ``sql``."""
    src = _Source(text)
    src.toks = toks
    src.stop = stop
    src.emitted = []
    src.queries = []
    try:
        tree = lark_parser().parse(src)
    except UnexpectedToken as e:
        raise _error(sql, src, e) from None
    except UnexpectedInput as e:  # pragma: no cover - the lexer never fails on its own
        raise SqlParserError(str(e)) from None
    _check_queries(sql, src)
    try:
        out = Build(sql, text, toks, stop).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, SqlParserError):
            raise e.orig_exc from None
        raise
    assert isinstance(out, st.Statement)
    return out


def _error(sql: str, src: _Source, e: UnexpectedToken) -> SqlParserError:
    # LALR states share look-aheads, so e.expected can name terminals this prefix cannot
    # take; the interactive parser tries each one for the true set.
    expected = set(e.expected)
    ip: Any = e.interactive_parser
    if ip is not None:
        expected = set(ip.accepts()) or expected
    if e.token.type == "$END":
        found = src.stop
        consumed = src.emitted
    else:
        found = next(t for t in src.toks if t.start == e.token.start_pos)
        consumed = src.emitted[:-1]
    # RisingWave reads left to right: a bad query before the failure point fails first.
    _check_queries(sql, src, found)
    early = _early_error(sql, src, consumed)
    if early is not None:
        return early
    backtracked = _backtrack(consumed)
    if backtracked is not None:
        consumed, found = backtracked
        expected = set()
    sig = signature(consumed)
    if _RATE_VALUE.fullmatch(sig):
        return expected_error(sql, found, _value_expectation(found))
    if _OPTION_VALUE.fullmatch(sig):
        return expected_error(sql, found, "a value")  # parse_value_and_obj_ref, parser.rs:4233
    if _OPTION_DONE.fullmatch(sig):
        # parse_options_inner (parser.rs:3031-3044)
        return expected_error(sql, found, "',' or ')' after option definition")
    what = expected_text(sig, expected)
    if isinstance(what, str) and what.startswith("!"):
        return located(sql, found, what[1:])
    if what is False:
        what = generic_expected(expected)
    err = expected_error(sql, found, what if isinstance(what, str) else None)
    err.relocate = (sig, sql, found)  # for a release whose parser words it otherwise
    return err


_OPTION_VALUE = re.compile(r".*[(,] <id>(?: \. <id>)* =")
# A complete `key = value` inside an option list: a comma or `)` is due.
_OPTION_DONE = re.compile(
    r".*[(,] <id>(?: \. <id>)* = "
    r"(?:<str>|<num>|- <num>|TRUE|FALSE|NULL|SECRET <id>(?: \. <id>)*(?: AS FILE)?"
    r"|<id>(?: \. <id>)*|<id> \( .*\))"
)
_RATE_VALUE = re.compile(r".* (?:SOURCE|BACKFILL|DML|SINK)?_?RATE_LIMIT (?:TO|=)")


# Keyword sequences RisingWave reads with parse_keywords: all or nothing, so a failure inside
# one is reported at its first word, by the rule for what came before it.
_ATOMIC = [
    ("OWNER", "TO"),
    ("SWAP", "WITH"),
    ("REFRESH", "SCHEMA"),
    ("UNIQUE", "INDEX"),
    ("DEFAULT", "PRIVILEGES"),
    ("WITH", "GRANT", "OPTION"),  # parse_grant (parser.rs:5656-5657)
    ("GRANT", "OPTION", "FOR"),  # parse_revoke, parse_alter_default_privileges
    ("GRANTED", "BY"),
]


def _backtrack(consumed: list[tuple[str, Token]]) -> tuple[list[tuple[str, Token]], Token] | None:
    if not consumed:
        return None
    kinds = [k for k, _ in consumed]
    seqs: list[tuple[str, ...]] = list(_ATOMIC)
    if kinds[0] in ("ALTER", "CREATE", "DROP"):
        seqs.append(("MATERIALIZED", "VIEW"))
    if kinds[:3] == ["ALTER", "DEFAULT", "PRIVILEGES"]:
        seqs.append(("IN", "SCHEMA"))  # parse_alter_default_privileges (parser.rs:5927)
    for seq in seqs:
        for n in range(1, len(seq)):
            # the failure comes after a proper prefix of the sequence (not after a statement's
            # own first word: `GRANT` opening GRANT is no prefix of GRANT OPTION FOR)
            if len(kinds) > n and tuple(kinds[-n:]) == seq[:n]:
                return consumed[:-n], consumed[-n][1]
    return None


def _check_queries(sql: str, src: _Source, before: Token | None = None) -> None:
    """pglast checks each query lark took as one QUERY token (those before ``before``)."""
    for qs, qe in src.queries:
        qtoks = src.toks[qs:qe]
        if before is not None and before.start < qtoks[-1].end:
            continue
        qstop = src.toks[qe] if qe < len(src.toks) else src.stop
        text = sql[qtoks[0].start : qtoks[-1].end]
        check_pg(sql, blank_rw_query_syntax(text), qtoks, qstop, query=True)


def _early_error(
    sql: str, src: _Source, consumed: list[tuple[str, Token]]
) -> SqlParserError | None:
    """A value check RisingWave makes as it reads, before the token lark stopped at.

    The transformer makes these checks too, but only once the whole statement parsed.
    """
    kinds = [k for k, _ in consumed]
    for i, (kind, tok) in enumerate(consumed):
        # a rate limit must fit in i32 (parser.rs:3470-3483)
        if (
            kind == "NUMBER"
            and i >= 2
            and kinds[i - 1] in ("EQ", "TO")
            and kinds[i - 2].endswith("RATE_LIMIT")
            and not _fits_i32(tok.value)
        ):
            idx = src.toks.index(tok)
            after = src.toks[idx + 1] if idx + 1 < len(src.toks) else src.stop
            return expected_error(sql, after, "number or DEFAULT")
        # `default` as a later list item (parser.rs:4271-4273)
        if (
            kind == "IDENT"
            and i >= 1
            and kinds[i - 1] == "COMMA"
            and tok.value == "default"
            and not tok.quoted
        ):
            return expected_error(sql, tok, "parameter list value")
    return None


def _fits_i32(text: str) -> bool:
    try:
        return -(2**31) <= int(text) < 2**31
    except ValueError:
        return False


def _value_expectation(tok: Token) -> str:
    """What parse_number_value says about a non-number (parser.rs:4197-4234, 4319-4325)."""
    if tok.kind is Kind.WORD and not tok.quoted and tok.upper not in ("TRUE", "FALSE", "NULL"):
        return "a concrete value"
    if tok.kind in (Kind.WORD, Kind.STRING, Kind.ESTRING, Kind.NSTRING, Kind.XSTRING, Kind.DOLLAR):
        return "literal number"
    return "a value"
