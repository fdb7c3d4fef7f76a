"""Read path: parsing, name resolution, typing and binding of queries and DML, catalog relations,
and the engine they are lowered to and run on (today SQLite: ``query/sqlite/``).

Public API (the session calls these):

- ``QueryEngine(conn, relations, *, version=None, clock=None)`` over the store's connection;
  ``describe``, ``execute``, ``analyze``, ``check_mv_columns``, ``invalidate``,
  ``take_settings``.
- ``QueryContext`` (who/where/settings of one statement) and ``parse_search_path``.
- ``StoreRelations(conn)``: the ``RelationSource`` over the meta store's tables.
"""

from __future__ import annotations

from rwshim.query.context import QueryContext, parse_search_path
from rwshim.query.engine import Analysis, Description, QueryEngine
from rwshim.query.functions import version_string
from rwshim.query.relations import Relation, RelationSource, RelColumn, RelKind
from rwshim.query.store_source import StoreRelations

__all__ = [
    "Analysis",
    "Description",
    "QueryContext",
    "QueryEngine",
    "RelColumn",
    "RelKind",
    "Relation",
    "RelationSource",
    "StoreRelations",
    "parse_search_path",
    "version_string",
]
