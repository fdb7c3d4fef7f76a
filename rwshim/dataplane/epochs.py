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
  ``src/batch/executors/src/executor/``); the changes are applied at the barrier by primary
  key.  A DML statement runs in the epoch's transaction, which shows it the epoch's own
  writes, so an UPDATE or DELETE that reads a table the open epoch wrote (``written``) is
  evaluated elsewhere (``FromSnapshot``): on the session's own connection (the committed
  state) against a temporary copy of its target's committed rows, in a transaction rolled
  back after; what it changed in the copy (new rows; keys gone) is then applied by key in
  the epoch's transaction, an UPDATE's new row through the table's conflict handling.  Its
  count, tag and RETURNING rows are the copy's, so the committed snapshot's (an INSERT then
  an UPDATE of that row before a barrier: ``UPDATE 0``, as on RisingWave).  That path costs a
  copy of the target (the common path, a DML reading only tables its epoch did not write,
  costs nothing more).  An ``INSERT ... SELECT`` whose source reads a table its epoch wrote
  (directly or through views) runs the same way against an empty copy of its target, and
  its rows are applied with the table's conflict clause, which meets the epoch's writes as
  the materialize executor's does.  The
  count and command tag are the statement's own (``INSERT 0 n``: insert.rs:196-205).
- **Materialized views.**  A materialized view is ``rw."q<id>"`` (its defining query, a view),
  ``rw."m<id>"`` (its state, a table made from the query as committed when first needed) and
  ``rw."v<id>"`` (what readers read: the state).  At a barrier whose transaction wrote to
  tables, every made view state that reads one of them (directly or through other views) is
  computed again from its query, upstream first, inside the same transaction, which then
  commits: tables, views on views and indexes over them show one epoch together
  (``src/stream/src/executor/temporal_join.rs:257-313`` align barriers; all state tables
  commit with the same checkpoint, ``src/meta/src/barrier/partial_graph.rs:583-595``).  A
  view whose changelog a changelog CTE reads keeps its state before the step and appends the
  difference to the logs over it (``changelog_diffs``, dataplane/plan/changelogs.py); no other
  view pays for it.  A barrier with no write costs a dictionary look-up; DDL never waits on
  PostgreSQL for it.
