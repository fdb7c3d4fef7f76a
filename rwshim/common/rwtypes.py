"""RisingWave's data types as text: ``struct<a int, b varchar>``, ``int[][]``, ``map(varchar,
int)``, ``rw_int256``, ``vector(3)`` and the scalar names, parsed into a tree that knows
RisingWave's display name (``DataType``'s Display: src/common/src/types/mod.rs,
struct_type.rs, list_type.rs, map_type.rs) and the type OID RisingWave reports
(postgres_type.rs ``to_oid``: struct 2249, a list of structs 2287, rw_int256 1301, map 1303,
vector 1305, their lists one more; a list of lists reports its innermost element's array OID).

The one home of RisingWave's type texts: the scalar names its parser accepts and the name it
prints for each (``SCALARS``, ``DISPLAY``), the column types CREATE TABLE / SOURCE bind
(``bind_column_type``, ``bind_data_type``: src/frontend/src/binder/expr/mod.rs:1066-1160) and
the name of a result column's type (``rw_type_name``).  A leaf module (errors, pgtypes and
names only: a struct field prints through QuoteIdent); the frontend, the engine, the binder,
the catalog path and the data plane's type mapping (dataplane/plan/typemap) read it.  Not
loaded at start-up: the modules a first query needs keep their own imports of it lazy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rwshim.common import pgtypes
from rwshim.common.names import quote_ident
from rwshim.errors import BindError, NotImplementedError_, NotSupported, RwError

INT256_OID, INT256_ARRAY_OID = 1301, 1302
MAP_OID, MAP_ARRAY_OID = 1303, 1304
VECTOR_OID, VECTOR_ARRAY_OID = 1305, 1306
# head only (postgres_type.rs: ``{ Variant | 1307 | 1308 | variant | variant_in | -1 }``)
VARIANT_OID, VARIANT_ARRAY_OID = 1307, 1308
STRUCT_OID, STRUCT_ARRAY_OID = pgtypes.RECORD, 2287

# scalar names RisingWave's parser accepts -> (OID, RisingWave's display name)
# (bind_data_type, src/frontend/src/binder/expr/mod.rs)
SCALARS: dict[str, tuple[int, str]] = {
    "bool": (pgtypes.BOOL, "boolean"),
    "boolean": (pgtypes.BOOL, "boolean"),
    "int2": (pgtypes.INT2, "smallint"),
    "smallint": (pgtypes.INT2, "smallint"),
    "int4": (pgtypes.INT4, "integer"),
    "int": (pgtypes.INT4, "integer"),
    "integer": (pgtypes.INT4, "integer"),
    "int8": (pgtypes.INT8, "bigint"),
    "bigint": (pgtypes.INT8, "bigint"),
    "float4": (pgtypes.FLOAT4, "real"),
    "real": (pgtypes.FLOAT4, "real"),
    "float8": (pgtypes.FLOAT8, "double precision"),
    "double precision": (pgtypes.FLOAT8, "double precision"),
    "double": (pgtypes.FLOAT8, "double precision"),
    "float": (pgtypes.FLOAT8, "double precision"),
    "numeric": (pgtypes.NUMERIC, "numeric"),
    "decimal": (pgtypes.NUMERIC, "numeric"),
    "varchar": (pgtypes.VARCHAR, "character varying"),
    "character varying": (pgtypes.VARCHAR, "character varying"),
    "text": (pgtypes.VARCHAR, "character varying"),
    "string": (pgtypes.VARCHAR, "character varying"),
    "date": (pgtypes.DATE, "date"),
    "time": (pgtypes.TIME, "time without time zone"),
    "time without time zone": (pgtypes.TIME, "time without time zone"),
    "timestamp": (pgtypes.TIMESTAMP, "timestamp without time zone"),
    "timestamp without time zone": (pgtypes.TIMESTAMP, "timestamp without time zone"),
    "timestamptz": (pgtypes.TIMESTAMPTZ, "timestamp with time zone"),
    "timestamp with time zone": (pgtypes.TIMESTAMPTZ, "timestamp with time zone"),
    "interval": (pgtypes.INTERVAL, "interval"),
    "bytea": (pgtypes.BYTEA, "bytea"),
    "jsonb": (pgtypes.JSONB, "jsonb"),
    # head only (src/common/src/types/mod.rs:220-222, ``(?i)^variant$``); the releases
    # without it refuse it where a type is bound (Release.variant_type)
    "variant": (VARIANT_OID, "variant"),
}

# OID -> RisingWave's name of a scalar type (DataType's Display, src/common/src/types/mod.rs)
DISPLAY: dict[int, str] = {oid: name for oid, name in SCALARS.values()}

_LIST_OIDS = {
    "struct": STRUCT_ARRAY_OID,
    "int256": INT256_ARRAY_OID,
    "map": MAP_ARRAY_OID,
    "vector": VECTOR_ARRAY_OID,
}


@dataclass(frozen=True, slots=True)
class RwType:
    """One RisingWave data type."""

    kind: str  # "scalar" | "struct" | "list" | "map" | "int256" | "vector"
    scalar_oid: int = 0  # kind "scalar": the PostgreSQL OID
    scalar_name: str = ""  # kind "scalar": RisingWave's name
    fields: tuple[tuple[str, RwType], ...] = ()  # kind "struct"
    elem: RwType | None = None  # kind "list": the element; kind "map": the key
    value: RwType | None = None  # kind "map": the value
    dim: int = 0  # kind "vector"
    _display: str = field(default="", compare=False)

    def display(self) -> str:
        """RisingWave's name of the type (``DataType``'s Display)."""
        if self.kind == "scalar":
            return self.scalar_name
        if self.kind == "int256":
            return "rw_int256"
        if self.kind == "vector":
            return f"vector({self.dim})"
        if self.kind == "list":
            assert self.elem is not None
            return self.elem.display() + "[]"
        if self.kind == "map":
            assert self.elem is not None and self.value is not None
            return f"map({self.elem.display()},{self.value.display()})"
        inner = ", ".join(f"{quote_ident(n)} {t.display()}" for n, t in self.fields)
        return f"struct<{inner}>"

    @property
    def oid(self) -> int:
        """The type OID RisingWave reports (postgres_type.rs to_oid)."""
        if self.kind == "scalar":
            return self.scalar_oid
        if self.kind == "int256":
            return INT256_OID
        if self.kind == "vector":
            return VECTOR_OID
        if self.kind == "map":
            return MAP_OID
        if self.kind == "struct":
            return STRUCT_OID
        inner = self.innermost()
        if inner.kind == "scalar":
            return pgtypes.BY_OID[inner.scalar_oid].array_oid
        return _LIST_OIDS[inner.kind]

    def innermost(self) -> RwType:
        """A list's innermost element type (the type itself for a non-list)."""
        t = self
        while t.kind == "list" and t.elem is not None:
            t = t.elem
        return t

    def walk(self) -> list[RwType]:
        """This type and every type inside it, innermost first."""
        out: list[RwType] = []
        for _, t in self.fields:
            out.extend(t.walk())
        for sub in (self.elem, self.value):
            if sub is not None:
                out.extend(sub.walk())
        out.append(self)
        return out


