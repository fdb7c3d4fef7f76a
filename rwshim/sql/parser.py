"""The front door: ``parse(text) -> list[Statement]``.

Like RisingWave's ``Parser::parse_sql`` (src/sqlparser/src/parser.rs:196-290) the whole query
string is tokenized first (so a tokenizer error wins), then split at `;` and read statement by
statement; the first failure is the error of the whole string, located in the whole string.

Each statement is routed by its first words: RisingWave's own statements go to the lark
grammar (rwparser), PostgreSQL syntax to pglast (pgparser).  A first word that starts no
statement RisingWave knows is ``expected statement, found: <word>`` (parser.rs:276-354): that
includes PostgreSQL statements RisingWave lacks (RESET, SAVEPOINT, RELEASE, LISTEN, UNLISTEN,
NOTIFY, DO, CALL, LOCK, ...).
"""

from __future__ import annotations

import re

import msgspec.structs

from rwshim.sql import literals, pgjson
from rwshim.sql import statements as st
from rwshim.sql.cache import SizedLRU, TextLRU
from rwshim.sql.errors_text import expected_error, located
from rwshim.sql.limits import check_depth
from rwshim.sql.tokens import Kind, Token, tokenize

# First words RisingWave's parse_statement dispatches on (parser.rs:276-354), by who reads them.
_RW_FIRST = {
    "ALTER",
    "CREATE",
    "DROP",
    "SET",
    "SHOW",
    "CANCEL",
    "KILL",
    "WAIT",
    "FLUSH",
    "RECOVER",
    "DESCRIBE",
    "GRANT",
    "REVOKE",
    "USE",
    "BACKUP",
    "REFRESH",
    # rwshim's test-control extension (grammar/risingwave.lark `rwshim`).
    "RWSHIM",
}
_PG_FIRST = {
    "SELECT",
    "WITH",
    "VALUES",
    "DECLARE",
    "FETCH",
    "CLOSE",
    "TRUNCATE",
    "DELETE",
    "INSERT",
    "UPDATE",
    "COPY",
    "START",
    "ABORT",
    "BEGIN",
    "COMMIT",
    "ROLLBACK",
    "DEALLOCATE",
    "EXECUTE",
    "PREPARE",
    "COMMENT",
    "DISCARD",
    "VACUUM",
    "ANALYZE",
}
# CREATE/ALTER forms that are PostgreSQL syntax (pglast reads them).  CREATE DATABASE is
# RisingWave's own (IF NOT EXISTS, RESOURCE_GROUP, ...: parser.rs:2026-2086).
# First words of a statement that is a query unless WITH heads a DML statement.
_QUERY_FIRST = {"SELECT", "WITH", "VALUES"}
_PG_CREATE = {"SCHEMA", "USER"}
_PG_ALTER = {"USER"}


# Parses by query text, bounded by the texts' size (a parsed statement keeps a copy of its
# text, hence the factor 2): 64 MiB, whatever the number of statements.
PARSE_CACHE_BYTES = 64 * 1024 * 1024
_PARSES: TextLRU[tuple[st.Statement, ...]] = TextLRU(PARSE_CACHE_BYTES, factor=2)


def parse(text: str) -> list[st.Statement]:
    """Parse a query string into typed statements; raises SqlParserError as RisingWave would."""
    return list(_PARSES.get_or_make(text, lambda: _parse_new(text)))


# Statements of one query or DML statement, shared by the texts that differ only in integer
# literals (rwshim/sql/literals): skeleton -> (the statement, the characters before its text
# and after it), None when the skeleton's parse is not shared, or _SEEN after its first text
# (a skeleton is probed on its second text: texts whose skeletons never repeat, such as
# INSERTs of string values, pay no probe).
# Bounded by the skeletons' bytes like the parses (a shared statement holds its text).
_SHARED: SizedLRU[tuple[str, ...], tuple[st.Statement, int, int] | None] = SizedLRU(
    PARSE_CACHE_BYTES // 4, factor=2
)
_SHAREABLE = (st.Query, st.Insert, st.Update, st.Delete)
_SHARE_FIRST = re.compile(r"\s*(?:select|with|values|insert|update|delete|\()", re.IGNORECASE)
_UNKNOWN = (st.Query(""), -1, -1)
_SEEN = (st.Query(""), -2, -2)


