"""SESSION window frames (``first_value(x) OVER (PARTITION BY k ORDER BY ts SESSION WITH GAP
g)``) as a RisingWave user sees them, after RisingWave's e2e_test/batch/over_window/session/
mod.slt.part and e2e_test/streaming/eowc/eowc_over_window.slt, under the manual clock.

RisingWave (448c657): a row at or past the previous row's order value plus the gap starts a
new session, a row's frame is its session (src/expr/impl/src/window_function/buffer.rs:
529-600); in a stream only EMIT ON WINDOW CLOSE runs it (logical_over_window.rs:705-715), and a
row is emitted once a later released row of its partition starts a new session (buffer.rs:
510-526).
"""

from __future__ import annotations

import datetime as dt

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

SESSION = (
    "first_value(tm) over (partition by bar order by tm session with gap '10 minutes') as ws,"
    " last_value(tm) over (partition by bar order by tm session with gap '10 minutes') as we"
)
ROWS = (
    "insert into t values ('2023-05-06 16:51:00', 1, 100), ('2023-05-06 16:56:00', 8, 100),"
    " ('2023-05-06 17:30:00', 3, 200), ('2023-05-06 17:35:00', 5, 100),"
    " ('2023-05-06 17:59:00', 4, 100), ('2023-05-06 18:01:00', 6, 200)"
)
MORE = "insert into t values ('2023-05-06 18:10:00', 7, 100), ('2023-05-06 18:11:00', 9, 200)"


def ts(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat("2023-05-06 " + text)


async def test_session_frames_in_a_batch_query(client: Client, server: Running) -> None:
    await client.run("create table t (tm timestamp, foo int, bar int)")
    await client.run(f"create view v1 as select *, {SESSION} from t")
    await client.run(ROWS)
    server.tick()
    assert await client.rows("select foo, ws, we from v1 order by tm") == [
        (1, ts("16:51"), ts("16:56")),
        (8, ts("16:51"), ts("16:56")),
        (3, ts("17:30"), ts("17:30")),
        (5, ts("17:35"), ts("17:35")),
        (4, ts("17:59"), ts("17:59")),
        (6, ts("18:01"), ts("18:01")),
    ]
    await client.run(
        "insert into t values ('2023-05-06 18:08:00', 7, 100), ('2023-05-06 18:10:00', 9, 200)"
    )
    server.tick()
    assert await client.rows(
        "select foo, ws, we from v1 where foo in (4, 6, 7, 9) order by tm"
    ) == [
        (4, ts("17:59"), ts("18:08")),
        (6, ts("18:01"), ts("18:10")),
        (7, ts("17:59"), ts("18:08")),
        (9, ts("18:01"), ts("18:10")),
    ]
    # an integer order column: a row at prev + gap starts a new session; the column keeps
    # the function's name
    assert await client.rows(
        "select foo, last_value(foo) over (order by foo session with gap 2) from t"
        " where bar = 100 order by foo"
    ) == [(1, 1), (4, 5), (5, 5), (7, 8), (8, 8)]


async def test_session_frames_emit_on_window_close(client: Client, server: Running) -> None:
    await client.run(
        "create table t (tm timestamp, foo int, bar int,"
        " watermark for tm as tm - interval '5 minutes') append only"
    )
    await run_ticking(
        client,
        server,
        f"create materialized view mv4 as select *, {SESSION} from t emit on window close",
    )
    await client.run(ROWS)
    server.tick()
    # watermark 17:56: the rows below it are released; only bar 100's first session is
    # followed by a later one (17:35), the latest sessions are not taken as closed
    assert await client.rows("select foo, ws, we from mv4 order by tm") == [
        (1, ts("16:51"), ts("16:56")),
        (8, ts("16:51"), ts("16:56")),
    ]
    await client.run(MORE)
    server.tick()
    assert await client.rows("select foo, ws, we from mv4 order by tm") == [
        (1, ts("16:51"), ts("16:56")),
        (8, ts("16:51"), ts("16:56")),
        (3, ts("17:30"), ts("17:30")),
        (5, ts("17:35"), ts("17:35")),
    ]


async def test_session_frame_refusals(client: Client, server: Running) -> None:
    await client.run("create table t (tm timestamp, foo int, bar int)")
    assert await cause(client, f"create materialized view m as select *, {SESSION} from t") == (
        "XX000",
        "\n\nCaused by:\n  Feature is not yet implemented: Session frame is not yet supported in"
        " general streaming mode. Please consider using Emit-On-Window-Close mode.\nNo tracking"
        " issue yet. Feel free to submit a feature request at"
        " https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature&template"
        "=feature_request.yml\n",
    )
    assert await cause(
        client,
        "select count(*) over (partition by bar order by tm session with gap '1 hour') from t",
    ) == (
        "XX000",
        "\n\nCaused by:\n  not supported by rwshim: count() over a SESSION frame\n",
    )
