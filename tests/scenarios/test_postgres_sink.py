"""Sinks to a real PostgreSQL (Debian's PostgreSQL 15, started by the test): ``connector =
'postgres'`` and ``connector = 'jdbc'`` with a ``jdbc:postgresql://`` URL write the sink's
inserts, updates and deletes into the named table at the barriers (upsert by the primary key,
or append-only), CREATE SINK validates the target with RisingWave's texts
(src/connector/src/sink/postgres.rs:227-320, JDBCSinkFactory.java validate, meta's
src/meta/src/stream/sink.rs:26-37), and a target that goes away shows a ``SINK_FAIL`` event
in rw_event_logs and catches up when it comes back (e2e_test/sink/postgres_sink.slt).

Each scenario runs through psycopg (simple protocol) and asyncpg (extended); the target is
checked over a separate psycopg connection to it."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

import pytest

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking
from tests.scenarios.pg15 import Pg15

pytestmark = pytest.mark.slow

_names = itertools.count()


@pytest.fixture(scope="module")
def pg() -> Iterator[Pg15]:
    server = Pg15()
    try:
        yield server
    finally:
        server.close()


def with_pg(pg: Pg15, table: str, extra: str = "") -> str:
    return (
        f"connector = 'postgres', host = '{pg.host}', port = '{pg.port}', user = 'postgres',"
        f" password = '', database = 'postgres', table = '{table}'{extra}"
    )


def pg_sink(pg: Pg15, name: str, source: str, table: str, extra: str) -> str:
    """CREATE SINK ``name`` ``source`` (FROM t / AS query) into ``table`` of ``pg``."""
    return f"create sink {name} {source} with ({with_pg(pg, table, ', ' + extra)})"


def validation(*chain: str) -> str:
    lines = [
        "gRPC request to meta service (call `/ddl_service.DdlService/CreateSink`) failed:"
        " Internal error",
        "failed to validate sink",
        *chain,
    ]
    body = "".join(f"  {i}: {t}\n" for i, t in enumerate(lines, start=1))
    return f"\n\nCaused by these errors (recent errors listed first):\n{body}"


async def test_upsert_and_append_only(client: Client, server: Running, pg: Pg15) -> None:
    n = next(_names)
    pg.run(f"create table up{n} (id int primary key, v varchar, x bigint)")
    pg.run(f"create table ao{n} (id int, v varchar)")
    await client.run("create table t (id int primary key, v varchar, x bigint)")
    await client.run("insert into t values (1, 'a', 10), (2, 'b', 20)")
    await client.run("flush")
    await run_ticking(
        client, server,
        pg_sink(pg, "up", "from t", f"up{n}", "type = 'upsert', primary_key = 'id'"),
    )  # fmt: skip
    await run_ticking(
        client, server,
        pg_sink(
            pg, "ao", "as select id, v from t", f"ao{n}",
            "type = 'append-only', force_append_only = 'true'",
        ),
    )  # fmt: skip
    await client.run("flush")
    # the snapshot
    assert pg.rows(f"select * from up{n} order by id") == [(1, "a", 10), (2, "b", 20)]
    assert pg.rows(f"select * from ao{n} order by id") == [(1, "a"), (2, "b")]
    await client.run("insert into t values (3, 'c', 30)")
    await client.run("update t set v = 'bb' where id = 2")
    await client.run("delete from t where id = 1")
    await client.run("flush")
    assert pg.rows(f"select * from up{n} order by id") == [(2, "bb", 20), (3, "c", 30)]
    # append-only: updates arrive as inserts, deletes are dropped (sink.rs:81-92)
    assert pg.rows(f"select * from ao{n} order by id, v") == [
        (1, "a"),
        (2, "b"),
        (2, "bb"),
        (3, "c"),
    ]
    await client.run("drop sink up")
    await client.run("insert into t values (4, 'd', 40)")
    await client.run("flush")
    assert pg.rows(f"select id from up{n} order by id") == [(2,), (3,)]


async def test_jdbc_upsert(client: Client, server: Running, pg: Pg15) -> None:
    n = next(_names)
    pg.run(f"create table j{n} (id int primary key, v varchar)")
    await client.run("create table t (id int primary key, v varchar)")
    url = f"jdbc:postgresql://{pg.host}:{pg.port}/postgres?user=postgres"
    await run_ticking(
        client, server,
        f"create sink j from t with (connector = 'jdbc', jdbc.url = '{url}',"
        f" table.name = 'j{n}', type = 'upsert', primary_key = 'id')",
    )  # fmt: skip
    await client.run("insert into t values (1, 'a'), (2, 'b')")
    await client.run("flush")
    await client.run("update t set v = 'z' where id = 1")
    await client.run("delete from t where id = 2")
    await client.run("flush")
    assert pg.rows(f"select * from j{n} order by id") == [(1, "z")]


async def test_validation_refusals(client: Client, server: Running, pg: Pg15) -> None:
    n = next(_names)
    pg.run(f"create table v{n} (id int primary key, v varchar)")
    pg.run(f"create table parent{n} (id int primary key)")
    pg.run(f"create table child{n} (id int primary key references parent{n} (id))")
    await client.run("create table t (id int primary key, v varchar, x bigint)")
    cases = [
        (
            pg_sink(pg, "s", "from t", f"v{n}", "type = 'upsert'"),
            validation(
                "config error: Primary key not defined for upsert Postgres sink (please define"
                " in `primary_key` field)"
            ),
        ),
        (
            pg_sink(
                pg, "s", "as select id, v from t", f"nope{n}", "type = 'upsert', primary_key = 'id'"
            ),
            validation(
                f"failed to connect to database: postgres, schema: public, table: nope{n}",
                "Postgres table should define the primary key for non-append-only tables",
            ),
        ),
        (
            pg_sink(pg, "s", "from t", f"v{n}", "type = 'upsert', primary_key = 'id'"),
            validation(
                "config error: Column count mismatch: Postgres table has 2 columns, but sink"
                " schema has 3 columns, sink should have less or equal columns to the Postgres"
                " table"
            ),
        ),
        (
            pg_sink(
                pg,
                "s",
                "as select id, x as v from t",
                f"v{n}",
                "type = 'upsert', primary_key = 'id'",
            ),
            validation(
                f"config error: Column `v` in Postgres table `v{n}` has type `character"
                " varying`, but sink schema defines it as type `bigint`"
            ),
        ),
        (
            pg_sink(
                pg,
                "s",
                "as select id, v as w from t",
                f"v{n}",
                "type = 'upsert', primary_key = 'id'",
            ),
            validation(f"config error: Column `w` not found in Postgres table `v{n}`"),
        ),
        (
            pg_sink(
                pg, "s", "as select id, v from t", f"v{n}", "type = 'upsert', primary_key = 'id,v'"
            ),
            validation(
                "config error: Primary key mismatch: Postgres table has primary key on columns"
                ' ["id"], but sink schema defines primary key on columns {"id", "v"}'
            ),
        ),
        (
            pg_sink(
                pg, "s", "as select id from t", f"child{n}", "type = 'upsert', primary_key = 'id'"
            ),
            validation(
                f'config error: Postgres sink does not support target table "public"."child{n}"'
                " with foreign key constraints. Please remove foreign key constraints from the"
                " target table or choose a different sink table."
            ),
        ),
        (
            pg_sink(pg, "s", "as select id, v from t", f"v{n}", "type = 'retract'"),
            "\n\nCaused by these errors (recent errors listed first):\n"
            "  1: gRPC request to meta service (call `/ddl_service.DdlService/CreateSink`)"
            " failed: Internal error\n"
            "  2: Sink error: config error: `type` must be append-only, or upsert\n",
        ),
    ]
    for sql, expected in cases:
        assert await cause(client, sql) == ("XX000", expected), sql
    url = f"jdbc:postgresql://{pg.host}:{pg.port}/postgres?user=postgres"
    jdbc = f"connector = 'jdbc', jdbc.url = '{url}', type = 'upsert', primary_key = 'id'"
    assert await cause(
        client, f"create sink s as select id, v from t with ({jdbc}, table.name = 'nope{n}')"
    ) == (
        "XX000",
        validation(f"sink validation failed: INVALID_ARGUMENT: table not found: nope{n}"),
    )
    assert await cause(
        client, f"create sink s as select id, v as w from t with ({jdbc}, table.name = 'v{n}')"
    ) == (
        "XX000",
        validation(
            "sink validation failed: FAILED_PRECONDITION: table schema does not match, column"
            " not found: w"
        ),
    )
    assert await client.rows("select name from rw_sinks") == []


async def test_a_target_that_goes_away_and_comes_back(
    client: Client, server: Running, pg: Pg15
) -> None:
    n = next(_names)
    pg.run(f"create table d{n} (id int primary key, v varchar)")
    await client.run("create table t (id int primary key, v varchar)")
    await run_ticking(
        client, server,
        pg_sink(pg, "d", "from t", f"d{n}", "type = 'upsert', primary_key = 'id'"),
    )  # fmt: skip
    await client.run("insert into t values (1, 'a')")
    await client.run("flush")
    assert pg.rows(f"select * from d{n}") == [(1, "a")]
    pg.stop()
    try:
        await client.run("insert into t values (2, 'b')")
        await client.run("update t set v = 'aa' where id = 1")
        await client.run("insert into t values (4, 'x')")
        # the barrier commits; the sink's log keeps what the target did not take
        await client.run("flush")
        # a later barrier's delete of a row an earlier one inserted: applied in that order
        await client.run("delete from t where id = 4")
        await client.run("flush")
        rows = await client.rows(
            "select event_type, info from rw_event_logs where event_type = 'SINK_FAIL'"
        )
        assert len(rows) == 1
        info = rows[0][1] if isinstance(rows[0][1], dict) else json.loads(rows[0][1])
        fail = info["sinkFail"]
        assert (fail["sinkName"], fail["connector"]) == ("d", "postgres")
        assert fail["sinkId"] == (await client.rows("select id from rw_sinks"))[0][0]
        assert fail["error"]
    finally:
        pg.start()
    await client.run("insert into t values (3, 'c')")
    await client.run("flush")
    assert pg.rows(f"select * from d{n} order by id") == [(1, "aa"), (2, "b"), (3, "c")]
