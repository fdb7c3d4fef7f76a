"""Typing: the type of every expression the binder binds, as RisingWave infers it.

RisingWave types an expression while binding it (src/frontend/src/expr/type_inference/func.rs
for functions and operators, type_inference/cast.rs for casts, binder/expr/value.rs for
literals, binder/expr/mod.rs ``bind_data_type`` for type names); rwshim does the same in one
pass, with the rules collected here: the OID a written type names (``type_oid_of``), the
result type of a function (``function_type``: fixed, the first argument's, the common type of
the arguments, an array or element of the argument), the common type of CASE branches and
COALESCE (``common_type``), and the sqlglot function classes under the PostgreSQL names a user
wrote (``func_name``).  Types are internal OIDs; ``types.external`` gives what a client sees.
Nothing here depends on the engine that runs the query.
"""

from __future__ import annotations

from typing import TypeVar

from sqlglot import exp

from rwshim.binder import types
from rwshim.common import pgtypes

UNKNOWN = pgtypes.UNKNOWN


def type_oid_of(dt_node: exp.Expr) -> int:
    """The internal OID a sqlglot type node denotes."""
    if isinstance(dt_node, exp.ObjectIdentifier):
        return types.oid_of_name(dt_node.name.lower()) or pgtypes.VARCHAR
    if isinstance(dt_node, exp.DataType):
        if dt_node.is_type(exp.DataType.Type.ARRAY) and dt_node.expressions:
            return types.array_of(type_oid_of(dt_node.expressions[0]))
        if dt_node.this == exp.DataType.Type.USERDEFINED:
            kind = dt_node.args.get("kind")
            name = (kind.name if isinstance(kind, exp.Expr) else str(kind or "")).lower()
            if name == "char":  # "char" quoted
                return pgtypes.VARCHAR
            return types.oid_of_name(name.removeprefix("pg_catalog.")) or pgtypes.VARCHAR
        name = dt_node.this.name.lower() if hasattr(dt_node.this, "name") else str(dt_node.this)
        return _SQLGLOT_TYPES.get(name) or types.oid_of_name(name) or pgtypes.VARCHAR
    return pgtypes.VARCHAR


# The sqlglot types RisingWave's ``bind_data_type`` binds (binder/expr/mod.rs), by what they
# become; the others are refused, named as RisingWave displays them (ast/data_type.rs:73-131).
_RW_BOUND_TYPES: dict[str, int] = {
    "BOOLEAN": pgtypes.BOOL,
    "SMALLINT": pgtypes.INT2,
    "INT": pgtypes.INT4,
    "BIGINT": pgtypes.INT8,
    "FLOAT": pgtypes.FLOAT4,
    "DOUBLE": pgtypes.FLOAT8,
    "VARCHAR": pgtypes.VARCHAR,
    "TEXT": pgtypes.VARCHAR,
    "CHAR": pgtypes.VARCHAR,  # bind_cast: CHAR(n) is read as varchar (mod.rs:1011-1024)
    "DATE": pgtypes.DATE,
    "TIME": pgtypes.TIME,
    "TIMESTAMP": pgtypes.TIMESTAMP,
    "TIMESTAMPTZ": pgtypes.TIMESTAMPTZ,
    "INTERVAL": pgtypes.INTERVAL,
    "VARBINARY": pgtypes.BYTEA,
    "JSONB": pgtypes.JSONB,
    # head only (ast/data_type.rs ``Variant``; the releases without it: Release.variant_type)
    "VARIANT": 1307,
}
_RW_REFUSED_DISPLAY: dict[str, str] = {
    "UUID": "UUID",
    "TIMETZ": "TIME WITH TIME ZONE",
}
# DataType::Custom names bind_data_type knows, bare or under pg_catalog (mod.rs bind_data_type)
_RW_CUSTOM_TYPES: dict[str, int] = {
    "int2": pgtypes.INT2,
    "int4": pgtypes.INT4,
    "int8": pgtypes.INT8,
    "float4": pgtypes.FLOAT4,
    "float8": pgtypes.FLOAT8,
    "timestamptz": pgtypes.TIMESTAMPTZ,
    "text": pgtypes.VARCHAR,
}


E = TypeVar("E", bound=BaseException)


def at_bind(error: E) -> E:
    """Mark an error RisingWave raises while binding an expression: the root expression's
    ``Failed to bind expression`` wraps it (binder/expr/mod.rs:57-64)."""
    error.at_bind = True  # type: ignore[attr-defined]
    return error


