"""Per-connection SQL semantics: statements in, Outcomes out (the seam between wire and SQL).

The protocol session (``session.py``) owns prepared statements, portals and the wire; it calls
this class for everything that depends on what the SQL means.  ``Frontend`` dispatches the
typed statements of ``sql/`` to the engine (DDL, jobs, barriers), the read path (queries, DML,
catalogs) and the session variables, as RisingWave's ``handle()`` does
(src/frontend/src/handler/mod.rs).

Interface the session relies on:
- ``parse(sql) -> list[Statement]`` (raise RwError on bad syntax; [] for an empty string),
- ``describe(stmt, param_oids) -> Description`` (parameter OIDs with 0s resolved, result
  columns or None),
- ``async execute(stmt, params) -> Outcome`` (params decoded to Python values; may await:
  a CancelRequest cancels the await),
- ``txn_status`` ('I', 'T', 'E'), ``parameter_changes`` (ParameterStatus to send, drained
  by the session), ``timezone`` (session TimeZone name, for timestamptz text output),
- ``close()`` when the connection ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rwshim import coltypes, logfmt, pgtypes
from rwshim import control as ctl
from rwshim.engine import ColumnSpec, Context, Waiter
from rwshim.engine import ObjectName as EngineName
from rwshim.engine.types import Result
from rwshim.errors import (
    FatalError,
    InvalidParameterValue,
    NotImplementedError_,
    PermissionDenied,
    QueryTimeout,
    RwError,
    StartupOptionError,
    Uncategorized,
)
from rwshim.instance import Instance
from rwshim.passwords import encrypted_password
from rwshim.query.catalog import show
from rwshim.query.context import QueryContext, parse_search_path
from rwshim.results import Column, Outcome
from rwshim.session_config import SessionConfig
from rwshim.sql import parse as sql_parse
from rwshim.sql import statements as st
from rwshim.sql.columns import table_schema

Statement = st.Statement

# RisingWave's BEGIN notice (src/frontend/src/handler/transaction.rs:47-55).
BEGIN_NOTICE = (
    "Read-write transaction is not supported yet. Please specify `READ ONLY` to start a "
    "read-only transaction.\nFor compatibility, this statement will still succeed but no "
    "transaction is actually started."
)
# transaction.rs:36-40
ISOLATION_NOTICE = (
    "Transaction with given Isolation Level is not supported yet.\n"
    "For compatibility, this statement will proceed with RepeatableRead."
)
# transaction.rs:102-104
SET_TRANSACTION_NOTICE = (
    "`SET TRANSACTION` is not supported yet.\n"
    "For compatibility, this statement will still succeed but no changes are actually made."
)
# The frontend's worker id in the emulated cluster (rw_worker_nodes row 1).
FRONTEND_WORKER_ID = 1

_SLEEP = re.compile(r"^\s*select\s+pg_sleep\s*\(\s*([0-9.]+)\s*\)\s*$", re.IGNORECASE)
_READ_ONLY = re.compile(r"\bREAD\s+ONLY\b", re.IGNORECASE)
_ISOLATION = re.compile(r"\bISOLATION\s+LEVEL\b", re.IGNORECASE)

# SHOW <objects> -> the kind name show.show_objects takes.
_SHOW_OBJECT_KINDS = {
    "TABLES": "tables",
    "MATERIALIZED VIEWS": "materialized views",
    "VIEWS": "views",
    "SOURCES": "sources",
    "SINKS": "sinks",
    "INTERNAL TABLES": "internal tables",
    "SECRETS": "secrets",
    "SUBSCRIPTIONS": "subscriptions",
}
# Object words of ALTER/DROP/WAIT -> the engine's relation kinds.
_KINDS = {
    "TABLE": "table",
    "MATERIALIZED VIEW": "materialized view",
    "VIEW": "view",
    "INDEX": "index",
    "SOURCE": "source",
    "SINK": "sink",
}


@dataclass(frozen=True, slots=True)
class Description:
    """What Describe answers: parameter type OIDs, and the result columns (None = NoData)."""

    param_oids: list[int]
    columns: list[Column] | None


class _Variables(Mapping[str, str]):
    """The session config as the engine reads it: RisingWave names -> value texts."""

    def __init__(self, config: SessionConfig) -> None:
        self._config = config

    def __getitem__(self, key: str) -> str:
        try:
            return self._config.get(key)
        except RwError:
            raise KeyError(key) from None

    def __iter__(self) -> Iterator[str]:
        return iter(name for name, _, _ in self._config.show_all())

    def __len__(self) -> int:
        return len(self._config.show_all())


@dataclass(slots=True)
class _Cursor:
    columns: list[Column]
    rows: Iterator[Sequence[object]]


def _engine_name(name: st.ObjectName) -> EngineName:
    return EngineName(name.name, name.schema)


def _varchar_columns(cols: Sequence[Any]) -> list[Column]:
    return [Column(c.name, c.type_oid, pgtypes.type_size(c.type_oid)) for c in cols]


class Frontend:
    """SQL semantics of one connection."""

    def __init__(
        self,
        instance: Instance,
        user: str,
        database: str,
        options: Mapping[str, str] | None = None,
        process: Any = None,
    ) -> None:
        self.instance = instance
        self.user = user
        self.database = database
        self.process = process
        self.txn_status = "I"
        self.parameter_changes: list[tuple[str, str]] = []
        self._cursors: dict[str, _Cursor] = {}
        engine = instance.engine
        self.database_id = self._database_id(database)
        uid = engine.users.user_id(user)
        if uid is None:
            # session.rs:1780 bail_catalog_error!("Role {} does not exist"); SQLSTATE 28000 is
            # PostgreSQL's (RisingWave sends XX000), kept so drivers classify it as auth.
            raise FatalError("Catalog error", f"Role {user} does not exist", sqlstate="28000")
        self.user_id = uid
        self.config = SessionConfig(defaults=dict(engine.params.session_defaults()))
        # pg_protocol.rs:742-755: `options` entries, then application_name (which wins); any
        # failure is a startup error.
        opts = dict(options or {})
        app = opts.pop("application_name", None)
        for key, value in [*opts.items(), *([("application_name", app)] if app else [])]:
            try:
                self.config.set(key, value)
            except RwError as e:
                raise StartupOptionError(*e.chain) from None
        self._variables = _Variables(self.config)
        self._qctx_cache: QueryContext | None = None
        self._handlers: dict[type[st.Statement], Callable[..., Any]] = self._handler_table()

    def _database_id(self, name: str) -> int:
        row = self.instance.conn.execute(
            "SELECT database_id FROM database WHERE name = ?", (name,)
        ).fetchone()
        if row is None:
            # session.rs:1587 get_database_by_name -> CatalogError NotFound (3D000).
            raise FatalError("Catalog error", f"database not found: {name}", sqlstate="3D000")
        return int(row[0])

    # --- contexts -------------------------------------------------------------------------

    @property
    def timezone(self) -> str:
        return self.config.get("timezone")

    @property
    def is_superuser(self) -> bool:
        row = self.instance.conn.execute(
            "SELECT is_super FROM rw_user WHERE user_id = ?", (self.user_id,)
        ).fetchone()
        return bool(row and row[0])

    def _ctx(self) -> Context:
        return Context(self.database_id, self.user_id, self._variables)

    def _qctx(self) -> QueryContext:
        # Built once per change of the session's variables: it is on the per-query path.
        ctx = self._qctx_cache
        if ctx is None:
            ctx = self._qctx_cache = QueryContext(
                self.database_id,
                self.database,
                self.user_id,
                self.user,
                parse_search_path(self.config.get("search_path")),
                dict(self._variables.items()),
                self.is_superuser,
            )
        return ctx

    def _sctx(self) -> show.ShowContext:
        self.instance.query.use_context(self._qctx())
        return show.ShowContext(
            self.database_id, self.user_id, self.user, self.config.get("search_path")
        )

    # --- the session's interface -----------------------------------------------------------

    def parse(self, sql: str) -> list[Statement]:
        """Split and parse a query string; raises RwError on bad syntax."""
        try:
            return sql_parse(sql)
        except RwError as e:
            if logfmt.statement_log.isEnabledFor(logging.DEBUG):
                logfmt.statement_log.debug(
                    logfmt.line(
                        "statement", pid=getattr(self.process, "pid", 0), user=self.user,
                        db=self.database, kind="unparsed", ok=False, sqlstate=e.code,
                        sql=sql[:500],
                    )
                )  # fmt: skip
            raise

    def describe(self, stmt: Statement, param_oids: list[int]) -> Description:
        if isinstance(stmt, (st.Query, st.Insert, st.Update, st.Delete)):
            if isinstance(stmt, st.Query) and _SLEEP.match(stmt.text):
                return Description([], [Column("pg_sleep", pgtypes.VOID, 4)])
            d = self.instance.query.describe(stmt.text, param_oids, self._qctx())
            return Description(list(d.param_oids), d.columns)
        if type(stmt).OWNER == "control":
            return Description(list(param_oids), ctl.columns(stmt))
        if isinstance(stmt, st.FetchCursor):
            cur = self._cursors.get(stmt.cursor)
            return Description(list(param_oids), cur.columns if cur else None)
        if isinstance(stmt, (st.ShowObjects, st.ShowVariable, st.ShowCreate, st.Describe)):
            out = self._handlers[type(stmt)](stmt, [])
            assert isinstance(out, Outcome)
            return Description(list(param_oids), out.columns)
        return Description(list(param_oids), None)

    async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
        if not logfmt.statement_log.isEnabledFor(logging.DEBUG):
            return await self._execute(stmt, params)
        started = time.perf_counter()
        fields: dict[str, object] = {
            "pid": getattr(self.process, "pid", 0),
            "user": self.user,
            "db": self.database,
            "kind": type(stmt).__name__,
        }
        try:
            out = await self._execute(stmt, params)
        except RwError as e:
            fields.update(ok=False, sqlstate=e.code)
            raise
        else:
            fields.update(ok=True, tag=out.tag)
            return out
        finally:
            ms = (time.perf_counter() - started) * 1000
            logfmt.statement_log.debug(
                logfmt.line("statement", **fields, ms=f"{ms:.2f}", sql=stmt.text[:500])
            )

    async def _execute(self, stmt: Statement, params: list[object]) -> Outcome:
        handler = self._handlers.get(type(stmt))
        if handler is None:
            raise NotImplementedError_(type(stmt).__name__)
        out = handler(stmt, params)
        if isinstance(out, Awaitable):
            out = await out
        assert isinstance(out, Outcome)
        return out

    def close(self) -> None:
        self._cursors.clear()

    # --- dispatch ---------------------------------------------------------------------------

    def _handler_table(self) -> dict[type[st.Statement], Callable[..., Any]]:
        h: dict[type[st.Statement], Callable[..., Any]] = {
            st.Query: self._query,
            st.Insert: self._dml,
            st.Update: self._dml,
            st.Delete: self._dml,
            st.SetVariable: self._set_variable,
            st.SetTimeZone: self._set_time_zone,
            st.SetTransaction: lambda s, p: Outcome(s.tag, notices=[SET_TRANSACTION_NOTICE]),
            st.ShowVariable: self._show_variable,
            st.Begin: self._begin,
            st.StartTransaction: self._begin,
            st.Commit: self._end_txn,
            st.Rollback: self._end_txn,
            st.Abort: self._end_txn,
            st.Discard: lambda s, p: Outcome(s.tag),
            st.ShowObjects: self._show_objects,
            st.ShowCreate: self._show_create,
            st.Describe: self._describe,
            st.DeclareCursor: self._declare,
            st.FetchCursor: self._fetch,
            st.CloseCursor: self._close_cursor,
            st.CancelJobs: self._cancel_jobs,
            st.Kill: self._kill,
            st.Wait: self._wait,
            st.Flush: self._flush,
            st.Recover: self._recover,
            st.AlterParallelism: self._alter_parallelism,
            st.AlterBackfillParallelism: self._alter_parallelism,
            st.AlterRateLimit: self._alter_rate_limit,
            st.AlterResourceGroup: self._alter_resource_group,
            st.AlterRename: self._alter_rename,
            st.AlterSwap: self._alter_swap,
            st.AlterOwner: self._alter_owner,
            st.AlterSetSchema: self._alter_set_schema,
            st.AlterDatabaseParam: self._alter_database_param,
            st.AlterDatabasePause: self._alter_database_pause,
            st.AlterSystemPause: self._alter_system_pause,
            st.AlterSystem: self._alter_system,
            st.AlterFragmentParallelism: self._alter_fragment_parallelism,
            st.AlterFragmentRateLimit: self._alter_fragment_rate_limit,
            st.CreateTable: self._create_table,
            st.CreateMaterializedView: self._create_mv,
            st.CreateView: self._create_view,
            st.CreateSource: self._create_source,
            st.CreateSink: self._create_sink,
            st.CreateIndex: self._create_index,
            st.CreateSchema: self._create_schema,
            st.CreateDatabase: self._create_database,
            st.CreateUser: self._create_user,
            st.AlterUser: self._alter_user,
            st.Drop: self._drop,
            st.Grant: lambda s, p: Outcome(s.tag),
            st.Revoke: lambda s, p: Outcome(s.tag),
            st.Comment: self._comment,
        }
        for cls, fn in ctl.handlers(self).items():
            h[cls] = fn
        return h

    # --- engine results ---------------------------------------------------------------------

    async def _engine(self, tag: str, fn: Callable[[], Result]) -> Outcome:
        """Run one engine operation, await its barrier wait, and refresh the read path."""
        try:
            result = fn()
        finally:
            self.instance.query.invalidate()
        if result.wait is not None:
            await self._await(result.wait, getattr(result, "job_id", None))
            self.instance.query.invalidate()
        rows: list[tuple[object, ...]] = result.rows
        return Outcome(tag, result.columns, rows, notices=list(result.notices))

    async def _await(self, waiter: Waiter, job_id: int | None) -> None:
        if not waiter.done:
            loop = asyncio.get_running_loop()
            fut: asyncio.Future[None] = loop.create_future()

            def wake(_: Waiter) -> None:
                if not fut.done():
                    fut.set_result(None)

            waiter.add_done_callback(wake)
            try:
                await fut
            except asyncio.CancelledError:
                # A cancelled foreground CREATE cancels its job, as RisingWave's
                # cancel_queries_in_session + creating_streaming_job_tracker do.
                if (
                    job_id is not None
                    and self.instance.engine.catalog.job_status(job_id) is not None
                ):
                    with contextlib.suppress(RwError):
                        self.instance.engine.jobs.cancel_jobs(self._ctx(), [job_id])
                    self.instance.query.invalidate()
                raise
        waiter.result()

    # --- queries and DML --------------------------------------------------------------------

    def _timeout_ms(self) -> int:
        """statement_timeout, or the batch default (1 hour) when it is 0
        (session.rs:1451-1457, config/batch.rs:122-125)."""
        return self.config.statement_timeout_ms or 3600 * 1000

    async def _query(self, stmt: st.Query, params: list[object]) -> Outcome:
        timeout_ms = self._timeout_ms()
        m = _SLEEP.match(stmt.text)
        if m:
            try:
                await asyncio.wait_for(asyncio.sleep(float(m.group(1))), timeout_ms / 1000)
            except TimeoutError:
                raise QueryTimeout(timeout_ms // 1000) from None
            return Outcome("SELECT", [Column("pg_sleep", pgtypes.VOID, 4)], [("",)], True)
        instance = self.instance
        deadline = time.monotonic() + timeout_ms / 1000
        instance.deadline = deadline
        try:
            out = instance.query.execute(stmt.text, params, self._qctx())
        except RwError:
            if time.monotonic() > deadline:
                raise QueryTimeout(timeout_ms // 1000) from None
            raise
        finally:
            instance.deadline = math.inf
        if not isinstance(out.rows, (list, tuple)):
            out.rows = _deadline(instance, out.rows, deadline, timeout_ms // 1000)
        return out

    def _dml(self, stmt: st.Insert | st.Update | st.Delete, params: list[object]) -> Outcome:
        out = self.instance.query.execute(stmt.text, params, self._qctx())
        return out

    # --- session variables and transactions ---------------------------------------------------

    def _set_variable(self, stmt: st.SetVariable, params: list[object]) -> Outcome:
        value = None if stmt.value.kind == "default" else list(stmt.value.items)
        notices = self.config.set(stmt.variable, value)
        self._qctx_cache = None
        self.parameter_changes.extend(self.config.parameter_status_changes())
        return Outcome(stmt.tag, notices=notices)

    def _set_time_zone(self, stmt: st.SetTimeZone, params: list[object]) -> Outcome:
        value = stmt.value or "UTC"
        self.config.set("timezone", value)
        self._qctx_cache = None
        return Outcome(stmt.tag)

    def _show_variable(self, stmt: st.ShowVariable, params: list[object]) -> Outcome:
        name = stmt.variable.lower()
        if name == "parameters":
            r = self.instance.engine.params.show_parameters()
            return Outcome("SHOW_VARIABLE", r.columns, r.rows)
        if name in ("transaction_isolation", "transaction isolation level"):
            value = self.config.get("transaction_isolation")
            return Outcome("SHOW_VARIABLE", [Column("Name", pgtypes.VARCHAR)], [(value,)])
        names, rows = self.config.show(name)
        cols = [Column(n, pgtypes.VARCHAR) for n in names]
        return Outcome("SHOW_VARIABLE", cols, rows)

    def _begin(self, stmt: st.Statement, params: list[object]) -> Outcome:
        notices = [ISOLATION_NOTICE] if _ISOLATION.search(stmt.text) else []
        if _READ_ONLY.search(stmt.text):
            self.txn_status = "T"
            return Outcome(stmt.tag, notices=notices)
        return Outcome(stmt.tag, notices=[*notices, BEGIN_NOTICE])

    def _end_txn(self, stmt: st.Statement, params: list[object]) -> Outcome:
        self.txn_status = "I"
        self._cursors.clear()
        return Outcome(stmt.tag)

    # --- SHOW / DESCRIBE ----------------------------------------------------------------------

    def _show_objects(self, stmt: st.ShowObjects, params: list[object]) -> Outcome:
        what = stmt.what.upper()
        conn = self.instance.conn
        if what == "JOBS":
            r = self.instance.engine.backfill.show_jobs()
            return Outcome(stmt.tag, r.columns, r.rows)
        if what == "PARAMETERS":
            r = self.instance.engine.params.show_parameters()
            return Outcome("SHOW_VARIABLE", r.columns, r.rows)
        if what == "PROCESSLIST":
            return Outcome(stmt.tag, *self._processlist())
        if what == "CURSORS":
            return Outcome(
                stmt.tag, [Column("Name", pgtypes.VARCHAR)], [(n,) for n in self._cursors]
            )
        sctx = self._sctx()
        schema = stmt.schema
        if what in _SHOW_OBJECT_KINDS:
            cols, rows = show.show_objects(
                conn,
                sctx,
                _SHOW_OBJECT_KINDS[what],
                schema.name if schema else None,
                stmt.like,
                stmt.ilike,
                stmt.where is not None,
            )
        elif what == "DATABASES":
            cols, rows = show.show_databases(conn, sctx)
        elif what == "SCHEMAS":
            cols, rows = show.show_schemas(conn, sctx)
        elif what == "CLUSTER":
            cols, rows = show.show_cluster(conn, sctx)
        elif what == "FUNCTIONS":
            cols, rows = show.show_functions(conn, sctx, schema.name if schema else None)
        elif what == "CONNECTIONS":
            cols, rows = show.show_connections(conn, sctx, schema.name if schema else None)
        elif what == "COLUMNS" and schema is not None:
            cols, rows = show.show_columns(conn, sctx, schema.parts)
        elif what == "INDEXES" and schema is not None:
            cols, rows = show.show_indexes(conn, sctx, schema.parts)
        else:
            raise NotImplementedError_(f"SHOW {what}")
        return Outcome(stmt.tag, _varchar_columns(cols), rows)

    def _processlist(self) -> tuple[list[Column], list[tuple[object, ...]]]:
        """SHOW PROCESSLIST (show.rs:424-432, :1119-1170): one row per live session."""
        cols = [
            Column(n, pgtypes.VARCHAR)
            for n in ("Worker Id", "Id", "User", "Host", "Database", "Time", "Info")
        ]
        rows: list[tuple[object, ...]] = []
        registry = self.instance.registry
        now = time.time()
        for p in registry.processes() if registry is not None else []:  # type: ignore[attr-defined]
            elapsed = (
                f"{int((now - p.statement_started) * 1000)}ms"
                if p.active and p.statement_started is not None
                else None
            )
            info = p.statement[:1024] if p.active and p.statement else None
            rows.append(
                (
                    str(FRONTEND_WORKER_ID),
                    f"{FRONTEND_WORKER_ID}:{p.pid}",
                    p.user,
                    p.client_addr,
                    p.database,
                    elapsed,
                    info,
                )
            )
        return cols, rows

    def _show_create(self, stmt: st.ShowCreate, params: list[object]) -> Outcome:
        cols, rows = show.show_create(
            self.instance.conn, self._sctx(), stmt.object_type.lower(), stmt.name.parts
        )
        return Outcome(stmt.tag, _varchar_columns(cols), rows)

    def _describe(self, stmt: st.Describe, params: list[object]) -> Outcome:
        cols, rows = show.describe(self.instance.conn, self._sctx(), stmt.name.parts)
        return Outcome(stmt.tag, _varchar_columns(cols), rows)

    # --- cursors --------------------------------------------------------------------------------

    def _declare(self, stmt: st.DeclareCursor, params: list[object]) -> Outcome:
        out = self.instance.query.execute(stmt.query, params, self._qctx())
        self._cursors[stmt.cursor] = _Cursor(out.columns or [], iter(out.rows))
        return Outcome(stmt.tag)

    def _fetch(self, stmt: st.FetchCursor, params: list[object]) -> Outcome:
        cur = self._cursors.get(stmt.cursor)
        if cur is None:
            # src/frontend/src/session/cursor_manager.rs: "Cursor {} does not exist"
            raise Uncategorized(f'cursor "{stmt.cursor}" does not exist')
        rows: list[Sequence[object]] = []
        for row in cur.rows:
            rows.append(row)
            if stmt.count is not None and len(rows) >= stmt.count:
                break
        return Outcome(f"FETCH {len(rows)}", cur.columns, rows)

    def _close_cursor(self, stmt: st.CloseCursor, params: list[object]) -> Outcome:
        if stmt.cursor is None:
            self._cursors.clear()
        else:
            self._cursors.pop(stmt.cursor, None)
        return Outcome(stmt.tag)

    # --- job management --------------------------------------------------------------------------

    async def _cancel_jobs(self, stmt: st.CancelJobs, params: list[object]) -> Outcome:
        return await self._engine(
            stmt.tag, lambda: self.instance.engine.jobs.cancel_jobs(self._ctx(), list(stmt.job_ids))
        )

    def _kill(self, stmt: st.Kill, params: list[object]) -> Outcome:
        """KILL '<worker>:<process>' (src/frontend/src/handler/kill_process.rs:23-88)."""
        parts = stmt.process.split(":")
        try:
            if len(parts) != 2:
                raise ValueError
            worker, pid = int(parts[0]), int(parts[1])
            if worker < 0 or worker > 2**32 - 1 or not -(2**31) <= pid < 2**31:
                raise ValueError
        except ValueError:
            raise InvalidParameterValue("invalid WorkerProcessId") from None
        if worker != FRONTEND_WORKER_ID:
            raise InvalidParameterValue(f"worker {worker} not found")
        registry = self.instance.registry
        if registry is None or not registry.kill(pid):  # type: ignore[attr-defined]
            raise Uncategorized("Session not found")
        return Outcome(stmt.tag)

    async def _wait(self, stmt: st.Wait, params: list[object]) -> Outcome:
        kind = _KINDS.get(stmt.object_type) if stmt.object_type else None
        name = _engine_name(stmt.name) if stmt.name else None
        return await self._engine(
            stmt.tag, lambda: self.instance.engine.jobs.wait(self._ctx(), kind, name)
        )

    async def _flush(self, stmt: st.Flush, params: list[object]) -> Outcome:
        return await self._engine(stmt.tag, lambda: self.instance.engine.barrier.flush(self._ctx()))

    async def _recover(self, stmt: st.Recover, params: list[object]) -> Outcome:
        return await self._engine(
            stmt.tag, lambda: self.instance.engine.recovery.adhoc_recover(self._ctx())
        )

    # --- ALTER --------------------------------------------------------------------------------

    async def _alter_object(
        self, stmt: st._AlterObject, method: Callable[..., Result], *args: Any, **kw: Any
    ) -> Outcome:
        """ALTER <kind> <name> ...: the engine method takes the context, RisingWave's lower-case
        object kind and the name, then the statement's own arguments."""
        return await self._engine(
            stmt.tag,
            lambda: method(self._ctx(), stmt.kind.lower(), _engine_name(stmt.name), *args, **kw),
        )

    async def _alter_parallelism(
        self, stmt: st.AlterParallelism | st.AlterBackfillParallelism, params: list[object]
    ) -> Outcome:
        engine = self.instance.engine
        fn = (
            engine.scale.alter_parallelism
            if isinstance(stmt, st.AlterParallelism)
            else engine.scale.alter_backfill_parallelism
        )
        value = None if stmt.value.kind == "default" else stmt.value.text
        return await self._alter_object(stmt, fn, value, deferred=stmt.deferred)

    async def _alter_rate_limit(self, stmt: st.AlterRateLimit, params: list[object]) -> Outcome:
        value = None if stmt.rate_limit < 0 else stmt.rate_limit
        engine = self.instance.engine
        return await self._alter_object(
            stmt, engine.throttle.alter_rate_limit, stmt.rate_limit_type.lower(), value
        )

    async def _alter_resource_group(
        self, stmt: st.AlterResourceGroup, params: list[object]
    ) -> Outcome:
        group = None if stmt.value is None or stmt.value.kind == "default" else stmt.value.text
        engine = self.instance.engine
        return await self._alter_object(
            stmt, engine.scale.alter_resource_group, group, deferred=stmt.deferred
        )

    async def _alter_rename(self, stmt: st.AlterRename, params: list[object]) -> Outcome:
        return await self._alter_object(
            stmt, self.instance.engine.catalog.rename, stmt.new_name.name
        )

    async def _alter_swap(self, stmt: st.AlterSwap, params: list[object]) -> Outcome:
        return await self._alter_object(
            stmt, self.instance.engine.catalog.swap, _engine_name(stmt.target)
        )

    async def _alter_owner(self, stmt: st.AlterOwner, params: list[object]) -> Outcome:
        return await self._alter_object(
            stmt, self.instance.engine.catalog.alter_owner, stmt.new_owner
        )

    async def _alter_set_schema(self, stmt: st.AlterSetSchema, params: list[object]) -> Outcome:
        return await self._alter_object(
            stmt, self.instance.engine.catalog.set_schema, stmt.new_schema.name
        )

    async def _alter_database_param(
        self, stmt: st.AlterDatabaseParam, params: list[object]
    ) -> Outcome:
        value = None if stmt.value.kind == "default" else stmt.value.text
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.params.alter_database_param(
                self._ctx(), stmt.database.name, stmt.param, value
            ),
        )

    async def _alter_database_pause(
        self, stmt: st.AlterDatabasePause, params: list[object]
    ) -> Outcome:
        engine = self.instance.engine
        fn = engine.barrier.pause_database if stmt.pause else engine.barrier.resume_database
        return await self._engine(stmt.tag, lambda: fn(self._ctx(), stmt.database.name))

    async def _alter_system_pause(self, stmt: st.AlterSystemPause, params: list[object]) -> Outcome:
        engine = self.instance.engine
        fn = engine.barrier.pause_all if stmt.pause else engine.barrier.resume_all
        return await self._engine(stmt.tag, lambda: fn(self._ctx()))

    async def _alter_system(self, stmt: st.AlterSystem, params: list[object]) -> Outcome:
        value = None if stmt.value.kind == "default" else stmt.value.text
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.params.alter_system_set(self._ctx(), stmt.param, value),
        )

    async def _alter_fragment_parallelism(
        self, stmt: st.AlterFragmentParallelism, params: list[object]
    ) -> Outcome:
        value = None if stmt.value.kind == "default" else stmt.value.text
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.scale.alter_fragment_parallelism(
                self._ctx(), list(stmt.fragment_ids), value
            ),
        )

    async def _alter_fragment_rate_limit(
        self, stmt: st.AlterFragmentRateLimit, params: list[object]
    ) -> Outcome:
        value = None if stmt.rate_limit < 0 else stmt.rate_limit
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.throttle.alter_fragment_rate_limit(
                self._ctx(), list(stmt.fragment_ids), value
            ),
        )

    # --- CREATE -------------------------------------------------------------------------------

    def _table_columns(self, columns_text: str | None) -> tuple[list[ColumnSpec], list[str]]:
        schema = table_schema(columns_text)
        specs = []
        for c in schema.columns:
            oid, rw = coltypes.bind_column_type(c.type_name, c.type_text, c.array_dims)
            specs.append(
                ColumnSpec(
                    c.name,
                    oid,
                    rw,
                    is_nullable=not (c.not_null or c.primary_key or c.name in schema.primary_key),
                    default_expr=c.default,
                    generated_expr=c.generated,
                )
            )
        return specs, list(schema.primary_key)

    def _query_columns(
        self, query: str, names: Sequence[str] = ()
    ) -> tuple[list[ColumnSpec], list[int]]:
        analysis = self.instance.query.check_mv_columns(query, self._qctx(), names)
        cols = [
            ColumnSpec(c.name, c.type_oid, coltypes.rw_type_name(c.type_oid))
            for c in analysis.columns
        ]
        return cols, list(analysis.upstreams)

    async def _create_table(self, stmt: st.CreateTable, params: list[object]) -> Outcome:
        connector = dict(stmt.with_options).get("connector")
        if stmt.query is not None:
            cols, _ = self._query_columns(stmt.query)
            pk: list[str] = []
        else:
            cols, pk = self._table_columns(stmt.columns_text)
        out = await self._engine(
            stmt.tag,
            lambda: self.instance.engine.ddl.create_table(
                self._ctx(),
                _engine_name(stmt.name),
                cols,
                definition=stmt.text,
                primary_key=pk,
                if_not_exists=stmt.if_not_exists,
                append_only=stmt.append_only,
                with_options=stmt.with_options,
                connector=connector,
            ),
        )
        if stmt.query is not None and not out.notices:
            # CREATE TABLE ... AS: the table is filled with the query's rows.
            name = ".".join(f'"{p}"' for p in stmt.name.parts)
            self.instance.query.execute(f"INSERT INTO {name} {stmt.query}", [], self._qctx())
        return out

    async def _create_mv(self, stmt: st.CreateMaterializedView, params: list[object]) -> Outcome:
        cols, upstreams = self._new_query_columns(
            stmt.name, stmt.if_not_exists, stmt.query, stmt.columns
        )
        return await self._engine(stmt.tag, lambda: self._create_mv_call(stmt, cols, upstreams))

    def _create_mv_call(
        self, stmt: st.CreateMaterializedView, cols: list[ColumnSpec], upstreams: list[int]
    ) -> Result:
        return self.instance.engine.ddl.create_materialized_view(
            self._ctx(),
            _engine_name(stmt.name),
            cols,
            definition=stmt.text,
            upstream_ids=upstreams,
            if_not_exists=stmt.if_not_exists,
            with_options=stmt.with_options,
            has_values=not upstreams and re.search(r"\bVALUES\b", stmt.query, re.I) is not None,
        )

    def _new_query_columns(
        self,
        name: st.ObjectName,
        if_not_exists: bool,
        query: str,
        column_names: Sequence[str] = (),
    ) -> tuple[list[ColumnSpec], list[int]]:
        """The bound query of a CREATE ... AS; nothing when IF NOT EXISTS meets an existing
        object (the engine answers with its notice, and the query need not bind any more)."""
        if if_not_exists and self.instance.engine.catalog.lookup(self._ctx(), _engine_name(name)):
            return [], []
        return self._query_columns(query, column_names)

    async def _create_view(self, stmt: st.CreateView, params: list[object]) -> Outcome:
        cols, upstreams = self._new_query_columns(
            stmt.name, stmt.if_not_exists, stmt.query, stmt.columns
        )
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.ddl.create_view(
                self._ctx(),
                _engine_name(stmt.name),
                cols,
                definition=stmt.text,
                upstream_ids=upstreams,
                if_not_exists=stmt.if_not_exists,
            ),
        )

    async def _create_source(self, stmt: st.CreateSource, params: list[object]) -> Outcome:
        cols, _ = self._table_columns(stmt.columns_text)
        fe = stmt.format_encode
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.ddl.create_source(
                self._ctx(),
                _engine_name(stmt.name),
                cols,
                definition=stmt.text,
                with_options=stmt.with_options,
                format=fe.format if fe else None,
                row_encode=fe.encode if fe else None,
                format_encode_options=fe.options if fe else (),
                if_not_exists=stmt.if_not_exists,
            ),
        )

    async def _create_sink(self, stmt: st.CreateSink, params: list[object]) -> Outcome:
        query = stmt.query
        if query is None and stmt.from_name is not None:
            query = "SELECT * FROM " + ".".join(f'"{p}"' for p in stmt.from_name.parts)
        cols, upstreams = self._new_query_columns(
            stmt.name, stmt.if_not_exists, query or "SELECT 1"
        )
        fe = stmt.format_encode
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.ddl.create_sink(
                self._ctx(),
                _engine_name(stmt.name),
                cols,
                definition=stmt.text,
                upstream_ids=upstreams,
                with_options=stmt.with_options,
                format_encode_options=fe.options if fe else (),
                into_table=_engine_name(stmt.into_table) if stmt.into_table else None,
                if_not_exists=stmt.if_not_exists,
            ),
        )

    async def _create_index(self, stmt: st.CreateIndex, params: list[object]) -> Outcome:
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.ddl.create_index(
                self._ctx(),
                _engine_name(stmt.name),
                _engine_name(stmt.table),
                definition=stmt.text,
                key_columns=list(stmt.columns),
                include_columns=list(stmt.include) if stmt.include else None,
                if_not_exists=stmt.if_not_exists,
            ),
        )

    async def _create_schema(self, stmt: st.CreateSchema, params: list[object]) -> Outcome:
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.catalog.create_schema(
                self._ctx(), stmt.name.name, if_not_exists=stmt.if_not_exists, owner=stmt.owner
            ),
        )

    async def _create_database(self, stmt: st.CreateDatabase, params: list[object]) -> Outcome:
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.catalog.create_database(
                self._ctx(), stmt.name.name, if_not_exists=stmt.if_not_exists
            ),
        )

    async def _create_user(self, stmt: st.CreateUser, params: list[object]) -> Outcome:
        opts = _user_options(stmt.text)
        password = opts.get("password")
        stored = encrypted_password(stmt.user, password) if isinstance(password, str) else None
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.users.create_user(
                self._ctx(),
                stmt.user,
                superuser=opts.get("superuser", False) is True,
                create_db=opts.get("createdb", False) is True,
                create_user=opts.get("createuser", False) is True,
                login=opts.get("login", True) is True,
                auth_type=stored.auth_type if stored else None,
                auth_value=stored.value if stored else None,
            ),
        )

    async def _alter_user(self, stmt: st.AlterUser, params: list[object]) -> Outcome:
        if re.search(r"(?i)\bRENAME\s+TO\b", stmt.text):
            raise NotImplementedError_("AlterUser")
        opts = _user_options(stmt.text)
        flags = {k: v is True for k, v in opts.items() if k != "password"}
        auth: tuple[str | None, str | None] | None = None
        if "password" in opts:
            password = opts["password"]
            stored = encrypted_password(stmt.user, password) if isinstance(password, str) else None
            auth = (stored.auth_type, stored.value) if stored else (None, None)
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.users.alter_user(
                self._ctx(), stmt.user, flags=flags, auth=auth
            ),
        )

    # --- DROP / COMMENT -------------------------------------------------------------------------

    async def _drop(self, stmt: st.Drop, params: list[object]) -> Outcome:
        notices: list[str] = []
        for name in stmt.names:
            out = await self._engine(stmt.tag, lambda n=name: self._drop_one(stmt, n))  # type: ignore[misc]
            notices.extend(out.notices)
        return Outcome(stmt.tag, notices=notices)

    def _drop_one(self, stmt: st.Drop, name: st.ObjectName) -> Result:
        engine, ctx = self.instance.engine, self._ctx()
        if stmt.object_type == "DATABASE":
            return engine.catalog.drop_database(ctx, name.name, if_exists=stmt.if_exists)
        if stmt.object_type == "SCHEMA":
            return engine.catalog.drop_schema(
                ctx, name.name, if_exists=stmt.if_exists, cascade=stmt.cascade
            )
        if stmt.object_type == "USER":
            return engine.users.drop_user(ctx, name.name, if_exists=stmt.if_exists)
        if stmt.object_type in _KINDS:
            return engine.ddl.drop_relation(
                ctx,
                _KINDS[stmt.object_type],
                _engine_name(name),
                if_exists=stmt.if_exists,
                cascade=stmt.cascade,
            )
        raise NotImplementedError_(f"DROP {stmt.object_type}")

    async def _comment(self, stmt: st.Comment, params: list[object]) -> Outcome:
        target = stmt.target
        column: str | None = None
        if stmt.object_type == "COLUMN":
            column = target.name
            target = st.ObjectName(target.parts[:-1])
        rel = self.instance.engine.catalog.lookup(self._ctx(), _engine_name(target))
        if rel is None:
            from rwshim.errors import CatalogNotFound

            raise CatalogNotFound("table", target.name)
        return await self._engine(
            stmt.tag,
            lambda: self.instance.engine.catalog.comment_on(
                self._ctx(), rel.id, column, stmt.comment
            ),
        )

    # --- privileges -----------------------------------------------------------------------------

    def require_superuser(self, what: str) -> None:
        if not self.is_superuser:
            raise PermissionDenied(what)


