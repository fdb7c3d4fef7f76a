"""The boundary between the binder and SQLite for the catalog path: ``Lowering``.

The binder (binder.py, bind_expr.py, bind_func.py, bind_catalog.py) does what RisingWave's
binder does and nothing engine-specific: it resolves names (resolve.py), types every expression
(type_inference.py), applies RisingWave's rules and raises RisingWave's texts, and rewrites what
is RisingWave's own (catalog relations, reg* casts, TUMBLE/HOP, materialized views read as their
defining query).  Whenever a construct has to take a form only the executing engine knows (a
parameter marker, a boolean literal, a cast, checked integer arithmetic, a set-returning
function, the final SQL text), it asks its Lowering.  The binder hands over bound, typed
pieces; a Lowering returns the node that replaces them and never changes a type, a name or an
error.

The one implementation is ``catalog_path/sqlite/`` (``SqliteLowering``): the catalog path runs
constant and catalog queries on the meta store's SQLite with rwshim's registered helper
functions.  User data is on the PostgreSQL data plane, which routes and splices PostgreSQL's
own parse tree (rwshim/dataplane/plan) and never lowers through here; the binder still binds
statements that read user relations (RisingWave's error texts for the data plane, CREATE
MATERIALIZED VIEW's analysis), and ``user_relation`` gives such a relation a FROM item that
holds no rows.  The trees the binder produces are otherwise PostgreSQL-valid: derived tables
carry aliases, and the outputs of a derived table with a column alias list are renamed in
place.

One Lowering object serves one statement (``begin`` may collect state, ``finish`` uses it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from sqlglot import exp

    from rwshim.binder.relations import Relation
    from rwshim.binder.resolve import SystemRelation


class QueryLowering(Protocol):
    """The statement and FROM-item side: relations, set-returning functions, ordering."""

    # the sqlglot dialect a lowered tree prints in
    dialect: str

    def normalize(self, tree: exp.Expr) -> exp.Expr:
        """A parsed statement in the form the engine takes it, before binding (the same
        query)."""
        ...

    def begin(self, tree: exp.Expr) -> None:
        """A top-level query is about to be bound."""
        ...

    def finish(self, tree: exp.Expr) -> str:
        """The engine's text of the bound top-level query (with what ``begin`` collected)."""
        ...

    def render(self, node: exp.Expr) -> str:
        """The engine's text of one bound node (an expression, a FROM item, a query)."""
        ...

    def system_relation(self, rel: SystemRelation, alias: str, in_from: bool) -> exp.Expr:
        """The FROM item reading catalog relation ``rel`` under ``alias`` (``in_from``: it
        is a FROM or JOIN item, not a relation named elsewhere)."""
        ...

    def user_relation(self, rel: Relation, alias: str) -> exp.Expr:
        """The FROM item standing for user relation ``rel`` (a table or a source) under
        ``alias``: its visible columns and no rows (user rows are on the data plane; a
        statement that reads them is refused before it runs here)."""
        ...

    def relation_columns(
        self, item: exp.Expr, alias: str, columns: list[str], names: list[str]
    ) -> exp.Expr:
        """FROM item ``item`` (aliased ``alias``, columns ``columns``) with its columns
        exposed as ``names`` (an alias column list ``AS alias(names)``)."""
        ...

    def values_relation(self, values: exp.Values, alias: str, names: list[str]) -> exp.Expr:
        """A bound VALUES list in FROM, exposing columns ``names`` under ``alias``."""
        ...

    def series_relation(
        self, args: list[exp.Expr], column: str, alias: str, exclusive: bool = False
    ) -> exp.Expr:
        """``generate_series(args)`` in FROM, its one column named ``column``; ``exclusive``:
        ``range(args)``, which stops before the end (table_function/generate_series.rs)."""
        ...

    def unnest_relation(
        self, array: exp.Expr, alias: str
    ) -> tuple[exp.Expr, Callable[[], exp.Expr], Callable[[], exp.Expr]]:
        """``unnest(array)`` in FROM (it may read the FROM items before it, as LATERAL):
        the FROM item, and makers of the expressions reading its element and its 1-based
        ordinality."""
        ...

    def srf(self, select: exp.Select, name: str, args: list[exp.Expr], alias: str) -> exp.Expr:
        """One set-returning function (unnest, generate_series, generate_subscripts,
        _pg_expandarray: the struct of an element and its 1-based index) in the select list
        of ``select``: one output row per element; returns the expression that reads the
        element (``select`` may be given a FROM item named ``alias``)."""
        ...

    def srf_zip(
        self, select: exp.Select, fns: list[tuple[str, list[exp.Expr]]], alias: str
    ) -> list[exp.Expr]:
        """Several set-returning functions in one select list, run in lockstep (as many rows
        as the longest, the shorter padded with NULL); one element expression per function."""
        ...

    def distinct_on(
        self,
        select: exp.Select,
        keys: list[exp.Expr],
        ordered: list[tuple[exp.Expr, bool]],
        names: list[str],
    ) -> None:
        """``SELECT DISTINCT ON (keys) ... ORDER BY ordered`` (bound keys and order items,
        ``True`` = descending) with outputs ``names``: rewrite ``select`` in place; its
        LIMIT/OFFSET are kept and bound afterwards."""
        ...

    def order_item(self, item: exp.Ordered) -> None:
        """An ORDER BY item with PostgreSQL's NULL placement (last ascending, first
        descending, unless written)."""
        ...


