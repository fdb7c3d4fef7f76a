"""Watermarks and EMIT ON WINDOW CLOSE as a RisingWave user sees them, under the manual clock
(a barrier only on ``tick()``), ported from RisingWave's own e2e files
(e2e_test/streaming/watermark.slt, e2e_test/streaming/eowc/eowc_group_agg.slt,
eowc_select.slt, e2e_test/streaming/join/hash_join_watermark.slt.part:164-178).

RisingWave: the table's watermark filter drops rows below the watermark as it was before the
statement's chunk, and raises it to max(expr) (src/stream/src/executor/watermark_filter.rs:
184-250); an EMIT ON WINDOW CLOSE view emits a row or group once the watermark passed its
window column, and never changes it after (src/stream/src/executor/eowc/sort.rs:93-114,
aggregate/hash_agg.rs:411-474); the planner's refusals (optimizer/plan_node/convert.rs:84-110,
generic/agg.rs:155-191, logical_agg.rs:1468-1500).
"""

from __future__ import annotations

import datetime as dt

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

EXPERIMENTAL = (
    "NOTICE",
    "00000",
    # src/frontend/src/handler/create_mv.rs:142-145
    "EMIT ON WINDOW CLOSE is currently an experimental feature. Please use it with caution.",
)
TABLE = (
    "create table t (tm timestamp, foo int, watermark for tm as tm - interval '5 minutes')"
    " append only"
)
ROWS = (
    "insert into t values ('2023-05-06 16:51:00', 1), ('2023-05-06 16:56:00', 8),"
    " ('2023-05-06 17:30:00', 3), ('2023-05-06 17:59:00', 4), ('2023-05-06 18:01:00', 6)"
)


