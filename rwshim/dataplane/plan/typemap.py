"""Type mappings between RisingWave's catalog and PostgreSQL: the one registry the
RisingWave-only types (struct, map, rw_int256, vector, serial rules...) plug into.

- ``column_type(type_oid, rw_type)``: the PostgreSQL type of a table column;
- ``result_oid(pg_oid)``: the OID a client sees for a PostgreSQL result column (RisingWave has
  one string type, ``varchar``: src/frontend/src/binder/expr/mod.rs:1011-1024);
- ``QUERY_TYPE_NAMES``: type names RisingWave accepts in queries that PostgreSQL spells
  otherwise (spliced where the parse tree has a one-word type name).

RisingWave-only types (rwshim/common/rwtypes.py) map as:
- ``struct<...>``: a composite type ``rwfn.rw_s<digest>`` per distinct struct type (its
  RisingWave name in the type's comment, so a result column of it reads back as that struct),
  with ``min`` / ``max`` aggregates (RisingWave orders structs field by field, as PostgreSQL
  orders composites) and casts to and from the other struct composites of as many fields
  (sqlfn/structs.py); ``struct<>`` is ``rwfn.rw_s0``;
- a list of any depth: a PostgreSQL array of its innermost element (PostgreSQL's arrays carry
  their dimensions in the value, not the type);
- ``rw_int256``: the domain ``rwfn.rw_int256`` (dataplane/plan/sqlfn/int256.py);
- ``vector(n)``: pgvector's ``vector(n)``, installed in ``rwfn``;
- ``variant``: the composite ``rwfn.variant`` (its text and its typed tree:
  dataplane/plan/sqlfn/variant.py);
- ``map(K,V)``: a composite type ``rwfn.rw_m<digest>`` per distinct map type, with the map
  functions overloaded on it (dataplane/plan/maptype.py).
``type_ddl`` gives the idempotent statements that make the composite types a type needs.
Every RisingWave-only type maps here: nothing else should special-case a type.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable

from rwshim.common import pgtypes, rwtypes
from rwshim.dataplane.plan.names import FUNCTION_SCHEMA, quote_ident, quote_literal
from rwshim.errors import NotImplementedError_, RwError

# rw_type (RisingWave's type name as the catalog stores it) -> PostgreSQL column type, for
# the types whose OID alone does not say it.
_COLUMN_TYPES: dict[str, Callable[[str], str]] = {
    # RisingWave's serial is a 64-bit id (src/common/src/types/serial.rs)
    "serial": lambda _: "bigint",
}

# PostgreSQL result OIDs that RisingWave reports as another type.
_RESULT_OIDS: dict[int, int] = {
    pgtypes.TEXT: pgtypes.VARCHAR,
    pgtypes.NAME: pgtypes.VARCHAR,
    pgtypes.BPCHAR: pgtypes.VARCHAR,
    pgtypes.CHAR: pgtypes.VARCHAR,
    pgtypes.UNKNOWN: pgtypes.VARCHAR,
    pgtypes.TEXT_ARRAY: pgtypes.VARCHAR_ARRAY,
    pgtypes.NAME_ARRAY: pgtypes.VARCHAR_ARRAY,
    pgtypes.BPCHAR_ARRAY: pgtypes.VARCHAR_ARRAY,
    pgtypes.CHAR_ARRAY: pgtypes.VARCHAR_ARRAY,
    pgtypes.JSON: pgtypes.JSONB,
    pgtypes.JSON_ARRAY: pgtypes.JSONB_ARRAY,
    # regclass and oid are int4 in RisingWave (binder/expr/mod.rs:995-998)
    pgtypes.OID: pgtypes.INT4,
    pgtypes.REGCLASS: pgtypes.INT4,
    # pg_typeof is a varchar literal of the type's name (binder/expr/function/
    # builtin_scalar.rs "pg_typeof"); PostgreSQL's answers a regtype
    pgtypes.REGTYPE: pgtypes.VARCHAR,
}

# One-word type names RisingWave's parser accepts and PostgreSQL does not know.
QUERY_TYPE_NAMES: dict[str, str] = {
    "double": "double precision",
    "string": "varchar",
}

# Types a data-plane column may have without a registered mapping: PostgreSQL's own.
_BUILTIN_COLUMN_OIDS = frozenset(
    {
        pgtypes.BOOL,
        pgtypes.INT2,
        pgtypes.INT4,
        pgtypes.INT8,
        pgtypes.FLOAT4,
        pgtypes.FLOAT8,
        pgtypes.NUMERIC,
        pgtypes.VARCHAR,
        pgtypes.TEXT,
        pgtypes.BYTEA,
        pgtypes.DATE,
        pgtypes.TIME,
        pgtypes.TIMESTAMP,
        pgtypes.TIMESTAMPTZ,
        pgtypes.INTERVAL,
        pgtypes.JSONB,
        pgtypes.UUID,
    }
)


def column_type(type_oid: int, rw_type: str = "") -> str:
    """The PostgreSQL type of a column with this catalog type."""
    found = _rw_only(rw_type)
    if found is not None:
        return pg_type(found)
    rw = rw_type.strip().lower()
    for prefix, fn in _COLUMN_TYPES.items():
        if rw == prefix or (prefix[-1:] in "<(" and rw.startswith(prefix)):
            return fn(rw)
    elem = pgtypes.BY_OID.get(type_oid)
    base = type_oid if elem is None or not elem.elem_oid else elem.elem_oid
    if base in _BUILTIN_COLUMN_OIDS:
        t = pgtypes.BY_OID[type_oid]
        # varchar without a length: RisingWave's varchar has none
        return t.display
    raise NotImplementedError_(
        f"columns of type {rw_type or type_oid} on the PostgreSQL data plane"
    )


def result_oid(pg_oid: int) -> int:
    """The OID a client sees for a PostgreSQL result column of type ``pg_oid``."""
    return _RESULT_OIDS.get(pg_oid, pg_oid)


# --- RisingWave-only types ------------------------------------------------------------------

STRUCT_PREFIX = "rw_s"
EMPTY_STRUCT = "rw_s0"
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
# composite type name -> the struct type it holds (names made by this process)
STRUCTS: dict[str, rwtypes.RwType] = {}


_STRUCT_NAME = re.compile(r"\b(?:rwfn\.)?(rw_s[0-9a-z]{9})\b")


def user_types(text: str) -> str:
    """``text`` with the composite types of struct types this process made (``rw_s...``) as
    the struct types they stand for (an error's text, a statement bound again for its
    error)."""

    def sub(m: re.Match[str]) -> str:
        t = STRUCTS.get(m[1])
        return m[0] if t is None else t.display()

    return _STRUCT_NAME.sub(sub, text) if STRUCT_PREFIX in text else text


def _rw_only(rw_type: str) -> rwtypes.RwType | None:
    text = rw_type.strip()
    low = text.lower()
    if not any(w in low for w in ("struct", "map", "int256", "vector", "variant", "[][]")):
        return None
    try:
        return rwtypes.parse(text)
    except rwtypes.TypeSyntaxError:
        return None


def struct_name(t: rwtypes.RwType) -> str:
    """The composite type of a struct type: ``rw_s`` and 9 base-36 digits of a digest of its
    RisingWave name (13 characters: no longer than the shortest ``struct<a int>`` it stands
    for in a statement's text)."""
    if not t.fields:
        return EMPTY_STRUCT
    name = STRUCT_PREFIX + _digest36(t.display(), 9)
    STRUCTS.setdefault(name, t)
    return name


def _digest36(text: str, width: int) -> str:
    """``width`` base-36 digits of a SHA-256 digest of ``text`` (least significant first)."""
    n = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    digits = []
    for _ in range(width):
        n, r = divmod(n, 36)
        digits.append(_DIGITS[r])
    return "".join(digits)


MAP_PREFIX = "rw_m"
# composite type name -> the map type it holds (names made by this process)
MAPS: dict[str, rwtypes.RwType] = {}


def map_name(t: rwtypes.RwType) -> str:
    """The composite type of a map type: ``rw_m`` and 8 base-36 digits of a digest of its
    RisingWave name (12 characters: no longer than the shortest ``map(int,int)`` it stands for
    in a statement's text)."""
    name = MAP_PREFIX + _digest36(t.display(), 8)
    MAPS.setdefault(name, t)
    return name


def map_entry(t: rwtypes.RwType) -> rwtypes.RwType:
    """The struct of a map's entries, ``struct<key K, value V>`` (map_type.rs
    struct_type_for_map)."""
    assert t.elem is not None and t.value is not None
    return rwtypes.RwType("struct", fields=(("key", t.elem), ("value", t.value)))


def pg_type(t: rwtypes.RwType) -> str:
    """The PostgreSQL type text of a RisingWave type (names in ``rwfn`` qualified)."""
    inner = t.innermost()
    if inner is not t:
        return pg_type(inner) + "[]"
    if t.kind == "scalar" and t.scalar_oid == rwtypes.VARIANT_OID:
        return f"{FUNCTION_SCHEMA}.variant"
    if t.kind == "scalar":
        return pgtypes.BY_OID[t.scalar_oid].display
    if t.kind == "int256":
        return f"{FUNCTION_SCHEMA}.rw_int256"
    if t.kind == "vector":
        return f"{FUNCTION_SCHEMA}.vector({t.dim})"
    if t.kind == "struct":
        return f"{FUNCTION_SCHEMA}.{struct_name(t)}"
    if t.kind == "map":
        from rwshim.dataplane.plan import maptype

        maptype.check_type(t)
        return f"{FUNCTION_SCHEMA}.{map_name(t)}"
    raise NotImplementedError_(f"columns of type {t.display()} on the PostgreSQL data plane")


def type_ddl(t: rwtypes.RwType) -> list[str]:
    """Idempotent statements making the composite types ``t`` needs, innermost first: each
    composite, its RisingWave name as its comment, and ``min``/``max`` over it.  A composite
    of the same name holding another struct type (a digest collision) is an error, never a
    silent mix-up."""
    out: list[str] = []
    seen: set[str] = set()
    for x in t.walk():
        if x.kind == "map":
            out.extend(s for s in _map_ddl(x, seen) if s not in out)
            continue
        if x.kind != "struct":
            continue
        field_names = [n for n, _ in x.fields]
        if len(set(field_names)) < len(field_names):
            # RisingWave allows them (struct_type.rs); a composite type cannot have them
            raise RwError(
                f"not supported by rwshim: {x.display()} (a struct with a duplicate field name"
                " has no PostgreSQL form here)"
            )
        name = struct_name(x)
        if name in seen:
            continue
        seen.add(name)
        out.append(_composite_ddl(name, x))
    return out


def _map_ddl(t: rwtypes.RwType, seen: set[str]) -> list[str]:
    """The statements making map type ``t`` (its entry struct first: map_entries and
    map_from_entries take a list of it)."""
    from rwshim.dataplane.plan import maptype

    name = map_name(t)
    if name in seen:
        return []
    assert t.elem is not None and t.value is not None
    entry = map_entry(t)
    out = type_ddl(entry)
    seen.add(name)
    out.append(maptype.map_ddl(name, t, pg_type(t.elem), pg_type(t.value), pg_type(entry)))
    return out


def _composite_ddl(name: str, t: rwtypes.RwType) -> str:
    f = FUNCTION_SCHEMA
    q = f"{f}.{name}"
    fields = ", ".join(f"{quote_ident(n)} {pg_type(ft)}" for n, ft in t.fields)
    display = quote_literal(t.display())
    return f"""DO $type$
DECLARE
    have text;
BEGIN
    SELECT pg_catalog.obj_description(oid, 'pg_type') INTO have FROM pg_catalog.pg_type
        WHERE typname = '{name}' AND typnamespace = '{f}'::regnamespace;
    IF have IS NULL THEN
        CREATE TYPE {q} AS ({fields});
        COMMENT ON TYPE {q} IS {display};
        CREATE FUNCTION {f}.{name}_smaller({q}, {q}) RETURNS {q} LANGUAGE sql IMMUTABLE
            AS 'SELECT CASE WHEN $2 IS NULL OR $1 <= $2 THEN $1 ELSE $2 END';
        CREATE FUNCTION {f}.{name}_larger({q}, {q}) RETURNS {q} LANGUAGE sql IMMUTABLE
            AS 'SELECT CASE WHEN $2 IS NULL OR $1 >= $2 THEN $1 ELSE $2 END';
        CREATE AGGREGATE {f}.min({q}) (SFUNC = {f}.{name}_smaller, STYPE = {q});
        CREATE AGGREGATE {f}.max({q}) (SFUNC = {f}.{name}_larger, STYPE = {q});
        PERFORM {f}.rw_struct_casts('{q}'::regtype);
    ELSIF have <> {display} THEN
        RAISE EXCEPTION 'composite type {q} holds % (not %)', have, {display};
    END IF;
EXCEPTION WHEN unique_violation OR duplicate_object OR duplicate_function THEN
    NULL;  -- made by another session meanwhile
END $type$"""


def columns_ddl(rw_types: Iterable[str]) -> list[str]:
    """The composite types a table's columns need (``type_ddl`` of each, once)."""
    out: list[str] = []
    for rw in rw_types:
        t = _rw_only(rw)
        if t is not None:
            out.extend(s for s in type_ddl(t) if s not in out)
    return out
