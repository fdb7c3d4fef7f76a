"""One rwshim session's side of the data plane: the PostgreSQL connection it leases for a
statement from the instance's pool (dataplane/pool.py: the same one again while no other
session needed it), kept in step with the session (time zone, user, database, search path,
RisingWave's variables for ``current_setting``) whenever it was last set for another, the
catalog snapshots its mixed queries read, and the statements themselves.

- A query streams: rows come in chunks as the client reads them (bounded memory); leaving
  early cancels it on PostgreSQL.  DML runs to its end before anything is sent (its RETURNING
  rows are kept), so a slow reader never leaves a write half done.
- ``statement_timeout`` bounds a query (never DML: handler/query.rs:501-512), and a
  CancelRequest stops the running statement: both cancel it on PostgreSQL at once (psycopg sends
  PostgreSQL's cancel request when the waiting task is cancelled).
- A query joining catalog relations with user data reads a snapshot of each catalog relation
  in a temporary table of the leased connection, refreshed when the catalog or the context
  changed since it was taken there (the connection keeps the key: pgio.PgConn.snapshots).
- A query's lease lasts while its rows stream (a suspended portal, an open cursor); it ends
  when they are read, closed, or settled before the session's next statement.
- Errors: PostgreSQL's mapped to RisingWave's (query/pg/errors); for the binder's classes
  (unknown column, function, type mismatch) the in-process binder is asked first, since it
  reproduces RisingWave's whole text (``Failed to bind expression: ...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rwshim.binder.context import QueryContext
from rwshim.binder.functions import FunctionState
from rwshim.common import pgtypes
from rwshim.common.outcome import Column, Outcome
from rwshim.dataplane import values
from rwshim.dataplane.epochs import (
    COPY,
    SAVEPOINT,
    FromSnapshot,
    from_snapshot,
    reads_target,
)
from rwshim.dataplane.pgio import (
    UNDEFINED_TABLE,
    ConnectionLost,
    Described,
    Field,
    PgConn,
    PgFailure,
    fields_of,
)
from rwshim.dataplane.plan import functions, names, typemap
from rwshim.dataplane.plan.errors import MapContext, map_error, map_first, with_long_names
from rwshim.dataplane.plan.rewrite import PgStatement
from rwshim.dataplane.plane import DataPlane, DataPlaneLost, Planned, RelationGone
from rwshim.dataplane.pool import DEFAULT_WAIT, server_full
from rwshim.dataplane.rows import Dropped as _Dropped
from rwshim.dataplane.rows import Rows as _Rows
from rwshim.dataplane.rows import decoded_rows as _decoded_rows
from rwshim.dataplane.temporal import NOW_SETTING
from rwshim.errors import (
    BindExprError,
    CatalogNotFound,
    NoFunction,
    RwError,
    VariantKeyError,
)
from rwshim.sql.cache import TextLRU

if TYPE_CHECKING:
    from rwshim.dataplane.rerun import Quick

RACE_RETRIES = 5


DESCRIBED_BYTES = 4 * 1024 * 1024

# SQLSTATEs of binder-class failures: the in-process binder words these as RisingWave does
BINDER_STATES = frozenset({"42703", "42883", "42804", "42725", "42P18", "42846", "42P10"})
# what the in-process binder cannot bind that RisingWave can (its error is not RisingWave's)
_BINDER_GAPS = re.compile(r"unsupported data type: struct|function row\(")


@dataclass(frozen=True, slots=True)
class SessionState:
    """What the PostgreSQL session mirrors of the rwshim session."""

    ctx: QueryContext
    timezone: str
    version: str
    timeout_ms: int  # statement_timeout of queries (RisingWave's batch default when 0)


# (text, context) -> the in-process binder's RisingWave error for it, or None
Explain = Callable[[str, QueryContext], RwError | None]
# (schema, name, context) -> the catalog relation's columns and rows, as the catalog path reads
CatalogRows = Callable[[str, str, QueryContext], tuple[list[Column], list[Sequence[object]]]]


class DataSession:
    def __init__(self, plane: DataPlane, explain: Explain, catalog_rows: CatalogRows) -> None:
        self.plane = plane
        self.explain = explain
        self.catalog_rows = catalog_rows
        # the connection this session used last (pool.Holder): leased while a statement
        # runs on it, else idle in the pool and ours until another session takes it (None)
        self.conn: PgConn | None = None
        # PostgreSQL's Describe of a statement text (its parameter types), bounded by bytes
        self._described: TextLRU[Described] = TextLRU(DESCRIBED_BYTES)
        # result shapes: (id of the type catalog, fields) -> (it, columns, decoders)
        self._columns: dict[
            tuple[int, tuple[Field, ...]],
            tuple[object, list[Column], list[Callable[[bytes], object]]],
        ] = {}
        # the query whose rows are still being read (a suspended portal): settled before the
        # session runs anything else
        self.active: _Rows | None = None
        # the context state_key last read, and its part of the key
        self._state_memo: tuple[QueryContext, int] | None = None

    # --- the connection -----------------------------------------------------------------

    async def _connection(self, state: SessionState) -> PgConn:
        """A connection leased for one statement, set to the session's state; give it back
        with ``_release``."""
        wait = state.timeout_ms / 1000 if state.timeout_ms else DEFAULT_WAIT
        key = self.state_key(state)
        pool = self.plane.pool
        conn = await pool.acquire(self, wait, self._usable, self._open_leased, key)
        try:
            await self._sync(conn, state, key)
            await self._sync_now(conn, state)
        except BaseException:
            self._release(conn)
            raise
        return conn

    async def _sync_now(self, conn: PgConn, state: SessionState) -> None:
        """The batch ``now()`` of the statement set on ``conn`` (a round trip when a barrier
        moved it since the connection's last statement): the committed epoch's time, or the
        latest barrier's when the session reads barriers (``visibility_mode = all``;
        session.rs:1443-1449; dataplane/temporal.py, ``Clocked.batch_now``)."""
        barrier_read = state.ctx.variables.get("visibility_mode", "").lower() == "all"
        now = self.plane.epochs.clocked.batch_now(barrier_read)
        if conn.now_set != now:
            await conn.script(f"SET {NOW_SETTING} = {names.quote_literal(now)}")
            conn.now_set = now

    def _usable(self, conn: PgConn) -> bool:
        # not broken, and opened since the server last restarted (its sessions are gone)
        return not conn.closed and conn.generation == self.plane.generation()

    def _release(self, conn: PgConn) -> None:
        self.plane.pool.release(conn, self)

    async def _open_leased(self) -> PgConn:
        conn = await self._open()
        conn.generation = self.plane.generation()
        return conn

    async def _open(self) -> PgConn:
        for attempt in range(2):
            try:
                conn = await PgConn.connect(self.plane.data_conninfo())
                await conn.script(
                    f"SET search_path = {names.SEARCH_PATH}; SET DateStyle = ISO;"
                    " SET IntervalStyle = postgres; SET extra_float_digits = 1;"
                    " SET bytea_output = hex; SET client_encoding = UTF8"
                )
                return conn
            except (ConnectionLost, PgFailure) as e:
                if isinstance(e, ConnectionLost) and server_full(e):
                    raise  # no free slot: the pool waits for one (pool.py)
                if attempt:
                    raise DataPlaneLost(str(e)) from None
                # the server may be restarting after a crash: wait until it accepts sessions
                await self.plane.wait_server()
                await self.plane.host.repair_data_role()
        raise AssertionError("unreachable")  # pragma: no cover

    def state_key(self, state: SessionState) -> tuple[object, ...]:
        """What ``_sync`` sets on a connection, by content: (the context with its variables,
        as a number the pool gives equal contents; the version, the time zone, the catalog
        version).  Two sessions alike have equal keys, so a connection one of them left
        needs nothing set for the other."""
        ctx = state.ctx
        memo = self._state_memo
        if memo is None or memo[0] is not ctx:
            # (a SET makes a new context: its variables do not change under it)
            content = (ctx, tuple(sorted(ctx.variables.items())))
            memo = self._state_memo = (ctx, self.plane.pool.intern(content))
        return (memo[1], state.version, state.timezone, self.plane._catalog_version())

    async def _sync(
        self, conn: PgConn, state: SessionState, key: tuple[object, ...] | None = None
    ) -> None:
        """Set the session's state on ``conn`` (a leased connection, or its database's
        writer, which every session's DML shares: dataplane/epochs.py)."""
        ctx = state.ctx
        if key is None:
            key = self.state_key(state)
        catalog = key[3]
        synced = conn.synced
        if key == synced:
            return
        if synced is not None and (synced[3] != catalog or synced[2] != state.timezone):
            # relations its prepared statements read may have another shape now; and a literal
            # cast to timestamptz was made a constant when the statement was parsed, in the
            # time zone of then (a prepared text would keep answering in the old zone)
            await conn.forget_prepared()
        fs = FunctionState(ctx=ctx, schema_exists=self.plane.relations.schema_exists)
        schema = fs.current_schema() or ""
        schemas = ",".join(fs.current_schemas(False))
        settings = {
            functions.SETTING_USER: ctx.user,
            functions.SETTING_DATABASE: ctx.database,
            functions.SETTING_SCHEMA: schema,
            functions.SETTING_SCHEMAS: schemas,
            functions.SETTING_VERSION: state.version,
            functions.SETTING_VARIABLES: json.dumps(dict(ctx.variables)),
            "TimeZone": state.timezone,
        }
        # SET, not set_config(): PUBLIC may not execute set_config in rwshim's databases
        # (roles.REVOKED), and the lexing settings are not among these
        timezone = settings.pop("TimeZone")
        await conn.script(
            "; ".join(
                f"SET {'.'.join(map(names.quote_ident, k.split('.')))} = {names.quote_literal(v)}"
                for k, v in settings.items()
            )
        )
        await _set_timezone(conn, timezone)
        conn.synced = key

    async def close(self) -> None:
        """The rwshim session ends: its streaming rows are stopped, its connection goes back
        to the pool for any session."""
        active, self.active = self.active, None
        if active is not None:
            await active.aclose()
        self.plane.pool.disown(self)

    def close_now(self) -> None:
        """Close without waiting (the rwshim session is gone): a connection still streaming
        its rows is closed, an idle one is left to the pool."""
        active, self.active = self.active, None
        if active is not None and not active.released:
            active.released = True
            self.plane.pool.discard(active.conn)
        self.plane.pool.disown(self)

    # --- before a statement ---------------------------------------------------------------

    async def _prepare(self, planned: Planned, state: SessionState) -> tuple[PgConn, Planned]:
        """The connection, ready for ``planned`` (planned again when another session dropped
        a relation it reads while this one waited: then RisingWave's not-found error)."""
        planned = await self._objects(planned, state)
        self._variant_keys(planned, state)
        conn = await self._connection(state)
        try:
            for schema, name in planned.statement.snapshots:
                await self._snapshot(conn, schema, name, state.ctx)
        except BaseException:
            self._release(conn)
            raise
        return conn, planned

    def _variant_keys(self, planned: Planned, state: SessionState) -> None:
        """RisingWave refuses a VARIANT as a key while it plans (binder/variant_keys.py);
        PostgreSQL finds no equality for one only where it looks for it (a GROUP BY, not the
        ``=`` of two arrays of them in a join): a query reading a relation with a variant
        column is bound first, and a refusal of a variant key is the answer."""
        if not any(
            "variant" in c.rw_type.lower()
            for r in planned.routed.user_relations()
            for c in r.columns
        ):
            return
        found = self.explain(typemap.user_types(planned.routed.prepassed.text), state.ctx)
        if found is None:
            return
        cause = found.cause if isinstance(found, BindExprError) else found
        if isinstance(cause, VariantKeyError) or (
            isinstance(cause, NoFunction) and "variant" in str(cause)
        ):
            raise found

    async def _objects(self, planned: Planned, state: SessionState) -> Planned:
        """The PostgreSQL objects ``planned`` reads and writes exist (the session's unread
        rows are read first: its connection is wanted)."""
        active, self.active = self.active, None
        if active is not None:
            await active.settle()
        plane = self.plane
        await plane.ready()
        for _ in range(3):
            try:
                await plane.ensure(planned.statement.relation_ids)
                break
            except RelationGone:
                fresh = plane.plan(planned.text, state.ctx)
                if fresh is None:
                    raise DataPlaneLost("the statement no longer reads user data") from None
                planned = fresh
        await plane.ensure_types(planned.statement.requires)
        return planned

    async def _snapshot(
        self, conn: PgConn, schema: str, name: str, ctx: QueryContext, *, cached: bool = True
    ) -> None:
        key = (self.plane._catalog_version(), ctx.cache_key)
        if cached and conn.snapshots.get((schema, name)) == key:
            return
        columns, rows = self.catalog_rows(schema, name, ctx)
        table = names.qualified_snapshot(schema, name)
        cols = ", ".join(
            f"{names.quote_ident(c.name)} {_snapshot_type(c.type_oid)}" for c in columns
        )
        await conn.script(f"DROP TABLE IF EXISTS {table}; CREATE TEMP TABLE {table} ({cols})")
        if rows:
            encoders = [values.encode_param for _ in columns]
            width = len(columns)
            placeholders = ", ".join(f"${i + 1}" for i in range(width))
            insert = f"INSERT INTO {table} VALUES ({placeholders})"
            for row in rows:
                params = [
                    enc(v, c.type_oid) for enc, v, c in zip(encoders, row, columns, strict=True)
                ]
                await conn.query(insert, params, [0] * width)
        if cached:
            conn.snapshots[(schema, name)] = key

    # --- statements -----------------------------------------------------------------------

    def _failure(self, e: PgFailure, planned: Planned, state: SessionState) -> RwError:
        err = with_long_names(e.error, planned.statement.long_names)
        first = map_first(err, _names_of(planned), planned.text)
        if first is not None:
            return first
        if err.sqlstate in BINDER_STATES:
            # the binder reads the struct types the pre-pass made composite types of
            text = typemap.user_types(planned.routed.prepassed.text)
            found = self.explain(text, state.ctx)
            # (the in-process binder has no struct casts nor ROW(...): its refusal of one
            # is not RisingWave's answer, PostgreSQL's error is nearer)
            if found is not None and not _BINDER_GAPS.search(str(found)):
                return found
        seconds = (state.timeout_ms or 3600 * 1000) // 1000
        return map_error(err, _names_of(planned), MapContext(seconds))

    def _lost(self, e: ConnectionLost, conn: PgConn) -> RwError:
        conn.close_now()  # broken: its lease's end closes it for good
        if self.conn is conn:
            self.conn = None
        return DataPlaneLost(str(e))

    async def describe(
        self, planned: Planned, state: SessionState, param_oids: Sequence[int]
    ) -> tuple[list[int], list[Column] | None]:
        """PostgreSQL's Parse/Describe of the statement: parameter and result types as a
        client sees them."""
        conn, planned = await self._prepare(planned, state)
        types = list(param_oids)
        try:
            described = await conn.describe(planned.statement.text, types)
        except PgFailure as e:
            raise self._failure(e, planned, state) from None
        except ConnectionLost as e:
            raise self._lost(e, conn) from None
        finally:
            self._release(conn)
        self._described.put(planned.statement.text, described)
        params = [typemap.result_oid(o) for o in described.param_oids]
        fields = described.fields
        cols = None if fields is None else (await self.columns(fields, planned.statement))[0]
        return params, cols

    async def execute(
        self, planned: Planned, params: Sequence[object], state: SessionState
    ) -> Outcome:
        for _ in range(RACE_RETRIES):
            try:
                return await self._execute(planned, params, state)
            except _Dropped:
                # another session dropped a relation between our ensure and our statement:
                # plan again (RisingWave's not-found error if it is gone for good)
                fresh = self.plane.plan(planned.text, state.ctx)
                if fresh is None:
                    raise DataPlaneLost("the statement no longer reads user data") from None
                planned = fresh
        names = [r.name for r in planned.routed.user_relations()]
        raise CatalogNotFound("table or source", names[0] if names else "?")

    async def _execute(
        self, planned: Planned, params: Sequence[object], state: SessionState
    ) -> Outcome:
        if planned.statement.kind != "select":
            return await self._write(planned, params, state)
        conn, planned = await self._prepare(planned, state)
        st = planned.statement
        try:
            pg_types, args = self._params(st.text, params)
        except BaseException:
            self._release(conn)
            raise
        if st.kind == "select":
            timeout = (state.timeout_ms or 3600 * 1000) / 1000
            # the lease is the rows' now: they give it back when they end
            rows = _Rows(self, conn, planned, state, pg_types, args, time.monotonic() + timeout)
            outcome = Outcome("SELECT", None, rows, count_rows=True)
            try:
                await rows.start(outcome)
            except BaseException:
                # a row that cannot be decoded (or a cancel) must not leave the statement
                # running on the connection the next one needs
                await rows.aclose()
                raise
            self.active = rows
            return outcome
        raise AssertionError("unreachable")  # pragma: no cover

    async def _write(
        self, planned: Planned, params: Sequence[object], state: SessionState
    ) -> Outcome:
        """A DML statement, in its database's epoch transaction (dataplane/epochs.py): what
        it writes is seen when the next barrier commits."""
        planned = await self._objects(planned, state)
        st = planned.statement
        db = state.ctx.database_id
        reads = [r for r in st.relation_ids if r != st.target_id or st.kind != "insert"]
        if st.kind == "insert" and st.target_id is not None and reads_target(st.text, st.target_id):
            reads.append(st.target_id)
        if self.plane.epochs.written(db, self._tables_read(reads)):
            # RisingWave's DML reads the committed snapshot, not the epoch's queued writes
            # (delete.rs:146-188, update.rs:153-223 under src/batch/executors/src/executor/;
            # an INSERT's source is a batch scan like a SELECT's): read it elsewhere, apply
            # the changes found in the epoch
            rel = planned.routed.target
            fs = None
            if rel is not None:
                fs = from_snapshot(st.kind, rel, st.text, st.repeated_key_text)
            if fs is not None:
                return await self._write_from_snapshot(planned, params, state, fs)

        async def setup(conn: PgConn) -> None:
            # before the statement's savepoint (epochs.run): a rollback to it keeps them
            await self._sync(conn, state)
            await self._sync_now(conn, state)
            for schema, name in st.snapshots:  # temporary tables of that connection
                await self._snapshot(conn, schema, name, state.ctx, cached=False)

        async def statement(conn: PgConn) -> Outcome:
            pg_types, args = self._params(st.text, params)
            return await self._dml(conn, planned, pg_types, args, state)

        try:
            out = await self.plane.epochs.run(
                state.ctx.database_id, st.target_id, self._open, setup, statement
            )
            assert isinstance(out, Outcome)
            return out
        except PgFailure as e:
            if e.error.sqlstate == UNDEFINED_TABLE:
                raise _Dropped(self._failure(e, planned, state)) from None
            raise self._failure(e, planned, state) from None
        except ConnectionLost as e:
            raise DataPlaneLost(str(e)) from None
        finally:
            if st.target_id is not None:
                self.plane.recount_later(st.target_id)

    async def _write_from_snapshot(
        self, planned: Planned, params: Sequence[object], state: SessionState, fs: FromSnapshot
    ) -> Outcome:
        """An UPDATE/DELETE whose reads the open epoch wrote: evaluated on a connection
        leased from the pool (the committed state) against a copy of its target, the changes it made
        then applied in the epoch's transaction (epochs.FromSnapshot)."""
        st = planned.statement
        try:
            conn, planned = await self._prepare(planned, state)
            try:
                pg_types, args = self._params(st.text, params)
                try:
                    await conn.script(fs.prepare)
                    mark = (await conn.query(fs.mark)).get_value(0, 0) or b"-1"
                    on_copy = replace(
                        planned,
                        statement=replace(st, text=fs.text, repeated_key_text=fs.fallback),
                    )
                    out = await self._dml(conn, on_copy, pg_types, args, state)
                    res = await conn.query(fs.capture, [mark] if st.kind == "update" else [])
                    changed = res.get_value(0, 0) or b"[]"
                finally:
                    if not conn.closed:
                        await asyncio.shield(conn.script("ROLLBACK"))
            finally:
                # the leased connection goes back (closed by the pool if it is left in a
                # transaction or broken: pool.Pool.release)
                self._release(conn)
            if changed != b"[]":

                async def apply(writer: PgConn) -> None:
                    for sql in fs.apply:
                        await writer.query(sql, [changed])

                async def setup(writer: PgConn) -> None:
                    await self._sync(writer, state)

                await self.plane.epochs.run(
                    state.ctx.database_id, st.target_id, self._open, setup, apply
                )
            return out
        except PgFailure as e:
            if e.error.sqlstate == UNDEFINED_TABLE:
                raise _Dropped(self._failure(e, planned, state)) from None
            # an error about the copy is about the target (its name as the mapping knows it)
            copy = COPY.split(".")[-1]
            err = e.error
            if copy in err.message or err.table == copy:
                table = names.table_name(st.target_id or 0)
                err = replace(
                    err,
                    message=err.message.replace(f'"{copy}"', f'"{table}"'),
                    table=table if err.table == copy else err.table,
                    schema=names.DATA_SCHEMA if err.table == copy else err.schema,
                )
            raise self._failure(PgFailure(err), planned, state) from None
        except ConnectionLost as e:
            raise DataPlaneLost(str(e)) from None
        finally:
            if st.target_id is not None:
                self.plane.recount_later(st.target_id)

    def _tables_read(self, relation_ids: Sequence[int]) -> list[int]:
        """The tables a statement reads or writes, through the views it reads (a view's
        PostgreSQL object reads its tables' rows as the connection sees them)."""
        out: list[int] = []
        for rid in relation_ids:
            try:
                objects = self.plane.objects_for(rid)
            except RwError:
                continue
            out.extend(o.relation_id for o in objects if o.kind == "table")
        return out

    def _params(self, text: str, params: Sequence[object]) -> tuple[list[int], list[bytes | None]]:
        if not params:
            return [], []
        described = self._described.get(text)
        pg_types = list(described.param_oids) if described is not None else [0] * len(params)
        args = [
            values.encode_param(v, param_oid(t)) for v, t in zip(params, pg_types, strict=False)
        ]
        return pg_types, args

    async def _dml(
        self,
        conn: PgConn,
        planned: Planned,
        pg_types: list[int],
        args: list[bytes | None],
        state: SessionState,
    ) -> Outcome:
        st = planned.statement
        try:
            results = [r async for r in conn.stream(st.text, args, pg_types)]
        except PgFailure as e:
            if e.error.sqlstate != "21000" or st.repeated_key_text is None:
                raise
            # the statement's savepoint in the epoch's transaction (epochs.py): undo the
            # failed attempt before the second one
            await conn.script(f"ROLLBACK TO SAVEPOINT {SAVEPOINT}")
            results = [r async for r in conn.stream(st.repeated_key_text, args, pg_types)]
            if st.repeated_key_counts:
                count = _decoded_rows(results, [values.decoder(pgtypes.INT8)])
                n = int(count[0][0]) if count else 0  # type: ignore[call-overload]
                return Outcome(f"INSERT 0 {n}")
        # in chunked-rows mode the status rides on the last chunk, not the closing result
        status = next((r.command_status for r in reversed(results) if r.command_status), b"")
        tag = (status or b"").decode()
        fields = fields_of(results[0]) if results and results[0].nfields else []
        if not fields:
            return Outcome(tag)
        cols, decoders = await self.columns(fields, planned.statement)
        rows = _decoded_rows(results, decoders)
        return Outcome(tag, cols, rows)

    # --- kept runs (dataplane/rerun.py) -------------------------------------------------------

    def quick_of(self, rows: object, columns: Sequence[Column]) -> Quick | None:
        """A kept run of the query whose rows ``rows`` were just read to their end, when its
        rows pass through and it reads no catalog snapshot (else None)."""
        if not isinstance(rows, _Rows) or not rows.finished:
            return None
        st = rows.planned.statement
        planned = rows.planned
        if st.kind != "select" or st.snapshots or planned.settings:
            return None
        if planned.answered:  # answers given in process for that run (plan/guard.py)
            return None
        from rwshim.dataplane import rerun as quick  # (it imports this module)

        if not quick.passes_through(rows.field_oids, [c.type_oid for c in columns]):
            return None
        return quick.Quick(
            rows.planned,
            rows.state,
            rows.conn.generation,
            # the state the rows ran under (their connection went back to the pool at their
            # end, and may be another session's now)
            self.state_key(rows.state),
            rows.pg_types,
            [param_oid(t) for t in rows.pg_types],
            rows.field_oids,
        )

    async def columns(
        self, fields: Sequence[Field], statement: PgStatement | None = None
    ) -> tuple[list[Column], list[Callable[[bytes], object]]]:
        """Result columns as the client sees them and their decoders; a type that is not
        builtin (a struct's composite, vector) is looked up in the data database first.  A
        name over 63 bytes is the one the user wrote (``statement.user_name``)."""
        if statement is not None and statement.long_names:
            fields = [Field(statement.user_name(f.name), f.type_oid) for f in fields]
        types = self.plane.types
        key = (id(types), tuple(fields))
        hit = self._columns.get(key)
        if hit is not None and hit[0] is types:
            # the same list each time: the session's row encoder is found by identity
            return hit[1], hit[2]
        await types.learn([f.type_oid for f in fields])
        cols: list[Column] = []
        decoders: list[Callable[[bytes], object]] = []
        for f in fields:
            rw = types.rw_oid(f.type_oid)
            oid = rw if rw is not None else typemap.result_oid(f.type_oid)
            cols.append(Column(f.name, oid, pgtypes.type_size(oid)))
            decoders.append(types.decoder(f.type_oid, oid))
        if len(self._columns) >= 256:
            self._columns.clear()
        self._columns[key] = (types, cols, decoders)
        return cols, decoders