def ts(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


async def test_eowc_group_agg_emits_closed_windows_only(client: Client, server: Running) -> None:
    # eowc_group_agg.slt: windows of an hour, watermark five minutes behind
    await client.run(TABLE)
    await client.notices()
    assert (
        await run_ticking(
            client,
            server,
            "create materialized view mv as select window_start, max(foo) from"
            " tumble(t, tm, interval '1 hour') group by window_start emit on window close",
        )
        == "CREATE_MATERIALIZED_VIEW"
    )
    notices = await client.notices()
    assert notices[0] == EXPERIMENTAL
    assert await client.run(ROWS) == "INSERT 0 5"
    assert await client.rows("select * from mv") == []  # no barrier yet
    server.tick()
    # the watermark is 17:56: [16:00, 17:00) closed; [17:00, 18:00) still open
    assert await client.rows("select * from mv order by window_start") == [
        (ts("2023-05-06 16:00:00"), 8)
    ]
    await client.run("insert into t values ('2023-05-06 18:10:00', 7)")
    server.tick()
    assert await client.rows("select * from mv order by window_start") == [
        (ts("2023-05-06 16:00:00"), 8),
        (ts("2023-05-06 17:00:00"), 4),
    ]
    # a batch read of the same query shows every window, open ones included
    assert await client.rows(
        "select window_start, max(foo) from tumble(t, tm, interval '1 hour')"
        " group by window_start order by 1"
    ) == [
        (ts("2023-05-06 16:00:00"), 8),
        (ts("2023-05-06 17:00:00"), 4),
        (ts("2023-05-06 18:00:00"), 7),
    ]


async def test_eowc_select_emits_rows_below_the_watermark(client: Client, server: Running) -> None:
    # eowc_select.slt
    await client.run(TABLE)
    await run_ticking(
        client, server, "create materialized view mv as select tm, foo from t emit on window close"
    )
    await client.run(ROWS)
    server.tick()
    assert await client.rows("select * from mv order by tm") == [
        (ts("2023-05-06 16:51:00"), 1),
        (ts("2023-05-06 16:56:00"), 8),
        (ts("2023-05-06 17:30:00"), 3),
    ]
    await client.run("insert into t values ('2023-05-06 18:10:00', 7)")
    server.tick()
    assert await client.rows("select * from mv order by tm") == [
        (ts("2023-05-06 16:51:00"), 1),
        (ts("2023-05-06 16:56:00"), 8),
        (ts("2023-05-06 17:30:00"), 3),
        (ts("2023-05-06 17:59:00"), 4),
        (ts("2023-05-06 18:01:00"), 6),
    ]


async def test_eowc_star_and_unnest(client: Client, server: Running) -> None:
    # watermark.slt:1-42: a multi-row insert is one chunk, judged against the watermark
    # before it; the second insert moves the watermark to 16:51:01
    await client.run("set rw_implicit_flush = true")
    await client.run(
        "create table t (ts timestamp, foo int, watermark for ts as ts - interval '5 minutes')"
        " append only"
    )
    await run_ticking(
        client, server, "create materialized view mv1 as select * from t emit on window close"
    )
    await run_ticking(
        client,
        server,
        "create materialized view mv2 as select t.ts, unnest(Array[1,2,3]) from t"
        " emit on window close",
    )
    await run_ticking(
        client,
        server,
        "insert into t values ('2023-05-06 16:51:00', 1), ('2023-05-06 16:51:00', 2),"
        " ('2023-05-06 16:51:00', 3)",
    )
    await run_ticking(client, server, "insert into t values ('2023-05-06 16:56:01', 1)")
    at = ts("2023-05-06 16:51:00")
    assert await client.rows("select * from mv1 order by 2") == [(at, 1), (at, 2), (at, 3)]
    assert (
        await client.rows("select * from mv2 order by 2")
        == [(at, 1)] * 3 + [(at, 2)] * 3 + [(at, 3)] * 3
    )


async def test_late_rows_are_dropped_from_the_table_itself(client: Client, server: Running) -> None:
    # hash_join_watermark.slt.part:164-178: the watermark is 00:00:05 after ts = 00:00:10
    await client.run(
        "create table hwm_left (id int, ts timestamptz,"
        " watermark for ts as ts - interval '5' second) append only"
    )
    await client.run("set timezone = 'UTC'")
    assert await client.run("insert into hwm_left values (1, '2024-01-01 00:00:10+00')") == (
        "INSERT 0 1"
    )
    # a late row counts in the statement's tag (the DML executor took it) but is never stored
    assert await client.run("insert into hwm_left values (3, '2024-01-01 00:00:04+00')") == (
        "INSERT 0 1"
    )
    assert await client.run("insert into hwm_left values (3, '2024-01-01 00:00:10+00')") == (
        "INSERT 0 1"
    )
    # a NULL time once there is a watermark: the filter's predicate is NULL, the row goes
    await client.run("insert into hwm_left values (4, NULL)")
    server.tick()
    utc = dt.UTC
    assert await client.rows("select id, ts from hwm_left order by id") == [
        (1, dt.datetime(2024, 1, 1, 0, 0, 10, tzinfo=utc)),
        (3, dt.datetime(2024, 1, 1, 0, 0, 10, tzinfo=utc)),
    ]


async def test_rows_of_one_statement_are_judged_together(client: Client, server: Running) -> None:
    # watermark_filter.rs:196-240: the filter is built from the watermark before the chunk
    await client.run("create table w (v int, watermark for v as v - 10) append only")
    await client.run("insert into w values (NULL), (100), (1)")  # no watermark yet: all kept
    await client.run("insert into w values (89), (90), (200)")  # watermark 90: 89 goes
    await client.run("insert into w values (95)")  # watermark 190: 95 goes
    server.tick()
    assert await client.rows("select v from w order by v") == [(1,), (90,), (100,), (200,), (None,)]


async def test_eowc_refusals(client: Client, server: Running) -> None:
    await client.run("create table nowm (tm timestamp, foo int) append only")
    await client.run(TABLE)
    assert await cause(
        client, "create materialized view m1 as select * from nowm emit on window close"
    ) == (
        "XX000",
        one(
            "Not supported: The query cannot be executed in Emit-On-Window-Close mode.\n"
            "HINT: Try define a watermark column in the source, or avoid aggregation without"
            " GROUP BY"
        ),
    )
    assert await cause(
        client,
        "create materialized view m2 as select foo, count(*) from t group by foo"
        " emit on window close",
    ) == (
        "XX000",
        one(
            "Not supported: Emit-On-Window-Close mode requires a watermark column in GROUP BY.\n"
            "HINT: Please try to GROUP BY a watermark column"
        ),
    )
    assert await cause(
        client, "create materialized view m3 as select max(foo) from t emit on window close"
    ) == (
        "XX000",
        one(
            "Invalid input syntax: `EMIT ON WINDOW CLOSE` cannot be used for aggregation"
            " without `GROUP BY`"
        ),
    )
    assert await client.rows("select name from rw_materialized_views") == []


async def test_non_strict_mode(client: Client, server: Running) -> None:
    # e2e_test/streaming/non_strict_mode.slt: an expression error in a streaming job gives NULL
    # for that value (non_strict.rs:61-157); the batch query of the same expression fails
    await client.run("set rw_implicit_flush = true")
    await client.run("create table t (x int)")
    await run_ticking(client, server, "insert into t values (0), (1), (2), (NULL)")
    await run_ticking(
        client, server, "create materialized view mv_proj as select x, 10/x as v from t"
    )
    await run_ticking(
        client,
        server,
        "create materialized view mv_proj_is_null as select x, 10/x is null as v from t",
    )
    await run_ticking(
        client, server, "create materialized view mv_filter as select * from t where 10/x > 0"
    )
    assert await client.rows("select * from mv_proj order by x") == [
        (0, None), (1, 10), (2, 5), (None, None),
    ]  # fmt: skip
    assert await client.rows("select * from mv_proj_is_null order by x") == [
        (0, True), (1, False), (2, False), (None, True),
    ]  # fmt: skip
    assert await client.rows("select * from mv_filter order by x") == [(1,), (2,)]
    # the rows of a later epoch go the same way
    await run_ticking(client, server, "insert into t values (0), (5)")
    assert await client.rows("select * from mv_proj order by x") == [
        (0, None), (0, None), (1, 10), (2, 5), (5, 2), (None, None),
    ]  # fmt: skip
    assert await cause(client, "select x, 10/x as v from t") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n"
        "  2: Division by zero\n",
    )
    await client.run("create table s (x varchar)")
    await run_ticking(client, server, "insert into s values ('two'), ('4')")
    await run_ticking(
        client,
        server,
        "create materialized view mv_coalesce as select coalesce(x::int, 0) as v from s",
    )
    assert await client.rows("select * from mv_coalesce order by v") == [(0,), (4,)]


