"""The data plane's ``UNION | EXCEPT | INTERSECT [ALL] CORRESPONDING [BY (cols)]``: the marked
wrappers rwshim.sql.corresponding wrote select the corresponding columns of each side
(src/frontend/src/binder/set_expr.rs:232-318, planner/set_operation.rs:53-61), spliced over
the wrappers' select lists once both sides' column names are known here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.figure import figure_name
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.errors import NotImplementedError_
from rwshim.sql import corresponding as corr

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter


def _wrappers(shape: tree.Shape) -> dict[int, dict[bool, tuple[tree.Level, corr.Marker]]]:
    pairs: dict[int, dict[bool, tuple[tree.Level, corr.Marker]]] = {}
    for level in shape.levels:
        if len(level.items) != 1 or not isinstance(level.items[0], tree.SubqueryItem):
            continue
        mk = corr.marker(level.items[0].alias)
        if mk is not None:
            pairs.setdefault(mk.pair, {})[mk.left] = (level, mk)
    return pairs


def splice(rw: _Rewriter) -> None:
    """Each pair, inner ones first (their numbers are lower): RisingWave's checks, then the
    right wrapper's star (and the left one's, without BY) as the corresponding columns."""
    pairs = _wrappers(rw.shape)
    for n in sorted(pairs):
        sides = pairs[n]
        if set(sides) != {True, False}:  # pragma: no cover - the rewrite writes both
            continue
        (l_level, mk), (r_level, _) = sides[True], sides[False]
        l_item, r_item = l_level.items[0], r_level.items[0]
        assert isinstance(l_item, tree.SubqueryItem) and isinstance(r_item, tree.SubqueryItem)
        left, right = rw.item_names(l_item), rw.item_names(r_item)
        if left is None or right is None:
            raise NotImplementedError_(
                "not supported by rwshim: CORRESPONDING over a query whose column names are "
                "not known here"
            )
        by = None
        if mk.by:
            by = [figure_name(rt.get("val") or {}) for rt in l_level.targets]
        pairs_ = corr.mapping(mk.op, left, right, by)
        if any(r >= len(right) for _, r in pairs_):
            raise NotImplementedError_(
                "not supported by rwshim: CORRESPONDING BY a column whose position in the left "
                "side the right side does not have"
            )
        la, ra = qi(l_item.alias or ""), qi(r_item.alias or "")
        if not mk.by:
            rw._replace_star(l_level.stars[0], ", ".join(f"{la}.{qi(left[i])}" for i, _ in pairs_))
        rw._replace_star(r_level.stars[0], ", ".join(f"{ra}.{qi(right[r])}" for _, r in pairs_))
        l_level.stars.clear()
        r_level.stars.clear()
        rw.corr_names[id(l_level)] = [left[i] for i, _ in pairs_]
        rw.corr_names[id(r_level)] = [right[r] for _, r in pairs_]