- **Checkpoints.**  Only a checkpoint barrier commits (RisingWave commits checkpoint epochs
  only: ``src/meta/src/barrier/partial_graph.rs:583-595``): with ``checkpoint_frequency`` n
  every n-th periodic barrier and every command's barrier (``engine/barrier.py``,
  ``schedule.rs:497-542``, ``command.rs:710-713``); any other barrier leaves the epoch's
  transaction open, so reads in the ``default`` and ``checkpoint`` visibility modes see the
  last checkpoint, as RisingWave's (``src/frontend/src/session.rs:1443-1449``).  Differs:
  ``visibility_mode = all`` (RisingWave's barrier read of the latest barrier's uncommitted
  state) sees the last checkpoint too: no other connection can read the open transaction,
  and a read inside it would also see the writes made after the latest barrier (which
  RisingWave's barrier read does not: they reach the state store at the next barrier) and
  the view states as of the last checkpoint (a barrier that is not one refreshes none).  With
  the default ``checkpoint_frequency`` 1 every barrier is a checkpoint and the two agree.
- **Sinks.**  After the view states, the ``in_commit`` hooks run in the same transaction: a
  sink into a table writes its target there (the same epoch as the upstream's write), an
  external sink its log (rwshim/dataplane/sinks).
- **FLUSH, implicit_flush, dml_wait_persistence.**  FLUSH is a barrier plus the wait for this
  commit (``src/frontend/src/handler/flush.rs:27-43``); ``implicit_flush`` runs it after each
  DML (``handler/query.rs:564-568``); ``dml_wait_persistence`` waits for the next checkpoint's
  commit without injecting one (``dml.rs:160-190``).
- **Crashes.**  What a barrier committed is in PostgreSQL's WAL before anyone can see it (a
  FLUSH returns after it).  A write no barrier committed yet is lost when rwshim dies, as
  RisingWave loses an epoch that was not checkpointed: recovery restarts from the last
  committed epoch (``src/meta/src/barrier/context/recovery.rs``); ``dml_wait_persistence`` is
  RisingWave's way to wait for durability (session_config/mod.rs:108-111).  The two stores
  commit in one order: the barrier in the meta store first (``on_barrier`` runs inside its
  transaction and only queues the data commit, which runs on the loop after it), then the
  epoch on PostgreSQL; FLUSH, implicit_flush and dml_wait_persistence answer after both.  A
  kill -9 between the two leaves the meta store one epoch ahead of the data, whose open
  transaction PostgreSQL rolls back: what is lost was acknowledged by no FLUSH, and no reader
  ever saw it (``tests/datapath/test_crash.py``, a real SIGKILL while the data commit waits).
- **DDL.**  PostgreSQL's DDL on a table the open epoch wrote (a migration, an index, a drop)
  would wait for the transaction; in RisingWave such DDL is a barrier command, so the data
  plane commits the epoch first (``plane.ensure``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rwshim.dataplane.pgio import ConnectionLost, PgConn, PgFailure
from rwshim.dataplane.plan import changelogs, names
from rwshim.dataplane.plan.dml import IGNORE, NO_CHECK, upsert_clause
from rwshim.dataplane.temporal import Clocked
from rwshim.errors import RwError

if TYPE_CHECKING:
    from rwshim.binder.relations import Relation
    from rwshim.catalog_path.store_source import StoreRelations
    from rwshim.dataplane.plan.ddl import PgObject
    from rwshim.dataplane.plane import DataPlane

log = logging.getLogger("rwshim.datapath")

# the savepoint each DML statement runs under in the epoch's transaction
SAVEPOINT = "w"
# after a barrier's commit: (database id, epoch)
Listener = Callable[[int, int], None]
# in a barrier's transaction, after the view states were refreshed: the writer's connection
# and the tables the epoch wrote (sinks deliver here: dataplane/sinks)
Hook = Callable[[PgConn, "Writer"], Awaitable[None]]


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


def refresh_sql(mvs: list[int], plane: DataPlane | None = None) -> list[str]:
    """The statements computing these view states again, in order: from their queries, or by
    a state's own step (an EMIT ON WINDOW CLOSE view appends, ``state_refresh``)."""
    if plane is not None:
        logged = changelog_diffs(plane) if mvs else {}
        return [state_refresh(plane, mv, logged.get(mv, ())) for mv in mvs]
    return [
        (
            f"DELETE FROM {_qualified(names.state_name(mv))}; INSERT INTO"
            f" {_qualified(names.state_name(mv))} SELECT * FROM"
            f" {_qualified(names.query_name(mv))}"
        )
        for mv in mvs
    ]


def refresh_statements(plane: DataPlane, tables: set[int]) -> list[str]:
    """The statements computing again the view states that read ``tables``, upstream first."""
    return refresh_sql(states_reading(plane, tables), plane)


def states_reading(plane: DataPlane, tables: set[int], also: Iterable[int] = ()) -> list[int]:
    """The materialized views whose state is made and reads one of ``tables`` (directly or
    through other views), and the made states ``also`` names, upstream first: what a barrier
    computes again."""
    extra = set(also)
    if not tables and not extra:
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
        if reads & tables or parsed[1] in extra:
            # an upstream's objects are a strict part of a downstream's: fewer states first
            # is an order in which every upstream comes first
            found.append((sum(1 for o in objects if o.kind == "state"), parsed[1]))
    return [rid for _, rid in sorted(found)]


def state_refresh(plane: DataPlane, mv: int, diffs: Iterable[str] = ()) -> str:
    """A view state's step at a barrier: computed again from its query, or its own step (an
    EMIT ON WINDOW CLOSE view appends what closed, dataplane/plan/watermarks.py).  A view
    whose changelog something reads (``diffs``, from ``changelog_diffs``: statements reading
    ``changelogs.OLD`` and ``NEW``) appends the difference to each log over it: in the
    step's own statement, the rows its DELETE returns against those it inserts (no DDL at a
    barrier: temporary tables made and dropped by the hundred in one transaction cost
    PostgreSQL time growing with their number); a view with its own step keeps its rows
    before it in a temporary table."""
    own = next(
        (o.refresh for o in plane.objects_for(mv) if o.kind == "state" and o.relation_id == mv),
        None,
    )
    state, query = _qualified(names.state_name(mv)), _qualified(names.query_name(mv))
    diffs = list(diffs)
    if own is None and diffs:
        old, new = changelogs.OLD, changelogs.NEW
        # one snapshot: the DELETE does not see the INSERT's rows, and returns the old ones
        ctes = [
            f"{new} AS MATERIALIZED (SELECT * FROM {query})",
            f"{old} AS (DELETE FROM {state} RETURNING *)",
            f"put__ AS (INSERT INTO {state} SELECT * FROM {new})",
            *(f"log{i}__ AS ({d})" for i, d in enumerate(diffs[:-1])),
        ]
        return f"WITH {', '.join(ctes)} {diffs[-1]}"
    if own is None:
        return f"DELETE FROM {state}; INSERT INTO {state} SELECT * FROM {query}"
    if not diffs:
        return own
    before = changelogs.before_name(mv)
    read = f"WITH {changelogs.OLD} AS (TABLE {before}), {changelogs.NEW} AS (TABLE {state}) "
    return "; ".join(
        [
            f"DROP TABLE IF EXISTS {before}",
            f"CREATE TEMP TABLE {before} ON COMMIT DROP AS SELECT * FROM {state}",
            own,
            *(read + d for d in diffs),
            f"DROP TABLE {before}",
        ]
    )


def changelog_diffs(plane: DataPlane) -> dict[int, list[str]]:
    """Materialized view id -> the statements appending its difference to the logs of the
    changelog CTEs over it (made logs only: a view nobody reads the changelog of has none,
    and its barrier costs what it did)."""
    out: dict[int, list[str]] = {}
    for name in plane.made_names():
        upstream = changelogs.log_upstream(name)
        parsed = names.parse_physical(name) if upstream is not None else None
        if upstream is None or parsed is None:
            continue
        try:
            objects = plane.objects_for(parsed[1])
        except RwError:
            continue  # dropped: its log goes with the next drop pass
        diff = next((o.refresh for o in objects if o.name == name), None)
        if diff is not None:
            out.setdefault(upstream, []).append(diff)
    return out


# the committed copy of a DML statement's target, in the reading session's transaction
COPY = "pg_temp.rw_dml_copy"


def _reference(relation_id: int) -> re.Pattern[str]:
    """A table's name as planned texts spell it (``rw."t<id>"``, or unquoted)."""
    name = re.escape(names.table_name(relation_id))
    schema = re.escape(names.DATA_SCHEMA)
    return re.compile(r'(?<![\w."])' + schema + r"\.(?:" + name + r'|"' + name + r'")(?![\w"])')


def reads_target(text: str, target_id: int) -> bool:
    """Whether an INSERT (as planned) reads its own target: names it past ``INTO``."""
    return len(_reference(target_id).findall(text)) > 1


@dataclass(frozen=True, slots=True)
class FromSnapshot:
    """An UPDATE or DELETE evaluated against the committed state (``session._write``): on a
    reading connection, ``prepare`` copies the target's committed rows into a temporary table
    (``mark``: the copy's command id, read back), ``text`` runs the statement on the copy (its
    tag, count and RETURNING rows are the statement's), ``capture`` gives as JSON what it
    changed (UPDATE: the new rows; DELETE: the keys of the rows gone), then the transaction
    rolls back; ``apply`` (``$1``: that JSON) makes the same change in the epoch's transaction
    by key, as RisingWave's materialize executor applies the DML's changes by primary key
    (an UPDATE's new row lands on the stored one through the table's conflict handling:
    stream/executor/mview/materialize.rs, cache.rs)."""

    prepare: str
    mark: str
    text: str
    fallback: str | None  # the INSERT's repeated-key text (plan/dml.py), on the copy too
    capture: str
    apply: tuple[str, ...]


def from_snapshot(
    kind: str, rel: Relation, text: str, fallback: str | None = None
) -> FromSnapshot | None:
    """The statements that evaluate ``text`` (an INSERT, UPDATE or DELETE of ``rel``, as
    planned for PostgreSQL) against the committed state; None when its target cannot be
    found in it.  An INSERT runs against an empty copy of its target (with its key's index:
    the conflict clause resolves the statement's own repeated keys there), and its rows are
    applied with the table's conflict clause, which meets the epoch's writes as RisingWave's
    materialize executor meets the rows before them (stream/executor/mview/materialize.rs)."""
    target = names.qualified_table(rel.id)
    ref = _reference(rel.id)
    if kind == "insert":
        # the rows go to the copy; its source still reads the target's committed rows
        ref = re.compile(r"(?<=INSERT INTO )" + ref.pattern, re.IGNORECASE)
    on_copy, found = ref.subn(COPY, text, count=1 if kind == "insert" else 0)
    if not found or kind not in ("insert", "update", "delete"):
        return None
    if fallback is not None:
        fallback = ref.sub(COPY, fallback, count=1 if kind == "insert" else 0)
    cols = [names.quote_ident(c.name) for c in rel.columns if c.generated_expr is None]
    listed = ", ".join(cols)
    keys = [names.quote_ident(k) for k in rel.primary_key]
    hidden = {c.name for c in rel.columns if c.hidden}
    row_id = any(k in hidden for k in rel.primary_key)
    like = (
        f"BEGIN; CREATE TEMP TABLE {COPY} (LIKE {target} INCLUDING DEFAULTS INCLUDING"
        f" GENERATED INCLUDING IDENTITY{' INCLUDING INDEXES' if kind == 'insert' else ''})"
        " ON COMMIT DROP"
    )
    # the copy keeps the committed rows' write times (a WHERE may read them) but stamps none:
    # the table stamps what is applied (plan/rw_timestamp.py)
    stamp = names.quote_ident("_rw_timestamp")
    like += f"; ALTER TABLE {COPY} ALTER COLUMN {stamp} DROP DEFAULT"
    if row_id:
        # the copy's own ids are never kept, and its connection has no clock for RisingWave's
        # (plan/row_ids.py): the table gives the rows their ids when they are applied
        row_ids = [names.quote_ident(k) for k in rel.primary_key if k in hidden]
        like += "".join(f"; ALTER TABLE {COPY} ALTER COLUMN {k} SET DEFAULT 0" for k in row_ids)
    rows = f"json_populate_recordset(NULL::{target}, $1::json)"
    match = " AND ".join(f"x.{k} = d.{k}" for k in keys)
    if kind == "insert":
        # the hidden row id is the table's to give (the copy's own identity starts at 1)
        given = [
            names.quote_ident(c.name)
            for c in rel.columns
            if c.generated_expr is None and not (row_id and c.hidden and c.name in rel.primary_key)
        ]
        given_list = ", ".join(given)
        capture = (
            f"SELECT COALESCE(json_agg(g), '[]')::text FROM (SELECT {given_list} FROM {COPY}) g"
        )
        insert = f"INSERT INTO {target} AS x ({given_list}) SELECT {given_list} FROM {rows}"
        key = [k for k in rel.primary_key if k not in hidden]
        if key and rel.conflict != NO_CHECK:
            versions = rel.version_columns if rel.conflict != IGNORE else ()
            insert += upsert_clause(rel, key, rel.conflict, "x", versions)
        prepare = f"{like}; SAVEPOINT {SAVEPOINT}"
        return FromSnapshot(prepare, "SELECT -1", on_copy, fallback, capture, (insert,))
    prepare = (
        f"{like}; INSERT INTO {COPY} ({listed}, {stamp}) OVERRIDING SYSTEM VALUE SELECT"
        f" {listed}, {stamp} FROM {target}; SAVEPOINT {SAVEPOINT}"
    )
    mark = f"SELECT COALESCE(max(cmin::text::bigint), -1) FROM {COPY}"
    if kind == "delete":
        key_list = ", ".join(keys)
        capture = (
            f"SELECT COALESCE(json_agg(g), '[]')::text FROM (SELECT {key_list} FROM {target}"
            f" EXCEPT ALL SELECT {key_list} FROM {COPY}) g"
        )
        apply: tuple[str, ...] = (f"DELETE FROM {target} AS x USING {rows} AS d WHERE {match}",)
        return FromSnapshot(prepare, mark, on_copy, None, capture, apply)
    # the rows the UPDATE wrote are the copy's rows made by a later command than the copy's
    capture = (
        f"SELECT COALESCE(json_agg(g), '[]')::text FROM (SELECT {listed} FROM {COPY}"
        " WHERE cmin::text::bigint > $1::bigint) g"
    )
    values = f"SELECT {listed} FROM {rows}"
    if row_id:
        # a table keyed by its hidden row id: no conflict handling, the row is replaced; in
        # place where it is there (an UPDATE's UpdateDelete and UpdateInsert, as a changelog
        # CTE sees them: dataplane/plan/changelogs.py), inserted where it is not
        rest = [c for c in cols if c not in keys]
        update = (
            (
                f"UPDATE {target} AS x SET {', '.join(f'{c} = d.{c}' for c in rest)}"
                f" FROM {rows} AS d WHERE {match}",
            )
            if rest
            else ()
        )
        apply = (
            *update,
            f"INSERT INTO {target} ({listed}) OVERRIDING SYSTEM VALUE SELECT {listed} FROM"
            f" {rows} AS d WHERE NOT EXISTS (SELECT 1 FROM {target} AS x WHERE {match})",
        )
    else:
        rest = [c for c in cols if c not in keys]
        sets = ", ".join(f"{c} = EXCLUDED.{c}" for c in rest or keys[:1])
        apply = (
            f"INSERT INTO {target} ({listed}) OVERRIDING SYSTEM VALUE {values}"
            f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {sets}",
        )
    return FromSnapshot(prepare, mark, on_copy, None, capture, apply)


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
        # in a barrier's transaction, after the view states were refreshed: sinks deliver
        # (dataplane/sinks)
        self.in_commit: list[Hook] = []
        # the states that move with time (now() in their query): refreshed at every barrier
        self.clocked = Clocked(plane)

    # --- barriers ------------------------------------------------------------------------

    def on_barrier(self, database_id: int, epoch: int, *, checkpoint: bool = True) -> None:
        """A barrier of ``database_id`` (the engine calls this inside its transaction): a
        checkpoint's commit is queued, and runs on the loop; readers and writers settle it
        first.  Any other barrier commits nothing: RisingWave commits checkpoint epochs only
        (partial_graph.rs:583-595), and a batch read sees the committed epoch unless it
        reads barriers (session.rs:1443-1449, ``visibility_mode``)."""
        if not checkpoint:
            return
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
        now_ms = self.clocked.advance(db, epoch)
        try:
            if writer is not None and writer.open:
                async with self.plane.admin_lock():
                    await self.commit(writer, now_ms)
            elif self.clocked.states(db):
                # nothing written, but time moved: the temporal filters' windows did
                async with self.plane.admin_lock():
                    await self.clocked.refresh(db, now_ms, lambda mvs: refresh_sql(mvs, self.plane))
        except Exception as e:  # the epoch's writes are lost with the connection
            log.warning("committing epoch %d of database %d: %s", epoch, db, e)
            if writer is not None and writer.open:
                writer.close_now()
        finally:
            if self._pending and self._pending[0] is item:  # (close_now may have cleared it)
                await self._vacuum(db, now_ms)  # (a read waiting for the barrier waits for it)
                self._pending.pop(0)
        self.committed[db] = epoch
        for listener in list(self.after_commit):
            listener(db, epoch)
        await self._notify()

    async def _vacuum(self, db: int, now_ms: int) -> None:
        """The time-travel versions no read can see any more deleted, every 30 s of barrier
        time (``Clocked.vacuum_sql``): a history holds the current rows and the changes of the
        retention, not every change since the table was made."""
        vacuum = self.clocked.vacuum_sql(db, now_ms)
        if not vacuum:
            return
        try:
            async with self.plane.admin_lock():
                await self.clocked.script(vacuum)
        except Exception as e:  # kept for the next vacuum (the watermark holds reads off)
            log.warning("vacuuming time-travel histories of database %d: %s", db, e)

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

    async def commit(self, writer: Writer, now_ms: int | None = None) -> None:
        """Refresh the view states that read what the epoch wrote (and those that move with
        time, with ``now()`` the barrier's), then commit (the caller holds the data plane's
        admin lock: no object is made meanwhile)."""
        async with writer.lock:
            if not writer.open or writer.conn is None:
                return
            conn = writer.conn
            db = writer.database_id
            barrier = now_ms is not None
            if now_ms is None:  # a DDL's commit: time stands where the last barrier left it
                now_ms = self.clocked.current(db)
            mvs = states_reading(self.plane, writer.dirty, self.clocked.states(db))
            refresh = self.clocked.joins_sql(writer.dirty, mvs) + refresh_sql(mvs, self.plane)
            refresh += self.clocked.view_histories_sql(mvs)
            hooks = list(self.in_commit)
            end = [] if hooks else ["COMMIT"]
            try:
                release = f"RELEASE SAVEPOINT {SAVEPOINT}"
                setting = self.clocked.setting(now_ms, db, barrier)
                await conn.script(";\n".join([release, *setting, "SAVEPOINT r", *refresh, *end]))
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
                if not hooks:
                    await conn.script("COMMIT")
            except ConnectionLost:
                writer.close_now()
                raise
            try:
                for hook in hooks:  # each keeps its own failures (dataplane/sinks)
                    await hook(conn, writer)
                if hooks:
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

    def written(self, database_id: int, relation_ids: Iterable[int]) -> list[int]:
        """Those of these relations the database's open epoch wrote: a DML statement reading
        one must read its committed state elsewhere (``FromSnapshot``),
        since the epoch's transaction sees its own writes."""
        writer = self._writers.get(database_id)
        if writer is None or not writer.open:
            return []
        return [rid for rid in relation_ids if rid in writer.dirty]

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
            # rwshim's clock now and the epoch written in: the row ids and _rw_timestamp of
            # the rows the statement writes carry them (plan/row_ids.py, plan/rw_timestamp.py)
            clock = "".join(s + "; " for s in self.clocked.write_sql(database_id))
            try:
                if writer.open:
                    await conn.script(f"RELEASE SAVEPOINT {SAVEPOINT}")
                    await setup(conn)
                    await conn.script(f"{clock}SAVEPOINT {SAVEPOINT}")
                else:
                    await setup(conn)  # autocommit: it stays
                    await conn.script(f"{clock}BEGIN; SAVEPOINT {SAVEPOINT}")
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
