"""RisingWave's parse-error texts: where the parser stopped, and what it says there.

RisingWave's parser is hand-written; each place that can fail names what it expected
(``parser.expected("...")``, src/sqlparser/src/parser.rs).  rwshim's lark grammar fails at the
same token; this module names the failure from the statement prefix consumed so far (a
signature of keywords and placeholders), which is how RisingWave's parser knows it too.
``located()`` adds RisingWave's ``LINE n:`` context and caret (parser.rs:201-228).
"""

from __future__ import annotations

import functools
import re

from rwshim.errors import SqlParserError
from rwshim.sql.tokens import Kind, Token

# An object name in a signature: identifiers joined by dots.
_N = r"<id>(?: \. <id>)*"
# Words that introduce a set-variable value (parser.rs:4250-4288) once a rule has consumed
# `PARALLELISM =` and the like.
_TO = r"(?:TO|=)"
_SETTABLE = r"(?:PARALLELISM|BACKFILL_PARALLELISM|RESOURCE_GROUP)"
_RATE = r"(?:SOURCE_RATE_LIMIT|BACKFILL_RATE_LIMIT|DML_RATE_LIMIT|SINK_RATE_LIMIT|RATE_LIMIT)"

# GRANT / REVOKE: the actions parse_grant_permission takes (parser.rs:5831-5858), how it says
# so (expect_one_of_keywords, parser.rs:1850-1857), and the object types of ALTER DEFAULT
# PRIVILEGES (parse_privilege_object_types, parser.rs:5889-5915).
_ACT = (
    r"(?:CONNECT|CREATE|DELETE|EXECUTE|INSERT|REFERENCES|SELECT|TEMPORARY|TRIGGER|TRUNCATE"
    r"|UPDATE|USAGE)(?: \( (?:<id>(?: , <id>)*)? \))?"
)
_ACTS = rf"{_ACT}(?: , {_ACT})*"
_ONE_OF_ACTIONS = (
    "one of CONNECT or CREATE or DELETE or EXECUTE or INSERT or REFERENCES or SELECT or TEMPORARY"
    " or TRIGGER or TRUNCATE or UPDATE or USAGE"
)
_ADP_FOR = r"(?: FOR USER <id>(?: , <id>)*)?"
_ADP_IN = rf"(?: IN SCHEMA {_N}(?: , {_N})*)?"
_ADP_HEAD = rf"ALTER DEFAULT PRIVILEGES{_ADP_FOR}{_ADP_IN} (?:GRANT|REVOKE(?: GRANT OPTION FOR)?)"
_PRIV_HEAD = rf"(?:GRANT|REVOKE(?: GRANT OPTION FOR)?|{_ADP_HEAD})"
_ADP_KIND = (
    r"(?:TABLES|SOURCES|SINKS|MATERIALIZED VIEWS|VIEWS|FUNCTIONS|SECRETS|CONNECTIONS"
    r"|SUBSCRIPTIONS|SCHEMAS)"
)
_GRANTEE_NEXT = (
    r"(?:GRANT .* TO|REVOKE .* FROM|ALTER DEFAULT PRIVILEGES .* (?:TO|FROM))(?: <id> ,)*"
)
_GRANT_DONE = r"GRANT .* TO <id>(?: , <id>)*(?: WITH GRANT OPTION)?(?: GRANTED BY <id>)?"
_REVOKE_DONE = r"REVOKE .* FROM <id>(?: , <id>)*(?: GRANTED BY <id>)?(?: CASCADE)?(?: RESTRICT)?"
_ADP_KINDS = (
    "TABLES, SOURCES, SINKS, MATERIALIZED VIEWS, VIEWS, FUNCTIONS, SECRETS, CONNECTIONS, "
    "SUBSCRIPTIONS or SCHEMAS"
)

