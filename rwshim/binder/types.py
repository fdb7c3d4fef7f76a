"""RisingWave's value types: names and OIDs, type classes, renderings, and the value forms.

RisingWave has fewer types than PostgreSQL: ``text``, ``name``, ``char`` and ``bpchar`` are all
``varchar`` (src/frontend/src/binder/expr/mod.rs:1011-1024, 1129), a ``regclass`` cast yields
the ``int4`` oid (mod.rs:995-998).  The types clients' catalog SQL casts to but RisingWave lacks
(``oid``, ``regtype``, ``regnamespace``) are kept as internal tags while an expression is being
typed and leave rwshim as builtin OIDs (``int4`` and ``varchar``, ``external``).  The type names
RisingWave accepts and prints are rwshim.common.rwtypes' (``oid_of_name`` adds the binder's
own), ``rw_decimal`` holds its decimal rules (rust_decimal: 28 fractional digits, a 96-bit
mantissa), ``format_float`` / ``format_interval`` / ``render_array_text`` PostgreSQL's text
renderings.

In process (the catalog views over the meta store, and today's SQLite data path) a value has
one form per type, chosen so that SQLite's own comparison and arithmetic give PostgreSQL's
answers for the common cases: integers and booleans as integers (0/1), floats as REAL, numeric
as numbers, text as TEXT, bytea as BLOB, date/time/timestamp as ISO-8601 text (which sorts
chronologically; timestamptz normalised to UTC with a ``+00:00`` suffix), interval as
PostgreSQL-style text, jsonb and arrays as JSON text.  ``decode`` turns such a value into the
Python value the wire layer encodes for the column's OID.
"""

from __future__ import annotations

import datetime as dt
import decimal
import functools
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common.names import quote_ident
from rwshim.lazy import lazy_module, lazy_pattern

if TYPE_CHECKING:
    import json

    from rwshim.common import rwtypes
else:
    json = lazy_module("json")  # on first use: start-up and SELECT 1 read and write no JSON

# Internal type tags (not sent to clients): PostgreSQL OIDs of types RisingWave lacks.
REGTYPE_TAG = pgtypes.REGTYPE
REGNAMESPACE_TAG = pgtypes.REGNAMESPACE
OID_TAG = pgtypes.OID

# Type names the binder reads besides the scalar names of RisingWave's parser
# (rwshim.common.rwtypes.SCALARS): PostgreSQL's string types are varchar, json is jsonb and
# regclass int4 (binder/expr/mod.rs:995-998, 1011-1024, 1129); the rest are internal tags.
_MORE_NAMES: dict[str, int] = {
    "name": pgtypes.VARCHAR,
    "char": pgtypes.VARCHAR,
    "character": pgtypes.VARCHAR,
    "bpchar": pgtypes.VARCHAR,
    "nchar": pgtypes.VARCHAR,
    "nvarchar": pgtypes.VARCHAR,
    "json": pgtypes.JSONB,
    "uuid": pgtypes.VARCHAR,
    "regclass": pgtypes.INT4,
    "regproc": pgtypes.VARCHAR,
    "regtype": REGTYPE_TAG,
    "regnamespace": REGNAMESPACE_TAG,
    "oid": OID_TAG,
}


@functools.cache
def _type_names() -> dict[str, int]:
    from rwshim.common import rwtypes  # the type texts: not needed to start up

    return {n: oid for n, (oid, _) in rwtypes.SCALARS.items()} | _MORE_NAMES


def oid_of_name(name: str) -> int | None:
    """The internal OID of a type name as written in SQL (lower case, after sqlglot parsing;
    RisingWave's view), None for a name that is no type."""
    return _type_names().get(name)


INTEGER_OIDS = frozenset({pgtypes.INT2, pgtypes.INT4, pgtypes.INT8, OID_TAG})
FLOAT_OIDS = frozenset({pgtypes.FLOAT4, pgtypes.FLOAT8})
NUMERIC_OIDS = INTEGER_OIDS | FLOAT_OIDS | {pgtypes.NUMERIC}
STRING_OIDS = frozenset({pgtypes.VARCHAR, pgtypes.TEXT, pgtypes.NAME, pgtypes.CHAR, pgtypes.BPCHAR})
TEMPORAL_OIDS = frozenset(
    {pgtypes.DATE, pgtypes.TIME, pgtypes.TIMESTAMP, pgtypes.TIMESTAMPTZ, pgtypes.INTERVAL}
)


