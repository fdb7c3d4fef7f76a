"""The catalog relations' TEMP views are made when the read path first runs a statement, not
when an instance starts (issue 16: ~20 ms of a start-up); the static tables SHOW and EXPLAIN
read directly are there from the start.  A real store (Instance(None)), real SQLite."""

from __future__ import annotations

from rwshim.binder.context import QueryContext
from rwshim.catalog_path.system_catalogs import RELATIONS
from rwshim.instance import Instance

CTX = QueryContext(1, "dev", 1, "root")
# now() keeps the result out of the result cache: each run reads the view again
NAMESPACES = "SELECT nspname, now() IS NOT NULL FROM pg_catalog.pg_namespace ORDER BY 1"


def temp_objects(instance: Instance, kind: str) -> set[str]:
    found = instance.conn.execute("SELECT name FROM sqlite_temp_master WHERE type = ?", (kind,))
    return {str(r[0]) for r in found}


def rows(instance: Instance, sql: str) -> list[tuple[object, ...]]:
    out = instance.query.execute(sql, [], CTX)
    assert out.rows is not None
    return [tuple(r) for r in out.rows]  # type: ignore[union-attr]


def namespaces(instance: Instance) -> list[tuple[object, ...]]:
    return rows(instance, NAMESPACES)


def test_views_are_made_by_the_first_statement() -> None:
    instance = Instance(None)
    assert temp_objects(instance, "view") == set()
    assert {"rwshim_sys_relation", "rwshim_sys_column", "rwshim_type"} <= temp_objects(
        instance, "table"
    )
    # a constant is answered without them
    assert rows(instance, "SELECT 1") == [(1,)]
    assert temp_objects(instance, "view") == set()
    want = [("information_schema", 1), ("pg_catalog", 1), ("public", 1), ("rw_catalog", 1)]
    assert namespaces(instance) == want
    assert temp_objects(instance, "view") == {rel.sqlite_name for rel in RELATIONS.values()}


def test_views_made_in_a_transaction_rolled_back_are_made_again() -> None:
    instance = Instance(None)
    want = [("information_schema", 1), ("pg_catalog", 1), ("public", 1), ("rw_catalog", 1)]
    instance.conn.execute("BEGIN")
    assert namespaces(instance) == want
    instance.conn.execute("ROLLBACK")
    assert temp_objects(instance, "view") == set()
    assert namespaces(instance) == want
    assert len(temp_objects(instance, "view")) == len(RELATIONS)


def test_the_result_cache_sees_the_views_before_it_judges() -> None:
    # the first statement's verdict (kept or not) is made with the views there: a catalog
    # query that only reads the store is kept from its first run on
    instance = Instance(None)
    sql = "SELECT nspname FROM pg_catalog.pg_namespace"
    first = rows(instance, sql)
    assert len(instance.query.results) == 1
    assert rows(instance, sql) == first
    assert sorted(first) == [("information_schema",), ("pg_catalog",), ("public",), ("rw_catalog",)]


def test_the_static_tables_are_filled_in_one_transaction_of_their_own() -> None:
    """install_static commits what it made (no transaction left open) and, called inside a
    transaction, nests in it (a rollback takes the tables with it)."""
    from rwshim.catalog_path.system_catalogs.static import (
        install_static,
        system_column_rows,
        system_relation_rows,
        type_rows,
    )

    instance = Instance(None)
    conn = instance.conn
    assert not conn.in_transaction
    for table, want in (
        ("rwshim_sys_relation", system_relation_rows()),
        ("rwshim_sys_column", system_column_rows()),
        ("rwshim_type", type_rows()),
    ):
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (len(want),)
    for name in ("rwshim_sys_relation", "rwshim_sys_column", "rwshim_type"):
        conn.execute(f"DROP TABLE temp.{name}")
    conn.execute("BEGIN")
    install_static(conn)
    assert conn.in_transaction
    conn.execute("ROLLBACK")
    assert "rwshim_type" not in temp_objects(instance, "table")
    install_static(conn)
    assert not conn.in_transaction and "rwshim_type" in temp_objects(instance, "table")


def test_the_function_names_are_read_at_the_first_lowering() -> None:
    from rwshim.catalog_path.sqlite.executor import SqliteExecutor

    instance = Instance(None)
    executor = instance.query.executor
    assert isinstance(executor, SqliteExecutor)
    assert executor._functions is None  # not at start-up
    assert rows(instance, "SELECT 1") == [(1,)]
    listed = {str(r[0]).lower() for r in instance.conn.execute("PRAGMA function_list")}
    assert executor.functions == listed
    # the store's, the read path's and the catalog's registrations, and SQLite's builtins
    assert {"rw_render_parallelism", "rw_cast", "rw_toml_flatten", "abs"} <= executor.functions
