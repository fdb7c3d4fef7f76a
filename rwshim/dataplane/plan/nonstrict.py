"""A streaming job's query made non-strict: where RisingWave's streaming executors give NULL
for an expression that fails on a row, the materialized view's PostgreSQL query calls rwfn's
wrappers (sqlfn/nonstrict.py) instead of raising.

RisingWave builds every streaming expression non-strict (``build_non_strict_from_prost``:
project, filter, join conditions, hop window, project set, ...; the rule in
``src/expr/core/src/expr/wrapper/non_strict.rs:61-157``): the failing node's value is NULL,
its parent is evaluated with it, a filter whose predicate is NULL drops the row; the error is
logged (``src/stream/src/executor/actor.rs:162-174``).  A batch query stays strict
(``batch_expr_strict_mode``, session_config/mod.rs:158-162): only a materialized view's query
goes through here.  Aggregate state updates are strict in RisingWave too
(``src/stream/src/executor/aggregate/agg_state.rs:105-116``) and are left alone.

Covered: ``/`` and ``%`` (division by zero, overflow), ``+ - *`` of integers (overflow), a
cast of a non-constant to a scalar type (``'two'::int``, out of range), the scalar functions of
``FAILING`` (NULL) and the table functions of ``FAILING_SETS`` (no rows for that input row, as
RisingWave's ProjectSet, src/stream/src/executor/project/project_set.rs:186-215); another expression
that fails on a row fails the barrier's refresh of the view, which keeps its last state and
logs the error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from pglast import ast, parse_sql, visitors
from pglast.enums import A_Expr_Kind
from pglast.stream import RawStream

from rwshim.dataplane.plan.errors import PgError, map_error
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA
from rwshim.dataplane.plan.sqlfn.common import EXPR_ERROR
from rwshim.dataplane.plan.sqlfn.nonstrict import CAST_TYPES, FAILING, FAILING_SETS
from rwshim.errors import RwError

if TYPE_CHECKING:
    from rwshim.dataplane.plan.ddl import PgObject

log = logging.getLogger("rwshim.datapath")

_OPS = {"/": "ns_div", "%": "ns_mod", "+": "ns_add", "-": "ns_sub", "*": "ns_mul"}
# ``+ - *`` resolve by their operands' types (sqlfn/nonstrict.py has one function per operator):
# an operand of no type yet (a string literal, NULL) is resolved by a rule operators have and
# functions lack, so such an expression stays as written
_BY_TYPES = frozenset({"+", "-", "*"})


def _untyped(node: Any) -> bool:
    return isinstance(node, ast.A_Const) and (node.isnull or isinstance(node.val, ast.String))


_MAX_PASSES = 64


class _Wrap(visitors.Visitor):
    """One pass: the outermost nodes to wrap are replaced (their arguments, next pass)."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = False

    def _call(self, name: str, *args: Any) -> ast.FuncCall:
        self.changed = True
        return ast.FuncCall(
            funcname=(ast.String(FUNCTION_SCHEMA), ast.String(name)),
            args=args,
            funcformat=0,
        )

    def visit_A_Expr(self, ancestors: Any, node: ast.A_Expr) -> Any:
        if (
            node.kind == A_Expr_Kind.AEXPR_OP
            and node.name is not None
            and len(node.name) == 1
            and node.name[0].sval in _OPS
            and node.lexpr is not None
            and node.rexpr is not None
            and not (
                node.name[0].sval in _BY_TYPES and (_untyped(node.lexpr) or _untyped(node.rexpr))
            )
        ):
            return self._call(_OPS[node.name[0].sval], node.lexpr, node.rexpr)
        return None

    def visit_FuncCall(self, ancestors: Any, node: ast.FuncCall) -> Any:
        names: Any = node.funcname or ()
        parts = [n.sval for n in names]
        if (
            node.over is not None
            or node.agg_star
            or node.agg_distinct
            or node.agg_order
            or node.agg_filter
            or not node.args
            or not parts
            or parts[-1] not in FAILING + FAILING_SETS
            or (len(parts) == 2 and parts[0] not in ("pg_catalog", FUNCTION_SCHEMA))
            or len(parts) > 2
        ):
            return None
        kind = "ns_srf" if parts[-1] in FAILING_SETS else "ns_fn"
        return self._call(f"{kind}_{parts[-1]}", *node.args)

    def visit_TypeCast(self, ancestors: Any, node: ast.TypeCast) -> Any:
        tn = node.typeName
        parts = [n.sval for n in tn.names or ()] if tn is not None else []
        if (
            tn is None
            or isinstance(node.arg, ast.A_Const)
            or tn.typmods
            or tn.arrayBounds
            or not parts
            or parts[-1] not in CAST_TYPES
            or (len(parts) == 2 and parts[0] != "pg_catalog")
            or len(parts) > 2
        ):
            return None
        return self._call(f"ns_cast_{parts[-1]}", node.arg)


def query(text: str) -> str:
    """``text`` (one SELECT, PostgreSQL's) with its failing expressions made to give NULL;
    ``text`` itself when nothing is to wrap or it cannot be printed again."""
    if not any(c in text for c in "/%+-*:(") and "CAST" not in text.upper():
        return text
    try:
        tree = parse_sql(text)
        changed = False
        for _ in range(_MAX_PASSES):
            wrap = _Wrap()
            wrap(tree)
            if not wrap.changed:
                break
            changed = True
        if not changed:
            return text
        out: str = RawStream()(tree)
    except Exception as e:  # pglast cannot print it back: the strict query stays
        log.warning("non-strict rewrite of a materialized view's query: %s", e)
        return text
    return out


def apply_error(
    error: PgError,
    todo: list[PgObject],
    names_of: Callable[[Iterable[int]], Callable[[int], str | None]],
) -> RwError:
    """The error of making these objects.  A materialized view's state that failed on a row
    with an expression error RisingWave's streaming evaluation turns into NULL (rwshim covers
    the forms of the module docstring only) is refused clearly rather than with the
    batch error, which RisingWave never shows for a streaming job."""
    name_of = names_of([o.relation_id for o in todo])
    states = [str(name_of(o.relation_id)) for o in todo if o.kind == "state"]
    if not states or not (error.sqlstate.startswith("22") or error.sqlstate == EXPR_ERROR):
        return map_error(error, name_of)
    detail = str(map_error(error, name_of)).strip().replace("\n", " ")
    return RwError(
        f"not supported by rwshim: an expression of materialized view {', '.join(states)}"
        f" failed on a row ({detail}); RisingWave's streaming evaluation gives NULL there,"
        " rwshim does so for /, %, integer + - *, casts and some functions only"
    )
