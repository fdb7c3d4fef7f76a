"""SQL front end: split, classify, pglast for PostgreSQL syntax, lark for grammar/, statements.

The one entry point is ``parse(text) -> list[Statement]``; statement classes live in
``rwshim.sql.statements``; ``supported_table()`` lists what is recognised (SUPPORTED.md).
"""

from rwshim.sql.parser import parse, parse_cache_clear
from rwshim.sql.rwparser import grammar_path, lark_parser

__all__ = ["grammar_path", "lark_parser", "parse", "parse_cache_clear"]
