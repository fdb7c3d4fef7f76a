"""Registering rwshim's SQLite functions on a connection (the runtime of the SQLite lowering).

``install(conn, state)`` registers every function the lowered SQL calls: the ``rw_`` helpers
the lowering targets (sqlite/lower_expr.py, lower_query.py), the PostgreSQL functions SQLite
lacks or answers differently (sqlite/functions.py, aggregates.py), and the functions that
answer from the session (``FunctionState`` of rwshim/binder/functions.py: current database,
user, schema, settings, ``now()``, ``version()``), which read ``state.ctx`` set by the engine
before each statement.  A RisingWave error raised inside a function cannot cross SQLite, so it
is parked in ``state.error`` and re-raised by the executor when SQLite reports the failure.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rwshim.binder.context import QueryContext
from rwshim.binder.functions import FunctionState, view_query
from rwshim.catalog_path.sqlite import aggregates as agg
from rwshim.catalog_path.sqlite import casts, privilege
from rwshim.catalog_path.sqlite import functions as f
from rwshim.common import pgtypes
from rwshim.errors import RwError
from rwshim.lazy import lazy_module

if TYPE_CHECKING:
    import hashlib
else:
    hashlib = lazy_module("hashlib")  # SQL md5() only


def _guard(state: FunctionState, fn: Callable[..., Any]) -> Callable[..., Any]:
    # (no functools.wraps: SQLite calls it by the name it is registered under, and copying
    # the wrapped function's attributes cost ~0.4 ms of a start-up over ~120 registrations)
    def wrapper(*args: Any) -> Any:
        try:
            return fn(*args)
        except RwError as e:
            state.error = e
            raise

    return wrapper


def install(conn: Any, state: FunctionState) -> None:
    """Register every function on ``conn`` (a sqlite3.Connection)."""

    def ctx() -> QueryContext:
        return state.require_ctx()

    def reg(name: str, nargs: int, fn: Callable[..., Any], deterministic: bool = True) -> None:
        conn.create_function(name, nargs, _guard(state, fn), deterministic=deterministic)

    def now() -> str:
        t = state.statement_now()
        return t.astimezone(dt.UTC).isoformat(sep=" ", timespec="microseconds")

    reg("rw_view_query", 1, view_query)
    # statement context
    reg("rw_current_database_id", 0, lambda: ctx().database_id, False)
    reg("rw_current_user_id", 0, lambda: ctx().user_id, False)
    reg("rw_current_schema", 0, state.current_schema, False)
    reg("rw_current_user", 0, lambda: ctx().user, False)
    reg("rw_current_database", 0, lambda: ctx().database, False)
    reg(
        "rw_current_schemas",
        1,
        # a NULL argument gives a NULL list (builtin_scalar.rs:531-533)
        lambda implicit: (
            None if implicit is None else f.json_array(list(state.current_schemas(bool(implicit))))
        ),
        False,
    )
    reg("rw_version", 0, lambda: state.version)

    cluster: list[str] = []

    def cluster_id() -> str:
        # the store's UUID (RisingWave's meta cluster id: builtin_scalar.rs:771,
        # ExprType::RwClusterId), read once: the connection is the store's
        if not cluster:
            row = conn.execute("SELECT value FROM meta WHERE key = 'cluster_id'").fetchone()
            cluster.append(str(row[0]) if row is not None else "")
        return cluster[0]

    reg("rw_cluster_id", 0, cluster_id)
    reg("rw_now", 0, now, False)

    def current_setting(name: object, missing_ok: object = 0) -> str | None:
        return state.current_setting(str(name), bool(missing_ok))

    reg("current_setting", 1, current_setting, False)
    reg("current_setting", 2, current_setting, False)

    def set_config(name: object, value: object, is_local: object) -> str | None:
        return state.set_config(str(name), None if value is None else str(value))

    reg("set_config", 3, set_config, False)
    # the session's id (builtin_scalar.rs:741-744)
    reg("pg_backend_pid", 0, lambda: ctx().session_id, False)

    def start_time() -> str | None:
        t = state.start_time
        return (
            None if t is None else t.astimezone(dt.UTC).isoformat(sep=" ", timespec="microseconds")
        )

    reg("pg_postmaster_start_time", 0, start_time, False)

    # operators and casts targeted by translation
    reg("rw_regex", 3, f.regex_match)
    reg("rw_like", 4, f.like_escape)
    reg("rw_cast", 3, lambda v, frm, to: casts.cast(v, int(frm), int(to)))
    reg("rw_arith", 4, f.arith)
    reg("rw_any_eq", 2, lambda v, arr: f.array_contains(arr, v))
    reg("rw_any_cmp", 5, f.array_compare)
    reg("rw_array", -1, lambda *xs: f.json_array(list(xs)))
    reg(
        "rw_zip_index",
        -1,
        lambda *arrs: f.json_array(
            list(range(max((len(f.array_items(a) or []) for a in arrs), default=0)))
        ),
    )
    reg("rw_jsonb_contains", 2, f.jsonb_contains)
    reg("rw_json_text", 1, f.json_text)
    reg("rw_array_contains_all", 2, f.array_contains_all)
    reg("rw_similar", 2, f.similar_to)
    reg(
        "rw_array_cat",
        2,
        lambda a, b: (
            None
            if a is None and b is None
            else f.json_array((f.array_items(a) or []) + (f.array_items(b) or []))
        ),
    )
    reg("rw_array_append", 2, lambda a, x: f.json_array((f.array_items(a) or []) + [x]))
    reg(
        "rw_array_get",
        2,
        lambda a, i: (
            None
            if a is None or i is None or not (1 <= int(i) <= len(f.array_items(a) or []))
            else (f.array_items(a) or [])[int(i) - 1]
        ),
    )
    reg("rw_ts_add", 3, lambda v, iv, sign: f.ts_add(v, iv, int(sign)))
    reg("rw_interval_mul", 3, lambda iv, k, div: f.interval_mul(iv, k, bool(div)))
    reg("rw_ts_diff", 2, f.ts_diff)
    reg("tumble_start", 2, f.tumble_start)
    reg("tumble_start", 3, f.tumble_start)
    reg("rw_hop_starts", 3, f.hop_starts)
    reg("rw_hop_starts", 4, f.hop_starts)
    reg("rw_series", 2, f.series)
    reg("rw_series", 3, f.series)
    reg("rw_range", 2, f.range_series)
    reg("rw_range", 3, f.range_series)
    reg(
        "rw_distinct",
        2,
        lambda a, b: (
            0 if (a is None and b is None) or (a is not None and b is not None and a == b) else 1
        ),
    )

    # clients.md §9.2
    reg("array_position", 2, f.array_position)
    reg("array_position", 3, f.array_position)
    reg("array_to_string", 2, f.array_to_string)
    reg("array_to_string", 3, f.array_to_string)
    reg("array_length", 2, f.array_length)
    reg("array_length", 1, f.array_length)
    reg("cardinality", 1, lambda a: None if a is None else len(f.array_items(a) or []))
    reg("array_upper", 2, f.array_length)
    reg("array_lower", 2, lambda a, d: None if not f.array_items(a) else 1)
    reg("format_type", 2, f.format_type)
    reg("format_type", 1, f.format_type)
    # builtin_scalar.rs: a constant 'UTF8' whatever the argument
    reg("pg_encoding_to_char", 1, lambda e: "UTF8")
    reg("pg_tablespace_location", 1, lambda o: None)  # builtin_scalar.rs: NULL
    # builtin_scalar.rs:589-599: '' for two or three arguments
    reg("pg_get_expr", 2, lambda e, r: "")
    reg("pg_get_expr", 3, lambda e, r, p: "")
    reg("pg_get_constraintdef", 1, lambda o: None)
    reg("pg_get_constraintdef", 2, lambda o, p: None)
    reg("pg_get_ruledef", 1, lambda o: None)
    reg("pg_get_ruledef", 2, lambda o, p: None)
    reg("pg_relation_is_publishable", 1, lambda o: 0)
    reg("pg_get_function_result", 1, lambda o: None)
    reg("pg_get_function_arguments", 1, lambda o: None)
    reg("pg_get_function_identity_arguments", 1, lambda o: None)
    reg("pg_function_is_visible", 1, lambda o: 1)
    reg("pg_type_is_visible", 1, lambda o: 1)
    # has_*_privilege, as the binder rewrites them (bind_catalog.privilege_function)
    reg(
        "rw_has_privilege",
        5,
        lambda kind, fn, u, o, p: privilege.has_privilege(conn, ctx(), kind, fn, u, o, p),
        False,
    )
    reg("pg_collation_is_visible", 1, lambda o: 1)
    reg("pg_get_serial_sequence", 2, lambda t, c: None)
    reg("pg_advisory_unlock_all", 0, lambda: None)
    reg("pg_size_pretty", 1, f.size_pretty)
    reg("pg_table_size", 1, lambda o: 0)
    reg("pg_relation_size", 1, lambda o: 0)
    reg("pg_total_relation_size", 1, lambda o: 0)
    reg("quote_ident", 1, f.quote_ident)
    reg("quote_literal", 1, lambda s: None if s is None else "'" + str(s).replace("'", "''") + "'")
    reg("split_part", 3, f.split_part)
    reg(
        "starts_with",
        2,
        lambda s, p: None if s is None or p is None else int(str(s).startswith(str(p))),
    )
    reg("to_regtype", 1, f.to_regtype)
    reg("json_build_object", -1, f.json_build_object)
    reg("jsonb_build_object", -1, f.json_build_object)
    reg("version", 0, lambda: state.version)

    # common scalar functions SQLite lacks or answers differently
    reg("greatest", -1, f.greatest)
    reg("least", -1, f.least)
    reg("rw_round", 1, f.round_to)
    reg("rw_round", 2, f.round_to)
    reg("ceil", 1, lambda x: None if x is None else math.ceil(f.number(x)))
    reg("ceiling", 1, lambda x: None if x is None else math.ceil(f.number(x)))
    reg("floor", 1, lambda x: None if x is None else math.floor(f.number(x)))
    reg("trunc", 1, lambda x: None if x is None else float(math.trunc(f.number(x))))
    reg("sqrt", 1, lambda x: None if x is None else math.sqrt(f.number(x)))
    reg(
        "power",
        2,
        lambda x, y: None if x is None or y is None else float(f.number(x)) ** f.number(y),
    )
    reg(
        "pow", 2, lambda x, y: None if x is None or y is None else float(f.number(x)) ** f.number(y)
    )
    reg("exp", 1, lambda x: None if x is None else math.exp(f.number(x)))
    reg("ln", 1, lambda x: None if x is None else math.log(f.number(x)))
    reg("log10", 1, lambda x: None if x is None else math.log10(f.number(x)))
    reg("sign", 1, lambda x: None if x is None else (x > 0) - (x < 0))
    reg(
        "mod",
        2,
        lambda a, b: f.arith(
            "%", pgtypes.INT8 if isinstance(a, int) and isinstance(b, int) else pgtypes.FLOAT8, a, b
        ),
    )
    reg("pi", 0, lambda: math.pi)
    reg("strpos", 2, lambda s, p: None if s is None or p is None else str(s).find(str(p)) + 1)
    reg("rw_concat", -1, lambda *xs: "".join(str(x) for x in xs if x is not None))
    reg(
        "concat_ws",
        -1,
        lambda sep, *xs: (
            None if sep is None else str(sep).join(str(x) for x in xs if x is not None)
        ),
    )
    reg(
        "rw_left",
        2,
        lambda s, n: None if s is None or n is None else str(s)[: int(n)],
    )
    reg(
        "rw_right",
        2,
        lambda s, n: (
            None
            if s is None or n is None
            else (str(s)[-int(n) :] if int(n) > 0 else str(s)[-int(n) :] if int(n) < 0 else "")
        ),
    )
    reg("lpad", 2, lambda s, n: f.pad(s, n, None, True))
    reg("lpad", 3, lambda s, n, fill: f.pad(s, n, fill, True))
    reg("rpad", 2, lambda s, n: f.pad(s, n, None, False))
    reg("rpad", 3, lambda s, n, fill: f.pad(s, n, fill, False))
    reg("repeat", 2, lambda s, n: None if s is None or n is None else str(s) * max(int(n), 0))
    reg("reverse", 1, lambda s: None if s is None else str(s)[::-1])
    reg("initcap", 1, f.initcap)
    reg(
        "md5",
        1,
        lambda s: (
            None
            if s is None
            else hashlib.md5(s if isinstance(s, bytes) else str(s).encode()).hexdigest()
        ),
    )
    reg("btrim", 1, lambda s: None if s is None else str(s).strip(" "))
    reg("btrim", 2, lambda s, c: None if s is None or c is None else str(s).strip(str(c)))
    reg("regexp_replace", 3, f.regexp_replace)
    reg("regexp_match", 2, f.regexp_match)
    reg("regexp_match", 3, f.regexp_match)
    reg("regexp_replace", 4, f.regexp_replace)
    reg("char_length", 1, lambda s: None if s is None else len(str(s)))
    reg("character_length", 1, lambda s: None if s is None else len(str(s)))
    reg(
        "octet_length",
        1,
        lambda s: None if s is None else len(s if isinstance(s, bytes) else str(s).encode()),
    )
    reg("date_trunc", 2, f.date_trunc)
    reg("rw_extract", 2, f.extract)
    reg("date_part", 2, f.extract)
    reg(
        "to_timestamp",
        1,
        lambda x: (
            None
            if x is None
            else dt.datetime.fromtimestamp(float(x), dt.UTC).isoformat(
                sep=" ", timespec="microseconds"
            )
        ),
    )

    conn.create_aggregate("rw_array_agg", -1, agg.ArrayAgg)
    conn.create_aggregate("rw_string_agg", -1, agg.StringAgg)
    # also usable with OVER (...)
    conn.create_window_function("rw_sum_dec", 1, agg.SumDec)
    conn.create_window_function("rw_avg_dec", 1, agg.AvgDec)
    conn.create_aggregate("bool_and", 1, agg.BoolAnd)
    conn.create_aggregate("every", 1, agg.BoolAnd)
    conn.create_aggregate("bool_or", 1, agg.BoolOr)
