"""The relations a NATURAL join reads, which the rewriter hands PostgreSQL as their visible
columns only: PostgreSQL would take their hidden columns (a table's ``_row_id``) as common
names too, RisingWave's binder takes the common names of visible columns only
(src/frontend/src/binder/relation/join.rs:175-180 filters out ``is_hidden``).
"""

from __future__ import annotations

from rwshim.dataplane.plan import tree


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

    for level in shape.levels:
        stack: list[tree.FromItem] = list(level.items)
        while stack:
            item = stack.pop()
            if not isinstance(item, tree.JoinItem):
                continue
            if item.natural:
                refs(item)
            stack.extend((item.left, item.right))
    return out
