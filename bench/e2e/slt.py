"""The sqllogictest file format, parsed as sqllogictest-rs 0.29.1 parses it.

Mirrors risinglightdb/sqllogictest-rs `sqllogictest/src/parser.rs` (`parse_inner`,
`parse_lines`, `parse_multiple_result`, `parse_retry_config`, `parse_file_inner`), the version
RisingWave pins (`Cargo.lock`, `ci/Dockerfile`: sqllogictest-bin 0.29.1).  The rules that
matter for judging, all from that file:

- a line starting with `#` is a comment; a record's SQL runs from the line after its header to
  the first empty line or a line that is exactly `----` (the first SQL line is taken whatever
  it is); query results run to the next empty line;
- `skipif`/`onlyif` lines accumulate onto the next statement/query/system/let, and a
  `connection` line applies to the next statement/query/let only;
- `statement error <regex>` / `query error <regex>`: the tokens after `error`, joined by one
  space, are a regex searched in the error text (`(XXXXX)` alone is a SQLSTATE); with nothing
  inline, a `----` block (ending at two consecutive empty lines) is the exact error text;
- `include <glob>` is resolved relative to the including file; every match is parsed in place.

Regexes are Rust `regex` syntax; Python's `re` accepts the forms RisingWave's files use (a
pattern `re` rejects is a parse error of that file, reported as such).
"""

from __future__ import annotations

import posixpath
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

DELIMITER = "----"
SORT_MODES = ("nosort", "rowsort", "valuesort")
_SQLSTATE = re.compile(r"^\(([0-9A-Z]{5})\)$")
_VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class ParseError(Exception):
    """A file sqllogictest-rs would refuse (`ParseError`: `parse error at <file>:<line>`)."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"parse error at {file}:{line}: {message}")
        self.file = file
        self.line = line


@dataclass(frozen=True, slots=True)
class Location:
    file: str
    line: int
    # The chain of include sites, innermost first ("at <file>:<line>" in sqllogictest-rs).
    upper: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Condition:
    kind: Literal["skipif", "onlyif"]
    label: str

    def skips(self, labels: frozenset[str]) -> bool:
        if self.kind == "onlyif":
            return self.label not in labels
        return self.label in labels


@dataclass(frozen=True, slots=True)
class Retry:
    attempts: int
    backoff_s: float


@dataclass(frozen=True, slots=True)
class ExpectedError:
    """`ExpectedError`: any error, a regex searched in the text, the exact multi-line text
    (compared after trimming both), or a SQLSTATE."""

    kind: Literal["any", "regex", "multiline", "sqlstate"]
    text: str = ""

    def matches(self, message: str, sqlstate: str | None) -> bool:
        if self.kind == "any":
            return True
        if self.kind == "regex":
            return re.search(self.text, message) is not None
        if self.kind == "multiline":
            return rust_trim(self.text) == rust_trim(message)
        return sqlstate == self.text

    def describe(self) -> str:
        return {"any": "(any)", "regex": "(regex) ", "multiline": "(multiline) "}.get(
            self.kind, "(sqlstate) "
        ) + (rust_trim(self.text) if self.kind == "multiline" else self.text)


@dataclass(frozen=True, slots=True)
class Statement:
    loc: Location
    conditions: tuple[Condition, ...]
    connection: str
    sql: str
    expect: Literal["ok", "count", "error"]
    count: int = 0
    error: ExpectedError | None = None
    retry: Retry | None = None


@dataclass(frozen=True, slots=True)
class Query:
    loc: Location
    conditions: tuple[Condition, ...]
    connection: str
    sql: str
    # None: rows expected (`results`); otherwise `query error`.
    error: ExpectedError | None
    types: str = ""
    sort_mode: str | None = None
    label: str | None = None
    results: tuple[str, ...] = ()
    retry: Retry | None = None


@dataclass(frozen=True, slots=True)
class System:
    loc: Location
    conditions: tuple[Condition, ...]
    command: str
    stdout: str | None
    retry: Retry | None = None


@dataclass(frozen=True, slots=True)
class Let:
    loc: Location
    conditions: tuple[Condition, ...]
    connection: str
    variables: tuple[str, ...]
    sql: str


@dataclass(frozen=True, slots=True)
class Sleep:
    loc: Location
    seconds: float


@dataclass(frozen=True, slots=True)
class Include:
    loc: Location
    pattern: str


@dataclass(frozen=True, slots=True)
class Control:
    loc: Location
    what: Literal["sortmode", "resultmode", "substitution"]
    value: str


@dataclass(frozen=True, slots=True)
class HashThreshold:
    loc: Location
    threshold: int


@dataclass(frozen=True, slots=True)
class Halt:
    loc: Location


@dataclass(frozen=True, slots=True)
class Subtest:
    loc: Location
    name: str


Record = (
    Statement | Query | System | Let | Sleep | Include | Control | HashThreshold | Halt | Subtest
)
# The records that are judged (counted): everything that talks to the database or the shell.
Judged = Statement | Query | System | Let
JUDGED = (Statement, Query, System, Let)

# Rust's `str::trim` (Unicode White_Space); Python's `strip()` also strips \x1c-\x1f.
_RUST_WS = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000"
)


def rust_trim(s: str) -> str:
    return s.strip(_RUST_WS)


def rust_lines(text: str) -> list[str]:
    """`str::lines`: split on \\n, drop one trailing \\r per line, no final empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


