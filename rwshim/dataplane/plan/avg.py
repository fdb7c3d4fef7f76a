"""``avg`` as RisingWave computes it: ``sum(x)`` cast to the result type over ``count(x)``.

RisingWave's planner rewrites every ``avg`` (group aggregates and window calls alike) to
``CASE WHEN count(x) = 0 THEN NULL ELSE sum(x)::<avg's type> / count(x) END``
(src/frontend/src/optimizer/plan_node/logical_agg.rs:624-660 ``general_rewrite_agg_call``,
shared with LogicalOverWindowBuilder), so the ``avg`` of an integer or a decimal is a decimal
division, rust_decimal's digits (``6221.50`` where PostgreSQL's avg answers
``6221.5000000000000000``).

The PostgreSQL text of a statement gets each ``avg(args) [FILTER (...)] [OVER ...]`` spliced
to ``rwfn.avg(avg(args) ..., sum(args) ..., count(args) ...)`` (the same modifiers on each
call; PostgreSQL's avg first, so that an argument of a type avg does not take is still
reported for ``avg``).  PostgreSQL picks ``rwfn.avg``'s overload by the types it resolved
(sqlfn/decimal_div.py): for ``sum`` bigint or numeric and ``avg`` numeric (an integer or a
decimal argument) it divides as RisingWave's decimal does; for any other type (a float, an
interval, rw_int256) it answers PostgreSQL's ``avg`` itself, the first argument.  The name
stays ``avg``, so an unaliased column is still named ``avg``.  The aggregates share their state
where PostgreSQL can (``sum`` and ``avg`` of a bigint or numeric run one transition), and the
division runs once per group.

It runs on the final PostgreSQL text (its own parse), after every other splice: no other edit
can overlap it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from rwshim.dataplane.plan.checks import walk
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA
from rwshim.dataplane.plan.splice import SpliceError, Splicer, call_args, name_end

_AVG = re.compile(rb"(?i)\bavg\b")
# whitespace and comments between the parts of a call
_GAP = re.compile(rb"(?:\s+|--[^\n]*(?:\n|$)|/\*(?:[^*]|\*(?!/))*\*/)*")
_WORD = re.compile(rb"[A-Za-z_]+")


def rewrite(text: str) -> str:
    """``text`` (one statement, PostgreSQL's) with its ``avg`` calls made RisingWave's; the
    same text when it has none."""
    raw = text.encode()
    if _AVG.search(raw) is None:
        return text
    from pglast.parser import ParseError, parse_sql_json

    try:
        tree = json.loads(parse_sql_json(text))
    except ParseError:
        return text  # PostgreSQL reports it
    # the PostgreSQL avg already inside an rwfn.avg (a text rewritten before: an inlined
    # view's) stays as it is
    done = {
        id(c["args"][0].get("FuncCall"))
        for c in walk(tree, "FuncCall")
        if _names(c) == [FUNCTION_SCHEMA, "avg"] and len(c.get("args") or ()) == 3
    }
    calls = [c for c in walk(tree, "FuncCall") if _is_avg(c) and id(c) not in done]
    if not calls:
        return text
    sp = Splicer(raw)
    # innermost first: an avg inside another's arguments or clauses is rebuilt before it
    for call in sorted(calls, key=lambda c: c["location"], reverse=True):
        start = call["location"]
        parts = len(call["funcname"])
        after_name = name_end(raw, start, parts)
        end = _call_end(raw, start, call)

        def build(after_name: int = after_name, end: int = end) -> str:
            rest = sp.section(after_name, end)
            return f"{FUNCTION_SCHEMA}.avg(avg{rest}, sum{rest}, count{rest})"

        sp.replace_around(start, end, build)
    return sp.result()


def _names(call: dict[str, Any]) -> list[str | None]:
    return [n.get("String", {}).get("sval") for n in call.get("funcname") or ()]


def _is_avg(call: dict[str, Any]) -> bool:
    names = _names(call)
    return (
        bool(names)
        and names[-1] == "avg"
        and (len(names) == 1 or names[:-1] == ["pg_catalog"])
        and len(call.get("args") or ()) == 1
        and not call.get("agg_star")
        and not call.get("agg_within_group")
        and not call.get("func_variadic")
        and isinstance(call.get("location"), int)
    )


def _skip_gap(raw: bytes, pos: int) -> int:
    m = _GAP.match(raw, pos)
    return m.end() if m is not None else pos


def _keyword(raw: bytes, pos: int, word: bytes) -> int:
    """The offset after ``word`` (a keyword, any case) at ``pos`` past whitespace."""
    pos = _skip_gap(raw, pos)
    m = _WORD.match(raw, pos)
    if m is None or m.group(0).upper() != word:
        raise SpliceError(f"no {word.decode()} at {pos}")
    return _skip_gap(raw, m.end())


def _call_end(raw: bytes, start: int, call: dict[str, Any]) -> int:
    """End offset of the call with its ``FILTER (WHERE ...)`` and ``OVER ...`` clauses."""
    end, _ = call_args(raw, start)
    if call.get("agg_filter") is not None:
        end, _ = call_args(raw, _keyword(raw, end, b"FILTER"))
    if call.get("over") is not None:
        pos = _keyword(raw, end, b"OVER")
        if raw[pos : pos + 1] == b"(":
            end, _ = call_args(raw, pos)
        else:
            end = name_end(raw, pos, 1)  # a named window
    return end
