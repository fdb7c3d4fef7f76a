"""The control interface: the RWSHIM statements over a real connection, and ``rwshim ctl``
(risectl's verbs, tick, faults, the live jobs table) against a running server."""

from __future__ import annotations

import io
import logging
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest

from rwshim.control import ctl
from rwshim.sql import parse
from rwshim.sql import statements as st
from tests.conftest import ThreadRunning

ROOT = Path(__file__).resolve().parents[2]
RUN_QUERY = "Failed to run the query"


def _connect(srv: ThreadRunning, user: str = "root") -> psycopg.Connection[Any]:
    return psycopg.connect(srv.dsn(user=user), autocommit=True)


def _creating_mv(conn: psycopg.Connection[Any], rows: int = 1000, rate: int = 100) -> int:
    """A background MV that backfills ``rate`` rows per actor per barrier second."""
    conn.execute("CREATE TABLE t (v int)")
    conn.execute(f"INSERT INTO t SELECT * FROM generate_series(1, {rows})")
    conn.execute("SET background_ddl = true")
    conn.execute(f"SET backfill_rate_limit = {rate}")
    conn.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
    row = conn.execute(
        "SELECT id FROM rw_catalog.rw_materialized_views WHERE name = 'm'"
    ).fetchone()
    assert row is not None
    return int(row[0])


def _job(conn: psycopg.Connection[Any], job_id: int) -> dict[str, Any]:
    jobs = {j["id"]: j for j in ctl.fetch_jobs(conn)}
    return jobs[job_id]


# --- parsing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("RWSHIM TICK", st.ControlTick("RWSHIM TICK", 1, None)),
        ("rwshim tick 5 database dev", st.ControlTick("rwshim tick 5 database dev", 5, "dev")),
        ("RWSHIM CLOCK MANUAL", st.ControlClock("RWSHIM CLOCK MANUAL", True)),
        ("RWSHIM CLOCK AUTO", st.ControlClock("RWSHIM CLOCK AUTO", False)),
        ("RWSHIM HOLD BACKFILL 7", st.ControlBackfill("RWSHIM HOLD BACKFILL 7", 7, True)),
        ("RWSHIM RELEASE BACKFILL 7", st.ControlBackfill("RWSHIM RELEASE BACKFILL 7", 7, False)),
        ("RWSHIM FAULT Abc off", st.ControlFault("RWSHIM FAULT Abc off", "abc", False)),
        ("RWSHIM RESTART", st.ControlRestart("RWSHIM RESTART")),
        ("RWSHIM JOBS", st.ControlJobs("RWSHIM JOBS")),
        ("RWSHIM FAULTS", st.ControlFaults("RWSHIM FAULTS")),
    ],
)
def test_control_statements_parse(sql: str, expected: st.Statement) -> None:
    assert parse(sql) == [expected]
    assert expected.tag == "RWSHIM"


def test_control_words_stay_names() -> None:
    stmt = parse("CREATE TABLE tick (clock int, fault int, hold int, rwshim int)")[0]
    assert isinstance(stmt, st.CreateTable)


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        (
            "RWSHIM",
            "sql parser error: expected CLOCK, FAULT, FAULTS, HOLD, JOBS, PUSH, RELEASE, RESTART"
            " or TICK, found: EOF\nLINE 1: RWSHIM\n              ^",
        ),
        (
            "RWSHIM FAULT a MAYBE",
            "sql parser error: expected OFF or ON, found: MAYBE\n"
            "LINE 1: RWSHIM FAULT a MAYBE\n                       ^",
        ),
    ],
)
def test_control_statement_syntax_errors(sql: str, message: str) -> None:
    with pytest.raises(Exception) as info:
        parse(sql)
    assert str(info.value) == message


# --- the statements over a connection --------------------------------------------------------


