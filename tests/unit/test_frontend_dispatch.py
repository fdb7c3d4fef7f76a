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
