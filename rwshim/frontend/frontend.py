"""The frontend of one connection: its session state (user, database, variables,
transaction status, cursors), the contexts the engine and the read path take, what the meta
store needs around each statement (``StatementScope``, so that the protocol session never
reaches the store), and the dispatch of typed statements to the handler modules, as
RisingWave's ``handle()`` does (src/frontend/src/handler/mod.rs).  What each statement does is
its handler's business:

- ``query``: SELECT, DML, cursors;
- ``variables``: SET, SHOW <variable>, transactions;
- ``use_db``: USE <database> (and SET database);
- ``show``: SHOW <objects>, SHOW CREATE, DESCRIBE;
- ``explain``: EXPLAIN, DESCRIBE FRAGMENTS, DESCRIBE FRAGMENT;
- ``create``: CREATE TABLE | MATERIALIZED VIEW | VIEW | SOURCE | SINK | INDEX | SCHEMA |
  DATABASE;
- ``secrets``: CREATE / ALTER SECRET and CONNECTION (their DROP is ``drop``'s);
- ``users``: CREATE / ALTER USER;
- ``privilege``: GRANT, REVOKE, ALTER DEFAULT PRIVILEGES;
- ``alter``: ALTER on jobs, relations, databases, the system, fragments;
- ``drop``: DROP, COMMENT ON;
- ``jobs``: CANCEL JOBS, KILL, WAIT, FLUSH, RECOVER;
- ``maintenance``: REFRESH TABLE, VACUUM, BACKUP, ALTER COMPACTION GROUP, and
  RisingWave's unhandled TRUNCATE / ANALYZE / EXECUTE;
- ``rwshim.control.statements``: rwshim's test-control statements.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from rwshim import logfmt
from rwshim.binder.context import QueryContext, parse_search_path
from rwshim.common.acl import UserAcl
from rwshim.common.names import quoted
from rwshim.common.outcome import Column, Outcome, Rows
from rwshim.common.session_config import SessionConfig, table_for
from rwshim.control import statements as ctl
from rwshim.engine import Context, Waiter
from rwshim.engine.types import Result
from rwshim.errors import (
    BindError,
    BindExprError,
    CastError,
    FatalError,
    InternalError,
    InvalidReference,
    ItemNotFound,
    NoFunction,
    NotImplementedError_,
    PermissionDenied,
    RwError,
    SqlParserError,
    StartupOptionError,
    StoreWriteFailed,
    VariantKeyError,
)
from rwshim.frontend import dispatch, query
from rwshim.frontend.common import Cursor, read_only_refusal, waiter_future
from rwshim.instance import Instance, Process
from rwshim.lazy import lazy_module
from rwshim.sql import check_with_options
from rwshim.sql import parse as sql_parse
from rwshim.sql import statements as st
from rwshim.sql.errors_text import expected_error
from rwshim.store.store import WRITES_DENIED, WriteRefusal

if TYPE_CHECKING:
    from rwshim.catalog_path.system_catalogs.show import ShowContext
    from rwshim.dataplane.plane import Planned
    from rwshim.dataplane.rerun import Quick
    from rwshim.dataplane.session import DataSession, SessionState
    from rwshim.frontend import explain
else:
    explain = lazy_module("rwshim.frontend.explain")

Statement = st.Statement

# A secret's value is never written to the log (RisingWave redacts statements it logs,
# pg_protocol.rs:204-245): CREATE / ALTER SECRET lose everything after AS.
# (a pattern text: compiled by ``re`` on the first statement logged, not at start-up)
_SECRET_STATEMENT = r"(?is)^(\s*(?:create|alter)\s+secret\b.*?\bAS\b).*$"


def loggable(sql: str) -> str:
    """``sql`` as the statement log may show it."""
    return re.sub(_SECRET_STATEMENT, r"\1 <redacted>", sql)


def answered_kinds() -> frozenset[str]:
    """The statement kinds a frontend has a handler for (the rest answer ``Feature is not yet
    implemented: <kind>``), for SUPPORTED.md: the handler modules' and the control
    statements."""
    kinds = {cls.__name__ for module in dispatch.handler_modules() for cls in module.HANDLERS}
    kinds |= {c.__name__ for c in st.all_statement_classes() if c.OWNER == "control"}
    return frozenset(kinds)


class Description(Struct, frozen=True):
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


def connect_check(instance: Instance, user: str, database: str) -> tuple[int, int]:
    """SessionManagerImpl::connect / connect_inner (src/frontend/src/session.rs:1580-1680),
    which run before any password exchange: the database must exist, then the user, who must
    be allowed to log in and, unless a superuser or the database's owner, hold CONNECT on it.
    Returns (database id, user id)."""
    db = instance.catalog_reader.database_by_name(database)
    if db is None:
        # session.rs:1587 get_database_by_name -> CatalogError NotFound (3D000).
        raise FatalError("Catalog error", f"database not found: {database}", sqlstate="3D000")
    database_id, owner = db.id, db.owner_id
    engine = instance.engine
    uid = engine.users.user_id(user)
    if uid is None:
        # session.rs:1780 bail_catalog_error!("Role {} does not exist"); SQLSTATE 28000 is
        # PostgreSQL's (RisingWave sends XX000), kept so drivers classify it as auth.
        raise FatalError("Catalog error", f"Role {user} does not exist", sqlstate="28000")
    can_login = engine.meta.val("SELECT can_login FROM rw_user WHERE user_id = ?", (uid,))
    if not can_login:
        # session.rs:1669-1670
        raise PermissionDenied(f"User {user} is not allowed to login")
    acl = engine.privileges.user_acl(uid)
    is_super = acl is not None and acl.is_super
    if not is_super and owner != uid and not (acl and acl.has_privilege(database_id, "CONNECT")):
        # session.rs:1672-1674
        raise PermissionDenied("User does not have CONNECT privilege.")
    return database_id, uid


class StatementScope:
    """What the meta store needs around each statement a session executes (the session calls
    it; what it does is the store's business, rwshim/store/store.py): ``begin`` before it,
    ``done`` after it, before it is acknowledged, and ``failed`` for what it raised.  One per
    frontend: it reads the instance's store at each call (a restart reopens the store)."""

    __slots__ = ("_instance",)

    def __init__(self, instance: Instance) -> None:
        self._instance = instance

    def begin(self, stmt: Statement) -> None:
        """Before a statement that may write: no session may hold a read open on the store
        (a query only reads, and needs nothing)."""
        if not isinstance(stmt, st.Query):
            self._instance.store.release_readers()

    def done(self) -> None:
        """After a statement, before its acknowledgement: a write transaction it left open
        was never committed (its commit failed, the disk is full); roll it back and answer
        with the failure (raised) instead of the command tag.  What it committed is on disk
        before it is answered: while another session's DDL holds the store's commits at
        NORMAL (``Store.deferred_sync``), a write outside a DDL (BACKUP, ...) was not synced
        at its COMMIT."""
        store = self._instance.store
        if store.settle():
            raise StoreWriteFailed(store.written_file(), disk_full=False)
        store.flush()

    def failed(self, e: Exception) -> RwError | None:
        """The error a client sees for ``e``: the store's write failure when that is what
        ``e`` came from, else ``e`` when it is one of RisingWave's errors; None for any other
        exception (the session answers a generic internal error and logs it)."""
        store = self._instance.store
        store.settle()
        failure = store.write_failure(e)
        if failure is not None:
            return failure
        return e if isinstance(e, RwError) else None


# statement classes whose handlers write the catalog or the users
_WRITERS = ("Create", "Drop", "Alter", "Grant", "Revoke", "Comment")


class Frontend:
    """SQL semantics of one connection."""

    def __init__(
        self,
        instance: Instance,
        user: str,
        database: str,
        options: Mapping[str, str] | None = None,
        process: Process | None = None,
    ) -> None:
        self.instance = instance
        self.user = user
        self.database = database
        self.process = process
        self.txn_status = "I"
        # in ``START TRANSACTION READ ONLY``: writes refused (session/transaction.rs:252-275)
        self.txn_read_only = False
        self.parameter_changes: list[tuple[str, str]] = []
        self.cursors: dict[str, Cursor] = {}
        engine = instance.engine
        self.database_id, self.user_id = connect_check(instance, user, database)
        self.config = SessionConfig(
            defaults=dict(engine.params.session_defaults()),
            table=table_for(instance.release),
        )
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
        self._acl: UserAcl | None = None
        self._acl_key: tuple[int, int] | None = None
        self._data: DataSession | None = None
        # Filled a handler module at a time, on the first statement of each (dispatch.py).
        self._handlers: dict[type[st.Statement], Callable[..., Any]] = {}
        self._scope = StatementScope(instance)

    # --- contexts -------------------------------------------------------------------------

    @property
    def timezone(self) -> str:
        return self.config.get("timezone")

    @property
    def is_superuser(self) -> bool:
        acl = self.acl()
        return acl is not None and acl.is_super

    def acl(self) -> UserAcl | None:
        """The session's user and privileges as the frontend's user catalog holds them
        (reloaded whenever the engine says privileges or users changed); None if the user was
        dropped."""
        meta = self.instance.engine.meta
        key = (id(meta), meta.acl_version)
        if key != self._acl_key:
            self._acl = self.instance.engine.privileges.user_acl(self.user_id)
            self._acl_key = key
            self._qctx_cache = None
        return self._acl

    def ctx(self) -> Context:
        """The engine's view of the session: database, user, variables."""
        return Context(self.database_id, self.user_id, self._variables)

    def query_context(self) -> QueryContext:
        """The read path's view of the session."""
        # Built once per change of the session's variables or of privileges: it is on the
        # per-query path.  Its ACL makes the read path check privileges (rwshim.common.acl); a
        # dropped
        # user's session checks against an ACL that holds nothing.
        acl = self.acl()
        ctx = self._qctx_cache
        if ctx is None:
            ctx = self._qctx_cache = QueryContext(
                self.database_id,
                self.database,
                self.user_id,
                self.user,
                parse_search_path(self.config.get("search_path")),
                dict(self._variables.items()),
                acl is not None and acl.is_super,
                acl or UserAcl(self.user_id, self.user, False),
                session_id=self._pid(),
            )
        return ctx

    def _pid(self) -> int:
        """The connection's process id, for the statement log (0: a frontend of no
        connection)."""
        return 0 if self.process is None else self.process.pid

    def move_to_database(self, database: str, database_id: int) -> None:
        """USE: the session's database changes (session.rs update_database); what it sees
        follows (contexts, SHOW PROCESSLIST)."""
        self.database = database
        self.database_id = database_id
        if self.process is not None:
            self.process.database = database
        self.settings_changed()

    def settings_changed(self) -> None:
        """A SET changed the session's variables: the read path's context is rebuilt."""
        self._qctx_cache = None

    def show_context(self) -> ShowContext:
        """The catalog's SHOW/DESCRIBE view of the session."""
        # imported with the first SHOW: the SHOW handlers' module, not SELECT 1's
        from rwshim.catalog_path.system_catalogs.show import ShowContext

        self.instance.query.use_context(self.query_context())
        return ShowContext(
            self.database_id, self.user_id, self.user, self.config.get("search_path")
        )

    # --- the session's interface -----------------------------------------------------------

    def parse(self, sql: str) -> list[Statement]:
        """Split and parse a query string; raises RwError on bad syntax."""
        try:
            try:
                return sql_parse(sql)
            except SqlParserError as e:
                raise self._release_parse_error(e) from None
        except RwError as e:
            if logfmt.statement_log.isEnabledFor(logging.DEBUG):
                logfmt.statement_log.debug(
                    logfmt.line(
                        "statement", pid=self._pid(), user=self.user,
                        db=self.database, kind="unparsed", ok=False, sqlstate=e.code,
                        sql=loggable(sql)[:500],
                    )
                )  # fmt: skip
            raise

    def _release_parse_error(self, e: SqlParserError) -> SqlParserError:
        """``e`` as the release's parser words it (Release.parse_expected)."""
        if e.relocate is None:
            return e
        sig, sql, found = e.relocate
        what = self.instance.release.parse_expected(sig)
        return e if what is None else expected_error(sql, found, what)

    def describe(
        self, stmt: Statement, param_oids: list[int]
    ) -> Description | Awaitable[Description]:
        """Parameter types and result columns; for a data statement, an awaitable (PostgreSQL
        parses and describes it)."""
        if isinstance(stmt, (st.Query, st.Insert, st.Update, st.Delete)):
            if isinstance(stmt, st.Query) and query.SLEEP.match(stmt.text):
                return Description([], query.sleep_columns())
            planned = self.data_plan(stmt.text)
            if planned is not None:
                return self._describe_data(planned, param_oids)
            d = self.instance.query.describe(stmt.text, param_oids, self.query_context())
            return Description(list(d.param_oids), d.columns)
        if type(stmt).OWNER == "control":
            return Description(list(param_oids), ctl.columns(stmt))
        if isinstance(stmt, st.FetchCursor):
            cur = self.cursors.get(stmt.cursor)
            return Description(list(param_oids), cur.columns if cur else None)
        if isinstance(stmt, st.Explain | st.DescribeFragment):
            return Description(list(param_oids), explain.PLAN_COLUMN)
        if isinstance(stmt, (st.ShowObjects, st.ShowVariable, st.ShowCreate, st.Describe)):
            show_handler = self._handler(type(stmt))
            assert show_handler is not None
            out = show_handler(stmt, [])
            assert isinstance(out, Outcome)
            return Description(list(param_oids), out.columns)
        return Description(list(param_oids), None)

    async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
        if not logfmt.statement_log.isEnabledFor(logging.DEBUG):
            return await self._execute(stmt, params)
        started = time.perf_counter()
        fields: dict[str, object] = {
            "pid": self._pid(),
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
                logfmt.line("statement", **fields, ms=f"{ms:.2f}", sql=loggable(stmt.text)[:500])
            )

    async def _execute(self, stmt: Statement, params: list[object]) -> Outcome:
        handler = self._handler(type(stmt))
        if handler is None:
            raise NotImplementedError_(type(stmt).__name__)
        # HandlerArgs::new reads the WITH clause before any handler runs
        # (src/frontend/src/handler/mod.rs:236-243, utils/with_options.rs:537-651).
        check_with_options(stmt)
        # only the statements that write the catalog or the users (RisingWave's
        # catalog_writer / user_info_writer): a query's own bookkeeping is no user write
        guarded = self.txn_read_only and type(stmt).__name__.startswith(_WRITERS)
        refusal = WriteRefusal(read_only_refusal()) if guarded else None
        token = WRITES_DENIED.set(refusal) if refusal is not None else None
        try:
            out = handler(stmt, params)
            if isinstance(out, Awaitable):
                out = await out
        finally:
            if refusal is not None and token is not None:
                refusal.error = None  # a task the statement started writes freely from now
                WRITES_DENIED.reset(token)
        assert isinstance(out, Outcome)
        return out

    def statement_scope(self) -> StatementScope:
        """What runs around each statement the session executes (the meta store's readers,
        its open transaction, its sync, its write failures): the session calls it, and so
        never reaches into the store itself."""
        return self._scope

    def close(self) -> None:
        self.cursors.clear()
        if self._data is not None:
            self._data.close_now()
            self._data = None

    # --- the data plane -------------------------------------------------------------------

    def data_plan(self, text: str) -> Planned | None:
        """How ``text`` runs on PostgreSQL, or None when it runs in process (constants,
        catalog-only queries)."""
        # SELECT 1-style constants take the in-process fast path, not even parsed for routing
        if self.instance.query.is_constant(text):
            return None
        from rwshim.dataplane.plan.checks import QualifiedFunction, UnknownFunction

        ctx = self.query_context()
        try:
            planned = self.instance.data.plan(text, ctx, self._answer_in_process(ctx))
        except (UnknownFunction, QualifiedFunction) as e:
            # RisingWave's whole text names the argument types: the in-process binder's
            raise self._explain(text, ctx) or e from None
        shape = planned.routed.shape if planned is not None else None
        if shape is not None and not self.instance.release.variant_type:
            from rwshim.frontend import variant_rules

            try:
                variant_rules.refuse_in_query(
                    self.instance.release.key,
                    shape.func_names,
                    [r.names[-1] for r in shape.type_refs],
                )
            except RwError as e:
                # the binder's text names the argument types, as the release's binder does
                raise self._explain(text, ctx) or e from None
        if planned is not None and planned.settings:
            # set_config(name, value, false): RisingWave's binder sets the variable whenever
            # it binds the statement (builtin_scalar.rs:621-661); a cached plan sets it again
            self.apply_settings(planned.settings)
        return planned

    def _answer_in_process(self, ctx: QueryContext) -> Callable[[str], tuple[int, object]]:
        """The session's answer of a catalog or session function RisingWave evaluates in its
        frontend (has_table_privilege, pg_get_userbyid, pg_backend_pid, ...: expr/
        function_impl/), for the data plane's text (dataplane/plan/guard.py): the catalog
        path's answer of ``SELECT <call>`` under this session's context, rwshim's catalog."""

        def answer(call: str) -> tuple[int, object]:
            out = self.instance.query.execute(f"SELECT {call}", [], ctx)
            cols = out.columns or []
            rows = list(out.rows)  # type: ignore[arg-type]
            if len(cols) != 1 or len(rows) != 1:  # pragma: no cover - one call, one row
                raise InternalError(f"in-process answer of {call}")
            return cols[0].type_oid, rows[0][0]

        return answer

    def apply_settings(self, settings: Sequence[tuple[str, str]]) -> None:
        """Set session variables as SET does (its checks and errors), for set_config."""
        if not settings:
            return
        for name, value in settings:
            self.config.set(name, value)
        self.settings_changed()
        self.parameter_changes.extend(self.config.parameter_status_changes())

    def data_session(self) -> DataSession:
        """This session's side of the data plane (its connection opens on first use)."""
        if self._data is None:
            from rwshim.dataplane.session import DataSession

            self._data = DataSession(self.instance.data, self._explain, self._catalog_rows)
        return self._data

    def data_state(self) -> SessionState:
        from rwshim.dataplane.session import SessionState

        return SessionState(
            self.query_context(),
            self.timezone,
            self.instance.query.state.version,
            self.config.statement_timeout_ms,
        )

    def quick_of(self, rows: object, columns: Sequence[Column]) -> Quick | None:
        """A kept run of the data query whose rows were just read to their end
        (dataplane/rerun.py), or None."""
        data = self._data
        return None if data is None else data.quick_of(rows, columns)

    async def run_quick(
        self,
        kept: Quick,
        params: Sequence[object],
        out: list[bytes],
        flush: Callable[[], Awaitable[None]],
        flush_at: int,
    ) -> int | None:
        """Run a kept data query (dataplane/rerun.py): the number of DataRows appended to
        ``out``; None when it no longer holds (nothing was sent; the full path answers)."""
        data = self._data
        if data is None or self.parameter_changes or self.instance.commits_pending:
            return None  # (the full path waits for the barriers' commits first)
        from rwshim.dataplane import rerun as quick

        if not quick.holds(data, kept, self.query_context(), self.timezone):
            return None
        timeout = query.timeout_ms(self)
        return await quick.run(data, kept, params, timeout, out, flush, flush_at)

    async def _describe_data(self, planned: Planned, param_oids: list[int]) -> Description:
        params, cols = await self.data_session().describe(planned, self.data_state(), param_oids)
        return Description(params, cols)

    def _explain(self, text: str, ctx: QueryContext) -> RwError | None:
        """The in-process binder's RisingWave text for a statement PostgreSQL refused with a
        binder-class error (unknown column or function...), if it has one."""
        try:
            self.instance.query.describe(text, [], ctx)
        except (
            BindExprError,
            ItemNotFound,
            InvalidReference,
            NoFunction,
            BindError,
            CastError,
            VariantKeyError,
        ) as e:
            return e
        except RwError:
            return None
        return None

    def _catalog_rows(
        self, schema: str, name: str, ctx: QueryContext
    ) -> tuple[list[Column], list[Sequence[object]]]:
        """A catalog relation's rows as the in-process path reads them (for a snapshot)."""
        from rwshim.catalog_path.system_catalogs import RELATIONS

        rel = RELATIONS[(schema, name)]
        cols = ", ".join(quoted(c.name) for c in rel.columns)
        out = self.instance.query.execute(f'SELECT {cols} FROM "{schema}"."{name}"', [], ctx)
        rows = out.rows
        assert not isinstance(rows, AsyncIterator)
        return list(out.columns or []), list(rows)

    def release_reads(self) -> None:
        """Read the rest of every DECLAREd cursor into memory: an open cursor keeps a SQLite
        statement active, which makes other sessions' DROP TABLE fail (outcome.Rows)."""
        for cursor in self.cursors.values():
            if isinstance(cursor.rows, Rows):
                cursor.rows.materialise()

    # --- dispatch ---------------------------------------------------------------------------

    def _handler(self, cls: type[st.Statement]) -> Callable[..., Any] | None:
        """The handler of statement kind ``cls``, binding its module's (or the control
        statements') handlers to this session the first time one of them is asked for."""
        found = self._handlers.get(cls)
        if found is not None:
            return found
        if cls.OWNER == "control":
            self._handlers.update(ctl.handlers(self))
        else:
            name = dispatch.MODULE_OF.get(cls.__name__)
            if name is None:
                return None
            for kind, fn in dispatch.module(name).HANDLERS.items():
                self._handlers[kind] = functools.partial(fn, self)
        return self._handlers.get(cls)

    # --- engine results ---------------------------------------------------------------------

    async def engine_call(self, tag: str, fn: Callable[[], Result]) -> Outcome:
        """Run one engine operation, await its barrier wait, and refresh the read path.  Its
        commits (a CREATE's three, with the barrier's) reach the disk together before it is
        answered (Store.deferred_sync)."""
        with self.instance.engine.store.deferred_sync():
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
            fut = waiter_future(waiter)
            try:
                await fut
            except asyncio.CancelledError:
                # A cancelled foreground CREATE cancels its job, as RisingWave's
                # cancel_queries_in_session + creating_streaming_job_tracker do.
                engine = self.instance.engine
                if job_id is not None and engine.catalog.job_status(job_id) is not None:
                    with contextlib.suppress(RwError):
                        engine.jobs.cancel_jobs(self.ctx(), [job_id])
                    self.instance.query.invalidate()
                raise
        waiter.result()