def test_tick_hold_release_in_manual_mode(rw_thread_server_factory: Any) -> None:
    srv = rw_thread_server_factory(manual_clock=True)
    with _connect(srv) as conn:
        job = _creating_mv(conn)
        assert _job(conn, job)["backfill_consumed"] == 0
        time.sleep(1.2)  # no periodic barrier in manual mode
        assert _job(conn, job)["backfill_consumed"] == 0
        assert conn.execute("RWSHIM TICK").statusmessage == "RWSHIM"
        first = _job(conn, job)
        assert (first["status"], first["backfill_consumed"], first["backfill_total"]) == (
            "CREATING",
            400,
            1000,
        )
        conn.execute(f"RWSHIM HOLD BACKFILL {job}")
        conn.execute("RWSHIM TICK 5")
        held = _job(conn, job)
        assert (held["status"], held["backfill_consumed"], held["backfill_held"]) == (
            "CREATING",
            400,
            True,
        )
        conn.execute(f"RWSHIM RELEASE BACKFILL {job}")
        conn.execute("RWSHIM TICK 2 DATABASE dev")
        done = _job(conn, job)
        assert (done["status"], done["backfill_consumed"], done["progress"]) == (
            "CREATED",
            1000,
            "100%",
        )


def test_clock_switches_at_run_time(rw_thread_server: ThreadRunning) -> None:
    with _connect(rw_thread_server) as conn:
        conn.execute("RWSHIM CLOCK MANUAL")
        job = _creating_mv(conn, rows=100_000, rate=1)
        before = _job(conn, job)["backfill_consumed"]
        time.sleep(1.3)
        assert _job(conn, job)["backfill_consumed"] == before
        conn.execute("RWSHIM TICK")
        after_tick = _job(conn, job)["backfill_consumed"]
        assert after_tick > before
        conn.execute("RWSHIM CLOCK AUTO")
        deadline = time.monotonic() + 5
        while _job(conn, job)["backfill_consumed"] == after_tick:
            assert time.monotonic() < deadline, "periodic barriers did not come back"
            time.sleep(0.1)


def test_fault_makes_error_5(rw_thread_server_factory: Any) -> None:
    srv = rw_thread_server_factory(manual_clock=True)
    with _connect(srv) as conn:
        conn.execute("CREATE TABLE t (v int)")
        conn.execute("ALTER SYSTEM PAUSE")
        create = "CREATE MATERIALIZED VIEW m WITH (refresh.interval.sec = 10) AS SELECT * FROM t"
        with pytest.raises(psycopg.Error) as e3:
            conn.execute(create)
        assert str(e3.value) == (
            f"{RUN_QUERY}\n\nCaused by these errors (recent errors listed first):\n"
            "  1: gRPC request to meta service (call `/ddl_service.DdlService/"
            "CreateMaterializedView`) failed: Internal error\n"
            "  2: cannot create streaming job with snapshot backfill when paused"
        )
        conn.execute("RWSHIM FAULT skip_batch_refresh_admission ON")
        assert conn.execute("RWSHIM FAULTS").fetchall() == [
            ("skip_batch_refresh_admission", True),
            ("crash_after_catalog_write", False),
        ]
        with pytest.raises(psycopg.Error) as e5:
            conn.execute(create)
        assert str(e5.value) == (
            f"{RUN_QUERY}\n\nCaused by these errors (recent errors listed first):\n"
            "  1: gRPC request to meta service (call `/ddl_service.DdlService/"
            "CreateMaterializedView`) failed: Internal error\n"
            "  2: cannot create batch refresh job while database barrier is paused"
        )


def test_restart_clears_pause(rw_thread_server_factory: Any) -> None:
    srv = rw_thread_server_factory(manual_clock=True)
    with _connect(srv) as conn:
        conn.execute("CREATE TABLE t (v int)")
        conn.execute("ALTER SYSTEM PAUSE")
        assert srv.thread.call(lambda: srv.server.instance.engine.barrier.is_paused(1)) is True
        conn.execute("RWSHIM RESTART")
        assert srv.thread.call(lambda: srv.server.instance.engine.barrier.is_paused(1)) is False
        assert conn.execute("SELECT name FROM rw_catalog.rw_tables").fetchall() == [("t",)]


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("RWSHIM HOLD BACKFILL 77", "Invalid parameter value: streaming job 77 not found"),
        (
            "RWSHIM FAULT nope ON",
            'Invalid parameter value: unknown fault "nope", expected one of: '
            "skip_batch_refresh_admission, crash_after_catalog_write",
        ),
        (
            "RWSHIM TICK 1 DATABASE nowhere",
            "Caused by these errors (recent errors listed first):\n  1: Catalog error\n"
            "  2: database not found: nowhere",
        ),
    ],
)
def test_control_errors(rw_thread_server: ThreadRunning, sql: str, message: str) -> None:
    with _connect(rw_thread_server) as conn, pytest.raises(psycopg.Error) as info:
        conn.execute(sql)
    if not message.startswith("Caused"):
        message = f"Caused by:\n  {message}"
    assert str(info.value) == f"{RUN_QUERY}\n\n{message}"


