"""Qualified names: how many dotted parts a name may have and which database it may name (a
leaf module: the frontend, the engine, the read path and the data plane all resolve names).

The rules of RisingWave's binder (src/frontend/src/binder/relation/mod.rs:211-330), in one
place for every path that resolves a name (DDL and the catalog path in the frontend, the read
path and the data plane for queries):

- ``resolve_schema_qualified_name``: DDL, DML targets, SHOW/DESCRIBE, GRANT, ... take
  ``[db.][schema.]name`` where a database, if named, must be the session's;
- ``validate_cross_db_reference``: the same check without splitting (DESCRIBE);
- ``resolve_db_schema_qualified_name``: a relation a query reads (FROM, JOIN, CREATE SINK
  FROM) may name another database: ``(db, schema, name)``.

More than three parts is ``improper qualified name (too many dotted names): <name>`` and a
foreign database where it is not allowed ``cross-database references are not implemented:
"<name>"``, both ``Invalid input syntax`` (ResolveQualifiedNameError into RwError,
mod.rs:246-250).  Parts are folded identifiers; the name prints as ObjectName's Display.
"""

from __future__ import annotations

from collections.abc import Sequence

from rwshim.errors import InvalidInputSyntax, Uncategorized
from rwshim.lazy import lazy_pattern

_PLAIN_IDENT = lazy_pattern(r"[a-z_][a-z0-9_$]*")


def quote_ident(name: str) -> str:
    """An identifier as RisingWave's Ident prints it: quoted unless plain lower case."""
    if _PLAIN_IDENT.fullmatch(name):
        return name
    return '"' + name.replace('"', '""') + '"'


def display_name(parts: Sequence[str]) -> str:
    """ObjectName's Display: dotted, each part quoted when needed."""
    return ".".join(quote_ident(p) for p in parts)


def _too_long(parts: Sequence[str]) -> InvalidInputSyntax:
    return InvalidInputSyntax(
        f"improper qualified name (too many dotted names): {display_name(parts)}"
    )


def _cross_db(parts: Sequence[str]) -> InvalidInputSyntax:
    return InvalidInputSyntax(
        f'cross-database references are not implemented: "{display_name(parts)}"'
    )


def resolve_schema_qualified_name(db_name: str, parts: Sequence[str]) -> tuple[str | None, str]:
    """(schema or None, name) of ``[db.][schema.]name`` in the session's database ``db_name``
    (mod.rs:255-284)."""
    if len(parts) > 3:
        raise _too_long(parts)
    if len(parts) == 3 and parts[0] != db_name:
        raise _cross_db(parts)
    return (parts[-2] if len(parts) >= 2 else None), parts[-1]


def validate_cross_db_reference(db_name: str, parts: Sequence[str]) -> None:
    """The checks of ``resolve_schema_qualified_name`` alone (mod.rs:286-309)."""
    resolve_schema_qualified_name(db_name, parts)


def resolve_db_schema_qualified_name(
    parts: Sequence[str],
) -> tuple[str | None, str | None, str]:
    """(database or None, schema or None, name) of a relation a query reads (mod.rs:311-330):
    any database may be named."""
    if len(parts) > 3:
        raise _too_long(parts)
    return (
        parts[-3] if len(parts) >= 3 else None,
        parts[-2] if len(parts) >= 2 else None,
        parts[-1],
    )


def resolve_single_name(parts: Sequence[str], what: str) -> str:
    """A name that must be one identifier (mod.rs resolve_single_name: a database, schema,
    user, ... name): ``<what> must contain 1 argument`` otherwise (a ``bail!``)."""
    if len(parts) > 1:
        raise Uncategorized(f"{what} must contain 1 argument")
    return parts[-1]
