"""Decoding a connector message into row operations, as RisingWave's parsers do: FORMAT
PLAIN / UPSERT / DEBEZIUM with ENCODE JSON, PLAIN CSV and PLAIN BYTES.  Pure: values come out
as Python values (``Value``) the caller casts to the column's type on PostgreSQL.

RisingWave at 448c657, under ``src/connector/src/parser/``:

- ``mod.rs:449-491`` (into_chunk_stream_inner): a message whose parse fails is skipped, logged
  ("failed to parse message, skipping") and counted in ``user_source_error``; the statement
  that delivered it does not fail.  ``DecodeError`` is that failure here.
- ``chunk_builder.rs:272-310`` (do_action): a non-key column whose value cannot be converted is
  NULL ("failed to parse non-pk column, padding with `NULL`"); a key column's error fails the
  row (the message is skipped).  ``ColumnError`` is that failure here.
- ``unified/json.rs:232-247`` (JsonParseOptions::DEFAULT) and ``:280-520`` (parse): the JSON
  conversions (numbers from numbers or strings, booleans strict, varchar from primary types
  only, keys matched ignoring case); a missing key is NULL.
- ``csv_parser.rs`` (read_row, parse_string, parse_inner): one record per message, the first
  message is the header unless ``without_header`` is true; an empty field is NULL.
- ``bytes_parser.rs``: the payload is the one column's bytea.
- ``upsert_parser.rs``: a payload is an upsert of its row (the key column is the message key),
  no payload a delete by key.
- ``debezium/debezium_parser.rs`` and ``unified/debezium.rs``: ``op`` c/r insert ``after``,
  u updates ``before`` to ``after``, d deletes ``before``; the envelope may be wrapped in
  ``payload``; a tombstone (no payload) is no row.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# A decoded value: None (NULL), bool, int, float, str (a text for the column's type to read),
# bytes (bytea), or a JsonValue (jsonb)
Value = object


@dataclass(frozen=True, slots=True)
class JsonValue:
    """A value for a jsonb column (its JSON text)."""

    text: str


@dataclass(frozen=True, slots=True)
class Column:
    """A column the parser fills: its name and RisingWave type text; ``key`` when it is part
    of the table's primary key (an error in it fails the row, chunk_builder.rs:287)."""

    name: str
    rw_type: str
    key: bool = False


@dataclass(frozen=True, slots=True)
class RowOp:
    """One row operation: ``insert`` (upsert on a table with a key), ``delete``, or
    ``update`` (``old`` replaced by ``values``)."""

    op: str
    values: dict[str, Value]
    old: dict[str, Value] | None = None


class DecodeError(Exception):
    """The message cannot be parsed: it is skipped (mod.rs:449-491)."""


class ColumnError(Exception):
    """A value does not convert to its column's type (AccessError::TypeError)."""