def array_of(oid: int) -> int:
    """The array type of ``oid`` (varchar[] for unknown elements)."""
    t = pgtypes.BY_OID.get(oid)
    if t is not None and t.array_oid:
        return t.array_oid
    return pgtypes.VARCHAR_ARRAY


def element_of(oid: int) -> int | None:
    """The element type if ``oid`` is an array type, else None."""
    t = pgtypes.BY_OID.get(oid)
    if t is not None and t.elem_oid:
        return t.elem_oid
    return None


def is_array(oid: int) -> bool:
    return element_of(oid) is not None


# Struct types (RisingWave's DataType::Struct), as internal tags from STRUCT_BASE up: the
# fields of each, in order.  In process a struct value is a JSON array of its fields; a client
# sees ``record`` (postgres_type.rs:133) with the text form ``(a,b)``.
STRUCT_BASE = 1 << 30
_STRUCTS: list[tuple[tuple[str, int], ...]] = []


def struct_of(fields: tuple[tuple[str, int], ...]) -> int:
    """The internal tag of the struct type with these (name, oid) fields."""
    if fields not in _STRUCTS:
        _STRUCTS.append(fields)
    return STRUCT_BASE + _STRUCTS.index(fields)


def struct_fields(oid: int) -> tuple[tuple[str, int], ...] | None:
    """The fields of a struct tag, else None."""
    i = oid - STRUCT_BASE
    return _STRUCTS[i] if 0 <= i < len(_STRUCTS) else None


# Types the binder passes through whole (a column holding a map anywhere: map(K,V), a list
# of maps, a struct with a map field), as internal tags from OPAQUE_BASE up: RisingWave's
# name of each.  A column of one keeps its type through a query's select list (a view's or
# materialized view's column), and a client sees the type's own OID.
OPAQUE_BASE = 1 << 29
_OPAQUE: list[str] = []


def opaque_text(oid: int) -> str | None:
    """RisingWave's name of an opaque tag's type, else None."""
    i = oid - OPAQUE_BASE
    return _OPAQUE[i] if 0 <= i < len(_OPAQUE) else None


def column_oid(type_oid: int, rw_type: str) -> int:
    """The internal type of a catalog column: its stored OID, except that a struct (stored as
    RECORD, or as a list of them) gets the tag of its fields, which ``(col).field`` binds
    against (binder/expr/mod.rs ``bind_field`` reads the column's StructType), and a type
    holding a map its opaque tag."""
    low = rw_type.lower()
    if "struct" not in low and "map" not in low:
        return type_oid
    from rwshim.common import rwtypes  # the type-text parser, only for struct columns

    if "map" in low:
        try:
            t = rwtypes.parse(rw_type)
        except (rwtypes.TypeSyntaxError, ValueError):
            return type_oid
        if any(x.kind == "map" for x in t.walk()):
            text = t.display()
            if text not in _OPAQUE:
                _OPAQUE.append(text)
            return OPAQUE_BASE + _OPAQUE.index(text)

    try:
        return _internal(rwtypes.parse(rw_type), type_oid)
    except (rwtypes.TypeSyntaxError, ValueError):
        return type_oid


def struct_type_text(oid: int, scalar_name: Callable[[int], str]) -> str | None:
    """RisingWave's name of a struct tag's type (``struct<a integer, b struct<...>>``), the
    names of its scalar fields from ``scalar_name``; None if ``oid`` is no struct tag."""
    fields = struct_fields(oid)
    if fields is None:
        return None
    inner = ", ".join(
        f"{quote_ident(name)} {struct_type_text(f, scalar_name) or scalar_name(f)}"
        for name, f in fields
    )
    return f"struct<{inner}>"


def catalog_type(oid: int, scalar_name: Callable[[int], str]) -> tuple[int, str] | None:
    """(OID, RisingWave's type name) a catalog keeps for a query's output column of a struct
    tag (a RECORD column) or an opaque tag (the type's own OID), else None."""
    struct = struct_type_text(oid, scalar_name)
    if struct is not None:
        return pgtypes.RECORD, struct
    opaque = opaque_text(oid)
    if opaque is not None:
        from rwshim.common import rwtypes

        return rwtypes.parse(opaque).oid, opaque
    return None


