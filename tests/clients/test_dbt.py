"""dbt-risingwave against a real rwshim server: seed, run, test, docs, and a second run.
The main suite is dbt-risingwave 1.12.1 (dbt-core 1.12); 1.11.16 (dbt-core 1.11) is kept.

dbt lives in its own virtualenvs (its pins clash with ours): ``.venv-dbt112`` for 1.12 and
``.venv-dbt`` for 1.11, made by ``.ci/setup`` (1.12 with ``--only-binary
dbt-core-experimental-parser``: that package ships a source distribution whose build needs a
download pip cannot make offline, and a wheel that installs as is); ``RWSHIM_DBT112`` /
``RWSHIM_DBT`` name other executables.  The test fails (never skips) when dbt is missing.
The project is vendored under ``tests/clients/dbtproj``
with its profile pointed at the test server.

The second run of the unchanged project: 1.12 re-runs every model cleanly.  1.11 fails at
``incr_model``, on RisingWave itself: dbt-core 1.11's default delete+insert strategy (which
dbt-risingwave 1.11.16 uses) sends ``delete from <rel> as DBT_INTERNAL_DEST ...`` and
RisingWave's ``parse_delete`` (src/sqlparser/src/parser.rs:4641) takes no alias; rwshim
answers as RisingWave does, and the test checks that exact failure.  A third run, with the
incremental model switched to the ``append`` strategy (insert only) and zero-downtime rebuilds
on, then succeeds for every model in both.  ``dbt docs generate`` runs after ``dbt test``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from tests.conftest import ThreadRunning

REPO = Path(__file__).resolve().parents[2]
PROJECT = Path(__file__).resolve().parent / "dbtproj"


# version -> (environment variable, virtualenv)
VERSIONS = {"1.12.1": ("RWSHIM_DBT112", ".venv-dbt112"), "1.11.16": ("RWSHIM_DBT", ".venv-dbt")}


def dbt_executable(version: str) -> str:
    var, venv = VERSIONS[version]
    exe = os.environ.get(var) or str(REPO / venv / "bin" / "dbt")
    assert Path(exe).is_file(), (
        f"dbt not found at {exe}: `bash .ci/setup` installs dbt-risingwave=={version} in {venv}, "
        f"or point {var} at a dbt executable"
    )
    return exe


def make_project(tmp_path: Path, port: int, name: str = "p") -> Path:
    project = tmp_path / name
    shutil.copytree(PROJECT, project)
    profile = project / "profiles" / "profiles.yml"
    profile.write_text(profile.read_text().replace("port: 55436", f"port: {port}"))
    return project


def run_dbt(project: Path, *args: str, version: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DBT_SEND_ANONYMOUS_USAGE_STATS="false", NO_COLOR="1")
    return subprocess.run(
        [
            dbt_executable(version),
            *args,
            "--no-use-colors",
            "--profiles-dir",
            str(project / "profiles"),
            "--project-dir",
            str(project),
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def results(project: Path) -> dict[str, str]:
    """unique_id -> status of the last command, from dbt's own run_results.json."""
    data = json.loads((project / "target" / "run_results.json").read_text())
    return {r["unique_id"]: r["status"] for r in data["results"]}


def ok(r: subprocess.CompletedProcess[str]) -> str:
    return f"exit {r.returncode}\n{r.stdout[-4000:]}\n{r.stderr[-2000:]}"


MODELS = {
    "model.rwproj.src_events",
    "model.rwproj.tbl_model",
    "model.rwproj.incr_model",
    "model.rwproj.mv_model",
    "model.rwproj.mv_zd",
    "model.rwproj.sink_model",
    "model.rwproj.view_model",
}


