"""The pre-pass for RisingWave-only types: ``STRUCT<...>`` casts become composite types (their
DDL required first) and ``char(n)`` becomes varchar, every byte offset after them unchanged."""

from __future__ import annotations

from rwshim.common import rwtypes
from rwshim.dataplane.plan import typemap
from rwshim.dataplane.plan.prepass import prepass


def test_a_struct_cast_names_its_composite_in_place() -> None:
    text = "SELECT (1, (2, 3))::STRUCT<i BIGINT, j STRUCT<a BIGINT, b VARCHAR>> AS s FROM t"
    out = prepass(text)
    outer = rwtypes.parse("STRUCT<i BIGINT, j STRUCT<a BIGINT, b VARCHAR>>")
    assert len(out.text.encode()) == len(text.encode())
    assert out.text.startswith(f"SELECT (1, (2, 3))::{typemap.struct_name(outer)} ")
    assert out.text.endswith(" AS s FROM t")
    assert out.requires == typemap.type_ddl(outer)


def test_a_list_of_structs_and_a_multibyte_field_name_keep_byte_offsets() -> None:
    text = 'SELECT NULL::struct<"é" int>[], x FROM t'
    out = prepass(text)
    assert len(out.text.encode()) == len(text.encode())
    assert "[]" in out.text and out.text.endswith(", x FROM t")


def test_struct_in_a_string_or_as_a_name_is_left_alone() -> None:
    for text in ("SELECT 'struct<a int>'", "SELECT struct < 5 FROM t"):
        out = prepass(text)
        assert out.text == text and out.requires == []


def test_char_casts_become_varchar() -> None:
    out = prepass("SELECT 'a'::char(2) = 'a '::CHARACTER(2), 'x'::bpchar, CAST('a' AS char(1))")
    assert out.text == (
        "SELECT 'a'::varchar = 'a '::varchar     , 'x'::text  , CAST('a' AS varchar)"
    )
    # an alias named char, and character varying, stay
    assert prepass("SELECT 1 AS char, 'a'::character varying").text == (
        "SELECT 1 AS char, 'a'::character varying"
    )
