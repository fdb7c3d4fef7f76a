"""The e2e runner end to end on small sqllogictest files written here: the executor against a
real in-process rwshim over psycopg, the command line with its worker processes, results file,
summary and comparison, and the `--dsn` mode against a throwaway PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import psycopg

from bench.e2e import judge, slt
from bench.e2e.executor import FileRun, PsycopgSession
from tests.conftest import ThreadRunning

REPO = Path(__file__).resolve().parents[2]

NOT_FOUND = (
    "db error: ERROR: Failed to run the query\n"
    "\n"
    "Caused by these errors (recent errors listed first):\n"
    "  1: Catalog error\n"
    "  2: table or source not found: nope\n"
)

SCRIPT = f"""\
statement ok
create table t (v int, s varchar);

statement count 3
insert into t values (2, ''), (1, NULL), (3, 'a  b');

query IT rowsort
select v, s from t
----
1 NULL
2 (empty)
3 a b

query I
select v from t where v > 100
----

statement error table or source not found
select * from nope

query error
select * from nope
----
{NOT_FOUND}

query I
select count(*) from t
----
4

connection other
statement ok
set timezone = 'Asia/Tokyo'

query T
show timezone
----
UTC

connection other
query T
show timezone
----
Asia/Tokyo

let answer
select 40 + 2

control substitution on

query I
select ${{answer}} + 1
----
43

skipif postgres
statement ok
this is not sql

onlyif postgres
statement ok
select 1

statement ok
create table bad (v nosuchtype)

statement ok
insert into bad values (1)

statement error
select 1

system ok
echo not run

halt