def _parse_new(text: str) -> tuple[st.Statement, ...]:
    bare = text.strip()
    if not _SHARE_FIRST.match(text) or _CONSTANT_SELECT.fullmatch(bare.removesuffix(";").rstrip()):
        return _parse_uncached(text)  # SELECT 1 needs neither pglast nor sharing
    lits = literals.literals(text)
    if lits is None:
        return _parse_uncached(text)
    shared = _SHARED.get(lits.skeleton, _UNKNOWN)
    if shared is None:
        return _parse_uncached(text)
    if shared is not _UNKNOWN and shared is not _SEEN:
        stmt, head, tail = shared
        return (msgspec.structs.replace(stmt, text=text[head : len(text) - tail]),)
    out = _parse_uncached(text)  # an error is not remembered
    _SHARED.put(lits.skeleton, _SEEN if shared is _UNKNOWN else _share(text, lits, out))
    return out


def _share(
    text: str, lits: literals.Literals, out: tuple[st.Statement, ...]
) -> tuple[st.Statement, int, int] | None:
    """How ``out``, the parse of ``text``, serves the other texts of its skeleton: only when
    the parse of a probe (marker literals) is the same statement with its own text."""
    if len(out) != 1 or type(out[0]) not in _SHAREABLE:
        return None
    stmt = out[0]
    head = len(text) - len(text.lstrip())
    if not text.startswith(stmt.text, head) or text[head + len(stmt.text) :].strip() not in (
        "",
        ";",
    ):
        return None  # a comment around it (whose digits are no literals)
    tail = len(text) - head - len(stmt.text)
    marks = literals.markers(len(lits.values))
    if literals.mentions_marker((text,), marks):
        return None
    probe = literals.fill(lits, marks)
    try:
        got = _parse_uncached(probe)
    except Exception:  # whatever the probe meets, the text's own parse stands
        return None
    if got != (msgspec.structs.replace(stmt, text=probe[head : len(probe) - tail]),):
        return None
    return stmt, head, tail


def _parse_uncached(text: str) -> tuple[st.Statement, ...]:
    toks = tokenize(text)
    out: list[st.Statement] = []
    group: list[Token] = []
    for tok in toks:
        if tok.kind is Kind.EOF or (tok.kind is Kind.OP and tok.value == ";"):
            if group:
                out.append(_statement(text, group, tok))
            group = []
        else:
            group.append(tok)
    return tuple(out)


def parse_cache_clear() -> None:
    """Forget cached parses (tests measuring cold parses use it)."""
    _PARSES.clear()
    _SHARED.clear()


def _statement(sql: str, toks: list[Token], stop: Token) -> st.Statement:
    # Before pglast or lark sees it: too deep a statement overflows their stacks.
    check_depth(toks)
    # EXPLAIN [EXPLAIN ...] <statement>: peeled in a loop, not by recursion.
    explains: list[str] = []
    job: st.Statement | None = None
    while toks[0].upper == "EXPLAIN":
        body = _explain_body(sql, toks, stop)
        if len(toks) > 1 and toks[1].upper == "ANALYZE":
            job = _analyze_target(sql, toks, body, stop)
            if job is not None:
                break
        explains.append(sql[toks[0].start : toks[-1].end])
        toks = toks[body:]
    out = job if job is not None else _one(sql, toks, stop)
    for text in reversed(explains):
        out = st.Explain(text, out)
    return out


