"""Where ``now()`` may appear in a streaming query (a materialized view's or a sink's).

RisingWave's binder tracks the clause it binds in (``src/frontend/src/binder/bind_context.rs``
``Clause``: Where, Values, GroupBy, JoinOn, Having, Filter, From, ...) and, for a streaming
query, allows ``now()`` only in ``WHERE``, ``HAVING``, ``ON`` and ``FROM``
(``src/frontend/src/binder/expr/function/builtin_scalar.rs:869-893``,
``ensure_now_function_allowed``); the select list binds with no clause (``None``), an
aggregate's ``FILTER`` with ``Some(Filter)`` (``binder/expr/function/aggregate.rs:68``),
``GROUP BY`` with ``Some(GroupBy)``.  The error is raised while binding the root expression,
so ``Failed to bind expression: <root>`` wraps it
(``src/frontend/planner_test/tests/testdata/output/expr.yaml:536-554``).
"""

from __future__ import annotations

import sqlglot.expressions as exp

from rwshim.binder.binder_checks import is_now
from rwshim.binder.parse import expr_text, parse
from rwshim.errors import BindExprError, InvalidInputSyntax

_MESSAGE = (
    "For streaming queries, `NOW()` function is only allowed in `WHERE`, `HAVING`, `ON` and "
    "`FROM`. Found in clause: {clause}. Please refer to "
    "https://docs.risingwave.com/processing/sql/temporal-filters for more information"
)


def _display(node: exp.Expr) -> str:
    """The root expression as RisingWave's Display prints it (``now()``, not sqlglot's
    CURRENT_TIMESTAMP)."""
    from rwshim.sql import unparse

    if is_now(node):
        return "now()"
    copy = node.copy()
    for n in list(copy.find_all(exp.CurrentTimestamp)):
        n.replace(exp.Anonymous(this="now", expressions=[]))
    text = expr_text(copy)
    try:
        return unparse.print_query(f"SELECT {text}").removeprefix("SELECT ")
    except unparse.UnparseError:
        return text


def _refuse(root: exp.Expr, clause: str) -> BindExprError:
    return BindExprError(_display(root), InvalidInputSyntax(_MESSAGE.format(clause=clause)))


def _has_now(node: exp.Expr | None) -> bool:
    if node is None:
        return False
    return any(is_now(n) for n in node.walk() if isinstance(n, exp.Expr))


def _check_select(sel: exp.Select) -> None:
    # RisingWave binds FROM, WHERE, GROUP BY, HAVING, then the select list (select.rs)
    for item in sel.expressions:
        root = item.this if isinstance(item, exp.Alias) else item
        for f in root.find_all(exp.Filter):
            if _has_now(f.expression):
                raise _refuse(root, "Some(Filter)")
        if _has_now(root):
            raise _refuse(root, "None")
    group = sel.args.get("group")
    if group is not None:
        for g in group.expressions:
            if _has_now(g):
                raise _refuse(g, "Some(GroupBy)")
    order = sel.args.get("order")
    if order is not None:
        for o in order.expressions:
            if _has_now(o):
                raise _refuse(o.this if isinstance(o, exp.Ordered) else o, "None")


def check(query_text: str) -> None:
    """Raise RisingWave's error when a streaming query calls ``now()`` outside ``WHERE``,
    ``HAVING``, ``ON`` and ``FROM`` (every SELECT of the query, subqueries included)."""
    if "now" not in query_text.lower() and "current_timestamp" not in query_text.lower():
        return
    tree = parse(query_text)
    for sel in tree.find_all(exp.Select):
        _check_select(sel)
