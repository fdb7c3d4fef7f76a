"""RisingWave's unparser: the SQL text RisingWave stores as a relation's definition.

RisingWave stores a CREATE statement as the ``Display`` of its syntax tree
(``HandlerArgs::normalize_sql``, src/frontend/src/handler/mod.rs:246-302), not as typed: key
words upper-case, identifiers as written, its own spacing, ``::`` as ``CAST``, parentheses as
written, WITH options and types normalised.  This package reads statements as RisingWave's
parser does into its syntax tree (``nodes``; ``types``, ``exprs``, ``query``, ``ddl``) and prints
them as its Display does (``display``, ``ddl_display``); ``purify`` rebuilds a table's or
source's shown definition from its catalog columns.  ``rename`` rewrites definitions when a
relation is renamed (src/meta/src/controller/rename.rs) and ``bound`` keeps the query a
materialized view reads bound to relation ids across renames and moves.

Everything here is pure (no catalog, no I/O); the engine and the frontend call it.  The entry
points below import the parser on first use: building its syntax-tree classes costs more than
a server that never stores a definition should pay at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rwshim.sql.unparse.cursor import UnparseError, deep

if TYPE_CHECKING:
    from rwshim.sql.unparse import nodes
    from rwshim.sql.unparse.bound import Template, View


@deep
def parse_create(text: str) -> nodes.Statement:
    """The CREATE statement ``text`` as RisingWave's parser reads it."""
    from rwshim.sql.unparse.ddl import parse_create as parse

    return parse(text)


@deep
def normalized(stmt: nodes.Statement) -> str:
    """normalize_sql: the statement's Display with OR REPLACE and IF NOT EXISTS cleared."""
    from rwshim.sql.unparse.ddl_display import normalized as norm

    return norm(stmt)


def definition(text: str) -> str:
    """The definition RisingWave stores for the CREATE statement ``text``."""
    return normalized(parse_create(text))


@deep
def print_query(text: str) -> str:
    """A query as RisingWave prints it."""
    from rwshim.sql.unparse.query import print_query as pq

    return pq(text)


@deep
def query_of(stmt: nodes.CreateView) -> str:
    """The Display of a CREATE VIEW's query: a view's stored SQL
    (src/frontend/src/handler/create_view.rs:110)."""
    from rwshim.sql.unparse.display import query

    return query(stmt.query)


@deep
def view_sql(text: str) -> str:
    """A view's stored SQL from the CREATE VIEW statement ``text``."""
    from rwshim.sql.unparse import nodes

    stmt = parse_create(text)
    if not isinstance(stmt, nodes.CreateView):
        raise UnparseError("not a CREATE VIEW")
    return query_of(stmt)


@deep
def view_definition(schema: str, name: str, sql: str) -> str:
    """ViewCatalog::create_sql (src/frontend/src/catalog/view_catalog.rs:68-74): the schema
    only outside ``public``; names printed as they are, unquoted."""
    qualified = name if schema == "public" else f"{schema}.{name}"
    return f"CREATE VIEW {qualified} AS {sql}"


@deep
def rename_relation(definition: str, new_name: str) -> str:
    """alter_relation_rename (rename.rs:31-67)."""
    from rwshim.sql.unparse.rename import rename_relation as rr

    return rr(definition, new_name)


@deep
def rename_refs(definition: str, from_: str, to: str) -> str:
    """alter_relation_rename_refs (rename.rs:71-127)."""
    from rwshim.sql.unparse.rename import rename_refs as rr

    return rr(definition, from_, to)


@deep
def template(
    query_text: str,
    resolve: Callable[[list[str]], int | None],
    view_of: Callable[[int], View | None] | None = None,
) -> Template:
    """The read-query template of a materialized view's or sink's query (bound.py)."""
    from rwshim.sql.unparse.bound import template as tpl

    return tpl(query_text, resolve, view_of)


@deep
def render(
    template_json: str, locate: Callable[[int], tuple[str, str, str] | None], home: str
) -> str:
    """A stored template rendered with the current names of what it reads (bound.py)."""
    from rwshim.sql.unparse.bound import Template, render

    return render(Template.from_json(template_json), locate, home)


__all__ = [
    "UnparseError",
    "definition",
    "normalized",
    "parse_create",
    "print_query",
    "query_of",
    "rename_refs",
    "rename_relation",
    "render",
    "template",
    "view_definition",
    "view_sql",
]
