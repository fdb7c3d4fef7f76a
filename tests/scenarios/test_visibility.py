"""When a write becomes visible, as a RisingWave user sees it (manual clock: a barrier happens
only on ``tick()`` or a command that injects one).

RisingWave: a DML statement returns before the barrier that commits it, and every batch read
uses the committed epoch (src/frontend/src/session/transaction.rs:46-48,
scheduler/snapshot.rs:168-196); FLUSH injects a barrier and waits for it
(handler/flush.rs:27-43); ``implicit_flush`` flushes after each DML (handler/query.rs:564-568);
``dml_wait_persistence`` waits for the next checkpoint (stream/src/executor/dml.rs:160-190);
materialized views, MV-on-MV chains and indexes move in the same epoch as their upstream.
"""

from __future__ import annotations

import asyncio

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import pending, run_ticking


async def kv(client: Client, server: Running) -> None:
    await client.run("create table t (k int primary key, v int)")
    await client.run("insert into t values (1, 10)")
    server.tick()


async def test_a_write_is_seen_by_nobody_until_the_next_barrier(
    client_factory: Connect, server: Running
) -> None:
    writer = await client_factory()
    other = await client_factory()
    await kv(writer, server)
    assert await writer.run("insert into t values (2, 20)") == "INSERT 0 1"
    assert await writer.run("update t set v = 11 where k = 1") == "UPDATE 1"
    # its own session and another see the last committed epoch, as long as no barrier comes
    for _ in range(3):
        for c in (writer, other):
            assert await c.rows("select k, v from t order by k") == [(1, 10)]
            assert await c.rows("select count(*) from t") == [(1,)]
    server.tick()
    for c in (writer, other):
        assert await c.rows("select k, v from t order by k") == [(1, 11), (2, 20)]


async def test_flush_makes_earlier_writes_visible_to_every_session(
    client_factory: Connect, server: Running
) -> None:
    writer = await client_factory()
    other = await client_factory()
    await kv(writer, server)
    await writer.run("insert into t values (2, 20)")
    await other.run("delete from t where k = 1")
    assert await other.rows("select k from t order by k") == [(1,)]
    # one session's FLUSH commits every write that returned before it, the other's too
    assert await writer.run("flush") == "FLUSH"
    for c in (writer, other):
        assert await c.rows("select k, v from t order by k") == [(2, 20)]


async def test_implicit_flush_makes_each_dml_wait_for_its_barrier(
    client_factory: Connect, server: Running
) -> None:
    writer = await client_factory()
    other = await client_factory()
    await kv(writer, server)
    assert await writer.run("set rw_implicit_flush = true") == "SET_VARIABLE"
    assert await writer.run("insert into t values (2, 20)") == "INSERT 0 1"
    assert await other.rows("select k, v from t order by k") == [(1, 10), (2, 20)]
    assert await writer.run("delete from t where k = 1") == "DELETE 1"
    assert await writer.rows("select k from t order by k") == [(2,)]
    # another session without it: its writes wait for a barrier again
    await other.run("insert into t values (3, 30)")
    assert await writer.rows("select k from t order by k") == [(2,)]
    # the next implicit flush is a barrier: it commits the other session's write too
    await writer.run("insert into t values (4, 40)")
    assert await other.rows("select k from t order by k") == [(2,), (3,), (4,)]


async def test_dml_wait_persistence_returns_after_the_next_barrier(
    client_factory: Connect, server: Running
) -> None:
    writer = await client_factory()
    await kv(writer, server)
    await writer.run("set dml_wait_persistence = true")
    # it injects no barrier: with the clock held, the INSERT waits for one
    fut = await pending(writer.run("insert into t values (2, 20)"))
    server.tick()
    assert await asyncio.wait_for(fut, 10) == "INSERT 0 1"
    assert await writer.rows("select k from t order by k") == [(1,), (2,)]


async def test_a_held_write_stays_invisible_and_returning_answers_at_once(
    client: Client, server: Running
) -> None:
    await kv(client, server)
    # the statement's own answer (its count, RETURNING) comes at once; the table does not move
    assert await client.rows("insert into t values (5, 50) returning k, v") == [(5, 50)]
    assert await client.rows("delete from t where k = 1 returning v") == [(10,)]
    assert await client.rows("select k, v from t") == [(1, 10)]
    # a failing statement undoes only itself: the epoch's other writes stay queued
    failure = await client.fail("insert into t values (1 / 0, 0)")
    assert failure.message == (
        f"{client.envelope}\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Expr error\n  2: Division by zero\n"
    )
    assert await client.rows("select k, v from t") == [(1, 10)]
    server.tick()
    assert await client.rows("select k, v from t") == [(5, 50)]