def _one(sql: str, toks: list[Token], stop: Token) -> st.Statement:
    first = toks[0]
    text = sql[first.start : toks[-1].end]
    up = first.upper
    second = toks[1].upper if len(toks) > 1 else ""
    if up == "ABORT":  # RisingWave's own statement (parser.rs:317), not PostgreSQL's ROLLBACK
        if len(toks) > 1:
            raise expected_error(sql, toks[1], "end of statement")
        return st.Abort(text)
    if (up == "CREATE" and second in _PG_CREATE) or (up == "ALTER" and second in _PG_ALTER):
        if second == "USER":
            return _pg(sql, text, toks, stop, _user_options_for_pg(sql, text, toks, stop))
        return _pg(sql, text, toks, stop)
    if up in _RW_FIRST:
        # imported here: lark and the grammar load with the first RisingWave statement
        from rwshim.sql.rwparser import parse_rw

        return parse_rw(sql, toks, stop, text)
    if up == "DECLARE" or up == "FETCH":
        # RisingWave's cursor forms pglast lacks (rwshim.sql.subcursor)
        from rwshim.sql import subcursor

        if subcursor.is_subscription_declare(toks):
            return subcursor.parse_subscription_declare(sql, text, toks, stop)
        if up == "FETCH":
            n, opts = subcursor.split_fetch_with(sql, toks, stop)
            if opts:
                head = toks[:n]
                out = _pg(sql, sql[first.start : head[-1].end], head, stop)
                assert isinstance(out, st.FetchCursor)
                return st.FetchCursor(text, out.cursor, out.count, opts)
    if up in _PG_FIRST or (first.kind is Kind.OP and first.value == "("):
        return _pg(sql, text, toks, stop)
    raise expected_error(sql, first, "statement")


# A SELECT of constants only (integers, '' strings, <int> {+|-|*} <int>): valid
# PostgreSQL and RisingWave syntax whatever the values, so it is a Query without asking pglast
# (which is then imported only when a statement needs it; SELECT 1 is most of what pools and
# health checks send).  The read path has the matching fast path (catalog_path/sqlite/fast_path.py).
_CONSTANT_SELECT = re.compile(
    r"select\s+"
    r"(?:(?:-?\d+|\d+\s*[-+*]\s*\d+|'(?:[^']|'')*')\s*(?:,\s*(?!$)|$))+",
    re.IGNORECASE,
)


def _user_options_for_pg(sql: str, text: str, toks: list[Token], stop: Token) -> str:
    """CREATE / ALTER USER as pglast reads it: the options read first as RisingWave reads them
    (rwshim.sql.user_options, its errors), then left out (spaces: pglast's error positions
    stay those of the statement); pglast checks the name.  ALTER USER ... RENAME TO and what
    RisingWave's parser stops short of (``ALTER USER u SET ...``) go to pglast as written."""
    from rwshim.sql import user_options

    name_end = 3
    if len(toks) > name_end and toks[name_end].kind is Kind.OP and toks[name_end].value == ".":
        return text  # a qualified name: pglast reports it
    nxt = toks[name_end] if len(toks) > name_end else None
    if nxt is not None and nxt.kind is Kind.WORD and nxt.upper in ("RENAME", "SET", "RESET"):
        return text
    user_options.parse(sql, toks, name_end, stop)
    base = toks[0].start
    cut = toks[name_end].start - base if nxt is not None else len(text)
    return text[:cut] + "".join(c if c == "\n" else " " for c in text[cut:])


