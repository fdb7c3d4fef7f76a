"""The README's quickstarts work when pasted: its psql, Python and pytest blocks run against a
fresh server (the address swapped for the test server's)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ThreadRunning
from tests.plugin.test_plugin import plugin_load_args

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def _block(heading: str, lang: str) -> str:
    section = README.split(f"### {heading}\n", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    m = re.search(rf"```{lang}\n(.*?)```", section, re.S)
    assert m is not None, f"no {lang} block under {heading}"
    return m.group(1)


def test_setup_commands_are_the_documented_ones() -> None:
    assert "\nbash .ci/setup && .venv/bin/rwshim\n" in README
    assert "\n.venv/bin/python -m pytest\n" in README
    # CI runs the same set-up and exactly the README's test command.
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash .ci/setup\n" in ci
    assert ci.rstrip().endswith("\n.venv/bin/python -m pytest")


def test_psql_quickstart(rw_thread_server: ThreadRunning) -> None:
    sql = _block("psql", "sql")
    run = subprocess.run(
        ["psql", "-X", "-f", "-", rw_thread_server.dsn()],
        input=sql,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    # The error the block shows in comments is the one psql prints.
    shown = [ln[3:] for ln in sql.splitlines() if ln.startswith("--")]
    printed = re.sub(r"^psql:<stdin>:\d+: ", "", run.stderr, flags=re.M).splitlines()
    assert [ln.rstrip() for ln in printed] == [ln.rstrip() for ln in shown] + [""]
    assert run.stdout.splitlines()[-1] == "ALTER_MATERIALIZED_VIEW"


def test_python_quickstart(rw_thread_server: ThreadRunning) -> None:
    code = _block("Python", "python").replace("port=4566", f"port={rw_thread_server.port}")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == "[('m', 'Created')]\n"


def test_pytest_quickstart(tmp_path: Path) -> None:
    code = _block("pytest", "python").replace(
        "        ...                                 # run the code under test: it must wait\n",
        '        assert conn.execute("SELECT status FROM rw_materialized_views").fetchone()'
        " == ('Creating',)\n",
    )
    code += (
        '        assert conn.execute("SELECT status FROM rw_materialized_views").fetchone()'
        " == ('Created',)\n"
    )
    (tmp_path / "test_quickstart.py").write_text(code)
    out = subprocess.run(
        [
            sys.executable, "-m", "pytest", *plugin_load_args(), "-p", "no:cacheprovider",
            "-q", "--rootdir", str(tmp_path), "-c", "/dev/null", str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 passed" in out.stdout
