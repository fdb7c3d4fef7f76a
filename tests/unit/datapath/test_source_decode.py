"""The connector parsers' cores (rwshim/dataplane/sources/decode.py, datagen.py): RisingWave's
conversions (src/connector/src/parser/unified/json.rs, csv_parser.rs), formats (upsert,
debezium) and datagen's sequences (src/common/src/field_generator/numeric.rs)."""

from __future__ import annotations

import pytest

from rwshim.dataplane.sources import datagen
from rwshim.dataplane.sources import decode as d


def test_json_conversions() -> None:
    assert d.from_json("integer", 5) == 5
    assert d.from_json("integer", "-7") == -7  # NumericHandling::Relax { string_parsing }
    for bad in (1.5, True, [1], "x", 2**31):
        with pytest.raises(d.ColumnError):
            d.from_json("integer", bad)
    assert d.from_json("smallint", 32767) == 32767
    with pytest.raises(d.ColumnError):
        d.from_json("smallint", 32768)
    assert d.from_json("double precision", 3) == 3.0
    assert d.from_json("real", "2.5") == 2.5
    with pytest.raises(d.ColumnError):
        d.from_json("boolean", "true")  # BooleanHandling::Strict
    assert d.from_json("boolean", False) is False
    assert d.from_json("character varying", 12) == "12"
    assert d.from_json("character varying", True) == "true"
    with pytest.raises(d.ColumnError):
        d.from_json("character varying", {"a": 1})  # VarcharHandling::OnlyPrimaryTypes
    assert d.from_json("jsonb", {"a": [1, None]}) == d.JsonValue('{"a":[1,null]}')
    assert d.from_json("numeric", "POSITIVE_INFINITY") == "Infinity"
    assert d.from_json("integer", None) is None


def test_plain_json_rows() -> None:
    dec = d.Decoder("PLAIN", "JSON", [d.Column("id", "integer", True), d.Column("Name", "text")])
    assert dec.decode(None, b'{"ID": 1, "name": "x", "other": 3}') == [
        d.RowOp("insert", {"id": 1, "Name": "x"})
    ]
    assert dec.decode(None, b'{"id": 2}') == [d.RowOp("insert", {"id": 2, "Name": None})]
    assert dec.decode(None, None) == []
    for bad in (b"{", b"[1]", b'{"id": "x"}'):  # a key column's error fails the row
        with pytest.raises(d.DecodeError):
            dec.decode(None, bad)


def test_upsert_and_debezium() -> None:
    up = d.Decoder("UPSERT", "JSON", [d.Column("v", "integer")], key_column="k")
    assert up.decode(b"a", b'{"v": 1}') == [d.RowOp("insert", {"v": 1})]
    assert up.decode(b"a", None) == [d.RowOp("delete", {"v": None})]
    with pytest.raises(d.DecodeError):
        up.decode(None, b'{"v": 1}')
    dbz = d.Decoder("DEBEZIUM", "JSON", [d.Column("id", "integer", True)])
    assert dbz.decode(None, b'{"payload": {"op": "r", "after": {"id": 1}}}') == [
        d.RowOp("insert", {"id": 1})
    ]
    assert dbz.decode(None, b'{"op": "u", "before": {"id": 1}, "after": {"id": 2}}') == [
        d.RowOp("update", {"id": 2}, {"id": 1})
    ]
    assert dbz.decode(None, b'{"payload": null}') == []
    with pytest.raises(d.DecodeError, match="unknown debezium op: x"):
        dbz.decode(None, b'{"op": "x"}')


def test_csv_header_and_positions() -> None:
    cols = [d.Column("a", "integer"), d.Column("b", "boolean")]
    with_header = d.Decoder("PLAIN", "CSV", cols)
    assert with_header.decode(None, b"b,a") == []
    assert with_header.decode(None, b"yes,4") == [d.RowOp("insert", {"a": 4, "b": True})]
    plain = d.Decoder("PLAIN", "CSV", cols, {"without_header": "true", "delimiter": "|"})
    assert plain.decode(None, b"x|") == [d.RowOp("insert", {"a": None, "b": None})]


def test_datagen_sequence_splits() -> None:
    cols = [("v", "integer", True)]
    opts = {"fields.v.kind": "sequence", "fields.v.start": "1", "fields.v.end": "5",
            "datagen.rows.per.second": "3", "datagen.split.num": "2"}  # fmt: skip
    gen = datagen.datagen(cols, opts, lambda: 0, 0)
    assert [s.rows_per_second for s in gen.splits] == [2, 1]
    assert gen.due(0) == [{"v": 1}, {"v": 3}, {"v": 2}]
    assert gen.due(999) == []
    assert gen.due(1000) == [{"v": 5}, {"v": 4}]  # split 0 stops at 7 > 5
    assert gen.due(5000) == []  # both splits ended