def fetch(server: ThreadRunning, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        return conn.execute(sql).fetchall()


def execute(server: ThreadRunning, sql: str) -> None:
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        conn.execute(sql)


@pytest.mark.parametrize("version", list(VERSIONS))
def test_dbt_seed_run_test_run(
    rw_thread_server: ThreadRunning, tmp_path: Path, version: str
) -> None:
    server = rw_thread_server

    def dbt(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return run_dbt(project, *args, version=version)

    execute(server, "CREATE USER pwuser")
    project = make_project(tmp_path, server.port)

    r = dbt(project, "seed")
    assert r.returncode == 0, ok(r)
    assert results(project) == {"seed.rwproj.seed_users": "success"}

    r = dbt(project, "run")
    assert r.returncode == 0, ok(r)
    assert results(project) == dict.fromkeys(MODELS, "success")

    r = dbt(project, "test")
    assert r.returncode == 0, ok(r)
    statuses = results(project)
    assert set(statuses.values()) == {"pass"} and len(statuses) == 3, statuses
    assert "test.rwproj.no_neg" in statuses

    # docs generate reads the catalog (pg_class, pg_attribute, pg_description ...)
    r = dbt(project, "docs", "generate")
    assert r.returncode == 0, ok(r)
    catalog = json.loads((project / "target" / "catalog.json").read_text())
    mv = catalog["nodes"]["model.rwproj.mv_model"]
    # persist_docs sent COMMENT ON for the MV and its column, but RisingWave's rw_description
    # (hence pg_description) lists user tables only (rw_catalog/rw_description.rs)
    assert (mv["metadata"]["type"], mv["metadata"]["comment"]) == ("MATERIALIZED VIEW", None)
    assert {c: v["type"] for c, v in mv["columns"].items()} == {
        "id": "integer",
        "name": "character varying",
        "c": "bigint",
    }
    assert mv["columns"]["id"]["comment"] is None
    tbl = catalog["nodes"]["model.rwproj.tbl_model"]["metadata"]
    assert (tbl["type"], tbl["owner"]) == ("BASE TABLE", "postgres")

    # What the first run built, read back through the server.
    assert fetch(server, "SELECT id, name FROM dbt_test.tbl_model ORDER BY id") == [
        (1, "alice"),
        (2, "bob"),
    ]
    assert fetch(server, "SELECT id, name, c FROM dbt_test.mv_model ORDER BY id") == [
        (1, "alice", 1),
        (2, "bob", 1),
    ]
    assert fetch(server, "SELECT id, name FROM dbt_test.incr_model ORDER BY id") == [
        (1, "alice"),
        (2, "bob"),
    ]
    assert fetch(
        server,
        "SELECT r.name, r.relation_type FROM rw_catalog.rw_relations r "
        "JOIN rw_catalog.rw_schemas s ON r.schema_id = s.id "
        "WHERE s.name = 'dbt_test' ORDER BY r.name",
    ) == [
        ("__dbt_index_mv_model_name", "index"),
        ("incr_model", "table"),
        ("mv_model", "materialized view"),
        ("mv_zd", "materialized view"),
        ("seed_users", "table"),
        ("sink_model", "sink"),
        ("src_events", "source"),
        ("tbl_model", "table"),
        ("view_model", "view"),
    ]

    r = dbt(project, "run")
    if version.startswith("1.12"):
        # every model re-run (or skipped, as dbt-risingwave does for existing relations)
        assert r.returncode == 0, ok(r)
        assert results(project) == dict.fromkeys(MODELS, "success")
        assert fetch(server, "SELECT id, name FROM dbt_test.incr_model ORDER BY id") == [
            (1, "alice"),
            (2, "bob"),
        ]
    else:
        second_run_fails_at_incr_model(project, r)
    append_run(server, project, dbt)


def second_run_fails_at_incr_model(project: Path, r: subprocess.CompletedProcess[str]) -> None:
    """1.11: incr_model's delete+insert is refused exactly as RisingWave refuses it; every
    other model is re-run (or skipped as dbt-risingwave does for existing MVs) cleanly."""
    assert r.returncode == 1, ok(r)
    second = results(project)
    assert second.pop("model.rwproj.incr_model") == "error"
    assert second == dict.fromkeys(MODELS - {"model.rwproj.incr_model"}, "success")
    message = re.sub(r"__dbt_tmp\d+", "__dbt_tmpN", r.stdout)
    assert (
        "  Database Error in model incr_model (models/incr_model.sql)\n"
        "  Failed to run the query\n"
        "  \n"
        "  Caused by:\n"
        "    sql parser error: expected end of statement, found: as\n"
        '  LINE 6:         delete from "dev"."dbt_test"."incr_model" as DBT_INTERNAL_DEST\n'
        "                                                            ^\n"
    ) in re.sub(r"^\d\d:\d\d:\d\d  ", "", message, flags=re.M)


def append_run(
    server: ThreadRunning, project: Path, dbt: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    """The same run with the incremental model on the append strategy (insert only) succeeds
    throughout: nothing else in a repeated run trips RisingWave's rules."""
    incr = project / "models" / "incr_model.sql"
    incr.write_text(
        incr.read_text().replace(
            "unique_key='id'", "unique_key='id', incremental_strategy='append'"
        )
    )
    # (with zero-downtime on, mv_zd is rebuilt beside the old one and swapped in)
    r = dbt(project, "run", "--vars", "{zero_downtime: true}")
    assert r.returncode == 0, ok(r)
    assert results(project) == dict.fromkeys(MODELS, "success")
    assert fetch(server, "SELECT id, name FROM dbt_test.mv_zd ORDER BY id") == [
        (1, "alice"),
        (2, "bob"),
    ]
    assert fetch(server, "SELECT id, name FROM dbt_test.incr_model ORDER BY id") == [
        (1, "alice"),
        (2, "bob"),
    ]
