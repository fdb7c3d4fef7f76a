"""sqlalchemy-risingwave 2.1 (RisingWave's own SQLAlchemy dialect, ``risingwave://``) with its
psycopg2 and psycopg drivers, against a real rwshim server: reflection of tables, views and
materialized views, Core (a reflected table: insert, select, the MV's rows) and the ORM.

The dialect pins SQLAlchemy below 2.1 (ours is newer), so it lives in its own virtualenv made by
``.ci/setup``: the test runs ``pyclients/sqlalchemy_rw.py`` with ``RWSHIM_SQLARW_PYTHON`` or
``<repo>/.venv-sqlarw/bin/python`` and fails, never skips, without it.

What RisingWave decides here: a primary-key column reads not nullable in
information_schema.columns (which the dialect reflects from); the primary key's pseudo index
has the table's own oid and name in pg_index (pg_index.rs), so ``get_indexes`` lists it (named
after the table) beside the real index, whose columns are all of the table's (an index without
INCLUDE includes every column); an ORM model with SQLAlchemy's default autoincrementing key
creates (the dialect writes SERIAL as INTEGER, RisingWave having no SERIAL:
binder/expr/mod.rs bind_data_type) but its rows get no key: map it with
``autoincrement=False`` and give the values.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.clients.drivers import by_label, run_lines
from tests.conftest import ThreadRunning

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "pyclients"


def venv_python(env_var: str, venv: str, package: str) -> str:
    exe = os.environ.get(env_var) or str(REPO / venv / "bin" / "python")
    assert Path(exe).is_file(), (
        f"{exe} not found: `bash .ci/setup` makes {venv} with {package}, or point {env_var} at "
        "a Python that has it"
    )
    return exe


@pytest.mark.parametrize("driver", ["psycopg2", "psycopg"])
def test_sqlalchemy_risingwave(rw_thread_server: ThreadRunning, driver: str) -> None:
    python = venv_python("RWSHIM_SQLARW_PYTHON", ".venv-sqlarw", "sqlalchemy-risingwave==2.1.0")
    server = rw_thread_server
    got = by_label(
        run_lines(
            [python, str(HERE / "sqlalchemy_rw.py"), server.host, str(server.port), driver],
            cwd=HERE,
        )
    )
    assert got.pop("dialect") == ["risingwave", driver]
    assert got.pop("tables") == ["ok", ["trades"]]
    assert got.pop("views") == ["ok", ["cheap"]]
    assert got.pop("materialized views") == ["ok", ["trade_count"]]
    assert got.pop("has table") == ["ok", [True, False]]
    assert got.pop("table columns") == [
        "ok",
        [
            # a key column without NOT NULL is nullable in RisingWave's catalog (its
            # ColumnDesc.nullable is only "no NOT NULL option": create_table.rs:181-183)
            ["id", "INTEGER()", True],
            ["sym", "VARCHAR()", True],
            ["px", "DECIMAL()", True],
            ["at", "TIMESTAMP(timezone=True)", True],
        ],
    ]
    assert got.pop("view columns") == ["ok", [["id", "INTEGER()", True], ["px", "DECIMAL()", True]]]
    assert got.pop("mv columns") == ["ok", [["sym", "VARCHAR()", True], ["n", "BIGINT()", True]]]
    assert got.pop("pk") == ["ok", {"constrained_columns": ["id"], "name": "trades_pkey"}]
    assert got.pop("indexes") == [
        "ok",
        [
            {"name": "trades_by_sym", "column_names": ["id", "sym", "px", "at"], "unique": False},
            {"name": "trades", "column_names": ["id"], "unique": False},
        ],
    ]
    assert got.pop("foreign keys") == ["ok", []]
    assert got.pop("core select") == [[[1, "AA"], [2, "BB"], [3, "AA"]]]
    assert got.pop("core mv") == [[["AA", 2], ["BB", 1]]]
    assert got.pop("orm query") == [[[11, "DD", 4]]]
    # create_all writes the key NOT NULL and nothing fills it in: RisingWave refuses the row
    # (ExprError::NotNullViolation, src/expr/core/src/error.rs:112)
    status, cls, message = got.pop("orm autoincrement")
    assert (status, cls) == ("error", "InternalError_")
    envelope = (
        "Failed to run the query" if driver == "psycopg2" else "Failed to execute the statement"
    )
    assert message.rstrip("\n") == (
        f"{envelope}\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n"
        '  2: null value in column "id" of relation "orm_auto" violates not-null constraint'
    )
    assert got == {}