async def test_eowc_over_a_join_on_watermark_columns(client: Client, server: Running) -> None:
    # hash_join_watermark.slt.part:1-135: the join forwards min(left, right) watermark on its
    # key; the EOWC view on top shows a row once both sides' watermarks passed it
    await client.run("set rw_implicit_flush = true")
    for side in ("hwm_left", "hwm_right"):
        await client.run(
            f"create table {side} (id int, ts timestamptz,"
            " watermark for ts as ts - interval '5' second) append only"
        )
    await run_ticking(
        client,
        server,
        "create materialized view hash_join_wm_mv as select l.id as l_id, r.id as r_id, l.ts"
        " from hwm_left l left join hwm_right r on l.ts = r.ts",
    )
    await run_ticking(
        client,
        server,
        "create materialized view hash_join_wm_eowc_mv as select * from hash_join_wm_mv"
        " emit on window close",
    )
    await run_ticking(
        client, server, "insert into hwm_right values (100, '2024-01-01 00:00:00+00')"
    )
    await run_ticking(client, server, "insert into hwm_left values (1, '2024-01-01 00:00:00+00')")
    utc = dt.UTC
    t0 = dt.datetime(2024, 1, 1, tzinfo=utc)
    t10 = dt.datetime(2024, 1, 1, 0, 0, 10, tzinfo=utc)
    assert await client.rows("select * from hash_join_wm_mv") == [(1, 100, t0)]
    assert await client.rows("select count(*) from hash_join_wm_eowc_mv") == [(0,)]
    await run_ticking(client, server, "insert into hwm_left values (2, '2024-01-01 00:00:10+00')")
    # the right side's watermark holds the join's back
    assert await client.rows("select count(*) from hash_join_wm_eowc_mv") == [(0,)]
    await run_ticking(
        client, server, "insert into hwm_right values (200, '2024-01-01 00:00:10+00')"
    )
    assert await client.rows("select * from hash_join_wm_mv order by 1") == [
        (1, 100, t0),
        (2, 200, t10),
    ]
    assert await client.rows("select * from hash_join_wm_eowc_mv") == [(1, 100, t0)]


