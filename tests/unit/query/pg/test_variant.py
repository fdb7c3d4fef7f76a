"""The I/O-free parts of rwshim's ``variant`` (head only): the type text and its PostgreSQL
form (common/rwtypes.py, dataplane/plan/typemap.py), the result text a client sees
(dataplane/typecat.py), the binder's key refusals (binder/variant_keys.py) and the CREATE
rules (frontend/variant_rules.py), with RisingWave's whole texts."""

from __future__ import annotations

import pytest
from sqlglot import exp

from rwshim.binder import types, variant_keys
from rwshim.common import releases, rwtypes
from rwshim.dataplane import typecat
from rwshim.dataplane.plan import typemap
from rwshim.errors import MetaInvalidParameter, NoFunction, NotSupported, RwError, VariantKeyError
from rwshim.frontend import variant_rules
from rwshim.sql.ast.create import FormatEncode


def test_the_type_text_oids_and_postgresql_form() -> None:
    for text, display, oid, pg in (
        ("variant", "variant", 1307, "rwfn.variant"),
        ("VARIANT[]", "variant[]", 1308, "rwfn.variant[]"),
        ("struct<v variant>", "struct<v variant>", 2249, None),
    ):
        t = rwtypes.parse(text)
        assert (t.display(), t.oid) == (display, oid)
        if pg is not None:
            assert typemap.pg_type(t) == pg
            assert typemap.column_type(oid, display) == pg
    assert rwtypes.bind_column_type("variant", "variant") == (1307, "variant")
    assert rwtypes.bind_column_type("variant", "variant[]", 1) == (1308, "variant[]")


def test_contains_variant_looks_inside_lists_structs_and_maps() -> None:
    assert rwtypes.contains_variant("variant")
    assert rwtypes.contains_variant("struct<a int, s struct<v variant>>")
    assert rwtypes.contains_variant("map(varchar,variant)[]")
    assert not rwtypes.contains_variant("struct<variant int>")
    assert not rwtypes.contains_variant("jsonb")
    nested = types.struct_of((("v", rwtypes.VARIANT_OID),))
    assert variant_keys.contains_variant(types.array_of(rwtypes.VARIANT_OID))
    assert variant_keys.contains_variant(nested)
    assert not variant_keys.contains_variant(types.struct_of((("v", 23),)))


def test_a_result_value_is_the_text_made_with_it() -> None:
    # the composite's text (record_out): RisingWave's text first, the typed tree second
    raw = b'("{""a"":1,""b"":[2]}","[""object"", [[""a"", [""int64"", 1]]]]")'
    assert typecat.variant_decoder(raw) == '{"a":1,"b":[2]}'
    assert typecat.variant_decoder(b'("""x""","[""string"", ""x""]")') == '"x"'


def test_key_refusals_name_the_field_and_the_clause() -> None:
    col = exp.column("v", table="t")
    with pytest.raises(VariantKeyError) as e:
        variant_keys.refuse(rwtypes.VARIANT_OID, col, "aggregation group key")
    assert str(e.value) == (
        'Not supported: VARIANT column "t.v" should not be in the aggregation group key.\n'
        "HINT: VARIANT values only have byte-wise equality and ordering, so they cannot be "
        "used as a key: in a primary key, index, grouping or join key, ORDER BY, or set "
        "operation."
    )
    variant_keys.refuse(3802, col, "aggregation group key")  # jsonb: not this check's
    with pytest.raises(VariantKeyError) as e:
        variant_keys.distinct_aggregate("count", rwtypes.VARIANT_OID, col, streaming=False)
    assert e.value.what == 'VARIANT column "t.v" should not be in the aggregation group key.'
    with pytest.raises(VariantKeyError) as e:
        variant_keys.distinct_aggregate("count", rwtypes.VARIANT_OID, col, streaming=True)
    assert e.value.what == (
        'VARIANT column "t.v" should not be in the distinct aggregation argument.'
    )
    with pytest.raises(VariantKeyError) as e:
        variant_keys.refuse_storage_key(rwtypes.VARIANT_OID, "payload")
    assert e.value.what == 'VARIANT column "payload" is part of the storage primary key'
    with pytest.raises(NoFunction) as nf:
        variant_keys.comparison(exp.EQ(), rwtypes.VARIANT_OID, rwtypes.VARIANT_OID)
    assert str(nf.value) == "function equal(variant, variant) does not exist"


def test_create_rules() -> None:
    from rwshim.engine.types import ColumnSpec

    head = releases.release("head")
    cols = [ColumnSpec("id", 23, "integer"), ColumnSpec("payload", 1307, "variant")]
    with pytest.raises(VariantKeyError) as e:
        variant_rules.storage_key({c.name: c.rw_type for c in cols}, ["payload"])
    assert e.value.what == 'VARIANT column "payload" is part of the storage primary key'
    variant_rules.storage_key({c.name: c.rw_type for c in cols}, ["id"])
    with pytest.raises(NotSupported) as ns:
        variant_rules.source_encoding(head, cols, FormatEncode("PLAIN", "JSON"))
    assert str(ns.value) == (
        'Not supported: VARIANT column "payload" is not supported for this source encoding '
        "yet\nHINT: VARIANT columns are not supported for this source encoding yet"
    )
    variant_rules.source_encoding(head, cols, FormatEncode("PLAIN", "PARQUET"))
    variant_rules.source_encoding(head, cols, None)
    with pytest.raises(MetaInvalidParameter) as mi:
        variant_rules.sink({"connector": "kafka"}, cols, into=False)
    assert mi.value.meta_message == "sinking VARIANT columns is not supported yet: column `payload`"
    variant_rules.sink({"connector": "blackhole"}, cols, into=False)
    variant_rules.sink({"connector": "kafka"}, cols, into=True)
    with pytest.raises(NotSupported) as ns:
        variant_rules.udf_signature(["integer", "variant"], "aggregate function")
    assert str(ns.value) == (
        "Not supported: VARIANT type in aggregate function signature\n"
        "HINT: VARIANT is not supported in UDFs yet"
    )


def test_releases_without_the_type() -> None:
    head, v30 = releases.release("head"), releases.release("3.0")
    variant_rules.check_available(head, ["variant"])
    with pytest.raises(RwError) as e:
        variant_rules.check_available(v30, ["integer", "struct<v variant>"])
    assert str(e.value).startswith(
        "Feature is not yet implemented: unsupported data type: variant\nNo tracking issue yet."
    )
    with pytest.raises(RwError) as e:
        variant_rules.refuse_in_query("3.0", {"to_variant", "abs"}, ["variant", "int4"])
    assert str(e.value) == (
        "not supported by rwshim: to_variant, variant under RisingWave 3.0, which has no "
        "variant type"
    )
    variant_rules.refuse_in_query("3.0", {"abs"}, ["int4"])
