"""INCLUDE columns: the kinds each connector accepts, their types and default names, the
columns a CREATE SOURCE or CREATE TABLE with connector appends for them, and the hidden
columns a source gets; with the Rust Debug renderings RisingWave's texts embed.

RisingWave at 448c657: ``src/connector/src/parser/additional_columns.rs``
(COMPATIBLE_ADDITIONAL_COLUMNS, CDC_BACKFILL_TABLE_ADDITIONAL_COLUMNS,
gen_default_addition_col_name, build_additional_column_desc, build_header_catalog,
source_add_partition_offset_cols) and ``src/frontend/src/handler/create_source/
additional_column.rs`` (handle_addition_columns, check_and_add_timestamp_column).  A Rust
``HashSet`` prints in a per-process random order; rwshim prints the kinds in the order of
RisingWave's source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rwshim.common import pgtypes
from rwshim.engine import ColumnSpec
from rwshim.errors import BindError, ProtocolError, RwError
from rwshim.sql.unparse import display as d
from rwshim.sql.unparse import nodes as n

# The Debug names of the parser's Format and Encode (src/sqlparser/src/ast/statement.rs:100-190)
FORMAT_DEBUG = {
    "NATIVE": "Native", "NONE": "None", "DEBEZIUM": "Debezium", "DEBEZIUM_MONGO": "DebeziumMongo",
    "MAXWELL": "Maxwell", "CANAL": "Canal", "UPSERT": "Upsert", "PLAIN": "Plain",
}  # fmt: skip
ENCODE_DEBUG = {
    "AVRO": "Avro", "CSV": "Csv", "PROTOBUF": "Protobuf", "JSON": "Json", "BYTES": "Bytes",
    "NONE": "None", "TEXT": "Text", "NATIVE": "Native", "TEMPLATE": "Template",
    "PARQUET": "Parquet",
}  # fmt: skip

# COMPATIBLE_ADDITIONAL_COLUMNS (src/connector/src/parser/additional_columns.rs:41-100)
ADDITIONAL_COLUMNS: dict[str, tuple[str, ...]] = {
    "kafka": ("key", "timestamp", "partition", "offset", "header", "payload"),
    "pulsar": ("key", "partition", "offset", "payload", "message_id_data", "header"),
    "kinesis": ("key", "partition", "offset", "timestamp", "payload"),
    "nats": ("partition", "offset", "payload", "subject"),
    "s3_v2": ("file", "offset", "payload"),
    "gcs": ("file", "offset", "payload"),
    "azblob": ("file", "offset", "payload"),
    "posix_fs": ("file", "offset", "payload"),
    "mongodb-cdc": ("timestamp", "partition", "offset", "database_name", "collection_name"),
    "mqtt": ("offset", "partition"),
}
# CDC_BACKFILL_TABLE_ADDITIONAL_COLUMNS (additional_columns.rs:103-111)
CDC_BACKFILL_ADDITIONAL_COLUMNS = ("timestamp", "database_name", "schema_name", "table_name")

_VARCHAR = (pgtypes.VARCHAR, "character varying")
_BYTEA = (pgtypes.BYTEA, "bytea")
# build_additional_column_desc (additional_columns.rs:188-299): each kind's type
_KIND_TYPES: dict[str, tuple[int, str]] = {
    "key": _BYTEA,
    "timestamp": (pgtypes.TIMESTAMPTZ, "timestamp with time zone"),
    "partition": _VARCHAR,
    "payload": (pgtypes.JSONB, "jsonb"),
    "offset": _VARCHAR,
    "file": _VARCHAR,
    "database_name": _VARCHAR,
    "schema_name": _VARCHAR,
    "table_name": _VARCHAR,
    "collection_name": _VARCHAR,
    "subject": _VARCHAR,
    "message_id_data": _BYTEA,
}
# all headers: list of struct<key varchar, value bytea> (get_kafka_header_item_datatype)
_HEADERS_TYPE = (2287, 'struct<"key" character varying, "value" bytea>[]')  # record[]


def connector_of(options: Mapping[str, str]) -> str | None:
    """get_connector (src/connector/src/with_options.rs:118-121): lower-cased."""
    value = options.get("connector")
    return None if value is None else str(value).lower()


def connector_error(message: str) -> RwError:
    """A ``ConnectorError`` raised by the connector crate (``bail!``), as the frontend
    reports it: ``connector error`` caused by the message (src/frontend/src/error.rs:52-57)."""
    return RwError("connector error", message)


def rust_str(s: str) -> str:
    """Rust's Debug of a string."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def debug_list(items: Sequence[str]) -> str:
    return "[" + ", ".join(rust_str(i) for i in items) + "]"


def _debug_set(items: Sequence[str]) -> str:
    return "{" + ", ".join(rust_str(i) for i in items) + "}"


# The Debug of the parser's DataType variants an INCLUDE header type can be
_DT_DEBUG = {
    "CHARACTER VARYING": "Varchar", "BYTEA": "Bytea", "INT": "Int", "BIGINT": "BigInt",
    "SMALLINT": "SmallInt", "REAL": "Real", "DOUBLE": "Double", "BOOLEAN": "Boolean",
    "DATE": "Date", "TEXT": "Text", "JSONB": "Jsonb", "INTERVAL": "Interval", "UUID": "Uuid",
    "TIMESTAMP": "Timestamp(false)", "TIMESTAMP WITH TIME ZONE": "Timestamp(true)",
    "TIME": "Time(false)", "TIME WITH TIME ZONE": "Time(true)", "NUMERIC": "Decimal(None, None)",
}  # fmt: skip


