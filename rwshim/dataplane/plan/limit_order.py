"""A streaming job's ``LIMIT`` / ``OFFSET`` without ``ORDER BY``, ordered as RisingWave's plan
orders it.

The stream planner rewrites such a LogicalLimit into a LogicalTopN ordered by the first
column of its input, ascending (or by nothing when the input has no column:
src/frontend/src/optimizer/plan_node/logical_limit.rs:121-145), and a TopN breaks ties by its
input's stream key: its state and cache are keyed by the order key followed by the stream key
(e2e_test/streaming/bug_fixes/limit_topn_tie_breaker.slt: "deterministic for ties by appending
the input stream key (PK/_row_id) as a tie-breaker").  PostgreSQL would keep whichever rows its
scan meets first, so the PostgreSQL text gets ``ORDER BY 1`` spliced before the LIMIT, and,
where the input is one table read as it is, its key after (its primary key, else its hidden
``_row_id``); elsewhere rows tied on the first column are PostgreSQL's pick (rwshim's limit:
the stream key of a join or of another view is not rebuilt here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.names import quote_ident as qi
from rwshim.dataplane.plan.splice import SpliceError, keyword_before

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter


def splice(rw: _Rewriter) -> None:
    if not rw.streaming:
        return
    for level in rw.shape.levels:
        node: dict[str, Any] = level.node
        if node.get("op", "SETOP_NONE") != "SETOP_NONE" or node.get("sortClause"):
            continue
        count, offset = node.get("limitCount"), node.get("limitOffset")
        if _is_null(count) and offset is None:
            continue  # LIMIT ALL / LIMIT NULL: no limit
        starts = []
        for expr, words in ((count, (b"LIMIT", b"FETCH")), (offset, (b"OFFSET",))):
            loc = _location(expr)
            if loc is None:
                continue
            starts.append(_keyword(rw.text, loc, words))
        if not starts or None in starts:
            continue
        keys = ["1"] if node.get("targetList") else []
        keys += _tie_break(rw, level, node)
        if keys:
            rw.sp.insert(min(s for s in starts if s is not None), f"ORDER BY {', '.join(keys)} ")


def _is_null(expr: Any) -> bool:
    return expr is None or bool((expr.get("A_Const") or {}).get("isnull"))


def _location(expr: Any) -> int | None:
    if not isinstance(expr, dict):
        return None
    for v in expr.values():
        if isinstance(v, dict) and isinstance(v.get("location"), int) and v["location"] >= 0:
            return int(v["location"])
    return None


def _keyword(text: bytes, pos: int, words: tuple[bytes, ...]) -> int | None:
    found = []
    for w in words:
        try:
            found.append(keyword_before(text, pos, w))
        except SpliceError:
            continue
    return max(found) if found else None  # the one nearest the expression


def _tie_break(rw: _Rewriter, level: tree.Level, node: dict[str, Any]) -> list[str]:
    """The input's stream key where the input is one table scanned as it is."""
    if any(node.get(k) for k in ("groupClause", "distinctClause", "havingClause")):
        return []
    return table_key(rw, level)


def table_key(rw: _Rewriter, level: tree.Level) -> list[str]:
    """The stream key of a query level's FROM, qualified, where it is one table read as it is
    (its primary key, else its hidden ``_row_id``); [] otherwise."""
    if len(level.items) != 1 or not isinstance(level.items[0], tree.RelRef):
        return []
    ref = level.items[0]
    if ref.cte is not None or ref.window or ref.colnames:
        return []
    rel = rw.routed.relation_of(ref)
    if not isinstance(rel, Relation) or rel.kind != RelKind.TABLE:
        return []
    key = list(rel.primary_key)
    if not key and any(c.hidden and c.name == "_row_id" for c in rel.columns):
        key = ["_row_id"]
    return [f"{qi(ref.exposed)}.{qi(k)}" for k in key]
