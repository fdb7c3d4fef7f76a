"""Subscriptions and subscription cursors over real connections, each scenario through
psycopg (simple protocol) and asyncpg (extended): CREATE / ALTER / DROP SUBSCRIPTION with
RisingWave's texts, the catalogs, and cursors reading a table's and a materialized view's
changes barrier by barrier (src/frontend/src/handler/create_subscription.rs,
declare_cursor.rs, fetch_cursor.rs, alter_subscription_retention.rs, session/cursor_manager.rs,
catalog/subscription_catalog.rs; meta controller/catalog/create_op.rs
validate_cross_db_snapshot_backfill, controller/utils.rs check_object_refer_for_drop;
e2e_test/subscription/*.slt, e2e_test/ddl/alter_subscription_retention.slt).

The server runs a manual clock: a barrier happens only at ``server.tick()`` (or FLUSH)."""

from __future__ import annotations

import asyncio

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

# what version() answers and the *_cluster_version columns hold (src/common/src/lib.rs:142-147)
VERSION = "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)"

ONE_DAY = "create subscription s from t with (retention = '1D')"


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


def chain(*texts: str) -> str:
    lines = "".join(f"  {i}: {t}\n" for i, t in enumerate(texts, start=1))
    return f"\n\nCaused by these errors (recent errors listed first):\n{lines}"


async def table(client: Client) -> None:
    await client.run("create table t (id int primary key, v varchar)")
    await client.run("insert into t values (1, 'a'), (2, 'b')")


