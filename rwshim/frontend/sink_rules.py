"""CREATE SINK's refusals that need the bound query: the sink type derived from the query's
stream kind, and the rules of a sink INTO a table (its columns, its key, its types, cycles).

RisingWave: ``src/frontend/src/handler/create_sink.rs`` (gen_sink_plan: the ``connector``
refusal :214-223, ``Column {c} not found in table {t}`` :456-471, the NOT NULL notice
:473-482, derive_default_column_project_for_sink :980-1038 and its ``column type mismatch``
:958-978), ``src/frontend/src/optimizer/plan_node/stream_sink.rs`` (derive_sink_type
:742-807, the target-table rules :334-362) and meta's cycle check
(``src/meta/src/controller/streaming_job.rs:488-499``, ``controller/utils.rs:320-520``).

rwshim has no optimizer: the stream kind of the sink's input is derived from the query's
shape (``append_only_input``): append-only when everything it reads is append-only (APPEND
ONLY tables, sources, materialized views whose own query is) and it has no aggregation,
DISTINCT, LIMIT, window function, outer join, set operation other than UNION ALL, or
``now()`` (a temporal filter retracts), as RisingWave's planner derives it for those
operators; otherwise ``retract``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rwshim.binder.relations import Relation, RelKind
from rwshim.dataplane.sinks.into_table import column_mapping
from rwshim.engine.types import ColumnSpec
from rwshim.errors import BindError, InvalidInputSyntax, MetaRpcError, Uncategorized

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend

# DataType's Debug (src/common/src/types/mod.rs, the enum's variant names), which the
# ``column type mismatch`` text prints
_DEBUG = {
    "boolean": "Boolean",
    "smallint": "Int16",
    "integer": "Int32",
    "bigint": "Int64",
    "real": "Float32",
    "double precision": "Float64",
    "numeric": "Decimal",
    "character varying": "Varchar",
    "date": "Date",
    "time without time zone": "Time",
    "timestamp without time zone": "Timestamp",
    "timestamp with time zone": "Timestamptz",
    "interval": "Interval",
    "bytea": "Bytea",
    "jsonb": "Jsonb",
    "serial": "Serial",
    "rw_int256": "Int256",
}

_CREATE_SINK_CALL = "/ddl_service.DdlService/CreateSink"

ONLY_APPEND_ONLY = (
    "Only append-only sinks can sink to a {what}. please try to add type = 'append-only' in"
    " the with option. e.g. create sink s into t as select * from t1 with (type = 'append-only')"
)


def refuse_connector(options: Mapping[str, str]) -> None:
    """create_sink.rs:214-223: INTO a table sets ``connector = 'table'`` itself."""
    if "connector" in options:
        raise BindError(
            "In the case of sinking into table, the 'connector' parameter should not be provided."
        )


def refuse_table_connector(options: Mapping[str, str], into: bool, format_encode: bool) -> None:
    """``connector = 'table'`` is the sink into a table's own (stream_sink.rs:592-628); FORMAT
    ... ENCODE of a sink into a table meets validate_compatibility with connector ``table``
    (create_sink.rs:1171-1180), before the query is bound."""
    if into and format_encode:
        raise BindError("connector table is not supported by FORMAT ... ENCODE ... syntax")
    if not into and options.get("connector", "").lower() == "table":
        raise InvalidInputSyntax("unsupported sink type table")


def user_ignore_delete(options: Mapping[str, str]) -> bool:
    """stream_sink.rs is_user_ignore_delete: ``ignore_delete`` or its alias."""
    has_ignore = "ignore_delete" in options
    has_force = "force_append_only" in options
    if has_ignore and has_force:
        raise InvalidInputSyntax(
            "`force_append_only` is an alias of `ignore_delete`, only one of them can be specified."
        )
    key = "ignore_delete" if has_ignore else "force_append_only" if has_force else None
    if key is None:
        return False
    value = options[key].lower()
    if value in ("true", "false"):
        return value == "true"
    raise InvalidInputSyntax(f"`{key}` must be true or false")


def derive_sink_type(
    append_only_input: bool, options: Mapping[str, str], fmt: str | None
) -> tuple[str, bool]:
    """stream_sink.rs:742-807: (``append-only`` | ``upsert`` | ``retract``, ignore_delete)."""
    if fmt is not None:
        user = {"PLAIN": "append-only", "UPSERT": "upsert", "DEBEZIUM": "retract"}.get(
            fmt.upper(), "append-only"
        )
        legacy = False
    else:
        typ = options.get("type")
        user = None
        if typ is not None:
            user = {
                "append-only": "append-only",
                "upsert": "upsert",
                "retract": "retract",
                "debezium": "retract",
            }.get(typ)
            if user is None:
                raise InvalidInputSyntax("`type` must be append-only, retract, upsert, or debezium")
        legacy = True
    ignore = user_ignore_delete(options)
    kind = "append-only" if append_only_input else "retract"
    if user is None:
        return ("append-only" if append_only_input else "upsert"), ignore
    if user == "append-only" and not append_only_input and not ignore:
        raise InvalidInputSyntax(
            f"The sink of {kind} stream cannot be append-only. Please add"
            f" \"force_append_only='true'\" in {'WITH' if legacy else 'FORMAT ENCODE'} options"
            " to force the sink to be append-only. Notice that this will cause the sink"
            " executor to drop DELETE messages and convert UPDATE messages to INSERT."
        )
    if user == "retract" and ignore:
        raise InvalidInputSyntax(
            "Retract sink type does not support `ignore_delete`. Please use `type ="
            " 'append-only'` or `type = 'upsert'` instead."
        )
    return user, ignore


def check_target_columns(target: Relation, into_columns: Sequence[str]) -> None:
    """create_sink.rs:456-471."""
    names = {c.name for c in target.columns}
    for c in into_columns:
        if c not in names:
            raise BindError(f"Column {c} not found in table {target.name}")


def not_null_notice(target: Relation) -> str | None:
    """create_sink.rs:473-482."""
    if any(not c.nullable for c in target.columns):
        return (
            f"The target table `{target.name}` contains NOT NULL columns. Rows written by the"
            " sink that violate those constraints will be ignored silently."
        )
    return None


def check_target_rules(
    target: Relation,
    sink_type: str,
    sink_columns: Sequence[ColumnSpec],
    into_columns: Sequence[str],
) -> None:
    """stream_sink.rs:334-362, then the types of create_sink.rs:958-978."""
    row_id_table = not target.primary_key or any(
        c.hidden for c in target.columns if c.name in target.primary_key
    )
    append_only = sink_type == "append-only"
    if row_id_table and not append_only:
        raise BindError(ONLY_APPEND_ONLY.format(what="table without primary keys"))
    if target.append_only and not append_only:
        raise BindError(ONLY_APPEND_ONLY.format(what="append only table"))
    names = [c.name for c in sink_columns]
    mapping = column_mapping(target, names, into_columns)
    if into_columns:
        names = list(into_columns) + names[len(into_columns) :]
    if not append_only:
        mapped = {t for t, _ in mapping}
        if any(k not in mapped for k in target.primary_key):
            raise InvalidInputSyntax(
                "When using non append only sink into table, the primary key of the table must"
                " be included in the sink result."
            )
    by_name = {c.name: c for c in target.columns}
    for tname, i in mapping:
        want = by_name[tname].rw_type
        have = sink_columns[i].rw_type
        if want.lower() != have.lower():
            raise Uncategorized(
                f'column type mismatch: {_debug(want)} vs {_debug(have)}, column name: "{names[i]}"'
            )


def _debug(rw_type: str) -> str:
    return _DEBUG.get(rw_type.lower(), rw_type)


def check_cycle(fe: Frontend, target_id: int, upstreams: Sequence[int]) -> None:
    """check_sink_into_table_cycle (controller/utils.rs:320-520): the target must not be
    upstream of what the sink reads, through dependencies and other sinks into tables."""
    conn = fe.instance.conn
    seen: set[int] = set()
    stack = list(upstreams)
    while stack:
        rid = stack.pop()
        if rid == target_id:
            raise MetaRpcError(
                _CREATE_SINK_CALL, "Creating such a sink will result in circular dependency."
            )
        if rid in seen:
            continue
        seen.add(rid)
        stack.extend(
            int(r[0])
            for r in conn.execute(
                "SELECT referenced_id FROM dependency WHERE dependent_id = ?"
                " UNION SELECT relation_id FROM relation WHERE target_table_id = ?"
                " UNION SELECT primary_table_id FROM relation WHERE relation_id = ?"
                " AND kind = 'index' AND primary_table_id IS NOT NULL",
                (rid, rid, rid),
            )
        )


def append_only_input(fe: Frontend, query: str, upstreams: Sequence[int], depth: int = 0) -> bool:
    """Whether the query's stream is append-only (see the module's docstring)."""
    relations = fe.instance.relations
    for rid in upstreams:
        rel = relations.relation_by_id(rid)
        if rel is None:
            return False
        if rel.kind == RelKind.TABLE:
            if not rel.append_only:
                return False
        elif rel.kind == RelKind.SOURCE:
            continue
        elif rel.kind == RelKind.MATERIALIZED_VIEW and rel.definition and depth < 8:
            ups = [
                int(r[0])
                for r in fe.instance.conn.execute(
                    "SELECT referenced_id FROM dependency WHERE dependent_id = ?", (rid,)
                )
            ]
            if not append_only_input(fe, rel.definition, ups, depth + 1):
                return False
        else:
            return False
    return _append_only_shape(query)


def _append_only_shape(query: str) -> bool:
    from sqlglot import exp

    from rwshim.binder.parse import parse

    try:
        tree = parse(query)
    except Exception:
        return False
    for node in tree.walk():
        if isinstance(
            node,
            (exp.AggFunc, exp.Group, exp.Having, exp.Distinct, exp.Limit, exp.Offset, exp.Window,
             exp.Except, exp.Intersect),
        ):  # fmt: skip
            return False
        if isinstance(node, exp.Union) and node.args.get("distinct"):
            return False
        if isinstance(node, exp.Join) and node.side:
            return False
        if isinstance(node, exp.CurrentTimestamp):
            return False
        if isinstance(node, exp.Anonymous) and str(node.this).lower() in ("now", "proctime"):
            return False
    return True
