"""A module that imports on first attribute access, for start-up: a server answers its first
``SELECT 1`` without the modules only DDL, EXPLAIN or a catalog rewrite need (issue 16).

Usage (mypy sees the real module)::

    if TYPE_CHECKING:
        from rwshim.sql.unparse import nodes as n
    else:
        n = lazy_module("rwshim.sql.unparse.nodes")

Unlike ``importlib.util.LazyLoader`` nothing enters ``sys.modules`` until the first use, so a
test can tell from ``sys.modules`` what start-up really imported.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


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
