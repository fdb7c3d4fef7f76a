"""CREATE FUNCTION / AGGREGATE and DROP FUNCTION read in full (rwshim/sql/function_def.py,
after src/sqlparser/src/parser.rs parse_create_function & co.)."""

from __future__ import annotations

import pytest

from rwshim.errors import SqlParserError
from rwshim.sql.function_def import (
    FunctionArg,
    FunctionDesc,
    parse_alter,
    parse_create,
    parse_drop,
)


def test_arguments_names_types_and_defaults() -> None:
    d = parse_create(
        "create function f(INT, b double precision default 1, IN c varchar = 'x', "
        "timestamp with time zone) returns int language sql as $$select $1$$"
    )
    assert d.parts == ("f",)
    assert d.args == (
        FunctionArg("", "INT"),
        FunctionArg("b", "double precision", None, "1"),
        FunctionArg("c", "varchar", "IN", "'x'"),
        FunctionArg("", "timestamp with time zone"),
    )
    assert (d.return_type, d.language, d.as_kind, d.as_value) == (
        "int", "sql", "dollar", "select $1",
    )  # fmt: skip


def test_body_clauses_in_any_order() -> None:
    d = parse_create(
        "create function if not exists s.f() returns table (x int, y varchar) immutable "
        "as 'f' using link 'http://h:8815' language java "
        "with (always_retry_on_network_error = true)"
    )
    assert d.parts == ("s", "f")
    assert d.if_not_exists
    assert d.table_columns == (("x", "int"), ("y", "varchar"))
    assert (d.behavior, d.as_kind, d.as_value, d.using, d.language) == (
        "IMMUTABLE", "single", "f", ("LINK", "http://h:8815"), "java",
    )  # fmt: skip
    assert d.with_options == {"always_retry_on_network_error": True}
    r = parse_create("create function g(a int) returns int language sql return a + 1")
    assert r.return_expr == "a + 1"


def test_aggregate() -> None:
    d = parse_create(
        "create aggregate mysum(value int) returns bigint append only language javascript as 'x'"
    )
    assert d.aggregate and d.append_only
    assert (d.args, d.return_type) == ((FunctionArg("value", "int"),), "bigint")


def test_errors() -> None:
    with pytest.raises(SqlParserError) as e:
        parse_create("create function f() returns int as 'a' as 'b'")
    assert str(e.value).split("\n")[0] == "sql parser error: AS specified more than once"
    with pytest.raises(SqlParserError) as e:
        parse_create("create function f() returns int as 'a' with (x = true)")
    assert str(e.value) == "sql parser error: unknown option: x"
    with pytest.raises(SqlParserError) as e:
        parse_create("create function f() returns int using file 'x'")
    assert str(e.value).split("\n")[0] == (
        "sql parser error: expected one of LINK or BASE64, found: file"
    )


def test_drop_descriptions() -> None:
    assert parse_drop("drop function if exists f(int, varchar), s.g cascade") == (
        (FunctionDesc(("f",), ("int", "varchar")), FunctionDesc(("s", "g"), None)),
        True,
        True,
    )
    assert parse_drop("DROP AGGREGATE a() RESTRICT") == ((FunctionDesc(("a",), ()),), False, False)


def test_alter() -> None:
    assert parse_alter("alter function s.f(int) set schema t") == (
        FunctionDesc(("s", "f"), ("int",)), "SET SCHEMA", "t",
    )  # fmt: skip
    assert parse_alter("ALTER FUNCTION f OWNER TO U1") == (
        FunctionDesc(("f",), None), "OWNER TO", "u1",
    )  # fmt: skip
    with pytest.raises(SqlParserError) as e:
        parse_alter("alter function f rename to g")
    assert str(e.value).split("\n")[0] == (
        "sql parser error: expected SET or OWNER TO after ALTER FUNCTION, found: rename"
    )