def _internal(t: rwtypes.RwType, fallback: int) -> int:
    if t.kind == "struct":
        return struct_of(tuple((name, _internal(f, pgtypes.RECORD)) for name, f in t.fields))
    if t.kind == "list" and t.elem is not None and t.elem.kind == "scalar":
        return array_of(t.elem.scalar_oid)
    if t.kind == "scalar":
        return t.scalar_oid
    return fallback


def external(oid: int) -> int:
    """The OID a client sees for an internally typed value (only builtin RisingWave types)."""
    if struct_fields(oid) is not None:
        return pgtypes.RECORD
    opaque = opaque_text(oid)
    if opaque is not None:
        from rwshim.common import rwtypes

        return rwtypes.parse(opaque).oid
    if oid in (REGTYPE_TAG, REGNAMESPACE_TAG, pgtypes.TEXT, pgtypes.NAME, pgtypes.BPCHAR):
        return pgtypes.VARCHAR
    if oid == pgtypes.CHAR:
        return pgtypes.VARCHAR
    if oid in (OID_TAG, pgtypes.REGCLASS):
        return pgtypes.INT4
    if oid == pgtypes.UNKNOWN:
        return pgtypes.VARCHAR
    elem = element_of(oid)
    if elem is not None:
        ext = external(elem)
        return array_of(ext) if ext != elem else oid
    return oid


def format_type_name(oid: int) -> str:
    """PostgreSQL's name of a type (``format_type``; ``???`` for an unknown oid)."""
    t = pgtypes.BY_OID.get(oid)
    return t.display if t is not None else "???"


def wider_numeric(a: int, b: int) -> int:
    """PostgreSQL's result type of an arithmetic operator on two numeric types."""
    order = [
        pgtypes.INT2,
        pgtypes.INT4,
        pgtypes.INT8,
        pgtypes.NUMERIC,
        pgtypes.FLOAT4,
        pgtypes.FLOAT8,
    ]
    a = pgtypes.INT4 if a == OID_TAG else a
    b = pgtypes.INT4 if b == OID_TAG else b
    if a not in order:
        return b if b in order else a
    if b not in order:
        return a
    r = max(order.index(a), order.index(b))
    # float4 op numeric is float8 in PostgreSQL
    if order[r] == pgtypes.FLOAT4 and pgtypes.NUMERIC in (a, b):
        return pgtypes.FLOAT8
    return order[r]


# wide enough for any sum of RisingWave decimals before ``rw_decimal`` rounds it
DECIMAL_CONTEXT = decimal.Context(prec=60)
_RW_MAX_MANTISSA = 2**96 - 1


def rw_decimal(d: Decimal) -> Decimal:
    """A decimal as RisingWave's rust_decimal holds it: at most 28 fractional digits and a
    96-bit mantissa, trailing zeros dropped."""
    if not d.is_finite():
        return d
    scale = min(28, max(0, -d.as_tuple().exponent))  # type: ignore[operator]
    q = d.quantize(
        Decimal(1).scaleb(-scale), context=DECIMAL_CONTEXT, rounding=decimal.ROUND_HALF_EVEN
    )
    while scale > 0 and abs(int(q.scaleb(scale, context=DECIMAL_CONTEXT))) > _RW_MAX_MANTISSA:
        scale -= 1
        q = d.quantize(
            Decimal(1).scaleb(-scale), context=DECIMAL_CONTEXT, rounding=decimal.ROUND_HALF_EVEN
        )
    n = q.normalize(context=DECIMAL_CONTEXT)
    return n if n.as_tuple().exponent <= 0 else n.quantize(Decimal(1))  # type: ignore[operator]


# --- decoding stored values into Python values ------------------------------------------------

_INTERVAL_RE = lazy_pattern(
    r"^\s*(?:(?P<years>[-+]?\d+) years?\s*)?(?:(?P<mons>[-+]?\d+) mons?\s*)?"
    r"(?:(?P<days>[-+]?\d+) days?\s*)?"
    r"(?:(?P<sign>[-+])?(?P<h>\d+):(?P<m>\d\d):(?P<s>\d\d(?:\.\d+)?))?\s*$"
)


