"""Catalog relations (rw_catalog, pg_catalog, information_schema) as SQL views over the meta store.

Contract between the catalog definitions (this package) and the query core (rwshim/query):
- ``RELATIONS`` maps ``(schema, name)`` to a ``CatalogRelation``: RisingWave's/PostgreSQL's
  exact column names and PostgreSQL type OIDs, and one SQLite SELECT producing those columns
  in that order over the store's tables.
- ``install(conn)`` creates every relation as a TEMP view named ``<schema>__<name>`` on the
  store's connection (TEMP so that a durable store never keeps views of an older version).
- The views may call SQLite functions that the query core registers and that read the context
  of the statement being run: ``rw_current_database_id()``, ``rw_current_user_id()``,
  ``rw_current_schema()``; and any helper this package registers in ``install``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CatalogColumn:
    name: str
    type_oid: int


@dataclass(frozen=True, slots=True)
class CatalogRelation:
    schema: str
    name: str
    columns: tuple[CatalogColumn, ...]
    sql: str

    @property
    def sqlite_name(self) -> str:
        return f"{self.schema}__{self.name}"


RELATIONS: dict[tuple[str, str], CatalogRelation] = {}


def install(conn: sqlite3.Connection) -> None:
    """Create every catalog relation as a TEMP view on ``conn``."""
    for rel in RELATIONS.values():
        cols = ", ".join(f'"{c.name}"' for c in rel.columns)
        conn.execute(f'CREATE TEMP VIEW IF NOT EXISTS "{rel.sqlite_name}" ({cols}) AS {rel.sql}')
