"""The frontend's handler modules (rwshim/frontend/) split RisingWave's statement families
between them: each statement class has exactly one handler, and the static table the frontend
dispatches by (rwshim/frontend/dispatch.py, so that a module loads on its first statement)
says which."""

from __future__ import annotations

import pkgutil
from collections import Counter

from rwshim import frontend
from rwshim.control import statements as control
from rwshim.frontend import dispatch
from rwshim.sql import statements as st


def control_classes() -> set[type]:
    return set(control.handlers(type("F", (), {"instance": None})()))


def test_each_statement_class_has_one_handler_module() -> None:
    owners = Counter(cls for m in dispatch.handler_modules() for cls in m.HANDLERS)
    assert [cls.__name__ for cls, n in owners.items() if n > 1] == []
    assert sorted(c.__name__ for c in control_classes() & set(owners)) == []
    # the frontend sends a control statement to rwshim.control.statements by its OWNER
    assert {c for c in st.all_statement_classes() if c.OWNER == "control"} == control_classes()


def test_the_dispatch_table_is_the_union_of_the_handlers() -> None:
    want = {
        cls.__name__: m.__name__.rsplit(".", 1)[1]
        for m in dispatch.handler_modules()
        for cls in m.HANDLERS
    }
    assert want == dispatch.MODULE_OF
    # a handler module is a module of rwshim/frontend/ with HANDLERS, and each is listed
    with_handlers = {
        info.name
        for info in pkgutil.iter_modules(frontend.__path__)
        if hasattr(dispatch.module(info.name), "HANDLERS")
    }
    assert sorted(with_handlers) == sorted(dispatch.MODULES)


def test_supported_status_matches_the_handlers() -> None:
    """SUPPORTED.md's status: a kind said implemented or refused as RisingWave has a handler;
    a kind without one is listed as not yet implemented."""
    from rwshim.sql.supported import NOT_YET, status_of

    handled = {cls for m in dispatch.handler_modules() for cls in m.HANDLERS}
    handled |= control_classes()
    wrong = []
    for cls in st.all_statement_classes():
        status, _ = status_of(cls)
        if (status == NOT_YET) == (cls in handled):
            wrong.append(f"{cls.__name__}: {status}, handler: {cls in handled}")
    assert wrong == []
