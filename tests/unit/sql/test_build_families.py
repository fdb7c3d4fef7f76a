"""Build (rwshim.sql.builder) is composed of one rule class per statement family: lark finds a
rule's method on whichever family defines it, so two families defining the same name would let
one silently shadow the other, and a method no grammar rule names would never run."""

from __future__ import annotations

import inspect

from rwshim.sql.builder import Build
from rwshim.sql.builder.base import BuildBase
from rwshim.sql.rwparser import lark_parser


def _families() -> list[type]:
    return [c for c in Build.__mro__ if issubclass(c, BuildBase) and c is not BuildBase]


def _methods(cls: type) -> list[str]:
    return [n for n, v in vars(cls).items() if inspect.isfunction(v)]


def test_no_two_families_define_the_same_method() -> None:
    owner: dict[str, str] = {}
    clashes = []
    for cls in [*_families(), BuildBase]:
        for n in _methods(cls):
            if n in owner:
                clashes.append(f"{n}: {owner[n]} and {cls.__name__}")
            owner[n] = cls.__name__
    assert clashes == []


def test_every_rule_method_names_a_grammar_rule() -> None:
    rules = set()
    for r in lark_parser().rules:
        rules.add(str(r.origin.name))
        if r.alias:
            rules.add(str(r.alias))
    orphans = [
        f"{cls.__name__}.{n}"
        for cls in _families()
        for n in _methods(cls)
        if not n.startswith("_") and n not in rules
    ]
    assert orphans == []