def test_control_needs_a_superuser(rw_thread_server: ThreadRunning) -> None:
    with _connect(rw_thread_server) as conn:
        conn.execute("CREATE USER bob")
    with _connect(rw_thread_server, "bob") as conn, pytest.raises(psycopg.Error) as info:
        conn.execute("RWSHIM TICK")
    assert str(info.value) == (
        f"{RUN_QUERY}\n\nCaused by:\n  Permission denied: must be superuser to use rwshim "
        "control statements"
    )


# --- rwshim ctl ------------------------------------------------------------------------------


def _ctl(srv: ThreadRunning, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rwshim", "ctl", "--dsn", srv.dsn(), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_ctl_meta_pause_resume(rw_thread_server: ThreadRunning) -> None:
    srv = rw_thread_server
    with _connect(srv) as conn:
        conn.execute("CREATE TABLE t (v int)")
    paused = lambda: srv.thread.call(lambda: srv.server.instance.engine.barrier.is_paused(1))  # noqa: E731
    out = _ctl(srv, "meta", "pause")
    assert (out.returncode, out.stdout, out.stderr) == (0, "Done.\n", "")
    assert paused() is True
    out = _ctl(srv, "meta", "resume")
    assert (out.returncode, out.stdout) == (0, "Done.\n")
    assert paused() is False
    out = _ctl(srv, "meta", "pause", "--database", "dev")
    assert (out.returncode, paused()) == (0, True)


def test_ctl_resume_backfill_tick_and_errors(rw_thread_server_factory: Any) -> None:
    srv = rw_thread_server_factory(manual_clock=True)
    with _connect(srv) as conn:
        job = _creating_mv(conn)
        assert _ctl(srv, "hold-backfill", str(job)).returncode == 0
        assert _ctl(srv, "tick", "3").returncode == 0
        assert _job(conn, job)["backfill_consumed"] == 0
        frag = conn.execute(
            "SELECT fragment_id FROM rw_catalog.rw_fragments WHERE table_id = %s", (job,)
        ).fetchone()
        assert frag is not None
        out = _ctl(srv, "meta", "resume-backfill", "--fragment-id", str(frag[0]))
        assert (out.returncode, out.stdout) == (0, "Done.\n")
        assert _ctl(srv, "tick", "3").returncode == 0
        assert _job(conn, job)["status"] == "CREATED"
    out = _ctl(srv, "meta", "resume-backfill", "--job-id", "999")
    assert out.returncode == 1
    assert out.stderr == (
        f"rwshim ctl: {RUN_QUERY}\n\nCaused by:\n  Invalid parameter value: streaming job 999 not "
        "found\n"
    )
    out = _ctl(srv, "fault")
    assert out.stdout == "skip_batch_refresh_admission: off\ncrash_after_catalog_write: off\n"


def test_ctl_jobs_shows_progress_moving_and_completing(rw_thread_server: ThreadRunning) -> None:
    srv = rw_thread_server
    with _connect(srv) as conn:
        conn.execute("ALTER SYSTEM SET barrier_interval_ms = 100")
        job = _creating_mv(conn, rows=2000, rate=100)  # 40 rows a barrier: about 5 s
        out = _ctl(srv, "jobs", "--interval", "0.3", "--until-done", timeout=60)
    assert out.returncode == 0, out.stderr
    frames = [f for f in out.stdout.split("\n\n") if f.strip()]
    assert len(frames) >= 3
    header = frames[0].splitlines()[0].split()
    assert header == [
        "ID", "DATABASE", "NAME", "KIND", "STATUS", "CREATE", "PARALLELISM", "MAX", "BACKFILL"
    ]  # fmt: skip
    consumed = []
    for frame in frames[:-1]:
        line = next(ln for ln in frame.splitlines() if ln.startswith(f"{job} "))
        assert "CREATING" in line and "BACKGROUND" in line
        consumed.append(int(line.rsplit(" ", 1)[1].split("/")[0]))
    assert consumed == sorted(consumed) and consumed[-1] > consumed[0]
    last = next(ln for ln in frames[-1].splitlines() if ln.startswith(f"{job} "))
    assert "CREATED" in last and last.endswith("done")


def test_ctl_jobs_once_and_rendering() -> None:
    job = {
        "id": 7,
        "database": "dev",
        "name": "m",
        "kind": "materialized view",
        "status": "CREATING",
        "create_type": "BACKGROUND",
        "parallelism": "bounded(64)",
        "actors": 4,
        "max_parallelism": 256,
        "paused": True,
        "backfill_held": True,
        "backfill_consumed": 250,
        "backfill_total": 1000,
    }
    table = {**job, "id": 6, "name": "t", "kind": "table", "status": "CREATED"}
    text = ctl.render_jobs([table, job])
    assert text == (
        "ID  DATABASE  NAME  KIND               STATUS    CREATE      PARALLELISM             "
        "MAX  BACKFILL\n"
        "7   dev       m     materialized view  CREATING  BACKGROUND  bounded(64) (4 actors)  "
        "256  [######------------------]  25.0% 250/1000 (held, paused)\n"
    )
    assert "t " in ctl.render_jobs([table], include_tables=True)
    assert ctl.render_jobs([table]) == "no streaming jobs\n"
    assert ctl.progress_bar(0, 0, 4) == "[####] 100.0% 0/0"
    assert ctl.progress_bar(None, None, 4) == "[????]"


# --- logging ---------------------------------------------------------------------------------


def test_log_lines(rw_thread_server: ThreadRunning, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="rwshim")
    with _connect(rw_thread_server) as conn:
        conn.execute("CREATE TABLE t (v int)")
        with pytest.raises(psycopg.Error):
            conn.execute("SELECT nope FROM t")
        with pytest.raises(psycopg.Error):
            conn.execute("SELEC 1")
        pid = conn.info.backend_pid
    deadline = time.monotonic() + 5
    while not any(r.message.startswith("disconnection") for r in caplog.records):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    by_logger: dict[str, list[str]] = {}
    for r in caplog.records:
        by_logger.setdefault(r.name, []).append(f"{r.levelname} {r.message}")
    conn_lines = [m for m in by_logger["rwshim.server"] if "connection" in m]
    assert conn_lines[0].startswith("INFO connection addr=127.0.0.1:")
    assert conn_lines[0].endswith(f' pid={pid} user=root db=dev app=""')
    assert conn_lines[-1].startswith("INFO disconnection addr=127.0.0.1:")
    stmts = [re.sub(r" ms=[0-9.]+ ", " ms=* ", m) for m in by_logger["rwshim.statement"]]
    assert stmts[-3:] == [
        f"DEBUG statement pid={pid} user=root db=dev kind=CreateTable ok=True tag=CREATE_TABLE"
        ' ms=* sql="CREATE TABLE t (v int)"',
        f"DEBUG statement pid={pid} user=root db=dev kind=Query ok=False sqlstate=XX000"
        ' ms=* sql="SELECT nope FROM t"',
        f"DEBUG statement pid={pid} user=root db=dev kind=unparsed ok=False sqlstate=XX000"
        ' sql="SELEC 1"',
    ]


def test_logfmt_quoting() -> None:
    from rwshim.logfmt import line

    assert line("e", a=1, b="x y", c="", d='q"\n') == 'e a=1 b="x y" c="" d="q\\"\\n"'


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_ctl_jobs_redraws_in_place_on_a_terminal(rw_thread_server: ThreadRunning) -> None:
    with _connect(rw_thread_server) as conn:
        conn.execute("CREATE TABLE t (v int)")
        conn.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
        out = _Terminal()
        ctl.watch_jobs(conn, out, once=False, interval=0.1, until_done=True, include_tables=False)
    text = out.getvalue()
    assert text.startswith("\x1b[H\x1b[2Jrwshim jobs  ")
    assert text.count("\x1b[H\x1b[2J") == 1  # nothing was creating: one frame, then done
    title, blank, head, row, end = text.split("\n")
    assert title.endswith("  (Ctrl-C to stop)")
    assert (blank, head.split()[:3], row.split()[:5], end) == (
        "",
        ["ID", "DATABASE", "NAME"],
        ["7", "dev", "m", "materialized", "view"],
        "",
    )