# (regex over the signature of the consumed prefix, what RisingWave says it expected).
# The first rule whose regex matches the whole signature wins.  Keyword pairs RisingWave reads
# all-or-nothing (OWNER TO, SWAP WITH, MATERIALIZED VIEW, ...) are backtracked by the caller.
# The caller appends ", found: <token>"; rules whose text is None print no "found" part
# (winnow's `expect` contexts), and a text starting with "!" is a whole message.
_RULES: list[tuple[str, str | None]] = [
    # ---- ALTER (parser.rs:3180-3215)
    (
        r"ALTER",
        "COMPACTION, DATABASE, FRAGMENT, SCHEMA, TABLE, INDEX, MATERIALIZED, VIEW, SINK, "
        "SUBSCRIPTION, SOURCE, FUNCTION, USER, SECRET or SYSTEM after ALTER",
    ),
    (r"ALTER COMPACTION", "GROUP after ALTER COMPACTION"),
    # rate limits (parser.rs:3470-3501), any object kind
    (rf"ALTER .* SET {_RATE}", "TO or = after rate limit"),
    # parallelism-like values (parser.rs:4250-4288): every "SET X {TO|=}" prefix
    (
        rf"ALTER (?:TABLE (?:ONLY )?|INDEX |MATERIALIZED VIEW |SINK |SOURCE |FRAGMENT |DATABASE )"
        rf"[^=]*SET {_SETTABLE} {_TO}(?: .*,)?",
        None,
    ),
    (rf"ALTER FRAGMENT .* SET PARALLELISM {_TO}(?: .*,)?", None),
    (rf"ALTER SYSTEM SET <id> {_TO}(?: .*,)?", None),
    (rf"ALTER DATABASE {_N} SET <id> {_TO}(?: .*,)?", None),
    (rf"SET (?:SESSION |LOCAL )?<id> {_TO}(?: .*,)?", None),
    # ---- ALTER TABLE (parser.rs:3292-3466)
    (
        rf"ALTER TABLE (?:ONLY )?{_N}",
        "ADD or RENAME or OWNER TO or SET or RESET or DROP or SWAP or CONNECTOR after ALTER TABLE",
    ),
    (
        rf"ALTER TABLE (?:ONLY )?{_N} SET",
        "SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/SOURCE_RATE_LIMIT/DML_RATE_LIMIT/CONFIG after SET",
    ),
    (rf"ALTER TABLE (?:ONLY )?{_N} SET PARALLELISM", "TO or = after ALTER TABLE SET PARALLELISM"),
    (
        rf"ALTER TABLE (?:ONLY )?{_N} SET BACKFILL_PARALLELISM",
        "TO or = after ALTER TABLE SET BACKFILL_PARALLELISM",
    ),
    (rf"ALTER TABLE (?:ONLY )?{_N} RESET", "CONFIG after RESET"),
    (rf"ALTER TABLE (?:ONLY )?{_N} (?:RENAME <id>|RENAME COLUMN <id>)", "TO"),
    # ---- ALTER INDEX (parser.rs:3503-3585)
    (rf"ALTER INDEX {_N}", "RENAME, SET, or RESET after ALTER INDEX"),
    (
        rf"ALTER INDEX {_N} SET",
        "PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP or CONFIG after SET",
    ),
    (rf"ALTER INDEX {_N} SET PARALLELISM", "TO or = after ALTER INDEX SET PARALLELISM"),
    (
        rf"ALTER INDEX {_N} SET BACKFILL_PARALLELISM",
        "TO or = after ALTER INDEX SET BACKFILL_PARALLELISM",
    ),
    (rf"ALTER INDEX {_N} SET RESOURCE_GROUP", "TO or = after ALTER INDEX SET RESOURCE_GROUP"),
    (rf"ALTER INDEX {_N} RESET", "RESOURCE_GROUP or CONFIG after RESET"),
    # ---- ALTER [MATERIALIZED] VIEW (parser.rs:3587-3700)
    (
        rf"ALTER MATERIALIZED VIEW {_N}",
        "AS, RENAME, OWNER TO, SET, or SWAP after ALTER MATERIALIZED VIEW",
    ),
    (rf"ALTER VIEW {_N}", "AS, RENAME, OWNER TO, SET, or SWAP after ALTER VIEW"),
    (
        rf"ALTER (?:(?:MATERIALIZED )?VIEW {_N} SET|VIEW {_N} SET (?:PARALLELISM"
        rf"|BACKFILL_PARALLELISM|RESOURCE_GROUP|CONFIG))",
        "SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/BACKFILL_RATE_LIMIT/CONFIG after SET",
    ),
    (
        rf"ALTER MATERIALIZED VIEW {_N} SET PARALLELISM",
        "TO or = after ALTER MATERIALIZED VIEW SET PARALLELISM",
    ),
    (
        rf"ALTER MATERIALIZED VIEW {_N} SET BACKFILL_PARALLELISM",
        "TO or = after ALTER MATERIALIZED VIEW SET BACKFILL_PARALLELISM",
    ),
    (
        rf"ALTER MATERIALIZED VIEW {_N} SET RESOURCE_GROUP",
        "TO or = after ALTER MATERIALIZED VIEW SET RESOURCE_GROUP",
    ),
    (
        rf"ALTER (?:MATERIALIZED )?VIEW {_N} SET STREAMING_ENABLE_UNALIGNED_JOIN",
        "TO or = after ALTER TABLE SET STREAMING_ENABLE_UNALIGNED_JOIN",
    ),
    (
        rf"ALTER (?:MATERIALIZED )?VIEW {_N} RESET(?: RESOURCE_GROUP| CONFIG)?",
        "RESOURCE_GROUP or CONFIG after RESET",
    ),
    # ---- ALTER SINK (parser.rs:3702-3810)
    (rf"ALTER SINK {_N}", "RENAME or OWNER TO or SET or RESET or CONNECTOR WITH after ALTER SINK"),
    (
        rf"ALTER SINK {_N} SET",
        "SCHEMA/PARALLELISM/BACKFILL_PARALLELISM/RESOURCE_GROUP/"
        "SINK_RATE_LIMIT/BACKFILL_RATE_LIMIT/STREAMING_ENABLE_UNALIGNED_JOIN/CONFIG after SET",
    ),
    (rf"ALTER SINK {_N} SET PARALLELISM", "TO or = after ALTER SINK SET PARALLELISM"),
    (
        rf"ALTER SINK {_N} SET BACKFILL_PARALLELISM",
        "TO or = after ALTER SINK SET BACKFILL_PARALLELISM",
    ),
    (rf"ALTER SINK {_N} SET RESOURCE_GROUP", "TO or = after ALTER SINK SET RESOURCE_GROUP"),
    (
        rf"ALTER SINK {_N} SET STREAMING_ENABLE_UNALIGNED_JOIN",
        "TO or = after ALTER TABLE SET STREAMING_ENABLE_UNALIGNED_JOIN",
    ),
    (rf"ALTER SINK {_N} RESET", "RESOURCE_GROUP or CONFIG after RESET"),
    # ---- ALTER SOURCE (parser.rs:3861-3955)
    (
        rf"ALTER SOURCE {_N}",
        "RENAME, ADD COLUMN, OWNER TO, CONNECTOR, SET or RESET after ALTER SOURCE",
    ),
    (
        rf"ALTER SOURCE {_N} SET",
        "SCHEMA, SOURCE_RATE_LIMIT, PARALLELISM, BACKFILL_PARALLELISM or CONFIG after SET",
    ),
    (rf"ALTER SOURCE {_N} SET PARALLELISM", "TO or = after ALTER SOURCE SET PARALLELISM"),
    (
        rf"ALTER SOURCE {_N} SET BACKFILL_PARALLELISM",
        "TO or = after ALTER SOURCE SET BACKFILL_PARALLELISM",
    ),
    # ---- ALTER SUBSCRIPTION (parser.rs:3812-3857)
    (rf"ALTER SUBSCRIPTION {_N}", "RENAME or OWNER TO or SET or SWAP after ALTER SUBSCRIPTION"),
    (rf"ALTER SUBSCRIPTION {_N} SET", "SCHEMA or RETENTION after SET"),
    (rf"ALTER SUBSCRIPTION {_N} SET RETENTION", "TO or = after ALTER SUBSCRIPTION SET RETENTION"),
    # ---- ALTER DATABASE / SCHEMA / SYSTEM / FRAGMENT (parser.rs:3217-3290, 4017-4122)
    (rf"ALTER DATABASE {_N}", "RENAME, OWNER TO, SET, OR RESET after ALTER DATABASE"),
    (rf"ALTER DATABASE {_N} SET RESOURCE_GROUP", "TO or = after ALTER DATABASE SET RESOURCE_GROUP"),
    (
        rf"ALTER DATABASE {_N} SET RESOURCE_GROUP {_TO} .*",
        "DEFERRED after ALTER DATABASE SET RESOURCE_GROUP",
    ),
    (rf"ALTER DATABASE {_N} RESET", "RESOURCE_GROUP after RESET"),
    (
        rf"ALTER DATABASE {_N} RESET RESOURCE_GROUP",
        "DEFERRED after ALTER DATABASE RESET RESOURCE_GROUP",
    ),
    (rf"ALTER DATABASE {_N} SET <id>", "'=' or 'TO' after config parameter"),
    (rf"ALTER SCHEMA {_N}", "RENAME, OWNER TO, OR SWAP WITH after ALTER SCHEMA"),
    (rf"ALTER SCHEMA {_N} RENAME", "TO"),
    (r"ALTER SYSTEM", "SET"),
    (r"ALTER SYSTEM SET <id>", "TO or = after ALTER SYSTEM SET"),
    # literal_u32 is a winnow parser: "invalid <label>", no "found" part (parser_v2/number.rs)
    (r"ALTER FRAGMENT(?: <num> ,)*", "!invalid number"),
    (r"ALTER FRAGMENT <num>(?: , <num>)*", "SET after ALTER FRAGMENT"),
    (r"ALTER FRAGMENT <num>(?: , <num>)* SET", "expected rate limit after SET"),
    (
        r"ALTER FRAGMENT <num>(?: , <num>)* SET PARALLELISM",
        "TO or = after ALTER FRAGMENT SET PARALLELISM",
    ),
    # ---- ALTER CONNECTION / SECRET (parser.rs:3988-4060)
    (rf"ALTER CONNECTION {_N}", "SET, OWNER TO, or CONNECTOR WITH after ALTER CONNECTION"),
    (rf"ALTER CONNECTION {_N} SET", "SCHEMA after SET"),
    (rf"ALTER SECRET {_N}", "WITH, AS or OWNER TO after ALTER SECRET"),
    (rf"ALTER SECRET {_N} WITH(?: \(.*\))?", "Keyword AS after Options"),
    (r"(?:ALTER|CREATE) SECRET .* AS", "a value"),
    (r"ALTER .* RENAME", "TO after RENAME"),
    # ---- CREATE (parser.rs:1956-2002, statement.rs:528-572)
    (r"CREATE", "an object type after CREATE"),
    (
        r"CREATE MATERIALIZED SOURCE",
        "!CREATE MATERIALIZED SOURCE has been deprecated, use CREATE TABLE instead",
    ),
    (r"CREATE OR REPLACE SINK", "!REPLACE SINK should be used instead of CREATE OR REPLACE SINK"),
    (
        r"CREATE OR REPLACE(?: TEMP| TEMPORARY)?",
        "[EXTERNAL] TABLE or [MATERIALIZED] VIEW or "
        "[MATERIALIZED] SOURCE or SINK or FUNCTION after CREATE OR REPLACE",
    ),
    (
        rf"CREATE SINK (?:IF NOT EXISTS )?{_N}(?: INTO {_N}(?: <parens>)?)?",
        "FROM or AS after CREATE SINK sink_name",
    ),
    (rf"CREATE SINK (?:IF NOT EXISTS )?{_N} .*(?:FROM {_N}|AS <query>)(?: EMIT .*)?", "WITH"),
    (r"CREATE .*EMIT", "IMMEDIATELY or ON WINDOW CLOSE after EMIT"),
    (
        rf"CREATE (?:OR REPLACE )?(?:MATERIALIZED )?VIEW (?:IF NOT EXISTS )?{_N}(?: <parens>)?"
        r"(?: WITH \(.*\))?",
        "AS",
    ),
    (rf"CREATE (?:UNIQUE )?INDEX (?:IF NOT EXISTS )?{_N}", "ON"),
    # ---- SET / SHOW / jobs
    (r"SET(?: SESSION| LOCAL)?", "identifier"),
    (r"SET(?: SESSION| LOCAL)? <id>", "'=' or 'TO' after config parameter"),
    (r"SET(?: SESSION| LOCAL)? TIME", "ZONE"),
    (r"SET(?: SESSION| LOCAL)? TIME ZONE", "variable"),
    (r"SHOW MATERIALIZED", "VIEWS after MATERIALIZED"),
    (r"SHOW COLUMNS", "from after columns"),
    (r"SHOW INDEXES", "from after indexes"),
    (r"SHOW INTERNAL", "TABLES"),
    (r"SHOW TRANSACTION", "ISOLATION"),
    (r"SHOW TRANSACTION ISOLATION", "LEVEL"),
    (r"SHOW SUBSCRIPTION", "CURSORS"),
    (
        r"SHOW CREATE",
        "TABLE, MATERIALIZED VIEW, VIEW, INDEX, FUNCTION, SOURCE, SUBSCRIPTION or SINK",
    ),
    (r"SHOW CREATE MATERIALIZED", "VIEW after MATERIALIZED"),
    (r"CANCEL", "JOBS or JOB after CANCEL"),
    (r"CANCEL (?:JOBS|JOB)(?: <num> ,)*", "!invalid number"),
    (r"KILL", "literal string"),
    (r"WAIT MATERIALIZED", "VIEW"),
    (r"DESCRIBE FRAGMENT", "!invalid number"),
    (r"REFRESH", "TABLE"),
    (
        r"DROP",
        "TABLE, VIEW, INDEX, MATERIALIZED VIEW, SOURCE, SINK, SUBSCRIPTION, SCHEMA, DATABASE, "
        "USER, SECRET or CONNECTION after DROP",
    ),
    # ---- GRANT / REVOKE / ALTER DEFAULT PRIVILEGES (parser.rs:5650-6000)
    (rf"{_PRIV_HEAD}(?: {_ACTS} ,)?", _ONE_OF_ACTIONS),
    (rf"{_PRIV_HEAD} (?:ALL(?: PRIVILEGES)?|{_ACTS})", "ON"),
    (rf"ALTER DEFAULT PRIVILEGES{_ADP_FOR}{_ADP_IN}", "one of GRANT or REVOKE"),
    (r"ALTER DEFAULT PRIVILEGES FOR", "USER"),
    (rf"{_ADP_HEAD} (?:ALL(?: PRIVILEGES)?|{_ACTS}) ON", _ADP_KINDS),
    (rf"ALTER DEFAULT PRIVILEGES .*GRANT .* ON {_ADP_KIND}", "TO"),
    (rf"ALTER DEFAULT PRIVILEGES .*REVOKE .* ON {_ADP_KIND}", "FROM"),
    (_GRANTEE_NEXT, "identifier"),
    (r"ALTER DEFAULT PRIVILEGES .* (?:TO|FROM) <id>(?: , <id>)*.*", "end of statement"),
    (_GRANT_DONE, "end of statement"),
    (_REVOKE_DONE, "end of statement"),
    (r"GRANT .* ON .*", "TO"),
    (r"REVOKE .* ON .*", "FROM"),
]