def _ident_debug(i: n.Ident) -> str:
    quote = "Some('\"')" if i.quoted else "None"
    return f"Ident {{ value: {rust_str(i.value)}, quote_style: {quote} }}"


def _include_debug(items: Sequence[n.IncludeItem]) -> str:
    """``{:?}`` of an IncludeOption (src/sqlparser/src/parser.rs:104-112)."""
    out = []
    for i in items:
        alias = f"Some({_ident_debug(i.alias)})" if i.alias is not None else "None"
        inner = f"Some({rust_str(i.inner_field)})" if i.inner_field is not None else "None"
        dt = "None"
        if i.header_type is not None:
            dt = f"Some({_DT_DEBUG.get(d.data_type(i.header_type), d.data_type(i.header_type))})"
        out.append(
            f"IncludeOptionItem {{ column_type: {_ident_debug(i.column_type)}, column_alias: "
            f"{alias}, inner_field: {inner}, header_inner_expect_type: {dt} }}"
        )
    return "[" + ", ".join(out) + "]"


def include_columns(
    connector: str,
    items: Sequence[n.IncludeItem],
    enc: str | None,
    cdc_backfill: bool = False,
) -> list[tuple[str, ColumnSpec]]:
    """handle_addition_columns (create_source/additional_column.rs:52-98): each INCLUDE
    column with its kind, in the order RisingWave appends them: the reverse of the
    statement's (the items are popped from the end of the list, :70)."""
    supported = (
        CDC_BACKFILL_ADDITIONAL_COLUMNS if cdc_backfill else ADDITIONAL_COLUMNS.get(connector)
    )
    if supported is None:
        if items:
            raise ProtocolError(
                f"Connector {connector} accepts no additional column but got "
                + _include_debug(items)
            )
        return []
    out: list[tuple[str, ColumnSpec]] = []
    for item in reversed(items):
        kind = item.column_type.real_value()
        # check_additional_column_compatibility (additional_column.rs:18-49)
        if item.inner_field is not None and kind.lower() != "header":
            raise ProtocolError(
                f"Only header column can have inner field, but got {rust_str(kind)}"
            )
        if enc is not None and kind.lower() == "payload" and enc != "JSON":
            raise ProtocolError(
                "INCLUDE payload is only allowed when using ENCODE JSON, but got ENCODE "
                + ENCODE_DEBUG.get(enc, enc)
            )
        header_type: tuple[int, str] | None = None
        if item.header_type is not None:
            header_type = _bind_type(item.header_type)
            if header_type[1] not in ("bytea", "character varying"):
                raise BindError(f"invalid additional column data type: {header_type[1]}")
        out.append((kind, _additional_column(connector, kind, item, header_type, supported)))
    return out


def _bind_type(dt: n.DataType) -> tuple[int, str]:
    from rwshim.common import rwtypes
    from rwshim.sql.columns import table_schema

    (col,) = table_schema(f"(x {d.data_type(dt)})").columns
    return rwtypes.bind_column_type(col.type_name, col.type_text, col.array_dims)


def _additional_column(
    connector: str,
    kind: str,
    item: n.IncludeItem,
    header_type: tuple[int, str] | None,
    supported: Sequence[str],
) -> ColumnSpec:
    """build_additional_column_desc (additional_columns.rs:146-302)."""
    if kind not in supported:
        raise connector_error(
            f"additional column type {kind} is not supported for connector {connector}, "
            f"acceptable column types: {_debug_set(supported)}"
        )
    from rwshim.sql.unparse.purify import include_column_name

    name = include_column_name(connector, item)
    if kind == "header":
        oid, rw = _HEADERS_TYPE if item.inner_field is None else (header_type or _BYTEA)
    else:
        oid, rw = _KIND_TYPES[kind]
    return ColumnSpec(name, oid, rw)


def hidden_source_columns(connector: str, kinds: Sequence[str], shared: bool) -> list[ColumnSpec]:
    """check_and_add_timestamp_column (additional_column.rs:100-130): a Kafka source gets the
    hidden ``_rw_kafka_timestamp`` unless it includes the timestamp; a shared source also
    gets its hidden partition (or file) and offset columns unless included
    (source_add_partition_offset_cols, additional_columns.rs:337-414;
    create_source.rs:1000-1013)."""
    out: list[ColumnSpec] = []
    if connector == "kafka" and "timestamp" not in kinds:
        out.append(ColumnSpec(f"_rw_{connector}_timestamp", *_KIND_TYPES["timestamp"], True))
    if shared:
        compatible = ADDITIONAL_COLUMNS.get(connector, ("partition", "offset"))
        first = [k for k in ("partition", "file") if k in compatible]
        if not any(k in kinds for k in ("partition", "file")):
            out += [ColumnSpec(f"_rw_{connector}_{k}", *_VARCHAR, True) for k in first]
        if "offset" not in kinds:
            out.append(ColumnSpec(f"_rw_{connector}_offset", *_VARCHAR, True))
    return out