_USER_OPTION = re.compile(
    r"\b(NOSUPERUSER|SUPERUSER|NOCREATEDB|CREATEDB|NOCREATEUSER|CREATEUSER|NOLOGIN|LOGIN)\b"
    r"|\bPASSWORD\s+(NULL|'(?:[^']|'')*')",
    re.IGNORECASE,
)


def _deadline(
    instance: Instance, rows: Iterable[Sequence[object]], deadline: float, seconds: int
) -> Iterator[Sequence[object]]:
    """``rows`` until ``deadline`` (time.monotonic), then RisingWave's batch timeout.  Rows
    are produced while the session streams them, so the clock runs over the whole answer;
    while SQLite works on the next row, its progress handler watches the same deadline."""
    it = iter(rows)
    while True:
        instance.deadline = deadline
        try:
            row = next(it)
        except StopIteration:
            return
        except RwError:
            if time.monotonic() > deadline:
                raise QueryTimeout(seconds) from None
            raise
        finally:
            instance.deadline = math.inf
        yield row


def _user_options(text: str) -> dict[str, object]:
    """CREATE USER options (parser.rs parse_create_user / UserOption)."""
    opts: dict[str, object] = {}
    for m in _USER_OPTION.finditer(text):
        if m.group(1):
            word = m.group(1).lower()
            if word.startswith("no"):
                opts[word[2:]] = False
            else:
                opts[word] = True
        else:
            pw = m.group(2)
            opts["password"] = None if pw.upper() == "NULL" else pw[1:-1].replace("''", "'")
    return opts
