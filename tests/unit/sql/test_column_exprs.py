"""rwshim.sql.column_exprs: calls, column references and impurity read from an expression's
tokens (pure.rs ImpureAnalyzer's function list)."""

from __future__ import annotations

import pytest

from rwshim.errors import RwError
from rwshim.sql import column_exprs as ce


def test_calls_and_impurity() -> None:
    assert ce.calls('coalesce(a, now()) + "Random"(1)') == ["coalesce", "now", "Random"]
    assert ce.calls("current_timestamp") == ["current_timestamp"]
    assert ce.is_impure("proctime()")
    assert ce.is_impure("v + random()")
    assert ce.is_impure("'t'::regclass")
    assert not ce.is_impure("v1 * 2 + length(s)")
    assert not ce.is_impure("'now()'")  # a string is no call


def test_column_refs_skip_functions_fields_and_types() -> None:
    names = ["a", "b", "int", "Up"]
    assert ce.column_refs('a + (s).b + b(1) + x::int + "Up" + up', names) == ["a", "Up"]


def test_check_table_columns_order() -> None:
    ce.check_table_columns([("a", None, None), ("b", "now()", None)], ["b"])  # DEFAULT: allowed
    with pytest.raises(RwError) as info:
        ce.check_table_columns([("a", None, "b"), ("b", None, "a")], [])
    assert info.value.chain == [
        "Bind error: A generated column cannot reference another generated column. "
        'Generated column "a" references generated column "b"'
    ]
