"""SQLite lowering of scalar expressions: what the binder's typed constructs become on SQLite.

SQLite has no PostgreSQL types, casts or operators, so the constructs whose answer would differ
become calls of the helper functions ``sqlite/install.py`` registers on the connection:
``rw_cast`` for casts, ``rw_arith`` for checked integer and decimal arithmetic, ``rw_regex`` /
``rw_like`` / ``rw_similar`` for pattern matching, ``rw_any_eq`` for ``= ANY(array)``, arrays
as JSON text (``rw_array``, ``rw_array_get`` 1-based, ``rw_array_cat``, ``rw_array_agg``),
``rw_ts_add`` / ``rw_ts_diff`` / ``julianday`` for date and time arithmetic, ``rw_sum_dec`` /
``rw_avg_dec`` for numeric aggregates, ``rw_now`` and the ``rw_current_*`` functions for what
the session and statement decide.  Booleans are 0/1, parameters SQLite's ``?n``, and
``COLLATE pg_catalog.default`` is SQLite's BINARY (dropped).  This is the ``ExprLowering`` half
of ``SqliteLowering`` (the contract is rwshim/binder/lowering.py).
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from rwshim.binder import types
from rwshim.binder.parse import func_call, lit_int, lit_str
from rwshim.binder.resolve import rename_outputs
from rwshim.common import pgtypes

# PostgreSQL functions SQLite reaches under another name (helpers registered by
# sqlite/install.py), bare or pg_catalog-qualified.
_RENAMED: dict[str, str] = {
    "version": "rw_version",
    "now": "rw_now",
    "current_database": "rw_current_database",
    "current_schemas": "rw_current_schemas",
    "concat": "rw_concat",
    "round": "rw_round",
    "date_part": "date_part",
    "string_agg": "rw_string_agg",
    # LEFT and RIGHT are join keywords in SQLite
    "left": "rw_left",
    "right": "rw_right",
    "array_agg": "rw_array_agg",
}

# aggregate calls the lowering produces (and SQLite's own spellings of them)
_AGGREGATES = frozenset(
    {"rw_array_agg", "rw_string_agg", "rw_sum_dec", "rw_avg_dec", "total", "group_concat"}
)

_AGG_HELPERS = {"array_agg": "rw_array_agg", "string_agg": "rw_string_agg"}


class SqliteExprs:
    """The scalar half of ``SqliteLowering``."""

    aggregates: frozenset[str] = _AGGREGATES

    def __init__(self, functions: frozenset[str] | None) -> None:
        # names SQLite can call (builtins and registered); None = do not check
        self.functions = functions

    def param(self, n: int) -> exp.Expr:
        # SQLite's numbered form (sqlglot would print ":n", which SQLite numbers by position)
        return exp.Var(this=f"?{n}")

    def boolean(self, value: bool) -> exp.Expr:
        return exp.Literal.number(1 if value else 0)

    def convert(self, node: exp.Expr, from_oid: int, to_oid: int) -> exp.Expr:
        return func_call("rw_cast", node, lit_int(from_oid), lit_int(to_oid))

    def cast(self, node: exp.Expr, from_oid: int, to_oid: int) -> exp.Expr:
        # the same storage form (integers of any width but smallint's checked range, text of
        # any string type, an oid tag): SQLite has nothing to convert
        ints = types.INTEGER_OIDS | {types.REGTYPE_TAG, types.REGNAMESPACE_TAG}
        if (
            from_oid == to_oid
            or (to_oid in types.STRING_OIDS and from_oid in types.STRING_OIDS)
            or (to_oid in ints and from_oid in ints and to_oid != pgtypes.INT2)
        ):
            return node
        return self.convert(node, from_oid, to_oid)

    def any_eq(self, left: exp.Expr, array: exp.Expr) -> exp.Expr:
        return func_call("rw_any_eq", left, array)

    def any_cmp(
        self, op: str, every: bool, left: exp.Expr, array: exp.Expr, numeric: bool
    ) -> exp.Expr:
        return func_call(
            "rw_any_cmp", lit_str(op), lit_int(int(every)), left, array, lit_int(int(numeric))
        )

    def arith(self, node: exp.Binary, op: str, result_oid: int) -> exp.Expr:
        # SQLite's own integer arithmetic wraps or turns REAL, and its division truncates
        # differently: integers, numeric, and every / and % go through the checked helper
        if result_oid in types.INTEGER_OIDS or result_oid == pgtypes.NUMERIC or op in "/%":
            return func_call(
                "rw_arith", lit_str(op), lit_int(result_oid), node.this, node.expression
            )
        return node

    def ts_add(self, ts: exp.Expr, interval: exp.Expr, sign: int) -> exp.Expr:
        return func_call("rw_ts_add", ts, interval, lit_int(sign))

    def ts_diff(self, a: exp.Expr, b: exp.Expr) -> exp.Expr:
        return func_call("rw_ts_diff", a, b)

    def date_diff(self, a: exp.Expr, b: exp.Expr) -> exp.Expr:
        return exp.Cast(
            this=exp.Sub(this=func_call("julianday", a), expression=func_call("julianday", b)),
            to=exp.DataType.build("int"),
        )

    def date_add_days(self, date: exp.Expr, days: exp.Expr, sign: int) -> exp.Expr:
        modifier = exp.Concat(
            expressions=[lit_str("+" if sign > 0 else "-"), days, lit_str(" days")]
        )
        return func_call("date", date, modifier)

    def interval_mul(self, interval: exp.Expr, factor: exp.Expr, divide: bool) -> exp.Expr:
        return func_call("rw_interval_mul", interval, factor, lit_int(int(divide)))

    def array_cat(self, a: exp.Expr, b: exp.Expr) -> exp.Expr:
        return func_call("rw_array_cat", a, b)

    def array_append(self, array: exp.Expr, value: exp.Expr) -> exp.Expr:
        return func_call("rw_array_append", array, value)

    def regex(self, value: exp.Expr, pattern: exp.Expr, ci: bool) -> exp.Expr:
        return func_call("rw_regex", value, pattern, lit_int(1 if ci else 0))

    def like(
        self, value: exp.Expr, pattern: exp.Expr, escape: exp.Expr | None, ci: bool
    ) -> exp.Expr:
        # SQLite's LIKE (case-sensitive by PRAGMA) agrees with PostgreSQL's for a constant
        # pattern without a backslash; anything else goes through the helper
        if (
            not ci
            and escape is None
            and isinstance(pattern, exp.Literal)
            and "\\" not in pattern.this
        ):
            return exp.Like(this=value, expression=pattern)
        esc = escape if escape is not None else exp.Null()
        return func_call("rw_like", value, pattern, esc, lit_int(1 if ci else 0))

    def collate(self, node: exp.Collate, inner: exp.Expr) -> exp.Expr:
        # PostgreSQL's "default" collation is SQLite's BINARY: the clause is dropped
        return inner

    def array(self, items: list[exp.Expr]) -> exp.Expr:
        return func_call("rw_array", *items)

    def array_subquery(self, query: exp.Expr, names: list[str]) -> exp.Expr:
        agg = sqlglot.parse_one(
            'SELECT COALESCE(rw_array_agg("__v"), \'[]\') FROM ? AS "__a"', read="sqlite"
        )
        rename_outputs(query, ["__v", *names[1:]])
        agg.find(exp.Placeholder).replace(exp.Subquery(this=query))  # type: ignore[union-attr]
        return exp.Subquery(this=agg)

    def subscript(self, array: exp.Expr, index: exp.Expr) -> exp.Expr:
        one_based: exp.Expr = (
            exp.Literal.number(int(index.this) + 1)
            if isinstance(index, exp.Literal) and not index.is_string
            else exp.Add(this=index, expression=exp.Literal.number(1))
        )
        return func_call("rw_array_get", array, one_based)

    def distinct_from(self, a: exp.Expr, b: exp.Expr, negated: bool) -> exp.Expr:
        call = func_call("rw_distinct", a, b)
        return exp.Not(this=call) if negated else call

    def json_get(self, node: exp.Expr, as_text: bool) -> exp.Expr:
        # sqlglot already turned the key into SQLite's JSON path
        if as_text:
            # ->> of an object or array is its jsonb text, spaced as RisingWave prints it
            as_json = exp.JSONExtract(**{k: v for k, v in node.args.items()})
            return func_call("rw_json_text", as_json)
        return node

    def contains(self, a: exp.Expr, b: exp.Expr, arrays: bool) -> exp.Expr:
        return func_call("rw_array_contains_all" if arrays else "rw_jsonb_contains", a, b)

    def similar(self, value: exp.Expr, pattern: exp.Expr) -> exp.Expr:
        return func_call("rw_similar", value, pattern)

    def interval(self, text: str) -> exp.Expr:
        return self.convert(lit_str(text), pgtypes.UNKNOWN, pgtypes.INTERVAL)

    def session_value(self, name: str) -> exp.Expr:
        if name == "current_date":
            return func_call(
                "substr", func_call("rw_now"), exp.Literal.number(1), exp.Literal.number(10)
            )
        return func_call(
            {
                "now": "rw_now",
                "current_user": "rw_current_user",
                "current_database": "rw_current_database",
                "current_schema": "rw_current_schema",
                "version": "rw_version",
            }[name]
        )

    def renamed(self, name: str) -> str | None:
        return _RENAMED.get(name)

    def has_function(self, name: str) -> bool:
        return self.functions is None or name in self.functions

    def call(self, name: str, args: list[exp.Expr]) -> exp.Expr:
        return func_call(_RENAMED.get(name, name), *args)

    def struct_field(self, value: exp.Expr, index: int) -> exp.Expr:
        # a struct is a JSON array of its fields
        return func_call("json_extract", value, exp.Literal.string(f"$[{index}]"))

    def ordered_agg(
        self,
        name: str,
        value: exp.Expr,
        extra: list[exp.Expr],
        keys: list[tuple[exp.Expr, bool]],
        distinct: bool,
    ) -> exp.Expr:
        # the helper aggregates take the ORDER BY keys as trailing (key, desc) arguments
        flat: list[exp.Expr] = []
        for key, desc in keys:
            flat.extend((key, lit_int(1 if desc else 0)))
        call = func_call(_AGG_HELPERS[name], value, *extra, *flat)
        if distinct:
            call.set("expressions", [exp.Distinct(expressions=[value])])
        return call

    def numeric_agg(self, node: exp.Expr, arg: exp.Expr, is_avg: bool) -> exp.Expr:
        # numeric results are computed in decimal, as RisingWave's rust_decimal does
        return func_call("rw_avg_dec" if is_avg else "rw_sum_dec", arg)

    def extract(self, unit: str, value: exp.Expr) -> exp.Expr:
        return func_call("rw_extract", lit_str(unit), value)
