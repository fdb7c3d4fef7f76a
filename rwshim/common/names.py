"""Identifiers and qualified names: how RisingWave quotes a name, prints an ``ObjectName``,
and which dotted names it accepts (a leaf module: the parser, the unparser, the frontend, the
engine, the catalog path and the data plane all print or resolve names; this is the one place
for those rules).

Quoting (src/sqlparser/src/quote_ident.rs, ast/mod.rs:165-250, tokenizer.rs:192-203). RisingWave
has two rules, and a third follows from rwshim keeping parsed names folded:

- ``quote_ident``: ``QuoteIdent``, for a name made from a catalog value (``Ident::from_real_value``,
  ``ObjectName`` built with ``.into()``, a struct field in a type's Display, the SQL function
  ``quote_ident``): plain when ``[a-z_][a-z0-9_]*`` and no keyword of RisingWave's
  ``ALL_KEYWORDS`` (rwshim.common.keywords_generated), otherwise double-quoted.
  (SHOW's Name column is such an ObjectName in RisingWave, show.rs with_schema_name; rwshim
  prints it with ``display_name``, as its tests pin: catalog_path/system_catalogs/show.py.)
- ``quoted``: the Display of an identifier written in double quotes (``Ident`` and the
  tokenizer's ``Word`` with ``quote_style '"'``), embedded quotes doubled; also what rwshim uses
  for a name in SQL it writes for itself to read again (a rendered template, a catalog query),
  where always quoting is the safe spelling.
- ``display_name``: the Display of a name the user wrote (``ObjectName`` as parsed: each part as
  written).  rwshim keeps parsed names folded (rwshim.sql.ast.base.ObjectName), so a part that
  an unquoted identifier could have produced (tokenizer.rs:1045-1055, lower-cased) prints
  plain and any other part quoted; an unquoted ``Foo`` prints ``foo`` where RisingWave keeps
  the spelling ``Foo``.

PostgreSQL-side quoting of the data plane's physical names is PostgreSQL's, not RisingWave's,
and lives with them (rwshim.dataplane.plan.names.quote_ident).

Qualified names (src/frontend/src/binder/relation/mod.rs:211-340): DDL, DML targets,
SHOW/DESCRIBE, GRANT, ... take ``[db.][schema.]name`` where a database, if named, must be the
session's (``resolve_schema_qualified_name``).  More than three parts is ``improper qualified
name (too many dotted names): <name>`` and a foreign database ``cross-database references are
not implemented: "<name>"``, both ``Invalid input syntax`` (ResolveQualifiedNameError into
RwError, mod.rs:246-250), ``<name>`` the ObjectName's Display.  A relation a query reads may
name any database: the data plane and the binder resolve those parts themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from rwshim.errors import InvalidInputSyntax, Uncategorized
from rwshim.lazy import lazy_pattern

# quote_ident.rs is_simple_identifier: ASCII lower case, digits and '_' ('$' is not simple)
_SIMPLE_IDENT = lazy_pattern(r"[a-z_][a-z0-9_]*")
# what an unquoted identifier folds to (tokenizer.rs is_identifier_start / is_identifier_part)
_UNQUOTED_IDENT = lazy_pattern(r"[a-z_][a-z0-9_$]*")
_KEYWORDS: frozenset[str] | None = None


def _keywords() -> frozenset[str]:
    # loaded on the first name that needs the check (the list is not needed to start up)
    global _KEYWORDS
    if _KEYWORDS is None:
        from rwshim.common.keywords_generated import ALL_KEYWORDS

        _KEYWORDS = ALL_KEYWORDS
    return _KEYWORDS


def quoted(name: str) -> str:
    """``name`` in double quotes, embedded quotes doubled (Ident's Display, quote style ``"``)."""
    return '"' + name.replace('"', '""') + '"'


def needs_quotes(name: str) -> bool:
    """QuoteIdent::needs_quotes: not a simple identifier, or a keyword."""
    return not _SIMPLE_IDENT.fullmatch(name) or name.upper() in _keywords()


def quote_ident(name: str) -> str:
    """RisingWave's QuoteIdent (quote_ident.rs): plain unless ``needs_quotes``."""
    return quoted(name) if needs_quotes(name) else name


def display_name(parts: Sequence[str]) -> str:
    """The Display of an ObjectName the user wrote, from its folded parts (module docstring)."""
    return ".".join(p if _UNQUOTED_IDENT.fullmatch(p) else quoted(p) for p in parts)


def too_many_dotted_names(shown: str) -> InvalidInputSyntax:
    """ResolveQualifiedNameErrorKind::QualifiedNameTooLong for the name printed as ``shown``."""
    return InvalidInputSyntax(f"improper qualified name (too many dotted names): {shown}")


def cross_database(shown: str) -> InvalidInputSyntax:
    """ResolveQualifiedNameErrorKind::NotCurrentDatabase for the name printed as ``shown``."""
    return InvalidInputSyntax(f'cross-database references are not implemented: "{shown}"')


def resolve_schema_qualified_name(db_name: str, parts: Sequence[str]) -> tuple[str | None, str]:
    """(schema or None, name) of ``[db.][schema.]name`` in the session's database ``db_name``
    (mod.rs:255-284)."""
    if len(parts) > 3:
        raise too_many_dotted_names(display_name(parts))
    if len(parts) == 3 and parts[0] != db_name:
        raise cross_database(display_name(parts))
    return (parts[-2] if len(parts) >= 2 else None), parts[-1]


def resolve_single_name(parts: Sequence[str], what: str) -> str:
    """A name that must be one identifier (mod.rs resolve_single_name: a database, schema,
    user, ... name): ``<what> must contain 1 argument`` otherwise (a ``bail!``)."""
    if len(parts) > 1:
        raise Uncategorized(f"{what} must contain 1 argument")
    return parts[-1]


def postgres_cdc_table_name(name: str) -> tuple[str, str]:
    """parse_postgres_cdc_external_table_name (src/frontend/src/handler/create_table.rs:
    1115-1186 at 448c657): ``schema.table``, each part optionally double-quoted (``""`` a quote
    inside).  ValueError(RisingWave's text) when the name is not two parts."""
    bad = f"Invalid Postgres CDC table name '{name}'. Expected 'schema.table'."
    parts: list[str] = []
    current = ""
    in_quote = closed = False
    i = 0
    while i < len(name):
        ch = name[i]
        i += 1
        if in_quote:
            if ch == '"':
                if name[i : i + 1] == '"':
                    current += '"'
                    i += 1
                else:
                    in_quote, closed = False, True
            else:
                current += ch
        elif ch == ".":
            if not current:
                raise ValueError(bad)
            parts.append(current)
            current, closed = "", False
        elif ch == '"' and not current:
            in_quote = True
        elif ch == '"' or closed:
            raise ValueError(bad)
        else:
            current += ch
    if in_quote or not current:
        raise ValueError(bad)
    parts.append(current)
    if len(parts) != 2:
        raise ValueError(
            "The upstream table name must contain schema name prefix, e.g. 'public.table'"
        )
    return parts[0], parts[1]