_DURATION_UNITS = {
    **dict.fromkeys(("nsec", "ns"), 1e-9),
    **dict.fromkeys(("usec", "us"), 1e-6),
    **dict.fromkeys(("millis", "msec", "ms"), 1e-3),
    **dict.fromkeys(("seconds", "second", "secs", "sec", "s"), 1.0),
    **dict.fromkeys(("minutes", "minute", "mins", "min", "m"), 60.0),
    **dict.fromkeys(("hours", "hour", "hrs", "hr", "h"), 3600.0),
    **dict.fromkeys(("days", "day", "d"), 86400.0),
    **dict.fromkeys(("weeks", "week", "w"), 604800.0),
}
_DURATION_PART = re.compile(r"(\d+)\s*([A-Za-z]+)")


def parse_duration(text: str) -> float | None:
    """humantime's `parse_duration` for the units a test file uses (`1s`, `500ms`, `1m30s`)."""
    pos, total = 0, 0.0
    text = text.strip()
    if not text:
        return None
    for m in _DURATION_PART.finditer(text):
        if text[pos : m.start()].strip() or m.group(2) not in _DURATION_UNITS:
            return None
        total += int(m.group(1)) * _DURATION_UNITS[m.group(2)]
        pos = m.end()
    return total if pos and not text[pos:].strip() else None


