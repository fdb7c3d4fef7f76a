"""The dashboard in headless Chromium against a real server (the issue's "done when"): a
background MV with a slow backfill shows Creating with a progress bar that moves as barriers
pass, without a reload; the upstream table's node reports error 1 for a parallelism change, in
the words the ALTER then uses; once the backfill is done both are Created and nothing is
blocked.  Each page is saved as a screenshot (paths listed at the end of the run)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from selenium.webdriver.support.ui import WebDriverWait

from tests.conftest import ThreadRunning

Make = Callable[..., tuple[ThreadRunning, str]]
WAIT_S = 30


def until(browser: Any, script: str, *args: Any) -> Any:
    """Wait until ``script`` (run in the page, ``arguments`` = args) returns a truthy value."""
    return WebDriverWait(browser, WAIT_S, poll_frequency=0.1).until(
        lambda d: d.execute_script(script, *args), message=script
    )


def text(browser: Any, selector: str) -> str:
    return str(
        browser.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : null",
            selector,
        )
        or ""
    ).strip()


def count(browser: Any, selector: str) -> int:
    return int(
        browser.execute_script("return document.querySelectorAll(arguments[0]).length", selector)
    )


def fraction(browser: Any, name: str) -> float:
    value = browser.execute_script(
        "const e = document.querySelector(`.node[data-name='${arguments[0]}'] .progress`);"
        " return e ? Number(e.dataset.fraction) : null",
        name,
    )
    assert value is not None, f"no progress bar on {name}"
    return float(value)


def open_page(browser: Any, url: str) -> None:
    browser.get(url)
    until(browser, "return document.getElementById('live').dataset.state === 'live'")
    # Set once per load: still there later means the page was updated, not reloaded.
    browser.execute_script("window.__loaded_once = true")


def still_same_page(browser: Any) -> bool:
    return bool(browser.execute_script("return window.__loaded_once === true"))


def sql(running: ThreadRunning, *statements: str) -> None:
    with psycopg.connect(running.dsn(), autocommit=True) as conn:
        for s in statements:
            conn.execute(s)


def ids(running: ThreadRunning) -> dict[str, int]:
    with psycopg.connect(running.dsn(), autocommit=True) as conn:
        rows = conn.execute("SELECT name, id FROM rw_catalog.rw_relations").fetchall()
    return {str(n): int(i) for n, i in rows}


def creating_mv(running: ThreadRunning, rows: int) -> tuple[int, int]:
    sql(
        running,
        "CREATE TABLE t (v int)",
        f"INSERT INTO t SELECT * FROM generate_series(1, {rows})",
    )
    # One session: the backfill variables are the creating session's.
    with psycopg.connect(running.dsn(), autocommit=True) as conn:
        conn.execute("SET background_ddl = true")
        conn.execute("SET backfill_rate_limit = 1")
        conn.execute("CREATE MATERIALIZED VIEW m AS SELECT * FROM t")
    found = ids(running)
    return found["t"], found["m"]


def error1(job_id: int) -> str:
    # src/meta/src/stream/stream_manager.rs:935-938
    return (
        f"Cannot alter the job {job_id} because it is blocked by creating unreschedulable "
        "backfill jobs"
    )


def test_creating_mv_blocks_its_upstream_until_created(
    browser: Any, dashboard_server: Make, screenshot: Callable[[str], Path]
) -> None:
    running, base = dashboard_server(manual_clock=True, dashboard_control=True)
    t, m = creating_mv(running, rows=100)
    open_page(browser, base)

    # The MV: Creating, with a progress bar.
    until(browser, "return document.querySelector(\".node[data-name='m']\")?.dataset.status"
          " === 'CREATING'")  # fmt: skip
    assert text(browser, ".node[data-name='m'] .status") == "Creating"
    assert count(browser, ".node[data-name='m'] .progress .bar .fill") == 1
    assert fraction(browser, "m") == 0.0
    # The upstream table: Created, and its parallelism change refused with error 1.
    assert text(browser, ".node[data-name='t'] .status") == "Created"
    refusal = ".node[data-name='t'] .refusal[data-alter='parallelism']"
    assert text(browser, f"{refusal} .message") == error1(t)
    assert text(browser, f"{refusal} .cause") == f"caused by creating m (#{m})"
    # ... which is what the ALTER answers.
    with pytest.raises(psycopg.errors.InternalError) as ex:
        sql(running, "ALTER TABLE t SET PARALLELISM = 2")
    assert ex.value.diag.message_primary is not None
    assert ex.value.diag.message_primary.endswith(f"  2: {error1(t)}\n")
    assert text(browser, "[data-database='dev'] .chip") == "running"

    # Live: barriers move the bar without a reload (4 actors x 1 row/s x 1 s a barrier).
    sql(running, "RWSHIM TICK 5")
    until(browser, "return Number(document.querySelector(\".node[data-name='m'] .progress\")"
          "?.dataset.fraction) === 0.2")  # fmt: skip
    assert text(browser, ".node[data-name='m'] .progress-text") == "Snapshot [20.00% (20/100)]"
    # The page's own Tick button (control enabled) steps a barrier too.
    epoch = text(browser, "[data-database='dev'] .epoch")
    browser.find_element("css selector", "[data-database='dev'] button[data-action='tick']").click()
    until(browser, "return document.querySelector(\"[data-database='dev'] .epoch\")"
          ".textContent !== arguments[0]", epoch)  # fmt: skip
    until(browser, "return Number(document.querySelector(\".node[data-name='m'] .progress\")"
          "?.dataset.fraction) === 0.24")  # fmt: skip
    assert still_same_page(browser)
    screenshot("1-relations-creating")

    # The MV's fragments: boxes with type, parallelism, backfill; edges by distribution.
    browser.find_element("css selector", ".node[data-name='m'] .node-head").click()
    until(browser, "return document.querySelectorAll('.fragment').length >= 2")
    assert browser.execute_script("return location.hash") == f"#/job/{m}"
    assert text(browser, ".job .status") == "Creating"
    scan = browser.execute_script(
        "return [...document.querySelectorAll('.fragment:not(.external)')]"
        ".map(f => f.textContent).find(t => t.includes('SnapshotBackfill'))"
    )
    assert scan is not None
    assert "STREAM_SCAN" in scan and "backfill 1 rows/s" in scan and "4 actors" in scan
    assert text(browser, ".edge-label") == "Hash"
    assert "t (#" in text(browser, ".fragment.external .owner")
    assert text(browser, "tr[data-alter='parallelism'] .refusal pre.error").endswith(
        f"  2: {error1(m)}"
    )
    assert count(browser, "tr[data-alter='backfill_parallelism'][data-refused='true']") == 1
    screenshot("2-job-fragments-creating")

    # The blocked set: every job, every ALTER.
    browser.get(base + "#/blocked")
    until(browser, "return document.querySelectorAll('table.blocked tr[data-job-id]').length === 2")
    cell = f"tr[data-job-id='{t}'] td[data-alter='parallelism']"
    assert text(browser, f"{cell} .message") == error1(t)
    assert count(browser, f"tr[data-job-id='{t}'] td[data-alter='backfill_parallelism'] .ok") == 1
    assert count(browser, f"tr[data-job-id='{t}'] td[data-alter='fragment'] .refusal") == 1
    screenshot("3-blocked-set-creating")

    # The backfill finishes: both Created, nothing blocked.
    browser.get(base)
    until(browser, "return document.querySelectorAll('.node').length === 2")
    browser.execute_script("window.__loaded_once = true")
    sql(running, "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = DEFAULT", "RWSHIM TICK")
    until(browser, "return document.querySelector(\".node[data-name='m']\")?.dataset.status"
          " === 'CREATED'")  # fmt: skip
    assert still_same_page(browser)
    assert text(browser, ".node[data-name='m'] .status") == "Created"
    assert text(browser, ".node[data-name='t'] .status") == "Created"
    assert count(browser, ".refusal") == 0
    assert count(browser, ".progress") == 0
    screenshot("4-relations-created")
    browser.get(base + "#/blocked")
    until(browser, "return document.querySelectorAll('table.blocked tr[data-job-id]').length === 2")
    assert count(browser, "[data-refused='true']") == 0
    assert count(browser, "table.blocked .ok") == 6
    sql(running, "ALTER TABLE t SET PARALLELISM = 2")


def test_periodic_barriers_move_the_bar_and_read_only_has_no_buttons(
    browser: Any, dashboard_server: Make
) -> None:
    running, base = dashboard_server()
    creating_mv(running, rows=100_000)
    open_page(browser, base)
    until(browser, "return document.querySelector(\".node[data-name='m'] .progress\")")
    first = fraction(browser, "m")
    # The server's own barrier loop moves it; the page follows without a reload.
    until(browser, "return Number(document.querySelector(\".node[data-name='m'] .progress\")"
          "?.dataset.fraction) > arguments[0]", first)  # fmt: skip
    assert still_same_page(browser)
    assert count(browser, "button[data-action]") == 0
    assert text(browser, "#clock") == "periodic barriers"
