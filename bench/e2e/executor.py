"""Running one parsed sqllogictest file against a database, record by record.

Mirrors sqllogictest-rs 0.29.1 `sqllogictest/src/runner.rs` (`apply_record`, `run_async`,
`may_substitute`, `Connections`) and sqllogictest-engines `postgres/simple.rs` (the engine
RisingWave's `risedev slt` uses: tokio-postgres `simple_query`, text values, NULL as `NULL`, an
empty string as `(empty)`, only the first statement's result counted, the count taken from the
command tag).  Two deliberate differences, both for measuring rather than gating: a failed
record does not stop the file (each record is judged), and `system` records are not run.

Each connection name gets its own session (created on first use, kept for the file); the
default connection runs the preamble first (RisingWave's `e2e_test/batch/local_mode.slt` sets
`RW_IMPLICIT_FLUSH` before including these files).  `skipif`/`onlyif` test the labels given
with `--label` plus, except on `system` records, the engine name (sqllogictest-bin's postgres
engine calls itself `postgres`).
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import psycopg

from bench.e2e import judge
from bench.e2e.judge import Complete, DbError, Output, Rows, Verdict
from bench.e2e.slt import (
    Control,
    Halt,
    HashThreshold,
    Item,
    Judged,
    Let,
    Query,
    Sleep,
    Statement,
    System,
)


class Session(Protocol):
    def run(self, sql: str) -> Output: ...

    def close(self) -> None: ...


def error_text(e: psycopg.Error) -> str:
    """`tokio_postgres::Error` as Display prints it: `db error: <S>: <M>` plus `\\nDETAIL: `
    and `\\nHINT: ` lines (tokio-postgres `error/mod.rs`, `DbError::fmt`)."""
    diag = e.diag
    if diag.severity is None or diag.message_primary is None:
        return f"connection error: {e}"
    text = f"db error: {diag.severity}: {diag.message_primary}"
    if diag.message_detail is not None:
        text += f"\nDETAIL: {diag.message_detail}"
    if diag.message_hint is not None:
        text += f"\nHINT: {diag.message_hint}"
    return text


def _tag_count(tag: bytes | None) -> int:
    """tokio-postgres `extract_row_affected`: the tag's last word as a number, else 0."""
    if not tag:
        return 0
    last = tag.rsplit(b" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PsycopgSession:
    """One connection over the simple-query protocol (psycopg sends a parameterless execute
    as one Query message; automatic prepared statements are off)."""

    def __init__(self, conninfo: str) -> None:
        self.conn = psycopg.connect(conninfo, autocommit=True, prepare_threshold=None)

    def run(self, sql: str) -> Output:
        try:
            with self.conn.cursor() as cur:
                cur.execute(sql)
                res = cur.pgresult
                if res is None:
                    return Complete(0)
                if res.ntuples == 0:
                    return Complete(_tag_count(res.command_status))
                rows = tuple(
                    tuple(_text(res.get_value(r, c)) for c in range(res.nfields))
                    for r in range(res.ntuples)
                )
                return Rows(rows)
        except psycopg.Error as e:
            return DbError(error_text(e), e.sqlstate)

    def close(self) -> None:
        self.conn.close()


def _text(value: bytes | None) -> str:
    if value is None:
        return "NULL"
    return value.decode("utf-8", "replace") or "(empty)"


# --- substitution (the `subst` crate, as `may_substitute` uses it) -----------------------


class SubstError(Exception):
    pass


_NAME = re.compile(r"[A-Za-z0-9_]+")
_ESCAPABLE = "\\${}:"


def substitute(text: str, lookup: Callable[[str], str | None]) -> str:
    """`$NAME`, `${NAME}`, `${NAME:default}` (default substituted too); `\\` escapes `$`, `\\`,
    `{`, `}` and `:`, any other escape is an error, as is an unknown variable."""
    out: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if i + 1 >= len(text) or text[i + 1] not in _ESCAPABLE:
                raise SubstError(f"invalid escape sequence at position {i}")
            out.append(text[i + 1])
            i += 2
        elif c == "$":
            value, i = _variable(text, i, lookup)
            out.append(value)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _variable(text: str, i: int, lookup: Callable[[str], str | None]) -> tuple[str, int]:
    if text.startswith("${", i):
        end = _closing_brace(text, i + 2)
        body = text[i + 2 : end]
        name, sep, default = body.partition(":")
        if not _NAME.fullmatch(name):
            raise SubstError(f"invalid variable name at position {i}")
        value = lookup(name)
        if value is None:
            if not sep:
                raise SubstError(f"no such variable: ${{{name}}}")
            value = substitute(default, lookup)
        return value, end + 1
    m = _NAME.match(text, i + 1)
    if m is None:
        raise SubstError(f"missing variable name at position {i}")
    value = lookup(m.group(0))
    if value is None:
        raise SubstError(f"no such variable: ${m.group(0)}")
    return value, m.end()


def _closing_brace(text: str, start: int) -> int:
    depth, j = 0, start
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            if depth == 0:
                return j
            depth -= 1
        j += 1
    raise SubstError("unterminated variable")


# --- cascades -------------------------------------------------------------------------------

_CREATE = re.compile(
    r"^\s*create\s+(?:or\s+replace\s+)?(?:(?:temp|temporary|unlogged)\s+)?(?:unique\s+)?"
    r"(?:materialized\s+view|table|view|index|source|sink|function|aggregate|type|schema"
    r"|secret|connection|subscription|sequence)\s+(?:if\s+not\s+exists\s+)?"
    r"((?:\"[^\"]+\"|[\w$]+)(?:\s*\.\s*(?:\"[^\"]+\"|[\w$]+))*)",
    re.IGNORECASE,
)
_LITERALS = re.compile(r"'(?:[^']|'')*'|\$\$.*?\$\$|--[^\n]*", re.DOTALL)


def created_name(sql: str) -> str | None:
    """The object a CREATE statement makes (last name part; unquoted names fold to lower)."""
    m = _CREATE.match(_LITERALS.sub(" ", sql))
    if m is None:
        return None
    last = re.split(r"\s*\.\s*", m.group(1))[-1]
    return last[1:-1] if last.startswith('"') else last.lower()


_NOT_FOUND = re.compile(r"not found|does not exist", re.IGNORECASE)


def names_missing(message: str, names: set[str]) -> bool:
    """Whether an error says one of these objects is missing (RisingWave: `table not found:
    t`, `table or source not found: t`; PostgreSQL: `relation "t" does not exist`)."""
    if not names or not _NOT_FOUND.search(message):
        return False
    low = message.lower()
    return any(
        re.search(rf"(?<![\w$]){re.escape(n)}(?![\w$])", low if n.islower() else message)
        for n in names
    )


# --- the file run -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    record: Judged
    via: str  # the file that was run (differs from record.loc.file for included records)
    sql: str  # after substitution
    verdict: Verdict
    ms: float

    def to_json(self) -> dict[str, object]:
        rec = self.record
        return {
            "file": rec.loc.file,
            "line": rec.loc.line,
            "via": self.via,
            "kind": judge.kind_of(rec),
            "outcome": judge.outcome_of(rec),
            "sql": self.sql,
            "expected": judge.expected_of(rec),
            "actual": self.verdict.actual,
            "verdict": _verdict_word(self.verdict.cls),
            "class": self.verdict.cls,
            "ms": round(self.ms, 2),
        }


def _verdict_word(cls: str) -> str:
    if cls == judge.PASS:
        return "pass"
    return "skip" if cls in (judge.SKIPPED, judge.NOT_RUNNABLE) else "fail"


@dataclass
class FileRun:
    """The runner's state for one file (`Runner` in sqllogictest-rs)."""

    connect: Callable[[], Session]
    labels: frozenset[str] = frozenset()
    engine: str = "postgres"
    database: str = "dev"
    preamble: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    sleep: Callable[[float], None] = time.sleep
    sessions: dict[str, Session] = field(default_factory=dict)
    sort_mode: str | None = None
    value_wise: bool = False
    hash_threshold: int = 0
    substitution: bool = False
    variables: dict[str, str] = field(default_factory=dict)
    failed_creates: set[str] = field(default_factory=set)
    _test_dir: tempfile.TemporaryDirectory[str] | None = None

    def session(self, name: str) -> Session:
        if name not in self.sessions:
            s = self.connect()
            if name == "default":
                for sql in self.preamble:
                    s.run(sql)  # best effort: an engine without the setting just refuses it
            self.sessions[name] = s
        return self.sessions[name]

    def close(self) -> None:
        for s in self.sessions.values():
            s.close()
        self.sessions.clear()
        if self._test_dir is not None:
            self._test_dir.cleanup()
            self._test_dir = None

    def lookup(self, name: str) -> str | None:
        if name == "__TEST_DIR__":
            if self._test_dir is None:
                self._test_dir = tempfile.TemporaryDirectory(prefix="slt-")
            return self._test_dir.name
        if name == "__NOW__":
            return str(time.time_ns())
        if name == "__DATABASE__":
            return self.variables.get(name, self.database)
        return self.variables.get(name, self.env.get(name))

    def run(self, items: list[Item], via: str) -> Iterator[Result]:
        """Every judged record up to the first `halt`, in order."""
        for item in items:
            if isinstance(item, Control):
                if item.what == "sortmode":
                    self.sort_mode = item.value
                elif item.what == "resultmode":
                    self.value_wise = item.value == "valuewise"
                else:
                    self.substitution = item.value == "on"
            elif isinstance(item, HashThreshold):
                self.hash_threshold = item.threshold
            elif isinstance(item, Sleep):
                self.sleep(item.seconds)
            elif isinstance(item, Halt):
                return
            elif isinstance(item, Statement | Query | Let | System):
                yield self.record(item, via)

    def record(self, rec: Judged, via: str) -> Result:
        start = time.perf_counter()
        # `should_skip`: a system record is matched against the labels alone.
        labels = self.labels if isinstance(rec, System) else self.labels | {self.engine}
        if any(c.skips(labels) for c in rec.conditions):
            return Result(rec, via, _sql_of(rec), Verdict(judge.SKIPPED, None), 0.0)
        if isinstance(rec, System):
            return Result(rec, via, rec.command, judge.judge(rec, None), 0.0)
        attempts = rec.retry.attempts if not isinstance(rec, Let) and rec.retry else 1
        for attempt in range(attempts):
            sql, output = self.execute(rec)
            verdict = judge.judge(
                rec,
                output,
                sort_mode=self.sort_mode,
                value_wise=self.value_wise,
                hash_threshold=self.hash_threshold,
            )
            # sqllogictest-rs also sleeps after the last failed attempt; that changes nothing.
            if verdict.passed or attempt == attempts - 1:
                break
            assert not isinstance(rec, Let) and rec.retry is not None
            self.sleep(rec.retry.backoff_s)
        if isinstance(rec, Let) and verdict.passed and isinstance(output, Rows):
            self.variables.update(zip(rec.variables, output.rows[0], strict=True))
        verdict = self.track_creates(rec, sql, output, verdict)
        return Result(rec, via, sql, verdict, (time.perf_counter() - start) * 1000)

    def execute(self, rec: Statement | Query | Let) -> tuple[str, Output]:
        sql = rec.sql
        if self.substitution:
            try:
                sql = substitute(sql, self.lookup)
            except SubstError as e:
                return sql, DbError(f"substitution failed: {e}")
        return sql, self.session(rec.connection).run(sql)

    def track_creates(self, rec: Judged, sql: str, output: Output, verdict: Verdict) -> Verdict:
        """A failure whose error says an object is missing, where that object's CREATE failed
        earlier in this file, is a cascade; a CREATE expected to succeed that failed adds its
        object to that set, one that succeeded removes it."""
        if (
            not verdict.passed
            and isinstance(output, DbError)
            and names_missing(output.message, self.failed_creates)
        ):
            verdict = Verdict(judge.CASCADE, verdict.actual)
        name = created_name(sql)
        if name is not None and judge.outcome_of(rec) in ("ok", "rows"):
            if isinstance(output, DbError):
                self.failed_creates.add(name)
            else:
                self.failed_creates.discard(name)
        return verdict


def _sql_of(rec: Judged) -> str:
    return rec.command if isinstance(rec, System) else rec.sql
