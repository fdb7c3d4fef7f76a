"""``* EXCEPT (cols)`` / ``t.* EXCEPT (cols)`` in the binder: the star's columns without
those the EXCEPT list names (RisingWave's binder/select.rs bind_wildcard and
generate_except_indices: each name is bound as an expression over the FROM clause, an input
ref whose index leaves the expansion).  The data plane's text does the same on PostgreSQL
(plan/rewrite.check_excludes); this is what a materialized view's catalog columns are made
from, which kept every column before."""

from __future__ import annotations

from typing import Any

from sqlglot import exp

from rwshim.binder.resolve import Scope
from rwshim.errors import BindExprError, InternalError, ItemNotFound


def apply(star: exp.Expr, scope: Scope, expanded: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """``expanded`` ((source, column) pairs of the star) without the EXCEPT list's columns."""
    inner = star.this if isinstance(star, exp.Column) else star
    excl = inner.args.get("except_") if isinstance(inner, exp.Star) else None
    if not excl:
        return expanded
    drop: set[tuple[int, str]] = set()
    for e in excl:
        if not isinstance(e, exp.Column):
            continue
        name, table = e.name, e.table
        found = [
            src
            for src in scope.sources
            if (not table or src.alias == table) and any(c.name == name for c in src.columns)
        ]
        if not found:
            raise BindExprError(e.sql(), ItemNotFound(f"Invalid column: {name}"))
        if len(found) > 1 and not table and name not in scope.using:
            raise InternalError(f"Ambiguous column name: {name}")
        drop.update((id(src), name) for src in found)
    return [(src, c) for src, c in expanded if (id(src), c.name) not in drop]
