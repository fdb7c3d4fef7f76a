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

from typing import TYPE_CHECKING

from rwshim.sql.parser import parse, parse_cache_clear
from rwshim.sql.with_options import check_with_options

# Names whose modules load on first use, not at import: lark and the grammar with the first
# RisingWave-only statement (a server answering only PostgreSQL syntax never pays for them),
# the column reader with the first CREATE TABLE / SOURCE, SUPPORTED.md's table when asked.
if TYPE_CHECKING:
    from rwshim.sql.columns import ColumnDef, TableSchema, table_schema
    from rwshim.sql.rwparser import grammar_path, lark_parser
    from rwshim.sql.supported import render_supported_md, supported_table
else:
    from rwshim.lazy import lazy_attributes

    __getattr__ = lazy_attributes(
        __name__,
        {
            "grammar_path": "rwshim.sql.rwparser",
            "lark_parser": "rwshim.sql.rwparser",
            "ColumnDef": "rwshim.sql.columns",
            "TableSchema": "rwshim.sql.columns",
            "table_schema": "rwshim.sql.columns",
            "render_supported_md": "rwshim.sql.supported",
            "supported_table": "rwshim.sql.supported",
        },
    )

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
