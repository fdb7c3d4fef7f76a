"""Two tables of one name in two schemas, in one statement (RisingWave's
e2e_test/batch/schema_qualified.slt): RisingWave binds a relation by (schema, name)
(binder/bind_context.rs:411-459), so ``s1.users`` and ``s2.users`` are two relations and
``s1.users.id`` names the first, also from inside a correlated subquery over the second.
rwshim once answered a count of 3 where RisingWave answers 2 (the inner row compared with
itself), and refused the join as PostgreSQL's ``table name "users" specified more than once``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from rwshim.testing import RwShim


@pytest.fixture(scope="module")
def db() -> Iterator[psycopg.Connection[Any]]:
    s = RwShim()
    try:
        with psycopg.connect(
            f"host={s.host} port={s.port} user=root dbname=dev", autocommit=True
        ) as c:
            for sql in (
                "CREATE SCHEMA s1",
                "CREATE SCHEMA s2",
                "CREATE TABLE s1.users (id int, name varchar, age int)",
                "CREATE TABLE s2.users (id int, email varchar)",
                "INSERT INTO s1.users VALUES (1, 'Alice', 30), (2, 'Bob', 25), (3, 'Charlie', 35)",
                "INSERT INTO s2.users VALUES (1, 'alice@example.com'), (3, 'charlie@example.com'),"
                " (4, 'dave@example.com')",
                "FLUSH",
            ):
                c.execute(sql)
            yield c
    finally:
        s.stop()


def rows(c: psycopg.Connection[Any], sql: str) -> list[tuple[Any, ...]]:
    return sorted(c.execute(sql).fetchall())


EXISTS = "EXISTS (SELECT 1 FROM s2.users WHERE s2.users.id = s1.users.id)"


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        (
            "SELECT s1.users.name, s2.users.email, s1.users.age FROM s1.users, s2.users"
            " WHERE s1.users.id = s2.users.id",
            [("Alice", "alice@example.com", 30), ("Charlie", "charlie@example.com", 35)],
        ),
        (f"SELECT count(*) FROM s1.users WHERE {EXISTS}", [(2,)]),
        (f"SELECT s1.users.name FROM s1.users WHERE NOT {EXISTS}", [("Bob",)]),
        (
            f"SELECT s1.users.name FROM s1.users WHERE {EXISTS} AND s1.users.age > 25",
            [("Alice",), ("Charlie",)],
        ),
        (
            "SELECT s1.users.name FROM s1.users WHERE s1.users.id IN"
            " (SELECT s2.users.id FROM s2.users)",
            [("Alice",), ("Charlie",)],
        ),
        (
            "SELECT s1.users.name, s2.users.email FROM s1.users"
            " INNER JOIN s2.users ON s1.users.id = s2.users.id",
            [("Alice", "alice@example.com"), ("Charlie", "charlie@example.com")],
        ),
        # an unqualified column that one table has binds (schema_qualified.slt test 12)
        (
            "SELECT s1.users.name, s2.users.email, s1.users.age FROM s1.users, s2.users"
            " WHERE s1.users.id = s2.users.id AND age > 25",
            [("Alice", "alice@example.com", 30), ("Charlie", "charlie@example.com", 35)],
        ),
        # ``users.c`` names the innermost ``users`` (bind_context.rs: the innermost context
        # first), here the subquery's s2.users
        (
            "SELECT s1.users.name FROM s1.users WHERE EXISTS (SELECT 1 FROM s2.users"
            " WHERE users.id = s1.users.id AND users.email LIKE 'c%')",
            [("Charlie",)],
        ),
        # an alias is never renamed
        (
            "SELECT u.name, s2.users.email FROM s1.users AS u JOIN s2.users ON u.id = s2.users.id",
            [("Alice", "alice@example.com"), ("Charlie", "charlie@example.com")],
        ),
    ],
)
def test_same_name_in_two_schemas(
    db: psycopg.Connection[Any], sql: str, expected: list[tuple[Any, ...]]
) -> None:
    assert rows(db, sql) == expected


def test_a_bare_qualifier_naming_both_is_ambiguous(db: psycopg.Connection[Any]) -> None:
    # bind_context.rs:452-455
    with pytest.raises(psycopg.Error) as e:
        db.execute("SELECT users.id FROM s1.users, s2.users")
    assert e.value.sqlstate == "XX000"
    assert str(e.value) == (
        "Failed to run the query\n\nCaused by:\n"
        '  Invalid reference: table reference "users" is ambiguous'
    )


def test_a_dml_correlated_with_a_namesake(db: psycopg.Connection[Any]) -> None:
    db.execute("CREATE TABLE s1.gone (id int)")
    db.execute("CREATE TABLE s2.gone (id int)")
    db.execute("INSERT INTO s1.gone VALUES (1), (2), (3)")
    db.execute("INSERT INTO s2.gone VALUES (2)")
    db.execute("FLUSH")
    cur = db.execute(
        "DELETE FROM s1.gone WHERE NOT EXISTS (SELECT 1 FROM s2.gone WHERE s2.gone.id = s1.gone.id)"
    )
    assert cur.statusmessage == "DELETE 2"
    db.execute("FLUSH")
    assert rows(db, "SELECT id FROM s1.gone") == [(2,)]