def cast_type(dt_node: exp.Expr) -> int:
    """The internal OID of a cast's target type, bound as RisingWave's ``bind_cast`` binds it
    (binder/expr/mod.rs:991-1025 and ``bind_data_type``): ``regclass`` and ``regproc`` (bare
    only), CHAR(n) as varchar, the keyword types, and the custom names ``int2`` ... ``text``
    (bare or ``pg_catalog.``-qualified).  Every other name (``oid``, ``name``, ``regtype``,
    ``pg_catalog.regclass``, ``uuid``, ``numeric(10,2)``, ...) fails with RisingWave's
    ``Feature is not yet implemented: unsupported data type: <type>``."""
    from rwshim.errors import NotImplementedError_, NotSupported

    def refuse(display: str) -> NotImplementedError_:
        return at_bind(NotImplementedError_(f"unsupported data type: {display}"))

    if isinstance(dt_node, exp.ObjectIdentifier):
        name = dt_node.name.lower()
        if name == "regclass":
            return pgtypes.INT4
        if name == "regproc":
            return pgtypes.VARCHAR
        raise refuse(name)
    if not isinstance(dt_node, exp.DataType):
        raise refuse(dt_node.sql("postgres"))
    kind = dt_node.this
    if kind == exp.DataType.Type.ARRAY and dt_node.expressions:
        return types.array_of(cast_type(dt_node.expressions[0]))
    if kind == exp.DataType.Type.USERDEFINED:
        ref = dt_node.args.get("kind")
        if isinstance(ref, exp.Identifier) and ref.quoted and ref.name == "char":
            raise refuse('"char"')
        written = ref.sql("postgres") if isinstance(ref, exp.Expr) else str(ref or "")
        parts = [p.name if isinstance(p, exp.Identifier) else str(p) for p in _dotted(ref)]
        if len(parts) == 2 and parts[0] == "pg_catalog":
            parts = parts[1:]
        if len(parts) == 1 and parts[0].lower() == "serial":
            raise NotSupported(
                "Column type SERIAL is not supported", "Please remove the SERIAL column"
            )
        if len(parts) == 1 and parts[0] in _RW_CUSTOM_TYPES:
            return _RW_CUSTOM_TYPES[parts[0]]
        raise refuse(written)
    key = kind.name if isinstance(kind, exp.DataType.Type) else str(kind)
    if key == "DECIMAL":
        params = [p.name for p in dt_node.expressions]
        if not params:
            return pgtypes.NUMERIC
        raise refuse(f"NUMERIC({','.join(params)})")
    if key in ("FLOAT", "DOUBLE") and dt_node.expressions:
        # FLOAT(p): 1..24 is real, 25..53 double (the parser refuses other precisions)
        p = int(dt_node.expressions[0].name)
        return pgtypes.FLOAT4 if p <= 24 else pgtypes.FLOAT8
    if key in _RW_BOUND_TYPES and (key == "CHAR" or not dt_node.expressions):
        return _RW_BOUND_TYPES[key]
    if key == "SERIAL":
        raise at_bind(
            NotSupported("Column type SERIAL is not supported", "Please remove the SERIAL column")
        )
    raise refuse(_RW_REFUSED_DISPLAY.get(key, key.lower()))


def _dotted(ref: object) -> list[object]:
    if isinstance(ref, exp.Dot):
        return [*_dotted(ref.this), ref.expression]
    return [ref]


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