async def test_eowc_over_window(client: Client, server: Running) -> None:
    # eowc_over_window.slt:1-124 (mv1-mv3): a row is emitted once the sort released every row
    # its frame needs (over_window/eowc.rs:110-142)
    await client.run("set rw_implicit_flush = true")
    await client.run(
        "create table t (tm timestamp, foo int, bar int,"
        " watermark for tm as tm - interval '5 minutes') append only"
    )
    for sql in (
        "create materialized view mv1 as select tm, foo, bar,"
        " lag(foo, 2) over (partition by bar order by tm),"
        " max(foo) over (partition by bar order by tm rows between 1 preceding and 1 following),"
        " sum(foo) over (partition by bar order by tm rows 2 preceding exclude current row)"
        " from t emit on window close",
        "create materialized view mv2 as select tm, foo, bar,"
        " lead(foo, 1) over (partition by bar order by tm) as l1,"
        " lead(foo, 3) over (partition by bar order by tm) as l2 from t emit on window close",
        "create materialized view mv3 as select *,"
        " row_number() over (partition by bar order by tm) as rn from t emit on window close",
    ):
        assert await run_ticking(client, server, sql) == "CREATE_MATERIALIZED_VIEW"
    await run_ticking(
        client,
        server,
        "insert into t values ('2023-05-06 16:51:00', 1, 100), ('2023-05-06 16:56:00', 8, 100),"
        " ('2023-05-06 17:30:00', 3, 200), ('2023-05-06 17:35:00', 5, 100),"
        " ('2023-05-06 17:59:00', 4, 100), ('2023-05-06 18:01:00', 6, 200)",
    )
    a, b, c, d = (ts(f"2023-05-06 {h}:00") for h in ("16:51", "16:56", "17:30", "17:35"))
    e, f = ts("2023-05-06 17:59:00"), ts("2023-05-06 18:01:00")
    assert await client.rows("select * from mv1 order by tm") == [
        (a, 1, 100, None, 8, None),
        (b, 8, 100, None, 8, 1),
    ]
    assert await client.rows("select * from mv2 order by tm") == []
    assert await client.rows("select * from mv3 order by tm") == [
        (a, 1, 100, 1), (b, 8, 100, 2), (c, 3, 200, 1), (d, 5, 100, 3),
    ]  # fmt: skip
    await run_ticking(
        client,
        server,
        "insert into t values ('2023-05-06 18:10:00', 7, 100), ('2023-05-06 18:11:00', 9, 200)",
    )
    assert await client.rows("select * from mv1 order by tm") == [
        (a, 1, 100, None, 8, None),
        (b, 8, 100, None, 8, 1),
        (c, 3, 200, None, 6, None),
        (d, 5, 100, 1, 8, 9),
    ]
    assert await client.rows("select * from mv2 order by tm") == [(a, 1, 100, 8, 4)]
    assert await client.rows("select * from mv3 order by tm") == [
        (a, 1, 100, 1), (b, 8, 100, 2), (c, 3, 200, 1), (d, 5, 100, 3), (e, 4, 100, 4),
        (f, 6, 200, 2),
    ]  # fmt: skip


async def test_eowc_over_window_refusals(client: Client, server: Running) -> None:
    # logical_over_window.rs:617-625, :665-687
    await client.run(TABLE)
    assert await cause(
        client,
        "create materialized view m as select foo, row_number() over (partition by foo"
        " order by tm desc) from t emit on window close",
    ) == (
        "XX000",
        one(
            "Invalid input syntax: Only support window functions order by single column and"
            " in ascending order"
        ),
    )
    assert await cause(
        client,
        "create materialized view m as select tm, row_number() over (partition by tm"
        " order by foo) from t emit on window close",
    ) == (
        "XX000",
        one("Invalid input syntax: The ORDER BY column `foo` must be a watermark column"),
    )


