"""The rewrites a streaming job's query (a materialized view's, a sink's) gets and a batch
query does not, where RisingWave's stream plan answers otherwise than its batch plan: a LIMIT
without ORDER BY ordered as its TopN (plan/limit_order), order-sensitive aggregates fed in
their state's order (plan/agg_order), a FULL JOIN's rows of all-NULL keys dropped
(plan/fullkeys)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.dataplane.plan import agg_order, fullkeys, limit_order

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter


def splice(rw: _Rewriter) -> None:
    if not rw.streaming:
        return
    limit_order.splice(rw)
    agg_order.splice(rw)
    fullkeys.splice(rw)
