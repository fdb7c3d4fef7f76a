"""The page's files ship inside the package and need no internet: every script and style the
page loads is served by rwshim, and the vendored layout library is the one package-lock.json
pins, byte for byte as dashboard-js/vendor.sh copied it."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
STATIC = ROOT / "rwshim" / "dashboard" / "static"


def test_the_page_loads_only_local_files() -> None:
    html = (STATIC / "index.html").read_text()
    refs = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert "/static/vendor/dagre.min.js" in refs
    for ref in refs:
        assert not re.match(r"^(https?:)?//", ref), ref
        if ref.startswith("/static/"):
            assert (STATIC / ref.removeprefix("/static/")).is_file(), ref
    for name in ("app.js", "app.css"):
        assert not re.search(r"https?://(?!www\.w3\.org/)", (STATIC / name).read_text()), name


def test_vendored_files_are_the_locked_versions() -> None:
    lock = json.loads((ROOT / "dashboard-js" / "package-lock.json").read_text())
    pinned = {
        path.removeprefix("node_modules/"): meta["version"]
        for path, meta in lock["packages"].items()
        if path
    }
    wanted = json.loads((ROOT / "dashboard-js" / "package.json").read_text())["dependencies"]
    assert {k: pinned[k] for k in wanted} == wanted
    lines = (STATIC / "vendor" / "VERSIONS").read_text().splitlines()
    assert lines
    for line in lines:
        name, package, digest = line.split()
        pkg, version = package.rsplit("@", 1)
        assert pinned[pkg] == version, line
        data = (STATIC / "vendor" / name).read_bytes()
        assert digest == "sha256:" + hashlib.sha256(data).hexdigest(), line
    assert {line.split()[0] for line in lines} == {
        p.name for p in (STATIC / "vendor").iterdir() if p.name != "VERSIONS"
    }


def test_starting_without_a_dashboard_does_not_load_the_web_library() -> None:
    """The CLI, the server and the pytest plugin import aiohttp only when a dashboard starts."""
    code = (
        "import sys, rwshim.cli.main, rwshim.server.listener, rwshim.testing, rwshim.dashboard;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'aiohttp'"
        " or m == 'rwshim.dashboard.app'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"
