"""Quoting and escaping tricks (backslashes, dollar quotes, U& escapes, comments, E'') put in
front of forbidden calls, over a user table: whatever rwshim answers, PostgreSQL runs none of
them (no file read or written, no backend signalled, the lexing settings unchanged).
Bounded; derandomized under CI (tests/conftest.py's profile)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.conftest import Shim

PREFIXES = [
    "'\\'",
    "'p\\'\n'",
    "E'\\''",
    "E'\\\\'",
    "$$",
    "$a$",
    "$$'$$",
    "U&'\\0027'",
    "U&'d\\0061t\\+000061'",
    "'\\\\'",
    "/*",
    "/* ' */",
    "--'\n",
    "'",
    '"',
    "'\\",
    "'' ",
    "\\",
    "'\n'",
    "E'\\x27'",
]
SUFFIXES = ["", " -- '", " /* */", " '", "\n'", " $$", " $a$", "'\n"]
JOINERS = [" , ", " || ", "\n, ", " AS x, "]


def forbidden_calls(target: Path, victim: int) -> list[str]:
    return [
        "pg_read_file($$/etc/passwd$$)",
        f"lo_export(lo_from_bytea(0, $$x$$::bytea), $${target}$$)",
        f"pg_catalog.pg_terminate_backend({victim})",
        "pg_catalog.set_config($$standard_conforming_strings$$, $$off$$, false)",
        "(SELECT string_agg(rolname, $$,$$) FROM pg_authid)",
    ]


@pytest.fixture(scope="module")
def victim(shim: Shim) -> int:
    """A data-plane backend of root's session."""
    shim.root.execute("SELECT v FROM t").fetchall()
    with shim.admin() as admin:
        row = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
            " ORDER BY usename = 'rwshim_data' DESC, backend_start LIMIT 1"
        ).fetchone()
    assert row is not None
    return int(row[0])


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("lo")
    os.chmod(where, 0o777)
    return where / "written"


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    prefix=st.lists(st.sampled_from(PREFIXES), min_size=1, max_size=3),
    joiner=st.sampled_from(JOINERS),
    which=st.integers(0, 4),
    suffix=st.sampled_from(SUFFIXES),
    set_off_first=st.booleans(),
)
def test_no_forbidden_call_runs(
    shim: Shim,
    victim: int,
    target: Path,
    prefix: list[str],
    joiner: str,
    which: int,
    suffix: str,
    set_off_first: bool,
) -> None:
    alice = shim.alice
    if set_off_first:
        with contextlib.suppress(psycopg.Error):
            alice.execute("SELECT set_config('standard_conforming_strings', 'off', false) FROM t")
    call = forbidden_calls(target, victim)[which]
    text = f"SELECT {''.join(prefix)}{joiner}{call}{suffix}\nFROM t"
    try:
        rows = alice.execute(text).fetchall()
    except psycopg.Error:
        rows = []
    assert "root:" not in repr(rows)
    assert "rwshim_data" not in repr(rows)
    assert not target.exists()
    with shim.admin() as admin:
        alive = admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (victim,))
        assert alive.fetchall() == [(1,)]
        assert admin.execute("SELECT count(*) FROM pg_largeobject_metadata").fetchone() == (0,)
    # PostgreSQL still lexes a backslash in a plain string as rwshim does
    assert alice.execute("SELECT 'a\\b' AS v FROM t").fetchall() == [("a\\b",)]
