"""sqlglot in and out: PostgreSQL text to a tree, type names to OIDs, trees to SQLite text.

``parse`` reads one statement with PostgreSQL's dialect (plus ``::oid[]``-style array casts
sqlglot lacks) and folds unquoted identifiers to lower case as PostgreSQL does; ``to_sqlite``
prints a rewritten tree and refuses constructs SQLite cannot express instead of dropping them.
"""

from __future__ import annotations

import re
from typing import Any

import sqlglot
from sqlglot import exp

from rwshim import pgtypes
from rwshim.errors import (
    RwError,
)
from rwshim.query import types

_EMIT_ON_CLOSE = re.compile(r"\s+EMIT\s+ON\s+WINDOW\s+CLOSE\s*;?\s*$", re.IGNORECASE)


def parse(sql: str) -> exp.Expr:
    """Parse one PostgreSQL-dialect statement with sqlglot; RwError on failure.  A trailing
    ``EMIT ON WINDOW CLOSE`` (RisingWave's streaming emit mode) does not change what a batch
    read of the query returns, so it is set aside."""
    sql = _EMIT_ON_CLOSE.sub("", sql)
    try:
        trees = [t for t in sqlglot.parse(sql, read=dialect()) if t is not None]
    except sqlglot.errors.ParseError as e:
        detail = str(e.errors[0]["description"]) if e.errors else str(e)
        raise RwError("sql parser error: " + detail) from None
    if len(trees) != 1:
        raise RwError("sql parser error: expected exactly one statement")
    tree = trees[0]
    # PostgreSQL folds unquoted identifiers to lower case
    for ident in tree.find_all(exp.Identifier):
        if not ident.quoted and isinstance(ident.this, str):
            ident.set("this", ident.this.lower())
    return tree


_DIALECT: sqlglot.Dialect | None = None


def dialect() -> sqlglot.Dialect:
    """PostgreSQL as sqlglot reads it, plus ``::oid[]``/``::regtype[]`` array casts."""
    global _DIALECT
    if _DIALECT is None:
        from sqlglot.dialects.postgres import Postgres
        from sqlglot.tokenizer_core import TokenType

        base: Any = Postgres.Parser

        class _Parser(base):  # type: ignore[misc]
            def _parse_types(self, *args: object, **kwargs: object) -> exp.Expr | None:
                t = super()._parse_types(*args, **kwargs)
                if (
                    isinstance(t, exp.ObjectIdentifier)
                    and self._curr is not None
                    and self._curr.token_type == TokenType.L_BRACKET
                    and self._next is not None
                    and self._next.token_type == TokenType.R_BRACKET
                ):
                    self._advance(2)
                    return exp.DataType(
                        this=exp.DataType.Type.ARRAY,
                        expressions=[exp.DataType.build(t.name.lower(), udt=True)],
                        nested=True,
                    )
                return t if isinstance(t, exp.Expr) else None

        class RwPostgres(Postgres):
            Parser = _Parser

        _DIALECT = RwPostgres()
    return _DIALECT


def type_oid_of(dt_node: exp.Expr) -> int:
    """The internal OID a sqlglot type node denotes."""
    if isinstance(dt_node, exp.ObjectIdentifier):
        return types.NAME_TO_OID.get(dt_node.name.lower(), pgtypes.VARCHAR)
    if isinstance(dt_node, exp.DataType):
        if dt_node.is_type(exp.DataType.Type.ARRAY) and dt_node.expressions:
            return types.array_of(type_oid_of(dt_node.expressions[0]))
        if dt_node.this == exp.DataType.Type.USERDEFINED:
            kind = dt_node.args.get("kind")
            name = (kind.name if isinstance(kind, exp.Expr) else str(kind or "")).lower()
            if name == "char":  # "char" quoted
                return pgtypes.VARCHAR
            return types.NAME_TO_OID.get(name.removeprefix("pg_catalog."), pgtypes.VARCHAR)
        name = dt_node.this.name.lower() if hasattr(dt_node.this, "name") else str(dt_node.this)
        return _SQLGLOT_TYPES.get(name, types.NAME_TO_OID.get(name, pgtypes.VARCHAR))
    return pgtypes.VARCHAR


_SQLGLOT_TYPES: dict[str, int] = {
    "boolean": pgtypes.BOOL,
    "smallint": pgtypes.INT2,
    "int": pgtypes.INT4,
    "bigint": pgtypes.INT8,
    "float": pgtypes.FLOAT4,
    "double": pgtypes.FLOAT8,
    "decimal": pgtypes.NUMERIC,
    "varchar": pgtypes.VARCHAR,
    "text": pgtypes.VARCHAR,
    "char": pgtypes.VARCHAR,
    "nchar": pgtypes.VARCHAR,
    "nvarchar": pgtypes.VARCHAR,
    "name": pgtypes.VARCHAR,
    "varbinary": pgtypes.BYTEA,
    "binary": pgtypes.BYTEA,
    "date": pgtypes.DATE,
    "time": pgtypes.TIME,
    "timestamp": pgtypes.TIMESTAMP,
    "timestamptz": pgtypes.TIMESTAMPTZ,
    "interval": pgtypes.INTERVAL,
    "json": pgtypes.JSONB,
    "jsonb": pgtypes.JSONB,
    "uuid": pgtypes.VARCHAR,
    "bigdecimal": pgtypes.NUMERIC,
    "money": pgtypes.NUMERIC,
    "tinyint": pgtypes.INT2,
    "smallserial": pgtypes.INT2,
    "serial": pgtypes.INT4,
    "bigserial": pgtypes.INT8,
    "timestampntz": pgtypes.TIMESTAMP,
}


def to_sqlite(node: exp.Expr) -> str:
    """SQLite text of a rewritten tree; a construct SQLite cannot express is an error rather
    than silently dropped (sqlglot's default is to warn and drop it)."""
    return node.sql(dialect="sqlite", unsupported_level=sqlglot.ErrorLevel.RAISE)


def definition_query(definition: str) -> exp.Expr:
    """The query of a stored definition (``CREATE MATERIALIZED VIEW .. AS <q>`` or ``<q>``)."""
    tree = parse(definition)
    if isinstance(tree, exp.Create):
        q = tree.expression
        if not isinstance(q, exp.Expr):
            raise RwError(f"definition without a query: {definition}")
        return q
    return tree


def expr_text(node: exp.Expr) -> str:
    """An expression as RisingWave's Display prints it in error messages (close to its SQL)."""
    return node.sql(dialect="postgres", normalize_functions="lower")
