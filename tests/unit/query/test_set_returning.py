"""Set-returning functions in the select list: one runs as a join, several in lockstep."""

from __future__ import annotations

from rwshim.binder.context import QueryContext
from rwshim.catalog_path.engine import QueryEngine


def test_several_set_returning_functions_run_in_lockstep(
    engine: QueryEngine, ctx: QueryContext
) -> None:
    out = engine.execute(
        "SELECT unnest(ARRAY[1, 2]) AS a, unnest(ARRAY['x', 'y', 'z']) AS b", (), ctx
    )
    assert list(out.rows) == [(1, "x"), (2, "y"), (None, "z")]
    out = engine.execute(
        "SELECT generate_series(1, 3), generate_subscripts(ARRAY['p', 'q'], 1)", (), ctx
    )
    assert list(out.rows) == [(1, 1), (2, 2), (3, None)]


def test_one_set_returning_function_with_other_columns(
    engine: QueryEngine, ctx: QueryContext
) -> None:
    out = engine.execute("SELECT 'k' AS k, unnest(ARRAY[5, 6]) AS v", (), ctx)
    assert [c.name for c in out.columns or []] == ["k", "v"]
    assert list(out.rows) == [("k", 5), ("k", 6)]


def test_a_scalar_function_in_from_is_one_row(engine: QueryEngine, ctx: QueryContext) -> None:
    """binder/relation/table_function.rs:95-158: the column is named by the alias or the
    function; the binder's list of table functions is RisingWave's (the generated one)."""
    from rwshim.binder.type_inference import TABLE_FUNCTIONS
    from rwshim.dataplane.plan import rw_functions_generated

    out = engine.execute("SELECT * FROM abs(-1)", (), ctx)
    assert [c.name for c in out.columns or []] == ["abs"]
    assert list(out.rows) == [(1,)]
    out = engine.execute("SELECT a.x || 'z' AS y FROM lower('Q') AS a(x)", (), ctx)
    assert list(out.rows) == [("qz",)]
    assert TABLE_FUNCTIONS == rw_functions_generated.TABLE
