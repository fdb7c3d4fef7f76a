"""What the read path needs to know about user relations, and the interface that supplies it.

The query core does not own the catalog: the meta store does.  ``RelationSource`` is the
narrow read interface the binder resolves names through (implemented over the store's
tables by ``store_source.StoreRelations`` once the store schema is in place, and by any
other catalog holder).  Catalog relations (``rw_catalog``/``pg_catalog``/
``information_schema``) come from ``rwshim.catalog_path.system_catalogs.RELATIONS`` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

from msgspec import Struct
from msgspec.structs import replace


class RelKind(Enum):
    """Relation kinds as ``rw_relations.relation_type`` names them."""

    TABLE = "table"
    MATERIALIZED_VIEW = "materialized view"
    VIEW = "view"
    SOURCE = "source"
    SINK = "sink"
    INDEX = "index"
    INTERNAL = "internal"


class RelColumn(Struct, frozen=True):
    name: str
    type_oid: int
    hidden: bool = False
    default_expr: str | None = None  # DEFAULT expression text, as written
    generated_expr: str | None = None  # `AS <expr>` of a generated column, as written
    nullable: bool = True
    rw_type: str = ""  # RisingWave's type name (relation_column.rw_type)
    column_id: int = -1  # RisingWave's column id (a dropped and re-added column gets a new one)


class Relation(Struct, frozen=True):
    """One user relation as the binder sees it.

    ``definition`` is the defining query text for materialized views and views (read as that
    query).
    ``created`` is False while the job is still being created.
    """

    id: int
    schema: str
    name: str
    kind: RelKind
    columns: tuple[RelColumn, ...]
    created: bool = True
    definition: str | None = None
    primary_key: tuple[str, ...] = ()
    append_only: bool = False
    # a table's ConflictBehavior (handler/create_table.rs:671-705): "overwrite", "ignore",
    # "if_not_null", or "no_check" (append-only without a declared key)
    conflict: str = "overwrite"
    # a table's version columns (WITH VERSION COLUMN): a conflicting row applies only when its
    # versions are newer or equal (stream/executor/mview/cache.rs versions_are_newer_or_equal)
    version_columns: tuple[str, ...] = ()
    # an index: the relation it indexes and its key / INCLUDE column names
    indexed_id: int | None = None
    index_keys: tuple[str, ...] = ()
    index_desc: tuple[bool, ...] = ()
    database_id: int = 0
    owner_id: int = 0  # the owner's user id (privilege checks: rwshim.common.acl)
    # a materialized view: (upstream id, the largest column id it was planned with) of the
    # upstreams that gained columns since (relation.column_horizon; read through ``AsOf``)
    horizon: tuple[tuple[int, int], ...] = ()
    # a table's ``WATERMARK FOR col AS expr [WITH TTL]``: (column, expression text as
    # RisingWave displays it, with TTL) (dataplane/plan/watermarks.py)
    watermark: tuple[str, str, bool] | None = None
    # a materialized view created ``... EMIT ON WINDOW CLOSE``
    emit_on_window_close: bool = False
    # the relation of a changelog CTE over this table or source (binder/resolve.py
    # changelog_of): its columns and two more, its rows the table's changes
    changelog: bool = False
    # a table's ``WITH (retention_seconds = n)`` (its TableOption, with_options.rs:152-156;
    # 0: none): reads do not see rows written more than n seconds before the read's epoch
    # (dataplane/plan/retention.py)
    retention_seconds: int = 0

    @property
    def visible_columns(self) -> tuple[RelColumn, ...]:
        return tuple(c for c in self.columns if not c.hidden)


class RelationSource(Protocol):
    """Read access to the user catalog of one rwshim instance."""

    def database_id(self, name: str) -> int | None:
        """The id of the database called ``name``, or None."""
        ...

    def schema_exists(self, database_id: int, schema: str) -> bool: ...

    def relation(self, database_id: int, schema: str, name: str) -> Relation | None:
        """The relation ``schema.name`` in the database, created or not, or None."""
        ...


class AsOf:
    """A ``RelationSource`` that shows relations as a materialized view planned before some
    of them gained columns: the later columns are hidden, so a ``*`` of its query does not
    take them (ALTER TABLE ... ADD COLUMN leaves the running job as it was,
    alter_table_column.rs)."""

    def __init__(self, inner: RelationSource, horizon: tuple[tuple[int, int], ...]) -> None:
        self.inner = inner
        self.horizon = dict(horizon)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def database_id(self, name: str) -> int | None:
        return self.inner.database_id(name)

    def schema_exists(self, database_id: int, schema: str) -> bool:
        return self.inner.schema_exists(database_id, schema)

    def relation(self, database_id: int, schema: str, name: str) -> Relation | None:
        return self.cut(self.inner.relation(database_id, schema, name))

    def relation_by_id(self, relation_id: int) -> Relation | None:
        # not every RelationSource looks relations up by id (StoreRelations does)
        by_id: Callable[[int], Relation | None] = getattr(self.inner, "relation_by_id")  # noqa: B009
        return self.cut(by_id(relation_id))

    def cut(self, rel: Relation | None) -> Relation | None:
        limit = None if rel is None else self.horizon.get(rel.id)
        if rel is None or limit is None:
            return rel
        cols = tuple(
            replace(c, hidden=True) if c.column_id > limit and not c.hidden else c
            for c in rel.columns
        )
        return replace(rel, columns=cols)


def as_of(relations: RelationSource, rel: Relation) -> RelationSource:
    """``relations`` as the materialized view ``rel`` reads them."""
    return AsOf(relations, rel.horizon) if rel.horizon else relations
