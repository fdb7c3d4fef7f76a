"""Refusals RisingWave's stream planner makes, which a batch query never meets: an impure
expression in a filter over a retract stream (src/frontend/src/expr/mod.rs:84-110
``reject_impure``, src/frontend/src/expr/pure.rs ``ImpureAnalyzer``; the contexts of
stream_filter.rs:104-107 and generic/agg.rs:850), and a scalar subquery not known to give at
most one row (the joins only a nested loop answers: binder/dynamic_filter.py).

A filter on a retract stream re-evaluated for a delete may decide otherwise than for the
insert; RisingWave refuses it unless ``streaming_unsafe_allow_unmaterialized_impure_expr`` is
set (then it is a notice).  The stream is a retract stream when any relation the query reads
is not append-only (HAVING always filters an aggregate's updates).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlglot import exp

from rwshim.binder.binder_checks import has_agg
from rwshim.binder.parse import parse
from rwshim.binder.type_inference import func_name
from rwshim.errors import NotSupported, RwError, Uncategorized

# the functions ImpureAnalyzer::visit_function_call calls impure (pure.rs:381-411), by the
# name a query calls them, with the ExprType name its message shows
IMPURE: dict[str, str] = {
    "proctime": "PROCTIME",
    "pg_sleep": "PG_SLEEP",
    "pg_sleep_for": "PG_SLEEP_FOR",
    "pg_sleep_until": "PG_SLEEP_UNTIL",
    "pg_get_indexdef": "PG_GET_INDEXDEF",
    "col_description": "COL_DESCRIPTION",
    "pg_get_viewdef": "PG_GET_VIEWDEF",
    "pg_get_userbyid": "PG_GET_USERBYID",
    "pg_indexes_size": "PG_INDEXES_SIZE",
    "pg_relation_size": "PG_RELATION_SIZE",
    "pg_get_serial_sequence": "PG_GET_SERIAL_SEQUENCE",
    "pg_index_column_has_property": "PG_INDEX_COLUMN_HAS_PROPERTY",
    "has_table_privilege": "HAS_TABLE_PRIVILEGE",
    "has_any_column_privilege": "HAS_ANY_COLUMN_PRIVILEGE",
    "has_schema_privilege": "HAS_SCHEMA_PRIVILEGE",
    "make_timestamptz": "MAKE_TIMESTAMPTZ",
    "pg_is_in_recovery": "PG_IS_IN_RECOVERY",
    "rw_recovery_status": "RW_RECOVERY_STATUS",
    "rw_cluster_id": "RW_CLUSTER_ID",
    "pg_table_is_visible": "PG_TABLE_IS_VISIBLE",
    "has_function_privilege": "HAS_FUNCTION_PRIVILEGE",
    "has_database_privilege": "HAS_DATABASE_PRIVILEGE",
    "random": "RANDOM",
    "rand": "RANDOM",
    "clock_timestamp": "CLOCK_TIMESTAMP",
    "gen_random_uuid": "GEN_RANDOM_UUID",
}

_HINT = (
    "rewrite the query to extract the impure expression into the select list, or set "
    "`streaming_unsafe_allow_unmaterialized_impure_expr` to allow the behavior at the risk of "
    "inconsistent results or panics during execution"
)


# the table functions ImpureAnalyzer::visit_table_function calls impure (pure.rs:76-83), by
# name, with the TableFunctionType name its message shows
IMPURE_TABLE: dict[str, str] = {
    "file_scan": "FILE_SCAN",
    "postgres_query": "POSTGRES_QUERY",
    "mysql_query": "MYSQL_QUERY",
    "internal_backfill_progress": "INTERNAL_BACKFILL_PROGRESS",
    "internal_source_backfill_progress": "INTERNAL_SOURCE_BACKFILL_PROGRESS",
    "internal_get_channel_delta_stats": "INTERNAL_GET_CHANNEL_DELTA_STATS",
    "pg_get_keywords": "PG_GET_KEYWORDS",
}


def impure_filter(
    query: str, retract: bool, udfs: Mapping[str, bool] | None = None
) -> NotSupported | None:
    """RisingWave's refusal of the first impure filter of ``query`` (a streaming job's query,
    reading a retract stream when ``retract``), or of an impure table function of its select
    lists (expr/table_function.rs:670-673: a ProjectSet checks each table function); None
    if none.  ``udfs``: the user-defined functions that are not SQL (SQL ones are inlined),
    by name, with whether each returns a table (pure.rs:46-49, 85-88: all impure)."""
    try:
        tree = parse(query)
    except RwError:  # the binder reports a query it cannot read
        return None
    udfs = udfs or {}
    for select in tree.find_all(exp.Select):
        where = select.args.get("where")
        if retract and where is not None:
            found = _impure(where, udfs)
            if found is not None:
                return _refusal(found, "WHERE or HAVING condition")
        having = select.args.get("having")
        if having is not None:
            found = _impure(having, udfs)
            if found is not None:
                return _refusal(found, "WHERE or HAVING condition")
    if retract:
        for f in tree.find_all(exp.Filter):
            found = _impure(f.expression, udfs)
            if found is not None:
                return _refusal(found, "AGGREGATE FILTER condition")
        # the plan's nodes are serialized inputs first: the ProjectSet above the filters
        for select in tree.find_all(exp.Select):
            for item in select.expressions:
                for f in item.find_all(exp.Func):
                    name = func_name(f)
                    udf = udfs.get(name)
                    if udf:
                        return _refusal(f"user-defined table function `{name}`", "table function")
                    if name in IMPURE_TABLE:
                        return _refusal(IMPURE_TABLE[name], "table function")
    return None


def _impure(node: exp.Expr, udfs: Mapping[str, bool]) -> str | None:
    for f in node.find_all(exp.Func):
        if isinstance(f, (exp.Subquery, exp.Select)):
            continue
        name = func_name(f)
        found = IMPURE.get(name)
        if found is not None:
            return found
        udf = udfs.get(name)
        if udf is not None:
            kind = "table function" if udf else "function"
            return f"user-defined {kind} `{name}`"
    return None


def _refusal(desc: str, context: str) -> NotSupported:
    return NotSupported(
        f"using an impure expression ({desc}) in {context} on a retract stream may lead to"
        " inconsistent results",
        _HINT,
    )


# where a parenthesised query is no scalar subquery (a FROM item, IN / ANY / ALL, a set
# operation's operand)
_NOT_SCALAR = (
    exp.From, exp.Join, exp.In, exp.Any, exp.All, exp.Union, exp.Except, exp.Intersect,
    exp.Lateral, exp.Subquery,
)  # fmt: skip


def scalar_subquery(query: str) -> Uncategorized | None:
    """RisingWave's refusal of a streaming job whose scalar subquery is not known to give at
    most one row (optimizer/logical_optimization.rs:756-762: a LogicalMaxOneRow left after
    unnesting, a runtime check the stream has not): one row is known of a query without
    FROM, a simple aggregation (no GROUP BY), ``LIMIT 0/1``, a one-row VALUES."""
    if query.lower().count("select") < 2:
        return None  # no subquery
    try:
        tree = parse(query)
    except RwError:
        return None
    for sub in tree.find_all(exp.Subquery):
        if isinstance(sub.parent, _NOT_SCALAR) or sub.parent is None:
            continue
        if not _max_one_row(sub.this):
            return Uncategorized("Scalar subquery might produce more than one row.")
    return None


def _max_one_row(node: exp.Expr) -> bool:
    if isinstance(node, exp.Subquery):
        return _max_one_row(node.this)
    if isinstance(node, exp.Values):
        return len(node.expressions) <= 1
    if not isinstance(node, exp.Select):
        return False
    limit = node.args.get("limit")
    count = limit.args.get("expression") if isinstance(limit, exp.Limit) else None
    if isinstance(count, exp.Literal) and not count.is_string and count.this in ("0", "1"):
        return True
    if node.args.get("from_") is None:
        return not node.args.get("joins")
    if node.args.get("group"):
        return False
    return any(has_agg(e, frozenset()) for e in node.expressions)
