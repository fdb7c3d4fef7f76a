"""The schema SQL is valid SQLite and its migrations chain from version 1."""

from __future__ import annotations

import sqlite3

from rwshim.store import schema


def test_migrations_apply_in_order_to_an_empty_database() -> None:
    conn = sqlite3.connect(":memory:")
    versions = [v for v, _ in schema.MIGRATIONS]
    assert versions == list(range(1, schema.SCHEMA_VERSION + 1))
    for _, sql in schema.MIGRATIONS:
        conn.executescript(sql)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {
        "meta",
        "sequence",
        "rw_user",
        "database",
        "schema",
        "relation",
        "relation_column",
        "dependency",
        "comment",
        "streaming_job",
        "fragment",
        "fragment_relation",
        "actor",
        "worker",
        "barrier_state",
        "system_parameter",
        "session_parameter",
        "privilege",
    } <= tables
