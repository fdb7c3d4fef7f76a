"""ALTER TABLE / SOURCE column and connector forms as parse_alter_table / parse_alter_source
read them (src/sqlparser/src/parser.rs:3302-3450, 3861-3990), and the I/O-free parts of their
handlers: AlterColumnOperation's Display, generated-column references, schema registries."""

from __future__ import annotations

import pytest

from rwshim.engine.alter_columns import alter_column_display, reads_column
from rwshim.engine.alter_connector import _format_encode, has_schema_registry
from rwshim.errors import SqlParserError
from rwshim.sql import parse
from rwshim.sql import statements as st


def one(sql: str) -> st.Statement:
    [stmt] = parse(sql)
    return stmt


def test_add_column_forms() -> None:
    for sql in (
        "alter table t add column v int default 1",
        "alter table t add v int default 1",
        "alter table only t add column if not exists v int default 1",
    ):
        stmt = one(sql)
        assert isinstance(stmt, st.AlterColumn), sql
        assert (stmt.kind, stmt.action, stmt.column, stmt.column_def) == (
            "TABLE", "ADD", "v", "v int default 1",
        ), sql  # fmt: skip
        assert stmt.tag == "ALTER_TABLE"
    quoted = one('alter table t add column "V" int')
    assert isinstance(quoted, st.AlterColumn)
    assert (quoted.column, quoted.written) == ("V", '"V"')
    source = one("alter source s add column w varchar")
    assert isinstance(source, st.AlterColumn)
    assert (source.kind, source.action, source.tag) == ("SOURCE", "ADD", "ALTER_SOURCE")
    constraint = one("alter table t add constraint c unique (v)")
    assert isinstance(constraint, st.AlterColumn)
    assert (constraint.action, constraint.column_def) == (
        "ADD CONSTRAINT",
        "constraint c unique (v)",
    )


def test_drop_column_forms() -> None:
    stmt = one("alter table t drop column if exists v cascade")
    assert isinstance(stmt, st.AlterColumn)
    assert (stmt.action, stmt.column, stmt.if_exists, stmt.cascade) == ("DROP", "v", True, True)
    bare = one("alter table t drop v")
    assert isinstance(bare, st.AlterColumn)
    assert (bare.if_exists, bare.cascade) == (False, False)
    with pytest.raises(SqlParserError):
        parse("alter table t drop column v w")


def test_alter_column_forms_and_their_display() -> None:
    cases = {
        "alter table t alter column v set not null": "SET NOT NULL",
        "alter table t alter v drop not null": "DROP NOT NULL",
        "alter table t alter column v set default 1+2": "SET DEFAULT 1 + 2",
        "alter table t alter column v drop default": "DROP DEFAULT",
        "alter table t alter column v type int using v+1": "SET DATA TYPE INT USING v + 1",
        "alter table t alter column v set data type varchar": "SET DATA TYPE CHARACTER VARYING",
    }
    for sql, shown in cases.items():
        stmt = one(sql)
        assert isinstance(stmt, st.AlterColumn), sql
        assert stmt.action == "ALTER" and stmt.column == "v"
        assert alter_column_display(stmt) == shown, sql
    with pytest.raises(SqlParserError):
        parse("alter table t alter column v rename")
    mark = one("alter table t alter watermark for ts as ts - interval '1' second with ttl")
    assert isinstance(mark, st.AlterColumn)
    assert (mark.action, mark.column, mark.argument, mark.with_ttl) == (
        "ALTER WATERMARK", "ts", "ts - interval '1' second", True,
    )  # fmt: skip
    # a column called watermark is a column (parser.rs:3411: WATERMARK needs FOR)
    named = one("alter table t alter watermark type int")
    assert isinstance(named, st.AlterColumn)
    assert (named.action, named.column) == ("ALTER", "watermark")


def test_connector_forms() -> None:
    expected = {
        "alter table t drop connector": ("TABLE", "DROP CONNECTOR", ""),
        "alter table t refresh schema": ("TABLE", "REFRESH SCHEMA", ""),
        "alter source s refresh schema": ("SOURCE", "REFRESH SCHEMA", ""),
        "alter source s reset": ("SOURCE", "RESET", ""),
        "alter source s format plain encode json (a = 'b')": (
            "SOURCE", "FORMAT", "plain encode json (a = 'b')",
        ),
    }  # fmt: skip
    for sql, want in expected.items():
        stmt = one(sql)
        assert isinstance(stmt, st.AlterConnector), sql
        assert (stmt.kind, stmt.operation, stmt.format_encode) == want, sql
    for kind in ("table", "source", "sink"):
        props = one(f"alter {kind} x connector with (a = 'b')")
        assert isinstance(props, st.AlterConnectorProps)
        assert props.kind == kind.upper()
        assert list(props.with_options) == [("a", "b")]


def test_generated_column_references() -> None:
    assert reads_column("a + b", "a")
    assert reads_column('"A" * 2', "A")
    assert not reads_column('"A" * 2', "a")
    assert not reads_column("'a' || b", "a")  # a string, not a column


def test_schema_registry() -> None:
    assert has_schema_registry(_format_encode("plain encode avro (schema.registry = 'http://x')"))
    assert has_schema_registry(_format_encode("plain encode protobuf (message = 'm')"))
    assert has_schema_registry(_format_encode("plain encode json (schema.registry = 'http://x')"))
    assert has_schema_registry(_format_encode("plain encode json (schema.location = 'f')"))
    assert not has_schema_registry(_format_encode("plain encode json"))
    assert not has_schema_registry(_format_encode("upsert encode csv (delimiter = ',')"))
