"""The e2e runner's judge, substitution, cascade rule and tables (bench/e2e/judge.py,
executor.py, report.py) on outputs written here, against sqllogictest-rs 0.29.1's
`runner.rs` rules."""

from __future__ import annotations

import hashlib

import pytest

from bench.e2e import judge, report, slt
from bench.e2e.executor import SubstError, created_name, names_missing, substitute
from bench.e2e.judge import Complete, DbError, Rows

RW_DIV_ZERO = (
    "db error: ERROR: Failed to run the query\n\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: Expr error\n"
    "  2: error while evaluating expression `general_div('1', '0')`\n"
    "  3: Division by zero\n"
)


def record(text: str) -> slt.Judged:
    (rec,) = slt.parse_script(text, "t.slt")
    assert isinstance(rec, slt.Statement | slt.Query | slt.Let | slt.System)
    return rec


def cls(text: str, output: judge.Output | None, **kw: object) -> str:
    return judge.judge(record(text), output, **kw).cls  # type: ignore[arg-type]


def rows(*r: tuple[str, ...]) -> Rows:
    return Rows(tuple(r))


def test_normalizer_trims_and_collapses_ascii_whitespace_only() -> None:
    assert judge.normalize("  a \t b\n\nc  ") == "a b c"
    assert judge.normalize("\u00a0a\u00a0") == "a"  # Rust's trim is Unicode
    assert judge.normalize("a\u00a0b") == "a\u00a0b"  # but the split is ASCII only


def test_values_compare_after_normalization_row_by_row() -> None:
    q = "query IT\nselect 1, 'a  b'\n----\n1    a b\n"
    assert cls(q, rows(("1", "a  b"))) == judge.PASS
    assert cls(q, rows(("1", "a  c"))) == judge.WRONG_RESULT
    # One row per expected line: the same values on two lines are another result.
    assert cls("query I\nselect 1\n----\n1\n2\n", rows(("1 2",))) == judge.WRONG_RESULT


def test_rowsort_sorts_the_actual_rows_only() -> None:
    q = "query I rowsort\nselect v from t\n----\n10\n9\n"
    # Rust sorts the strings: "10" < "9"; the expected lines are compared as written.
    assert cls(q, rows(("9",), ("10",))) == judge.PASS
    assert cls("query I rowsort\nselect v\n----\n9\n10\n", rows(("9",), ("10",))) == (
        judge.WRONG_RESULT
    )
    assert cls("query I\nselect v\n----\n9\n10\n", rows(("9",), ("10",))) == judge.PASS


def test_valuesort_and_control_sortmode() -> None:
    q = "query II valuesort\nselect 2, 1\n----\n1\n2\n"
    assert cls(q, rows(("2", "1"))) == judge.PASS
    plain = "query II\nselect 2, 1\n----\n1 2\n"
    assert cls(plain, rows(("2", "1"))) == judge.WRONG_RESULT
    assert cls(plain, rows(("2", "1")), sort_mode="valuesort") == judge.WRONG_RESULT
    assert cls("query II\nselect 2, 1\n----\n1\n2\n", rows(("2", "1")), sort_mode="valuesort") == (
        judge.PASS
    )


def test_hash_threshold() -> None:
    digest = hashlib.md5(b"1\n2\n3\n4\n").hexdigest()
    q = f"query II\nselect\n----\n4 values hashing to {digest}\n"
    assert cls(q, rows(("1", "2"), ("3", "4")), hash_threshold=3) == judge.PASS
    assert cls(q, rows(("1", "2"), ("3", "4")), hash_threshold=4) == judge.WRONG_RESULT


def test_ignore_marker_matches_fragments_in_order() -> None:
    q = "query T\nexplain\n----\nStreamMaterialize { id: <slt:ignore> }\n"
    assert cls(q, rows(("StreamMaterialize { id: 42 }",))) == judge.PASS
    assert cls(q, rows(("StreamProject { id: 42 }",))) == judge.WRONG_RESULT


