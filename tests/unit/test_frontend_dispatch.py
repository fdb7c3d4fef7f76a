"""The frontend's handler modules (rwshim/frontend/) split RisingWave's statement families
between them: each statement class has exactly one handler."""

from __future__ import annotations

from collections import Counter

from rwshim import control
from rwshim.frontend.frontend import HANDLER_MODULES


def test_each_statement_class_has_one_handler_module() -> None:
    owners = Counter(cls for m in HANDLER_MODULES for cls in m.HANDLERS)
    control_classes = set(control.handlers(type("F", (), {"instance": None})()))
    assert [cls.__name__ for cls, n in owners.items() if n > 1] == []
    assert sorted(c.__name__ for c in control_classes & set(owners)) == []


def test_supported_status_matches_the_handlers() -> None:
    """SUPPORTED.md's status: a kind said implemented or refused as RisingWave has a handler;
    a kind without one is listed as not yet implemented."""
    from rwshim.sql import statements as st
    from rwshim.sql.supported import NOT_YET, status_of

    handled = {cls for m in HANDLER_MODULES for cls in m.HANDLERS}
    handled |= set(control.handlers(type("F", (), {"instance": None})()))
    wrong = []
    for cls in st.all_statement_classes():
        status, _ = status_of(cls)
        if (status == NOT_YET) == (cls in handled):
            wrong.append(f"{cls.__name__}: {status}, handler: {cls in handled}")
    assert wrong == []
