"""A relation row as the engine parts read it (``Rel``: the relation joined with its streaming
job), the SELECT and reader that make one, the owner/schema shape the drop/alter privilege rule
reads (``Owned``), and a view's stored SQL from its definition (``view_sql``).

RisingWave: the catalog controller's object models, ``src/meta/model/src/table.rs`` /
``streaming_job.rs``; ``src/frontend/src/catalog/view_catalog.rs`` (a view's SQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from msgspec import Struct

from rwshim.sql import unparse


class Rel(Struct):
    """A relation row joined with its streaming job (if any)."""

    id: int
    kind: str
    name: str
    schema_id: int
    database_id: int
    owner_id: int
    definition: str
    is_shared: bool
    status: str | None
    create_type: str | None
    job_type: str | None
    connector: str | None
    target_table_id: int | None

    @property
    def is_job(self) -> bool:
        return self.status is not None


_REL_SELECT = (
    "SELECT r.relation_id, r.kind, r.name, r.schema_id, r.database_id, r.owner_id, r.definition,"
    " r.is_shared, j.job_status, j.create_type, j.job_type, r.connector, r.target_table_id"
    " FROM relation r LEFT JOIN streaming_job j ON j.job_id = r.relation_id"
)


def _rel(row: Sequence[Any]) -> Rel:
    return Rel(
        int(row[0]),
        str(row[1]),
        str(row[2]),
        int(row[3]),
        int(row[4]),
        int(row[5]),
        str(row[6]),
        bool(row[7]),
        None if row[8] is None else str(row[8]),
        None if row[9] is None else str(row[9]),
        None if row[10] is None else str(row[10]),
        None if row[11] is None else str(row[11]),
        None if row[12] is None else int(row[12]),
    )


def view_sql(definition: str, schema: str, name: str) -> str:
    """A view's stored SQL from its definition: the query after the ``CREATE VIEW [schema.]name
    AS`` prefix rwshim writes (a definition from an older store is read as a statement)."""
    prefix = unparse.view_definition(schema, name, "")
    if definition.startswith(prefix):
        return definition[len(prefix) :]
    try:
        return unparse.view_sql(definition)
    except unparse.UnparseError:
        return definition


class Owned(Protocol):
    """A schema object as the drop/alter privilege rule reads it."""

    @property
    def owner_id(self) -> int: ...

    @property
    def schema_id(self) -> int: ...
