"""Parsing a query with sqlglot: PostgreSQL's dialect plus the forms RisingWave adds.

``parse`` reads one statement (PostgreSQL folds unquoted identifiers to lower case; a trailing
``EMIT ON WINDOW CLOSE``, RisingWave's streaming emit mode, is set aside), ``definition_query``
the query of a stored CREATE ... AS definition, and ``expr_text`` prints an expression as
RisingWave's Display does in error messages.  Nothing here knows which engine will run the
query.  (RisingWave parses with its own sqlparser, src/sqlparser/src/parser.rs; rwshim reads
statements with pglast and the lark grammar in rwshim/sql, and hands the query text to sqlglot
here, the AST the binder rewrites.)
"""

from __future__ import annotations

import re
from typing import Any

import sqlglot
from pglast.parser import scan as pg_scan
from sqlglot import exp

from rwshim.binder.rewrites import REWRITES, rewrite
from rwshim.errors import RwError
from rwshim.sql import session_frames
from rwshim.sql.cache import TextLRU

_EMIT_ON_CLOSE = re.compile(r"\s+EMIT\s+ON\s+WINDOW\s+CLOSE\s*;?\s*$", re.IGNORECASE)


# Parsed trees by text: sqlglot takes ~0.5 ms for a one-line query, a copy of its tree
# ~0.03 ms (a CREATE MATERIALIZED VIEW parses its query, a script re-run parses the same
# texts).  A tree is some 50 times the size of its text.
_TREES: TextLRU[exp.Expr] = TextLRU(16 * 1024 * 1024, factor=50)


def parse(sql: str) -> exp.Expr:
    """Parse one PostgreSQL-dialect statement with sqlglot; RwError on failure.  A trailing
    ``EMIT ON WINDOW CLOSE`` (RisingWave's streaming emit mode) does not change what a batch
    read of the query returns, so it is set aside.  The tree is the caller's to change (a
    copy of the cached one)."""
    # keyed by the rewrites registered too: registering only appends (rewrites.py)
    key = f"{len(REWRITES)}\0{sql}"
    return _TREES.get_or_make(key, lambda: _parse(sql)).copy()


def _parse(sql: str) -> exp.Expr:
    sql = _EMIT_ON_CLOSE.sub("", sql)
    sql = rewrite(sql)
    # a SESSION frame changes no type (the data plane computes it: sql/session_frames.py)
    sql = session_frames.blanked(sql)
    if ":" in sql:
        sql = wrap_scalar_as_agg(sql)
    try:
        trees = [t for t in sqlglot.parse(_space_params(sql), read=_dialect()) if t is not None]
    except sqlglot.errors.ParseError as e:
        detail = str(e.errors[0]["description"]) if e.errors else str(e)
        raise RwError("sql parser error: " + detail) from None
    except sqlglot.errors.TokenError as e:
        raise RwError("sql parser error: " + str(e)) from None
    if len(trees) != 1:
        raise RwError("sql parser error: expected exactly one statement")
    tree = trees[0]
    # PostgreSQL folds unquoted identifiers to lower case
    for name in tree.find_all(exp.Identifier):
        if not name.quoted and isinstance(name.this, str):
            name.set("this", name.this.lower())
    return tree


def _space_params(sql: str) -> str:
    """``$1,$2`` with a space after each parameter: sqlglot reads ``$1,$`` as the opening tag of
    a dollar-quoted string (PostgreSQL's tags cannot start with a digit). pglast's scanner finds
    the parameters, so string literals and dollar-quoted bodies are left alone."""
    if "$" not in sql:
        return sql
    try:
        tokens = pg_scan(sql)
    except Exception:  # the statement's own parse reports what is wrong with it
        return sql
    # pglast's offsets count characters; ``end`` is inclusive
    cuts = [
        t.end + 1
        for t in tokens
        if t.name == "PARAM" and t.end + 1 < len(sql) and not sql[t.end + 1].isspace()
    ]
    if not cuts:
        return sql
    return " ".join(sql[a:b] for a, b in zip([0, *cuts], [*cuts, len(sql)], strict=True))


_DIALECT: sqlglot.Dialect | None = None