async def test_watermark_expression_type(client: Client) -> None:
    # watermark.slt:52-58 (create_source.rs:680-706): checked before the APPEND ONLY rule
    assert await cause(
        client,
        "CREATE TABLE t (v INT, WATERMARK FOR v AS to_timestamp(v) - INTERVAL '5' SECOND)",
    ) == (
        "XX000",
        one(
            "Bind error: The return value type of the watermark expression must be identical to"
            " the watermark column data type. Current data type of watermark return value:"
            " `timestamp with time zone`, column `integer`"
        ),
    )
    # alter_watermark.slt:264-280: ALTER WATERMARK binds its expression the same way, after
    # its own checks
    await client.run(
        "create table t_rej (k int primary key, ts int, watermark for ts as ts - 10 with ttl)"
    )
    assert await cause(
        client, "alter table t_rej alter watermark for ts as to_timestamp(ts) with ttl"
    ) == (
        "XX000",
        one(
            "Bind error: The return value type of the watermark expression must be identical to"
            " the watermark column data type. Current data type of watermark return value:"
            " `timestamp with time zone`, column `integer`"
        ),
    )
    assert await client.run("alter table t_rej alter watermark for ts as ts - 5 with ttl") == (
        "ALTER_TABLE"
    )


async def test_eowc_group_top_n(client: Client, server: Running) -> None:
    # eowc_group_top_n.slt: the first row of each closed window (a group top-N keeps the
    # watermark of its first partition key, stream_group_topn.rs:53)
    await client.run(TABLE)
    await run_ticking(
        client,
        server,
        "create materialized view mv as select window_start, foo from (select *, row_number()"
        " over (partition by window_start order by foo) as rownum from tumble(t, tm,"
        " interval '1 hour')) where rownum <= 1 emit on window close",
    )
    await client.run(ROWS)
    server.tick()
    assert await client.rows("select * from mv order by window_start") == [
        (ts("2023-05-06 16:00:00"), 1)
    ]
    await client.run("insert into t values ('2023-05-06 18:10:00', 7)")
    server.tick()
    assert await client.rows("select * from mv order by window_start") == [
        (ts("2023-05-06 16:00:00"), 1),
        (ts("2023-05-06 17:00:00"), 3),
    ]


async def test_non_strict_functions_and_integer_arithmetic(client: Client, server: Running) -> None:
    # RisingWave gives NULL for sqrt(-1), abs(-2^31) and an integer overflow in a streaming
    # job (non_strict.rs:61-157); a batch query fails with the expression's error
    await client.run("set rw_implicit_flush = true")
    await client.run("create table t (x float8, i int, s smallint)")
    await run_ticking(client, server, "insert into t values (-1, -2147483648, 32767), (4, 5, 1)")
    await run_ticking(
        client,
        server,
        "create materialized view m as select sqrt(x) as r, abs(i) as a, i - 1 as d,"
        " s + s as ss, s * 2 as s2 from t",
    )
    assert await client.rows("select * from m order by r") == [
        (2.0, 5, 4, 2, 2),
        (None, None, None, None, 65534),
    ]
    assert await cause(client, "select sqrt(x) from t") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n"
        "  2: Invalid parameter sqrt input: input cannot be negative value\n",
    )
    assert await cause(client, "select i - 1 from t") == (
        "XX000",
        "\n\nCaused by these errors (recent errors listed first):\n  1: Expr error\n"
        "  2: Numeric out of range\n",
    )


async def test_eowc_numbering_ties(client: Client, server: Running) -> None:
    # eowc_over_window_numbering_functions.slt:276-330: rows of one ORDER BY value are
    # numbered in the order of the input's primary key
    await client.run("set rw_implicit_flush = true")
    await client.run(
        "create table tie_input (id int primary key, tm timestamptz, foo int, bar int,"
        " watermark for tm as tm - interval '5' second) append only"
    )
    await run_ticking(
        client,
        server,
        "create materialized view tie_mv as select tm, foo, bar,"
        " row_number() over (partition by bar order by tm) as rn,"
        " rank() over (partition by bar order by tm) as rk,"
        " dense_rank() over (partition by bar order by tm) as dr from tie_input"
        " emit on window close",
    )
    for row in ("300, '2024-01-01 00:00:00+00', 10", "100, '2024-01-01 00:00:00+00', 11",
                "200, '2024-01-01 00:00:00+00', 12"):  # fmt: skip
        await run_ticking(client, server, f"insert into tie_input values ({row}, 1)")
    assert await client.rows("select count(*) from tie_mv") == [(0,)]
    await run_ticking(
        client, server, "insert into tie_input values (50, '2024-01-01 00:00:20+00', 20, 1)"
    )
    assert await client.rows(
        "select foo, rn, rk, dr from tie_mv where tm = '2024-01-01 00:00:00+00' order by foo"
    ) == [(10, 3, 1, 1), (11, 1, 1, 1), (12, 2, 1, 1)]


