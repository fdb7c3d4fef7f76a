"""CREATE MATERIALIZED VIEW's part in temporal joins: RisingWave's optimizer refusals
(binder/temporal_join.py, logical_join.rs:1245-1375) and the view's state made at CREATE
(dataplane/plan/temporal.py: a temporal join reads each stream row's arrival epoch)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.binder.relations import Relation
from rwshim.frontend.common import engine_name
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend


def check_temporal_joins(fe: Frontend, query: str) -> None:
    """RisingWave's optimizer refusals of a temporal join (binder/temporal_join.py)."""
    if "proctime" not in query.lower():
        return
    from rwshim.binder import temporal_join

    rels = fe.instance.relations
    ctx = fe.query_context()

    def resolve(parts: list[str]) -> Relation | None:
        schemas = parts[-2:-1] or [s for s in ctx.search_path if s != "$user"]
        for schema in schemas:
            found = rels.relation(fe.database_id, schema, parts[-1].lower())
            if found is not None:
                return found
        return None

    def indexes(relation_id: int) -> list[Relation]:
        out = []
        for rid in rels.relation_ids():
            rel = rels.relation_by_id(rid)
            if rel is not None and rel.indexed_id == relation_id:
                out.append(rel)
        return out

    temporal_join.check(query, resolve, indexes)


async def make_state_now(fe: Frontend, name: st.ObjectName) -> None:
    """A view with a temporal join joins the rows already there with the dimension as it
    is at its creation, and each later row as it arrives: its state is made now, not at the
    first read as other views' are (dataplane/plan/temporal.py); so is a view with a
    changelog CTE, whose log starts with the upstream's rows at its creation
    (dataplane/plan/changelogs.py)."""
    en = engine_name(name, fe.database)
    ctx = fe.query_context()
    rels = fe.instance.relations
    schemas = [en.schema] if en.schema else [s for s in ctx.search_path if s != "$user"]
    for schema in schemas:
        rel = rels.relation(fe.database_id, schema, en.name)
        if rel is not None:
            await fe.instance.data.ready()
            await fe.instance.data.ensure([rel.id])
            return
