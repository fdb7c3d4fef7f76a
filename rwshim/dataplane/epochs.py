"""Epochs on the data plane: what a DML statement writes becomes visible when the next
barrier of its database commits, and materialized views are state maintained at barriers.

- **Writes.**  Every DML statement of a database runs on that database's writer connection,
  inside one PostgreSQL transaction per epoch (opened by the epoch's first DML; each statement
  under a savepoint, so a failing one leaves the others).  Readers (every session's own
  connection, autocommit) see only committed data: the state of the last barrier.  A barrier
  of the database commits the transaction.  So a write is seen by nobody, its own session
  included, until the barrier after it; every write of an epoch appears at once.
  RisingWave: ``src/batch/executors/src/executor/insert.rs:108-206`` (the statement returns
  when the DML executor has taken its chunks, ``src/dml/src/table.rs:189-227``),
  ``src/stream/src/executor/dml.rs:225-345`` (a transaction's chunks are released together
  and flushed at the next barrier), ``src/frontend/src/session/transaction.rs:46-48`` ("we
  cannot handle read your own writes") and ``scheduler/snapshot.rs:168-196`` (a batch read
  uses the committed epoch).
- **How a DML reads.**  RisingWave's UPDATE and DELETE scan the session's committed snapshot
  and emit the changes they found (``delete.rs:146-188``, ``update.rs:153-223`` under
  ``src/batch/executors/src/executor/``); the changes are applied at the barrier.  Here a DML
  statement runs in the epoch's transaction, so it reads the committed state **plus** the
  writes queued in the same epoch before it (PostgreSQL shows a transaction its own writes).
  The two differ only when a DML reads rows another DML of the same epoch wrote (INSERT then
  UPDATE of that row before a barrier: RisingWave's UPDATE finds nothing); FLUSH between them
  gives the same answer on both.  The count and command tag are the statement's own
  (``INSERT 0 n``: insert.rs:196-205).
- **Materialized views.**  A materialized view is ``rw."q<id>"`` (its defining query, a view),
  ``rw."m<id>"`` (its state, a table made from the query as committed when first needed) and
  ``rw."v<id>"`` (what readers read: the state).  At a barrier whose transaction wrote to
  tables, every made view state that reads one of them (directly or through other views) is
  computed again from its query, upstream first, inside the same transaction, which then
  commits: tables, views on views and indexes over them show one epoch together
  (``src/stream/src/executor/temporal_join.rs:257-313`` align barriers; all state tables
  commit with the same checkpoint, ``src/meta/src/barrier/partial_graph.rs:583-595``).  A
  barrier with no write costs a dictionary look-up; DDL never waits on PostgreSQL for it.
- **FLUSH, implicit_flush, dml_wait_persistence.**  FLUSH is a barrier plus the wait for this
  commit (``src/frontend/src/handler/flush.rs:27-43``); ``implicit_flush`` runs it after each
  DML (``handler/query.rs:564-568``); ``dml_wait_persistence`` waits for the next barrier's
  commit without injecting one (``dml.rs:160-190``).
- **Crashes.**  What a barrier committed is in PostgreSQL's WAL before anyone can see it (a
  FLUSH returns after it).  A write no barrier committed yet is lost when rwshim dies, as
  RisingWave loses an epoch that was not checkpointed: recovery restarts from the last
  committed epoch (``src/meta/src/barrier/context/recovery.rs``); ``dml_wait_persistence`` is
  RisingWave's way to wait for durability (session_config/mod.rs:108-111).
- **DDL.**  PostgreSQL's DDL on a table the open epoch wrote (a migration, an index, a drop)
  would wait for the transaction; in RisingWave such DDL is a barrier command, so the data
  plane commits the epoch first (``plane.ensure``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from rwshim.dataplane.pgio import ConnectionLost, PgConn, PgFailure
from rwshim.dataplane.plan import names
from rwshim.errors import RwError

if TYPE_CHECKING:
    from rwshim.catalog_path.store_source import StoreRelations
    from rwshim.dataplane.plan.ddl import PgObject
    from rwshim.dataplane.plane import DataPlane

log = logging.getLogger("rwshim.datapath")

# the savepoint each DML statement runs under in the epoch's transaction
SAVEPOINT = "w"
# after a barrier's commit: (database id, epoch)
Listener = Callable[[int, int], None]


def _qualified(name: str) -> str:
    return f"{names.DATA_SCHEMA}.{names.quote_ident(name)}"


def tables_touched(relations: StoreRelations, todo: list[PgObject], stale: list[str]) -> set[int]:
    """The tables whose PostgreSQL locks these object changes take (made, migrated, indexed
    or dropped): an open epoch that wrote one is committed first (``plane.ensure``)."""
    out: set[int] = set()
    for obj in todo:
        if obj.kind == "table":
            out.add(obj.relation_id)
        elif obj.kind == "index":
            rel = relations.relation_by_id(obj.relation_id)
            if rel is not None and rel.indexed_id is not None:
                out.add(rel.indexed_id)
    for name in stale:
        parsed = names.parse_physical(name)
        if parsed is not None and parsed[0] == "t":
            out.add(parsed[1])
    return out


def states_reading(plane: DataPlane, tables: set[int]) -> list[int]:
    """The materialized views whose state is made and reads one of ``tables`` (directly or
    through other views), upstream first: what a barrier computes again."""
    if not tables:
        return []
    found: list[tuple[int, int]] = []
    for name in plane.made_names():
        parsed = names.parse_physical(name)
        if parsed is None or parsed[0] != "m":
            continue
        try:
            objects = plane.objects_for(parsed[1])
        except RwError:
            continue  # dropped: its state goes with the next drop pass
        reads = {o.relation_id for o in objects if o.kind == "table"}
        if reads & tables:
            # an upstream's objects are a strict part of a downstream's: fewer states first
            # is an order in which every upstream comes first
            found.append((sum(1 for o in objects if o.kind == "state"), parsed[1]))
    return [rid for _, rid in sorted(found)]


class Writer:
    """One database's epoch transaction."""

    def __init__(self, database_id: int) -> None:
        self.database_id = database_id
        self.conn: PgConn | None = None
        self.generation = -1
        self.open = False  # BEGIN sent: an epoch's writes are pending
        self.dirty: set[int] = set()  # tables written in the open transaction
        self.lock = asyncio.Lock()  # one statement (or commit) at a time
        # open epochs whose writes were lost (the connection or its server went away before
        # a barrier committed them): a FLUSH waiting for one fails (see ``losses``)
        self.losses = 0

    def close_now(self) -> None:
        """Drop the connection: PostgreSQL rolls the open transaction back."""
        if self.conn is not None:
            self.conn.close_now()
            self.conn = None
        if self.open:
            self.losses += 1
        self.open = False
        self.dirty.clear()