async def test_a_materialized_view_chain_shows_one_epoch(
    client_factory: Connect, server: Running
) -> None:
    writer = await client_factory()
    reader = await client_factory()
    await kv(writer, server)
    await run_ticking(writer, server, "create materialized view m1 as select k, v * 2 as w from t")
    await run_ticking(writer, server, "create materialized view m2 as select sum(w) as s from m1")
    await run_ticking(writer, server, "create index m1_w on m1 (w)")
    assert await reader.rows("select s from m2") == [(20,)]
    await writer.run("insert into t values (2, 20), (3, 30)")
    await writer.run("update t set v = 100 where k = 1")
    # nothing moved anywhere: the table, both views, the index and a join of them agree
    state = "select (select count(*) from t), (select count(*) from m1), (select s from m2)"
    assert await reader.rows(state) == [(1, 1, 20)]
    assert await reader.rows("select k, w from m1_w order by k") == [(1, 20)]
    server.tick()
    assert await reader.rows(state) == [(3, 3, 300)]
    assert await reader.rows("select k, w from m1 order by k") == [(1, 200), (2, 40), (3, 60)]
    assert await reader.rows("select w from m1_w order by w") == [(40,), (60,), (200,)]
    # between barriers the views keep the last committed epoch
    await writer.run("delete from t where k = 2")
    assert await reader.rows(state) == [(3, 3, 300)]
    await writer.run("flush")
    assert await reader.rows(state) == [(2, 2, 260)]
    assert (
        await reader.rows("select t.k, m1.w from t join m1 on t.k = m1.k where m1.w <> t.v * 2")
        == []
    )


async def test_a_barrier_without_writes_changes_nothing(client: Client, server: Running) -> None:
    await kv(client, server)
    await run_ticking(client, server, "create materialized view m as select count(*) as n from t")
    for _ in range(3):
        server.tick()
        assert await client.rows("select n from m") == [(1,)]
        assert await client.rows("select k, v from t") == [(1, 10)]


async def test_update_and_delete_read_the_committed_state_not_the_epochs_writes(
    client: Client, server: Running
) -> None:
    """RisingWave's UPDATE and DELETE scan the committed snapshot and emit what they found
    (src/batch/executors/src/executor/update.rs:153-223, delete.rs:146-188): a row another DML
    of the same epoch wrote is not there for them, their count says so, and the changes they
    emit land on the stored row by key at the barrier."""
    await kv(client, server)
    assert await client.run("insert into t values (2, 20)") == "INSERT 0 1"
    assert await client.run("update t set v = v + 1") == "UPDATE 1"
    assert await client.run("update t set v = 0 where k = 2") == "UPDATE 0"
    assert await client.run("delete from t where k = 2") == "DELETE 0"
    # both read the committed 10: the second does not see the first's 11
    assert await client.rows("update t set v = v + 1 where k = 1 returning k, v") == [(1, 11)]
    server.tick()
    assert await client.rows("select k, v from t order by k") == [(1, 11), (2, 20)]
    # once committed, the row is there for them
    assert await client.run("update t set v = v * 2 where k = 2") == "UPDATE 1"
    assert await client.rows("delete from t where v > 15 returning k") == [(2,)]
    server.tick()
    assert await client.rows("select k, v from t order by k") == [(1, 11)]


async def test_an_update_reading_another_table_reads_its_committed_rows(
    client: Client, server: Running
) -> None:
    await kv(client, server)
    await client.run("create table u (k int primary key)")
    await client.run("create table r (v int)")  # keyed by its hidden row id
    await client.run("insert into r values (1)")
    server.tick()
    await client.run("insert into u values (1)")
    await client.run("insert into r values (2)")
    # u's row is not committed: the subquery finds nothing, nothing is updated
    assert await client.run("update t set v = 0 where k in (select k from u)") == "UPDATE 0"
    assert await client.run("update r set v = v * 10") == "UPDATE 1"
    server.tick()
    assert await client.rows("select k, v from t") == [(1, 10)]
    assert await client.rows("select v from r order by v") == [(2,), (10,)]
    assert await client.run("update t set v = 0 where k in (select k from u)") == "UPDATE 1"
    await client.run("flush")
    assert await client.rows("select k, v from t") == [(1, 0)]


async def test_a_schema_change_commits_the_writes_queued_before_it(
    client_factory: Connect, server: Running
) -> None:
    """ALTER TABLE ADD / DROP COLUMN replaces the table's streaming job through a checkpoint
    barrier (a replace-table command: src/meta/src/barrier/command.rs:710-713, every command
    but Resume is a checkpoint); the DML queued before it belongs to the epoch that barrier
    ends, so it is committed, in the old shape, with the change."""
    writer = await client_factory()
    reader = await client_factory()
    await kv(writer, server)
    await writer.run("insert into t values (2, 20)")
    assert await writer.run("alter table t add column w int") == "ALTER_TABLE"
    assert await reader.rows("select k, v, w from t order by k") == [(1, 10, None), (2, 20, None)]
    await writer.run("insert into t values (3, 30, 300)")
    assert await writer.run("alter table t drop column v") == "ALTER_TABLE"
    assert await reader.rows("select k, w from t order by k") == [(1, None), (2, None), (3, 300)]


