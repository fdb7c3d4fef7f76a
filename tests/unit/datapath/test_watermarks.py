"""The I/O-free cores of watermarks, EMIT ON WINDOW CLOSE and non-strict evaluation:
watermark derivation over a query (rwshim.dataplane.plan.watermarks), the rewrite of a view's
query for window functions (eowc_window) and for non-strict evaluation (nonstrict)."""

from __future__ import annotations

import pytest

from rwshim.binder.relations import Relation, RelColumn, RelKind
from rwshim.dataplane.plan import eowc_window, nonstrict, watermarks
from rwshim.errors import RwError

TS = 1114  # timestamp
INT = 23
T = Relation(
    id=5,
    schema="public",
    name="t",
    kind=RelKind.TABLE,
    columns=(
        RelColumn("tm", TS, rw_type="timestamp without time zone"),
        RelColumn("foo", INT, rw_type="integer"),
        RelColumn("_row_id", 20, hidden=True, rw_type="serial"),
    ),
    append_only=True,
    watermark=("tm", "tm - INTERVAL '5 minutes'", False),
)
PLAIN = Relation(
    id=6,
    schema="public",
    name="plain",
    kind=RelKind.TABLE,
    columns=(RelColumn("tm", TS, rw_type="timestamp"), RelColumn("foo", INT, rw_type="integer")),
)
WM = '(SELECT value FROM rw."t5_wm")'


def lookup(parts: list[str]) -> Relation | None:
    return {"t": T, "plain": PLAIN}.get(parts[-1])


def window_column(query: str) -> tuple[str, str]:
    name, mark = watermarks.eowc_of(query, lookup)
    return name, mark.sql


def test_a_column_and_expressions_of_it_carry_the_watermark() -> None:
    assert window_column("select foo, tm from t") == ("tm", WM)
    assert window_column("select foo, tm + interval '1 hour' as later from t where foo > 1") == (
        "later",
        f"({WM}) + (INTERVAL '1 HOUR')",
    )
    assert window_column("select date_trunc('hour', tm) as h from t") == (
        "h",
        f"pg_catalog.date_trunc('hour', {WM})",
    )


def test_tumble_and_group_keys() -> None:
    name, sql = window_column(
        "select window_start, max(foo) from tumble(t, tm, interval '1 hour') group by window_start"
    )
    assert (name, sql) == ("window_start", f"rwfn.tumble_start({WM}, INTERVAL '1 HOUR')")


def test_refusals_are_risingwaves_where_its_rules_are_modelled() -> None:
    with pytest.raises(RwError, match="The query cannot be executed in Emit-On-Window-Close"):
        watermarks.eowc_of("select foo from t", lookup)
    with pytest.raises(RwError, match="requires a watermark column in GROUP BY"):
        watermarks.eowc_of("select foo, count(*) from t group by foo", lookup)
    with pytest.raises(RwError, match="cannot be used for aggregation without `GROUP BY`"):
        watermarks.eowc_of("select max(foo) from t", lookup)
    # and rwshim's own where they are not
    with pytest.raises(RwError, match="not supported by rwshim: EMIT ON WINDOW CLOSE over"):
        watermarks.eowc_of("select tm from t union all select tm from t", lookup)
    with pytest.raises(RwError, match="not supported by rwshim"):
        watermarks.eowc_of("select tm from t where foo in (select foo from plain)", lookup)


def test_an_equi_join_forwards_the_smaller_watermark_to_both_keys() -> None:
    name, sql = window_column("select a.tm, b.foo from t a join t b on a.tm = b.tm")
    assert name == "tm"
    assert sql == f"CASE WHEN ({WM}) IS NULL OR ({WM}) IS NULL THEN NULL ELSE least({WM}, {WM}) END"
    # a key watermarked on one side only forwards nothing
    with pytest.raises(RwError, match="cannot be executed in Emit-On-Window-Close"):
        watermarks.eowc_of("select a.tm from t a join plain b on a.tm = b.tm", lookup)


def test_table_trigger_judges_a_statement_against_the_watermark_before_it() -> None:
    stmts = watermarks.table_statements(T, lambda text: text)
    body = next(s for s in stmts if "FUNCTION" in s)
    assert 'DELETE FROM rw."t5" WHERE ("_row_id") IN (SELECT "_row_id" FROM rw_new' in body
    assert '("tm" >= w) IS NOT TRUE' in body
    assert "greatest(w, (SELECT max(tm - INTERVAL '5 minutes') FROM rw_new))" in body
    assert watermarks.table_statements(PLAIN, lambda text: text) == []


def test_nonstrict_wraps_division_and_casts_of_non_constants() -> None:
    assert nonstrict.query("SELECT x, 10 / x AS v, y % 2, x::int, '1'::int FROM rw.t5 AS t") == (
        "SELECT x, rwfn.ns_div(10, x) AS v, rwfn.ns_mod(y, 2), rwfn.ns_cast_int4(x),"
        " CAST('1' AS integer) FROM rw.t5 AS t"
    )
    nested = nonstrict.query("SELECT 1 / (x / y) FROM t")
    assert nested == "SELECT rwfn.ns_div(1, rwfn.ns_div(x, y)) FROM t"
    # a table function that fails on a row gives no rows for it (project_set.rs:186-215)
    out = nonstrict.query("SELECT x, generate_series(1, 2, x) AS g FROM t")
    assert out == "SELECT x, rwfn.ns_srf_generate_series(1, 2, x) AS g FROM t"
    # nothing to wrap: the text itself
    assert nonstrict.query("SELECT x FROM t") == "SELECT x FROM t"


def test_window_query_keeps_rows_whose_frames_are_complete() -> None:
    out = eowc_window.window_query(
        'SELECT tm, lead(foo, 2) OVER (PARTITION BY bar ORDER BY tm) FROM rw."t5" AS "t"',
        2,
        "tm",
        WM,
    )
    assert out == (
        'SELECT "__rw_0", "__rw_1" FROM (SELECT tm, lead(foo, 2) OVER (PARTITION BY bar ORDER BY'
        " tm), count(*) OVER (PARTITION BY bar ORDER BY tm ROWS BETWEEN 1 FOLLOWING AND"
        " UNBOUNDED FOLLOWING) FROM (SELECT * FROM rw.t5 WHERE tm < (SELECT value FROM"
        " rw.t5_wm)) AS t)"
        ' AS __rw_eowc ("__rw_0", "__rw_1", "__rw_following") WHERE "__rw_following" >= 2'
    )
    with pytest.raises(RwError, match="UNBOUNDED FOLLOWING"):
        eowc_window.window_query(
            "SELECT sum(foo) OVER (PARTITION BY bar ORDER BY tm ROWS BETWEEN CURRENT ROW AND"
            ' UNBOUNDED FOLLOWING) FROM rw."t5" AS "t"',
            1,
            "tm",
            WM,
        )
