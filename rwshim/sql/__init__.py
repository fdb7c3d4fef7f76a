"""SQL front end: split, classify, pglast for PostgreSQL syntax, lark for grammar/, statements.

Entry points:
- ``parse(text) -> list[Statement]``: the one front door (cached by text); raises
  ``rwshim.errors.SqlParserError`` with RisingWave's parser text.
- ``rwshim.sql.statements``: the statement classes (``stmt.tag``, ``type(stmt).OWNER``),
  defined by family in ``rwshim.sql.ast``, built by ``pgparser`` (pglast) and ``builder`` (lark).
- ``table_schema(columns_text)``: columns, types, keys and watermarks of CREATE TABLE/SOURCE.
- ``check_with_options(stmt)``: RisingWave's WITH-clause check, run before a statement executes.
- ``supported_table()`` / ``render_supported_md()``: what SUPPORTED.md lists.
- ``lark_parser()`` / ``grammar_path()``: the grammar loader (built once, cached on disk).
"""

from typing import TYPE_CHECKING, Any

from rwshim.sql.columns import ColumnDef, TableSchema, table_schema
from rwshim.sql.parser import parse, parse_cache_clear
from rwshim.sql.supported import render_supported_md, supported_table
from rwshim.sql.with_options import check_with_options

if TYPE_CHECKING:
    from rwshim.sql.rwparser import grammar_path, lark_parser


def __getattr__(name: str) -> Any:
    # lark and the grammar load on first use (the first RisingWave-only statement), not at
    # import: a server answering only PostgreSQL syntax never pays for them.
    if name in ("grammar_path", "lark_parser"):
        from rwshim.sql import rwparser

        return getattr(rwparser, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ColumnDef",
    "TableSchema",
    "check_with_options",
    "grammar_path",
    "lark_parser",
    "parse",
    "parse_cache_clear",
    "render_supported_md",
    "supported_table",
    "table_schema",
]
