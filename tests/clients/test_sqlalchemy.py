"""SQLAlchemy 2.x reflection through its psycopg2, psycopg and asyncpg dialects, over real sockets.

What RisingWave's catalog implies for these calls (and rwshim answers the same way):
- system tables and views are always visible (pg_table_is_visible.rs), so the default-schema
  listings include ``rw_catalog``'s and ``information_schema``'s relations after the user's;
- ``pg_attribute.attnotnull`` is always false (pg_attribute.rs): every column reads nullable;
- the primary key is a pseudo index named ``<table>_pkey`` in pg_constraint/pg_index;
- ``pg_index.indoption`` is ``smallint[]``, not ``int2vector`` (pg_index.rs): the psycopg dialects
  split an int2vector's text, so ``get_indexes`` fails in SQLAlchemy itself on RisingWave;
- asyncpg decodes only ``text[]``/``oid[]`` arrays by itself; RisingWave reports ``text`` as
  varchar, so SQLAlchemy's ``array_agg(attname::text)`` comes back as ``varchar[]`` and sends
  asyncpg to its type introspection, whose jit probe fails (clients.md §4.3).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import create_async_engine

from tests.conftest import ThreadRunning

SETUP = [
    "CREATE TABLE t1 (id int PRIMARY KEY, name varchar, v double precision)",
    "CREATE INDEX i1 ON t1 (name)",
    "CREATE MATERIALIZED VIEW mv1 AS SELECT id, count(*) AS n FROM t1 GROUP BY id",
    "CREATE VIEW v1 AS SELECT id FROM t1",
    "CREATE SCHEMA s2",
    "CREATE TABLE s2.t2 (a bigint PRIMARY KEY, b timestamptz, c numeric, d jsonb, e int[])",
]


def columns(cols: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, bool, object]]:
    return [(c["name"], repr(c["type"]), c["nullable"], c["default"]) for c in cols]


T1_COLUMNS = [
    ("id", "INTEGER()", True, None),
    ("name", "VARCHAR()", True, None),
    ("v", "DOUBLE_PRECISION(precision=53)", True, None),
]
T2_COLUMNS = [
    ("a", "BIGINT()", True, None),
    ("b", "TIMESTAMP(timezone=True)", True, None),
    ("c", "NUMERIC()", True, None),
    ("d", "JSONB(astext_type=Text())", True, None),
    ("e", "ARRAY(INTEGER())", True, None),
]


@pytest.fixture
def server(rw_thread_server: ThreadRunning) -> ThreadRunning:
    engine = sa.create_engine(f"postgresql+psycopg2://root@127.0.0.1:{rw_thread_server.port}/dev")
    with engine.connect() as conn:
        for sql in SETUP:
            conn.exec_driver_sql(sql)
    engine.dispose()
    return rw_thread_server


@pytest.mark.parametrize("driver", ["psycopg2", "psycopg"])
def test_reflection_psycopg_dialects(server: ThreadRunning, driver: str) -> None:
    engine: Engine = sa.create_engine(f"postgresql+{driver}://root@127.0.0.1:{server.port}/dev")
    try:
        insp = sa.inspect(engine)
        assert insp.default_schema_name == "public"
        assert insp.get_schema_names() == ["information_schema", "public", "rw_catalog", "s2"]
        assert insp.get_table_names(schema="public") == ["t1"]
        assert insp.get_table_names(schema="s2") == ["t2"]
        tables = insp.get_table_names()
        assert tables[0] == "t1"
        assert {"rw_materialized_views", "rw_tables", "rw_fragments"} <= set(tables[1:])
        assert insp.get_view_names(schema="public") == ["v1"]
        assert insp.get_materialized_view_names() == ["mv1"]
        assert insp.has_table("t1") and not insp.has_table("nosuch")
        assert columns(insp.get_columns("t1")) == T1_COLUMNS
        assert columns(insp.get_columns("t2", schema="s2")) == T2_COLUMNS
        assert columns(insp.get_columns("mv1")) == [
            ("id", "INTEGER()", True, None),
            ("n", "BIGINT()", True, None),
        ]
        assert insp.get_pk_constraint("t1") == {
            "constrained_columns": ["id"],
            "name": "t1_pkey",
            "comment": None,
            "dialect_options": {"postgresql_include": []},
        }
        assert insp.get_pk_constraint("t2", schema="s2")["constrained_columns"] == ["a"]
        assert insp.get_foreign_keys("t1") == []
        assert insp.get_unique_constraints("t1") == []
        with pytest.raises(AttributeError) as info:
            insp.get_indexes("t1")
        assert str(info.value) == "'list' object has no attribute 'split'"
    finally:
        engine.dispose()


def test_index_rows_sqlalchemy_reads(server: ThreadRunning) -> None:
    """The rows behind get_indexes, read without SQLAlchemy's int2vector processing."""
    engine = sa.create_engine(f"postgresql+psycopg2://root@127.0.0.1:{server.port}/dev")
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql(
                "SELECT c.relname, i.indisunique, i.indisprimary, i.indkey, i.indoption, "
                "i.indnkeyatts FROM pg_catalog.pg_index i "
                "JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_catalog.pg_class t ON t.oid = i.indrelid "
                "WHERE t.relname = 't1' ORDER BY c.relname"
            ).all()
    finally:
        engine.dispose()
    # i1 keys on name (attnum 2) and, having no INCLUDE clause, includes every other column as
    # RisingWave's indexes do; the primary key's pseudo index has the table's own oid
    assert [tuple(r) for r in rows] == [
        ("i1", False, False, [2, 1, 3], [], 1),
        ("t1", True, True, [1], [], 1),
    ]


def test_reflection_asyncpg_dialect(server: ThreadRunning) -> None:
    async def run() -> dict[str, object]:
        engine = create_async_engine(f"postgresql+asyncpg://root@127.0.0.1:{server.port}/dev")
        out: dict[str, object] = {}
        try:
            async with engine.connect() as conn:
                out["tables"] = await conn.run_sync(
                    lambda c: sa.inspect(c).get_table_names(schema="public")
                )
                out["mvs"] = await conn.run_sync(
                    lambda c: sa.inspect(c).get_materialized_view_names()
                )
                out["views"] = await conn.run_sync(
                    lambda c: sa.inspect(c).get_view_names(schema="public")
                )
                out["columns"] = columns(
                    await conn.run_sync(lambda c: sa.inspect(c).get_columns("t1"))
                )
            async with engine.connect() as conn:
                try:
                    await conn.run_sync(lambda c: sa.inspect(c).get_pk_constraint("t1"))
                except sa.exc.DBAPIError as e:
                    out["pk_error"] = (e.orig.sqlstate, str(e.orig).split("\n[SQL")[0])  # type: ignore[union-attr]
        finally:
            await engine.dispose()
        return out

    out = asyncio.run(run())
    assert out == {
        "tables": ["t1"],
        "mvs": ["mv1"],
        "views": ["v1"],
        "columns": T1_COLUMNS,
        "pk_error": (
            "XX000",
            "Failed to execute the statement"
            "\n\nCaused by these errors (recent errors listed first):\n"
            "  1: Failed to get or set session config\n"
            "  2: Unrecognized config entry `jit`\n",
        ),
    }
