"""Column lists of CREATE TABLE / SOURCE read into columns, types, keys and watermarks."""

from __future__ import annotations

from rwshim.sql import parse
from rwshim.sql.columns import ColumnDef, TableSchema, table_schema
from rwshim.sql.statements import CreateSource, CreateTable


def _schema(sql: str) -> TableSchema:
    [stmt] = parse(sql)
    assert isinstance(stmt, CreateTable | CreateSource)
    return table_schema(stmt.columns_text)


def test_sqlalchemy_table() -> None:
    s = _schema(
        "\nCREATE TABLE sqla_t (\n\tid SERIAL NOT NULL, \n\tname VARCHAR(20), \n\t"
        "PRIMARY KEY (id)\n)\n\n"
    )
    assert s == TableSchema(
        (
            ColumnDef("id", "serial", "SERIAL", not_null=True),
            ColumnDef("name", "varchar", "VARCHAR(20)"),
        ),
        ("id",),
        (),
    )


def test_types_keys_defaults_generated_and_watermarks() -> None:
    s = _schema(
        'CREATE TABLE t ("Id" integer PRIMARY KEY, b int[], c double precision DEFAULT 1.5 '
        "NOT NULL, d int AS b[1] > 2, e struct<x int, y struct<z varchar>>, "
        "ts timestamp with time zone, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) APPEND ONLY"
    )
    assert [(c.name, c.type_name, c.array_dims) for c in s.columns] == [
        ("Id", "int4", 0),
        ("b", "int4", 1),
        ("c", "float8", 0),
        ("d", "int4", 0),
        ("e", "struct<x int, y struct<z varchar>>", 0),
        ("ts", "timestamptz", 0),
    ]
    assert s.primary_key == ("Id",)
    assert s.columns[2].default == "1.5" and s.columns[2].not_null
    assert s.columns[3].generated == "b[1] > 2"
    assert s.watermarks == (("ts", "ts - INTERVAL '5' SECOND"),)


def test_source_wildcard_and_keyword_named_columns() -> None:
    s = _schema(
        "CREATE SOURCE s (*, primary int, key text, CONSTRAINT pk PRIMARY KEY (key)) "
        "WITH (connector = 'kafka') FORMAT PLAIN ENCODE AVRO"
    )
    assert s.wildcard
    assert [c.name for c in s.columns] == ["primary", "key"]
    assert s.primary_key == ("key",)


def test_no_column_list() -> None:
    assert table_schema(None) == TableSchema((), (), ())
