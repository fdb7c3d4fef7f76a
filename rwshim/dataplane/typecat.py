"""The data database's own types, by OID: what a result column of a type that is not builtin
(a struct's composite type, pgvector's ``vector``, arrays of them) is in RisingWave's terms,
and how its PostgreSQL text becomes RisingWave's.

One catalog per data plane (OIDs are per database); an OID is looked up once, on the plane's
admin connection, from ``pg_type`` (a composite made by query/pg/typemap carries its
RisingWave struct type in its comment).

Variant values (the composite ``rwfn.variant``) are their first field, RisingWave's text
made with the value (dataplane/plan/sqlfn/variant.py).  Map values (a composite of two
arrays, dataplane/plan/maptype.py) are rendered as RisingWave's ``MapRef`` ToText does
(``{k:v,...}``: map_decoder).  Struct values are rendered as
RisingWave's ``StructRef`` ToText does (src/common/src/array/
struct_array.rs: ``(`` fields ``,`` ``)``, a NULL field empty, a field quoted when it is empty
or holds ``"`` ``\\`` ``,`` ``(`` ``)`` or white space); the fields themselves, and the elements
of lists inside structs, in RisingWave's ToText forms (a timestamptz there is printed in UTC:
timestamptz.rs ToText, list_array.rs ToText for ListRef).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rwshim.common import pgtypes, rwtypes
from rwshim.dataplane import values
from rwshim.wire import codecs

if TYPE_CHECKING:
    from psycopg import pq

Decoder = Callable[[bytes], Any]
# (oid, typname, nspname, typtype, typelem, comment)
TypeRow = tuple[int, str, str, str, int, str | None]
Lookup = Callable[[list[int]], Awaitable[list[TypeRow]]]

# $1: an oid[] of the types wanted; their element types come too
LOOKUP_SQL = """SELECT t.oid, t.typname, n.nspname, t.typtype, t.typelem,
    pg_catalog.obj_description(t.oid, 'pg_type')
FROM pg_catalog.pg_type t JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
WHERE t.oid = ANY($1::oid[])
   OR t.oid IN (SELECT typelem FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[]))"""


def rows_of(res: pq.abc.PGresult) -> list[TypeRow]:
    def text(r: int, c: int) -> str | None:
        v = res.get_value(r, c)
        return None if v is None else v.decode()

    return [
        (int(text(r, 0) or 0), text(r, 1) or "", text(r, 2) or "", text(r, 3) or "",
         int(text(r, 4) or 0), text(r, 5))
        for r in range(res.ntuples)
    ]  # fmt: skip


@dataclass(frozen=True, slots=True)
class TypeInfo:
    """A non-builtin result type: the OID RisingWave reports and the value decoder."""

    rw_oid: int
    decoder: Decoder


class TypeCatalog:
    def __init__(self, lookup: Lookup) -> None:
        self._lookup = lookup
        self._types: dict[int, TypeInfo] = {}

    def _builtin(self, oid: int) -> bool:
        return oid in pgtypes.BY_OID

    async def learn(self, oids: Sequence[int]) -> None:
        """Look up the OIDs not known yet (one query for all)."""
        unknown = sorted({o for o in oids if not self._builtin(o) and o not in self._types})
        if not unknown:
            return
        rows = await self._lookup(unknown)
        by_oid = {r[0]: r for r in rows}
        for oid in unknown:
            self._types[oid] = self._info(oid, by_oid)

    def _info(self, oid: int, rows: dict[int, TypeRow]) -> TypeInfo:
        row = rows.get(oid)
        if row is None:
            return TypeInfo(pgtypes.VARCHAR, _text)
        _, typname, _nsp, typtype, elem, comment = row
        if elem and elem in rows:
            inner = self._info(elem, rows)
            dec = inner.decoder
            array_oid = pgtypes.BY_OID.get(inner.rw_oid)
            rw = array_oid.array_oid if array_oid is not None and array_oid.array_oid else 0
            return TypeInfo(
                rw or pgtypes.VARCHAR, codecs.array_from_text(dec, codecs.PG_ARRAY_MAXDIM)
            )
        if typtype == "c" and comment:
            try:
                t = rwtypes.parse(comment)
            except (rwtypes.TypeSyntaxError, ValueError):
                t = None
            if t is not None and t.kind == "struct":
                return TypeInfo(rwtypes.STRUCT_OID, struct_decoder(t))
            if t is not None and t.kind == "map":
                return TypeInfo(rwtypes.MAP_OID, map_decoder(t))
            if t is not None and t.scalar_oid == rwtypes.VARIANT_OID:
                return TypeInfo(rwtypes.VARIANT_OID, variant_decoder)
        if typname == "vector":
            return TypeInfo(rwtypes.VECTOR_OID, _text)
        return TypeInfo(pgtypes.VARCHAR, _text)

    def rw_oid(self, pg_oid: int) -> int | None:
        """The OID RisingWave reports for a learnt non-builtin type (None: builtin)."""
        found = self._types.get(pg_oid)
        return None if found is None else found.rw_oid

    def decoder(self, pg_oid: int, rw_oid: int) -> Decoder:
        found = self._types.get(pg_oid)
        if found is not None:
            return found.decoder
        return values.decoder(rw_oid)


def _text(b: bytes) -> str:
    return b.decode()


# --- struct text ------------------------------------------------------------------------------


def parse_record(text: str) -> list[str | None]:
    """The fields of PostgreSQL's composite text (record_out): None for a NULL field."""
    if not (text.startswith("(") and text.endswith(")")):
        raise ValueError(f"not a composite value: {text!r}")
    out: list[str | None] = []
    pos, end = 1, len(text) - 1
    if end == 1:
        return []
    while True:
        if pos >= end or text[pos] == ",":
            out.append(None)
        elif text[pos] == '"':
            buf: list[str] = []
            pos += 1
            while pos < end:
                c = text[pos]
                if c == "\\" or (c == '"' and pos + 1 < end and text[pos + 1] == '"'):
                    buf.append(text[pos + 1])
                    pos += 2
                    continue
                if c == '"':
                    pos += 1
                    break
                buf.append(c)
                pos += 1
            # an unquoted tail after the quoted part belongs to the field too
            start = pos
            while pos < end and text[pos] != ",":
                pos += 1
            out.append("".join(buf) + text[start:pos])
        else:
            start = pos
            while pos < end and text[pos] != ",":
                pos += 1
            out.append(text[start:pos])
        if pos >= end:
            return out
        pos += 1  # the comma
        if pos == end:
            out.append(None)
            return out


