"""pgoutput's messages (PostgreSQL's "Logical Replication Message Formats", protocol 1) as
pgoutput.py decodes them, the upstream types a postgres-cdc column accepts
(cdc_type_compatibility.rs:143-191 at 448c657), and the value conversions Debezium makes that
PostgreSQL's casts do not."""

from __future__ import annotations

import struct

import pytest

from rwshim.dataplane.sources import pgcdc, pgcdc_validate, pgoutput


def _tuple(*values: str | None) -> bytes:
    out = struct.pack("!h", len(values))
    for v in values:
        if v is None:
            out += b"n"
        elif v == "<toast>":
            out += b"u"
        else:
            data = v.encode()
            out += b"t" + struct.pack("!i", len(data)) + data
    return out


def test_messages() -> None:
    rel = (
        b"R" + struct.pack("!I", 16385) + b"public\0t\0d" + struct.pack("!h", 2)
        + b"\x01id\0" + struct.pack("!Ii", 23, -1) + b"\x00v\0" + struct.pack("!Ii", 25, -1)
    )  # fmt: skip
    assert pgoutput.decode(rel) == pgoutput.Relation(
        16385, "public", "t", (("id", 23), ("v", 25)), (True, False)
    )
    begin = b"B" + struct.pack("!qqI", 0x16B374D848, 1_000_000, 7)
    assert pgoutput.decode(begin) == pgoutput.Begin(0x16B374D848, 1_000_000, 7)
    commit = b"C\0" + struct.pack("!qqq", 10, 20, 30)
    assert pgoutput.decode(commit) == pgoutput.Commit(10, 20, 30)
    insert = b"I" + struct.pack("!I", 16385) + b"N" + _tuple("1", None)
    assert pgoutput.decode(insert) == pgoutput.Change("insert", 16385, new=("1", None))
    update = (
        b"U" + struct.pack("!I", 16385) + b"K" + _tuple("1", None) + b"N" + _tuple("2", "<toast>")
    )
    change = pgoutput.decode(update)
    assert isinstance(change, pgoutput.Change) and change.old == ("1", None)
    assert change.new == ("2", pgoutput.UNCHANGED)
    delete = b"D" + struct.pack("!I", 16385) + b"K" + _tuple("2", None)
    assert pgoutput.decode(delete) == pgoutput.Change("delete", 16385, old=("2", None))
    truncate = b"T" + struct.pack("!Ib", 2, 0) + struct.pack("!II", 1, 2)
    assert pgoutput.decode(truncate) == pgoutput.Truncate((1, 2))
    with pytest.raises(pgoutput.DecodeError):
        pgoutput.decode(b"I" + struct.pack("!I", 1) + b"N" + struct.pack("!h", 1) + b"t\0\0")
    assert pgoutput.parse_lsn("16/B374D848") == 0x16B374D848
    assert pgoutput.format_lsn(0x16B374D848) == "16/B374D848"


def test_type_compatibility() -> None:
    ok = [
        ("integer", "integer"), ("bigint", "bigint"), ("oid", "bigint"),
        ("text", "character varying"),
        ("uuid", "character varying"), ("numeric", "numeric"), ("numeric", "character varying"),
        ("numeric", "rw_int256"), ("money", "numeric"), ("ARRAY", "integer[]"),
        ("jsonb", "jsonb"), ("json", "jsonb"), ("time with time zone", "time without time zone"),
    ]  # fmt: skip
    for pg, rw in ok:
        assert pgcdc_validate.compatible(pg, rw, None, None), (pg, rw)
    bad = [("integer", "bigint"), ("text", "jsonb"), ("money", "character varying")]
    for pg, rw in bad:
        assert not pgcdc_validate.compatible(pg, rw, None, None), (pg, rw)
    assert pgcdc_validate.compatible("bit", "boolean", 1, None)
    assert not pgcdc_validate.compatible("bit", "boolean", 8, None)
    assert pgcdc_validate.compatible("USER-DEFINED", "character varying", None, "mood")
    assert not pgcdc_validate.compatible("USER-DEFINED", "character varying", None, "hstore")


def test_debezium_conversions() -> None:
    assert pgcdc._convert(790, "$1,234.50") == "1234.50"
    assert pgcdc._convert(790, "-$3.00") == "-3.00"
    assert pgcdc._convert(1266, "12:30:00+02") == "10:30:00"
    assert pgcdc._convert(1266, "23:30:00.5-01:30") == "01:00:00.5"
    assert pgcdc._convert(25, "$1") == "$1"
