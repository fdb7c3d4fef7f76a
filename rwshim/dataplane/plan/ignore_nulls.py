"""``first_value(x IGNORE NULLS) OVER (...)`` / ``last_value(x IGNORE NULLS) OVER (...)`` on
PostgreSQL, and RisingWave's refusals of ``IGNORE NULLS`` elsewhere.

RisingWave's parser takes ``IGNORE NULLS`` at the end of any argument list (parser.rs:
6083-6090, parse_argument_list); its binder allows it only in a window call of first_value /
last_value (binder/expr/function/window.rs:86-103): ``lag`` / ``lead`` are not implemented
yet, any other window function is ``not allowed``, and a call without OVER is refused
(binder/expr/function/mod.rs:338-341). The pre-pass blanked the words (plan/prepass); here the
call gets a marker argument, ``first_value(x, 'ignore_nulls'::rwfn.ignore_nulls)``, whose
aggregate (sqlfn/aggregates.py) skips NULL inputs over the window frame; the result column is
still named ``first_value``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.binder.binder_checks import ignore_nulls_window
from rwshim.dataplane.plan import tree
from rwshim.dataplane.plan.checks import walk
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA
from rwshim.dataplane.plan.splice import SpliceError, call_args
from rwshim.errors import InvalidInputSyntax

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter

MARKER = f", 'ignore_nulls'::{FUNCTION_SCHEMA}.ignore_nulls"


def splice(rw: _Rewriter) -> None:
    spans = rw.routed.prepassed.ignore_nulls
    if not spans:
        return
    calls = sorted(walk(rw.shape.node, "FuncCall"), key=lambda c: c.get("location", -1))
    for start, end in spans:
        call = _enclosing(rw.text, calls, start)
        if call is None:  # pragma: no cover - the pre-pass saw a call's parenthesis
            raise InvalidInputSyntax(
                "`IGNORE NULLS` is not allowed in aggregate/scalar/table function call"
            )
        check(call)
        rw.sp.replace(start, end, MARKER)


def check(call: tree.Node) -> None:
    """RisingWave's rules for a call written with IGNORE NULLS (window.rs:86-103,
    function/mod.rs:338-341)."""
    if call.get("over") is None:
        raise InvalidInputSyntax(
            "`IGNORE NULLS` is not allowed in aggregate/scalar/table function call"
        )
    ignore_nulls_window(tree._names(call.get("funcname"))[-1].lower())


def _enclosing(text: bytes, calls: list[tree.Node], at: int) -> tree.Node | None:
    """The innermost call whose argument list holds byte offset ``at``."""
    best = None
    for c in calls:
        loc = c.get("location", -1)
        if loc < 0 or loc >= at:
            continue
        try:
            end, _ = call_args(text, loc)
        except SpliceError:
            continue
        if end > at:
            best = c
    return best