def _dialect() -> sqlglot.Dialect:
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
    if node.find(exp.Boolean, exp.ByteString, exp.Cast) is not None:
        node = node.copy()
        # RisingWave prints booleans in lower case and an E'...' string as ``E'<raw>'``
        # (ast/value.rs:67-68); sqlglot prints ``TRUE`` and ``e'...'``
        for b in list(node.find_all(exp.Boolean)):
            b.replace(exp.Var(this="true" if b.this else "false"))
        for e in list(node.find_all(exp.ByteString)):
            text = e.sql(dialect="postgres")
            if text[:2] == "e'":
                e.replace(exp.Var(this="E" + text[1:]))
        # A cast becomes its printed text, innermost first: a cast whose type were a bare
        # name would make sqlglot's generator fail where it types the cast (ROUND(x::numeric,
        # 1) does, to pick its form).
        for c in reversed(list(node.find_all(exp.Cast))):
            inner = c.this.sql(dialect="postgres", normalize_functions="lower")
            text = f"CAST({inner} AS {rw_type_text(c.args['to'])})"
            if c is node:
                return text
            c.replace(exp.Var(this=text))
    return node.sql(dialect="postgres", normalize_functions="lower")


# sqlglot's type names -> RisingWave's DataType Display (sqlparser/src/ast/data_type.rs:73-131)
_RW_TYPE_TEXT = {
    "VARCHAR": "CHARACTER VARYING",
    "DOUBLE": "DOUBLE",
    "FLOAT": "REAL",
    "DECIMAL": "NUMERIC",
    "TIMETZ": "TIME WITH TIME ZONE",
    "TIMESTAMPTZ": "TIMESTAMP WITH TIME ZONE",
    "VARBINARY": "BYTEA",
}


def rw_type_text(dt_node: exp.Expr) -> str:
    """A cast's type as RisingWave's AST prints it (a custom name as written)."""
    if isinstance(dt_node, exp.ObjectIdentifier):
        name = dt_node.name
        return name.upper() if name.lower() in ("regclass", "regproc") else name.lower()
    if not isinstance(dt_node, exp.DataType):
        return dt_node.sql(dialect="postgres")
    kind = dt_node.this
    if kind == exp.DataType.Type.ARRAY and dt_node.expressions:
        return rw_type_text(dt_node.expressions[0]) + "[]"
    if kind == exp.DataType.Type.USERDEFINED:
        ref = dt_node.args.get("kind")
        return ref.sql(dialect="postgres") if isinstance(ref, exp.Expr) else str(ref)
    key = kind.name if isinstance(kind, exp.DataType.Type) else str(kind)
    params = ",".join(p.name for p in dt_node.expressions)
    if key in ("FLOAT", "DOUBLE") and params:
        return f"FLOAT({params})"
    text = _RW_TYPE_TEXT.get(key, key)
    return f"{text}({params})" if params else text


def param_number(node: exp.Expr | None) -> int | None:
    """``n`` of a ``$n`` parameter node, else None."""
    if isinstance(node, exp.Parameter):
        inner = node.this
        try:
            return int(inner.name if isinstance(inner, exp.Expr) else str(inner))
        except ValueError:
            return None
    if isinstance(node, exp.Placeholder) and node.name.isdigit():
        return int(node.name)
    return None


# --- building nodes ------------------------------------------------------------------------


def ident(name: str) -> exp.Identifier:
    """A quoted identifier (the name exactly as given)."""
    return exp.to_identifier(name, quoted=True)


def lit_str(s: str) -> exp.Literal:
    return exp.Literal.string(s)


def lit_int(n: int) -> exp.Expr:
    return exp.Literal.number(n) if n >= 0 else exp.Neg(this=exp.Literal.number(-n))


def func_call(name: str, *args: exp.Expr) -> exp.Anonymous:
    """A call of function ``name`` as written (no sqlglot function class)."""
    return exp.Anonymous(this=name, expressions=list(args))


_SCALAR_AS_AGG = re.compile(r"(?i)\baggregate\s*:\s*(?=[A-Za-z_\"])")


def wrap_scalar_as_agg(sql: str) -> str:
    """``aggregate:f(args [ORDER BY ...])`` as ``f(array_agg(args [ORDER BY ...]))``: the
    scalar function applied to the array of the group's values (binder/expr/function/
    mod.rs:243-256, AggType::WrapScalar over array_agg)."""
    out = sql
    for m in reversed(list(_SCALAR_AS_AGG.finditer(sql))):
        if _in_literal(sql, m.start()):
            continue
        open_at = sql.find("(", m.end())
        close_at = _closing(sql, open_at) if open_at >= 0 else -1
        if close_at < 0:
            continue
        out = (
            out[: m.start()]
            + sql[m.end() : open_at + 1]
            + "array_agg("
            + sql[open_at + 1 : close_at]
            + ")"
            + out[close_at:]
        )
    return out


def _in_literal(sql: str, pos: int) -> bool:
    return sql.count("'", 0, pos) % 2 == 1


def _closing(sql: str, open_at: int) -> int:
    depth, i, quote = 0, open_at, ""
    while i < len(sql):
        c = sql[i]
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1