def _pg(
    sql: str, text: str, toks: list[Token], stop: Token, pg_text: str | None = None
) -> st.Statement:
    if _CONSTANT_SELECT.fullmatch(text):
        return st.Query(text)
    from rwshim.sql.pgparser import (
        blank_rw_query_syntax,
        build,
        check_pg_json,
        check_pg_text,
        rw_restrictions,
    )

    pg_input = blank_rw_query_syntax(pg_text or text)
    if toks[0].upper in _QUERY_FIRST or toks[0].value == "(":
        # A query needs only its kind from the parse: PostgreSQL's JSON tree, not pglast's
        # Python AST (~100 us), handed to the data path's planner, which walks that tree
        kind, tree, pg_read = check_pg_json(sql, pg_input, toks, stop)
        if kind == "SelectStmt":
            pgjson.offer(pg_read.text, tree)
            return st.Query(text)
    node, pg = check_pg_text(sql, pg_input, toks, stop)
    rw_restrictions(sql, node, toks, stop, pg)
    try:
        return build(node, text, pg)
    except NotImplementedError:
        # PostgreSQL accepts a form RisingWave's parser stops short of (COMMIT PREPARED,
        # ROLLBACK TO SAVEPOINT, ALTER USER ... SET, ...): RisingWave reads the statement
        # keyword (and TRANSACTION/WORK) and then finds no end of statement there.
        i = 1
        while i < len(toks) and toks[i].upper in ("TRANSACTION", "WORK"):
            i += 1
        at = toks[i] if i < len(toks) else stop
        if toks[0].upper == "ALTER":
            at = next((t for t in toks if t.upper in ("SET", "RESET")), at)
        raise expected_error(sql, at, "end of statement") from None


_ANALYZE_TARGETS = {"TABLE", "INDEX", "SINK", "ID"}
_DURATION = r"(?is)\bduration_secs\s+(\d+)"  # compiled by ``re`` on first use


def _analyze_target(
    sql: str, toks: list[Token], body: int, stop: Token
) -> st.ExplainAnalyzeStreamJob | None:
    """EXPLAIN ANALYZE [(options)] followed by a streaming job (parser.rs:4768-4801):
    TABLE / INDEX / MATERIALIZED VIEW / SINK <name> or ID <u32>; None for a statement."""
    i = body
    up = toks[i].upper
    target = up
    if up == "MATERIALIZED" and i + 1 < len(toks) and toks[i + 1].upper == "VIEW":
        target, i = "MATERIALIZED VIEW", i + 2
    elif up in _ANALYZE_TARGETS and not toks[i].quoted:
        i += 1
    else:
        return None
    at = toks[i] if i < len(toks) else stop
    name: st.ObjectName | None = None
    job_id: int | None = None
    if target == "ID":
        if at.kind is not Kind.NUMBER or not at.value.isdigit():
            # winnow's literal_u32: the number parser's label (parser_v2/number.rs:51-59)
            raise located(sql, at, "invalid number")
        if int(at.value) >= 2**32:
            raise located(sql, at, "invalid u32")
        job_id, i = int(at.value), i + 1
    else:
        parts: list[str] = []
        while True:
            at = toks[i] if i < len(toks) else stop
            if at.kind is not Kind.WORD:
                raise expected_error(sql, at, "identifier")
            parts.append(at.value if at.quoted else at.value.lower())
            i += 1
            if i < len(toks) and toks[i].kind is Kind.OP and toks[i].value == ".":
                i += 1
                continue
            break
        name = st.ObjectName(tuple(parts))
    if i < len(toks):
        raise expected_error(sql, toks[i], "end of statement")
    opts = sql[toks[1].end : toks[body].start]
    m = re.search(_DURATION, opts)
    text = sql[toks[0].start : toks[-1].end]
    return st.ExplainAnalyzeStreamJob(text, target, name, job_id, int(m.group(1)) if m else None)


def _explain_body(sql: str, toks: list[Token], stop: Token) -> int:
    """Where the statement after ``EXPLAIN [ANALYZE] [VERBOSE] [(options)]`` starts
    (parser.rs:4690-4770)."""
    i = 1
    while i < len(toks) and toks[i].upper in ("ANALYZE", "VERBOSE"):
        i += 1
    if i < len(toks) and toks[i].kind is Kind.OP and toks[i].value == "(":
        depth = 0
        while i < len(toks):
            if toks[i].value == "(" and toks[i].kind is Kind.OP:
                depth += 1
            elif toks[i].value == ")" and toks[i].kind is Kind.OP:
                depth -= 1
                if depth == 0:
                    i += 1
                    break
            i += 1
    if i >= len(toks):
        raise expected_error(sql, stop, "statement")
    return i
