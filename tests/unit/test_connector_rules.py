"""The pure parts of the connector rules (rwshim/frontend/connectors.py, cdc_tables.py,
rwshim/frontend/include_columns.py): INCLUDE names and types, the Postgres CDC table name,
the Rust Debug renderings embedded in RisingWave's texts."""

from __future__ import annotations

import pytest

from rwshim.errors import RwError
from rwshim.frontend import cdc_tables, connectors
from rwshim.frontend.include_columns import include_columns
from rwshim.sql.unparse import nodes as n
from rwshim.sql.unparse import parse_create


def _include(sql: str) -> list[n.IncludeItem]:
    node = parse_create(sql)
    assert isinstance(node, (n.CreateTable, n.CreateSource))
    return node.include


KAFKA = "WITH (connector = 'kafka') FORMAT PLAIN ENCODE JSON"


def test_default_names_follow_gen_default_addition_col_name() -> None:
    """additional_columns.rs:124-144 and its own test (:451-470)."""
    items = _include(
        "CREATE TABLE t (a INT) INCLUDE key INCLUDE header 'inner' INCLUDE header 'inner' "
        f'varchar INCLUDE header \'b\' bytea INCLUDE "OFFSET" AS "Off" {KAFKA}'
    )
    with pytest.raises(RwError):
        # a quoted kind keeps its case: "OFFSET" is no kind of kafka's
        include_columns("kafka", items, "JSON")
    cols = include_columns("kafka", items[:4], "JSON")
    assert [(k, c.name, c.rw_type) for k, c in cols] == [
        ("header", "_rw_kafka_header_b_bytea", "bytea"),
        ("header", "_rw_kafka_header_inner_varchar", "character varying"),
        ("header", "_rw_kafka_header_inner", "bytea"),
        ("key", "_rw_kafka_key", "bytea"),
    ]


def test_postgres_cdc_table_names() -> None:
    """parse_postgres_cdc_external_table_name (create_table.rs:1115-1186) and its test
    (:2869-2900)."""
    ok = {
        "public.t": ("public", "t"),
        '"My Schema"."T.x"': ("My Schema", "T.x"),
        '"a""b".c': ('a"b', "c"),
    }
    for text, parts in ok.items():
        assert cdc_tables.postgres_table_name(text) == parts
    for bad in ('a."b', "a..b", 'a"b.c', '"a"b.c', "a.b."):
        with pytest.raises(RwError) as e:
            cdc_tables.postgres_table_name(bad)
        assert e.value.chain == [
            f"Invalid Postgres CDC table name '{bad}'. Expected 'schema.table'."
        ]
    with pytest.raises(RwError) as e:
        cdc_tables.postgres_table_name("a.b.c")
    assert e.value.chain == [
        "The upstream table name must contain schema name prefix, e.g. 'public.table'"
    ]


def test_rust_integer_parses() -> None:
    assert connectors._is_u32("4294967295") and not connectors._is_u32("4294967296")
    assert connectors._is_u32("+1") and not connectors._is_u32("-1")
    assert not connectors._is_u32("") and not connectors._is_u32("1.0")
