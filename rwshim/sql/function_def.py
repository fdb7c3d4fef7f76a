"""CREATE FUNCTION / CREATE AGGREGATE and DROP FUNCTION / DROP AGGREGATE, read in full from
the statement text (the grammar keeps their bodies as text).

Mirrors ``src/sqlparser/src/parser.rs`` (448c657): ``parse_create_function`` (2215-2259),
``parse_create_aggregate`` (2261-2286), ``parse_function_arg`` (2311-2345: ``[IN|OUT|INOUT]
[argname] argtype [{DEFAULT | =} expr]``, a leading word is a name when a type follows it),
``parse_create_function_body`` (2347-2384: AS, LANGUAGE, RUNTIME, IMMUTABLE | STABLE |
VOLATILE, RETURN, USING in any order, each at most once), ``parse_create_function_using``
(LINK | BASE64 '<string>'), ``parse_function_definition`` (4335-4343: a quoted string, a
dollar-quoted string or an identifier), ``parse_drop_function`` / ``parse_function_desc``
(2428-2490), and the WITH options of ``CreateFunctionWithOptions`` (ast/mod.rs:3745-3787).
Types are kept as written; the handler binds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rwshim.errors import SqlParserError
from rwshim.sql.errors_text import expected_error, located
from rwshim.sql.tokens import Kind, Token, tokenize

# Keywords that start a clause of the function body (parse_create_function_body) or end it.
_BODY_WORDS = frozenset(
    {"AS", "LANGUAGE", "RUNTIME", "IMMUTABLE", "STABLE", "VOLATILE", "RETURN", "USING"}
)
# Words a multi-word type starts with (``double precision``, ``character varying``,
# ``timestamp with time zone``): such a word followed by another word is not an arg name.
_MULTIWORD_TYPES = frozenset({"DOUBLE", "CHARACTER", "CHAR", "NATIONAL", "TIMESTAMP", "TIME"})
# CreateFunctionWithOptions: the only keys it takes.
WITH_KEYS = ("always_retry_on_network_error", "async", "batch")


@dataclass(frozen=True, slots=True)
class FunctionArg:
    name: str  # '' for an unnamed argument; folded as RisingWave folds identifiers
    type_text: str
    mode: str | None = None  # IN / OUT / INOUT
    default: str | None = None


@dataclass(frozen=True, slots=True)
class FunctionDef:
    """One CREATE FUNCTION / AGGREGATE, every clause as written."""

    parts: tuple[str, ...]
    args: tuple[FunctionArg, ...]
    aggregate: bool = False
    or_replace: bool = False
    temporary: bool = False
    if_not_exists: bool = False
    return_type: str | None = None  # RETURNS <type>
    table_columns: tuple[tuple[str, str], ...] | None = None  # RETURNS TABLE (name type, ...)
    language: str | None = None  # as written (real value of the identifier)
    runtime: str | None = None
    behavior: str | None = None
    as_kind: str | None = None  # 'single' | 'dollar' | 'ident'
    as_value: str | None = None
    return_expr: str | None = None  # RETURN <expr>, as written
    using: tuple[str, str] | None = None  # ('LINK' | 'BASE64', the string)
    with_options: dict[str, bool] = field(default_factory=dict)
    append_only: bool = False


@dataclass(frozen=True, slots=True)
class FunctionDesc:
    """``name [(argtypes)]`` of DROP FUNCTION / GRANT ON FUNCTION."""

    parts: tuple[str, ...]
    arg_types: tuple[str, ...] | None  # None: no argument list


def _fold(t: Token) -> str:
    return t.value if t.quoted else t.value.lower()


class _Reader:
    def __init__(self, sql: str) -> None:
        self.sql = sql
        self.toks = [t for t in tokenize(sql) if not (t.kind is Kind.OP and t.value == ";")]
        if not self.toks or self.toks[-1].kind is not Kind.EOF:
            self.toks.append(Token(Kind.EOF, "", len(sql), len(sql)))
        self.i = 0

    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def kw(self, *words: str) -> bool:
        """Consume the keywords if they all follow."""
        for k, w in enumerate(words):
            if self.peek(k).upper != w:
                return False
        self.i += len(words)
        return True

    def op(self, value: str) -> bool:
        if self.tok.kind is Kind.OP and self.tok.value == value:
            self.i += 1
            return True
        return False

    def expect_op(self, value: str) -> None:
        if not self.op(value):
            raise self.expected(value)

    def expected(self, what: str) -> SqlParserError:
        return expected_error(self.sql, self.tok, what)

    def text(self, start: int, end: int) -> str:
        if end <= start:
            return ""
        return self.sql[self.toks[start].start : self.toks[end - 1].end]

    def object_name(self) -> tuple[str, ...]:
        parts: list[str] = []
        while True:
            if self.tok.kind is not Kind.WORD:
                raise self.expected("identifier")
            parts.append(_fold(self.tok))
            self.i += 1
            if not self.op("."):
                return tuple(parts)

    def skip_group(self) -> None:
        """Past a balanced (...) / [...] / <...> run starting at the current token."""
        depth = 0
        while self.tok.kind is not Kind.EOF:
            v = self.tok.value if self.tok.kind is Kind.OP else ""
            if v in ("(", "["):
                depth += 1
            elif v in (")", "]"):
                depth -= 1
            self.i += 1
            if depth <= 0:
                return

    def type_span(self, stops: frozenset[str], stop_words: frozenset[str]) -> tuple[int, int]:
        """The tokens of a data type: up to a stop punctuation or word at depth 0."""
        start = self.i
        depth = 0
        while self.tok.kind is not Kind.EOF:
            t = self.tok
            v = t.value if t.kind is Kind.OP else ""
            if depth == 0 and (v in stops or t.upper in stop_words):
                break
            if v in ("(", "[", "<"):
                depth += 1
            elif v in (")", "]"):
                depth -= 1
            elif v and set(v) <= {">"}:
                depth -= len(v)
            if depth < 0:
                break
            self.i += 1
        if self.i == start:
            raise self.expected("a data type name")
        return start, self.i

    def expr_span(self, stop_words: frozenset[str], stops: frozenset[str]) -> tuple[int, int]:
        """The tokens of an expression: up to a stop at depth 0."""
        start = self.i
        depth = 0
        while self.tok.kind is not Kind.EOF:
            t = self.tok
            v = t.value if t.kind is Kind.OP else ""
            if depth == 0 and (v in stops or t.upper in stop_words):
                break
            if v in ("(", "["):
                depth += 1
            elif v in (")", "]"):
                depth -= 1
                if depth < 0:
                    break
            self.i += 1
        if self.i == start:
            raise self.expected("an expression")
        return start, self.i


def _arg(r: _Reader) -> FunctionArg:
    mode = None
    for m in ("IN", "OUT", "INOUT"):
        if r.tok.upper == m and r.peek().kind is Kind.WORD:
            mode = m
            r.i += 1
            break
    name = ""
    t = r.tok
    nxt = r.peek()
    if (
        t.kind is Kind.WORD
        and nxt.kind is Kind.WORD
        and not (t.upper in _MULTIWORD_TYPES and not t.quoted)
        and nxt.upper not in ("DEFAULT",)
    ):
        name = _fold(t)
        r.i += 1
    start, end = r.type_span(frozenset({",", ")", "="}), frozenset({"DEFAULT"}))
    default = None
    if r.kw("DEFAULT") or r.op("="):
        s, e = r.expr_span(frozenset(), frozenset({",", ")"}))
        default = r.text(s, e)
    return FunctionArg(name, r.text(start, end), mode, default)


def _args(r: _Reader) -> tuple[FunctionArg, ...]:
    r.expect_op("(")
    if r.op(")"):
        return ()
    out = [_arg(r)]
    while r.op(","):
        out.append(_arg(r))
    if not r.op(")"):
        raise r.expected("',' or ')'")
    return tuple(out)


def _string(r: _Reader, what: str) -> str:
    t = r.tok
    if t.kind in (Kind.STRING, Kind.DOLLAR):
        r.i += 1
        return t.value
    raise r.expected(what)


_TERMINATORS = _BODY_WORDS | {"WITH"}


def _body(r: _Reader, d: dict[str, object]) -> None:
    seen: set[str] = set()

    def once(key: str, label: str) -> None:
        if key in seen:
            raise located(r.sql, r.toks[r.i - 1], f"{label} specified more than once")
        seen.add(key)

    while True:
        if r.kw("AS"):
            once("as", "AS")
            t = r.tok
            if t.kind is Kind.STRING:
                d["as_kind"], d["as_value"] = "single", t.value
            elif t.kind is Kind.DOLLAR:
                d["as_kind"], d["as_value"] = "dollar", t.value
            elif t.kind is Kind.WORD:
                d["as_kind"], d["as_value"] = "ident", t.value
            else:
                raise r.expected("function definition")
            r.i += 1
        elif r.kw("LANGUAGE"):
            once("language", "LANGUAGE")
            if r.tok.kind is not Kind.WORD:
                raise r.expected("identifier")
            d["language"] = r.tok.value
            r.i += 1
        elif r.kw("RUNTIME"):
            once("runtime", "RUNTIME")
            if r.tok.kind is not Kind.WORD:
                raise r.expected("identifier")
            d["runtime"] = r.tok.value
            r.i += 1
        elif r.tok.upper in ("IMMUTABLE", "STABLE", "VOLATILE"):
            r.i += 1
            once("behavior", "IMMUTABLE | STABLE | VOLATILE")
            d["behavior"] = r.toks[r.i - 1].upper
        elif r.kw("RETURN"):
            once("return", "RETURN")
            s, e = r.expr_span(_TERMINATORS, frozenset())
            d["return_expr"] = r.text(s, e)
        elif r.kw("USING"):
            once("using", "USING")
            if r.tok.upper in ("LINK", "BASE64"):
                kind = r.tok.upper
                r.i += 1
                d["using"] = (kind, _string(r, "literal string"))
            else:
                raise r.expected("one of LINK or BASE64")
        else:
            return


def _with_options(r: _Reader) -> dict[str, bool]:
    out: dict[str, bool] = {}
    if not r.kw("WITH"):
        return out
    r.expect_op("(")
    while True:
        start = r.i
        r.object_name()
        key = r.text(start, r.i)
        r.expect_op("=")
        v = r.tok
        r.i += 1
        if key.lower() not in WITH_KEYS:
            # ast/mod.rs:3780-3782 (the StrError becomes the parser's message)
            raise SqlParserError(f"unknown option: {key}")
        out[key.lower()] = v.upper == "TRUE"
        if r.op(")"):
            return out
        if not r.op(","):
            raise r.expected("',' or ')' after option definition")


def parse_create(sql: str) -> FunctionDef:
    """The CREATE [OR REPLACE] [TEMPORARY] FUNCTION | AGGREGATE statement ``sql``."""
    r = _Reader(sql)
    r.kw("CREATE")
    or_replace = r.kw("OR", "REPLACE")
    temporary = r.kw("TEMPORARY")
    aggregate = r.kw("AGGREGATE")
    if not aggregate:
        r.kw("FUNCTION")
    if_not_exists = r.kw("IF", "NOT", "EXISTS")
    parts = r.object_name()
    d: dict[str, object] = {}
    if aggregate:
        args = _args(r)
        if not r.kw("RETURNS"):
            raise r.expected("RETURNS")
        s, e = r.type_span(frozenset(), _TERMINATORS | {"APPEND"})
        d["return_type"] = r.text(s, e)
        d["append_only"] = r.kw("APPEND", "ONLY")
        _body(r, d)
    else:
        args = _args(r) if r.tok.kind is Kind.OP and r.tok.value == "(" else ()
        if r.kw("RETURNS"):
            if r.kw("TABLE"):
                r.expect_op("(")
                cols: list[tuple[str, str]] = []
                while True:
                    if r.tok.kind is not Kind.WORD:
                        raise r.expected("identifier")
                    cname = _fold(r.tok)
                    r.i += 1
                    s, e = r.type_span(frozenset({",", ")"}), frozenset())
                    cols.append((cname, r.text(s, e)))
                    comma = r.op(",")
                    if r.op(")"):
                        break
                    if not comma:
                        raise r.expected("',' or ')'")
                d["table_columns"] = tuple(cols)
            else:
                s, e = r.type_span(frozenset(), _TERMINATORS)
                d["return_type"] = r.text(s, e)
        _body(r, d)
        d["with_options"] = _with_options(r)
    if r.tok.kind is not Kind.EOF:
        raise r.expected("end of statement")
    return FunctionDef(
        parts, args, aggregate, or_replace, temporary, if_not_exists,
        **d,  # type: ignore[arg-type]
    )  # fmt: skip


def _desc(r: _Reader) -> FunctionDesc:
    parts = r.object_name()
    if not (r.tok.kind is Kind.OP and r.tok.value == "("):
        return FunctionDesc(parts, None)
    return FunctionDesc(parts, tuple(a.type_text for a in _args(r)))


def parse_drop(sql: str) -> tuple[tuple[FunctionDesc, ...], bool, bool]:
    """DROP FUNCTION | AGGREGATE [IF EXISTS] desc [, ...] [CASCADE | RESTRICT]: the
    descriptions, IF EXISTS, CASCADE."""
    r = _Reader(sql)
    r.kw("DROP")
    if not r.kw("FUNCTION"):
        r.kw("AGGREGATE")
    if_exists = r.kw("IF", "EXISTS")
    descs = [_desc(r)]
    while r.op(","):
        descs.append(_desc(r))
    cascade = r.kw("CASCADE")
    if not cascade:
        r.kw("RESTRICT")
    if r.tok.kind is not Kind.EOF:
        raise r.expected("end of statement")
    return tuple(descs), if_exists, cascade


def parse_alter(sql: str) -> tuple[FunctionDesc, str, str]:
    """ALTER FUNCTION desc {SET SCHEMA name | OWNER TO ident} (parser.rs:3960-3986): the
    description, the operation and its schema or user."""
    r = _Reader(sql)
    r.kw("ALTER")
    r.kw("FUNCTION")
    desc = _desc(r)
    if r.kw("SET"):
        if not r.kw("SCHEMA"):
            raise r.expected("SCHEMA after SET")
        op, target = "SET SCHEMA", ".".join(r.object_name())
    elif r.kw("OWNER", "TO"):
        if r.tok.kind is not Kind.WORD:
            raise r.expected("identifier")
        op, target = "OWNER TO", _fold(r.tok)
        r.i += 1
    else:
        raise r.expected("SET or OWNER TO after ALTER FUNCTION")
    if r.tok.kind is not Kind.EOF:
        raise r.expected("end of statement")
    return desc, op, target


def parse_desc(text: str) -> FunctionDesc:
    """``name [(argtypes)]`` alone."""
    r = _Reader(text)
    return _desc(r)


__all__ = [
    "FunctionArg",
    "FunctionDef",
    "FunctionDesc",
    "parse_alter",
    "parse_create",
    "parse_desc",
    "parse_drop",
]
