"""psql against a real rwshim server (simple protocol; libpq's startup and error display)."""

from __future__ import annotations

import subprocess
import time

from tests.conftest import ThreadRunning


def psql(server: ThreadRunning, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return server.psql(*args, **env)


def test_psql_select_1(rw_thread_server: ThreadRunning) -> None:
    r = psql(rw_thread_server, "-At", "-c", "SELECT 1")
    assert (r.returncode, r.stdout, r.stderr) == (0, "1\n", "")


def test_psql_several_statements_in_one_c(rw_thread_server: ThreadRunning) -> None:
    r = psql(rw_thread_server, "-c", "select 1 as a; select 'x' as b, 2 as c")
    assert r.returncode == 0, r.stderr
    assert r.stdout == " a \n---\n 1\n(1 row)\n\n b | c \n---+---\n x | 2\n(1 row)\n\n"


def test_psql_error_shows_risingwaves_envelope(rw_thread_server: ThreadRunning) -> None:
    r = psql(rw_thread_server, "-c", "selet 1")
    assert r.returncode == 1
    assert r.stderr == (
        "ERROR:  Failed to run the query\n\nCaused by:\n"
        "  sql parser error: expected statement, found: selet\nLINE 1: selet 1\n        ^\n\n"
    )


def test_psql_begin_notice_and_show(rw_thread_server: ThreadRunning) -> None:
    r = psql(rw_thread_server, "-At", "-c", "begin", "-c", "show timezone", "-c", "commit")
    assert r.returncode == 0
    assert r.stdout == "BEGIN\nUTC\nCOMMIT\n"
    assert r.stderr.startswith("NOTICE:  Read-write transaction is not supported yet.")


def test_psql_parameter_status(rw_thread_server: ThreadRunning) -> None:
    script = "\\echo :SERVER_VERSION_NAME :SERVER_VERSION_NUM\nselect 1;\n"
    r = psql(rw_thread_server, "-At", "-c", script.splitlines()[0], PGAPPNAME="probe")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "13.14.0 131400\n"
    # psql has left: its session leaves the registry once its Terminate is read.
    deadline = time.monotonic() + 5
    while rw_thread_server.thread.call(lambda: len(rw_thread_server.server.registry)):  # type: ignore[union-attr]
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_psql_prepare_and_deallocate_are_notices(rw_thread_server: ThreadRunning) -> None:
    """SQL-level PREPARE and DEALLOCATE succeed with RisingWave's notices and change nothing
    (handler/prepared_statement.rs:20-44)."""
    r = psql(
        rw_thread_server,
        "-c",
        "PREPARE p AS SELECT 1",
        "-c",
        "DEALLOCATE p",
        "-c",
        "DEALLOCATE PREPARE ALL",
    )
    assert (r.returncode, r.stdout) == (0, "PREPARE\nDEALLOCATE\nDEALLOCATE\n"), r.stderr
    tail = "is not supported yet.\nFor compatibility, this statement will still succeed but no"
    tail += " changes are actually made.\n"
    assert r.stderr == (
        f"NOTICE:  `PREPARE` {tail}NOTICE:  `DEALLOCATE` {tail}NOTICE:  `DEALLOCATE` {tail}"
    )


def test_psql_show_cluster_and_worker_nodes(rw_thread_server: ThreadRunning) -> None:
    """The frontend worker is this server, at its own port (the frontend registers its
    listen address: session.rs:313-321); started_at is whole seconds (show.rs:780-782)."""
    port = rw_thread_server.port
    r = psql(rw_thread_server, "-At", "-F", ",", "-c", "SHOW CLUSTER")
    assert r.returncode == 0, r.stderr
    frontend, compute = r.stdout.splitlines()
    assert frontend.startswith(f"1,127.0.0.1:{port},WORKER_TYPE_FRONTEND,RUNNING,,f,f,")
    assert compute.startswith("2,127.0.0.1:5688,WORKER_TYPE_COMPUTE_NODE,RUNNING,4,t,t,")
    started = frontend.rsplit(",", 1)[1]
    # a timestamptz in RisingWave's text: whole seconds and a +HH:MM offset
    assert len(started) == len("2026-01-01 00:00:00+00:00") and started.endswith("+00:00"), started
    r = psql(
        rw_thread_server,
        "-At",
        "-F",
        ",",
        "-c",
        "SELECT id, host, port, internal_rpc_host_addr FROM rw_catalog.rw_worker_nodes",
    )
    assert r.stdout == f"1,127.0.0.1,{port},127.0.0.1:6786\n2,127.0.0.1,5688,\n", r.stderr


def test_psql_copy_query_to_stdout(rw_thread_server: ThreadRunning) -> None:
    """RisingWave answers ``COPY (<query>) TO STDOUT`` (handler/mod.rs:656-664): tab-separated
    text, NULL as an empty field (pg_message.rs:767-818); it handles no other COPY."""
    setup = "CREATE TABLE c1 (a int, b varchar); INSERT INTO c1 VALUES (1, 'x\ty'), (2, NULL)"
    assert psql(rw_thread_server, "-c", setup, "-c", "FLUSH").returncode == 0
    r = psql(rw_thread_server, "-c", "COPY (SELECT a, b FROM c1 ORDER BY a) TO STDOUT")
    assert (r.returncode, r.stdout, r.stderr) == (0, "1\tx\\ty\n2\t\n", "")
    r = psql(rw_thread_server, "-c", "COPY c1 TO STDOUT")
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (
        "ERROR:  Failed to run the query\n\nCaused by:\n  Feature is not yet implemented: "
        "Unhandled statement: COPY c1 TO STDOUT\nNo tracking issue yet. Feel free to submit a "
        "feature request at https://github.com/risingwavelabs/risingwave/issues/new?labels="
        "type%2Ffeature&template=feature_request.yml\n\n"
    )
