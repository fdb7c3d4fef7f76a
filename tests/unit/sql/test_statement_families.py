"""The statement families of rwshim.sql.ast export what they define, and
rwshim.sql.statements (the import surface every caller uses as ``st``) re-exports all of it."""

from __future__ import annotations

import sys

from rwshim.sql import statements as st
from rwshim.sql.ast import base


def test_each_family_exports_every_public_class_it_defines() -> None:
    missing = []
    for family in (base, *st._FAMILIES):
        defined = {
            n
            for n, obj in vars(family).items()
            if isinstance(obj, type) and obj.__module__ == family.__name__ and n[0] != "_"
        }
        missing += [f"{family.__name__}.{n}" for n in sorted(defined - set(family.__all__))]
    assert missing == []


def test_the_import_surface_reexports_every_family() -> None:
    for family in (base, *st._FAMILIES):
        for n in family.__all__:
            assert getattr(st, n) is getattr(family, n), f"st.{n} is not {family.__name__}.{n}"


def test_every_statement_subclass_is_in_a_listed_family() -> None:
    # A family module left out of _FAMILIES would drop its statements from SUPPORTED.md.
    seen: set[type[st.Statement]] = set()
    todo = [st.Statement]
    while todo:
        for sub in todo.pop().__subclasses__():
            seen.add(sub)
            todo.append(sub)
    # slots=True dataclasses replace the class they decorate: keep the one its module binds.
    public = {
        c
        for c in seen
        if c.__module__.startswith("rwshim.")
        and vars(sys.modules[c.__module__]).get(c.__name__) is c
        and not c.__name__.startswith("_")
    }
    classes = st.all_statement_classes()
    assert len(classes) == len(set(classes))
    assert public == set(classes)
