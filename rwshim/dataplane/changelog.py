"""The change logs subscriptions read, on the PostgreSQL data plane (schema ``rwlog``).

- A subscribed table gets an AFTER ROW trigger on ``rw."t<id>"`` that appends every op, as
  JSON, to ``rwlog."r<id>"`` (raw, in commit order), inside the epoch's transaction
  (dataplane/epochs.py).  After each barrier of its database committed that transaction, the
  raw rows are taken out, reduced per primary key (rwshim.dataplane.changes), and stored in
  ``rwlog."e<id>"`` under that barrier's epoch: a change belongs to the barrier that made it
  visible, as RisingWave's change log is written by the checkpoint that commits the DML.
- A subscribed materialized view is diffed: after each barrier its state (``rw."v<id>"``) is
  compared with its state at the previous one (kept in memory; after a restart the first barrier
  starts a new baseline) and the difference, keyed by its stream key where all of it is
  visible, stored the same way.
- At each barrier, epochs older than the longest retention of the relation's subscriptions
  are deleted, and logs no subscription reads any longer are dropped.

The trigger runs the DML's role, the data role that may not touch ``rwlog``: its function runs
as its owner, rwshim's own role (SECURITY DEFINER, with a fixed search_path), which writes the
log.  Nothing here runs unless a subscription exists.  The seals run on this module's own
connection, one at a time, after the barrier that asks for them; a FETCH settles the pending
ones first, so that a FLUSH or ``RWSHIM TICK`` before it is seen.

RisingWave: the table change log of ``src/storage/hummock_sdk/src/change_log.rs`` and the
epoch listing the cursor makes (``session.rs`` list_change_log_epochs,
``hummock_snapshot_manager`` wait_table_change_log_notification).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rwshim.dataplane import changes
from rwshim.dataplane.changes import ms_to_epoch
from rwshim.dataplane.pgio import ConnectionLost, Field, PgConn, PgFailure, fields_of
from rwshim.dataplane.plan.names import pg_ident, quote_ident, quote_literal
from rwshim.errors import RwError
from rwshim.sql import long_names

if TYPE_CHECKING:
    from rwshim.catalog_path.reader import CatalogReader
    from rwshim.dataplane.plane import DataPlane
    from rwshim.engine.engine import Engine

SCHEMA = "rwlog"

_SETUP = f"""
CREATE SCHEMA IF NOT EXISTS {SCHEMA};
CREATE OR REPLACE FUNCTION {SCHEMA}.capture() RETURNS trigger LANGUAGE plpgsql
SECURITY DEFINER SET search_path = pg_catalog AS $f$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('INSERT INTO {SCHEMA}.%I(op, row) VALUES ($1, $2)', TG_ARGV[0])
      USING 'Insert', to_jsonb(NEW);
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('INSERT INTO {SCHEMA}.%I(op, row) VALUES ($1, $2)', TG_ARGV[0])
      USING 'Delete', to_jsonb(OLD);
  ELSE
    EXECUTE format('INSERT INTO {SCHEMA}.%I(op, row) VALUES ($1, $2), ($3, $4)', TG_ARGV[0])
      USING 'UpdateDelete', to_jsonb(OLD), 'UpdateInsert', to_jsonb(NEW);
  END IF;
  RETURN NULL;