@functools.cache
def _compiled() -> list[tuple[re.Pattern[str], str | None]]:
    """The rules compiled, on the first parse error (a hundred patterns: ~20 ms at start-up
    otherwise, for a server that may never see a syntax error)."""
    return [(re.compile(p), m) for p, m in _RULES]


def signature(kinds: list[tuple[str, Token]]) -> str:
    """The signature of a consumed prefix: keywords as themselves, other tokens as placeholders."""
    out: list[str] = []
    for kind, tok in kinds:
        if kind == "IDENT":
            out.append("<id>")
        elif kind == "NUMBER":
            out.append("<num>")
        elif kind in ("STRING", "ESTRING", "NSTRING", "XSTRING", "DOLLAR"):
            out.append("<str>")
        elif kind == "QUERY":
            out.append("<query>")
        elif kind == "PARENS":
            out.append("<parens>")
        elif kind == "REST":
            out.append("<rest>")
        elif kind in ("EQ", "COMMA", "LPAR", "RPAR", "DOT", "MINUS", "ARROW", "OP"):
            out.append(tok.value)
        else:
            out.append(kind)
    return " ".join(out)


def expected_text(sig: str, expected: set[str]) -> str | bool | None:
    """What RisingWave says it expected after ``sig``; None for a bare `expected parameter value`.

    Returns False when no rule applies (the caller then uses the generic rule).
    """
    if "$END" in expected:
        return "end of statement"
    for rx, msg in _compiled():
        if rx.fullmatch(sig):
            return msg
    return False


