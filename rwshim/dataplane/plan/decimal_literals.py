"""Number literals RisingWave's binder cannot hold: an integer past ``bigint`` that is no
rust_decimal either, or a scientific number beyond its 28 fractional digits or 96-bit
mantissa (``1e-1000``, ``1e1000``), is ``Number <text> overflows``
(src/frontend/src/binder/expr/value.rs:57-89 bind_number: i32, i64,
``Decimal::from_str_radix``, ``Decimal::from_scientific``, else the BindError), under the
expression's bind error.  PostgreSQL's numeric would take them.

It reads only PostgreSQL's float constants (``FCONST``), which stay in the skeleton of a
shared plan (sql/literals.py shares only int4 literals), so no plan sharing depends on them.
The check registers with ``checks.register`` (imported by ``checks`` itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from rwshim.binder.relations import RelColumn
from rwshim.dataplane.plan import checks, tree
from rwshim.errors import BindError, BindExprError
from rwshim.wire import codec_rwtext

# rust_decimal's largest mantissa (src/common/src/types/decimal.rs over rust_decimal)
_MAX = 2**96 - 1


def fits(text: str) -> bool:
    """Whether bind_number takes the literal ``text`` (PostgreSQL's float constant)."""
    s = text.lower()
    if "e" in s:
        try:
            codec_rwtext._from_scientific(s)  # Decimal::from_scientific's limits
        except (ValueError, InvalidOperation):
            return False
        return True
    try:
        return abs(int(Decimal(s))) <= _MAX  # from_str_radix: a whole part of 96 bits
    except (ValueError, InvalidOperation):
        return True  # not a number PostgreSQL gave: left to it


@checks.register
def _number_literals(shape: tree.Shape, _cols: Sequence[RelColumn] | None) -> None:
    # the binder meets the literals in the order of the text (an operator binds its left
    # operand first): the first one that does not fit is the one named
    failing = []
    for const in checks.nodes(shape, "A_Const"):
        fval = const.get("fval")
        if not isinstance(fval, dict):
            continue
        text = str(fval.get("fval", ""))
        if not fits(text):
            failing.append((int(const.get("location", 0) or 0), text))
    if failing:
        text = min(failing)[1]
        raise BindExprError(text, BindError(f"Number {text} overflows"))
