"""A catalog of user relations for the data plane's sans-I/O core (no SQLite, no PostgreSQL):
the smallest ``RelationSource``, with RisingWave's layout (a table without a key gets the
hidden ``_row_id`` last)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from rwshim.binder.context import QueryContext
from rwshim.binder.relations import Relation, RelColumn, RelKind
from rwshim.common import pgtypes
from rwshim.dataplane.plan import route as routing
from rwshim.dataplane.plan.rewrite import PgStatement, rewrite

INT, VARCHAR = pgtypes.INT4, pgtypes.VARCHAR


@dataclass
class Catalog:
    schemas: dict[int, set[str]] = field(
        default_factory=lambda: {1: {"public", "s"}, 2: {"public"}}
    )
    rels: dict[tuple[int, str, str], Relation] = field(default_factory=dict)
    databases: dict[str, int] = field(default_factory=lambda: {"dev": 1, "other": 2})
    next_id: int = 100

    def database_id(self, name: str) -> int | None:
        return self.databases.get(name)

    def schema_exists(self, database_id: int, schema: str) -> bool:
        return schema in self.schemas.get(database_id, set())

    def relation(self, database_id: int, schema: str, name: str) -> Relation | None:
        return self.rels.get((database_id, schema, name))

    def add(self, rel: Relation, db: int = 1) -> Relation:
        self.rels[(db, rel.schema, rel.name)] = rel
        return rel

    def table(
        self,
        name: str,
        cols: list[tuple[str, int]] | list[RelColumn],
        pk: tuple[str, ...] = (),
        schema: str = "public",
        db: int = 1,
        **kw: object,
    ) -> Relation:
        self.next_id += 1
        columns = [c if isinstance(c, RelColumn) else RelColumn(c[0], c[1]) for c in cols]
        key = pk
        if not pk:
            columns.append(RelColumn("_row_id", pgtypes.INT8, hidden=True, rw_type="serial"))
            key = ("_row_id",)
        rel = Relation(
            self.next_id,
            schema,
            name,
            RelKind.TABLE,
            tuple(columns),
            primary_key=key,
            **kw,  # type: ignore[arg-type]
        )
        return self.add(rel, db)

    def view(
        self, name: str, query: str, cols: list[tuple[str, int]], kind: RelKind = RelKind.VIEW
    ) -> Relation:
        self.next_id += 1
        rel = Relation(
            self.next_id,
            "public",
            name,
            kind,
            tuple(RelColumn(n, t) for n, t in cols),
            definition=query,
        )
        return self.add(rel)


@pytest.fixture
def catalog() -> Catalog:
    return Catalog()


@pytest.fixture
def ctx() -> QueryContext:
    return QueryContext(database_id=1, database="dev", user_id=1, user="root")


def pg(catalog: Catalog, ctx: QueryContext, text: str) -> PgStatement:
    """``text`` routed and rewritten (it must route to the data plane)."""
    routed = routing.route(text, ctx, routing.resolver(ctx, catalog), catalog)
    assert routed.route is routing.Route.DATA, routed.reason
    return rewrite(routed)


def route_of(catalog: Catalog, ctx: QueryContext, text: str) -> routing.Route:
    return routing.route(text, ctx, routing.resolver(ctx, catalog), catalog).route