def ops(rows: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """The rows without rw_timestamp (checked on its own)."""
    return [r[:-1] for r in rows]


# --- catalog ------------------------------------------------------------------------------


async def test_create_subscription_and_the_catalogs(client: Client, server: Running) -> None:
    await table(client)
    await run_ticking(client, server, "create materialized view mv as select id, v from t")
    assert await client.run(ONE_DAY) == "CREATE_SUBSCRIPTION"
    assert await client.run("create subscription s2 from mv with (retention = '3H')") == (
        "CREATE_SUBSCRIPTION"
    )
    rows = await client.rows(
        "select name, schema_name, owner, definition, retention_seconds,"
        " initialized_at = created_at, created_at_cluster_version from rw_subscriptions"
        " order by id"
    )
    assert rows == [
        ("s", "public", 1, "CREATE SUBSCRIPTION s FROM t WITH (retention = '1D')", 86400, True,
         VERSION),
        ("s2", "public", 1, "CREATE SUBSCRIPTION s2 FROM mv WITH (retention = '3H')", 10800,
         True, VERSION),
    ]  # fmt: skip
    assert await client.rows("show subscriptions") == [("public.s", 86400), ("public.s2", 10800)]
    assert await client.rows("show subscriptions like '%2'") == [("public.s2", 10800)]
    assert await client.rows("show create subscription s2") == [
        ("public.s2", "CREATE SUBSCRIPTION s2 FROM mv WITH (retention = '3H')")
    ]
    # pg_class lists a subscription with relkind 'u' (pg_class.rs:153-166), rw_relations too
    assert await client.rows(
        "select c.relname, c.relkind, n.nspname from pg_class c"
        " join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'u' order by 1"
    ) == [("s", "u", "public"), ("s2", "u", "public")]
    assert await client.rows(
        "select name from rw_relations where relation_type = 'subscription' order by 1"
    ) == [("s",), ("s2",)]
    # no streaming job: no rw_streaming_jobs row, no fragments
    assert await client.rows(
        "select count(*) from rw_streaming_jobs where name in ('s', 's2')"
    ) == [(0,)]


async def test_create_subscription_refusals(client: Client) -> None:
    await table(client)
    await client.run("create view vv as select * from t")
    await client.run("create source src (a int) with (connector = 'datagen')")
    assert await cause(client, "create subscription x from t") == (
        "XX000",
        one("internal error: Subscription retention time not set."),
    )
    assert await cause(client, "create subscription x from t with (retention = 'abc')") == (
        "XX000",
        one(
            "internal error: Convert interval to u64 error, please check format, error: "
            '"Invalid unit: abc"'
        ),
    )
    # get_table_by_name finds created tables, materialized views and indexes only
    for name in ("vv", "src", "nosuch"):
        assert await cause(
            client, f"create subscription x from {name} with (retention = '1D')"
        ) == ("XX000", one(f'table "{name}" does not exist'))
    await client.run(ONE_DAY)
    assert await cause(client, ONE_DAY) == (
        "42710",
        chain("Catalog error", "subscription named s already exists"),
    )
    # the relations' namespace: a table's name is taken for a subscription, and back
    assert await cause(client, "create subscription t from t with (retention = '1D')") == (
        "42710",
        chain("Catalog error", "table named t already exists"),
    )
    await client.notices()
    assert (
        await client.run("create subscription if not exists s from t with (retention = '1D')")
        == "CREATE_SUBSCRIPTION"
    )
    assert await client.notices() == [("NOTICE", "00000", 'relation "s" already exists, skipping')]


async def test_alter_subscription(client: Client) -> None:
    await table(client)
    await client.run(ONE_DAY)
    assert await client.run("alter subscription s set retention to '2D'") == "ALTER_SUBSCRIPTION"
    assert await client.rows("select definition, retention_seconds from rw_subscriptions") == [
        ("CREATE SUBSCRIPTION s FROM t WITH (retention = '2D')", 172800)
    ]
    await client.run("alter subscription s set retention = '3H'")
    assert await client.rows("show create subscription s") == [
        ("public.s", "CREATE SUBSCRIPTION s FROM t WITH (retention = '3H')")
    ]
    assert await client.run("alter subscription s rename to s1") == "ALTER_SUBSCRIPTION"
    # renaming the upstream rewrites the definition (e2e ddl/alter_rename.slt)
    await client.run("alter table t rename to t2")
    assert await client.rows("show create subscription s1") == [
        ("public.s1", "CREATE SUBSCRIPTION s1 FROM t2 WITH (retention = '3H')")
    ]
    await client.run("create user u1")
    assert await client.run("alter subscription s1 owner to u1") == "ALTER_SUBSCRIPTION"
    assert await client.rows(
        "select c.relname, r.rolname from pg_class c join pg_roles r on r.oid = c.relowner"
        " where c.relname = 's1'"
    ) == [("s1", "u1")]
    await client.run("create schema sc")
    assert await client.run("alter subscription s1 set schema sc") == "ALTER_SUBSCRIPTION"
    assert await client.rows("select name, schema_name from rw_subscriptions") == [("s1", "sc")]
    assert await cause(client, "alter subscription nosuch set retention to '1D'") == (
        "42704",
        chain("Catalog error", "subscription not found: nosuch"),
    )


async def test_drop_subscription_and_its_upstream(client: Client) -> None:
    await table(client)
    await client.run(ONE_DAY)
    assert await cause(client, "drop table t") == (
        "XX000",
        one(
            "Permission denied: table used by 1 other objects. \nDETAIL: subscription public.s"
            " depends on it\nHINT:  Use DROP ... CASCADE to drop the dependent objects too."
        ),
    )
    assert await client.run("drop subscription s") == "DROP_SUBSCRIPTION"
    await client.notices()
    assert await client.run("drop subscription if exists s") == "DROP_SUBSCRIPTION"
    assert await client.notices() == [
        ("NOTICE", "00000", 'subscription "s" does not exist, skipping')
    ]
    assert await cause(client, "drop subscription s") == (
        "42704",
        chain("Catalog error", "subscription not found: s"),
    )
    await client.run(ONE_DAY)
    assert await client.run("drop table t cascade") == "DROP_TABLE"
    assert await client.rows("select count(*) from rw_subscriptions") == [(0,)]


# --- cursors ------------------------------------------------------------------------------


async def test_cursor_reads_a_tables_changes_by_barrier(client: Client, server: Running) -> None:
    await table(client)
    await client.run(ONE_DAY)
    assert await client.run("declare c subscription cursor for s") == "DECLARE_CURSOR"
    # nothing committed by a barrier yet: FETCH returns at once with no rows
    assert await client.rows("fetch next from c") == []
    await client.run("insert into t values (3, 'c')")
    await client.run("update t set v = 'aa' where id = 1")
    await client.run("delete from t where id = 2")
    server.tick()
    await client.run("insert into t values (4, 'd')")
    # the second barrier through FLUSH
    await client.run("flush")
    got = await client.rows("fetch 10 from c")
    assert ops(got) == [
        # the first barrier's changes in key order, then the second's
        (1, "a", "UpdateDelete"),
        (1, "aa", "UpdateInsert"),
        (2, "b", "Delete"),
        (3, "c", "Insert"),
        (4, "d", "Insert"),
    ]
    stamps = [r[-1] for r in got]
    assert all(isinstance(s, int) for s in stamps)
    assert stamps[0] == stamps[1] == stamps[2] == stamps[3] <= stamps[4]
    assert await client.rows("fetch 10 from c") == []
    # an UPDATE or DELETE reads the committed snapshot, not the epoch's own inserts
    # (src/batch/executors/src/executor/update.rs:153-223, delete.rs:146-188): both find
    # nothing, and the epoch's log holds the two inserts
    await client.run("insert into t values (5, 'e')")
    assert await client.run("update t set v = 'ee' where id = 5") == "UPDATE 0"
    await client.run("insert into t values (6, 'f')")
    assert await client.run("delete from t where id = 6") == "DELETE 0"
    server.tick()
    assert ops(await client.rows("fetch 10 from c")) == [(5, "e", "Insert"), (6, "f", "Insert")]


async def test_cursor_columns_and_fetch_tag(client: Client, server: Running) -> None:
    await client.run("create table t (v1 int, v2 varchar, v3 double precision)")
    await client.run("create subscription s from t with (retention = '1D')")
    await client.run("declare c subscription cursor for s")
    await client.run("insert into t values (1, 'x', 1.5)")
    server.tick()
    # the hidden _row_id is not shown; op and rw_timestamp follow the visible columns
    if client.name == "psycopg":
        cur = await client.conn.execute("fetch next from c")  # type: ignore[attr-defined]
        assert [(d.name, d.type_code) for d in cur.description] == [
            ("v1", 23), ("v2", 1043), ("v3", 701), ("op", 1043), ("rw_timestamp", 20)
        ]  # fmt: skip
        assert cur.statusmessage == "FETCH 1"
        row = await cur.fetchone()
    else:
        stmt = await client.conn.prepare("fetch next from c")  # type: ignore[attr-defined]
        assert [(a.name, a.type.oid) for a in stmt.get_attributes()] == [
            ("v1", 23), ("v2", 1043), ("v3", 701), ("op", 1043), ("rw_timestamp", 20)
        ]  # fmt: skip
        rows = await stmt.fetch()
        assert stmt.get_statusmsg() == "FETCH 1"
        row = tuple(rows[0])
    assert row is not None and tuple(row)[:4] == (1, "x", 1.5, "Insert")


async def test_full_cursor_reads_the_snapshot_then_the_changes(
    client: Client, server: Running
) -> None:
    await table(client)
    await client.run(ONE_DAY)
    server.tick()
    # written after the last barrier: not in the snapshot, a change of the next barrier
    await client.run("insert into t values (3, 'c')")
    await client.run("declare c subscription cursor for s full")
    await client.run("update t set v = 'bb' where id = 2")
    server.tick()
    got = await client.rows("fetch 10 from c")
    assert ops(got) == [
        (1, "a", "Insert"),
        (2, "b", "Insert"),
        (2, "b", "UpdateDelete"),
        (2, "bb", "UpdateInsert"),
        (3, "c", "Insert"),
    ]
    # snapshot rows have no rw_timestamp; the changes' is the barrier's
    assert [r[-1] is None for r in got] == [True, True, False, False, False]


async def test_cursor_on_a_materialized_view(client: Client, server: Running) -> None:
    await client.run("create table t (k int, v int)")
    await client.run("insert into t values (1, 10), (2, 20)")
    await run_ticking(
        client, server, "create materialized view mv as select k, sum(v) as s from t group by k"
    )
    await client.run("create subscription s from mv with (retention = '1D')")
    await client.run("declare c subscription cursor for s full")
    await client.run("insert into t values (1, 5), (3, 30)")
    server.tick()
    # keyed by the group key: a changed sum is an update
    assert ops(await client.rows("fetch 10 from c")) == [
        (1, 10, "Insert"),
        (2, 20, "Insert"),
        (1, 10, "UpdateDelete"),
        (1, 15, "UpdateInsert"),
        (3, 30, "Insert"),
    ]
    await client.run("delete from t where k = 2")
    server.tick()
    assert ops(await client.rows("fetch 10 from c")) == [(2, 20, "Delete")]


async def test_fetch_with_timeout_waits_for_the_next_barrier(
    client_factory: Connect, server: Running
) -> None:
    reader = await client_factory()
    other = await client_factory()
    await table(other)
    await other.run(ONE_DAY)
    await reader.run("declare c subscription cursor for s")
    # no change comes: the timeout ends the wait with no rows
    assert await reader.rows("fetch next from c with (timeout = '1s')") == []
    waiting = asyncio.ensure_future(reader.rows("fetch 2 from c with (timeout = '60s')"))
    await asyncio.sleep(0.2)
    assert not waiting.done()
    # the waiting FETCH holds nothing another session needs
    assert await other.rows("select count(*) from t") == [(2,)]
    await other.run("insert into t values (7, 'g')")
    assert await other.run("create table t2 (a int)") == "CREATE_TABLE"
    server.tick()
    # one row came: FETCH returns it without waiting for a second
    assert ops(await asyncio.wait_for(waiting, 30)) == [(7, "g", "Insert")]


async def test_cursor_errors(client: Client, server: Running) -> None:
    await table(client)
    await client.run(ONE_DAY)
    await client.run("declare c subscription cursor for s")
    assert await cause(client, "declare c subscription cursor for s") == (
        "XX000",
        chain("Catalog error", "cursor `c` already exists"),
    )
    assert await cause(client, "declare d subscription cursor for nosuch") == (
        "42704",
        chain("Catalog error", "subscription not found: nosuch"),
    )
    assert await cause(client, "fetch next from c with (timeout = '1s', x = '1')") == (
        "XX000",
        one(
            "Feature is not yet implemented: only `timeout` is supported in with options\n"
            "No tracking issue yet. Feel free to submit a feature request at "
            "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature"
            "&template=feature_request.yml"
        ),
    )
    # SINCE a unix time in ms: within the retention, not in the future
    assert await cause(client, "declare d subscription cursor for s since 1") == (
        "XX000",
        chain(
            "Catalog error",
            "rw_timestamp is too small, need to be large than the current unix_millis - "
            "subscription's retention time",
        ),
    )
    assert await cause(
        client, "declare d subscription cursor for s since 18446744073709551615"
    ) == (
        "XX000",
        chain(
            "Catalog error",
            "rw_timestamp is too large, need to be less than the current unix_millis",
        ),
    )
    # a dropped subscription invalidates its cursors
    await client.run("drop subscription s")
    assert await cause(client, "fetch next from c") == (
        "42704",
        chain("Catalog error", "subscription not found: s"),
    )
    assert await cause(client, "fetch next from c") == (
        "XX000",
        one("internal error: Cursor is in invalid state. Please close and re-create the cursor."),
    )
    assert await client.run("close c") == "CLOSE_CURSOR"


async def test_since_a_timestamp_and_begin(client: Client, server: Running) -> None:
    await table(client)
    await client.run(ONE_DAY)
    await client.run("insert into t values (3, 'c')")
    server.tick()
    # a second later (epochs are milliseconds: SINCE now() in the same one would see it)
    instance = server.server.instance
    assert instance is not None
    instance.step(1)
    await client.run("declare c subscription cursor for s")
    assert await client.rows("fetch 1 from c") == []  # SINCE now(): not the committed change
    await client.run("declare b subscription cursor for s since begin()")
    first = await client.rows("fetch 10 from b")
    assert ops(first) == [(3, "c", "Insert")]
    stamp = first[0][-1]
    # SINCE the change's own rw_timestamp reads it again
    await client.run(f"declare d subscription cursor for s since {stamp}")
    assert await client.rows("fetch 10 from d") == first


async def test_retention_recycles_old_changes(client: Client, server: Running) -> None:
    await table(client)
    await client.run("create subscription s from t with (retention = '10s')")
    await client.run("declare c subscription cursor for s since begin()")
    await client.run("insert into t values (3, 'c'), (4, 'd')")
    server.tick()
    await client.run("insert into t values (5, 'e')")
    server.tick()
    first = await client.rows("fetch 1 from c")
    assert ops(first) == [(3, "c", "Insert")]
    # (the manual clock stood still: the second barrier's epoch has the same milliseconds)
    stamp = first[0][-1]
    # 20 seconds later both epochs are past the retention and gone
    instance = server.server.instance
    assert instance is not None
    instance.step(20)
    # (the row already read into the cursor is still returned)
    assert ops(await client.rows("fetch 1 from c")) == [(4, "d", "Insert")]
    # the listing said the second barrier's epoch comes next: it is gone (get_next_rw_timestamp)
    assert await cause(client, "fetch 1 from c") == (
        "XX000",
        chain(
            "Catalog error",
            f" No data found for rw_timestamp {stamp}, data may have been recycled, please"
            " recreate cursor",
        ),
    )
    # and a new cursor SINCE begin() starts at the retention's edge: nothing left
    await client.run("declare d subscription cursor for s since begin()")
    assert await client.rows("fetch 10 from d") == []


async def test_show_subscription_cursors_and_show_cursors(
    client_factory: Connect, server: Running
) -> None:
    a = await client_factory()
    b = await client_factory()
    await table(a)
    await a.run(ONE_DAY)
    await a.run("declare c subscription cursor for s")
    await b.run("declare q cursor for select 1")
    rows = await b.rows("show subscription cursors")
    assert len(rows) == 1
    worker, session, user, host, database, cursor, sub, state, idle, info = rows[0]
    assert (worker, user, database, cursor, sub, info) == ("0", "root", "dev", "c", "s", None)
    assert state.startswith("InitLogStoreQuery { seek_timestamp: ")
    assert state.endswith(", expected_timestamp: None }")
    assert isinstance(idle, int) and session.isdigit() and ":" in host
    rows = await a.rows("show cursors")
    assert [(r[0], r[2], r[4], r[5], r[6]) for r in rows] == [("0", "root", "dev", "q", None)]


async def test_cross_database_mv_needs_a_subscription(
    client_factory: Connect, server: Running
) -> None:
    dev = await client_factory()
    await table(dev)
    await dev.run("create table u (a int)")
    await dev.run("create database d2")
    d2 = await client_factory(database="d2")
    # create_op.rs:625-663 validate_cross_db_snapshot_backfill
    assert await cause(d2, "create materialized view m as select * from dev.public.t") == (
        "XX000",
        one("Permission denied: Some upstream tables are not subscribed"),
    )
    await dev.run(ONE_DAY)
    assert await run_ticking(
        d2, server, "create materialized view m as select * from dev.public.t"
    ) == ("CREATE_MATERIALIZED_VIEW")
    assert await d2.rows("select id, v from m order by id") == [(1, "a"), (2, "b")]
    # every upstream needs one
    assert await cause(
        d2, "create materialized view m2 as select * from dev.public.t join dev.public.u on true"
    ) == ("XX000", one("Permission denied: Some upstream tables are not subscribed"))


async def test_the_last_subscription_read_across_databases_is_kept(
    client_factory: Connect, server: Running
) -> None:
    """validate_subscription_deletion (meta controller/utils.rs:2260-2319): while objects of
    another database read a relation, its last subscription (their log store) cannot go;
    e2e_test/streaming/cross_db_mv.slt:72-77."""
    dev = await client_factory()
    await table(dev)
    await dev.run(ONE_DAY)
    await dev.run("create subscription s2 from t with (retention = '1D')")
    await dev.run("create database d3")
    d3 = await client_factory(database="d3")
    await run_ticking(d3, server, "create materialized view m as select * from dev.public.t")
    await run_ticking(d3, server, "create materialized view m2 as select id from dev.public.t")
    # another subscription remains: this one may go
    assert await dev.run("drop subscription s2") == "DROP_SUBSCRIPTION"
    assert await cause(dev, "drop subscription s") == (
        "XX000",
        one("Permission denied: Referenced by 2 cross-db objects."),
    )
    await d3.run("drop materialized view m")
    assert await cause(dev, "drop subscription s") == (
        "XX000",
        one("Permission denied: Referenced by 1 cross-db objects."),
    )
    await d3.run("drop materialized view m2")
    assert await dev.run("drop subscription s") == "DROP_SUBSCRIPTION"
