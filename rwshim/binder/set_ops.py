"""Set operations' RisingWave-only forms in the binder: ``CORRESPONDING [BY (cols)]``
(src/frontend/src/binder/set_expr.rs:232-318), over the marked wrappers rwshim.sql.corresponding
wrote."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from rwshim.binder.parse import ident
from rwshim.binder.resolve import Scope
from rwshim.errors import NotImplementedError_
from rwshim.sql import corresponding as corr

if TYPE_CHECKING:
    from rwshim.binder.binder import Binder


def corresponding(binder: Binder, node: exp.Expr, scope: Scope) -> None:
    """A CORRESPONDING set operation (rwshim.sql.corresponding's marked wrappers): both
    sides bound once on copies for their column names, RisingWave's checks
    (set_expr.rs:232-318), then each wrapper selects its corresponding columns."""
    left_sel, right_sel = node.this, node.expression
    mk = corr.marker(_from_alias(left_sel))
    if mk is None or not mk.left:
        return
    r_alias = _from_alias(right_sel)
    l_alias = _from_alias(left_sel)
    assert l_alias is not None and r_alias is not None
    by = [e.name for e in left_sel.expressions] if mk.by else None
    left = binder.query(left_sel.args["from_"].this.this.copy(), Scope(scope))
    right = binder.query(right_sel.args["from_"].this.this.copy(), Scope(scope))
    pairs = corr.mapping(mk.op, [c.name for c in left], [c.name for c in right], by)
    if any(r >= len(right) for _, r in pairs):
        raise NotImplementedError_(
            "not supported by rwshim: CORRESPONDING BY a column whose position in the left "
            "side the right side does not have"
        )
    left_sel.set(
        "expressions", [exp.column(ident(left[i].name), table=ident(l_alias)) for i, _ in pairs]
    )
    right_sel.set(
        "expressions",
        [exp.column(ident(right[r].name), table=ident(r_alias)) for _, r in pairs],
    )


def _from_alias(node: exp.Expr) -> str | None:
    """The alias of a SELECT's one FROM subquery (a CORRESPONDING wrapper's marker)."""
    if not isinstance(node, exp.Select) or node.args.get("joins"):
        return None
    frm = node.args.get("from_")
    sub = frm.this if frm is not None else None
    if not isinstance(sub, exp.Subquery):
        return None
    return sub.alias or None
