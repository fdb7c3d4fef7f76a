"""SQLAlchemy 2.x's stock PostgreSQL dialects (psycopg2, psycopg, asyncpg) over real sockets.

RisingWave's catalogs and binder decide what they get (rwshim answers the same way); its own
dialect, sqlalchemy-risingwave, is tested in test_sqlalchemy_risingwave.py:
- system tables and views are always visible (pg_table_is_visible.rs), so the default-schema
  listings include ``rw_catalog``'s and ``information_schema``'s relations after the user's;
- the primary key is a pseudo index named ``<table>_pkey`` in pg_constraint/pg_index;
- ``get_columns`` selects ``json_build_object(...)``, which RisingWave lacks (it has only
  ``jsonb_build_object``), so it fails in every stock dialect;
- ``pg_index.indoption`` is ``smallint[]``, not ``int2vector`` (pg_index.rs): the psycopg
  dialects split an int2vector's text, so ``get_indexes`` fails in SQLAlchemy itself;
- the psycopg (3) dialect cannot connect: its first connection fetches the ``hstore`` type with
  psycopg's TypeInfo query, which casts to ``regtype``, a type RisingWave's bind_data_type does
  not know (binder/expr/mod.rs); sqlalchemy-risingwave skips that step;
- through asyncpg, ``get_pk_constraint`` casts its parameter to ``oid``, which fails the same way.
"""

from __future__ import annotations

import asyncio

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


@pytest.fixture
def server(rw_thread_server: ThreadRunning) -> ThreadRunning:
    engine = sa.create_engine(f"postgresql+psycopg2://root@127.0.0.1:{rw_thread_server.port}/dev")
    with engine.connect() as conn:
        for sql in SETUP:
            conn.exec_driver_sql(sql)
    engine.dispose()
    return rw_thread_server


_NO_TRACKING = (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&"
    "template=feature_request.yml"
)


def _json_build_object_error(p: list[str]) -> str:
    """get_columns' error: its identity subquery calls json_build_object (``p``: how the
    dialect wrote the ten literals, interpolated or as ``CAST($n AS ...)``)."""
    args = (
        f"{p[1]}, pg_catalog.pg_attribute.attidentity = {p[2]}, {p[3]}, "
        f"pg_catalog.pg_sequence.seqstart, {p[4]}, pg_catalog.pg_sequence.seqincrement, {p[5]}, "
        f"pg_catalog.pg_sequence.seqmin, {p[6]}, pg_catalog.pg_sequence.seqmax, {p[7]}, "
        f"pg_catalog.pg_sequence.seqcache, {p[8]}, pg_catalog.pg_sequence.seqcycle"
    )
    case = (
        f"CASE WHEN (pg_catalog.pg_attribute.attidentity <> {p[0]}) THEN (SELECT "
        f"json_build_object({args}) AS json_build_object_1 FROM pg_catalog.pg_sequence WHERE "
        f"pg_catalog.pg_attribute.attidentity <> {p[9]} AND pg_catalog.pg_sequence.seqrelid = "
        "CAST(CAST(pg_catalog.pg_get_serial_sequence(CAST(CAST(pg_catalog.pg_attribute.attrelid "
        "AS REGCLASS) AS TEXT), pg_catalog.pg_attribute.attname) AS REGCLASS) AS oid)) ELSE NULL "
        "END"
    )
    types = ", ".join(["character varying", "boolean"] + ["character varying", "bigint"] * 5)
    types += ", character varying, boolean"
    return (
        "Caused by these errors (recent errors listed first):\n"
        f"  1: Failed to bind expression: {case}\n"
        f"  2: Failed to bind expression: json_build_object({args})\n"
        f"  3: function json_build_object({types}) does not exist\n"
    )


INTERPOLATED = ["''", "'always'", "'a'", "'start'", "'increment'", "'minvalue'", "'maxvalue'",
                "'cache'", "'cycle'", "''"]  # fmt: skip


def test_reflection_psycopg2_dialect(server: ThreadRunning) -> None:
    engine: Engine = sa.create_engine(f"postgresql+psycopg2://root@127.0.0.1:{server.port}/dev")
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
        assert insp.get_pk_constraint("t1") == {
            "constrained_columns": ["id"],
            "name": "t1_pkey",
            "comment": None,
            "dialect_options": {"postgresql_include": []},
        }
        assert insp.get_pk_constraint("t2", schema="s2")["constrained_columns"] == ["a"]
        assert insp.get_foreign_keys("t1") == []
        assert insp.get_unique_constraints("t1") == []
        with pytest.raises(sa.exc.ProgrammingError) as err:
            insp.get_columns("t1")
        assert str(err.value.orig) == (
            "Failed to run the query\n\n" + _json_build_object_error(INTERPOLATED) + "\n"
        )
        with pytest.raises(AttributeError) as info:
            insp.get_indexes("t1")
        assert str(info.value) == "'list' object has no attribute 'split'"
    finally:
        engine.dispose()


def test_psycopg_dialect_cannot_connect(server: ThreadRunning) -> None:
    engine: Engine = sa.create_engine(f"postgresql+psycopg://root@127.0.0.1:{server.port}/dev")
    try:
        with pytest.raises(sa.exc.InternalError) as err:
            engine.connect()
    finally:
        engine.dispose()
    assert str(err.value.orig) == (
        "Failed to prepare the statement\n\nCaused by these errors (recent errors listed "
        "first):\n  1: Failed to bind expression: CAST(CAST(oid AS regtype) AS TEXT)\n"
        f"  2: Feature is not yet implemented: unsupported data type: regtype\n{_NO_TRACKING}"
    )


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
            for key, call in (
                ("columns_error", lambda c: sa.inspect(c).get_columns("t1")),
                ("pk_error", lambda c: sa.inspect(c).get_pk_constraint("t1")),
            ):
                async with engine.connect() as conn:
                    try:
                        await conn.run_sync(call)
                    except sa.exc.DBAPIError as e:
                        out[key] = (e.orig.sqlstate, str(e.orig).split("\n[SQL")[0])  # type: ignore[union-attr]
        finally:
            await engine.dispose()
        return out

    out = asyncio.run(run())
    assert out == {
        "tables": ["t1"],
        "mvs": ["mv1"],
        "views": ["v1"],
        "columns_error": (
            "42883",
            "Failed to prepare the statement\n\n"
            + _json_build_object_error(
                ["CAST($1 AS CHAR)"]
                + [
                    f"CAST(${i} AS CHARACTER VARYING)" if i != 3 else "CAST($3 AS CHAR)"
                    for i in range(2, 10)
                ]
                + ["CAST($10 AS CHAR)"]
            ),
        ),
        "pk_error": (
            "XX000",
            "Failed to prepare the statement\n\nCaused by these errors (recent errors listed "
            "first):\n  1: Failed to bind expression: pg_catalog.pg_constraint.contype = "
            "CAST($3 AS CHAR) AND pg_catalog.pg_constraint.conrelid IN (CAST($4 AS oid))\n"
            f"  2: Feature is not yet implemented: unsupported data type: oid\n{_NO_TRACKING}\n",
        ),
    }