def test_query_without_rows_passes_only_when_none_were_expected() -> None:
    assert cls("query I\nselect 1 where false\n----\n", Complete(0)) == judge.PASS
    assert cls("query I\nselect 1 where false\n", Complete(0)) == judge.PASS
    assert cls("query I\nselect v from t\n----\n1\n", Complete(0)) == judge.WRONG_RESULT


def test_statement_outcomes() -> None:
    assert cls("statement ok\nselect 1\n", rows(("1",))) == judge.PASS
    assert cls("statement ok\ninsert\n", Complete(3)) == judge.PASS
    assert cls("statement count 3\ninsert\n", Complete(3)) == judge.PASS
    assert cls("statement count 2\ninsert\n", Complete(3)) == judge.WRONG_RESULT
    # A statement that returns rows counts its rows.
    assert cls("statement count 2\nselect\n", rows(("a",), ("b",))) == judge.PASS
    assert cls("statement ok\nselect 1/0\n", DbError(RW_DIV_ZERO)) == judge.UNEXPECTED_ERROR
    assert cls("statement error\nselect 1\n", rows(("1",))) == judge.EXPECTED_ERROR_SUCCEEDED
    assert cls("statement error\ninsert\n", Complete(1)) == judge.EXPECTED_ERROR_SUCCEEDED
    assert cls("query error\nselect 1\n", rows(("1",))) == judge.EXPECTED_ERROR_SUCCEEDED
    assert cls("query I\nselect 1/0\n----\n1\n", DbError(RW_DIV_ZERO)) == judge.UNEXPECTED_ERROR


def test_expected_errors() -> None:
    err = DbError(RW_DIV_ZERO, "22012")
    assert cls("statement error\nselect 1/0\n", err) == judge.PASS
    assert cls("statement error Division by zero\nselect 1/0\n", err) == judge.PASS
    assert cls("statement error division by zero\nselect 1/0\n", err) == judge.ERROR_TEXT_DIFFERS
    assert cls("query error general_div\\('1'\nselect 1/0\n", err) == judge.PASS
    assert cls("statement error (22012)\nselect 1/0\n", err) == judge.PASS
    assert cls("statement error (XX000)\nselect 1/0\n", err) == judge.ERROR_TEXT_DIFFERS
    block = "".join(f"{line}\n" for line in RW_DIV_ZERO.rstrip("\n").split("\n"))
    multiline = f"statement error\nselect 1/0\n----\n{block}\n"
    assert cls(multiline, err) == judge.PASS  # both sides trimmed, then compared exactly
    assert cls(multiline.replace("Division", "division"), err) == judge.ERROR_TEXT_DIFFERS
    # The multi-line form is exact: a prefix of the text is not enough.
    short = "statement error\nselect 1/0\n----\ndb error: ERROR: Failed to run the query\n\n"
    assert cls(short, err) == judge.ERROR_TEXT_DIFFERS


def test_let_wants_one_row_with_one_value_per_variable() -> None:
    let = "let a, b\nselect 1, 2\n"
    assert cls(let, rows(("1", "2"))) == judge.PASS
    assert cls(let, rows(("1", "2"), ("3", "4"))) == judge.WRONG_RESULT
    assert cls(let, Complete(0)) == judge.UNEXPECTED_ERROR


def test_system_records_are_not_runnable_and_unanswered_ones_are_runner_errors() -> None:
    assert cls("system ok\necho hi\n", None) == judge.NOT_RUNNABLE
    assert cls("statement ok\nselect 1\n", None) == judge.RUNNER_ERROR


