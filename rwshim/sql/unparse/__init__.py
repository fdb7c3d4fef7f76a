"""RisingWave's unparser: the SQL text RisingWave stores as a relation's definition.

RisingWave stores a CREATE statement as the ``Display`` of its syntax tree
(``HandlerArgs::normalize_sql``, src/frontend/src/handler/mod.rs:246-302), not as typed: key
words upper-case, identifiers as written, its own spacing, ``::`` as ``CAST``, parentheses as
written, WITH options and types normalised.  This package reads statements as RisingWave's
parser does into its syntax tree (``nodes``; ``types``, ``exprs``, ``query``, ``ddl``) and prints
them as its Display does (``display``, ``ddl_display``).  ``rename`` rewrites definitions when a
relation is renamed (src/meta/src/controller/rename.rs) and ``bound`` keeps the query a
materialized view reads bound to relation ids across renames and moves.

Everything here is pure (no catalog, no I/O); the engine and the frontend call it.
"""

from __future__ import annotations

from rwshim.sql.unparse import display as _display
from rwshim.sql.unparse import nodes
from rwshim.sql.unparse.bound import Template, render, template
from rwshim.sql.unparse.cursor import UnparseError
from rwshim.sql.unparse.ddl import parse_create
from rwshim.sql.unparse.ddl_display import normalized, statement
from rwshim.sql.unparse.query import print_query
from rwshim.sql.unparse.rename import rename_refs, rename_relation


def definition(text: str) -> str:
    """The definition RisingWave stores for the CREATE statement ``text``."""
    return normalized(parse_create(text))


def view_sql(text: str) -> str:
    """A view's stored SQL: the Display of the query of CREATE VIEW ``text``
    (src/frontend/src/handler/create_view.rs:110)."""
    stmt = parse_create(text)
    if not isinstance(stmt, nodes.CreateView):
        raise UnparseError("not a CREATE VIEW")
    return _display.query(stmt.query)


def view_definition(schema: str, name: str, sql: str) -> str:
    """ViewCatalog::create_sql (src/frontend/src/catalog/view_catalog.rs:68-74): the schema
    only outside ``public``; names printed as they are, unquoted."""
    qualified = name if schema == "public" else f"{schema}.{name}"
    return f"CREATE VIEW {qualified} AS {sql}"


def quote_ident(value: str) -> str:
    """QuoteIdent (src/sqlparser/src/quote_ident.rs)."""
    return _display.quote_ident(value)


__all__ = [
    "Template",
    "UnparseError",
    "definition",
    "parse_create",
    "print_query",
    "quote_ident",
    "rename_refs",
    "rename_relation",
    "render",
    "statement",
    "template",
    "view_definition",
    "view_sql",
]
