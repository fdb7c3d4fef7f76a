"""Imports on first use, for start-up: a server answers its first ``SELECT 1`` without the
modules only DDL, EXPLAIN or a catalog rewrite need (issue 16).

A module that imports on first attribute access (mypy sees the real module)::

    if TYPE_CHECKING:
        from rwshim.sql.unparse import nodes as n
    else:
        n = lazy_module("rwshim.sql.unparse.nodes")

Unlike ``importlib.util.LazyLoader`` nothing enters ``sys.modules`` until the first use, so a
test can tell from ``sys.modules`` what start-up really imported.

A package's names that load from their modules on first read (PEP 562), mypy seeing the
imports and no ``__getattr__`` (so a misspelt name is still an error)::

    if TYPE_CHECKING:
        from rwshim.config import Config
    else:
        __getattr__ = lazy_attributes(__name__, {"Config": "rwshim.config"})

A regular expression compiled on first use, for one a hot path calls but start-up never does
(a plain pattern text given to ``re.match`` & co. compiles on first use too, but every call
then pays ``re``'s cache look-up, ~0.3-0.6 us)::

    _PLAIN_IDENT = lazy_pattern(r"[a-z_][a-z0-9_$]*")
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, cast


class _LazyModule(ModuleType):
    """Stands for the module ``__name__`` until an attribute is read, then forwards to it."""

    def __getattr__(self, name: str) -> Any:
        # Only called for names this proxy lacks: every attribute of the real module.
        mod = importlib.import_module(self.__name__)
        value = getattr(mod, name)
        setattr(self, name, value)
        return value


def lazy_module(name: str) -> ModuleType:
    """A stand-in for module ``name`` (dotted, absolute) that imports it when first used."""
    return _LazyModule(name)


def lazy_attributes(
    module: str, homes: Mapping[str, str], package: str = ""
) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for ``module``: name ``x`` is read from module
    ``package + homes[x]``, imported then, and kept in ``module`` (the next read is a plain
    attribute)."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(package + home), name)
        setattr(sys.modules[module], name, value)
        return value

    return __getattr__


class _LazyPattern:
    """Stands for ``re.compile(pattern, flags)`` until a method is read; each method read then
    becomes this object's own attribute (the compiled pattern's bound method), so later calls
    cost what the compiled pattern's do."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        # Only called for names not yet kept; re's cache makes the second name's compile a
        # look-up.
        value = getattr(re.compile(*self._args), name)
        setattr(self, name, value)
        return value


def lazy_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, compiled when first used.  Only its attributes work
    (``.match``, ``.fullmatch``, ``.pattern``, ...): not ``isinstance(p, re.Pattern)``, nor
    ``re.sub(p, ...)``."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))
