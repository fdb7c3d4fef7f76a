"""``aggregate:f(args)`` on PostgreSQL: ``f(array_agg(args))``, the scalar function applied to
the array of the group's values (src/frontend/src/binder/expr/function/mod.rs:203-256,
AggType::WrapScalar over the group's array).  The pre-pass (plan/prepass) blanked
``aggregate:`` and kept each call's offset."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rwshim.dataplane.plan.splice import call_args

if TYPE_CHECKING:
    from rwshim.dataplane.plan.rewrite import _Rewriter


def splice(rw: _Rewriter) -> None:
    for at in rw.routed.prepassed.scalar_as_agg:
        end, _ = call_args(rw.text, at)
        rw.sp.insert(rw.text.index(b"(", at) + 1, "array_agg(")
        rw.sp.insert(end - 1, ")")
