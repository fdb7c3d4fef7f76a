"""Sinks hooked into the barriers: each barrier's transaction delivers what the sinks' outputs
did in its epoch (into tables at once, to external targets through their logs), a new sink
delivers its snapshot, an external target is written after the barrier and caught up when it
comes back.

- ``on_commit`` (epochs.py ``in_commit``): in the barrier's transaction, after the view
  states were refreshed, every installed sink of the database that reads a table the epoch
  wrote computes its changes (into_table.py); a sink into a table applies them and refreshes
  the views over that table, which may feed further sinks (passes until nothing changes; a
  sink into a table that it reads is refused at CREATE).  RisingWave applies a sink's changes
  to its target in the same epoch (the target's Union of DML and sinks, optimizer/mod.rs
  :1043-1066; the ``table`` sink is never decoupled, trivial.rs:85-92).
- ``install`` (after CREATE SINK): the sink's state made, and its snapshot (the query's rows,
  unless ``snapshot = 'false'``) delivered in a transaction of its own after the open epoch
  committed: the CREATE's first barrier.
- External sinks: their changes go to ``rwsink."o<id>"`` in the barrier's transaction (a
  durable log store, as a decoupled sink's, stream_sink.rs:650-660); after the commit the
  log is written to the target (postgres.py) and what was written is removed.  A target that
  fails keeps its rows in the log: the failure is recorded (``errors``, and ``report``: a
  ``SINK_FAIL`` event), and the write is tried again after every barrier and every second,
  until it succeeds.
- A failure of one sink's delivery in a barrier (its query fails) undoes that sink's part
  (a savepoint) and is reported; the others and the epoch's writes commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from rwshim.dataplane.epochs import refresh_statements
from rwshim.dataplane.pgio import ConnectionLost, PgConn, PgFailure
from rwshim.dataplane.plan import names
from rwshim.dataplane.roles import DATA_ROLE
from rwshim.dataplane.sinks import into_table, postgres
from rwshim.dataplane.sinks.spec import Planned, SinkSpec, column, plan, sinks
from rwshim.errors import RwError

if TYPE_CHECKING:
    from rwshim.dataplane.epochs import Writer
    from rwshim.dataplane.plane import DataPlane

log = logging.getLogger("rwshim.sinks")

# connectors whose sink writes somewhere (the others keep their definition only)
EXTERNAL = ("postgres", "jdbc")
# consumes silently: trivial.rs:27, :110-140
BLACKHOLE = "blackhole"
RETRY_SECONDS = 1.0

# (sink id, sink name, connector, error): a sink failed (SINK_FAIL, event_log.proto)
Report = Callable[[int, str, str, str], None]


def delivers(spec: SinkSpec) -> bool:
    return spec.target_id is not None or spec.connector in EXTERNAL


class Sinks:
    """The delivering sinks of one data plane."""

    def __init__(self, plane: DataPlane, report: Report | None = None) -> None:
        self.plane = plane
        self.report = report
        self._version: object = None
        self._specs: list[SinkSpec] = []
        self._plans: dict[int, Planned] = {}
        self._installed: set[int] | None = None
        self._conn: PgConn | None = None
        self._generation = -1
        self._io = asyncio.Lock()
        self._writers: dict[int, postgres.Writer] = {}
        self.errors: dict[int, str] = {}  # sink id -> its failure not yet recovered
        # sinks into a table whose PostgreSQL object is older than the catalog's (an ALTER
        # TABLE not applied yet): delivered after the barrier, once the object is made again
        self._stale: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        self._retry: asyncio.TimerHandle | None = None
        plane.epochs.in_commit.append(self.on_commit)
        plane.epochs.after_commit.append(self.on_barrier)

    def close_now(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self._retry is not None:
            self._retry.cancel()
        for w in self._writers.values():
            w.close_now()
        self._writers.clear()
        if self._conn is not None:
            self._conn.close_now()
            self._conn = None
        with contextlib.suppress(ValueError):
            self.plane.epochs.in_commit.remove(self.on_commit)
        with contextlib.suppress(ValueError):
            self.plane.epochs.after_commit.remove(self.on_barrier)

    # --- the catalog ---------------------------------------------------------------------

    def specs(self) -> list[SinkSpec]:
        version = self.plane.relations.fingerprint()
        if version != self._version:
            self._specs = [s for s in sinks(self.plane) if delivers(s)]
            self._plans.clear()
            self._version = version
        return self._specs

    def _plan(self, spec: SinkSpec) -> Planned:
        found = self._plans.get(spec.id)
        if found is None:
            found = self._plans[spec.id] = plan(self.plane, spec)
        return found

    def _fail(self, spec: SinkSpec, error: str) -> None:
        first = spec.id not in self.errors
        self.errors[spec.id] = error
        log.warning("sink %s: %s", spec.name, error)
        if first and self.report is not None:
            self.report(spec.id, spec.name, spec.connector or "table", error)

    # --- in the barrier's transaction ------------------------------------------------------

    async def on_commit(self, conn: PgConn, writer: Writer) -> None:
        specs = [s for s in self.specs() if s.database_id == writer.database_id]
        if not specs or not writer.dirty:
            return
        # whatever goes wrong here is the sinks' own: the epoch's writes commit regardless
        await conn.script("SAVEPOINT rwsinks")
        try:
            installed = await self._installed_ids(conn)
            ready = [s for s in specs if s.id in installed]
            await self._deliver(conn, ready, set(writer.dirty), set())
        except ConnectionLost:
            raise
        except Exception as e:
            log.warning("sinks of database %d: %s", writer.database_id, e)
            await conn.script("ROLLBACK TO SAVEPOINT rwsinks")
        await conn.script("RELEASE SAVEPOINT rwsinks")

    async def _installed_ids(self, conn: PgConn) -> set[int]:
        if self._installed is None:
            res = await conn.query(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid ="
                f" c.relnamespace WHERE n.nspname = '{into_table.SCHEMA}' AND c.relname LIKE 's%'"
            )
            found = ((res.get_value(r, 0) or b"")[1:].decode() for r in range(res.ntuples))
            self._installed = {int(x) for x in found if x.isdigit()}
        return self._installed

    async def _deliver(
        self, conn: PgConn, specs: list[SinkSpec], pending: set[int], force: set[int]
    ) -> None:
        """Deliver the sinks reading ``pending`` (and those of ``force``), then those reading
        the tables they wrote, until nothing changes."""
        made = set(self.plane.made_names())
        for _ in range(len(specs) + 1):
            changed: set[int] = set()
            for spec in specs:
                try:
                    planned = self._plan(spec)
                except RwError as e:
                    self._fail(spec, str(e))
                    continue
                if spec.id not in force and not (planned.tables & pending):
                    continue
                if any(names.table_name(t) not in made for t in planned.tables):
                    continue  # an upstream never written: nothing changed there
                wrote = await self._deliver_one(conn, spec, planned)
                if wrote is not None:
                    changed.add(wrote)
            force = set()
            if not changed:
                return
            pending = changed

    async def _deliver_one(self, conn: PgConn, spec: SinkSpec, planned: Planned) -> int | None:
        """One sink's changes of the epoch; the target table it wrote, if any."""
        stmts = into_table.changes(spec.id, planned.text)
        target = None
        if spec.target_id is not None:
            target = self.plane.relations.relation_by_id(spec.target_id)
            if target is None:
                return None
            if not self._current(target.id):
                # the DDL to bring it in line cannot run in the epoch's transaction (it
                # needs the admin lock this commit holds): caught up after the barrier
                self._stale.add(spec.id)
                return None
            stmts += into_table.apply(spec, target)
            stmts += refresh_statements(self.plane, {target.id})
        else:
            stmts += into_table.to_outbox(spec)
        stmts += into_table.keep(spec.id)
        try:
            body = ";\n".join(stmts)
            await conn.script(f"SAVEPOINT rwsink;\n{body};\nRELEASE SAVEPOINT rwsink")
        except PgFailure as e:
            await conn.script("ROLLBACK TO SAVEPOINT rwsink; RELEASE SAVEPOINT rwsink")
            self._fail(spec, e.error.message)
            return None
        if target is not None:
            self.errors.pop(spec.id, None)
            return target.id
        return None

    def _current(self, table_id: int) -> bool:
        """Whether the table's PostgreSQL object is made as the catalog has it now."""
        try:
            objects = self.plane.objects_for(table_id)
        except RwError:
            return False
        made = self.plane._made  # the signatures as of the last commit (plane.ensure)
        return all(made.get(o.name) == o.signature for o in objects if o.relation_id == table_id)

    async def _catch_up(self, sink_id: int) -> None:
        """Deliver a sink in a transaction of its own, its objects made first."""
        spec = next((s for s in self.specs() if s.id == sink_id), None)
        if spec is None:
            return
        planned = self._plan(spec)
        ids = [*planned.relation_ids, *([spec.target_id] if spec.target_id is not None else [])]
        await self.plane.ensure(ids)
        async with self.plane.admin_lock():
            await self.plane.epochs.commit_databases({spec.database_id})
            async with self._io:
                conn = await self._connection()
                await conn.script(";\n".join(self._begin(spec.database_id)))
                await self._run_in(conn, spec)

    def _begin(self, database_id: int) -> list[str]:
        """A delivery's own transaction: the search path, and rwshim's clock and the epoch for
        the row ids and ``_rw_timestamp`` of the rows it writes into a table
        (dataplane/plan/row_ids.py, rw_timestamp.py)."""
        clock = self.plane.epochs.clocked.write_sql(database_id, local=True)
        return ["BEGIN", f"SET LOCAL search_path = {names.SEARCH_PATH}", *clock]

    async def _run_in(self, conn: PgConn, spec: SinkSpec) -> None:
        """``spec`` delivered, and what its target feeds, in the open transaction; COMMIT."""
        try:
            others = [
                s for s in self.specs()
                if s.database_id == spec.database_id and s.id != spec.id
                and s.id in (self._installed or set())
            ]  # fmt: skip
            await self._deliver(conn, [spec, *others], set(), {spec.id})
            await conn.script("COMMIT")
        except (PgFailure, ConnectionLost) as e:
            with contextlib.suppress(Exception):
                await conn.script("ROLLBACK")
            raise RwError(f"sink {spec.name}: {e}") from None

    # --- a new sink --------------------------------------------------------------------------

    async def install(self, sink_id: int) -> None:
        """Make the sink's state and deliver its snapshot (after CREATE SINK)."""
        spec = next((s for s in self.specs() if s.id == sink_id), None)
        if spec is None:
            return
        planned = self._plan(spec)
        await self.plane.ready()
        ids = list(planned.relation_ids)
        if spec.target_id is not None:
            ids.append(spec.target_id)
        await self.plane.ensure(ids)
        async with self.plane.admin_lock():
            # the CREATE's barrier commits the open epoch before the sink reads its snapshot
            await self.plane.epochs.commit_databases({spec.database_id})
            async with self._io:
                conn = await self._connection()
                create = into_table.create_state(
                    spec, planned.text, DATA_ROLE, external=spec.target_id is None
                )
                try:
                    await conn.script(
                        ";\n".join([*self._begin(spec.database_id), *create])
                    )  # fmt: skip
                except (PgFailure, ConnectionLost) as e:
                    with contextlib.suppress(Exception):
                        await conn.script("ROLLBACK")
                    raise RwError(f"sink {spec.name}: {e}") from None
                await self._run_in(conn, spec)
            if self._installed is not None:
                self._installed.add(spec.id)
        if spec.target_id is None:
            self._schedule()

    async def _connection(self) -> PgConn:
        conn = self._conn
        if conn is None or conn.closed or self._generation != self.plane.generation():
            if conn is not None:
                conn.close_now()
            conn = self._conn = await PgConn.connect(self.plane.conninfo())
            self._generation = self.plane.generation()
            self._installed = None
            self._installed = await self._installed_ids(conn)
        return conn

    # --- after the barrier ---------------------------------------------------------------------

    def on_barrier(self, database_id: int, epoch: int) -> None:
        if self._installed or self.errors or self._stale:
            self._schedule()

    def _schedule(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._push_all())

    async def settle(self) -> None:
        """Every external sink's log written as far as its target takes it now."""
        task = self._task
        if task is not None and not task.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(task)
        await self._push_all()

    async def _push_all(self) -> None:
        failed = False
        for sid in sorted(self._stale):
            self._stale.discard(sid)
            try:
                await self._catch_up(sid)
            except RwError as e:
                log.warning("catching up sink %d: %s", sid, e)
        for spec in [s for s in self.specs() if s.target_id is None]:
            if self._installed is not None and spec.id not in self._installed:
                continue
            try:
                await self._push(spec)
            except (ConnectionLost, PgFailure, RwError) as e:
                failed = True
                self._fail(spec, e.error.message if isinstance(e, PgFailure) else str(e))
            else:
                self.errors.pop(spec.id, None)
        await self._drop_gone()
        if failed:
            self._later()

    def _later(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._retry = loop.call_later(RETRY_SECONDS, self._schedule)

    async def _push(self, spec: SinkSpec) -> None:
        if spec.connector == BLACKHOLE:
            return
        writer = self._writers.get(spec.id)
        if writer is None:
            t = postgres.target(str(spec.connector), spec.options, spec.sink_type)
            writer = self._writers[spec.id] = postgres.Writer(t, spec.columns)
        async with self._io:
            conn = await self._connection()
            cols = ", ".join(f"{column(i)}::text" for i in range(len(spec.columns)))
            res = await conn.query(
                f"SELECT rw_seq, rw_op, {cols} FROM {into_table.outbox(spec.id)}"
                " ORDER BY rw_seq LIMIT 10000"
            )
        if res.ntuples == 0:
            return
        rows = [
            (
                (res.get_value(r, 1) or b"").decode(),
                [res.get_value(r, 2 + i) for i in range(len(spec.columns))],
            )
            for r in range(res.ntuples)
        ]
        last = int(res.get_value(res.ntuples - 1, 0) or b"0")
        await writer.write(rows)
        async with self._io:
            conn = await self._connection()
            await conn.script(f"DELETE FROM {into_table.outbox(spec.id)} WHERE rw_seq <= {last}")
        if res.ntuples == 10000:
            await self._push(spec)

    async def _drop_gone(self) -> None:
        """The state and log of sinks the catalog no longer has (DROP SINK keeps the rows it
        delivered: basic.slt:436-454)."""
        if self._installed is None:
            return
        live = {s.id for s in self.specs()}
        gone = sorted(self._installed - live)
        if not gone:
            return
        async with self.plane.admin_lock(), self._io:
            conn = await self._connection()
            for sid in gone:
                await conn.script(
                    f"DROP TABLE IF EXISTS {into_table.state(sid)}, {into_table.outbox(sid)}"
                )
                self._installed.discard(sid)
                self.errors.pop(sid, None)
                w = self._writers.pop(sid, None)
                if w is not None:
                    w.close_now()