class TypeSyntaxError(ValueError):
    """Text that is not a RisingWave type."""


_TOKEN = re.compile(
    r'\s*(?:(?P<q>"(?:[^"]|"")*")|(?P<w>[A-Za-z_][A-Za-z0-9_$]*)|(?P<n>\d+)|(?P<s>[<>()\[\],]))'
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise TypeSyntaxError(text)
        kind = m.lastgroup or ""
        value = m.group(kind)
        if kind == "q":
            value = value[1:-1].replace('""', '"')
        out.append((kind, value))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.pos = 0

    def peek(self, k: int = 0) -> tuple[str, str]:
        i = self.pos + k
        return self.toks[i] if i < len(self.toks) else ("", "")

    def take(self) -> tuple[str, str]:
        t = self.peek()
        if not t[0]:
            raise TypeSyntaxError(self.text)
        self.pos += 1
        return t

    def expect(self, sym: str) -> None:
        if self.take() != ("s", sym):
            raise TypeSyntaxError(self.text)

    def parse(self) -> RwType:
        t = self.type_()
        if self.pos != len(self.toks):
            raise TypeSyntaxError(self.text)
        return t

    def type_(self) -> RwType:
        t = self.base()
        while self.peek() == ("s", "["):
            self.take()
            self.expect("]")
            t = RwType("list", elem=t)
        return t

    def base(self) -> RwType:
        kind, word = self.take()
        if kind != "w":
            raise TypeSyntaxError(self.text)
        low = word.lower()
        if low == "struct" and self.peek() == ("s", "<"):
            return self.struct()
        if low == "map" and self.peek() == ("s", "("):
            self.take()
            key = self.type_()
            self.expect(",")
            value = self.type_()
            self.expect(")")
            return RwType("map", elem=key, value=value)
        if low == "vector" and self.peek() == ("s", "("):
            self.take()
            n_kind, n = self.take()
            if n_kind != "n":
                raise TypeSyntaxError(self.text)
            self.expect(")")
            return RwType("vector", dim=int(n))
        if low == "rw_int256":
            return RwType("int256")
        words = [low]
        # multi-word scalar names: double precision, character varying, timestamp with time zone
        while self.peek()[0] == "w" and " ".join([*words, self.peek()[1].lower()]) in _PREFIXES:
            words.append(self.take()[1].lower())
        name = " ".join(words)
        found = SCALARS.get(name)
        if found is None:
            raise NotImplementedError_(f"unsupported data type: {self.text.strip()}")
        return RwType("scalar", scalar_oid=found[0], scalar_name=found[1])

    def struct(self) -> RwType:
        self.expect("<")
        fields: list[tuple[str, RwType]] = []
        if self.peek() == ("s", ">"):
            self.take()
            return RwType("struct")
        while True:
            kind, name = self.take()
            if kind not in ("w", "q"):
                raise TypeSyntaxError(self.text)
            fields.append((name if kind == "q" else name.lower(), self.type_()))
            sep = self.take()
            if sep == ("s", ">"):
                return RwType("struct", fields=tuple(fields))
            if sep != ("s", ","):
                raise TypeSyntaxError(self.text)


# every prefix of a multi-word scalar name (for greedy reading of words)
_PREFIXES = frozenset(
    " ".join(name.split()[:i]) for name in SCALARS for i in range(2, len(name.split()) + 1)
)


# Type texts are cached by text: only the short ones real types have (a long one, from a
# statement's text, would be kept with the 4,096 others; sql/cache.py bounds caches by bytes).
_CACHED_TYPE_TEXT = 1000


def parse(text: str) -> RwType:
    """The type ``text`` names (TypeSyntaxError if it is not one; RisingWave's
    ``unsupported data type`` for an unknown name)."""
    if len(text) > _CACHED_TYPE_TEXT:
        return _Parser(text).parse()
    return _parse_cached(text)


@lru_cache(maxsize=4096)
def _parse_cached(text: str) -> RwType:
    return _Parser(text).parse()


# --- column types of CREATE TABLE / SOURCE ----------------------------------------------------


def bind_column_type(type_name: str, type_text: str, array_dims: int = 0) -> tuple[int, str]:
    """(OID, RisingWave type name) of a CREATE TABLE / SOURCE column type, or RisingWave's
    binder error (bind_data_type); ``type_name`` is pglast's name (rwshim.sql.columns)."""
    key = type_name.lower().strip()
    if key.startswith("pg_catalog."):
        key = key.removeprefix("pg_catalog.")
    if key in ("bpchar", "char", "character"):
        # bind_data_type: AstDataType::Char (expr/mod.rs:1084-1086)
        raise NotImplementedError_("CHAR is not supported, please use VARCHAR instead")
    if key == "serial":
        raise NotSupported("Column type SERIAL is not supported", "Please remove the SERIAL column")
    rw = _rw_only_column(type_text, array_dims)
    if rw is not None:
        return rw
    base = SCALARS.get(key)
    if base is None or (key in ("numeric", "decimal") and "(" in type_text):
        raise NotImplementedError_(f"unsupported data type: {type_text.strip()}")
    oid, rw_name = base
    for _ in range(array_dims):
        t = pgtypes.BY_OID[oid]
        if not t.array_oid:
            raise NotImplementedError_(f"unsupported data type: {type_text.strip()}")
        oid, rw_name = t.array_oid, rw_name + "[]"
    return oid, rw_name


def _rw_only_column(type_text: str, array_dims: int) -> tuple[int, str] | None:
    """A RisingWave-only column type (struct, map, rw_int256, vector, a list of lists): its
    OID and RisingWave's name of it."""
    low = type_text.lower()
    if array_dims <= 1 and not any(
        w in low for w in ("struct", "map", "int256", "vector", "variant")
    ):
        return None
    try:
        t = parse(type_text.strip())
    except TypeSyntaxError:
        return None
    check_map_keys(t)
    for x in t.walk():
        if x.kind == "map" and x.value is not None and x.value.kind == "list":
            # the data plane's map is a composite of two arrays (dataplane/plan/maptype.py):
            # PostgreSQL's arrays of arrays are one multi-dimensional array
            raise RwError(
                f"not supported by rwshim: {x.display()} (a map whose values are lists has no "
                "PostgreSQL form here)"
            )
    return t.oid, t.display()


# RisingWave's map key types (map_type.rs:104-134 check_key_type_valid: Int16 | Int32 | Int64 |
# Varchar; every other type is refused)
_MAP_KEY_OIDS = frozenset({pgtypes.INT2, pgtypes.INT4, pgtypes.INT8, pgtypes.VARCHAR})


def map_key_refusal(key: RwType) -> str | None:
    """RisingWave's text refusing ``key`` as a map key type (map_type.rs:134-138), None when
    it is one."""
    if key.kind == "scalar" and key.scalar_oid in _MAP_KEY_OIDS:
        return None
    return f"invalid map key type: {key.display()}"


def check_map_keys(t: RwType) -> None:
    """RisingWave's bind error for a map with a bad key type anywhere in ``t``
    (binder/expr/mod.rs:1094-1098: ``MapType::try_from_kv(..).map_err(ErrorCode::BindError)``)."""
    for x in t.walk():
        if x.kind == "map" and x.elem is not None:
            why = map_key_refusal(x.elem)
            if why is not None:
                raise BindError(why)


# --- variant (head only) ---------------------------------------------------------------------


def contains_variant(rw_type: str) -> bool:
    """Whether a catalog type text is ``variant`` or holds one (``DataType::contains_variant``,
    src/common/src/types/mod.rs:684-700)."""
    if "variant" not in rw_type.lower():
        return False
    try:
        t = parse(rw_type.strip())
    except (TypeSyntaxError, RwError):
        return False
    return any(x.kind == "scalar" and x.scalar_oid == VARIANT_OID for x in t.walk())


def variant_column_refusal(name: str, context: str) -> NotSupported:
    """``reject_variant_columns`` (src/frontend/src/handler/create_source.rs:836-848): a
    VARIANT column where the ingest cannot produce one."""
    return NotSupported(
        f'VARIANT column "{name}" is not supported {context} yet',
        f"VARIANT columns are not supported {context} yet",
    )


_RW_NAME: dict[int, str] = DISPLAY | {INT256_OID: "rw_int256"}


def rw_type_name(oid: int) -> str:
    """The name RisingWave prints for a column of this OID (query output columns)."""
    name = _RW_NAME.get(oid)
    if name is not None:
        return name
    t = pgtypes.BY_OID.get(oid)
    if t is not None and t.elem_oid:
        return rw_type_name(t.elem_oid) + "[]"
    if oid in (pgtypes.OID, pgtypes.REGCLASS, pgtypes.REGTYPE, pgtypes.REGNAMESPACE):
        return "integer"
    # text, name, "char", unknown: RisingWave has one string type.
    return "character varying"