async def _set_timezone(conn: PgConn, timezone: str) -> None:
    """The session's time zone on ``conn``; one PostgreSQL does not know is not set (it keeps
    its own).  Inside the epoch's transaction (the writer, epochs.py) the attempt has its own
    savepoint, so that a refused zone does not abort the transaction."""
    sql = f"SET TimeZone = {names.quote_literal(timezone)}"
    if not conn.in_transaction:
        with contextlib.suppress(PgFailure):
            await conn.script(sql)
        return
    try:
        await conn.script(f"SAVEPOINT tz; {sql}; RELEASE SAVEPOINT tz")
    except PgFailure:
        await conn.script("ROLLBACK TO SAVEPOINT tz; RELEASE SAVEPOINT tz")


def param_oid(pg_oid: int) -> int:
    """The type a parameter is encoded as, for PostgreSQL's parameter type ``pg_oid`` (0, not
    described: as a string)."""
    return typemap.result_oid(pg_oid) or pgtypes.VARCHAR


def _names_of(planned: Planned) -> Callable[[int], str | None]:
    """Physical id -> the user's name, for the relations the statement was planned with."""
    names_ = {r.id: r.name for r in planned.routed.user_relations()}
    return names_.get


def _snapshot_type(oid: int) -> str:
    try:
        return typemap.column_type(oid)
    except RwError:
        return "text"
