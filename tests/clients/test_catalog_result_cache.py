"""Kept catalog results (rwshim/catalog_path/result_cache.py) over a real server: psql's ``\\d``
list
query and other catalog reads answer from kept rows, and the answer still follows every DDL
(from any session), the search path, the database, the user and their privileges; queries
that read the session or the clock are never kept.
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from bench.workloads import PSQL_LIST  # psql 15's \d, as the bench's psql-list sends it
from tests.conftest import ThreadRunning


def listed(conn: psycopg.Connection[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """The user relations \\d lists (rw_catalog's system tables are always there)."""
    rows = conn.execute(PSQL_LIST, prepare=False).fetchall()
    return [r for r in rows if r[0] != "rw_catalog"]


def kept(server: ThreadRunning) -> int:
    def count() -> int:
        instance = server.server.instance
        assert instance is not None
        return len(instance.query.results)

    return int(server.call(count))


@pytest.fixture
def root(rw_thread_server: ThreadRunning) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as conn:
        yield conn


def test_list_is_kept_and_follows_create_and_drop_from_any_session(
    rw_thread_server: ThreadRunning, root: psycopg.Connection[tuple[object, ...]]
) -> None:
    root.execute("CREATE TABLE t1 (v int)")
    assert listed(root) == [("public", "t1", "table", "root")]
    assert kept(rw_thread_server) >= 1  # the rows were kept...
    assert listed(root) == [("public", "t1", "table", "root")]  # ...and answered again
    with psycopg.connect(rw_thread_server.dsn(), autocommit=True) as other:
        other.execute("CREATE MATERIALIZED VIEW mv1 AS SELECT v FROM t1")
        other.execute("CREATE VIEW v1 AS SELECT v FROM t1")
    assert listed(root) == [
        ("public", "mv1", "materialized view", "root"),
        ("public", "t1", "table", "root"),
        ("public", "v1", "view", "root"),
    ]
    root.execute("DROP VIEW v1")
    root.execute("DROP MATERIALIZED VIEW mv1")
    assert listed(root) == [("public", "t1", "table", "root")]
    root.execute("ALTER TABLE t1 RENAME TO t2")
    assert listed(root) == [("public", "t2", "table", "root")]
    root.execute("DROP TABLE t2")
    assert listed(root) == []


def test_list_follows_search_path_and_database(
    rw_thread_server: ThreadRunning, root: psycopg.Connection[tuple[object, ...]]
) -> None:
    root.execute("CREATE SCHEMA s2")
    root.execute("CREATE TABLE s2.t2 (v int)")
    root.execute("CREATE TABLE t1 (v int)")
    assert listed(root) == [("public", "t1", "table", "root")]
    root.execute("SET search_path = s2, public")
    assert listed(root) == [("public", "t1", "table", "root"), ("s2", "t2", "table", "root")]
    root.execute("SET search_path = s2")
    assert listed(root) == [("s2", "t2", "table", "root")]
    root.execute("CREATE DATABASE d2")
    with psycopg.connect(rw_thread_server.dsn(database="d2"), autocommit=True) as d2:
        assert listed(d2) == []
        d2.execute("CREATE TABLE t1 (v int)")
        assert listed(d2) == [("public", "t1", "table", "root")]
    root.execute("SET search_path TO DEFAULT")
    assert listed(root) == [("public", "t1", "table", "root")]


def test_user_and_privileges_are_part_of_the_answer(
    rw_thread_server: ThreadRunning, root: psycopg.Connection[tuple[object, ...]]
) -> None:
    root.execute("CREATE TABLE t1 (v int)")
    root.execute("CREATE USER u2")
    sql = "SELECT current_user, nspname FROM pg_catalog.pg_namespace WHERE nspname = 'public'"
    tables = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    assert root.execute(sql).fetchall() == [("root", "public")]
    assert root.execute(tables).fetchall() == [("t1",)]
    with psycopg.connect(rw_thread_server.dsn(user="u2"), autocommit=True) as u2:
        assert u2.execute(sql).fetchall() == [("u2", "public")]
        assert kept(rw_thread_server) >= 2
        assert u2.execute(tables).fetchall() == []
        root.execute("GRANT SELECT ON t1 TO u2")
        assert u2.execute(tables).fetchall() == [("t1",)]
        root.execute("REVOKE SELECT ON t1 FROM u2")
        assert u2.execute(tables).fetchall() == []
    assert root.execute(sql).fetchall() == [("root", "public")]


def test_queries_reading_the_session_are_not_kept(
    root: psycopg.Connection[tuple[object, ...]],
) -> None:
    sql = (
        "SELECT current_setting('application_name') FROM pg_catalog.pg_namespace"
        " WHERE nspname = 'public'"
    )
    root.execute("SET application_name = 'one'")
    assert root.execute(sql).fetchall() == [("one",)]
    root.execute("SET application_name = 'two'")
    assert root.execute(sql).fetchall() == [("two",)]


def test_a_kept_result_is_sent_as_encoded_only_in_the_same_rendering(
    rw_thread_server: ThreadRunning, root: psycopg.Connection[tuple[object, ...]]
) -> None:
    """The session keeps the DataRows it sent for a kept result (Shortcuts.keep_encoding) and
    sends them again only for that very result and encoder: a new time zone renders anew."""
    from datetime import datetime

    root.execute("CREATE TABLE tzk (v int)")
    query = "SELECT name, created_at FROM rw_catalog.rw_tables WHERE name = 'tzk'"

    def created_at() -> str:
        res = root.pgconn.exec_(query.encode())  # a simple Query, as psql sends
        assert res.status == psycopg.pq.ExecStatus.TUPLES_OK, res.error_message
        return (res.get_value(0, 1) or b"").decode()

    def encoded() -> bool:
        def look() -> bool:
            return any(
                query in s.shortcuts.encoded for s in rw_thread_server.server.registry.sessions()
            )

        return bool(rw_thread_server.call(look))

    utc = [created_at() for _ in range(3)]
    assert encoded()  # the later answers were the kept bytes
    root.execute("SET TIME ZONE 'Asia/Tokyo'")
    tokyo = [created_at() for _ in range(3)]
    assert utc == [utc[0]] * 3 and utc[0].endswith("+00:00")
    assert tokyo == [tokyo[0]] * 3 and tokyo[0].endswith("+09:00")
    assert datetime.fromisoformat(utc[0]) == datetime.fromisoformat(tokyo[0])
    root.execute("DROP TABLE tzk")
    assert root.pgconn.exec_(query.encode()).ntuples == 0
