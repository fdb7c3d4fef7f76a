"""``SqliteLowering``: the ``Lowering`` (rwshim/binder/lowering.py) of the catalog path: SQLite.

One object per statement: the statement half (``lower_query.SqliteQueries``: relations, FROM
items, set-returning functions, DISTINCT ON, ordering, the final text) and the scalar half
(``lower_expr.SqliteExprs``: casts, operators, functions, aggregates) over one connection's
registered functions.
"""

from __future__ import annotations

from rwshim.catalog_path.sqlite.lower_expr import SqliteExprs
from rwshim.catalog_path.sqlite.lower_query import SqliteQueries


class SqliteLowering(SqliteQueries, SqliteExprs):
    """Lowers one bound statement to SQLite."""

    def __init__(self, functions: frozenset[str] | None = None) -> None:
        SqliteQueries.__init__(self)
        SqliteExprs.__init__(self, functions)
