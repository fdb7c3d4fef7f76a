"""SQLite lowering of queries and FROM items: what SQLite cannot say as PostgreSQL does.

Catalog relations are the TEMP views ``<schema>__<name>`` that
rwshim/catalog_path/system_catalogs installs, read once per statement as MATERIALIZED CTEs when
the statement joins or probes them (SQLite would evaluate a view per row).  User rows live on
the PostgreSQL data plane, never here: a user relation lowers to an empty row set, so the
binder can still bind a statement that reads one (for RisingWave's errors, types and CREATE
MATERIALIZED VIEW's analysis) although such a statement is refused before it runs
(``QueryEngine.refuse_user_data``).  SQLite has no alias column lists, no ``DISTINCT ON``, no
set-returning functions, no parenthesized query operands and the opposite default NULL order,
so: a relation's columns are renamed by a wrapping SELECT, VALUES in FROM is wrapped to name
its columns, DISTINCT ON becomes ``row_number() OVER (PARTITION BY ...)``, a parenthesized
query is the query itself, ``generate_series`` / ``unnest`` / ``generate_subscripts`` become
``json_each`` over a JSON array (``rw_series``, ``rw_zip_index`` for several in lockstep),
and every ORDER BY item states its NULL placement.  The text is sqlglot's SQLite output, and a
construct SQLite cannot express is an error rather than dropped.  This is the
``QueryLowering`` half of ``SqliteLowering`` (the contract is rwshim/binder/lowering.py).
"""

from __future__ import annotations

from collections.abc import Callable

import sqlglot
from sqlglot import exp

from rwshim.binder.parse import func_call, ident
from rwshim.binder.relations import Relation
from rwshim.binder.resolve import SystemRelation, hidden_columns


def to_sqlite(node: exp.Expr) -> str:
    """SQLite text of a rewritten tree; a construct SQLite cannot express is an error rather
    than silently dropped (sqlglot's default is to warn and drop it)."""
    return node.sql(dialect="sqlite", unsupported_level=sqlglot.ErrorLevel.RAISE)


def _join(select: exp.Select, table: exp.Expr) -> None:
    if select.args.get("from_") is None:
        select.set("from_", exp.From(this=table))
    else:
        select.append("joins", exp.Join(this=table))