def generic_expected(expected: set[str]) -> str:
    """A general rule for a failure no table entry names: what the grammar would accept."""
    if "QUERY" in expected:
        return "SELECT, VALUES, or a subquery in the query body"  # parse_query, parser.rs:4955
    if "IDENT" in expected:
        # RisingWave's optional keywords fall through to a name (parse_object_name)
        return "identifier"
    if {"NUMBER", "STRING"} <= expected:
        return "a value"
    if expected == {"LPAR"} or expected == {"PARENS"}:
        return "("
    if expected == {"RPAR"}:
        return ")"
    if expected == {"EQ"}:
        return "="
    if expected == {"NUMBER"}:
        return "literal integer"
    kws = sorted(e for e in expected if e.isupper() and e not in ("IDENT", "QUERY", "REST"))
    if len(kws) == 1:
        return kws[0]
    if kws:
        return ", ".join(kws[:-1]) + " or " + kws[-1]
    return "a value"


def located(sql: str, tok: Token, message: str) -> SqlParserError:
    """RisingWave's parse error at ``tok`` in the whole query string ``sql`` (parser.rs:201-228)."""
    if tok.kind is Kind.EOF:
        # Rust's str::lines(): split on \n, a trailing empty piece dropped, \r\n's \r removed.
        lines = sql.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        line = max(len(lines), 1)
        last = lines[-1].removesuffix("\r") if lines else ""
        col = len(last.encode()) + 1
    else:
        line, col = tok.line, tok.col
    prefix = f"LINE {line}: "
    parts = sql.split("\n")
    sql_line = parts[line - 1] if line - 1 < len(parts) else ""
    cursor = " " * (len(prefix) + col - 1)
    return SqlParserError(f"{message.replace(chr(10), ': ')}\n{prefix}{sql_line}\n{cursor}^")


def expected_error(sql: str, tok: Token, what: str | None) -> SqlParserError:
    """``expected <what>, found: <tok>`` (parser.rs:1768-1770), or the bare winnow form."""
    if what is None:
        return located(sql, tok, "expected parameter value")
    return located(sql, tok, f"expected {what}, found: {tok.display()}")


__all__ = ["expected_error", "expected_text", "generic_expected", "located"]