def parse_interval(text: str) -> dt.timedelta:
    """PostgreSQL-style interval text (``1 day 02:00:00``) as a timedelta (a month = 30 days)."""
    m = _INTERVAL_RE.match(text)
    if m is None or not text.strip():
        raise ValueError(text)
    days = int(m["years"] or 0) * 360 + int(m["mons"] or 0) * 30 + int(m["days"] or 0)
    secs = 0.0
    if m["h"] is not None:
        secs = int(m["h"]) * 3600 + int(m["m"]) * 60 + float(m["s"])
        if m["sign"] == "-":
            secs = -secs
    return dt.timedelta(days=days, seconds=secs)


def format_interval(td: dt.timedelta) -> str:
    """A timedelta as PostgreSQL's ``IntervalStyle=postgres`` text."""
    total_us = td.days * 86_400_000_000 + td.seconds * 1_000_000 + td.microseconds
    neg = total_us < 0
    total_us = abs(total_us)
    days, rem = divmod(total_us, 86_400_000_000)
    secs, us = divmod(rem, 1_000_000)
    h, rem_s = divmod(secs, 3600)
    m, s = divmod(rem_s, 60)
    parts = []
    if days:
        parts.append(f"{'-' if neg else ''}{days} day{'s' if days != 1 else ''}")
    if rem or not days:
        frac = f".{us:06d}".rstrip("0") if us else ""
        sign = "-" if neg and rem else ""
        parts.append(f"{sign}{h:02d}:{m:02d}:{s:02d}{frac}")
    return " ".join(parts)


def _to_bool(v: object) -> bool:
    if isinstance(v, str):
        return v.strip().lower() in ("t", "true", "1", "y", "yes", "on")
    return bool(v)


def _to_decimal(v: object) -> Decimal:
    if isinstance(v, float):
        return Decimal(repr(v))
    return Decimal(str(v))


def _to_float(v: object) -> float:
    return float(v)  # type: ignore[arg-type]


def _to_int(v: object) -> int:
    if isinstance(v, float):
        return int(v)
    return int(str(v))


def _to_str(v: object) -> str:
    if isinstance(v, bool):
        return "t" if v else "f"
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, bytes):
        return "\\x" + v.hex()
    return str(v)


def format_float(f: float) -> str:
    """A float8 as PostgreSQL prints it (shortest round-trip form, Infinity, NaN)."""
    if f != f:
        return "NaN"
    if f in (float("inf"), float("-inf")):
        return "Infinity" if f > 0 else "-Infinity"
    if f == int(f) and abs(f) < 1e16:
        return str(int(f))
    return repr(f)


def _to_bytes(v: object) -> bytes:
    if isinstance(v, bytes):
        return v
    s = str(v)
    if s.startswith("\\x"):
        return bytes.fromhex(s[2:])
    return s.encode()


def _to_date(v: object) -> dt.date:
    return dt.date.fromisoformat(str(v)[:10])


def _to_time(v: object) -> dt.time:
    return dt.time.fromisoformat(str(v))


def _to_timestamp(v: object) -> dt.datetime:
    return dt.datetime.fromisoformat(str(v)).replace(tzinfo=None)


def _to_timestamptz(v: object) -> dt.datetime:
    d = dt.datetime.fromisoformat(str(v))
    if d.tzinfo is None:
        d = d.replace(tzinfo=dt.UTC)
    return d


def _to_interval(v: object) -> dt.timedelta:
    return parse_interval(str(v))


def _to_json(v: object) -> str:
    # RisingWave prints jsonb with a space after ':' and ',' (as json.dumps does)
    return json.dumps(json.loads(str(v)))


_DECODERS: dict[int, Callable[[object], object]] = {
    pgtypes.BOOL: _to_bool,
    pgtypes.INT2: _to_int,
    pgtypes.INT4: _to_int,
    pgtypes.INT8: _to_int,
    OID_TAG: _to_int,
    pgtypes.FLOAT4: _to_float,
    pgtypes.FLOAT8: _to_float,
    pgtypes.NUMERIC: _to_decimal,
    pgtypes.BYTEA: _to_bytes,
    pgtypes.DATE: _to_date,
    pgtypes.TIME: _to_time,
    pgtypes.TIMESTAMP: _to_timestamp,
    pgtypes.TIMESTAMPTZ: _to_timestamptz,
    pgtypes.INTERVAL: _to_interval,
    pgtypes.JSONB: _to_json,
}


