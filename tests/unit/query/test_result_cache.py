"""Which catalog queries may keep their rows (rwshim/catalog_path/result_cache.py): only those whose
engine text and views call deterministic functions or the context functions the key holds."""

from __future__ import annotations

import pytest

from rwshim.binder.context import QueryContext
from rwshim.catalog_path.result_cache import ResultCache
from rwshim.instance import Instance

CTX = QueryContext(1, "dev", 1, "root")


@pytest.fixture(scope="module")
def instance() -> Instance:
    return Instance(None)


def kept(instance: Instance, sql: str) -> bool:
    prep = instance.query._prepare(sql, [], CTX)
    return instance.query.results.cacheable(prep.sql)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT relname FROM pg_catalog.pg_class WHERE pg_catalog.pg_table_is_visible(oid)",
        "SELECT current_user, current_database(), nspname FROM pg_catalog.pg_namespace",
        "SELECT table_name FROM information_schema.tables",
        "SELECT count(*), upper(nspname) FROM pg_catalog.pg_namespace GROUP BY 2",
        "SELECT 'now()' AS text, nspname FROM pg_catalog.pg_namespace",
    ],
)
def test_store_and_key_only_queries_are_kept(instance: Instance, sql: str) -> None:
    assert kept(instance, sql)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT now(), nspname FROM pg_catalog.pg_namespace",
        "SELECT random(), nspname FROM pg_catalog.pg_namespace",
        "SELECT current_setting('application_name'), nspname FROM pg_catalog.pg_namespace",
        "SELECT has_schema_privilege('public', 'USAGE') FROM pg_catalog.pg_namespace",
        "SELECT name, setting FROM pg_catalog.pg_settings",
    ],
)
def test_session_clock_and_random_queries_are_not_kept(instance: Instance, sql: str) -> None:
    assert not kept(instance, sql)


def test_date_now_and_unknown_calls_are_not_kept(instance: Instance) -> None:
    cache = ResultCache(instance.conn, instance.query.ensure_catalog_views)
    view = '"pg_catalog__pg_namespace"'
    assert cache.cacheable(f"SELECT upper(nspname) FROM {view}")
    assert not cache.cacheable(f"SELECT date('now'), nspname FROM {view}")
    assert not cache.cacheable(f"SELECT no_such_function(nspname) FROM {view}")
    assert not cache.cacheable(f"SELECT name FROM pragma_function_list(), {view}")
    # reading no catalog view (a constant, a store table): nothing worth keeping
    assert not cache.cacheable("SELECT 1")
    assert not cache.cacheable("SELECT upper(name) FROM rw_user")


def test_rows_follow_the_store(instance: Instance) -> None:
    cache = ResultCache(instance.conn, instance.query.ensure_catalog_views)
    assert cache.get("k") is None
    cache.put("k", [(1,)])
    assert cache.get("k") == [(1,)]
    instance.conn.execute("CREATE TEMP TABLE rc_probe (v int)")
    assert cache.get("k") == [(1,)]  # no row changed
    instance.conn.execute("INSERT INTO rc_probe VALUES (1)")
    assert cache.get("k") is None
    assert len(cache) == 0