async def test_with_checkpoint_frequency_writes_appear_at_checkpoints_only(
    client_factory: Connect, server: Running
) -> None:
    """checkpoint_frequency = 3: every third periodic barrier is a checkpoint
    (schedule.rs:524-542), a command's barrier (FLUSH) always is (command.rs:710-713), and
    only checkpoints are committed (partial_graph.rs:583-595): a read sees the last one."""
    writer = await client_factory()
    reader = await client_factory()
    await kv(writer, server)
    assert await writer.run("alter system set checkpoint_frequency = 3") == "ALTER_SYSTEM"
    await writer.run("insert into t values (2, 20)")
    await reader.run("set visibility_mode = checkpoint")
    for _ in range(2):
        server.tick()
        for c in (writer, reader):
            assert await c.rows("select k from t order by k") == [(1,)]
    server.tick()
    for c in (writer, reader):
        assert await c.rows("select k from t order by k") == [(1,), (2,)]
    # the count starts again from that checkpoint; FLUSH's barrier is one at once
    await writer.run("insert into t values (3, 30)")
    server.tick()
    assert await reader.rows("select count(*) from t") == [(2,)]
    assert await writer.run("flush") == "FLUSH"
    assert await reader.rows("select count(*) from t") == [(3,)]
    # a database's own setting wins over the system parameter
    await writer.run("alter database dev set checkpoint_frequency = 1")
    await writer.run("insert into t values (4, 40)")
    server.tick()
    assert await reader.rows("select count(*) from t") == [(4,)]


async def test_insert_select_reads_the_committed_state_of_its_source(
    client: Client, server: Running
) -> None:
    """INSERT ... SELECT's source is a batch scan of the committed snapshot, as a SELECT's
    (scheduler/snapshot.rs:168-196): a staging table's queued rows are not there yet; its
    count is the rows it read (insert.rs:196-205)."""
    await kv(client, server)
    await client.run("create table s (k int primary key, v int)")
    await client.run("insert into s values (7, 70)")
    server.tick()
    await client.run("insert into s values (8, 80)")
    assert await client.run("insert into t select k, v from s") == "INSERT 0 1"
    # the target's own queued rows (7 and 9) are not read either
    await client.run("insert into t values (9, 90)")
    assert await client.rows("insert into t select k + 100, v from t returning k") == [(101,)]
    # its conflict handling meets them: (7, 0) overwrites the queued (7, 70)
    assert await client.run("insert into t select k, 0 from s where k = 7") == "INSERT 0 1"
    server.tick()
    assert await client.rows("select k, v from t order by k") == [
        (1, 10), (7, 0), (9, 90), (101, 10)
    ]  # fmt: skip
    # through a view (made while nothing is queued)
    await client.run("create view sv as select k, v from s")
    await client.run("create table r (v int)")  # keyed by its hidden row id
    await client.run("insert into s values (9, 90)")
    assert await client.run("insert into r select v from sv") == "INSERT 0 2"
    assert await client.run("insert into t select 50, v from sv where k >= 8") == "INSERT 0 1"
    assert await client.run("flush") == "FLUSH"
    assert await client.rows("select v from r order by v") == [(70,), (80,)]
    assert await client.rows("select v from t where k = 50") == [(80,)]


async def test_an_update_on_the_committed_state_fails_as_any_update(
    client: Client, server: Running
) -> None:
    """The NOT NULL check of an UPDATE (src/expr/core/src/error.rs:112) names the table, on
    both paths (the epoch wrote the table or not)."""
    await client.run("create table n (k int primary key, v int not null)")
    await client.run("insert into n values (1, 1)")
    server.tick()
    seen = []
    for write in (None, "insert into n values (2, 2)"):
        if write is not None:
            await client.run(write)
        seen.append(await client.fail("update n set v = null where k = 1"))
    for failure in seen:
        assert failure.message == (
            f"{client.envelope}\n\nCaused by these errors (recent errors listed first):\n"
            '  1: Expr error\n  2: null value in column "v" of relation "n" violates not-null'
            " constraint\n"
        )
    assert [f.sqlstate for f in seen] == ["XX000", "XX000"]  # an Expr error (RwError default)
    server.tick()
    assert await client.rows("select k, v from n order by k") == [(1, 1), (2, 2)]
