"""Binding function calls and aggregates.

Mirrors RisingWave's binder/expr/function/ (mod.rs ``bind_function``: the name resolved with
``pg_catalog`` implied, builtin_scalar.rs for the functions RisingWave rewrites at bind time
such as ``current_user``, ``version`` and ``current_schema``, aggregate.rs for aggregates and
their ORDER BY / DISTINCT) and expr/type_inference/func.rs for result types.  A function the
engine cannot call is RisingWave's ``function <name>(<arg types>) does not exist``
(expr/type_inference/func.rs ``infer_type_name``).  The call's engine form comes from the
lowering.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlglot import exp

from rwshim.binder import bind_catalog, casts, types, variant_keys
from rwshim.binder.parse import func_call, lit_str
from rwshim.binder.type_inference import (
    UNKNOWN,
    at_bind,
    func_args,
    func_name,
    function_type,
    literal_default,
)
from rwshim.common import pgtypes, rwtypes
from rwshim.errors import InvalidInputSyntax, NoFunction
from rwshim.sql import column_exprs

if TYPE_CHECKING:
    from collections.abc import Callable

    from rwshim.binder.bind_expr import ExprBinder

    Handler = Callable[[ExprBinder, exp.Expr], tuple[exp.Expr, int]]

# Functions PostgreSQL lets a query call without parentheses (read as column names first).
KEYWORD_FUNCS = frozenset(
    {"current_user", "session_user", "user", "current_role", "current_catalog", "current_schema"}
)


def keyword_func(tx: ExprBinder, name: str) -> tuple[exp.Expr, int]:
    """``current_user`` and its kin written without parentheses."""
    if name in ("current_user", "session_user", "user", "current_role"):
        return tx.low.session_value("current_user"), pgtypes.VARCHAR
    if name == "current_catalog":
        return tx.low.session_value("current_database"), pgtypes.VARCHAR
    return tx.low.session_value("current_schema"), pgtypes.VARCHAR


# PostgreSQL functions the engine can evaluate (clients' catalog queries call them) that
# RisingWave has neither in builtin_scalar.rs nor as a ``#[function]``: a call is its
# ``function <name>(<args>) does not exist``, as on RisingWave.
NOT_IN_RISINGWAVE = frozenset(
    {
        "pg_get_function_result",
        "pg_get_function_arguments",
        "pg_get_function_identity_arguments",
        "pg_function_is_visible",
        "pg_collation_is_visible",
        "pg_get_ruledef",
        "pg_relation_is_publishable",
        "pg_advisory_unlock_all",
        "pg_size_pretty",
        "pg_total_relation_size",
        "to_regtype",
        "json_build_object",
    }
)

# RisingWave's aggregates only the data plane's PostgreSQL evaluates (rwshim/dataplane/plan/
# sqlfn, or PostgreSQL's own): their result type (aggregate/approx_percentile.rs: float8;
# aggregate/jsonb_agg.rs: jsonb); the catalog path has no such aggregates of its own (as
# ``percentile_disc``).
DATA_PLANE_AGGREGATES = {
    "approx_percentile": pgtypes.FLOAT8,
    "jsonb_agg": pgtypes.JSONB,
    "jsonb_object_agg": pgtypes.JSONB,
}
# RisingWave's functions only the data plane evaluates (sqlfn/scalars.py), by their result
# type: the table function regexp_matches (table_function/regexp_matches.rs: setof varchar[]),
# which a materialized view's query may call (``unnest(regexp_matches(...))``)
DATA_PLANE_FUNCTIONS = {
    "regexp_matches": pgtypes.VARCHAR_ARRAY,
    # variant (head only: src/expr/impl/src/scalar/variant.rs; dataplane/plan/sqlfn/variant.py)
    "to_variant": rwtypes.VARIANT_OID,
    "variant_get": rwtypes.VARIANT_OID,
    "try_variant_get": rwtypes.VARIANT_OID,
    "variant_typeof": pgtypes.VARCHAR,
}

# RisingWave's scalar functions of fixed signatures that only the data plane evaluates, by
# their ``#[function]`` signatures: a call matches one whose every argument is its type, an
# implicit cast of it (expr/type_inference/cast.rs) or an untyped literal; another is
# ``function <name>(<args>) does not exist``.
_I4, _F8 = pgtypes.INT4, pgtypes.FLOAT8
DATA_PLANE_SIGNATURES: dict[str, tuple[tuple[tuple[int, ...], int], ...]] = {
    # src/expr/impl/src/scalar/make_time.rs:55-105
    "make_date": (((_I4, _I4, _I4), pgtypes.DATE),),
    "make_time": (((_I4, _I4, _F8), pgtypes.TIME),),
    "make_timestamp": (((_I4, _I4, _I4, _I4, _I4, _F8), pgtypes.TIMESTAMP),),
    "make_timestamptz": (
        ((_I4, _I4, _I4, _I4, _I4, _F8), pgtypes.TIMESTAMPTZ),
        ((_I4, _I4, _I4, _I4, _I4, _F8, pgtypes.VARCHAR), pgtypes.TIMESTAMPTZ),
    ),
}


def _signature_type(name: str, oids: list[int]) -> int | None:
    """The result type of the ``DATA_PLANE_SIGNATURES`` overload a call matches, None if none
    does."""
    for params, result in DATA_PLANE_SIGNATURES[name]:
        if len(params) == len(oids) and all(
            o in (p, UNKNOWN) or casts.cast_ok(o, p, casts.IMPLICIT)
            for o, p in zip(oids, params, strict=True)
        ):
            return result
    return None


# RisingWave answers these with '' before binding their arguments (binder/expr/function/
# mod.rs:133-141, a hack for Bytebase's ``obj_description(...::regclass)``).
EMPTY_DESCRIPTION = frozenset({"obj_description", "col_description"})


def func(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """A function call: a special form, else the call typed by ``function_type``."""
    name = func_name(node)
    if name in EMPTY_DESCRIPTION:
        return lit_str(""), pgtypes.VARCHAR
    special = _SPECIAL_FUNCS.get(name)
    if special is not None:
        return special(tx, node)
    args = func_args(node)
    bound = [tx.bind(a) for a in args]
    new_args = [b[0] for b in bound]
    oids = [b[1] for b in bound]
    if not tx.b.variant_type and name in variant_keys.FUNCTIONS:
        # a release without the type has none of them (sqlglot types ``to_variant``)
        sig = ", ".join(rwtypes.DISPLAY.get(types.external(o), "unknown") for o in oids)
        raise NoFunction(f"{name}({sig})")
    signed = _signature_type(name, oids) if name in DATA_PLANE_SIGNATURES else None
    oid = (
        DATA_PLANE_AGGREGATES.get(name)
        or DATA_PLANE_FUNCTIONS.get(name)
        or signed
        or function_type(name, oids)
    )
    renamed = tx.low.renamed(name)
    if isinstance(node, exp.Anonymous) or name in NOT_IN_RISINGWAVE:
        target = renamed or name
        known = (
            tx.low.has_function(target)
            or name in DATA_PLANE_AGGREGATES
            or name in DATA_PLANE_FUNCTIONS
            or signed is not None
        )
        if name in NOT_IN_RISINGWAVE or not known:
            sig = ", ".join(rwtypes.DISPLAY.get(types.external(o), "unknown") for o in oids)
            raise NoFunction(f"{name}({sig})")
        node.set("this", target)
        node.set("expressions", new_args)
        return node, oid
    if renamed is not None:
        return func_call(renamed, *new_args), oid
    # a typed sqlglot node the engine's dialect can print: rebind its children in place
    _rebind_args(node, args, new_args)
    return node, oid


def _rebind_args(node: exp.Expr, old: list[exp.Expr], new: list[exp.Expr]) -> None:
    mapping = {id(o): n for o, n in zip(old, new, strict=True)}
    for key, value in list(node.args.items()):
        if isinstance(value, exp.Expr) and id(value) in mapping:
            node.set(key, mapping[id(value)])
        elif isinstance(value, list):
            node.set(
                key,
                [mapping.get(id(v), v) if isinstance(v, exp.Expr) else v for v in value],
            )


def _agg_ordered(
    tx: ExprBinder, node: exp.Expr, name: str, extra: list[exp.Expr]
) -> tuple[exp.Expr, int]:
    """``array_agg`` / ``string_agg`` with their ORDER BY and DISTINCT (aggregate.rs)."""
    this = node.this
    keys: list[tuple[exp.Expr, bool]] = []
    distinct = False
    if isinstance(this, exp.Order):
        for o in this.expressions:
            key, key_oid = tx.bind(o.this)
            variant_keys.refuse(key_oid, key, "aggregation order key")
            keys.append((key, bool(o.args.get("desc"))))
        this = this.this
    if isinstance(this, exp.Distinct):
        distinct = True
        this = this.expressions[0]
    new, oid = tx.bind(this)
    if distinct:
        variant_keys.distinct_aggregate(name, oid, new, tx.b.streaming)
    bound_extra = [tx.bind(x)[0] for x in extra]
    return tx.low.ordered_agg(name, new, bound_extra, keys, distinct), oid


def _array_agg(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    call, oid = _agg_ordered(tx, node, "array_agg", [])
    return call, types.array_of(types.external(literal_default(oid)))


def _string_agg(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    sep = node.args.get("separator")
    if isinstance(node, exp.Anonymous):
        args = node.expressions
        node = exp.GroupConcat(this=args[0], separator=args[1] if len(args) > 1 else None)
        sep = node.args.get("separator")
    call, _ = _agg_ordered(tx, node, "string_agg", [sep if sep is not None else exp.Null()])
    return call, pgtypes.VARCHAR


def _count(tx: ExprBinder, node: exp.Count) -> tuple[exp.Expr, int]:
    if node.this is not None and not isinstance(node.this, exp.Star):
        if isinstance(node.this, exp.Distinct) and len(node.this.expressions) == 1:
            new, oid = tx.bind(node.this.expressions[0])
            variant_keys.distinct_aggregate("count", oid, new, tx.b.streaming)
            node.set("this", exp.Distinct(expressions=[new]))
        else:
            node.set("this", tx.bind(node.this)[0])
    return node, pgtypes.INT8


def _sum_avg(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """sum / avg typed as RisingWave's aggregates: sum of int2/int4 is int8, of a float its
    type, of int8/numeric numeric; avg of a float float8, else numeric."""
    inner = node.this
    distinct = isinstance(inner, exp.Distinct)
    if distinct:
        inner = inner.expressions[0]
    new, oid = tx.bind(inner)
    if distinct:
        variant_keys.distinct_aggregate(
            "avg" if isinstance(node, exp.Avg) else "sum", oid, new, tx.b.streaming
        )
        node.set("this", exp.Distinct(expressions=[new]))
    else:
        node.set("this", new)
    is_avg = isinstance(node, exp.Avg)
    if oid in types.FLOAT_OIDS:
        return node, pgtypes.FLOAT8 if is_avg else oid
    if not is_avg and oid in (pgtypes.INT2, pgtypes.INT4):
        return node, pgtypes.INT8
    arg: exp.Expr = exp.Distinct(expressions=[new]) if distinct else new
    return tx.low.numeric_agg(node, arg, is_avg), pgtypes.NUMERIC


def _extract(tx: ExprBinder, node: exp.Extract) -> tuple[exp.Expr, int]:
    unit = node.this.name.lower() if node.this is not None else ""
    new, _ = tx.bind(node.expression)
    return tx.low.extract(unit, new), pgtypes.NUMERIC


def _date_trunc(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    args = func_args(node)
    if isinstance(node, (exp.TimestampTrunc, exp.DateTrunc)):
        unit = node.args.get("unit")
        unit_text = unit.name.lower() if unit is not None else "day"
        new, oid = tx.bind(node.this)
        out = pgtypes.TIMESTAMP if oid == pgtypes.DATE else oid
        return func_call("date_trunc", lit_str(unit_text), new), out
    u, _ = tx.bind(args[0])
    new, oid = tx.bind(args[1])
    return func_call("date_trunc", u, new), oid


def _now(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    return tx.low.session_value("now"), pgtypes.TIMESTAMPTZ


def _proctime(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    # a query or a streaming job's binder is not the DDL binder (builtin_scalar.rs:896-904)
    raise at_bind(InvalidInputSyntax(column_exprs.PROCTIME_ONLY_IN_DDL))


def _current_date(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    return tx.low.session_value("current_date"), pgtypes.DATE


def _current_user(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    return tx.low.session_value("current_user"), pgtypes.VARCHAR


def _current_catalog(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """``CURRENT_CATALOG``, a synonym of current_database() (builtin_scalar.rs:129,506)."""
    return tx.low.session_value("current_database"), pgtypes.VARCHAR


def _current_schema(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    return tx.low.session_value("current_schema"), pgtypes.VARCHAR


def _version(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    return tx.low.session_value("version"), pgtypes.VARCHAR


def _round(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    bound = [tx.bind(a) for a in func_args(node)]
    return tx.low.call("round", [b[0] for b in bound]), bound[0][1]


def _concat_fn(tx: ExprBinder, node: exp.Expr) -> tuple[exp.Expr, int]:
    """``concat(...)``: every argument as text (NULLs skipped)."""
    bound = [tx.bind(a) for a in func_args(node)]
    args = [
        b[0]
        if b[1] in types.STRING_OIDS | {UNKNOWN}
        else tx.low.convert(b[0], b[1], pgtypes.VARCHAR)
        for b in bound
    ]
    return tx.low.call("concat", args), pgtypes.VARCHAR


HANDLERS: dict[type[exp.Expr], Handler] = {
    exp.Count: _count,  # type: ignore[dict-item]
    exp.Sum: _sum_avg,
    exp.Avg: _sum_avg,
    exp.Extract: _extract,  # type: ignore[dict-item]
    exp.CurrentTimestamp: _now,
    exp.CurrentDate: _current_date,
    exp.CurrentUser: _current_user,
    exp.CurrentSchema: _current_schema,
    exp.CurrentCatalog: _current_catalog,
    exp.CurrentVersion: _version,
    exp.Round: _round,
    exp.Concat: _concat_fn,
    exp.ArrayAgg: _array_agg,
    exp.GroupConcat: _string_agg,
    exp.TimestampTrunc: _date_trunc,
    exp.DateTrunc: _date_trunc,
}

_SPECIAL_FUNCS: dict[str, Handler] = {
    **dict.fromkeys(bind_catalog.CATALOG_FUNCTIONS, bind_catalog.catalog_function),
    **dict.fromkeys(bind_catalog.PRIVILEGE_FUNCTIONS, bind_catalog.privilege_function),
    "array_agg": _array_agg,
    "string_agg": _string_agg,
    "date_trunc": _date_trunc,
    "now": _now,
    "proctime": _proctime,
    "current_schema": _current_schema,
    "current_user": _current_user,
    "session_user": _current_user,
    "version": _version,
    "concat": _concat_fn,
    "round": _round,
}
