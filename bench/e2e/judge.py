"""Judging one record's output as sqllogictest-rs 0.29.1 does, and naming the failure.

Mirrors sqllogictest-rs `sqllogictest/src/runner.rs`: `default_normalizer` (trim, runs of ASCII
whitespace to one space), `default_validator` (each actual row's normalized values joined by one
space must equal the normalized expected line; `<slt:ignore>` fragments), the sort modes and the
hash threshold of `apply_record`, and the outcome rules of `run_async_no_retry` (a `statement`
that returns rows is fine unless an error was expected; a `query` that completes without rows
passes only when no rows were expected; column types are never checked).  The database's
output arrives as sqllogictest-engines' `postgres/simple.rs` produces it: NULL is `NULL`, an
empty string is `(empty)`, only the first statement's result of a multi-statement query counts.

Failure classes (ours, for the summary): wrong result, error text differs, unexpected error,
expected error but succeeded, not runnable, runner error (timeout, dead worker), and cascade
(assigned by the executor when a failing record names an object whose CREATE failed earlier).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from bench.e2e.slt import Judged, Let, Query, Statement, System, rust_trim

PASS = "pass"
WRONG_RESULT = "wrong_result"
ERROR_TEXT_DIFFERS = "error_text_differs"
UNEXPECTED_ERROR = "unexpected_error"
EXPECTED_ERROR_SUCCEEDED = "expected_error_succeeded"
CASCADE = "cascade"
NOT_RUNNABLE = "not_runnable"
RUNNER_ERROR = "runner_error"
SKIPPED = "skipped"  # skipif/onlyif: not run, not counted
FAILURE_CLASSES = (
    WRONG_RESULT,
    ERROR_TEXT_DIFFERS,
    UNEXPECTED_ERROR,
    EXPECTED_ERROR_SUCCEEDED,
    CASCADE,
    NOT_RUNNABLE,
    RUNNER_ERROR,
)
# A failure where the engine answered without complaint and the answer was wrong.
SILENT_CLASSES = (WRONG_RESULT, EXPECTED_ERROR_SUCCEEDED)

IGNORE_MARKER = "<slt:ignore>"
_ASCII_WS = re.compile(r"[ \t\n\x0c\r]+")


@dataclass(frozen=True, slots=True)
class Rows:
    """A result with at least one row (values already `NULL` / `(empty)` mapped)."""

    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Complete:
    """A statement that returned no rows: the count from its command tag (0 when none)."""

    count: int


@dataclass(frozen=True, slots=True)
class DbError:
    """The error as sqllogictest-rs prints it (`tokio_postgres::Error`'s Display:
    `db error: ERROR: <message>` then `\\nDETAIL: ...`, `\\nHINT: ...`)."""

    message: str
    sqlstate: str | None = None


Output = Rows | Complete | DbError


@dataclass(frozen=True, slots=True)
class Verdict:
    cls: str  # PASS or one of FAILURE_CLASSES / SKIPPED
    actual: object  # JSON-friendly: list of row strings, "ok", {"count": n}, {"error": text}

    @property
    def passed(self) -> bool:
        return self.cls == PASS


def normalize(value: str) -> str:
    """`default_normalizer`: trim, then split on ASCII whitespace and join with one space."""
    return " ".join(p for p in _ASCII_WS.split(rust_trim(value)) if p)


def validate(actual: list[list[str]], expected: tuple[str, ...] | list[str]) -> bool:
    """`default_validator`."""
    if any(IGNORE_MARKER in line for line in expected):
        snapshot = "\n".join(" ".join(row) for row in actual)
        pos = 0
        for frag in "\n".join(expected).split(IGNORE_MARKER):
            if not frag:
                continue
            idx = snapshot.find(frag, pos)
            if idx < 0:
                return False
            pos = idx + len(frag)
        return True
    want = [normalize(line) for line in expected]
    got = [" ".join(normalize(v) for v in row) for row in actual]
    return got == want


def arrange(
    rows: tuple[tuple[str, ...], ...], sort_mode: str | None, hash_threshold: int
) -> list[list[str]]:
    """The sort mode (the record's, else `control sortmode`'s) and hash threshold of
    `apply_record`.  Rows sort as Rust sorts `Vec<Vec<String>>` (element-wise, by code point),
    before normalization."""
    out = [list(r) for r in rows]
    value_sort = sort_mode == "valuesort"
    if sort_mode == "rowsort":
        out.sort()
    elif value_sort:
        out = sorted([v] for row in out for v in row)
    ncols = len(out[0]) if out else 0
    num_values = len(out) if value_sort else len(out) * ncols
    if hash_threshold > 0 and num_values > hash_threshold:
        md5 = hashlib.md5()
        for row in out:
            for v in row:
                md5.update(v.encode())
                md5.update(b"\n")
        out = [[f"{len(out) * len(out[0])} values hashing to {md5.hexdigest()}"]]
    return out


def _shown(rows: list[list[str]]) -> list[str]:
    return [" ".join(r) for r in rows]


def _describe(output: Output) -> object:
    if isinstance(output, DbError):
        return {"error": output.message}
    if isinstance(output, Complete):
        return {"count": output.count}
    return _shown([list(r) for r in output.rows])


def judge(
    record: Judged,
    output: Output | None,
    *,
    sort_mode: str | None = None,
    value_wise: bool = False,
    hash_threshold: int = 0,
) -> Verdict:
    """The verdict on one record given what the database returned (None: not run)."""
    if isinstance(record, System):
        return Verdict(NOT_RUNNABLE, "system commands are not run")
    if output is None:
        return Verdict(RUNNER_ERROR, "not run")
    if isinstance(record, Statement):
        return _statement(record, output)
    if isinstance(record, Let):
        return _let(record, output)
    return _query(record, output, sort_mode, value_wise, hash_threshold)


def _statement(record: Statement, output: Output) -> Verdict:
    actual = _describe(output)
    if isinstance(output, DbError):
        if record.expect != "error":
            return Verdict(UNEXPECTED_ERROR, actual)
        assert record.error is not None
        ok = record.error.matches(output.message, output.sqlstate)
        return Verdict(PASS if ok else ERROR_TEXT_DIFFERS, actual)
    if record.expect == "error":
        return Verdict(EXPECTED_ERROR_SUCCEEDED, actual)
    if record.expect == "count":
        got = len(output.rows) if isinstance(output, Rows) else output.count
        return Verdict(PASS if got == record.count else WRONG_RESULT, actual)
    return Verdict(PASS, actual)


def _let(record: Let, output: Output) -> Verdict:
    if not isinstance(output, Rows):
        if isinstance(output, Complete):
            return Verdict(UNEXPECTED_ERROR, {"error": "expected query result, got statement"})
        return Verdict(UNEXPECTED_ERROR, _describe(output))
    actual = _describe(output)
    if len(output.rows) != 1 or len(output.rows[0]) != len(record.variables):
        return Verdict(WRONG_RESULT, actual)
    return Verdict(PASS, actual)


def _query(
    record: Query, output: Output, sort_mode: str | None, value_wise: bool, hash_threshold: int
) -> Verdict:
    if isinstance(output, DbError):
        if record.error is None:
            return Verdict(UNEXPECTED_ERROR, _describe(output))
        ok = record.error.matches(output.message, output.sqlstate)
        return Verdict(PASS if ok else ERROR_TEXT_DIFFERS, _describe(output))
    if record.error is not None:
        return Verdict(EXPECTED_ERROR_SUCCEEDED, _describe(output))
    if isinstance(output, Complete):
        return Verdict(WRONG_RESULT if record.results else PASS, _describe(output))
    rows = arrange(output.rows, record.sort_mode or sort_mode, hash_threshold)
    # `control resultmode valuewise`: every value on its own line (after sorting).
    compared = [[v] for row in rows for v in row] if value_wise else rows
    ok = validate(compared, record.results)
    return Verdict(PASS if ok else WRONG_RESULT, _shown(rows))


def expected_of(record: Judged) -> object:
    """What the record expects, for the results file."""
    if isinstance(record, Statement):
        if record.expect == "error":
            assert record.error is not None
            return {"error": record.error.describe()}
        return {"count": record.count} if record.expect == "count" else "ok"
    if isinstance(record, Query):
        if record.error is not None:
            return {"error": record.error.describe()}
        return list(record.results)
    if isinstance(record, Let):
        return {"let": list(record.variables)}
    return {"system": record.stdout}


def kind_of(record: Judged) -> str:
    """`statement ok` / `statement count` / `statement error` / `query` / `query error` /
    `let` / `system`."""
    if isinstance(record, Statement):
        return f"statement {record.expect}"
    if isinstance(record, Query):
        return "query error" if record.error is not None else "query"
    return "let" if isinstance(record, Let) else "system"


def outcome_of(record: Judged) -> str:
    """The expected outcome: `ok` (statement ok/count, let), `rows`, `error`, `system`."""
    if isinstance(record, Statement):
        return "error" if record.expect == "error" else "ok"
    if isinstance(record, Query):
        return "error" if record.error is not None else "rows"
    return "ok" if isinstance(record, Let) else "system"
