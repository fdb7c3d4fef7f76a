"""The input order of an order-sensitive aggregate written without ORDER BY, in a streaming job.

RisingWave keeps such an aggregate's input in a state table ordered by the call's ORDER BY and
then the input's stream key, ascending (src/frontend/src/optimizer/plan_node/generic/agg.rs:
398-434, ``gen_materialized_input_state``: ``sort_keys``, then ``extra_keys`` = the input's
stream key), and aggregates it in that order: an unordered ``jsonb_object_agg`` over a table
sees its rows by the table's primary key, else by its ``_row_id`` (the order they were
inserted), so of two rows with one key the later one's value is kept
(e2e_test/streaming/aggregate/jsonb_agg.slt).  PostgreSQL feeds the rows in whatever order
its plan has (sorted by another call's ORDER BY, when one has).

Over a single table read once, each such call of a streaming job's query gets ``ORDER BY``
the table's key; a DISTINCT call (PostgreSQL orders those by their argument only) and a query
reading more relations are left as PostgreSQL orders them (rwshim's limit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.binder.relations import RelKind
from rwshim.dataplane.plan.checks import nodes
from rwshim.dataplane.plan.names import quote_ident
from rwshim.dataplane.plan.splice import call_args

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter

# RisingWave's aggregates whose result depends on their input's order (aggregate/*.rs;
# first_value / last_value, which take an ORDER BY of their own, are left alone)
ORDER_SENSITIVE = frozenset({"array_agg", "string_agg", "jsonb_agg", "jsonb_object_agg"})


def splice(rw: _Rewriter) -> None:
    shape = rw.shape
    if not rw.streaming or not ORDER_SENSITIVE & shape.func_names:
        return
    rels = list(rw.routed.user_relations())
    if len(rels) != 1 or len(shape.relation_refs) != 1 or rels[0].kind != RelKind.TABLE:
        return
    rel = rels[0]
    key = rel.primary_key or tuple(c.name for c in rel.columns if c.hidden and c.name == "_row_id")
    if not key:
        return
    order = " ORDER BY " + ", ".join(quote_ident(k) for k in key)
    for call in nodes(shape, "FuncCall"):
        names = [n.get("String", {}).get("sval") for n in call.get("funcname") or []]
        if names[-1:] == [] or names[-1] not in ORDER_SENSITIVE or len(names) > 1:
            continue
        if call.get("agg_order") or call.get("agg_distinct") or call.get("over"):
            continue
        if call.get("agg_within_group") or not call.get("args"):
            continue
        end, _ = call_args(shape.text, call.get("location", -1))
        rw.sp.insert(end - 1, order)