async def test_eowc_over_an_interval_join(client: Client, server: Running) -> None:
    # interval_join.slt.part, test 1: `l.ts >= r.ts` forwards min(left, right) to l.ts, the
    # larger side (stream_hash_join.rs:136-204, hash_join.rs:868-900)
    await client.run("set rw_implicit_flush = true")
    for side in ("left_table", "right_table"):
        await client.run(
            f"create table {side} (id int, ts timestamptz, val int,"
            " watermark for ts as ts - interval '5' second) append only"
        )
    await run_ticking(
        client,
        server,
        "create materialized view interval_join_mv as select l.id as l_id, r.id as r_id,"
        " l.ts as l_ts, r.ts as r_ts from left_table l, right_table r"
        " where l.id = r.id and l.ts >= r.ts",
    )
    await run_ticking(
        client,
        server,
        "create materialized view eowc_mv as select * from interval_join_mv emit on window close",
    )

    def at(s: int) -> dt.datetime:
        return dt.datetime(2024, 1, 1, 0, 0, s, tzinfo=dt.UTC)

    async def insert(side: str, i: int, s: int, v: int) -> None:
        sql = f"insert into {side} values ({i}, '2024-01-01 00:00:{s:02d}+00', {v})"
        await run_ticking(client, server, sql)

    await insert("left_table", 1, 10, 100)
    await insert("right_table", 1, 5, 200)
    assert await client.rows("select * from interval_join_mv") == [(1, 1, at(10), at(5))]
    assert await client.rows("select * from eowc_mv") == []
    await insert("left_table", 2, 30, 101)
    assert await client.rows("select count(*) from eowc_mv") == [(0,)]
    await insert("right_table", 2, 25, 201)
    assert await client.rows("select * from eowc_mv") == [(1, 1, at(10), at(5))]
    await insert("left_table", 3, 50, 102)
    await insert("right_table", 3, 45, 202)
    assert await client.rows("select * from interval_join_mv order by 1") == [
        (1, 1, at(10), at(5)), (2, 2, at(30), at(25)), (3, 3, at(50), at(45)),
    ]  # fmt: skip
    assert await client.rows("select * from eowc_mv order by 1") == [
        (1, 1, at(10), at(5)), (2, 2, at(30), at(25)),
    ]  # fmt: skip


async def test_eowc_sink(client: Client, server: Running) -> None:
    # create_sink.rs:400-403 (the notice) and the planner's refusal, as for a view; the emit
    # mode comes before WITH (sqlparser ast/statement.rs:558)
    await client.run(TABLE)
    await client.run("create table nowm (tm timestamp, foo int) append only")
    await client.notices()
    assert (
        await run_ticking(
            client,
            server,
            "create sink s as select tm, foo from t emit on window close"
            " with (connector = 'blackhole')",
        )
        == "CREATE_SINK"
    )
    assert (await client.notices())[0] == EXPERIMENTAL
    assert await cause(
        client,
        "create sink s2 as select * from nowm emit on window close with (connector = 'blackhole')",
    ) == (
        "XX000",
        one(
            "Not supported: The query cannot be executed in Emit-On-Window-Close mode.\n"
            "HINT: Try define a watermark column in the source, or avoid aggregation without"
            " GROUP BY"
        ),
    )


async def test_eowc_over_a_temporal_join(client: Client, server: Running) -> None:
    # temporal_join_watermark.slt:1-60: a temporal join forwards its left side's watermarks
    # (temporal_join.rs:303-308)
    await client.run("set rw_implicit_flush = true")
    await client.run(
        "create table stream (id1 int, a1 int, b1 int, v1 timestamptz,"
        " watermark for v1 as v1 - interval '10' second) append only"
    )
    await client.run("set timezone = 'UTC'")
    await run_ticking(client, server, "insert into stream values (1, 1, 1, '2023-09-14 06:00:00')")
    await client.run("create table version (id2 int, a2 int, b2 int, primary key (id2))")
    await run_ticking(
        client,
        server,
        "create materialized view temporal_join_mv as select id1, a1, id2, v1 from stream"
        " left join version for system_time as of proctime() on id1 = id2",
    )
    await run_ticking(
        client,
        server,
        "create materialized view eowc_mv as select window_start, count(id1) from"
        " tumble(temporal_join_mv, v1, interval '5 s') group by window_start"
        " emit on window close",
    )
    assert await client.rows("select * from eowc_mv") == []
    await run_ticking(client, server, "insert into stream values (2, 2, 2, '2023-09-14 06:00:25')")
    at = dt.datetime(2023, 9, 14, 6, 0, 0, tzinfo=dt.UTC)
    assert await client.rows("select * from eowc_mv") == [(at, 1)]


