"""PostgreSQL's ``pgoutput`` logical-replication messages (protocol version 1), decoded from
the bytes ``pg_logical_slot_peek_binary_changes`` returns: what the postgres-cdc connector
(pgcdc.py) reads instead of Debezium's event stream.

The format is PostgreSQL's "Logical Replication Message Formats" (protocol-logicalrep-message-
formats, PostgreSQL 15): Begin ``B``, Commit ``C``, Origin ``O``, Relation ``R``, Type ``Y``,
Insert ``I``, Update ``U``, Delete ``D``, Truncate ``T``, Message ``M``; a TupleData column is
``n`` (NULL), ``u`` (an unchanged TOASTed value, not sent) or ``t`` (text in the type's output
form).  RisingWave reads the same stream through Debezium's PostgreSQL connector with
``plugin.name = pgoutput`` (java/connector-node/risingwave-connector-service/src/main/resources/
postgres.properties at 448c657).  Pure: no I/O.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

# TupleData's marker of a TOASTed value the change left as it was (PostgreSQL sends no value)
UNCHANGED = object()


class DecodeError(Exception):
    """Bytes that are not a pgoutput message of protocol version 1."""


@dataclass(frozen=True, slots=True)
class Relation:
    """A Relation message: the upstream table's identity and columns (name, type OID)."""

    oid: int
    schema: str
    name: str
    columns: tuple[tuple[str, int], ...]
    key_flags: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class Begin:
    final_lsn: int
    commit_ts_us: int  # microseconds since 2000-01-01 UTC
    xid: int


@dataclass(frozen=True, slots=True)
class Commit:
    commit_lsn: int
    end_lsn: int
    commit_ts_us: int


Tuple = tuple[object, ...]  # str, None or UNCHANGED per column


@dataclass(frozen=True, slots=True)
class Change:
    """An Insert, Update or Delete: ``new`` (insert, update), ``old`` (delete; an update's
    old key or old row when the key changed or REPLICA IDENTITY FULL)."""

    op: str  # 'insert' | 'update' | 'delete'
    relation_oid: int
    new: Tuple | None = None
    old: Tuple | None = None


@dataclass(frozen=True, slots=True)
class Truncate:
    relation_oids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Other:
    """A message the connector has no use for (Origin, Type, Message)."""

    kind: str


Message = Begin | Commit | Relation | Change | Truncate | Other


@dataclass(slots=True)
class _Reader:
    data: bytes
    pos: int = 0
    _fmt: dict[str, struct.Struct] = field(default_factory=dict)

    def take(self, fmt: str) -> int:
        s = self._fmt.get(fmt)
        if s is None:
            s = self._fmt[fmt] = struct.Struct("!" + fmt)
        if self.pos + s.size > len(self.data):
            raise DecodeError("message ends early")
        (v,) = s.unpack_from(self.data, self.pos)
        self.pos += s.size
        return int(v)

    def byte(self) -> str:
        if self.pos >= len(self.data):
            raise DecodeError("message ends early")
        c = chr(self.data[self.pos])
        self.pos += 1
        return c

    def cstring(self) -> str:
        end = self.data.find(b"\0", self.pos)
        if end < 0:
            raise DecodeError("unterminated string")
        s = self.data[self.pos : end].decode()
        self.pos = end + 1
        return s

    def tuple_data(self) -> Tuple:
        n = self.take("h")
        out: list[object] = []
        for _ in range(n):
            kind = self.byte()
            if kind == "n":
                out.append(None)
            elif kind == "u":
                out.append(UNCHANGED)
            elif kind in ("t", "b"):
                size = self.take("i")
                raw = self.data[self.pos : self.pos + size]
                if len(raw) != size:
                    raise DecodeError("value ends early")
                self.pos += size
                if kind == "b":
                    raise DecodeError("binary tuple values are not requested")
                out.append(raw.decode())
            else:
                raise DecodeError(f"unknown tuple column kind {kind!r}")
        return tuple(out)


def decode(data: bytes) -> Message:
    """One pgoutput message."""
    r = _Reader(data)
    kind = r.byte()
    if kind == "B":
        return Begin(r.take("q"), r.take("q"), r.take("I"))
    if kind == "C":
        r.take("b")  # flags
        return Commit(r.take("q"), r.take("q"), r.take("q"))
    if kind == "R":
        oid = r.take("I")
        schema, name = r.cstring(), r.cstring()
        r.byte()  # replica identity setting
        cols: list[tuple[str, int]] = []
        keys: list[bool] = []
        for _ in range(r.take("h")):
            flags = r.take("b")
            col = r.cstring()
            type_oid = r.take("I")
            r.take("i")  # typmod
            cols.append((col, type_oid))
            keys.append(bool(flags & 1))
        return Relation(oid, schema, name, tuple(cols), tuple(keys))
    if kind == "I":
        oid = r.take("I")
        if r.byte() != "N":
            raise DecodeError("insert without a new tuple")
        return Change("insert", oid, new=r.tuple_data())
    if kind == "U":
        oid = r.take("I")
        marker = r.byte()
        old: Tuple | None = None
        if marker in ("K", "O"):
            old = r.tuple_data()
            marker = r.byte()
        if marker != "N":
            raise DecodeError("update without a new tuple")
        return Change("update", oid, new=r.tuple_data(), old=old)
    if kind == "D":
        oid = r.take("I")
        if r.byte() not in ("K", "O"):
            raise DecodeError("delete without an old tuple")
        return Change("delete", oid, old=r.tuple_data())
    if kind == "T":
        n = r.take("I")
        r.take("b")  # options
        return Truncate(tuple(r.take("I") for _ in range(n)))
    if kind in ("O", "Y", "M"):
        return Other(kind)
    raise DecodeError(f"unknown message kind {kind!r}")


def parse_lsn(text: str) -> int:
    """PostgreSQL's ``pg_lsn`` text (``16/B374D848``) as a number."""
    hi, _, lo = text.partition("/")
    return (int(hi, 16) << 32) | int(lo, 16)


def format_lsn(lsn: int) -> str:
    return f"{lsn >> 32:X}/{lsn & 0xFFFFFFFF:X}"
