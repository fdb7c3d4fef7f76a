"""``* EXCEPT (...)`` as RisingWave binds it (src/frontend/src/binder/select.rs
generate_except_indices): each name binds to one column of the FROM clause; a qualified star
and qualified names work; unknown, ambiguous and repeated names are RisingWave's errors."""

from __future__ import annotations

import pytest

from rwshim.binder.context import QueryContext
from rwshim.errors import RwError

from .conftest import INT, Catalog, pg


def _t1(catalog: Catalog) -> int:
    return catalog.table("t1", [("v1", INT), ("v2", INT), ("v3", INT)], pk=("v1",)).id


def test_a_qualified_star_leaves_its_columns_out(catalog: Catalog, ctx: QueryContext) -> None:
    tid = _t1(catalog)
    out = pg(catalog, ctx, "SELECT t1.* EXCEPT (v1), * EXCEPT (v2) FROM t1")
    assert " ".join(out.text.split()) == (
        f'SELECT "t1"."v2", "t1"."v3" , "t1"."v1", "t1"."v3" FROM rw."t{tid}" AS "t1"'
    )


def test_qualified_names_leave_one_relations_column_out(
    catalog: Catalog, ctx: QueryContext
) -> None:
    _t1(catalog)
    out = pg(catalog, ctx, "SELECT * EXCEPT (a.v1, b.v2, b.v3) FROM t1 a CROSS JOIN t1 b")
    assert out.text.startswith('SELECT "a"."v2", "a"."v3", "b"."v1" ')
    # a name of another relation leaves nothing out of this one
    out = pg(catalog, ctx, "SELECT a.* EXCEPT (b.v1) FROM t1 a, t1 b")
    assert out.text.startswith('SELECT "a"."v1", "a"."v2", "a"."v3" ')


def _error(catalog: Catalog, ctx: QueryContext, sql: str) -> list[str]:
    with pytest.raises(RwError) as info:
        pg(catalog, ctx, sql)
    return info.value.chain


def test_unknown_ambiguous_and_repeated_names(catalog: Catalog, ctx: QueryContext) -> None:
    _t1(catalog)
    assert _error(catalog, ctx, "SELECT * EXCEPT (v5) FROM t1") == [
        "Failed to bind expression: v5",
        "Item not found: Invalid column: v5",
    ]
    assert _error(catalog, ctx, "SELECT * EXCEPT (v1) FROM t1 a, t1 b") == [
        "internal error: Ambiguous column name: v1"
    ]
    assert _error(catalog, ctx, "SELECT * EXCEPT (v1, v1) FROM t1") == [
        "Bind error: Duplicate entry in except list"
    ]
    # a constant binds to no column (e2e_test/batch/basic/select_except.slt.part)
    for constant in ("1", "'test'"):
        assert _error(catalog, ctx, f"SELECT * EXCEPT ({constant}) FROM t1") == [
            "Bind error: Only support column name in except list"
        ]
    # a USING column is one column of the join
    out = pg(catalog, ctx, "SELECT * EXCEPT (v1) FROM t1 a JOIN t1 b USING (v1)")
    assert "v1" not in out.text.split(" FROM ")[0]