# Return types of functions by lower-case PostgreSQL name; "arg0" = type of the first argument.
_FUNC_TYPES: dict[str, int | str] = {
    "count": pgtypes.INT8,
    "sum": "sum",
    "avg": "avg",
    "min": "arg0",
    "max": "arg0",
    "bool_and": pgtypes.BOOL,
    "bool_or": pgtypes.BOOL,
    "every": pgtypes.BOOL,
    "array_agg": "array",
    "string_agg": pgtypes.VARCHAR,
    "coalesce": "common",
    "nullif": "arg0",
    "greatest": "common",
    "least": "common",
    "abs": "arg0",
    "round": "arg0",
    "ceil": "arg0",
    "ceiling": "arg0",
    "floor": "arg0",
    "trunc": pgtypes.FLOAT8,
    "regexp_match": pgtypes.VARCHAR_ARRAY,  # scalar/regexp.rs: varchar[]
    "sqrt": pgtypes.FLOAT8,
    "power": pgtypes.FLOAT8,
    "pow": pgtypes.FLOAT8,
    "exp": pgtypes.FLOAT8,
    "ln": pgtypes.FLOAT8,
    "log10": pgtypes.FLOAT8,
    "pi": pgtypes.FLOAT8,
    "random": pgtypes.FLOAT8,
    "sign": "arg0",
    "mod": "arg0",
    "length": pgtypes.INT4,
    "char_length": pgtypes.INT4,
    "character_length": pgtypes.INT4,
    "octet_length": pgtypes.INT4,
    "strpos": pgtypes.INT4,
    "position": pgtypes.INT4,
    "array_position": pgtypes.INT4,
    "array_length": pgtypes.INT4,
    "cardinality": pgtypes.INT4,
    "array_upper": pgtypes.INT4,
    "array_lower": pgtypes.INT4,
    "row_number": pgtypes.INT8,
    "rank": pgtypes.INT8,
    "dense_rank": pgtypes.INT8,
    "lag": "arg0",
    "lead": "arg0",
    "first_value": "arg0",
    "last_value": "arg0",
    "now": pgtypes.TIMESTAMPTZ,
    "current_timestamp": pgtypes.TIMESTAMPTZ,
    "current_date": pgtypes.DATE,
    "date_trunc": "arg1",
    "date_part": pgtypes.FLOAT8,
    "extract": pgtypes.NUMERIC,
    "to_timestamp": pgtypes.TIMESTAMPTZ,
    "pg_table_is_visible": pgtypes.BOOL,
    "pg_backend_pid": pgtypes.INT4,
    "pg_postmaster_start_time": pgtypes.TIMESTAMPTZ,
    "pg_tablespace_location": pgtypes.VARCHAR,
    "pg_relation_is_publishable": pgtypes.BOOL,
    "pg_collation_is_visible": pgtypes.BOOL,
    "starts_with": pgtypes.BOOL,
    "pg_table_size": pgtypes.INT8,
    "pg_relation_size": pgtypes.INT8,
    "pg_total_relation_size": pgtypes.INT8,
    "to_regtype": types.REGTYPE_TAG,
    "json_build_object": pgtypes.JSONB,
    "jsonb_build_object": pgtypes.JSONB,
    "generate_subscripts": pgtypes.INT4,
    "tumble_start": "arg0",
    "rw_hop_starts": "array",
    "rw_ts_add": "arg0",
    "unnest": "elem",
    "generate_series": "arg0",
    "pg_advisory_unlock_all": pgtypes.VARCHAR,
    "current_schemas": pgtypes.VARCHAR_ARRAY,
    "rw_current_database_id": pgtypes.INT4,
    "rw_current_user_id": pgtypes.INT4,
    "rw_view_query": pgtypes.VARCHAR,
}


# sqlglot's function classes -> the PostgreSQL name a user wrote.
_CLASS_NAMES: dict[type[exp.Expr], str] = {
    exp.Count: "count",
    exp.Sum: "sum",
    exp.Avg: "avg",
    exp.Min: "min",
    exp.Max: "max",
    exp.ArrayAgg: "array_agg",
    exp.GroupConcat: "string_agg",
    exp.LogicalAnd: "bool_and",
    exp.LogicalOr: "bool_or",
    exp.Coalesce: "coalesce",
    exp.Nullif: "nullif",
    exp.Greatest: "greatest",
    exp.Least: "least",
    exp.Abs: "abs",
    exp.Round: "round",
    exp.Upper: "upper",
    exp.Lower: "lower",
    exp.Length: "length",
    exp.Substring: "substring",
    exp.Trim: "btrim",
    exp.StrPosition: "position",
    exp.Replace: "replace",
    exp.Left: "left",
    exp.Right: "right",
    exp.Concat: "concat",
    exp.ConcatWs: "concat_ws",
    exp.ArraySize: "array_length",
    exp.TimestampTrunc: "date_trunc",
    exp.DateTrunc: "date_trunc",
    exp.CurrentTimestamp: "now",
    exp.CurrentDate: "current_date",
    exp.CurrentUser: "current_user",
    exp.CurrentSchema: "current_schema",
    exp.CurrentVersion: "version",
    exp.Explode: "unnest",
    exp.ExplodingGenerateSeries: "generate_series",
    exp.GenerateSeries: "generate_series",
    exp.Pow: "power",
    exp.Sqrt: "sqrt",
    exp.Ceil: "ceil",
    exp.Floor: "floor",
    exp.Ln: "ln",
    exp.Exp: "exp",
    exp.Sign: "sign",
    exp.Mod: "mod",
    exp.Initcap: "initcap",
    exp.Repeat: "repeat",
    exp.Reverse: "reverse",
    exp.MD5: "md5",
    exp.Pad: "lpad",
    exp.RegexpReplace: "regexp_replace",
    exp.SplitPart: "split_part",
    exp.StartsWith: "starts_with",
    exp.ArrayToString: "array_to_string",
    exp.RowNumber: "row_number",
    exp.Lag: "lag",
    exp.Lead: "lead",
    exp.FirstValue: "first_value",
    exp.LastValue: "last_value",
    exp.Rand: "random",
    exp.UnixToTime: "to_timestamp",
    exp.StrToTime: "to_timestamp",  # to_timestamp(text, format)
    exp.TimeToStr: "to_char",
    exp.JSONObject: "json_build_object",
}


