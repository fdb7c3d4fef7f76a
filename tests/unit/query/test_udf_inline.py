"""SQL functions inlined into statement texts (rwshim/binder/udf.py, after RisingWave's
binder/expr/function/mod.rs bind_sql_udf and extract_udf_expr): the I/O-free core with a
look-up over a dictionary."""

from __future__ import annotations

import pytest

from rwshim.binder.udf import Inliner, Udf, udf_expression
from rwshim.errors import BindError, InvalidInputSyntax, NotImplementedError_

FUNCS = {
    "add": Udf(1, "add", "public", "SCALAR", "sql", ("", ""), ("integer", "integer"), "integer",
               "select $1 + $2"),
    "named": Udf(2, "named", "public", "SCALAR", "sql", ("a",), ("bigint",), "bigint",
                 "select a * 2"),
    "wrap": Udf(3, "wrap", "public", "SCALAR", "sql", ("a",), ("integer",), "integer",
                "select add(a, 1)"),
    "above": Udf(4, "above", "public", "SCALAR", "sql", ("v",), ("integer",), "bigint",
                 "select count(*) from t where t.v > v"),
    "js": Udf(5, "js", "public", "SCALAR", "javascript", ("",), ("integer",), "integer", "x"),
}  # fmt: skip


def lookup(schema: str | None, name: str, nargs: int) -> list[Udf]:
    f = FUNCS.get(name)
    return [f] if f is not None and len(f.arg_types) == nargs else []


def test_expression_bodies_inline_with_cast_arguments() -> None:
    i = Inliner(lookup)
    assert i.statement("select add(1, c) from t") == (
        'select ((CAST((1) AS integer)) + (CAST((c) AS integer))) AS "add" from t'
    )
    assert i.statement("select named(x)") == 'select ((CAST((x) AS bigint)) * 2) AS "named"'
    assert i.statement("select named(x) + 1, add(1, 2) AS s") == (
        "select ((CAST((x) AS bigint)) * 2) + 1, ((CAST((1) AS integer)) + (CAST((2) AS integer)))"
        " AS s"
    )
    assert i.used == {1, 2}


def test_calls_in_bodies_and_arguments_are_inlined() -> None:
    i = Inliner(lookup)
    out = i.statement("select wrap(add(1, 2))")
    # inlined all the way down; the select item keeps the name RisingWave derives from the call
    assert out.endswith(' AS "wrap"')
    assert "add(" not in out and "wrap(" not in out
    assert i.used == {1, 3}


def test_a_query_body_reads_its_arguments_from_a_derived_table() -> None:
    out = Inliner(lookup).statement("select above(v) from t")
    assert out == (
        'select (SELECT (select count(*) from t where t.v > (_rw_udf_args0."a0")) FROM '
        '(SELECT CAST((v) AS integer) AS "a0") AS _rw_udf_args0) AS "above" from t'
    )


def test_strings_and_other_names_are_left_alone() -> None:
    i = Inliner(lookup)
    assert i.statement("select 'add(1, 2)', addx(1, 2), add(1)") == (
        "select 'add(1, 2)', addx(1, 2), add(1)"
    )
    assert i.used == set()


def test_parameters_that_do_not_exist() -> None:
    bad = Udf(9, "bad", "public", "SCALAR", "sql", ("a",), ("integer",), "integer", "select a + b")
    with pytest.raises(BindError) as e:
        Inliner(lambda s, n, k: [bad] if n == "bad" else []).statement("select bad(1)")
    assert str(e.value) == "Bind error: failed to find named parameter b"
    named_only = Udf(
        9, "bad", "public", "SCALAR", "sql", ("a",), ("integer",), "integer", "select $1"
    )
    with pytest.raises(BindError) as e:
        Inliner(lambda s, n, k: [named_only] if n == "bad" else []).statement("select bad(1)")
    assert str(e.value) == "Bind error: failed to find unnamed parameter $1"


def test_other_languages_are_refused_when_called_and_found_when_collecting() -> None:
    with pytest.raises(NotImplementedError_):
        Inliner(lookup).statement("select js(1)")
    c = Inliner(lookup, collect_only=True)
    assert c.statement("select js(wrap(1))") == "select js(wrap(1))"
    assert c.used == {5, 3, 1}


def test_extract_udf_expr() -> None:
    assert udf_expression("select $1 + 1 as x;") == ("$1 + 1", True)
    assert udf_expression("  select a from t  ") == ("select a from t", False)
    with pytest.raises(InvalidInputSyntax) as e:
        udf_expression("select 1; select 2")
    assert str(e.value) == (
        "Invalid input syntax: the query for sql udf should contain only one statement"
    )
    with pytest.raises(InvalidInputSyntax):
        udf_expression("insert into t values (1)")