@dataclass(slots=True)
class Decoder:
    """One source's parser: its format, encode, options and columns (the payload columns, not
    the INCLUDE ones); CSV keeps its header between messages, as RisingWave's parser does."""

    fmt: str
    enc: str
    columns: Sequence[Column]
    options: Mapping[str, str] = field(default_factory=dict)
    key_column: str | None = None  # UPSERT: the INCLUDE KEY column
    csv_header: list[str] | None = None

    def __post_init__(self) -> None:
        if self.enc == "CSV" and str(self.options.get("without_header", "false")).lower() != "true":
            self.csv_header = []  # has_header: the first record is the header

    def decode(self, key: bytes | None, payload: bytes | None) -> list[RowOp]:
        """The row operations of one message (raises DecodeError: skip it)."""
        if self.fmt == "UPSERT":
            return self._upsert(key, payload)
        if payload is None:
            return []  # only_parse_payload!: no payload, no row
        if self.fmt == "DEBEZIUM":
            return self._debezium(payload)
        if self.enc == "JSON":
            return [RowOp("insert", self._json_row(_json_object(payload)))]
        if self.enc == "CSV":
            return self._csv(payload)
        if self.enc == "BYTES":
            return [RowOp("insert", {c.name: payload for c in self.columns[:1]})]
        raise DecodeError(f"FORMAT {self.fmt} ENCODE {self.enc} is not decoded by rwshim")

    # --- formats ------------------------------------------------------------------------

    def _upsert(self, key: bytes | None, payload: bytes | None) -> list[RowOp]:
        if key is None:
            # upsert_parser.rs: the key accessor has no key to read
            raise DecodeError("the message has no key")
        if payload is None:
            values: dict[str, Value] = {c.name: None for c in self.columns}
            return [RowOp("delete", values)]
        return [RowOp("insert", self._json_row(_json_object(payload)))]

    def _debezium(self, payload: bytes) -> list[RowOp]:
        doc = _json_object(payload)
        inner = doc.get("payload", doc)
        if inner is None:
            return []  # a tombstone: Debezium's delete marker after the delete event
        if not isinstance(inner, dict):
            raise DecodeError("the debezium payload is not an object")
        op = inner.get("op")
        before, after = inner.get("before"), inner.get("after")
        if op in ("c", "r"):
            return [RowOp("insert", self._json_row(_need(after, "after")))]
        if op == "u":
            old = self._json_row(_need(before, "before"))
            return [RowOp("update", self._json_row(_need(after, "after")), old)]
        if op == "d":
            return [RowOp("delete", self._json_row(_need(before, "before")))]
        raise DecodeError(f"unknown debezium op: {op}")

    def _csv(self, payload: bytes) -> list[RowOp]:
        fields = _csv_record(payload, str(self.options.get("delimiter", ",")))
        if self.csv_header is not None and not self.csv_header:
            self.csv_header = fields
            return []
        row: dict[str, Value] = {}
        for i, c in enumerate(self.columns):
            if self.csv_header is not None:
                pos = self.csv_header.index(c.name) if c.name in self.csv_header else None
            else:
                pos = i
            text = fields[pos] if pos is not None and pos < len(fields) else ""
            row[c.name] = None if text == "" else _fill(c, from_text, text)
        return [RowOp("insert", row)]

    def _json_row(self, obj: Mapping[str, object]) -> dict[str, Value]:
        lowered = {k.lower(): v for k, v in obj.items()}
        out: dict[str, Value] = {}
        for c in self.columns:
            if c.name == self.key_column:
                continue
            # ignoring_keycase (json.rs:245): the exact key first, then any case
            raw = obj[c.name] if c.name in obj else lowered.get(c.name.lower())
            out[c.name] = _fill(c, from_json, raw)
        return out


def _fill(c: Column, convert: Callable[[str, Any], Value], raw: Any) -> Value:
    try:
        return convert(c.rw_type, raw)
    except ColumnError as e:
        if c.key:
            raise DecodeError(str(e)) from None
        return None  # chunk_builder.rs:287-305: padding with NULL


def _need(v: object, what: str) -> Mapping[str, object]:
    if not isinstance(v, dict):
        raise DecodeError(f"the debezium event has no {what}")
    return v


def _json_object(payload: bytes) -> dict[str, object]:
    try:
        doc = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as e:
        raise DecodeError(f"invalid JSON: {e}") from None
    if not isinstance(doc, dict):
        raise DecodeError("the JSON payload is not an object")
    return doc


def _csv_record(payload: bytes, delimiter: str) -> list[str]:
    """The first record of ``payload`` (csv_parser.rs read_row: the csv crate, no header)."""
    import csv
    import io

    try:
        text = payload.decode()
    except UnicodeDecodeError as e:
        raise DecodeError(str(e)) from None
    for record in csv.reader(io.StringIO(text), delimiter=delimiter):
        return record
    return []


# --- conversions -------------------------------------------------------------------------

_INT_RANGES = {
    "smallint": (-(2**15), 2**15 - 1),
    "integer": (-(2**31), 2**31 - 1),
    "bigint": (-(2**63), 2**63 - 1),
}
_FLOATS = ("real", "double precision")
# the special strings Debezium writes for decimals (json.rs:455-470)
_DEBEZIUM_DECIMALS = {
    "NAN": "NaN", "POSITIVE_INFINITY": "Infinity", "NEGATIVE_INFINITY": "-Infinity",
}  # fmt: skip
# Rust's i16/i32/i64::from_str: an optional sign and digits
_RUST_INT = re.compile(r"[+-]?[0-9]+\Z")
_RUST_FLOAT = re.compile(
    r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z|[+-]?(inf|infinity|nan)\Z", re.I
)


def _type_error(rw_type: str, got: str, value: object) -> ColumnError:
    return ColumnError(f"expected type {rw_type}, got {got}: {value}")