def func_name(node: exp.Expr) -> str:
    name = _CLASS_NAMES.get(type(node))
    if name is not None:
        if isinstance(node, exp.Pad):
            return "lpad" if node.args.get("is_left") else "rpad"
        return name
    if isinstance(node, exp.Anonymous):
        return node.name.lower()
    if isinstance(node, exp.Func):
        return node.sql_name().lower()
    return type(node).__name__.lower()


def literal_default(oid: int) -> int:
    return pgtypes.VARCHAR if oid == UNKNOWN else oid


_SRF_NAMES = frozenset({"unnest", "generate_series", "generate_subscripts", "_pg_expandarray"})

# RisingWave's table functions (proto/expr.proto TableFunction.Type, src/expr/impl/src/
# table_function/): any other function in FROM is a scalar one, bound as one row
# (binder/relation/table_function.rs:95-158, planner/relation.rs:426-437).  The data plane's
# generated list (dataplane/plan/rw_functions_generated.py TABLE) holds the same names
# (tests/unit/query/test_set_returning.py checks it).
TABLE_FUNCTIONS = frozenset(
    {
        "file_scan", "generate_series", "generate_subscripts", "internal_backfill_progress",
        "internal_get_channel_delta_stats", "internal_source_backfill_progress",
        "jsonb_array_elements", "jsonb_array_elements_text", "jsonb_each", "jsonb_each_text",
        "jsonb_object_keys", "jsonb_path_query", "jsonb_populate_recordset",
        "jsonb_to_recordset", "mysql_query", "pg_get_keywords", "postgres_query", "range",
        "regexp_matches", "unnest", "user_defined",
    }
)  # fmt: skip


def is_srf(node: exp.Expr) -> bool:
    return isinstance(node, exp.Func) and func_name(node) in _SRF_NAMES


def is_regclass(to: exp.Expr) -> bool:
    return isinstance(to, exp.ObjectIdentifier) and to.name.lower() == "regclass"


def func_args(node: exp.Expr) -> list[exp.Expr]:
    if isinstance(node, exp.Anonymous):
        return list(node.expressions)
    out: list[exp.Expr] = []
    for key in node.arg_types:
        v = node.args.get(key)
        if isinstance(v, exp.Expr):
            out.append(v)
        elif isinstance(v, list):
            out.extend(x for x in v if isinstance(x, exp.Expr))
    return out


def common_type(oids: list[int]) -> int:
    known = [o for o in oids if o != UNKNOWN]
    if not known:
        return UNKNOWN
    out = known[0]
    for o in known[1:]:
        if o in types.NUMERIC_OIDS and out in types.NUMERIC_OIDS:
            out = types.wider_numeric(out, o)
    return out


def _result_type(rtype: int | str | None, oids: list[int]) -> int:
    if rtype is None:
        return pgtypes.VARCHAR
    if isinstance(rtype, int):
        return rtype
    if rtype == "arg0":
        return oids[0] if oids else pgtypes.VARCHAR
    if rtype == "arg1":
        return oids[1] if len(oids) > 1 else pgtypes.VARCHAR
    if rtype == "common":
        return common_type(oids)
    if rtype == "array":
        return types.array_of(oids[0]) if oids else pgtypes.VARCHAR_ARRAY
    if rtype == "elem":
        return (types.element_of(oids[0]) or pgtypes.VARCHAR) if oids else pgtypes.VARCHAR
    return pgtypes.VARCHAR


def function_type(name: str, oids: list[int]) -> int:
    """The result type of function ``name`` (lower-case PostgreSQL name) on arguments of types
    ``oids``; varchar for a function the table does not know."""
    return _result_type(_FUNC_TYPES.get(name), oids)


def number_type(text: str) -> int:
    """The type of a numeric literal (binder/expr/value.rs): int4 if it fits, then int8,
    else numeric; any fraction or exponent makes it numeric."""
    if any(c in text for c in ".eE"):
        return pgtypes.NUMERIC
    v = int(text)
    if v <= 2**31 - 1:
        return pgtypes.INT4
    if v <= 2**63 - 1:
        return pgtypes.INT8
    return pgtypes.NUMERIC