statement ok
this is not run either
"""


IMPLICIT_FLUSH = "'-c rw_implicit_flush=true'"


def run_script(server: ThreadRunning, text: str, tmp_path: Path) -> list[judge.Verdict]:
    (tmp_path / "x.slt").write_text(text)
    items = slt.parse_file(slt.DirSource(tmp_path), "x.slt")
    # as RisingWave's e2e files set RW_IMPLICIT_FLUSH: each record reads the ones before it
    run = FileRun(connect=lambda: PsycopgSession(server.dsn(options=IMPLICIT_FLUSH)))
    try:
        return [r.verdict for r in run.run(items, via="x.slt")]
    finally:
        run.close()


def test_a_file_against_rwshim(rw_thread_server: ThreadRunning, tmp_path: Path) -> None:
    verdicts = run_script(rw_thread_server, SCRIPT, tmp_path)
    assert [v.cls for v in verdicts] == [
        judge.PASS,  # create
        judge.PASS,  # count 3
        judge.PASS,  # rowsort, NULL and (empty), whitespace normalized
        judge.PASS,  # no rows
        judge.PASS,  # error regex
        judge.PASS,  # exact multi-line error text
        judge.WRONG_RESULT,  # count is 3
        judge.PASS,  # set on connection "other"
        judge.PASS,  # the default connection is another session
        judge.PASS,  # "other" kept its setting
        judge.PASS,  # let
        judge.PASS,  # ${answer} substituted
        judge.SKIPPED,  # skipif postgres (the engine label)
        judge.PASS,  # onlyif postgres
        judge.UNEXPECTED_ERROR,  # unsupported type
        judge.CASCADE,  # table not found: bad (its CREATE failed)
        judge.EXPECTED_ERROR_SUCCEEDED,
        judge.NOT_RUNNABLE,  # system ok
    ]
    assert verdicts[6].actual == ["3"]
    assert verdicts[16].actual == ["1"]


def test_labels_and_the_engine_name(rw_thread_server: ThreadRunning, tmp_path: Path) -> None:
    text = (
        "skipif madsim\nstatement ok\nselect 1\n\n"
        "onlyif madsim\nstatement ok\nselect 2\n\n"
        # The engine name is a label for SQL records, not for system ones.
        "skipif postgres\nsystem ok\necho hi\n\n"
        "onlyif postgres\nsystem ok\necho hi\n\n"
    )
    (tmp_path / "l.slt").write_text(text)
    items = slt.parse_file(slt.DirSource(tmp_path), "l.slt")
    for labels, want in (
        (frozenset(), [judge.PASS, judge.SKIPPED, judge.NOT_RUNNABLE, judge.SKIPPED]),
        (frozenset({"madsim"}), [judge.SKIPPED, judge.PASS, judge.NOT_RUNNABLE, judge.SKIPPED]),
    ):
        run = FileRun(connect=lambda: PsycopgSession(rw_thread_server.dsn()), labels=labels)
        try:
            assert [r.verdict.cls for r in run.run(items, via="l.slt")] == want
        finally:
            run.close()


def test_retry_reruns_a_failing_record(rw_thread_server: ThreadRunning, tmp_path: Path) -> None:
    # Every attempt inserts two rows, so the table tells how many attempts ran.
    (tmp_path / "y.slt").write_text(
        "statement ok\ncreate table r (v int)\n\n"
        "statement count 2 retry 3 backoff 250ms\ninsert into r values (1), (2)\n\n"
        "statement count 1 retry 3 backoff 250ms\ninsert into r values (1), (2)\n"
    )
    items = slt.parse_file(slt.DirSource(tmp_path), "y.slt")
    slept: list[float] = []
    run = FileRun(connect=lambda: PsycopgSession(rw_thread_server.dsn()), sleep=slept.append)
    try:
        results = list(run.run(items, via="y.slt"))
    finally:
        run.close()
    assert [r.verdict.cls for r in results] == [judge.PASS, judge.PASS, judge.WRONG_RESULT]
    assert slept == [0.25, 0.25]  # between the failing record's three attempts
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        conn.execute("flush")
        assert conn.execute("select count(*) from r").fetchone() == (8,)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(REPO / "bench" / "e2e" / "run.py"), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def write_corpus(root: Path, expected: str) -> None:
    (root / "basic").mkdir(parents=True, exist_ok=True)
    (root / "basic" / "a.slt").write_text(
        "statement ok\ncreate table t (v int)\n\n"
        "statement ok\ninsert into t values (1), (2)\n\n"
        "include ./part.slt.part\n"
    )
    (root / "basic" / "part.slt.part").write_text(
        f"query I rowsort\nselect v from t\n----\n{expected}\n\nquery I\nselect 1/0\n----\n1\n"
    )
    (root / "basic" / "skip.slt.disabled").write_text("statement ok\nselect nothing_here\n")


def test_command_line_runs_summarizes_and_compares(tmp_path: Path) -> None:
    write_corpus(tmp_path / "old", "1\n2")
    write_corpus(tmp_path / "new", "1\n3")
    out = tmp_path / "all.jsonl"
    res = cli("--dir", str(tmp_path / "old"), "--out", str(out), "--jobs", "2")
    assert res.returncode == 0, res.stderr
    # a.slt runs with its include; part.slt.part runs only through it (RisingWave's CI runs
    # `**/*.slt`) and skip.slt.disabled not at all.
    assert "records 4  passed 3  75.0%" in res.stdout
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert {(x["file"], x["line"], x["via"], x["class"]) for x in lines} == {
        ("basic/a.slt", 1, "basic/a.slt", "pass"),
        ("basic/a.slt", 4, "basic/a.slt", "pass"),
        ("basic/part.slt.part", 1, "basic/a.slt", "pass"),
        ("basic/part.slt.part", 7, "basic/a.slt", "unexpected_error"),
    }
    first = next(
        x for x in lines if (x["file"], x["via"]) == ("basic/part.slt.part", "basic/a.slt")
    )
    assert first["kind"] == "query" and first["expected"] == ["1", "2"]
    assert first["verdict"] == "pass" and first["actual"] == ["1", "2"]
    assert first["sql"] == "select v from t"
    summary = json.loads(out.with_suffix(".summary.json").read_text())
    assert summary["records"] == 4 and summary["executions"] == 4

    old_out, new_out = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    for tree, path in (("old", old_out), ("new", new_out)):
        res = cli("--dir", str(tmp_path / tree), "basic/a.slt", "--out", str(path), "--jobs", "1")
        assert res.returncode == 0, res.stderr
    res = cli("--compare", str(old_out), str(new_out))
    assert res.returncode == 1, res.stderr  # a silently wrong regression
    assert "both pass 2   old only 1   new only 0   neither 1" in res.stdout
    assert "SILENTLY WRONG basic/part.slt.part:1 [wrong_result] select v from t" in res.stdout
    assert "part.slt.part:7" not in res.stdout  # it failed in both
    res = cli("--compare", str(new_out), str(old_out))
    assert res.returncode == 0, res.stderr
    assert "both pass 2   old only 0   new only 1   neither 1" in res.stdout
    res = cli("--summary", str(new_out), "--per-file")
    assert "records 4  passed 2  50.0%" in res.stdout
    assert "wrong result                        1" in res.stdout
    assert "basic/part.slt.part" in res.stdout


def test_dsn_mode_gives_each_file_a_database_of_its_own(tmp_path: Path) -> None:
    from bench.servers import Postgres

    for name in ("one.slt", "two.slt"):
        (tmp_path / name).write_text(
            "statement ok\ncreate table t (v int)\n\n"
            "statement count 1\ninsert into t values (7)\n\n"
            "query I\nselect v from t\n----\n7\n\n"
            'statement error relation "nope" does not exist\nselect * from nope\n'
        )
    out = tmp_path / "pg.jsonl"
    with Postgres() as pg:
        pg.start()
        dsn = f"host=127.0.0.1 port={pg.port} user=postgres dbname=postgres"
        res = cli("--dir", str(tmp_path), "--dsn", dsn, "--out", str(out), "--jobs", "1")
        assert res.returncode == 0, res.stderr
        with psycopg.connect(dsn) as conn:
            left = conn.execute("select count(*) from pg_database where datname like 'slt_%'")
            assert left.fetchone() == (0,)
    assert "records 8  passed 8  100.0%" in res.stdout


def test_a_part_runs_only_through_the_files_including_it() -> None:
    from bench.e2e.run import included_parts, select_files

    files = [
        "e2e_test/batch/basic/a.slt.part",
        "e2e_test/batch/types/date.slt",
        "e2e_test/batch/types/t.slt.part",
        "e2e_test/streaming/x.slt",
        "e2e_test/streaming/x.slt.disabled",
        "e2e_test/streaming/n/q.slt.part",
    ]
    assert select_files(files, ["basic", "types"], True) == [
        "e2e_test/batch/basic/a.slt.part",
        "e2e_test/batch/types/date.slt",
        "e2e_test/batch/types/t.slt.part",
    ]
    assert select_files(files, ["e2e_test/streaming"], True) == ["e2e_test/streaming/x.slt"]
    assert select_files(files, ["e2e_test/streaming/x.slt.disabled"], True) == [
        "e2e_test/streaming/x.slt.disabled"
    ]
    # x.slt includes n/q.slt.part: the part runs through it only
    parsed: dict[str, list[slt.Item]] = {
        "e2e_test/streaming/x.slt": [slt.BeginInclude("e2e_test/streaming/n/q.slt.part")],
        "e2e_test/streaming/n/q.slt.part": [],
    }
    assert included_parts(parsed) == {"e2e_test/streaming/n/q.slt.part"}
