"""The harness's own logic without servers: reading pgbench's output, medians and ratios."""

from __future__ import annotations

import pytest

from bench import pgbench
from bench.profile import summarize
from bench.report import Probe, Report, Series, WorkloadResult, format_text
from bench.servers import BenchError, one_line

# Verbatim output of pgbench 15.18 (Debian) with -r.
OK_OUTPUT = """\
pgbench (15.18 (Debian 15.18-0+deb12u1))
transaction type: /tmp/s1.sql
scaling factor: 1
query mode: prepared
number of clients: 1
number of threads: 1
maximum number of tries: 1
duration: 1 s
number of transactions actually processed: 35131
number of failed transactions: 0 (0.000%)
latency average = 0.028 ms
initial connection time = 9.445 ms
tps = 35459.675734 (without initial connection time)
statement latencies in milliseconds and failures:
         0.001           0  \\set p random(1, 4)
         0.028           0  SELECT 1;
"""

ABORTED_STDOUT = """\
number of transactions actually processed: 0
number of failed transactions: 0 (NaN%)
"""
ABORTED_STDERR = """\
pgbench: error: client 0 script 0 aborted in command 1 query 0: ERROR:  relation "nothere" \
does not exist
LINE 1: SELECT * FROM nothere;
                      ^
pgbench: error: Run was aborted; the above results are incomplete.
"""


def test_parse_reads_tps_latency_and_statements() -> None:
    r = pgbench.parse(0, OK_OUTPUT, "")
    assert r.tps == 35459.675734
    assert r.latency_ms == 0.028
    assert r.transactions == 35131
    assert r.statements == {"\\set p random(1, 4)": 0.001, "SELECT 1;": 0.028}


def test_parse_reports_the_server_error_of_an_aborted_run() -> None:
    with pytest.raises(BenchError) as e:
        pgbench.parse(2, ABORTED_STDOUT, ABORTED_STDERR)
    assert str(e.value) == 'relation "nothere" does not exist'


def test_parse_reports_pgbench_own_error() -> None:
    stderr = (
        'pgbench: error: connection to server at "127.0.0.1", port 1 failed: Connection refused\n'
    )
    with pytest.raises(BenchError) as e:
        pgbench.parse(1, "", stderr)
    assert str(e.value) == (
        'connection to server at "127.0.0.1", port 1 failed: Connection refused'
    )


def test_parse_rejects_a_run_without_transactions() -> None:
    out = OK_OUTPUT.replace("processed: 35131", "processed: 0")
    with pytest.raises(BenchError) as e:
        pgbench.parse(0, out, "")
    assert str(e.value) == "no transaction completed in the run"


def test_median_and_ratio() -> None:
    w = WorkloadResult("x", "x", "tps", core=True)
    w.rwshim.runs += [30.0, 10.0, 20.0]
    w.postgres.runs += [40.0, 40.0]
    assert w.rwshim.median == 20.0
    assert w.ratio == 0.5
    w.rwshim.fail("boom")
    w.rwshim.fail("second reason is not kept")
    assert w.rwshim.median is None and w.ratio is None
    assert w.rwshim.error == "boom"


def test_probe_ratio_is_largest_over_smallest_catalog() -> None:
    p = Probe("alter", "ALTER ...")
    p.latency_ms.update({10000: 3.0, 10: 2.0, 1000: 2.5})
    assert p.ratio == 1.5
    assert Probe("x", "x", {10: 1.0}).ratio is None


def test_text_report_shows_reasons_for_missing_figures() -> None:
    rep = Report("quick", 1, 1, {"nproc": "2", "cpu": "cpu", "memory": "1 GiB", "python": "3"})
    w = WorkloadResult("ddl-cycle-c1", "t", "cycles/s", core=False)
    w.postgres.runs.append(400.0)
    w.rwshim.fail("Feature is not yet implemented: CREATE MATERIALIZED VIEW")
    rep.workloads.append(w)
    rep.startup = Series([0.2, 0.25, 0.3])
    text = format_text(rep)
    assert "ddl-cycle-c1           cycles/s                -        400       -" in text
    assert (
        "    rwshim: not available: Feature is not yet implemented: CREATE MATERIALIZED VIEW"
        in text
    )
    assert "start-up to first SELECT 1: median 250 ms (runs, ms: 200, 250, 300)" in text


# py-spy 0.4 `record --format raw` output of a small busy loop.
PYSPY_RAW = """\
<module> (busy.py:10);outer (busy.py:8) 1
<module> (busy.py:10);outer (busy.py:9);inner (busy.py:5) 3
<module> (busy.py:10);outer (busy.py:9);inner (busy.py:4) 129
<module> (/usr/lib/python3.11/busy.py:10);outer (busy.py:9) 14
"""


def test_profile_summary_shares_per_function() -> None:
    prof = summarize(PYSPY_RAW, top=5)
    assert prof.samples == 147
    assert prof.self_pct[0][0] == "inner (busy.py)"
    assert prof.self_pct[0][1] == pytest.approx(100 * 132 / 147)
    assert dict(prof.self_pct)["outer (busy.py)"] == pytest.approx(100 * 15 / 147)
    assert dict(prof.total_pct)["<module> (busy.py)"] == pytest.approx(100.0)
    assert dict(prof.total_pct)["outer (busy.py)"] == pytest.approx(100.0)


def test_risingwave_report_is_joined_on_one_line() -> None:
    # pgbench's stderr for a RisingWave error report (envelope, "Caused by:", indented cause).
    stderr = (
        "pgbench: error: client 0 script 0 aborted in command 0 query 0: "
        "ERROR:  Failed to run the query\n"
        "\n"
        "Caused by:\n"
        "  Feature is not yet implemented: CREATE MATERIALIZED VIEW\n"
        "pgbench: error: Run was aborted; the above results are incomplete.\n"
    )
    with pytest.raises(BenchError) as e:
        pgbench.parse(2, ABORTED_STDOUT, stderr)
    assert str(e.value) == (
        "Failed to run the query: Feature is not yet implemented: CREATE MATERIALIZED VIEW"
    )


def test_numbered_causes_are_joined_in_order() -> None:
    text = (
        "Failed to run the query\n\n"
        "Caused by these errors (recent errors listed first):\n"
        "  1: gRPC request to meta service failed\n"
        "  2: the job is blocked\n"
    )
    assert one_line(text) == (
        "Failed to run the query: gRPC request to meta service failed: the job is blocked"
    )
