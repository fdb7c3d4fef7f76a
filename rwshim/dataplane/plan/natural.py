"""The relations a NATURAL join reads, which the rewriter hands PostgreSQL as their visible
columns only: PostgreSQL would take their hidden columns (a table's ``_row_id``) as common
names too, RisingWave's binder takes the common names of visible columns only
(src/frontend/src/binder/relation/join.rs:175-180 filters out ``is_hidden``); and a relation
under an alias column list, its columns listed in the order the list renames them.
"""

from __future__ import annotations

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import rw_timestamp, tree
from rwshim.dataplane.plan.names import quote_ident as qi


def natural_sides(shape: tree.Shape) -> set[int]:
    """The ids of the relation references under a NATURAL join, at any depth of its sides (a
    join under it exposes its relations' columns to it)."""
    out: set[int] = set()

    def refs(item: tree.FromItem) -> None:
        if isinstance(item, tree.RelRef):
            out.add(id(item))
        elif isinstance(item, tree.JoinItem):
            refs(item.left)
            refs(item.right)

    for _, item in shape.joins():
        if item.natural:
            refs(item)
    return out


def renamed(rel: Relation, phys: str, natural: bool) -> str:
    """``phys`` as a relation an alias column list renames: its columns in catalog order,
    hidden ones last (a stable sort), a table's system ``_rw_timestamp`` after them; under a
    NATURAL join its visible columns only."""
    cols = sorted((c for c in rel.columns if not (natural and c.hidden)), key=lambda c: c.hidden)
    system = [rw_timestamp.COLUMN] if rel.kind == RelKind.TABLE and not natural else []
    listed = [qi(n) for n in [*(c.name for c in cols), *system]]
    return f"(SELECT {', '.join(listed)} FROM {phys})"