class SqliteQueries:
    """The statement half of ``SqliteLowering``."""

    dialect = "sqlite"

    def __init__(self) -> None:
        # catalog views read by this statement -> the name of their MATERIALIZED CTE;
        # None when the statement reads them in place
        self.materialize: dict[str, str] | None = None

    def normalize(self, tree: exp.Expr) -> exp.Expr:
        # ``(SELECT ...)`` as a whole query or as an operand of UNION/INTERSECT/EXCEPT is the
        # query itself (PostgreSQL and RisingWave accept the parentheses; SQLite does not)
        def bare(node: exp.Expr) -> exp.Expr:
            while isinstance(node, exp.Subquery) and {k for k, v in node.args.items() if v} == {
                "this"
            }:
                node = node.this
            return node

        tree = bare(tree)
        for setop in list(tree.find_all(exp.Union, exp.Except, exp.Intersect)):
            for key in ("this", "expression"):
                part = setop.args.get(key)
                if isinstance(part, exp.Subquery):
                    setop.set(key, bare(part))
        return tree

    def begin(self, tree: exp.Expr) -> None:
        # One relation read once, no join or subquery: SQLite flattens the view into the query
        # and evaluates it once anyway, so leave it a view (its indexes then serve the WHERE).
        single = (
            isinstance(tree, exp.Select)
            and len(list(tree.find_all(exp.Table))) == 1
            and tree.find(exp.Join, exp.Subquery, exp.With) is None
        )
        self.materialize = None if single else {}

    def finish(self, tree: exp.Expr) -> str:
        if self.materialize:
            ctes = [
                exp.CTE(
                    this=exp.Select(expressions=[exp.Star()]).from_(exp.Table(this=ident(view))),
                    alias=exp.TableAlias(this=ident(name)),
                    materialized=True,
                )
                for view, name in self.materialize.items()
            ]
            with_ = tree.args.get("with_")
            if with_ is None:
                tree.set("with_", exp.With(expressions=ctes))
            else:
                with_.set("expressions", ctes + list(with_.expressions))
        return to_sqlite(tree)

    def render(self, node: exp.Expr) -> str:
        return to_sqlite(node)

    def system_relation(self, rel: SystemRelation, alias: str, in_from: bool) -> exp.Expr:
        target = rel.sqlite_name
        if self.materialize is not None and in_from:
            target = self.materialize.setdefault(rel.sqlite_name, f"__m_{rel.sqlite_name}")
        return exp.Table(this=ident(target), alias=exp.TableAlias(this=ident(alias)))

    def user_relation(self, rel: Relation, alias: str) -> exp.Expr:
        # no user rows in process (the module docstring): ``SELECT NULL AS "c", ... WHERE 0``
        # the hidden columns a name binds too (resolve.hidden_columns: a table's _row_id and
        # _rw_timestamp)
        names = [c.name for c in rel.visible_columns] + [c.name for c in hidden_columns(rel)]
        items: list[exp.Expr] = [exp.Alias(this=exp.Null(), alias=ident(n)) for n in names]
        empty = exp.Select(
            expressions=items or [exp.Null()], where=exp.Where(this=exp.Literal.number(0))
        )
        return exp.Subquery(this=empty, alias=exp.TableAlias(this=ident(alias)))

    def relation_columns(
        self, item: exp.Expr, alias: str, columns: list[str], names: list[str]
    ) -> exp.Expr:
        pairs = ", ".join(f'"{alias}"."{c}" AS "{n}"' for c, n in zip(columns, names, strict=False))
        wrapper = sqlglot.parse_one(f"SELECT {pairs}", read="sqlite")
        assert isinstance(wrapper, exp.Select)
        wrapper.set("from_", exp.From(this=item))
        return exp.Subquery(this=wrapper, alias=exp.TableAlias(this=ident(alias)))

    def values_relation(self, values: exp.Values, alias: str, names: list[str]) -> exp.Expr:
        # SQLite names a VALUES list's columns column1, column2, ...
        sub = exp.Select(
            expressions=[
                exp.Alias(this=exp.Column(this=ident(f"column{i + 1}")), alias=ident(n))
                for i, n in enumerate(names)
            ]
        )
        bare = values.copy()
        bare.set("alias", None)
        sub.set("from_", exp.From(this=exp.Subquery(this=bare)))
        return exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias)))

    def series_relation(
        self, args: list[exp.Expr], column: str, alias: str, exclusive: bool = False
    ) -> exp.Expr:
        sub = sqlglot.parse_one(f'SELECT value AS "{column}" FROM json_each(?)', read="sqlite")
        fn = "rw_range" if exclusive else "rw_series"
        sub.find(exp.Placeholder).replace(func_call(fn, *args))  # type: ignore[union-attr]
        return exp.Subquery(this=sub, alias=exp.TableAlias(this=ident(alias)))

    def unnest_relation(
        self, array: exp.Expr, alias: str
    ) -> tuple[exp.Expr, Callable[[], exp.Expr], Callable[[], exp.Expr]]:
        # json_each straight in FROM (not a derived table) so its argument may read the FROM
        # items before it, as a function in PostgreSQL's FROM implicitly LATERAL does
        table = exp.Table(
            this=func_call("json_each", array), alias=exp.TableAlias(this=ident(alias))
        )

        def value() -> exp.Expr:
            return exp.Column(this=ident("value"), table=ident(alias))

        def ordinality() -> exp.Expr:
            return exp.Add(
                this=exp.Column(this=ident("key"), table=ident(alias)),
                expression=exp.Literal.number(1),
            )

        return table, value, ordinality

    def srf(self, select: exp.Select, name: str, args: list[exp.Expr], alias: str) -> exp.Expr:
        # one output row per element, as PostgreSQL's ProjectSet gives for a single SRF
        col: exp.Expr
        if name == "generate_series":
            source: exp.Expr = func_call("rw_series", *args)
            col = exp.Column(this=ident("value"), table=ident(alias))
        elif name == "generate_subscripts":
            source = args[0]
            col = exp.Add(
                this=exp.Column(this=ident("key"), table=ident(alias)),
                expression=exp.Literal.number(1),
            )
        elif name == "_pg_expandarray":
            # the struct (x, n): the element and its 1-based index, as a JSON array
            source = args[0]
            col = func_call(
                "json_array",
                exp.Column(this=ident("value"), table=ident(alias)),
                exp.Add(
                    this=exp.Column(this=ident("key"), table=ident(alias)),
                    expression=exp.Literal.number(1),
                ),
            )
        else:
            source = args[0]
            col = exp.Column(this=ident("value"), table=ident(alias))
        _join(
            select,
            exp.Table(this=func_call("json_each", source), alias=exp.TableAlias(this=ident(alias))),
        )
        return col

    def srf_zip(
        self, select: exp.Select, fns: list[tuple[str, list[exp.Expr]]], alias: str
    ) -> list[exp.Expr]:
        # PostgreSQL 10+: as many rows as the longest, the shorter ones padded with NULL
        arrays: list[exp.Expr] = []
        for name, args in fns:
            if name == "generate_series":
                arrays.append(func_call("rw_series", *args))
            elif name == "generate_subscripts":
                arrays.append(
                    func_call("rw_series", exp.Literal.number(1), func_call("cardinality", args[0]))
                )
            else:
                arrays.append(args[0])
        table = exp.Table(
            this=func_call("json_each", func_call("rw_zip_index", *arrays)),
            alias=exp.TableAlias(this=ident(alias)),
        )
        _join(select, table)
        out: list[exp.Expr] = []
        for (name, _), arr in zip(fns, arrays, strict=True):
            index = exp.Add(
                this=exp.Column(this=ident("value"), table=ident(alias)),
                expression=exp.Literal.number(1),
            )
            element: exp.Expr = func_call("rw_array_get", arr.copy(), index)
            if name == "_pg_expandarray":
                # (x, n) while the array lasts, NULL past its end
                element = exp.Case(
                    ifs=[
                        exp.If(
                            this=exp.LTE(
                                this=index.copy(), expression=func_call("cardinality", arr.copy())
                            ),
                            true=func_call("json_array", element, index.copy()),
                        )
                    ]
                )
            out.append(element)
        return out

    def distinct_on(
        self,
        select: exp.Select,
        keys: list[exp.Expr],
        ordered: list[tuple[exp.Expr, bool]],
        names: list[str],
    ) -> None:
        # ``DISTINCT ON (k) ... ORDER BY o`` as ``row_number() OVER (PARTITION BY k ORDER BY
        # o)`` in a derived table, keeping row 1 of each partition, then ordered by o
        outputs = [it.this for it in select.expressions]
        inner = select.copy()
        inner.set("distinct", None)
        for key in ("order", "limit", "offset"):
            inner.set(key, None)
        items = [exp.Alias(this=e.copy(), alias=ident(f"__c{i}")) for i, e in enumerate(outputs)]
        items += [
            exp.Alias(this=e.copy(), alias=ident(f"__o{j}")) for j, (e, _) in enumerate(ordered)
        ]
        window = exp.Window(
            this=exp.RowNumber(),
            partition_by=[k.copy() for k in keys],
            order=exp.Order(
                expressions=[exp.Ordered(this=e.copy(), desc=d, nulls_first=d) for e, d in ordered]
            )
            if ordered
            else None,
        )
        items.append(exp.Alias(this=window, alias=ident("__rw_rn")))
        inner.set("expressions", items)
        limit, offset = select.args.get("limit"), select.args.get("offset")
        for key in list(select.args):
            select.set(key, None)
        select.set(
            "expressions",
            [
                exp.Alias(this=exp.Column(this=ident(f"__c{i}")), alias=ident(n))
                for i, n in enumerate(names)
            ],
        )
        select.set(
            "from_",
            exp.From(this=exp.Subquery(this=inner, alias=exp.TableAlias(this=ident("__rw_d")))),
        )
        select.set(
            "where",
            exp.Where(
                this=exp.EQ(
                    this=exp.Column(this=ident("__rw_rn")), expression=exp.Literal.number(1)
                )
            ),
        )
        if ordered:
            select.set(
                "order",
                exp.Order(
                    expressions=[
                        exp.Ordered(this=exp.Column(this=ident(f"__o{j}")), desc=d, nulls_first=d)
                        for j, (_, d) in enumerate(ordered)
                    ]
                ),
            )
        select.set("limit", limit)
        select.set("offset", offset)

    def order_item(self, item: exp.Ordered) -> None:
        # PostgreSQL: NULLs last ascending, first descending; SQLite the opposite
        explicit = item.args.get("nulls_first")
        item.set("nulls_first", explicit if explicit is not None else bool(item.args.get("desc")))