END $f$;
"""


@dataclass(frozen=True, slots=True)
class Upstream:
    """A subscribed relation as the log reads it."""

    id: int
    database_id: int
    is_table: bool
    visible: tuple[str, ...]  # the columns a cursor shows, in order
    key: tuple[str, ...] | None  # what changes are keyed by (None: the whole row)

    @property
    def pg_name(self) -> str:
        return f'rw."{"t" if self.is_table else "v"}{self.id}"'


def _raw(rid: int) -> str:
    return f"{SCHEMA}.{quote_ident(f'r{rid}')}"


def _sealed(rid: int) -> str:
    return f"{SCHEMA}.{quote_ident(f'e{rid}')}"


class ChangeLog:
    """The change logs of one instance."""

    def __init__(self, engine: Engine, plane: DataPlane, reader: CatalogReader) -> None:
        self.engine = engine
        self.plane = plane
        self.reader = reader
        self._conn: PgConn | None = None
        self._generation = -1
        self._lock = asyncio.Lock()  # one seal (or snapshot) at a time
        self._io = asyncio.Lock()  # one statement at a time on the connection
        self._installed: set[int] = set()
        self._baseline: dict[int, list[changes.Row]] = {}
        self._pending: list[tuple[int, int]] = []
        self._task: asyncio.Task[None] | None = None
        self._sealed: dict[int, int] = {}  # database id -> last sealed epoch
        self._changed = asyncio.Condition()
        # sealed after the barrier's epoch committed on the data plane (epochs.py)
        plane.epochs.after_commit.append(self.on_barrier)

    def close_now(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self._conn is not None:
            self._conn.close_now()
            self._conn = None
        with contextlib.suppress(ValueError):
            self.plane.epochs.after_commit.remove(self.on_barrier)

    # --- the catalog side -------------------------------------------------------------------

    def upstream(self, relation_id: int) -> Upstream | None:
        rel = self.reader.relation(relation_id)
        if rel is None:
            return None
        cols = self.reader.columns(relation_id)
        visible = tuple(c.name for c in cols if not c.hidden)
        pk = sorted((c.pk_position, c.name, c.hidden) for c in cols if c.pk_position is not None)
        is_table = rel.kind == "table"
        key: tuple[str, ...] | None = tuple(n for _, n, _ in pk) or None
        if not is_table:
            key = self._mv_key(relation_id, rel.database_id, 0)
        if key is not None:
            # the captured rows are keyed by PostgreSQL's column names (names.pg_ident)
            key = tuple(long_names.physical(n) for n in key)
        return Upstream(relation_id, rel.database_id, is_table, visible, key)

    def _mv_key(self, relation_id: int, database_id: int, depth: int) -> tuple[str, ...] | None:
        """A materialized view's key as its definition shows it (changes.stream_key)."""
        found = self.reader.relation(relation_id)
        if found is None or depth > 8:
            return None
        if found.kind == "table":
            cols = sorted(
                (c.pk_position, c.name, c.hidden)
                for c in self.reader.columns(relation_id)
                if c.pk_position is not None
            )
            if not cols or any(h for _, _, h in cols):
                return None  # keyed by a hidden _row_id a projection does not show
            return tuple(n for _, n, _ in cols)
        if found.kind != "materialized view":
            return None

        def upstream_key(name: str, schema: str | None) -> tuple[str, ...] | None:
            hit = self.reader.relation_id(
                database_id,
                name,
                ("table", "materialized view"),
                found.schema_id if schema is None else schema,
            )
            return None if hit is None else self._mv_key(hit, database_id, depth + 1)

        return changes.stream_key(found.definition, upstream_key)

    def _subscribed(self) -> dict[int, int]:
        """Subscribed relation id -> the longest retention (seconds) of its subscriptions."""
        return self.reader.subscription_retention()

    # --- the connection -----------------------------------------------------------------------

    async def _connection(self) -> PgConn:
        await self.plane.ready()
        conn = self._conn
        if conn is None or conn.closed or self._generation != self.plane.generation():
            if conn is not None:
                conn.close_now()
            self._installed.clear()
            conn = await PgConn.connect(self.plane.conninfo())
            await conn.script(_SETUP)
            self._conn, self._generation = conn, self.plane.generation()
        return conn

    async def _query(self, sql: str, params: Sequence[str | None] = ()) -> Any:
        async with self._io:
            return await self._query_now(sql, params)

    async def _script(self, sql: str) -> None:
        async with self._io:
            conn = await self._connection()
            try:
                await conn.script(sql)
            except ConnectionLost as e:
                self._conn = None
                raise RwError(f"the data plane connection was lost: {e}") from None
            except PgFailure as e:
                raise RwError(f"subscription change log: {e.error.message}") from None

    async def _query_now(self, sql: str, params: Sequence[str | None]) -> Any:
        conn = await self._connection()
        try:
            return await conn.query(sql, [None if p is None else p.encode() for p in params])
        except ConnectionLost as e:
            self._conn = None
            raise RwError(f"the data plane connection was lost: {e}") from None
        except PgFailure as e:
            raise RwError(f"subscription change log: {e.error.message}") from None

    # --- installing ---------------------------------------------------------------------------

    async def install(self, relation_id: int) -> None:
        """The log of a newly subscribed relation (idempotent)."""
        async with self._lock:
            await self._install(relation_id)

    async def _install(self, relation_id: int) -> None:
        if relation_id in self._installed:
            return
        up = self.upstream(relation_id)
        if up is None:
            return
        await self.plane.ready()
        await self.plane.ensure([relation_id])
        sealed = _sealed(relation_id)
        sql = [
            f"CREATE TABLE IF NOT EXISTS {sealed} (epoch bigint NOT NULL, ord int NOT NULL,"
            " op text NOT NULL, row jsonb NOT NULL, PRIMARY KEY (epoch, ord))"
        ]
        if up.is_table:
            raw = _raw(relation_id)
            sql += [
                f"CREATE TABLE IF NOT EXISTS {raw} (seq bigserial PRIMARY KEY, op text NOT NULL,"
                " row jsonb NOT NULL)",
                f"CREATE OR REPLACE TRIGGER rwshim_subscription AFTER INSERT OR UPDATE OR DELETE"
                f" ON {up.pg_name} FOR EACH ROW EXECUTE FUNCTION {SCHEMA}.capture("
                f"{quote_literal(f'r{relation_id}')})",
            ]
        await self._script(";\n".join(sql))
        if not up.is_table and relation_id not in self._baseline:
            self._baseline[relation_id] = await self._contents(up)
        self._installed.add(relation_id)

    async def _contents(self, up: Upstream) -> list[changes.Row]:
        res = await self._query(f"SELECT to_jsonb(x)::text FROM {up.pg_name} x")
        return [json.loads(res.get_value(r, 0).decode()) for r in range(res.ntuples)]

    # --- barriers -----------------------------------------------------------------------------

    def on_barrier(self, database_id: int, epoch: int) -> None:
        """A barrier of ``database_id``, once its epoch committed on the data plane."""
        if not self._installed and not self._pending and not self._any_subscription():
            return
        self._pending.append((database_id, epoch))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # sealed by the next settle()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._drain())

    def _any_subscription(self) -> bool:
        return self.reader.any_subscription()

    async def settle(self) -> None:
        """Every barrier so far sealed (after its epoch committed: epochs.py)."""
        await self.plane.epochs.settle()
        task = self._task
        if task is not None and not task.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(task)
        if self._pending:
            await self._drain()

    async def _drain(self) -> None:
        async with self._lock:
            while self._pending:
                db, epoch = self._pending.pop(0)
                await self._seal(db, epoch)

    async def _seal(self, database_id: int, epoch: int) -> None:
        subscribed = self._subscribed()
        for gone in sorted(self._installed - subscribed.keys()):
            await self._drop(gone)
        now_ms = self.engine.meta.clock.now_ms()
        for rid, retention in sorted(subscribed.items()):
            up = self.upstream(rid)
            if up is None or up.database_id != database_id:
                continue
            await self._install(rid)
            if up.is_table:
                res = await self._query(
                    f"WITH moved AS (DELETE FROM {_raw(rid)} RETURNING seq, op, row)"
                    " SELECT op, row::text FROM moved ORDER BY seq"
                )
                events = [
                    (res.get_value(r, 0).decode(), json.loads(res.get_value(r, 1).decode()))
                    for r in range(res.ntuples)
                ]
                found = changes.net_changes(events, changes.key_of(up.key))
            else:
                new = await self._contents(up)
                found = changes.diff(self._baseline.get(rid, new), new, up.key)
                self._baseline[rid] = new
            if found:
                await self._store(rid, epoch, found)
            cutoff = ms_to_epoch(now_ms - retention * 1000)
            await self._query(f"DELETE FROM {_sealed(rid)} WHERE epoch < {cutoff}")
        self._sealed[database_id] = epoch
        async with self._changed:
            self._changed.notify_all()

    async def _store(self, rid: int, epoch: int, found: list[changes.Change]) -> None:
        ops = [op for op, _ in found]
        rows = [changes.canonical(row) for _, row in found]
        await self._query(
            f"INSERT INTO {_sealed(rid)}(epoch, ord, op, row)"
            f" SELECT {epoch}, o, op, row::jsonb FROM unnest($1::text[], $2::text[])"
            " WITH ORDINALITY AS x(op, row, o)",
            [_array(ops), _array(rows)],
        )

    async def _drop(self, rid: int) -> None:
        self._installed.discard(rid)
        self._baseline.pop(rid, None)
        await self._query(f"DROP TABLE IF EXISTS {_raw(rid)}, {_sealed(rid)}")
        with contextlib.suppress(RwError):
            await self._query(f'DROP TRIGGER IF EXISTS rwshim_subscription ON rw."t{rid}"')

    # --- what cursors read ------------------------------------------------------------------

    def last_sealed(self, database_id: int) -> int:
        return self._sealed.get(database_id, self.engine.barrier.epoch(database_id))

    async def snapshot(self, up: Upstream) -> tuple[int, list[changes.Row]]:
        """A FULL cursor's start: the contents as of the last barrier, and that epoch."""
        await self.settle()
        async with self._lock:
            await self._install(up.id)
            epoch = self.last_sealed(up.database_id)
            key = changes.key_of(up.key)
            if not up.is_table:
                return epoch, changes.ordered(self._baseline.get(up.id, []), key)
            res = await self._query(
                f"SELECT 'now', to_jsonb(x)::text FROM {up.pg_name} x UNION ALL"
                f" (SELECT op, row::text FROM {_raw(up.id)} ORDER BY seq)"
            )
            now: list[changes.Row] = []
            pending: list[changes.Change] = []
            for r in range(res.ntuples):
                tag, text = res.get_value(r, 0).decode(), json.loads(res.get_value(r, 1).decode())
                if tag == "now":
                    now.append(text)
                else:
                    pending.append((tag, text))
            return epoch, changes.before(now, pending, key)

    async def epochs(self, up: Upstream, seek: int, limit: int = 2) -> list[int]:
        """list_change_log_epochs: the first ``limit`` epochs at or after ``seek``."""
        await self.settle()
        res = await self._query(
            f"SELECT DISTINCT epoch FROM {_sealed(up.id)} WHERE epoch >= $1::bigint"
            f" ORDER BY epoch LIMIT {limit}",
            [str(seek)],
        )
        return [int(res.get_value(r, 0)) for r in range(res.ntuples)]

    async def changes_at(self, up: Upstream, epoch: int) -> list[changes.Change]:
        res = await self._query(
            f"SELECT op, row::text FROM {_sealed(up.id)} WHERE epoch = $1::bigint ORDER BY ord",
            [str(epoch)],
        )
        return [
            (res.get_value(r, 0).decode(), json.loads(res.get_value(r, 1).decode()))
            for r in range(res.ntuples)
        ]

    async def render(
        self, up: Upstream, rows: Sequence[tuple[str, changes.Row, int | None]]
    ) -> tuple[list[Any], Any]:
        """The rows as the upstream's typed columns plus ``op`` and ``rw_timestamp``: a
        PostgreSQL result (fields and values) the caller decodes."""
        cols = ", ".join(f"r.{pg_ident(c)}" for c in up.visible)
        sql = (
            f"SELECT {cols}{', ' if cols else ''}x.op AS op, x.ts AS rw_timestamp"
            " FROM unnest($1::text[], $2::jsonb[], $3::int8[]) WITH ORDINALITY AS x(op, row, ts, o)"
            f" CROSS JOIN LATERAL jsonb_populate_record(NULL::{up.pg_name}, x.row) r"
            " ORDER BY x.o"
        )
        res = await self._query(
            sql,
            [
                _array([op for op, _, _ in rows]),
                _array([changes.canonical(row) for _, row, _ in rows]),
                _array([None if ts is None else str(ts) for _, _, ts in rows]),
            ],
        )
        # a name over 63 bytes as the user wrote it (PostgreSQL's is its physical form)
        back = {long_names.physical(c): c for c in up.visible}
        return [Field(back.get(f.name, f.name), f.type_oid) for f in fields_of(res)], res

    async def wait(self, database_id: int, after: int, timeout: float) -> bool:
        """Until a barrier after epoch ``after`` is sealed in the database (False: timeout)."""

        def sealed() -> bool:
            return self._sealed.get(database_id, -1) > after

        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(sealed), timeout)
            except TimeoutError:
                return False
        return True


def _array(items: Sequence[str | None]) -> str:
    """A PostgreSQL array literal of text values."""
    out = []
    for v in items:
        if v is None:
            out.append("NULL")
        else:
            out.append('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return "{" + ",".join(out) + "}"
