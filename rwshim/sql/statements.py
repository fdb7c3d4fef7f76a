"""The typed statements' import surface: every statement class as ``st.<Name>``.

The classes live by family in ``rwshim.sql.ast`` (after RisingWave's src/sqlparser/src/ast/:
mod.rs, ddl.rs, statement.rs, query.rs, value.rs); this module re-exports them so callers write
``from rwshim.sql import statements as st`` and need not know which family a statement is in.
``all_statement_classes()`` lists them in the order SUPPORTED.md shows.
"""

from __future__ import annotations

from rwshim.sql import ast as _ast
from rwshim.sql.ast.alter import *  # noqa: F403
from rwshim.sql.ast.alter import _ALTER_TAGS as _ALTER_TAGS
from rwshim.sql.ast.alter import _AlterObject as _AlterObject
from rwshim.sql.ast.base import *  # noqa: F403
from rwshim.sql.ast.base import Statement
from rwshim.sql.ast.control import *  # noqa: F403
from rwshim.sql.ast.create import *  # noqa: F403
from rwshim.sql.ast.drop_grant import *  # noqa: F403
from rwshim.sql.ast.drop_grant import _DROP_TAGS as _DROP_TAGS
from rwshim.sql.ast.jobs import *  # noqa: F403
from rwshim.sql.ast.maintenance import *  # noqa: F403
from rwshim.sql.ast.query import *  # noqa: F403
from rwshim.sql.ast.session import *  # noqa: F403
from rwshim.sql.ast.show import *  # noqa: F403

# The families in the order SUPPORTED.md lists them (the order of the one module they came from).
_FAMILIES = (
    _ast.query,
    _ast.session,
    _ast.show,
    _ast.jobs,
    _ast.alter,
    _ast.create,
    _ast.drop_grant,
    _ast.maintenance,
    _ast.control,
)


def all_statement_classes() -> list[type[Statement]]:
    """Every concrete statement class: family by family, each in definition order."""
    out: list[type[Statement]] = []
    for family in _FAMILIES:
        for obj in vars(family).values():
            if (
                isinstance(obj, type)
                and issubclass(obj, Statement)
                and obj.__module__ == family.__name__
                and not obj.__name__.startswith("_")
            ):
                out.append(obj)
    return out
