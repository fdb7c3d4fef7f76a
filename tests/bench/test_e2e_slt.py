"""The e2e runner's sqllogictest parser (bench/e2e/slt.py) on snippets written here, against
sqllogictest-rs 0.29.1's parsing rules (`sqllogictest/src/parser.rs`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.e2e import slt
from bench.e2e.slt import Condition, ExpectedError, Query, Statement


def parse(text: str) -> list[slt.Record]:
    return slt.parse_script(text, "t.slt")


def test_statement_forms_and_their_sql() -> None:
    recs = parse(
        "statement ok\n"
        "create table t (v int);\n"
        "\n"
        "statement count 2\n"
        "insert into t\n"
        "values (1), (2);\n"
        "\n"
        "statement error  table   or source not found\n"
        "select * from nope\n"
        "\n"
        "statement error (42704)\n"
        "select * from nope\n"
        "\n"
        "statement error\n"
        "select * from nope\n"
    )
    assert recs == [
        Statement(slt.Location("t.slt", 1), (), "default", "create table t (v int);", "ok"),
        Statement(
            slt.Location("t.slt", 4), (), "default", "insert into t\nvalues (1), (2);", "count", 2
        ),
        # The tokens after `error` are joined by one space: runs of spaces collapse.
        Statement(
            slt.Location("t.slt", 8),
            (),
            "default",
            "select * from nope",
            "error",
            error=ExpectedError("regex", "table or source not found"),
        ),
        Statement(
            slt.Location("t.slt", 11),
            (),
            "default",
            "select * from nope",
            "error",
            error=ExpectedError("sqlstate", "42704"),
        ),
        Statement(
            slt.Location("t.slt", 14),
            (),
            "default",
            "select * from nope",
            "error",
            error=ExpectedError("any"),
        ),
    ]


def test_multiline_error_ends_at_two_empty_lines_and_keeps_one() -> None:
    recs = parse(
        "statement error\n"
        "select 1/0\n"
        "----\n"
        "db error: ERROR: Failed to run the query\n"
        "\n"
        "Caused by:\n"
        "  Division by zero\n"
        "\n"
        "\n"
        "query I\n"
        "select 1\n"
        "----\n"
        "1\n"
    )
    assert len(recs) == 2
    first = recs[0]
    assert isinstance(first, Statement) and first.error is not None
    assert first.error == ExpectedError(
        "multiline", "db error: ERROR: Failed to run the query\n\nCaused by:\n  Division by zero"
    )
    assert isinstance(recs[1], Query) and recs[1].loc.line == 10


def test_query_header_types_sort_label_retry_and_results() -> None:
    (q,) = parse(
        "query IT rowsort my_label retry 3 backoff 500ms\n"
        "select v, s\n"
        "from t\n"
        "----\n"
        "1 a\n"
        "2    b\n"
        "\n"
        "# a comment after the record\n"
    )
    assert isinstance(q, Query)
    assert (q.types, q.sort_mode, q.label) == ("IT", "rowsort", "my_label")
    assert q.retry == slt.Retry(3, 0.5)
    assert q.sql == "select v, s\nfrom t"
    assert q.results == ("1 a", "2    b")
    assert q.error is None


def test_query_without_sort_mode_takes_the_next_token_as_label() -> None:
    (q,) = parse("query I nonsense\nselect 1\n----\n1\n")
    assert isinstance(q, Query) and (q.sort_mode, q.label) == (None, "nonsense")


def test_query_error_inline_and_multiline() -> None:
    a, b = parse(
        "query error Division by zero\nselect 1/0\n\nquery error\nselect 1/0\n----\nthe text\n"
    )
    assert isinstance(a, Query) and a.error == ExpectedError("regex", "Division by zero")
    assert isinstance(b, Query) and b.error == ExpectedError("multiline", "the text")


def test_conditions_accumulate_and_connection_applies_to_the_next_record_only() -> None:
    recs = parse(
        "skipif madsim\n"
        "# a comment in between does not reset them\n"
        "onlyif postgres\n"
        "connection other\n"
        "statement ok\n"
        "select 1\n"
        "\n"
        "statement ok\n"
        "select 2\n"
        "\n"
        "skipif x\n"
        "connection c2\n"
        "system ok\n"
        "echo hi\n"
        "\n"
        "statement ok\n"
        "select 3\n"
    )
    first, second, system, third = recs
    assert isinstance(first, Statement)
    assert first.conditions == (Condition("skipif", "madsim"), Condition("onlyif", "postgres"))
    assert first.connection == "other"
    assert isinstance(second, Statement)
    assert (second.conditions, second.connection) == ((), "default")
    # A system record takes the conditions but leaves the connection to the next statement.
    assert isinstance(system, slt.System)
    assert system.conditions == (Condition("skipif", "x"),) and system.command == "echo hi"
    assert isinstance(third, Statement) and third.connection == "c2"


def test_sql_runs_to_an_empty_line_and_whitespace_only_lines_are_part_of_it() -> None:
    (s,) = parse("statement ok\r\nselect 1\r\n   \r\n, 2\r\n\r\n")
    assert isinstance(s, Statement) and s.sql == "select 1\n   \n, 2"


def test_other_records() -> None:
    recs = parse(
        "control sortmode rowsort\n"
        "control resultmode valuewise\n"
        "control substitution on\n"
        "hash-threshold 8\n"
        "sleep 1m30s\n"
        "subtest part_one\n"
        "let a, b_2\n"
        "select 1, 2\n"
        "\n"
        "halt\n"
    )
    assert [type(r).__name__ for r in recs] == [
        "Control",
        "Control",
        "Control",
        "HashThreshold",
        "Sleep",
        "Subtest",
        "Let",
        "Halt",
    ]
    sleep, let = recs[4], recs[6]
    assert isinstance(sleep, slt.Sleep) and sleep.seconds == 90
    assert isinstance(let, slt.Let) and let.variables == ("a", "b_2") and let.sql == "select 1, 2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("statement ok\nselect 1\n----\n1\n", "statement should have no result"),
        ("statement error boom\nselect 1\n----\nboom\n", "duplicated error messages"),
        ("statement maybe\nselect 1\n", "invalid line"),
        ("select 1\n", "invalid line"),
        ("statement ok\n", "unexpected EOF"),
        ("statement error (unclosed\nselect 1\n", "invalid error message"),
        ("sleep soon\n", "invalid duration"),
        ("control sortmode sideways\n", "invalid line"),
        ("let 1x\nselect 1\n", "invalid variable name"),
        ("query I retry 0 backoff 1s\nselect 1\n", "invalid retry config"),
    ],
)
def test_files_sqllogictest_rs_refuses(text: str, message: str) -> None:
    with pytest.raises(slt.ParseError, match=message):
        parse(text)


def test_durations() -> None:
    assert slt.parse_duration("1s") == 1
    assert slt.parse_duration("250ms") == 0.25
    assert slt.parse_duration("2min") == 120
    assert slt.parse_duration("1h1s") == 3601
    assert slt.parse_duration("1") is None
    assert slt.parse_duration("1 fortnight") is None


def test_glob_matches_within_a_component_and_double_star_across() -> None:
    paths = ["d/a.slt.part", "d/b.slt.part", "d/sub/c.slt.part", "d/sub/deep/e.slt.part", "d/x.slt"]
    assert slt.glob_match("d/*.slt.part", paths) == ["d/a.slt.part", "d/b.slt.part"]
    assert slt.glob_match("d/**/*.slt.part", paths) == [
        "d/a.slt.part",
        "d/b.slt.part",
        "d/sub/c.slt.part",
        "d/sub/deep/e.slt.part",
    ]
    assert slt.glob_match("d/./sub/?.slt.part", paths) == ["d/sub/c.slt.part"]
    assert slt.glob_match("d/[ab].slt.part", paths) == ["d/a.slt.part", "d/b.slt.part"]
    assert slt.glob_match("d/[!ab]*", paths) == ["d/x.slt"]


def test_include_expands_relative_to_the_including_file(tmp_path: Path) -> None:
    (tmp_path / "top").mkdir()
    (tmp_path / "top" / "parts").mkdir()
    (tmp_path / "top" / "main.slt").write_text(
        "statement ok\nselect 0\n\ninclude ./parts/*.slt.part\n\nstatement ok\nselect 9\n"
    )
    (tmp_path / "top" / "parts" / "b.slt.part").write_text("statement ok\nselect 2\n")
    (tmp_path / "top" / "parts" / "a.slt.part").write_text(
        "# first\nstatement ok\nselect 1\n\nhalt\n\nstatement ok\nselect 1.5\n"
    )
    source = slt.DirSource(tmp_path)
    items = slt.parse_file(source, "top/main.slt")
    recs = [(i.loc.file, i.loc.line, i.sql) for i in items if isinstance(i, Statement)]
    assert recs == [
        ("top/main.slt", 1, "select 0"),
        ("top/parts/a.slt.part", 2, "select 1"),
        ("top/parts/a.slt.part", 7, "select 1.5"),
        ("top/parts/b.slt.part", 1, "select 2"),
        ("top/main.slt", 6, "select 9"),
    ]
    included = next(i for i in items if isinstance(i, Statement) and i.sql == "select 2")
    assert included.loc.upper == (("top/main.slt", 4),)
    # A halt inside an included file stops the whole run.
    assert [r.sql for r in slt.judged_records(items)] == ["select 0", "select 1"]  # type: ignore[union-attr]


def test_an_include_that_matches_nothing_is_a_parse_error(tmp_path: Path) -> None:
    (tmp_path / "main.slt").write_text("include ./nothing/*.slt\n")
    with pytest.raises(slt.ParseError, match="no files found for include file pattern"):
        slt.parse_file(slt.DirSource(tmp_path), "main.slt")


def test_git_source_reads_a_commit(tmp_path: Path) -> None:
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "e2e_test" / "x").mkdir(parents=True)
    (tmp_path / "e2e_test" / "x" / "a.slt").write_text("statement ok\nselect 'é'\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    (tmp_path / "e2e_test" / "x" / "a.slt").write_text("changed, not committed\n")
    source = slt.GitSource(tmp_path)
    try:
        assert source.files() == ["e2e_test/x/a.slt"]
        (rec,) = slt.parse_file(source, "e2e_test/x/a.slt")
        assert isinstance(rec, Statement) and rec.sql == "select 'é'"
        with pytest.raises(slt.ParseError, match="no such file"):
            slt.parse_file(source, "e2e_test/x/missing.slt")
    finally:
        source.close()


def test_git_source_follows_a_symlinked_directory(tmp_path: Path) -> None:
    """RisingWave's e2e_test/streaming/over_window/generated is a link to
    ../../over_window/generated/streaming/; its files run under the link's path."""
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    real = tmp_path / "e2e_test" / "gen" / "streaming"
    real.mkdir(parents=True)
    (real / "main.slt.part").write_text("statement ok\nselect 2\n")
    (tmp_path / "e2e_test" / "s" / "w").mkdir(parents=True)
    (tmp_path / "e2e_test" / "s" / "w" / "main.slt").write_text(
        "include ./generated/main.slt.part\n"
    )
    (tmp_path / "e2e_test" / "s" / "w" / "generated").symlink_to("../../gen/streaming/")
    (tmp_path / "e2e_test" / "tool").symlink_to("/usr/bin/true")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    source = slt.GitSource(tmp_path)
    try:
        assert source.files() == [
            "e2e_test/gen/streaming/main.slt.part",
            "e2e_test/s/w/generated/main.slt.part",
            "e2e_test/s/w/main.slt",
        ]
        (rec,) = slt.judged_records(slt.parse_file(source, "e2e_test/s/w/main.slt"))
        assert isinstance(rec, Statement) and rec.sql == "select 2"
        assert rec.loc.file == "e2e_test/s/w/generated/main.slt.part"
    finally:
        source.close()