async def test_eowc_over_a_source_with_a_watermark(client: Client, server: Running) -> None:
    # a source's watermark filter drops its late messages (watermark_filter.rs) and closes
    # the windows of an EOWC view over it, as a table's does
    await client.run(
        "create source s (tm timestamp, foo int, watermark for tm as tm - interval '5 minutes')"
        " with (connector = 'kafka', topic = 't', properties.bootstrap.server = 'localhost:9092')"
        " format plain encode json"
    )
    await run_ticking(
        client,
        server,
        "create materialized view mv as select window_start, max(foo) from"
        " tumble(s, tm, interval '1 hour') group by window_start emit on window close",
    )
    for tm, foo in (("16:51", 1), ("16:56", 8), ("17:30", 3), ("18:01", 6), ("16:10", 99)):
        payload = f'{{"tm": "2023-05-06 {tm}:00", "foo": {foo}}}'
        await client.run(f"rwshim push s '{payload}'")
    server.tick()
    assert await client.rows("select * from mv") == [(ts("2023-05-06 16:00:00"), 8)]


async def test_eowc_gap_fill(client: Client, server: Running) -> None:
    # gap_fill_eowc.slt:1-100: the gaps between the rows the watermark released are filled
    # (logical_gap_fill.rs:201-226: EowcSort, then EowcGapFill)
    await client.run("set rw_implicit_flush = true")
    await client.run(
        "create table gap_table (ts timestamp, value double, primary key (ts),"
        " watermark for ts as ts - interval '5' second) append only"
    )
    await run_ticking(
        client,
        server,
        "insert into gap_table values ('2024-05-21 10:00:00', 10.0),"
        " ('2024-05-21 10:02:00', 12.0), ('2024-05-21 10:05:00', 15.0)",
    )
    for name, strategy in (
        ("plain", ""),
        ("locf", ", locf(value)"),
        ("interp", ", interpolate(value)"),
    ):
        await run_ticking(
            client,
            server,
            f"create materialized view gap_{name} as select ts, value from"
            f" gap_fill(gap_table, ts, interval '1' minute{strategy}) emit on window close",
        )
    await run_ticking(client, server, "insert into gap_table values ('2024-05-21 10:08:00', 21.0)")

    def minute(m: int) -> dt.datetime:
        return dt.datetime(2024, 5, 21, 10, m)

    assert await client.rows("select ts, value from gap_plain order by ts") == [
        (minute(0), 10.0), (minute(1), None), (minute(2), 12.0), (minute(3), None),
        (minute(4), None), (minute(5), 15.0),
    ]  # fmt: skip
    await run_ticking(client, server, "insert into gap_table values ('2024-05-21 10:10:00', 25.0)")
    assert await client.rows("select ts, value from gap_locf order by ts") == [
        (minute(m), v) for m, v in
        ((0, 10.0), (1, 10.0), (2, 12.0), (3, 12.0), (4, 12.0), (5, 15.0), (6, 15.0), (7, 15.0),
         (8, 21.0))
    ]  # fmt: skip
    assert await client.rows("select ts, value from gap_interp order by ts") == [
        (minute(m), v) for m, v in
        ((0, 10.0), (1, 11.0), (2, 12.0), (3, 13.0), (4, 14.0), (5, 15.0), (6, 17.0), (7, 19.0),
         (8, 21.0))
    ]  # fmt: skip
    await client.run("create table nowm (ts timestamp, value double) append only")
    assert await cause(
        client,
        "create materialized view m as select ts, value from"
        " gap_fill(nowm, ts, interval '1' minute) emit on window close",
    ) == (
        "XX000",
        one(
            "Not supported: GAP_FILL with EMIT ON WINDOW CLOSE requires a watermark on the time"
            " column.\nHINT: Please define a watermark on the time column (column index 0)."
        ),
    )