_STRUCT_SPECIALS = frozenset('"\\,() \t\n\r\x0b\x0c')


def quote_struct_field(s: str) -> str:
    """RisingWave's quote_if_need for a struct field (struct_array.rs)."""
    if s and not (_STRUCT_SPECIALS & set(s)):
        return s
    return '"' + s.replace('"', '""').replace("\\", "\\\\") + '"'


# scalar types whose PostgreSQL text is RisingWave's text
_SAME_TEXT = frozenset(
    {
        pgtypes.BOOL,
        pgtypes.INT2,
        pgtypes.INT4,
        pgtypes.INT8,
        pgtypes.NUMERIC,
        pgtypes.VARCHAR,
        pgtypes.TEXT,
        pgtypes.BYTEA,
        pgtypes.DATE,
        pgtypes.INTERVAL,
    }
)


def _rw_text_of(t: rwtypes.RwType) -> Callable[[str], str]:
    """PostgreSQL's text of a value of ``t`` (inside a struct) -> RisingWave's ToText."""
    if t.kind in ("struct", "map"):
        dec = struct_decoder(t) if t.kind == "struct" else map_decoder(t)
        return lambda raw: dec(raw.encode())
    if t.kind in ("int256", "vector"):
        return lambda raw: raw
    if t.scalar_oid == rwtypes.VARIANT_OID:
        return lambda raw: variant_decoder(raw.encode())
    if t.kind == "list":
        inner = t.innermost()
        if inner.kind == "scalar":
            oid = t.oid
            dec_list = codecs.output_decoder(oid)
            enc_list = codecs.encoder(oid, False, dt.UTC)
            return lambda raw: enc_list(dec_list(raw.encode())).decode()
        elem = _rw_text_of(inner)
        enc = codecs.encoder(pgtypes.VARCHAR_ARRAY, False)
        parse = codecs.array_from_text(lambda b: elem(b.decode()), codecs.PG_ARRAY_MAXDIM)
        return lambda raw: enc(parse(raw.encode())).decode()
    if t.scalar_oid in _SAME_TEXT:
        return lambda raw: raw
    oid = t.scalar_oid
    dec_scalar = codecs.decoder(oid, False)
    enc_scalar = codecs.encoder(oid, False, dt.UTC)
    return lambda raw: enc_scalar(dec_scalar(raw.encode())).decode()


def variant_decoder(b: bytes) -> str:
    """PostgreSQL's text of a ``rwfn.variant`` -> RisingWave's text of the variant: its
    first field, made with the value (dataplane/plan/sqlfn/variant.py)."""
    fields = parse_record(b.decode())
    return fields[0] or "" if fields else ""


def struct_decoder(t: rwtypes.RwType) -> Callable[[bytes], str]:
    """PostgreSQL's text of a composite holding struct ``t`` -> RisingWave's text of it."""
    fields = [_rw_text_of(ft) for _, ft in t.fields]

    def dec(b: bytes) -> str:
        raw = parse_record(b.decode())
        out = []
        for i, v in enumerate(raw):
            if v is None:
                out.append("")
            else:
                text = fields[i](v) if i < len(fields) else v
                out.append(quote_struct_field(text))
        return "(" + ",".join(out) + ")"

    return dec


def map_decoder(t: rwtypes.RwType) -> Callable[[bytes], str]:
    """PostgreSQL's text of a composite holding map ``t`` (its keys' array, its values' array:
    dataplane/plan/maptype.py) -> RisingWave's text of it: ``{k:v,...}`` in the entries'
    order, each key and value in its ToText form unquoted, a NULL value ``NULL``
    (src/common/src/array/map_array.rs:436-450 ToText for MapRef)."""
    assert t.elem is not None and t.value is not None
    key, value = _rw_text_of(t.elem), _rw_text_of(t.value)
    elems = codecs.array_from_text(lambda b: b.decode(), 1)

    def dec(b: bytes) -> str:
        raw = parse_record(b.decode())
        keys = elems(raw[0].encode()) if raw and raw[0] is not None else []
        vals = elems(raw[1].encode()) if len(raw) > 1 and raw[1] is not None else []
        out = []
        for k, v in zip(keys, vals, strict=False):
            out.append(f"{'NULL' if k is None else key(k)}:{'NULL' if v is None else value(v)}")
        return "{" + ",".join(out) + "}"

    return dec