def decode(value: object, oid: int) -> object:
    """A value stored in SQLite as the Python value for a column typed ``oid``."""
    if value is None:
        return None
    elem = element_of(oid)
    if elem is not None:
        items = value if isinstance(value, list) else parse_array(value)
        return [decode(x, elem) for x in items]
    fields = struct_fields(oid)
    if fields is not None:
        return _struct_text(value, fields)
    fn = _DECODERS.get(oid)
    if fn is None:
        return _to_str(value)
    try:
        return fn(value)
    except (ValueError, TypeError, InvalidOperation):
        # A value SQLite computed outside the declared type (e.g. text in an int column of
        # a loosely typed expression): hand it over as text rather than fail the row.
        return _to_str(value)


def scalar_decoder(oid: int) -> Callable[[object], object] | None:
    """``decode(v, oid)`` with the type's branch chosen once, for a column of a scalar type
    (None for arrays and structs): the read path decodes every value of a result with it."""
    if element_of(oid) is not None or struct_fields(oid) is not None:
        return None
    fn = _DECODERS.get(oid)
    if fn is None:

        def as_text(value: object) -> object:
            if value is None:
                return None
            return value if type(value) is str else _to_str(value)

        return as_text
    convert = fn

    def typed(value: object) -> object:
        if value is None:
            return None
        try:
            return convert(value)
        except (ValueError, TypeError, InvalidOperation):
            return _to_str(value)  # as decode: a value outside the declared type, as text

    return typed


def _struct_text(value: object, fields: tuple[tuple[str, int], ...]) -> str:
    """A struct's text form, as RisingWave writes a StructRef: ``(1,a)``, a NULL field empty,
    a field holding ``,()"\\`` or a space (or empty) double-quoted."""
    items = value if isinstance(value, list) else json.loads(str(value))
    out: list[str] = []
    for item, (_, oid) in zip(items, fields, strict=False):
        if item is None:
            out.append("")
            continue
        value_ = decode(item, oid)
        if isinstance(value_, bool):
            text = "t" if value_ else "f"
        elif isinstance(value_, list):
            text = render_array_text(value_)
        else:
            text = _to_str(value_)
        if text == "" or any(ch in text for ch in ',()"\\ '):
            text = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        out.append(text)
    return "(" + ",".join(out) + ")"


def parse_array(value: object) -> list[object]:
    """An array stored as JSON text (or a PostgreSQL ``{a,b}`` literal) as a list."""
    if isinstance(value, list):
        return value
    s = str(value).strip()
    if s.startswith("["):
        loaded = json.loads(s)
        if isinstance(loaded, list):
            return loaded
    if s.startswith("{") and s.endswith("}"):
        return parse_pg_array_literal(s)
    raise ValueError(f'malformed array literal: "{s}"')


def parse_pg_array_literal(s: str) -> list[object]:
    """A one-dimensional PostgreSQL array literal ``{a,"b c",NULL}`` as a list of str/None."""
    body = s.strip()[1:-1]
    out: list[object] = []
    if not body.strip():
        return out
    i, n = 0, len(body)
    while i <= n:
        while i < n and body[i] == " ":
            i += 1
        if i < n and body[i] == '"':
            i += 1
            buf = []
            while i < n and body[i] != '"':
                if body[i] == "\\" and i + 1 < n:
                    i += 1
                buf.append(body[i])
                i += 1
            i += 1
            out.append("".join(buf))
            while i < n and body[i] != ",":
                i += 1
        else:
            j = body.find(",", i)
            if j < 0:
                j = n
            item = body[i:j].strip()
            out.append(None if item.upper() == "NULL" else item)
            i = j
        i += 1
    return out


def to_array_json(items: list[object]) -> str:
    """A list as the JSON text arrays are stored as."""
    return json.dumps(items, default=str, separators=(",", ":"))


def render_array_text(items: list[object]) -> str:
    """A list as PostgreSQL's text form ``{a,b}`` (used for array::text casts)."""
    parts = []
    for x in items:
        if x is None:
            parts.append("NULL")
            continue
        s = _to_str(x)
        if s == "" or any(c in s for c in ',{}" \\') or s.upper() == "NULL":
            s = '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
        parts.append(s)
    return "{" + ",".join(parts) + "}"
