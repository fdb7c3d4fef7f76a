"""Fixtures: a SQLite connection for the catalog path, and user relations for its binder.

``Catalog`` is the smallest holder of user relations the binder reads through
``RelationSource``.  User tables' rows live on the PostgreSQL data plane, never in SQLite: the
catalog path binds a statement naming a table (RisingWave's errors and types, CREATE
MATERIALIZED VIEW's analysis) and reads it as holding no rows.  A test that needs rows to read
in process gets a view over VALUES (``Catalog.rows``), which the binder expands as it expands
any view.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass, field

import pytest
from msgspec.structs import replace

from rwshim.binder.context import QueryContext
from rwshim.binder.relations import Relation, RelColumn, RelKind
from rwshim.catalog_path.engine import QueryEngine
from rwshim.common import pgtypes


@dataclass
class Catalog:
    conn: sqlite3.Connection
    schemas: dict[int, set[str]] = field(default_factory=lambda: {1: {"public"}})
    rels: dict[tuple[int, str, str], Relation] = field(default_factory=dict)
    next_id: int = 1000
    databases: dict[str, int] = field(default_factory=lambda: {"dev": 1})

    def database_id(self, name: str) -> int | None:
        return self.databases.get(name)

    def schema_exists(self, database_id: int, schema: str) -> bool:
        return schema in self.schemas.get(database_id, set())

    def relation(self, database_id: int, schema: str, name: str) -> Relation | None:
        return self.rels.get((database_id, schema, name))

    def table(
        self,
        name: str,
        cols: list[tuple[str, int]],
        pk: tuple[str, ...] = (),
        schema: str = "public",
        db: int = 1,
        append_only: bool = False,
        defaults: dict[str, str] | None = None,
    ) -> Relation:
        self.next_id += 1
        columns = [RelColumn(n, t, default_expr=(defaults or {}).get(n)) for n, t in cols]
        if not pk:
            columns.append(RelColumn("_row_id", pgtypes.INT8, hidden=True))
        rel = Relation(
            self.next_id,
            schema,
            name,
            RelKind.TABLE,
            tuple(columns),
            primary_key=pk,
            append_only=append_only,
        )
        self.rels[(db, schema, name)] = rel
        return rel

    def view(
        self,
        name: str,
        query: str,
        cols: list[tuple[str, int]],
        kind: RelKind = RelKind.MATERIALIZED_VIEW,
        created: bool = True,
        schema: str = "public",
        db: int = 1,
    ) -> Relation:
        self.next_id += 1
        rel = Relation(
            self.next_id,
            schema,
            name,
            kind,
            tuple(RelColumn(n, t) for n, t in cols),
            created=created,
            definition=query,
        )
        self.rels[(db, schema, name)] = rel
        return rel

    def rows(self, name: str, cols: list[tuple[str, int]], values: str, db: int = 1) -> Relation:
        """A relation ``name`` whose rows the catalog path reads: a view over
        ``VALUES <values>`` (PostgreSQL literals), with columns ``cols``."""
        names = ", ".join(f'"{n}"' for n, _ in cols)
        query = f"SELECT * FROM (VALUES {values}) AS v({names})"
        return self.view(name, query, cols, kind=RelKind.VIEW, db=db)

    def set_created(self, name: str, schema: str = "public", db: int = 1) -> None:
        key = (db, schema, name)
        self.rels[key] = replace(self.rels[key], created=True)


@pytest.fixture
def conn() -> sqlite3.Connection:
    c = sqlite3.connect(":memory:")
    return c


@pytest.fixture
def catalog(conn: sqlite3.Connection) -> Catalog:
    return Catalog(conn)


FIXED_NOW = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)


@pytest.fixture
def engine(conn: sqlite3.Connection, catalog: Catalog) -> QueryEngine:
    return QueryEngine(conn, catalog, clock=lambda: FIXED_NOW)


@pytest.fixture
def ctx() -> QueryContext:
    return QueryContext(
        database_id=1,
        database="dev",
        user_id=1,
        user="root",
        variables={"timezone": "UTC", "jit": "off"},
    )


@dataclass
class World:
    """A real meta store driven by the engine, the catalog views, and a QueryEngine over it."""

    store: object
    engine: object
    query: QueryEngine
    ctx: QueryContext

    def table(
        self,
        name: str,
        cols: list[tuple[str, int, str]],
        pk: tuple[str, ...] = (),
        schema: str | None = None,
    ) -> None:
        from rwshim.engine.types import ColumnSpec, Context, ObjectName

        self.engine.ddl.create_table(  # type: ignore[attr-defined]
            Context(),
            ObjectName(name, schema),
            [ColumnSpec(*c) for c in cols],
            definition=f"CREATE TABLE {name} (...)",
            primary_key=list(pk),
        )
        self.query.invalidate()

    def mv(self, name: str, query: str, schema: str | None = None) -> None:
        from rwshim.engine.types import ColumnSpec, Context, ObjectName

        an = self.query.check_mv_columns(query, self.ctx)
        self.engine.ddl.create_materialized_view(  # type: ignore[attr-defined]
            Context(),
            ObjectName(name, schema),
            [ColumnSpec(c.name, c.type_oid, "x") for c in an.columns],
            definition=f"CREATE MATERIALIZED VIEW {name} AS {query}",
            upstream_ids=an.upstreams,
        )
        for _ in range(20):
            self.engine.barrier.tick()  # type: ignore[attr-defined]
        self.query.invalidate()

    def view(self, name: str, query: str) -> None:
        from rwshim.engine.types import ColumnSpec, Context, ObjectName

        an = self.query.analyze(query, self.ctx)
        self.engine.ddl.create_view(  # type: ignore[attr-defined]
            Context(),
            ObjectName(name),
            [ColumnSpec(c.name, c.type_oid, "x") for c in an.columns],
            sql=query,
            upstream_ids=an.upstreams,
        )
        self.query.invalidate()

    def rows(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        return [tuple(r) for r in self.query.execute(sql, params, self.ctx).rows]


@pytest.fixture
def world() -> World:
    from rwshim.catalog_path import system_catalogs as catalog_views
    from rwshim.catalog_path.store_source import StoreRelations
    from rwshim.engine.engine import Engine
    from rwshim.store.store import Store

    store = Store.open(None, now="2026-11-29 23:00:00.000000+00:00")
    eng = Engine(store)
    catalog_views.install(store.conn)
    qe = QueryEngine(store.conn, StoreRelations(store.conn), clock=lambda: FIXED_NOW)
    ctx = QueryContext(
        database_id=1,
        database="dev",
        user_id=1,
        user="root",
        variables={"timezone": "UTC", "jit": "off"},
    )
    return World(store, eng, qe, ctx)