class ExprLowering(Protocol):
    """The scalar side: literals, parameters, casts, operators and function calls."""

    # names of the aggregate calls this lowering produces (the grouping checks run on
    # lowered trees and must recognise them)
    aggregates: frozenset[str]

    def param(self, n: int) -> exp.Expr:
        """Parameter ``$n``."""
        ...

    def boolean(self, value: bool) -> exp.Expr:
        """A boolean literal."""
        ...

    def convert(self, node: exp.Expr, from_oid: int, to_oid: int) -> exp.Expr:
        """An implicit conversion the binder adds (a string literal taking the other side's
        type, a value concatenated as text)."""
        ...

    def cast(self, node: exp.Expr, from_oid: int, to_oid: int) -> exp.Expr:
        """A written ``CAST(node AS to)`` of a value of type ``from_oid``."""
        ...

    def any_eq(self, left: exp.Expr, array: exp.Expr) -> exp.Expr:
        """``left = ANY(array)`` of an array value (true, false or NULL as PostgreSQL)."""
        ...

    def any_cmp(
        self, op: str, every: bool, left: exp.Expr, array: exp.Expr, numeric: bool
    ) -> exp.Expr:
        """``left <op> ANY(array)`` (``every``: ALL) of numbers (``numeric``) or strings."""
        ...

    def arith(self, node: exp.Binary, op: str, result_oid: int) -> exp.Expr:
        """Bound arithmetic ``node`` (``op`` one of + - * / %) of result type ``result_oid``,
        with RisingWave's overflow and division-by-zero errors."""
        ...

    def ts_add(self, ts: exp.Expr, interval: exp.Expr, sign: int) -> exp.Expr:
        """timestamp/timestamptz/date ``+`` (sign 1) or ``-`` (sign -1) interval."""
        ...

    def ts_diff(self, a: exp.Expr, b: exp.Expr) -> exp.Expr:
        """timestamp ``-`` timestamp (an interval)."""
        ...

    def date_diff(self, a: exp.Expr, b: exp.Expr) -> exp.Expr:
        """date ``-`` date (an int4 number of days)."""
        ...

    def date_add_days(self, date: exp.Expr, days: exp.Expr, sign: int) -> exp.Expr:
        """date ``+``/``-`` integer days (a date)."""
        ...

    def interval_mul(self, interval: exp.Expr, factor: exp.Expr, divide: bool) -> exp.Expr:
        """interval ``*`` (or ``/``) a number (an interval)."""
        ...

    def array_cat(self, a: exp.Expr, b: exp.Expr) -> exp.Expr:
        """array ``||`` array."""
        ...

    def array_append(self, array: exp.Expr, value: exp.Expr) -> exp.Expr:
        """array ``||`` element."""
        ...

    def regex(self, value: exp.Expr, pattern: exp.Expr, ci: bool) -> exp.Expr:
        """``value ~ pattern`` (``~*`` when ``ci``)."""
        ...

    def like(
        self, value: exp.Expr, pattern: exp.Expr, escape: exp.Expr | None, ci: bool
    ) -> exp.Expr:
        """``value LIKE pattern [ESCAPE escape]`` (ILIKE when ``ci``), PostgreSQL's rules
        (backslash the default escape)."""
        ...

    def collate(self, node: exp.Collate, inner: exp.Expr) -> exp.Expr:
        """``inner COLLATE ...`` (``node`` the written clause; RisingWave knows only the
        default collation)."""
        ...

    def array(self, items: list[exp.Expr]) -> exp.Expr:
        """``ARRAY[items]``."""
        ...

    def array_subquery(self, query: exp.Expr, names: list[str]) -> exp.Expr:
        """``ARRAY(query)``: the first output column (of ``names``) of a bound query."""
        ...

    def subscript(self, array: exp.Expr, index: exp.Expr) -> exp.Expr:
        """``array[index]``; ``index`` as sqlglot holds it (zero-based: PostgreSQL's 1 is
        stored 0)."""
        ...

    def distinct_from(self, a: exp.Expr, b: exp.Expr, negated: bool) -> exp.Expr:
        """``a IS DISTINCT FROM b`` (``IS NOT DISTINCT FROM`` when ``negated``)."""
        ...

    def json_get(self, node: exp.Expr, as_text: bool) -> exp.Expr:
        """Bound ``->`` (``->>`` when ``as_text``, jsonb text spaced as RisingWave prints)."""
        ...

    def contains(self, a: exp.Expr, b: exp.Expr, arrays: bool) -> exp.Expr:
        """``a @> b`` of arrays (``arrays``) or jsonb."""
        ...

    def similar(self, value: exp.Expr, pattern: exp.Expr) -> exp.Expr:
        """``value SIMILAR TO pattern``."""
        ...

    def interval(self, text: str) -> exp.Expr:
        """``INTERVAL 'text'`` (``text`` with the unit, if one was written)."""
        ...

    def session_value(self, name: str) -> exp.Expr:
        """What depends on the session and the statement: ``now``, ``current_date``,
        ``current_user``, ``current_database``, ``current_schema``, ``version``."""
        ...

    def renamed(self, name: str) -> str | None:
        """The engine's function implementing PostgreSQL function ``name`` under another
        name, or None when it has the same name."""
        ...

    def has_function(self, name: str) -> bool:
        """Whether the engine can call function ``name`` (else the binder answers
        RisingWave's ``function ... does not exist``)."""
        ...

    def call(self, name: str, args: list[exp.Expr]) -> exp.Expr:
        """A call of PostgreSQL function ``name`` (``round``, ``concat``) on bound args."""
        ...

    def struct_field(self, value: exp.Expr, index: int) -> exp.Expr:
        """Field ``index`` (0-based) of a bound struct value (``(s).f``)."""
        ...

    def ordered_agg(
        self,
        name: str,
        value: exp.Expr,
        extra: list[exp.Expr],
        keys: list[tuple[exp.Expr, bool]],
        distinct: bool,
    ) -> exp.Expr:
        """``array_agg`` / ``string_agg`` (``extra``: the separator) of ``value``, with
        ``ORDER BY keys`` (``True`` = descending) and DISTINCT."""
        ...

    def numeric_agg(self, node: exp.Expr, arg: exp.Expr, is_avg: bool) -> exp.Expr:
        """Bound ``sum``/``avg`` ``node`` of an int8 or numeric argument ``arg`` (a
        ``DISTINCT`` node when distinct), computed in RisingWave's decimal."""
        ...

    def extract(self, unit: str, value: exp.Expr) -> exp.Expr:
        """``EXTRACT(unit FROM value)`` (numeric)."""
        ...


class Lowering(QueryLowering, ExprLowering, Protocol):
    """Everything the binder asks of SQLite, the engine a catalog-path statement is lowered to."""