class _Lines:
    """The `Peekable<Enumerate<Lines>>` the parser walks."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0

    def next(self) -> tuple[int, str] | None:
        if self.i >= len(self.lines):
            return None
        self.i += 1
        return self.i - 1, self.lines[self.i - 1]

    def peek(self) -> str | None:
        return self.lines[self.i] if self.i < len(self.lines) else None


def _parse_lines(lines: _Lines, loc: Location, delimiter: bool) -> tuple[str, bool]:
    first = lines.next()
    if first is None:
        raise ParseError(loc.file, loc.line + 1, "unexpected EOF")
    out = [first[1]]
    found = False
    while (item := lines.next()) is not None:
        line = item[1]
        if line == "":
            break
        if delimiter and line == DELIMITER:
            found = True
            break
        out.append(line)
    return "\n".join(out), found


def _parse_multiple_result(lines: _Lines) -> str:
    out: list[str] = []
    while (item := lines.next()) is not None:
        line = item[1]
        nxt = lines.peek()
        if line == "" and (nxt is None or nxt == ""):
            lines.next()
            break
        out.append(line + "\n")
    return rust_trim("".join(out))


def _parse_retry(tokens: list[str], loc: Location) -> Retry | None:
    if not tokens:
        return None
    bad = ParseError(loc.file, loc.line, f"invalid retry config: {' '.join(tokens)!r}")
    if len(tokens) != 4 or tokens[0] != "retry" or tokens[2] != "backoff":
        raise bad
    if not tokens[1].isdigit() or int(tokens[1]) == 0:
        raise bad
    backoff = parse_duration(tokens[3])
    if backoff is None:
        raise bad
    return Retry(int(tokens[1]), backoff)


def _inline_error(tokens: list[str], loc: Location) -> ExpectedError:
    joined = " ".join(tokens)
    m = _SQLSTATE.match(joined)
    if m:
        return ExpectedError("sqlstate", m.group(1))
    if not joined:
        return ExpectedError("any")
    try:
        re.compile(joined)
    except re.error as e:
        raise ParseError(loc.file, loc.line, f"invalid error message: {joined!r} ({e})") from e
    return ExpectedError("regex", joined)


def _error_clause(rest: list[str], loc: Location) -> tuple[ExpectedError, list[str]]:
    # `... error retry <n> backoff <d>`: the message, if any, must then be multi-line.
    if len(rest) == 4 and rest[0] == "retry" and rest[2] == "backoff":
        return ExpectedError("any"), rest
    return _inline_error(rest, loc), []


def parse_script(text: str, file: str, upper: tuple[tuple[str, int], ...] = ()) -> list[Record]:
    """`parse_inner`: the records of one script, includes not yet resolved."""
    return _Parser(text, file, upper).parse()


class _Parser:
    def __init__(self, text: str, file: str, upper: tuple[tuple[str, int], ...]) -> None:
        self.lines = _Lines(rust_lines(text))
        self.file = file
        self.upper = upper
        self.conditions: list[Condition] = []
        self.connection = "default"

    def take(self) -> tuple[tuple[Condition, ...], str]:
        """The pending conditions and connection, consumed by the record being parsed."""
        taken = (tuple(self.conditions), self.connection)
        self.conditions, self.connection = [], "default"
        return taken

    def parse(self) -> list[Record]:
        records: list[Record] = []
        while (item := self.lines.next()) is not None:
            num, line = item
            if line.startswith("#") or line == "":
                continue
            tokens = line.split()
            if tokens:
                rec = self.record(Location(self.file, num + 1, self.upper), line, tokens)
                if rec is not None:
                    records.append(rec)
        return records

    def record(self, loc: Location, line: str, tokens: list[str]) -> Record | None:
        head, rest = tokens[0], tokens[1:]
        invalid = ParseError(loc.file, loc.line, f"invalid line: {line!r}")
        if head == "include" and len(rest) == 1:
            return Include(loc, rest[0])
        if head == "halt" and not rest:
            return Halt(loc)
        if head == "subtest" and len(rest) == 1:
            return Subtest(loc, rest[0])
        if head == "sleep" and len(rest) == 1:
            seconds = parse_duration(rest[0])
            if seconds is None:
                raise ParseError(loc.file, loc.line, f"invalid duration: {rest[0]!r}")
            return Sleep(loc, seconds)
        if head == "skipif" and len(rest) == 1:
            self.conditions.append(Condition("skipif", rest[0]))
            return None
        if head == "onlyif" and len(rest) == 1:
            self.conditions.append(Condition("onlyif", rest[0]))
            return None
        if head == "connection" and len(rest) == 1:
            self.connection = rest[0]
            return None
        if head == "statement":
            return self.statement(loc, rest, invalid)
        if head == "query":
            return self.query(loc, rest)
        if head == "system" and rest[:1] == ["ok"]:
            retry = _parse_retry(rest[1:], loc)
            command, has_result = _parse_lines(self.lines, loc, True)
            stdout = _parse_multiple_result(self.lines) if has_result else None
            # A system record takes the conditions but not the connection.
            conds = tuple(self.conditions)
            self.conditions = []
            return System(loc, conds, command, stdout, retry)
        if head == "control" and len(rest) == 2:
            return self.control(loc, rest[0], rest[1], invalid)
        if head == "hash-threshold" and len(rest) == 1:
            if not rest[0].isdigit():
                raise ParseError(loc.file, loc.line, f"invalid number: {rest[0]!r}")
            return HashThreshold(loc, int(rest[0]))
        if head == "let":
            names = tuple(v.strip() for v in " ".join(rest).split(",") if v.strip())
            if not names:
                raise invalid
            for name in names:
                if not _VARIABLE.match(name):
                    raise ParseError(loc.file, loc.line, f"invalid variable name: {name!r}")
            sql, _ = _parse_lines(self.lines, loc, False)
            conds, conn = self.take()
            return Let(loc, conds, conn, names, sql)
        raise invalid

    @staticmethod
    def control(loc: Location, what: str, value: str, invalid: ParseError) -> Control:
        if what == "sortmode" and value in SORT_MODES:
            return Control(loc, "sortmode", value)
        if what == "resultmode" and value in ("rowwise", "valuewise"):
            return Control(loc, "resultmode", value)
        if what == "substitution" and value in ("on", "off"):
            return Control(loc, "substitution", value)
        raise invalid

    def statement(self, loc: Location, rest: list[str], invalid: ParseError) -> Statement:
        expect: Literal["ok", "count", "error"]
        error: ExpectedError | None = None
        count = 0
        if rest[:1] == ["ok"]:
            expect, retry_tokens = "ok", rest[1:]
        elif rest[:1] == ["error"]:
            expect = "error"
            error, retry_tokens = _error_clause(rest[1:], loc)
        elif rest[:1] == ["count"] and len(rest) >= 2:
            if not rest[1].isdigit():
                raise ParseError(loc.file, loc.line, f"invalid number: {rest[1]!r}")
            expect, count, retry_tokens = "count", int(rest[1]), rest[2:]
        else:
            raise invalid
        retry = _parse_retry(retry_tokens, loc)
        sql, has_results = _parse_lines(self.lines, loc, True)
        if has_results:
            if error is None:
                raise ParseError(loc.file, loc.line, "statement should have no result")
            if error.kind != "any":
                raise ParseError(loc.file, loc.line, "duplicated error messages")
            error = ExpectedError("multiline", _parse_multiple_result(self.lines))
        conds, conn = self.take()
        return Statement(loc, conds, conn, sql, expect, count, error, retry)

    def query(self, loc: Location, rest: list[str]) -> Query:
        error: ExpectedError | None = None
        types, sort_mode, label = "", None, None
        retry_tokens: list[str] = []
        if rest[:1] == ["error"]:
            error, retry_tokens = _error_clause(rest[1:], loc)
        elif rest:
            types, res = rest[0], rest[1:]
            if res and res[0] in SORT_MODES:
                sort_mode, res = res[0], res[1:]
            # The label may not be `retry` (that starts the retry clause).
            if res and res[0] != "retry":
                label, res = res[0], res[1:]
            retry_tokens = res
        retry = _parse_retry(retry_tokens, loc)
        sql, has_result = _parse_lines(self.lines, loc, True)
        results: list[str] = []
        if has_result:
            if error is None:
                while (item := self.lines.next()) is not None and item[1] != "":
                    results.append(item[1])
            elif error.kind != "any":
                raise ParseError(loc.file, loc.line, "duplicated error messages")
            else:
                error = ExpectedError("multiline", _parse_multiple_result(self.lines))
        conds, conn = self.take()
        return Query(loc, conds, conn, sql, error, types, sort_mode, label, tuple(results), retry)


# --- files and includes ------------------------------------------------------------------


class Source(Protocol):
    """Where test files come from: paths are POSIX, relative to the source's root."""

    def read(self, path: str) -> str: ...

    def files(self) -> list[str]: ...