class Epochs:
    """The writers of one instance's data plane and the barriers' commits."""

    def __init__(self, plane: DataPlane) -> None:
        self.plane = plane
        self._writers: dict[int, Writer] = {}
        self._pending: list[tuple[int, int]] = []
        self._task: asyncio.Task[None] | None = None
        self.committed: dict[int, int] = {}  # database id -> epoch of its last commit
        self._changed: asyncio.Condition | None = None
        self._draining: asyncio.Lock | None = None
        self.after_commit: list[Listener] = []
        # before a barrier's commit: what connectors produce for that barrier is written
        # into its epoch (dataplane/sources/: datagen's rows, posix_fs's new files)
        self.before_commit: list[Callable[[int, int], Awaitable[None]]] = []

    # --- barriers ------------------------------------------------------------------------

    def on_barrier(self, database_id: int, epoch: int) -> None:
        """A barrier of ``database_id`` (the engine calls this inside its transaction): its
        commit is queued, and runs on the loop; readers and writers settle it first."""
        self._pending.append((database_id, epoch))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # committed by the next settle()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._drain())

    @property
    def pending(self) -> bool:
        """Whether a barrier's commit has not run yet."""
        return bool(self._pending)

    async def settle(self) -> None:
        """Every barrier so far committed on the data plane."""
        task = self._task
        if task is not None and not task.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(task)
        if self._pending:
            await self._drain()

    async def _drain(self) -> None:
        if self._draining is None:
            self._draining = asyncio.Lock()
        async with self._draining:  # one drainer: the task, or a settle() before it ran
            while self._pending:
                await self._commit_first()

    async def _commit_first(self) -> None:
        item = self._pending[0]
        db, epoch = item
        for produce in list(self.before_commit):
            try:
                await produce(db, epoch)
            except Exception as e:  # a source's failure is its own: the barrier goes on
                log.warning("sources at epoch %d of database %d: %s", epoch, db, e)
        writer = self._writers.get(db)
        try:
            if writer is not None and writer.open:
                async with self.plane.admin_lock():
                    await self.commit(writer)
        except Exception as e:  # the epoch's writes are lost with the connection
            log.warning("committing epoch %d of database %d: %s", epoch, db, e)
            if writer is not None and writer.open:
                writer.close_now()
        finally:
            if self._pending and self._pending[0] is item:  # (close_now may have cleared it)
                self._pending.pop(0)
        self.committed[db] = epoch
        for listener in list(self.after_commit):
            listener(db, epoch)
        await self._notify()

    async def _notify(self) -> None:
        cond = self._condition()
        async with cond:
            cond.notify_all()

    def _condition(self) -> asyncio.Condition:
        if self._changed is None:
            self._changed = asyncio.Condition()
        return self._changed

    async def wait_commit(self, database_id: int, after: int) -> None:
        """Until a barrier after epoch ``after`` committed in the database
        (dml_wait_persistence: the statement's epoch is checkpointed)."""
        cond = self._condition()
        async with cond:
            await cond.wait_for(lambda: self.committed.get(database_id, -1) > after)

    async def commit(self, writer: Writer) -> None:
        """Refresh the view states that read what the epoch wrote, then commit (the caller
        holds the data plane's admin lock: no object is made meanwhile)."""
        async with writer.lock:
            if not writer.open or writer.conn is None:
                return
            conn = writer.conn
            refresh = [
                (
                    f"DELETE FROM {_qualified(names.state_name(mv))}; INSERT INTO"
                    f" {_qualified(names.state_name(mv))} SELECT * FROM"
                    f" {_qualified(names.query_name(mv))}"
                )
                for mv in states_reading(self.plane, writer.dirty)
            ]
            try:
                release = f"RELEASE SAVEPOINT {SAVEPOINT}"
                await conn.script(";\n".join([release, "SAVEPOINT r", *refresh, "COMMIT"]))
            except PgFailure as e:
                # a view state that cannot be computed (its upstream changed under it): the
                # others are refreshed one by one, the tables committed with them
                log.warning("refreshing materialized views: %s", e.error.message)
                await conn.script("ROLLBACK TO SAVEPOINT r")
                for sql in refresh:
                    try:
                        await conn.script(f"SAVEPOINT r; {sql}; RELEASE SAVEPOINT r")
                    except PgFailure:
                        await conn.script("ROLLBACK TO SAVEPOINT r; RELEASE SAVEPOINT r")
                await conn.script("COMMIT")
            except ConnectionLost:
                writer.close_now()
                raise
            writer.open = False
            writer.dirty.clear()

    async def commit_tables(self, table_ids: set[int]) -> None:
        """Commit every open epoch that wrote one of these tables (DDL on them is next; the
        caller holds the admin lock)."""
        for writer in list(self._writers.values()):
            if writer.open and writer.dirty & table_ids:
                await self.commit(writer)

    async def commit_databases(self, database_ids: set[int]) -> None:
        """Commit the open epochs of these databases (a create command's barrier, before its
        backfill counts the upstream; the caller holds the admin lock)."""
        for writer in list(self._writers.values()):
            if writer.open and writer.database_id in database_ids:
                await self.commit(writer)

    def losses(self, database_id: int) -> int:
        """How many open epochs of the database lost their writes so far: a FLUSH compares
        this before and after, and fails when one it was to commit was lost."""
        writer = self._writers.get(database_id)
        return 0 if writer is None else writer.losses

    # --- statements ----------------------------------------------------------------------

    def writer(self, database_id: int) -> Writer:
        found = self._writers.get(database_id)
        if found is None:
            found = self._writers[database_id] = Writer(database_id)
        return found

    async def run(
        self,
        database_id: int,
        target_id: int | None,
        open_conn: Callable[[], Awaitable[PgConn]],
        setup: Callable[[PgConn], Awaitable[None]],
        statement: Callable[[PgConn], Awaitable[object]],
    ) -> object:
        """Run one DML statement in the database's epoch transaction: ``setup`` (the session's
        settings) first, outside the statement's savepoint, then the statement under it, so
        a failure (or a cancel) undoes the statement alone and keeps the settings."""
        writer = self.writer(database_id)
        async with writer.lock:
            conn = writer.conn
            if conn is None or conn.closed or writer.generation != self.plane.generation():
                writer.close_now()
                conn = writer.conn = await open_conn()
                conn.undo_attempt = f"ROLLBACK TO SAVEPOINT {SAVEPOINT}"
                writer.generation = self.plane.generation()
            try:
                if writer.open:
                    await conn.script(f"RELEASE SAVEPOINT {SAVEPOINT}")
                    await setup(conn)
                    await conn.script(f"SAVEPOINT {SAVEPOINT}")
                else:
                    await setup(conn)  # autocommit: it stays
                    await conn.script(f"BEGIN; SAVEPOINT {SAVEPOINT}")
            except PgFailure:
                writer.close_now()  # the epoch's transaction is in no known state
                raise
            except ConnectionLost:
                writer.close_now()
                raise
            writer.open = True
            try:
                out = await statement(conn)
            except BaseException:
                await self._undo(writer)
                raise
            if target_id is not None:
                writer.dirty.add(target_id)
            return out

    async def _undo(self, writer: Writer) -> None:
        conn = writer.conn
        if conn is None or conn.closed:
            writer.close_now()
            return
        try:
            await asyncio.shield(conn.script(f"ROLLBACK TO SAVEPOINT {SAVEPOINT}"))
        except Exception as e:  # the connection is in no known state: its epoch is lost
            log.warning("undoing a DML statement: %s", e)
            writer.close_now()

    # --- end -----------------------------------------------------------------------------

    def close_now(self) -> None:
        """Drop every writer (their open epochs are rolled back: a restart's recovery goes
        back to the last committed epoch)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._pending.clear()
        for writer in self._writers.values():
            writer.close_now()
        self._writers.clear()
