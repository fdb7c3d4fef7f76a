"""Materialized views RisingWave refuses at CREATE, refused by rwshim with RisingWave's whole
text and nothing left behind (the name is free afterwards), over a real socket.

- a column list of another length than the query's columns: PlanRoot::set_out_names
  (src/frontend/src/optimizer/mod.rs:223-228), after create_mv.rs:148-152;
- a LIMIT literal out of bigint's range: binder/query.rs:200-237;
- an impure filter over a retract stream: expr/mod.rs:84-110 with the contexts of
  stream_filter.rs:104-107 and generic/agg.rs:850 (an append-only input is fine);
- HOP with a zero slide: planner/relation.rs:628;
- a CROSS JOIN (or comma join) with no condition between its sides: a streaming nested-loop
  join (optimizer/plan_node/logical_join.rs:1640-1656);
- an inner join without an equality that is no dynamic filter (logical_join.rs:507-543: a
  right side of more than one row, two comparisons, a column of the right side in the output;
  planner_test dynamic_filter.yaml), while the dynamic filters are planned, over a subquery,
  a CTE or a materialized view whose plan yields one row (cardinality_visitor.rs).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    """A server whose barriers run on their own (a foreground CREATE returns)."""
    return await rw_server_factory()


HINT = (
    "HINT: rewrite the query to extract the impure expression into the select list, or set "
    "`streaming_unsafe_allow_unmaterialized_impure_expr` to allow the behavior at the risk of "
    "inconsistent results or panics during execution"
)


def impure(context: str) -> str:
    return (
        "\n\nCaused by:\n  Not supported: using an impure expression (RANDOM) in "
        f"{context} on a retract stream may lead to inconsistent results\n{HINT}\n"
    )


COUNT = (
    "\n\nCaused by:\n  Invalid input syntax: number of column names does not match number of"
    " columns\n"
)

REFUSED = [
    ("mv(a) AS SELECT * FROM t", COUNT),
    ("mv(a, b, c) AS SELECT * FROM t", COUNT),
    (
        "mv AS SELECT * FROM t ORDER BY a LIMIT 9223372036854775808",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n"
        "  2: expects an integer or expression that can be evaluated to an integer after LIMIT,"
        "\nbut the evaluation of the expression returns error:Casting to i64 out of range\n",
    ),
    ("mv AS SELECT * FROM t WHERE random() > 0.5", impure("WHERE or HAVING condition")),
    (
        "mv AS SELECT sum(a) FILTER (WHERE random() > 0.5) AS s FROM t",
        impure("AGGREGATE FILTER condition"),
    ),
    (
        "mv AS SELECT t.a, th.ts FROM t CROSS JOIN th ORDER BY t.a",
        "\n\nCaused by:\n  Not supported: streaming nested-loop join\nHINT: The non-equal join in"
        " the query requires a nested-loop join executor, which could be very expensive to run."
        " Consider rewriting the query to use dynamic filter as a substitute if possible.\n"
        "See also: https://docs.risingwave.com/processing/sql/dynamic-filters\n",
    ),
    (
        "mv AS SELECT * FROM hop(th, ts, interval '0', interval '1')",
        "\n\nCaused by:\n  Bind error: window_size 00:00:01 and window_slide 00:00:00 must be"
        " positive\n",
    ),
]


@pytest.mark.parametrize(("definition", "error"), REFUSED)
async def test_refused_and_nothing_left(client: Client, definition: str, error: str) -> None:
    await client.run("CREATE TABLE t (a int, b int)")
    await client.run("CREATE TABLE th (ts timestamp)")
    assert await cause(client, f"CREATE MATERIALIZED VIEW {definition}") == ("XX000", error)
    await client.run("CREATE MATERIALIZED VIEW mv (a, b) AS SELECT * FROM t")


async def test_joins_with_a_condition_are_accepted(client: Client) -> None:
    await client.run("CREATE TABLE t (a int, b int)")
    await client.run("CREATE TABLE u (a int)")
    await client.run("CREATE MATERIALIZED VIEW m1 AS SELECT t.b FROM t, u WHERE t.a = u.a")
    await client.run("CREATE MATERIALIZED VIEW m3 AS SELECT b FROM t NATURAL JOIN u")
    # the equality common to every branch of an OR is a join key (expr/utils.rs:382-417,
    # TPC-H q19)
    await client.run(
        "CREATE MATERIALIZED VIEW m4 AS SELECT t.b FROM t, u"
        " WHERE (t.a = u.a AND t.b > 1) OR (t.a = u.a AND u.a < 5)"
    )
    await client.run(
        "CREATE MATERIALIZED VIEW m2 AS SELECT t.b FROM t, (SELECT max(a) AS m FROM u) s"
        " WHERE t.a > s.m"
    )


NESTED_LOOP = (
    "\n\nCaused by:\n  Not supported: streaming nested-loop join\nHINT: The non-equal join in"
    " the query requires a nested-loop join executor, which could be very expensive to run."
    " Consider rewriting the query to use dynamic filter as a substitute if possible.\n"
    "See also: https://docs.risingwave.com/processing/sql/dynamic-filters\n"
)

NOT_DYNAMIC_FILTERS = [
    # dynamic_filter.yaml "Ensure error on output columns from inner"
    "SELECT t.b, s.m FROM t, (SELECT max(a) AS m FROM u) s WHERE t.a > s.m",
    # "Ensure error on multiple rows on inner side"
    "WITH m2 AS (SELECT a FROM u ORDER BY a DESC LIMIT 2) SELECT t.b FROM t, m2 WHERE t.a > m2.a",
    # a table's cardinality is unknown (stream_materialize.rs:221)
    "SELECT t.b FROM t, u WHERE t.a > u.a",
    "SELECT t.b FROM t JOIN u ON t.a >= u.a",
    # a grouped aggregation yields a row per group
    "SELECT t.b FROM t, per_b WHERE t.a > per_b.s",
    # the one-row side must be the right one: two joined items keep their order
    "SELECT t.b FROM total, t WHERE t.a > total.s",
    # one comparison only; not <>
    "SELECT t.b FROM t, total WHERE t.a > total.s AND t.b < total.s",
    "SELECT t.b FROM t, total WHERE t.a <> total.s",
    # three items, one of them joined by nothing
    "SELECT t.b FROM t, u, total WHERE t.a = u.a",
]


@pytest.mark.parametrize("query", NOT_DYNAMIC_FILTERS)
async def test_joins_no_dynamic_filter_answers(client: Client, query: str) -> None:
    await client.run("CREATE TABLE t (a int, b int)")
    await client.run("CREATE TABLE u (a int)")
    await client.run("CREATE MATERIALIZED VIEW total AS SELECT sum(a)::int AS s FROM u")
    await client.run(
        "CREATE MATERIALIZED VIEW per_b AS SELECT b, sum(a)::int AS s FROM t GROUP BY b"
    )
    assert await cause(client, f"CREATE MATERIALIZED VIEW m AS {query}") == (
        "XX000",
        NESTED_LOOP,
    )


async def test_dynamic_filters_are_planned_and_answer(client: Client) -> None:
    """A comparison with a one-row right side: a simple aggregation's materialized view, a
    projection of it (e2e_test/streaming/aggregate/hdr_approx_percentile.slt), a LIMIT 1 CTE,
    a top-1 subquery (dynamic_filter.yaml "With Top-1 on inner side"), the comparison written
    either way round, an expression on either side."""
    await client.run("SET RW_IMPLICIT_FLUSH TO true")
    await client.run("CREATE TABLE t (a int, b int)")
    await client.run("CREATE TABLE u (a int)")
    await client.run("INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)")
    await client.run("INSERT INTO u VALUES (1), (2)")
    await client.run("CREATE MATERIALIZED VIEW total AS SELECT sum(a) AS s FROM u")
    await client.run("CREATE MATERIALIZED VIEW half AS SELECT s * 0.5 AS h FROM total")
    await client.run("CREATE MATERIALIZED VIEW m1 AS SELECT t.b FROM t, total y WHERE t.a >= y.s")
    await client.run("CREATE MATERIALIZED VIEW m2 AS SELECT b FROM t, half WHERE h > a")
    await client.run(
        "CREATE MATERIALIZED VIEW m3 AS WITH one AS (SELECT a FROM u LIMIT 1)"
        " SELECT t.b FROM t, one WHERE t.a + 1 > one.a * 3"
    )
    await client.run(
        "CREATE MATERIALIZED VIEW m4 AS SELECT t.b FROM t"
        " JOIN (SELECT a FROM u ORDER BY a DESC LIMIT 1) tp ON t.a < tp.a"
        " ORDER BY t.b LIMIT 1"
    )
    assert await client.rows("SELECT b FROM m1 ORDER BY b") == [(30,), (40,)]
    assert await client.rows("SELECT b FROM m2 ORDER BY b") == [(10,)]
    assert await client.rows("SELECT b FROM m3 ORDER BY b") == [(30,), (40,)]
    assert await client.rows("SELECT b FROM m4") == [(10,)]
    await client.run("INSERT INTO u VALUES (1)")
    assert await client.rows("SELECT b FROM m1 ORDER BY b") == [(40,)]
    assert await client.rows("SELECT b FROM m2 ORDER BY b") == [(10,)]


async def test_impure_filter_over_append_only_input(client: Client) -> None:
    await client.run("CREATE TABLE ta (a int) APPEND ONLY")
    await client.run("CREATE MATERIALIZED VIEW m AS SELECT * FROM ta WHERE random() > 2")
    await client.run("SET streaming_unsafe_allow_unmaterialized_impure_expr = true")
    await client.run("CREATE TABLE t (a int)")
    await client.run("CREATE MATERIALIZED VIEW m2 AS SELECT * FROM t WHERE random() > 2")
    notices = [n for n in await client.notices() if "impure" in n[2]]
    assert [n[2] for n in notices] == [
        "using an impure expression (RANDOM) in WHERE or HAVING condition on a retract stream"
        " may lead to inconsistent results"
    ]
