"""Catalog invariants that hold whenever no statement is running, whatever was sent before.

Checked on the meta store itself (the single source of truth, decision 3):

1. every relation but a job's internal state tables has columns (rwshim does not model
   those tables' columns), numbered 0..n-1 without gaps;
2. every relation's schema, database and owner exist, and its schema is in its database;
3. every streaming job is a relation; every job has fragments and every fragment has a job
   and actors; every fragment edge joins existing fragments;
4. no job is INITIAL (a CREATE either committed its job or left nothing behind);
5. every dependency joins existing objects;
6. every table has its data table, every internal state table its job;
7. a relation name is unique in its schema (index and table included).
"""

from __future__ import annotations

import sqlite3

CHECKS: list[tuple[str, str]] = [
    (
        "relation without columns",
        "SELECT relation_id, name, kind FROM relation r WHERE kind != 'internal' AND NOT EXISTS"
        " (SELECT 1 FROM relation_column c WHERE c.relation_id = r.relation_id)",
    ),
    (
        "column positions not 0..n-1",
        "SELECT relation_id, count(*), min(position), max(position) FROM relation_column"
        " GROUP BY relation_id HAVING min(position) != 0 OR max(position) != count(*) - 1",
    ),
    (
        "relation with a missing schema, database or owner",
        "SELECT r.relation_id, r.name FROM relation r"
        " LEFT JOIN schema s ON s.schema_id = r.schema_id"
        " LEFT JOIN database d ON d.database_id = r.database_id"
        " LEFT JOIN rw_user u ON u.user_id = r.owner_id"
        " WHERE s.schema_id IS NULL OR d.database_id IS NULL OR u.user_id IS NULL"
        " OR s.database_id != r.database_id",
    ),
    (
        "schema with a missing database or owner",
        "SELECT s.schema_id, s.name FROM schema s"
        " LEFT JOIN database d ON d.database_id = s.database_id"
        " LEFT JOIN rw_user u ON u.user_id = s.owner_id"
        " WHERE d.database_id IS NULL OR u.user_id IS NULL",
    ),
    (
        "streaming job that is not a relation",
        "SELECT j.job_id FROM streaming_job j LEFT JOIN relation r ON r.relation_id = j.job_id"
        " WHERE r.relation_id IS NULL",
    ),
    (
        "streaming job without fragments",
        "SELECT job_id, job_status FROM streaming_job j WHERE NOT EXISTS"
        " (SELECT 1 FROM fragment f WHERE f.job_id = j.job_id)",
    ),
    (
        "fragment without its job",
        "SELECT f.fragment_id FROM fragment f"
        " LEFT JOIN streaming_job j ON j.job_id = f.job_id WHERE j.job_id IS NULL",
    ),
    (
        "fragment without actors",
        "SELECT f.fragment_id FROM fragment f WHERE NOT EXISTS"
        " (SELECT 1 FROM actor a WHERE a.fragment_id = f.fragment_id)",
    ),
    (
        "actor without its fragment",
        "SELECT a.actor_id FROM actor a"
        " LEFT JOIN fragment f ON f.fragment_id = a.fragment_id WHERE f.fragment_id IS NULL",
    ),
    (
        "fragment edge to a missing fragment",
        "SELECT e.source_fragment_id, e.target_fragment_id FROM fragment_relation e"
        " WHERE e.source_fragment_id NOT IN (SELECT fragment_id FROM fragment)"
        " OR e.target_fragment_id NOT IN (SELECT fragment_id FROM fragment)",
    ),
    ("job left INITIAL", "SELECT job_id FROM streaming_job WHERE job_status = 'INITIAL'"),
    (
        "dependency on a missing object",
        "SELECT referenced_id, dependent_id FROM dependency"
        " WHERE referenced_id NOT IN (SELECT relation_id FROM relation)"
        " OR dependent_id NOT IN (SELECT relation_id FROM relation)",
    ),
    (
        "duplicate name in a schema",
        "SELECT schema_id, name, count(*) FROM relation WHERE kind != 'internal'"
        " GROUP BY schema_id, name HAVING count(*) > 1",
    ),
]


def violations(conn: sqlite3.Connection) -> list[str]:
    """Every broken invariant, as 'what: rows' (empty when the catalog is sound)."""
    found: list[str] = []
    for what, sql in CHECKS:
        rows = conn.execute(sql).fetchall()
        if rows:
            found.append(f"{what}: {rows[:5]}")
    return found