def _json_kind(v: object) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "i64"
    if isinstance(v, float):
        return "f64"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def from_json(rw_type: str, v: object) -> Value:
    """A JSON value as a column of ``rw_type`` reads it (json.rs parse, DEFAULT options)."""
    if v is None:
        return None
    if rw_type == "jsonb":
        return JsonValue(json.dumps(v, separators=(",", ":")))
    if rw_type == "boolean":
        if isinstance(v, bool):  # BooleanHandling::Strict
            return v
        raise _type_error(rw_type, _json_kind(v), v)
    if rw_type in _INT_RANGES:
        lo, hi = _INT_RANGES[rw_type]
        if isinstance(v, int) and not isinstance(v, bool):
            n = v
        elif isinstance(v, str) and _RUST_INT.match(v):  # NumericHandling::Relax
            n = int(v)
        else:
            raise _type_error(rw_type, _json_kind(v), v)
        if not lo <= n <= hi:
            raise _type_error(rw_type, _json_kind(v), v)
        return n
    if rw_type in _FLOATS:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
        if isinstance(v, str) and _RUST_FLOAT.match(v):
            return float(v)
        raise _type_error(rw_type, _json_kind(v), v)
    if rw_type == "numeric":
        if isinstance(v, int) and not isinstance(v, bool):
            return str(v)
        if isinstance(v, float) and math.isfinite(v):
            return repr(v)
        if isinstance(v, str):
            special = {
                "NAN": "NaN",
                "POSITIVE_INFINITY": "Infinity",
                "NEGATIVE_INFINITY": "-Infinity",
            }
            return special.get(v, v)
        raise _type_error(rw_type, _json_kind(v), v)
    if rw_type in ("character varying", "text"):
        # VarcharHandling::OnlyPrimaryTypes: strings, numbers and booleans as text
        if isinstance(v, str):
            return v
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return json.dumps(v)
        raise _type_error(rw_type, _json_kind(v), v)
    if rw_type == "bytea":
        if isinstance(v, str):  # ByteaHandling::Standard: the string's bytes
            return v.encode()
        raise _type_error(rw_type, _json_kind(v), v)
    if rw_type in _TEMPORAL and isinstance(v, int) and not isinstance(v, bool):
        return _temporal_from_int(rw_type, v)
    if isinstance(v, (dict, list)):
        # structs and lists from JSON are not decoded by rwshim: a type error (NULL)
        raise _type_error(rw_type, _json_kind(v), v)
    if isinstance(v, bool):
        raise _type_error(rw_type, "bool", v)
    return str(v)


_TEMPORAL = (
    "date", "time without time zone", "timestamp without time zone", "timestamp with time zone",
)  # fmt: skip


def _temporal_from_int(rw_type: str, n: int) -> Value:
    """json.rs:506-625: a date from days since 1970-01-01, a time from microseconds, a
    timestamp from seconds / ms / us / ns guessed by magnitude (i64_to_timestamptz,
    src/common/src/cast/mod.rs:51-71)."""
    import datetime as dt

    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    try:
        if rw_type == "date":
            return (epoch + dt.timedelta(days=n)).date().isoformat()
        if rw_type == "time without time zone":
            if not 0 <= n < 86_400_000_000:
                raise _type_error(rw_type, "i64", n)
            return (epoch + dt.timedelta(microseconds=n)).time().isoformat()
        size = abs(n)
        micros = (
            n * 1_000_000 if size < 10**11
            else n * 1000 if size < 10**14
            else n if size < 10**17
            else (n // 1000 if n >= 0 else -(-n // 1000))  # Rust's / truncates
        )  # fmt: skip
        at = epoch + dt.timedelta(microseconds=micros)
    except OverflowError:
        raise _type_error(rw_type, "i64", n) from None
    if rw_type == "timestamp with time zone":
        return at.isoformat(sep=" ")
    return at.replace(tzinfo=None).isoformat(sep=" ")


def from_text(rw_type: str, text: str) -> Value:
    """A CSV field as a column of ``rw_type`` reads it (csv_parser.rs parse_string)."""
    if rw_type == "boolean":
        # str_to_bool (src/common/src/types/mod.rs): PostgreSQL's boolean words
        low = text.strip().lower()
        if low in ("t", "true", "y", "yes", "on", "1"):
            return True
        if low in ("f", "false", "n", "no", "off", "0"):
            return False
        raise ColumnError(f"expected type boolean, got string: {text}")
    if rw_type in _INT_RANGES:
        lo, hi = _INT_RANGES[rw_type]
        if not _RUST_INT.match(text) or not lo <= int(text) <= hi:
            raise ColumnError(f"expected type {rw_type}, got string: {text}")
        return int(text)
    if rw_type in _FLOATS:
        if not _RUST_FLOAT.match(text):
            raise ColumnError(f"expected type {rw_type}, got string: {text}")
        return float(text)
    if rw_type in ("character varying", "text", "numeric", "date", "time without time zone",
                   "timestamp without time zone", "timestamp with time zone"):  # fmt: skip
        return text
    raise ColumnError(f"unsupported type {rw_type}")