@dataclass
class DirSource:
    """Files under a directory of this machine."""

    root: Path

    def read(self, path: str) -> str:
        return (self.root / path).read_text(encoding="utf-8")

    def files(self) -> list[str]:
        found = (p.relative_to(self.root).as_posix() for p in self.root.rglob("*") if p.is_file())
        return sorted(found)


@dataclass
class GitSource:
    """Files of one commit of a git repository (a bare mirror works), read with one
    `git cat-file --batch` process."""

    git_dir: Path
    rev: str = "HEAD"
    prefix: str = "e2e_test"
    _files: list[str] | None = None
    _cache: dict[str, str] = field(default_factory=dict)
    _aliases: dict[str, str] = field(default_factory=dict)
    _proc: subprocess.Popen[bytes] | None = None

    def files(self) -> list[str]:
        if self._files is None:
            cmd = ["git", "-C", str(self.git_dir), "ls-tree", "-r", self.rev]
            out = subprocess.run(
                [*cmd, "--", self.prefix],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            files, links = [], []
            for line in out.splitlines():
                meta, path = line.split("\t", 1)
                (links if meta.startswith("120000") else files).append(path)
            # A symlinked directory (e2e_test/streaming/over_window/generated ->
            # ../../over_window/generated/streaming/) is followed as sqllogictest's glob
            # follows it on a checkout: its files appear under the link's path.
            for link in links:
                target = posixpath.normpath(
                    posixpath.join(posixpath.dirname(link), self.read(link).strip())
                )
                under = [f for f in files if f.startswith(target + "/")]
                if under:
                    self._aliases[link] = target
                    files += [link + f[len(target) :] for f in under]
            self._files = sorted(files)
        return self._files

    def _real(self, path: str) -> str:
        for link, target in self._aliases.items():
            if path.startswith(link + "/"):
                return target + path[len(link) :]
        return path

    def commit(self) -> str:
        return subprocess.run(
            ["git", "-C", str(self.git_dir), "rev-parse", self.rev],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()

    def read(self, path: str) -> str:
        if path in self._cache:
            return self._cache[path]
        if self._proc is None:
            self._proc = subprocess.Popen(
                ["git", "-C", str(self.git_dir), "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(f"{self.rev}:{self._real(path)}\n".encode())
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().decode().split()
        if len(header) != 3:
            raise FileNotFoundError(f"{self.rev}:{path}")
        data = self._proc.stdout.read(int(header[2]) + 1)[:-1]
        self._cache[path] = data.decode("utf-8")
        return self._cache[path]

    def close(self) -> None:
        if self._proc is not None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            self._proc.wait()
            self._proc = None


def _component_regex(part: str) -> str:
    out, i = [], 0
    while i < len(part):
        c = part[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and "]" in part[i + 2 :]:
            # A class; a `]` right after `[` (or `[!`) is a member, not the end.
            end = part.index("]", i + (3 if part[i + 1 : i + 2] == "!" else 2))
            body = part[i + 1 : end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def glob_match(pattern: str, paths: list[str]) -> list[str]:
    """The `glob` crate's matching over a file list: `*`, `?` and `[...]` stay inside one path
    component, a `**` component matches zero or more directories; results sorted."""
    parts = [p for p in posixpath.normpath(pattern).split("/") if p]
    regex = ""
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if part == "**":
            regex += ".*" if last else "(?:[^/]+/)*"
        else:
            regex += _component_regex(part) + ("" if last else "/")
    compiled = re.compile(regex + r"\Z")
    return sorted(p for p in paths if compiled.match(p))


@dataclass(frozen=True, slots=True)
class BeginInclude:
    file: str


@dataclass(frozen=True, slots=True)
class EndInclude:
    file: str


Item = Record | BeginInclude | EndInclude


def parse_file(source: Source, path: str, upper: tuple[tuple[str, int], ...] = ()) -> list[Item]:
    """`parse_file_inner`: the file's records with every include expanded in place."""
    try:
        text = source.read(path)
    except (FileNotFoundError, KeyError) as e:
        site = upper[0] if upper else (path, 0)
        raise ParseError(site[0], site[1], "no such file") from e
    items: list[Item] = []
    for rec in parse_script(text, path, upper):
        items.append(rec)
        if isinstance(rec, Include):
            pattern = posixpath.join(posixpath.dirname(path), rec.pattern)
            matches = glob_match(pattern, source.files())
            if not matches:
                message = f"no files found for include file pattern: {rec.pattern!r}"
                raise ParseError(path, rec.loc.line, message)
            for inc in matches:
                items.append(BeginInclude(inc))
                items.extend(parse_file(source, inc, ((path, rec.loc.line), *upper)))
                items.append(EndInclude(inc))
    return items


def judged_records(items: list[Item]) -> list[Judged]:
    """The records a run judges, in order, up to the first `halt` (sqllogictest-rs stops there,
    at any include depth)."""
    out: list[Judged] = []
    for item in items:
        if isinstance(item, Halt):
            break
        if isinstance(item, JUDGED):
            out.append(item)
    return out
