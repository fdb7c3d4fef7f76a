"""The store's schema scripts split into the statements SQLite sees as complete (store.py
``_split_sql``, which asks SQLite only at lines holding a ``;``)."""

from __future__ import annotations

import sqlite3

from rwshim.store.store import MIGRATIONS, _split_sql


def reference_split(script: str) -> list[str]:
    # every line: the statement ends where SQLite first calls the text so far complete
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def test_every_migration_splits_as_sqlite_completes_it() -> None:
    for version, sql in MIGRATIONS:
        assert _split_sql(sql) == reference_split(sql), version


def test_a_trigger_body_stays_one_statement() -> None:
    script = (
        "CREATE TABLE t (a INTEGER);\n"
        "CREATE TRIGGER g AFTER INSERT ON t BEGIN\n"
        "  UPDATE t SET a = 1;\n"
        "  DELETE FROM t WHERE a = 2;\n"
        "END;\n"
        "-- a comment\n"
        "CREATE INDEX i ON t (a);"
    )
    got = _split_sql(script)
    assert got == reference_split(script)
    assert len(got) == 3 and got[1].startswith("CREATE TRIGGER") and got[1].endswith("END;")