def test_substitution() -> None:
    env = {"x": "42", "name": "t1", "empty": ""}
    assert substitute("select $x, ${name}, ${missing:7}, ${missing:$x}", env.get) == (
        "select 42, t1, 7, 42"
    )
    assert substitute(r"select '\$x', 'a\\b', '\{\}\:'", env.get) == r"select '$x', 'a\b', '{}:'"
    assert substitute("${empty}|", env.get) == "|"
    for bad in ("select $missing", "select ${x", "select $ 1", r"select '\n'"):
        with pytest.raises(SubstError):
            substitute(bad, env.get)


def test_created_names_and_missing_object_errors() -> None:
    assert created_name("create table t (v int)") == "t"
    assert created_name("CREATE MATERIALIZED VIEW IF NOT EXISTS s.Mv AS select 1") == "mv"
    assert created_name('create index "Idx" on t(v)') == "Idx"
    assert created_name("-- note\ncreate or replace view v2 as select 'create table x'") == "v2"
    assert created_name("insert into t values (1)") is None
    rw = "db error: ERROR: ...\n  1: Catalog error\n  2: table or source not found: lt\n"
    assert names_missing(rw, {"lt"})
    assert not names_missing(rw, {"t"})
    assert names_missing('db error: ERROR: relation "t" does not exist', {"t"})
    assert not names_missing("db error: ERROR: t is a bad table", {"t"})


def line(file: str, ln: int, klass: str, via: str | None = None, outcome: str = "rows") -> dict:
    return {
        "file": file,
        "line": ln,
        "via": via or file,
        "outcome": outcome,
        "class": klass,
        "sql": "select 1",
        "expected": ["1"],
        "actual": ["2"],
    }


def test_a_record_run_twice_counts_once_and_passes_only_if_both_runs_passed() -> None:
    b, u = "e2e_test/batch/basic/dml_basic.slt.part", "e2e_test/batch/basic/dml_upsert.slt.part"
    lines = [
        line(b, 1, judge.PASS),
        line(b, 5, judge.PASS),
        line(u, 3, judge.PASS, outcome="ok"),
        line(b, 1, judge.PASS, via=u),
        line(b, 5, judge.WRONG_RESULT, via=u),
        line("e2e_test/batch/types/x.slt", 1, judge.UNEXPECTED_ERROR, outcome="error"),
        line("e2e_test/batch/types/x.slt", 4, judge.SKIPPED),
    ]
    s = report.summary(lines)
    assert (s["records"], s["passed"], s["executions"], s["executions_passed"]) == (4, 2, 6, 4)
    assert s["groups"] == {"basic": [3, 2], "types": [1, 0]}
    assert s["classes"][judge.WRONG_RESULT] == 1 and s["classes"][judge.UNEXPECTED_ERROR] == 1
    assert s["skipped"] == 1
    text = report.format_summary(s)
    assert "records 4  passed 2  50.0%" in text
    assert "basic               3        2    66.7%" in text


def test_compare_flags_regressions_that_answered_wrongly() -> None:
    f = "e2e_test/batch/basic/q.slt.part"
    old = [line(f, 1, judge.PASS), line(f, 2, judge.PASS), line(f, 3, judge.PASS)]
    old += [line(f, 4, judge.UNEXPECTED_ERROR), line(f, 5, judge.WRONG_RESULT)]
    new = [line(f, 1, judge.PASS), line(f, 2, judge.WRONG_RESULT)]
    new += [line(f, 3, judge.UNEXPECTED_ERROR), line(f, 4, judge.PASS)]
    new += [line(f, 5, judge.WRONG_RESULT)]
    c = report.compare(old, new)
    assert (c.both, len(c.old_only), c.new_only, c.neither) == (1, 2, 1, 1)
    assert [(o.line, n.cls) for o, n in c.silent] == [(2, judge.WRONG_RESULT)]
    text = report.format_comparison(c)
    assert "SILENTLY WRONG e2e_test/batch/basic/q.slt.part:2 [wrong_result]" in text
    assert "  e2e_test/batch/basic/q.slt.part:3 [unexpected_error]" in text
