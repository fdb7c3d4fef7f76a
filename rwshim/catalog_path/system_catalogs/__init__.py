"""Catalog relations (rw_catalog, pg_catalog, information_schema) as SQL views over the meta store.

Contract between the catalog definitions (this package) and the query core (rwshim/query):
- ``RELATIONS`` maps ``(schema, name)`` to a ``CatalogRelation``: RisingWave's/PostgreSQL's
  exact column names and PostgreSQL type OIDs, and one SQLite SELECT producing those columns
  in that order over the store's tables.
- ``install(conn)`` creates every relation as a TEMP view named ``<schema>__<name>`` on the
  store's connection (TEMP so that a durable store never keeps views of an older version):
  ``install_tables`` the static tables and helper functions the views and the SHOW/EXPLAIN
  code read, ``install_views`` the views (the read path makes them on its first query, not at
  start-up: issue 16).
- The views may call SQLite functions that the query core registers and that read the context
  of the statement being run: ``rw_current_database_id()``, ``rw_current_user_id()``,
  ``rw_current_schema()``, and ``rw_session_settings()`` (a JSON array of
  ``[name, setting, description]`` for the session's variables, read by pg_settings; an empty
  default is registered here when the query core has not registered it); and any helper this
  package registers in ``install``.

Every builtin catalog of RisingWave at the reference commit is here (``system_catalogs.py``,
121 relations, RisingWave's columns in its order, and no other); those this package has no rows
for return no row, as RisingWave's dummy views do.

Value conventions in the views (the query core decodes by the declared OID): booleans are
0/1, arrays and jsonb are JSON text, timestamptz is ISO text ``YYYY-MM-DD HH:MM:SS.ffffff+00:00``.
"""

from __future__ import annotations

import sqlite3

from msgspec import Struct

from rwshim.catalog_path.system_catalogs import information_schema, pg_catalog, rw_catalog
from rwshim.catalog_path.system_catalogs._sql import empty_select
from rwshim.catalog_path.system_catalogs.static import (
    install_functions,
    install_static,
    system_catalog_id,
)
from rwshim.catalog_path.system_catalogs.system_catalogs import SYSTEM_CATALOGS


class CatalogColumn(Struct, frozen=True):
    name: str
    type_oid: int


class CatalogRelation(Struct, frozen=True):
    schema: str
    name: str
    columns: tuple[CatalogColumn, ...]
    sql: str
    # RisingWave's id for the relation (SYS_CATALOG_START_ID + rank)
    oid: int = 0
    # True when RisingWave defines it as a table (rw_system_tables), False for a view.
    is_table: bool = False

    @property
    def sqlite_name(self) -> str:
        return f"{self.schema}__{self.name}"


_SQL_BY_SCHEMA: dict[str, dict[str, str]] = {
    "rw_catalog": rw_catalog.SQL,
    "pg_catalog": pg_catalog.SQL,
    "information_schema": information_schema.SQL,
}


def _build() -> dict[tuple[str, str], CatalogRelation]:
    rels: dict[tuple[str, str], CatalogRelation] = {}
    for schema, name, kind, cols, _pk, _view_sql, _file in SYSTEM_CATALOGS:
        columns = [CatalogColumn(c, oid) for c, oid in cols]
        sql = _SQL_BY_SCHEMA[schema].get(name) or empty_select(len(columns))
        rels[(schema, name)] = CatalogRelation(
            schema, name, tuple(columns), sql, system_catalog_id(schema, name), kind == "table"
        )
    return rels


RELATIONS: dict[tuple[str, str], CatalogRelation] = _build()


def install(conn: sqlite3.Connection) -> None:
    """Create every catalog relation as a TEMP view on ``conn`` (and the static tables)."""
    install_tables(conn)
    install_views(conn)


def install_tables(conn: sqlite3.Connection) -> None:
    """The static tables and the helper functions the views call (idempotent)."""
    install_static(conn)
    install_functions(conn)
    try:
        conn.execute("SELECT rw_session_settings()").fetchone()
    except sqlite3.OperationalError:
        # No session to read from yet: pg_settings lists the system parameters only.  The query
        # core's own registration (before or after this) is the one that counts.
        conn.create_function("rw_session_settings", 0, lambda: "[]")


def may_read_view(sql: str) -> bool:
    """Whether engine text ``sql`` may read a catalog view: a view's name is
    ``<schema>__<name>``, and a text that reads one names it (the views that read other views
    are made together), so a text without ``__`` (a constant, a store table) reads none."""
    return "__" in sql


def install_views(conn: sqlite3.Connection) -> None:
    """Every catalog relation as a TEMP view (idempotent; after ``install_tables``)."""
    for rel in RELATIONS.values():
        cols = ", ".join(f'"{c.name}"' for c in rel.columns)
        conn.execute(f'CREATE TEMP VIEW IF NOT EXISTS "{rel.sqlite_name}" ({cols}) AS {rel.sql}')
