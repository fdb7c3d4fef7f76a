"""RisingWave-only types as text (rwshim/common/rwtypes.py) and their PostgreSQL form
(query/pg/typemap): RisingWave's display names and OIDs, composite types per struct type."""

from __future__ import annotations

import pytest

from rwshim.common import pgtypes, rwtypes
from rwshim.dataplane.plan import typemap
from rwshim.errors import BindError, NotImplementedError_, RwError


@pytest.mark.parametrize(
    ("text", "display", "oid"),
    [
        ("STRUCT<i INTEGER, j VARCHAR>", "struct<i integer, j character varying>", 2249),
        ("struct<v1 int, v2 struct<a int>>", "struct<v1 integer, v2 struct<a integer>>", 2249),
        (
            'struct<"A" int, "b B" varchar, C bool>',
            'struct<"A" integer, "b B" character varying, c boolean>',
            2249,
        ),
        ("struct<id varchar>[]", "struct<id character varying>[]", 2287),
        ("int[][]", "integer[][]", pgtypes.INT4_ARRAY),
        ("double precision[]", "double precision[]", pgtypes.FLOAT8_ARRAY),
        ("map(varchar, int)", "map(character varying,integer)", 1303),
        ("rw_int256", "rw_int256", 1301),
        ("rw_int256[]", "rw_int256[]", 1302),
        ("vector(3)", "vector(3)", 1305),
        ("timestamp with time zone", "timestamp with time zone", pgtypes.TIMESTAMPTZ),
        ("struct<>", "struct<>", 2249),
    ],
)  # fmt: skip
def test_display_names_and_oids_are_risingwaves(text: str, display: str, oid: int) -> None:
    t = rwtypes.parse(text)
    assert t.display() == display
    assert t.oid == oid


def test_a_struct_field_name_that_is_a_keyword_is_quoted() -> None:
    assert rwtypes.parse("struct<key int, value int>").display() == (
        'struct<"key" integer, "value" integer>'
    )


def test_not_a_type_and_an_unknown_name() -> None:
    with pytest.raises(rwtypes.TypeSyntaxError):
        rwtypes.parse("struct<a int")
    with pytest.raises(NotImplementedError_) as info:
        rwtypes.parse("struct<a geometry>")
    assert info.value.chain[0].startswith(
        "Feature is not yet implemented: unsupported data type: struct<a geometry>"
    )


def test_create_table_binds_risingwave_only_column_types() -> None:
    assert rwtypes.bind_column_type("struct", "struct<a int, b varchar>") == (
        2249,
        "struct<a integer, b character varying>",
    )
    assert rwtypes.bind_column_type("rw_int256", "rw_int256") == (1301, "rw_int256")
    assert rwtypes.bind_column_type("map", "map(varchar, int)") == (
        1303,
        "map(character varying,integer)",
    )
    # map_type.rs check_key_type_valid, as binder/expr/mod.rs bind_data_type reports it
    with pytest.raises(BindError) as info:
        rwtypes.bind_column_type("map", "map (float, float)")
    assert info.value.chain == ["Bind error: invalid map key type: double precision"]
    with pytest.raises(BindError) as info:
        rwtypes.bind_column_type("struct", "struct<m map(map(int,int), int)>")
    assert info.value.chain == ["Bind error: invalid map key type: map(integer,integer)"]
    # rwshim's limit: a map whose values are lists
    with pytest.raises(RwError) as err:
        rwtypes.bind_column_type("map", "map(int, int[])")
    assert err.value.chain[0].startswith("not supported by rwshim: map(integer,integer[])")
    assert rwtypes.bind_column_type("int4", "int[][]", 2) == (pgtypes.INT4_ARRAY, "integer[][]")
    assert rwtypes.bind_column_type("int4", "int[]", 1) == (pgtypes.INT4_ARRAY, "integer[]")


def test_postgresql_types_of_risingwave_types() -> None:
    s = rwtypes.parse("struct<a int, b struct<c varchar>>")
    name = typemap.struct_name(s)
    assert name.startswith("rw_s") and len(name) == 13
    assert typemap.pg_type(s) == f"rwfn.{name}"
    assert typemap.pg_type(rwtypes.parse("int[][]")) == "integer[]"
    assert typemap.pg_type(rwtypes.parse("rw_int256[]")) == "rwfn.rw_int256[]"
    assert typemap.pg_type(rwtypes.parse("vector(3)")) == "rwfn.vector(3)"
    assert typemap.pg_type(rwtypes.parse("struct<>")) == "rwfn.rw_s0"
    # the catalog's text of a column picks the same type
    assert typemap.column_type(2249, s.display()) == f"rwfn.{name}"


def test_one_composite_per_struct_type_innermost_first() -> None:
    outer = rwtypes.parse("struct<a int, b struct<c varchar>>")
    inner = rwtypes.parse("struct<c varchar>")
    ddl = typemap.type_ddl(outer)
    assert len(ddl) == 2
    assert f'CREATE TYPE rwfn.{typemap.struct_name(inner)} AS ("c" character varying)' in ddl[0]
    assert f"COMMENT ON TYPE rwfn.{typemap.struct_name(outer)} IS '{outer.display()}'" in ddl[1]
    # the same struct written otherwise is the same composite
    assert typemap.struct_name(rwtypes.parse("STRUCT<C VARCHAR>")) == typemap.struct_name(inner)
    # a table with two columns of one struct type makes it once
    assert len(typemap.columns_ddl([inner.display(), inner.display(), "integer"])) == 1
