"""Fixtures of the dashboard suites: a real rwshim server with its dashboard on a port the OS
picks, headless Chromium driven by Selenium through Debian's chromedriver (installed by
``.ci/packages``; Selenium never downloads a browser or a driver here), and a directory the
browser tests write one screenshot per page into, named at the end of the run.

Chromium runs with a fresh profile and every background service off: this machine's network
is closed, and the page must work with no internet (everything it loads is served by rwshim).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ThreadRunning

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SHOTS: list[Path] = []


def chromium_args(profile: str) -> list[str]:
    return [
        "--headless",
        # Chromium refuses to run as root without it (CI runs as root).
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        "--window-size=1400,900",
    ]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session (starting one takes seconds)."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        pytest.fail(
            f"the dashboard's browser tests need Debian's chromium and chromium-driver "
            f"({', '.join(missing)} missing): run .ci/setup as root"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="rwshim-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in chromium_args(profile):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """Where the screenshots go: $RWSHIM_SCREENSHOTS, else <tmp>/rwshim-dashboard-screenshots
    (each run overwrites its files; pytest's own temporary directories are rotated away)."""
    chosen = os.environ.get("RWSHIM_SCREENSHOTS")
    path = Path(chosen) if chosen else Path(tempfile.gettempdir()) / "rwshim-dashboard-screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def screenshot(browser: Any, screenshot_dir: Path) -> Callable[[str], Path]:
    """Save the whole page as ``<name>.png`` (the window grows to the page's height)."""

    def take(name: str) -> Path:
        height = browser.execute_script(
            "return Math.ceil(document.body.getBoundingClientRect().height)"
        )
        browser.set_window_size(1400, max(400, min(int(height) + 100, 3000)))
        path = screenshot_dir / f"{name}.png"
        browser.save_screenshot(str(path))
        browser.set_window_size(1400, 900)
        SHOTS.append(path)
        return path

    return take


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SHOTS:
        terminalreporter.write_sep("-", "dashboard screenshots")
        for path in SHOTS:
            terminalreporter.write_line(str(path))


@pytest.fixture
def dashboard_server(
    rw_thread_server_factory: Callable[..., ThreadRunning],
) -> Callable[..., tuple[ThreadRunning, str]]:
    """A server with its dashboard: ``(running, base_url)``; Config overrides as keywords
    (``dashboard_control=True``, ``manual_clock=True``)."""

    def make(**overrides: Any) -> tuple[ThreadRunning, str]:
        overrides.setdefault("dashboard_port", 0)
        running = rw_thread_server_factory(**overrides)
        dashboard = running.server.dashboard
        assert dashboard is not None
        return running, dashboard.url

    return make
