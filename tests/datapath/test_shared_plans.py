"""Texts that differ only in integer literals share one parse and one data-plane plan
(rwshim/sql/literals.py): each must still answer as if planned on its own, and the shared plan
must follow whatever it depends on (the catalog, the search path, the database, the user)."""

from __future__ import annotations

import psycopg
import pytest

from rwshim.testing import RwShim

from .conftest import Client


def _kv(db: Client, name: str = "kv", rows: int = 20) -> None:
    db.run(f"CREATE TABLE {name} (k int PRIMARY KEY, v varchar)")
    db.run(f"INSERT INTO {name} SELECT g, 'v' || g FROM generate_series(1, {rows}) AS g")
    db.run("FLUSH")


def test_each_literal_answers_its_own_rows(db: Client) -> None:
    _kv(db)
    for k in (3, 17, 3, 20, 21, 0, 7):
        want = [(f"v{k}",)] if 1 <= k <= 20 else []
        assert db.rows(f"SELECT v FROM kv WHERE k = {k}") == want
    # several literals, LIMIT and a literal in the select list
    assert db.rows("SELECT k, 5 FROM kv WHERE k > 2 AND k < 6 ORDER BY k LIMIT 2") == [
        (3, 5),
        (4, 5),
    ]
    assert db.rows("SELECT k, 9 FROM kv WHERE k > 10 AND k < 19 ORDER BY k LIMIT 3") == [
        (11, 9),
        (12, 9),
        (13, 9),
    ]
    assert db.rows("SELECT k, 123 FROM kv WHERE k > 18 AND k < 1000 ORDER BY k LIMIT 0") == []


def test_dml_with_new_literals_writes_each_row(db: Client) -> None:
    db.run("CREATE TABLE w (k int PRIMARY KEY, n int)")
    for k in (1, 2, 30):
        assert db.tag(f"INSERT INTO w VALUES ({k}, {k * 10})") == "INSERT 0 1"
    assert db.tag("UPDATE w SET n = 7 WHERE k = 2") == "UPDATE 1"
    assert db.tag("UPDATE w SET n = 8 WHERE k = 99") == "UPDATE 0"
    assert db.tag("DELETE FROM w WHERE k = 30") == "DELETE 1"
    db.run("FLUSH")
    assert db.rows("SELECT k, n FROM w ORDER BY k") == [(1, 10), (2, 7)]


def test_a_check_that_reads_the_literal_is_not_shared(db: Client) -> None:
    """percentile_cont's direct argument must be between 0 and 1 (RisingWave's binder,
    aggregate.rs): a text that passed the check must not let one that fails it through."""
    _kv(db, "p", 4)
    assert db.rows("SELECT percentile_cont(1) WITHIN GROUP (ORDER BY k) FROM p") == [(4.0,)]
    assert (
        db.error("SELECT percentile_cont(2) WITHIN GROUP (ORDER BY k) FROM p")
        == "Failed to run the query\n\nCaused by:\n"
        "  Invalid input syntax: direct arg in `percentile_cont` must between 0.0 and 1.0\n"
    )
    assert db.rows("SELECT percentile_cont(0) WITHIN GROUP (ORDER BY k) FROM p") == [(1.0,)]


def test_the_shared_plan_follows_the_catalog(db: Client) -> None:
    _kv(db, "c")
    for k in (1, 5, 6):  # the skeleton's plan is shared from its second text on
        assert db.rows(f"SELECT v FROM c WHERE k = {k}") == [(f"v{k}",)]
    db.run("DROP TABLE c")
    db.run("CREATE TABLE c (k int PRIMARY KEY, v bigint)")
    db.run("INSERT INTO c VALUES (2, 200)")
    db.run("FLUSH")
    assert db.rows("SELECT v FROM c WHERE k = 2") == [(200,)]
    db.run("DROP TABLE c")
    assert (
        db.error("SELECT v FROM c WHERE k = 3")
        == "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: table or source not found: c\n"
    )


def test_the_shared_plan_follows_the_search_path(db: Client) -> None:
    for schema in ("s1", "s2"):
        db.run(f"CREATE SCHEMA {schema}")
        db.run(f"CREATE TABLE {schema}.t (k int PRIMARY KEY, v varchar)")
        db.run(f"INSERT INTO {schema}.t VALUES (1, '{schema} one'), (2, '{schema} two')")
    db.run("FLUSH")
    db.run("SET search_path = s1")
    assert db.rows("SELECT v FROM t WHERE k = 1") == [("s1 one",)]
    db.run("SET search_path = s2")
    assert db.rows("SELECT v FROM t WHERE k = 2") == [("s2 two",)]
    db.run("SET search_path = s1")
    assert db.rows("SELECT v FROM t WHERE k = 2") == [("s1 two",)]


def test_the_shared_plan_follows_the_database_and_the_user(rwshim: RwShim, db: Client) -> None:
    db.run("CREATE DATABASE other")
    db.run("CREATE USER reader")
    _kv(db, "d")
    with psycopg.connect(rwshim.dsn.replace("dbname=dev", "dbname=other"), autocommit=True) as c:
        c.execute("CREATE TABLE d (k int PRIMARY KEY, v varchar)")
        c.execute("INSERT INTO d VALUES (1, 'other one'), (2, 'other two')")
        c.execute("FLUSH")
        assert c.execute("SELECT v FROM d WHERE k = 2").fetchall() == [("other two",)]
    assert db.rows("SELECT v FROM d WHERE k = 1") == [("v1",)]
    with psycopg.connect(rwshim.dsn.replace("user=root", "user=reader"), autocommit=True) as c:
        with pytest.raises(psycopg.Error) as info:
            c.execute("SELECT v FROM d WHERE k = 3")
        assert info.value.diag.message_primary == (
            "Failed to run the query\n\nCaused by:\n  Permission denied: permission denied"
            ' for table or materialized view "d": "SELECT"\n'
        )
    db.run("GRANT SELECT ON d TO reader")
    with psycopg.connect(rwshim.dsn.replace("user=root", "user=reader"), autocommit=True) as c:
        assert c.execute("SELECT v FROM d WHERE k = 4").fetchall() == [("v4",)]
