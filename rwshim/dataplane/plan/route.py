"""Where a statement runs: in process (constants, catalog-only queries) or on PostgreSQL
(anything that reads or writes a user relation), with every relation name resolved.

Names resolve with RisingWave's rules through the read path's resolver (search path with
``$user`` and the implicit system schemas, three-part ``db.schema.name`` read across databases:
src/frontend/src/binder/relation/mod.rs resolve_db_schema_qualified_name); a DML target
resolves as RisingWave's ``bind_table`` + ``check_for_dml`` do (only created tables; a
materialized view, index or internal table is refused: src/frontend/src/binder/relation/
table_or_source.rs:706-737, src/frontend/src/catalog/root_catalog.rs:732-739; writes are never
cross-database: relation/mod.rs resolve_schema_qualified_name).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

from rwshim.binder.context import QueryContext
from rwshim.binder.relations import Relation, RelationSource, RelKind
from rwshim.common.names import resolve_schema_qualified_name
from rwshim.dataplane.plan import checks, functions, tree
from rwshim.dataplane.plan.prepass import Prepassed, prepass
from rwshim.errors import RwError

# the reason of a statement PostgreSQL's parser rejects (a view's definition: said so)
UNPARSABLE = "syntax PostgreSQL cannot parse"


class Route(Enum):
    CATALOG = "catalog"  # in process: the catalog path (constants, catalog relations)
    DATA = "data"  # PostgreSQL


class SystemColumn(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def type_oid(self) -> int: ...


class SystemRel(Protocol):
    """A catalog relation as the resolver returns it (rw_catalog / pg_catalog /
    information_schema)."""

    @property
    def schema(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def columns(self) -> Sequence[SystemColumn]: ...


Resolved = Relation | SystemRel
# (database or None, schema or None, name) -> the relation; raises RisingWave's error
Resolver = Callable[[str | None, str | None, str], Resolved]


@dataclass(slots=True)
class Routed:
    route: Route
    prepassed: Prepassed
    shape: tree.Shape | None = None
    resolved: dict[int, Resolved] = field(default_factory=dict)  # id(RelRef) -> relation
    target: Relation | None = None
    reason: str = ""  # why the catalog path (for errors raised there about user data)

    def relation_of(self, ref: tree.RelRef) -> Resolved | None:
        return self.resolved.get(id(ref))

    def user_relations(self) -> list[Relation]:
        """The distinct user relations the statement reads or writes directly."""
        seen: dict[int, Relation] = {}
        for r in self.resolved.values():
            if isinstance(r, Relation):
                seen.setdefault(r.id, r)
        return list(seen.values())

    def system_relations(self) -> list[SystemRel]:
        seen: dict[tuple[str, str], SystemRel] = {}
        for r in self.resolved.values():
            if not isinstance(r, Relation):
                seen.setdefault((r.schema, r.name), r)
        return list(seen.values())


def resolver(ctx: QueryContext, relations: RelationSource) -> Resolver:
    """The read path's resolver (resolve.resolve_relation) for one context, with the catalog
    relations of rwshim/query/catalog."""
    from rwshim.binder.resolve import resolve_relation
    from rwshim.catalog_path.system_catalogs import RELATIONS

    def system(schema: str, name: str) -> Any:
        return RELATIONS.get((schema, name))

    def resolve(db: str | None, schema: str | None, name: str) -> Resolved:
        return resolve_relation(ctx, relations, system, db, schema, name)

    return resolve


def route(
    text: str,
    ctx: QueryContext,
    resolve: Resolver,
    relations: RelationSource,
    catalog_only: Callable[[Relation], bool] = lambda rel: False,
) -> Routed:
    """Decide where ``text`` runs; resolves its relation names (RisingWave's errors raised).

    ``catalog_only(view)`` says whether a user view reads only catalog relations (such a view
    keeps a query on the catalog path).
    """
    # the registered statement rewrites first (rwshim.binder.rewrites: a keyword RisingWave
    # takes as a relation name, ``INSERT INTO table``, reaches PostgreSQL double-quoted)
    from rwshim.binder.rewrites import rewrite

    pre = prepass(rewrite(text))
    try:
        shape = tree.parse(pre.text)
    except tree.TreeError:
        # RisingWave-only syntax PostgreSQL cannot parse and the pre-pass does not rewrite:
        # the catalog path answers it (and refuses it if it turns out to read user data).
        return Routed(Route.CATALOG, pre, reason=UNPARSABLE)
    shape.star_excludes = pre.star_excludes
    out = Routed(Route.CATALOG, pre, shape)
    if shape.kind in ("insert", "update", "delete"):
        assert shape.target is not None
        out.target = dml_target(shape.target, ctx, relations)
        out.resolved[id(shape.target)] = out.target
        out.route = Route.DATA
    elif shape.kind != "select":
        return out
    failed: RwError | None = None
    for ref in shape.relation_refs:
        if ref.target is not None:
            continue
        db, schema = _qualifiers(ref)
        try:
            rel = resolve(db, schema, ref.name)
        except RwError as e:
            failed = failed or e
            continue
        out.resolved[id(ref)] = rel
        if isinstance(rel, Relation) and not (rel.kind == RelKind.VIEW and catalog_only(rel)):
            out.route = Route.DATA
    if failed is not None:
        if out.route is Route.CATALOG:
            # No user relation: the in-process binder binds the query in RisingWave's order
            # and so reports the error RisingWave reports first (a select item's bad column
            # before a missing catalog in a later subquery: psql's \dp).
            out.reason = "a relation name does not resolve"
            return out
        raise failed
    if out.route is Route.CATALOG and shape.kind == "select" and reads_nothing(shape):
        # A query that reads no relation at all is RisingWave's batch engine evaluating
        # expressions: PostgreSQL has the functions, types and casts RisingWave's are built
        # after; only what reads the catalog or the session stays in process.
        out.route = Route.DATA
    if out.route is Route.DATA:
        # RisingWave's binder rules PostgreSQL would not enforce (query/pg/checks)
        checks.qualified_functions(shape, ctx.database)
        checks.check(shape, out.target.columns if out.target is not None else None)
    return out


def reads_nothing(shape: tree.Shape) -> bool:
    """Whether a query reads no relation (CTEs aside) and calls nothing that must be
    answered in process (``functions.IN_PROCESS``, ``::regclass`` & co, SQL value functions
    of the session)."""
    if shape.relation_refs or shape.unsupported:
        return False
    if not functions.IN_PROCESS.isdisjoint(shape.func_names):
        return False
    if any(t.names[-1] in functions.IN_PROCESS_TYPES for t in shape.type_refs):
        return False
    return not any(vf.op in functions.VALUE_FUNCTIONS for vf in shape.value_funcs)


def _qualifiers(ref: tree.RelRef) -> tuple[str | None, str | None]:
    parts = ref.parts
    if len(parts) == 3:
        return parts[0], parts[1]
    if len(parts) == 2:
        return None, parts[0]
    return None, None


def dml_target(ref: tree.RelRef, ctx: QueryContext, relations: RelationSource) -> Relation:
    """The table an INSERT / UPDATE / DELETE writes: writes are never cross-database
    (resolve_schema_qualified_name, binder/relation/mod.rs), then the read path's
    ``resolve_dml_target`` (bind_table + check_for_dml)."""
    from rwshim.binder.resolve import resolve_dml_target

    schema, name = resolve_schema_qualified_name(ctx.database, ref.parts)
    # the statement's own privilege on its target (insert.rs:115-126, update.rs:135-146,
    # delete.rs:78-89)
    action = (ref.target or "").upper() or None
    return resolve_dml_target(ctx, relations, schema, name, ref.target == "insert", action=action)
