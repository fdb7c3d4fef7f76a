"""Scopes of a query being bound: the FROM items and their columns, and column lookup.

``lookup`` resolves a column in one scope as RisingWave's BindContext does
(src/frontend/src/binder/bind_context.rs:160-270, 430-490), with its error texts.  Small
constructors of sqlglot nodes used by the rewrites live here too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sqlglot import exp

from rwshim import pgtypes
from rwshim.errors import (
    InternalError,
    InvalidReference,
    ItemNotFound,
)

UNKNOWN = pgtypes.UNKNOWN


@dataclass(frozen=True, slots=True)
class OutColumn:
    name: str
    type_oid: int  # internal OID; types.external() gives what a client sees


@dataclass(frozen=True, slots=True)
class SystemRelation:
    """A catalog relation: its SQLite view name and typed columns."""

    schema: str
    name: str
    sqlite_name: str
    columns: tuple[OutColumn, ...]


@dataclass(slots=True)
class Source:
    """One FROM item visible in a scope: exposed name and columns."""

    alias: str
    columns: list[OutColumn]
    schema: str | None = None  # for schema-qualified column references
    # columns exposed under another name than the SQLite column (json_each's value/key)
    refs: dict[str, Callable[[], exp.Expr]] = field(default_factory=dict)

    def ref(self, name: str) -> exp.Expr:
        """The SQLite expression reading column ``name`` of this source."""
        make = self.refs.get(name)
        if make is not None:
            return make()
        return exp.Column(this=ident(name), table=ident(self.alias))


@dataclass(slots=True)
class Scope:
    parent: Scope | None
    ctes: dict[str, list[OutColumn]] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    outputs: list[OutColumn] = field(default_factory=list)  # for ORDER BY / GROUP BY aliases
    # USING / NATURAL join columns: name -> alias of the left source that provides it
    using: dict[str, str] = field(default_factory=dict)

    def find_cte(self, name: str) -> list[OutColumn] | None:
        s: Scope | None = self
        while s is not None:
            if name in s.ctes:
                return s.ctes[name]
            s = s.parent
        return None


def lit_str(s: str) -> exp.Literal:
    return exp.Literal.string(s)


def lit_int(n: int) -> exp.Expr:
    return exp.Literal.number(n) if n >= 0 else exp.Neg(this=exp.Literal.number(-n))


def call(name: str, *args: exp.Expr) -> exp.Anonymous:
    return exp.Anonymous(this=name, expressions=list(args))


def cast_call(node: exp.Expr, from_oid: int, to_oid: int) -> exp.Expr:
    return call("rw_cast", node, lit_int(from_oid), lit_int(to_oid))


def ident(name: str) -> exp.Identifier:
    return exp.to_identifier(name, quoted=True)


def literal_default(oid: int) -> int:
    return pgtypes.VARCHAR if oid == UNKNOWN else oid


def rename(cols: list[OutColumn], names: list[str]) -> list[OutColumn]:
    if not names:
        return list(cols)
    out = [OutColumn(n, c.type_oid) for c, n in zip(cols, names, strict=False)]
    out.extend(cols[len(names) :])
    return out


def rename_outputs(q: exp.Expr, names: list[str]) -> None:
    """Give a bound query's outputs the names ``names`` (SQLite names derived tables' columns
    after the first SELECT of a set operation)."""
    while isinstance(q, (exp.Union, exp.Except, exp.Intersect, exp.Subquery)):
        q = q.this
    if isinstance(q, exp.Select):
        for item, n in zip(q.expressions, names, strict=False):
            if isinstance(item, exp.Alias):
                item.set("alias", ident(n))


def lookup(
    scope: Scope, schema: str | None, table: str | None, name: str
) -> tuple[Source, OutColumn]:
    """Resolve a column in one scope as RisingWave's BindContext does."""
    if table is not None:
        matches = [
            s
            for s in scope.sources
            if s.alias == table and (schema is None or s.schema in (None, schema))
        ]
        if not matches:
            if not any(c.name == name for s in scope.sources for c in s.columns):
                raise ItemNotFound(f"Invalid column: {name}")
            raise ItemNotFound(f'missing FROM-clause entry for table "{table}"')
        if len(matches) > 1:
            raise InvalidReference(f'table reference "{table}" is ambiguous')
        src = matches[0]
        cols = [c for c in src.columns if c.name == name]
        if not cols:
            if not any(c.name == name for s in scope.sources for c in s.columns):
                raise ItemNotFound(f"Invalid column: {name}")
            raise ItemNotFound(f'missing FROM-clause entry for table "{table}"')
        if len(cols) > 1:
            raise InvalidReference(f'column reference "{name}" is ambiguous')
        return src, cols[0]
    found = [(s, c) for s in scope.sources for c in s.columns if c.name == name]
    if not found:
        raise ItemNotFound(f"Invalid column: {name}")
    if name in scope.using:
        # a USING/NATURAL join column: one column, taken from the left side
        return next(f for f in found if f[0].alias == scope.using[name])
    if len(found) > 1:
        raise InternalError(f"Ambiguous column name: {name}")
    return found[0]
