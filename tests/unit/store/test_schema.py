"""The schema SQL is valid SQLite and its migrations chain from version 1."""

from __future__ import annotations

import sqlite3

from rwshim.store import schema


def test_migrations_apply_in_order_to_an_empty_database() -> None:
    conn = sqlite3.connect(":memory:")
    versions = [v for v, _ in schema.MIGRATIONS]
    # Versions start at 1 and increase; one may be skipped while another branch holds it.
    assert versions[0] == 1 and versions == sorted(set(versions))
    assert versions[-1] == schema.SCHEMA_VERSION
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
