"""SQLite functions the store registers on its connection, for the catalog views.

``rw_render_parallelism(kind, fixed, strategy)`` renders a stored parallelism as RisingWave's
system catalogs print it (src/frontend/src/catalog/system_catalog/mod.rs:223-254): a number
for Fixed, ``adaptive`` for AUTO/FULL, ``bounded(n)`` / ``ratio(r)`` in lower case, ``custom``
for Custom, ``unknown`` for NULL.  ``rw_streaming_jobs.parallelism`` is the *effective* value:
the backfill override while the job is not CREATED, e.g.

    rw_render_parallelism(
        CASE WHEN job_status != 'CREATED' AND backfill_parallelism_kind IS NOT NULL
             THEN backfill_parallelism_kind ELSE parallelism_kind END, ...)
"""

from __future__ import annotations

import sqlite3


def render_parallelism(kind: str | None, fixed: int | None, strategy: str | None) -> str:
    if kind is None:
        return "unknown"
    if kind == "Fixed":
        return str(fixed)
    if kind == "Custom":
        return "custom"
    s = strategy or "AUTO"
    if s in ("AUTO", "FULL"):
        return "adaptive"
    return s.lower()


def register(conn: sqlite3.Connection) -> None:
    conn.create_function("rw_render_parallelism", 3, render_parallelism, deterministic=True)
