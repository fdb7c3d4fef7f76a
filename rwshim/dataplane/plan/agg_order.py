"""A streaming job's order-sensitive aggregates read their rows in RisingWave's state order.

RisingWave keeps the input of ``array_agg``, ``string_agg``, ``jsonb_agg``,
``jsonb_object_agg`` (and the wrapped scalar ``aggregate:f``) in a materialized input state
ordered by the call's ORDER BY and then by the input's stream key, ascending (the "extra keys"
that make each row unique: src/frontend/src/optimizer/plan_node/generic/agg.rs:466-525), and
aggregates it in that order: without ORDER BY the stream key alone orders it, so
``jsonb_object_agg`` keeps the value of a repeated key from the row of the largest key
(e2e_test/streaming/aggregate/jsonb_agg.slt: ``{"bbb": 999}`` from the row inserted last).
PostgreSQL aggregates rows in whichever order its plan meets them, so where the input is one
table read as it is, the call gets that table's key (its primary key, else its hidden
``_row_id``) appended to its ORDER BY.  A DISTINCT call is ordered by its argument
(agg.rs:519-522) and is left as it is; so is a call over a join or a subquery (rwshim's
limit: their stream key is not rebuilt here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rwshim.dataplane.plan import limit_order
from rwshim.dataplane.plan.splice import SpliceError, call_args

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter

# agg.rs:475-483 (materialized input state, ordered by the call's ORDER BY), jsonb_object_agg
# (:509-513); first_value / last_value take an ORDER BY of their own (RisingWave requires it)
_ORDERED = frozenset({"array_agg", "string_agg", "jsonb_agg", "jsonb_object_agg"})


def splice(rw: _Rewriter) -> None:
    for level in rw.shape.levels:
        node: dict[str, Any] = level.node
        calls = _calls([node.get("targetList"), node.get("havingClause")])
        if not calls:
            continue
        keys = limit_order.table_key(rw, level)
        if not keys:
            continue
        for call in calls:
            try:
                end, _ = call_args(rw.text, int(call["location"]))
            except (SpliceError, KeyError, ValueError):
                continue
            joined = ", ".join(keys)
            rw.sp.insert(end - 1, f", {joined}" if call.get("agg_order") else f" ORDER BY {joined}")


def _calls(roots: list[Any]) -> list[dict[str, Any]]:
    """The order-sensitive aggregate calls of one query level (not in a subquery, not a
    window function's)."""
    out: list[dict[str, Any]] = []
    stack: list[Any] = list(roots)
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            if "SubLink" in v:
                continue
            call = v.get("FuncCall")
            if call is not None:
                name = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
                if (
                    name[-1:]
                    and name[-1] in _ORDERED
                    and not call.get("agg_distinct")
                    and call.get("over") is None
                    and not call.get("agg_within_group")
                    and isinstance(call.get("location"), int)
                ):
                    out.append(call)
            stack.extend(x for x in v.values() if isinstance(x, (dict, list)))
    return out
