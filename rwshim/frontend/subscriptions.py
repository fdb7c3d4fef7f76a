"""CREATE SUBSCRIPTION, ALTER SUBSCRIPTION ... SET RETENTION, and subscription cursors
(DECLARE ... SUBSCRIPTION CURSOR, their FETCH, SHOW SUBSCRIPTION CURSORS): the statements
handed to ``engine.subscriptions`` and the change logs of ``rwshim.dataplane.changelog``.

RisingWave: ``src/frontend/src/handler/create_subscription.rs``,
``alter_subscription_retention.rs``, ``declare_cursor.rs`` (handle_declare_subscription_cursor
:57-104, check_cursor_unix_millis :106-122), ``fetch_cursor.rs`` (handle_fetch_cursor: the
``timeout`` option), ``show.rs`` (ShowSubscriptionCursorRow :460-474, ShowCursorRow
:448-458), ``src/frontend/src/session/cursor_manager.rs``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common.outcome import Column, Outcome
from rwshim.dataplane import changes
from rwshim.dataplane.changes import epoch_to_ms, ms_to_epoch
from rwshim.engine.retention import interval_seconds
from rwshim.errors import InternalError, NotImplementedError_
from rwshim.frontend.common import Handler, engine_name, refuse_unparsed
from rwshim.frontend.frontend import Frontend
from rwshim.frontend.sub_cursor import SubscriptionCursor, catalog_error
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.dataplane.changelog import ChangeLog
    from rwshim.instance import Process

FRONTEND_WORKER_ID = 0


def _log(fe: Frontend) -> ChangeLog:
    return fe.instance.changelog


async def handle_create_subscription(
    fe: Frontend, stmt: st.CreateSubscription, params: list[object]
) -> Outcome:
    subs = fe.instance.engine.subscriptions
    name = engine_name(stmt.name, fe.database)
    out = await fe.engine_call(
        stmt.tag,
        lambda: subs.create(
            fe.ctx(),
            name,
            engine_name(stmt.from_name, fe.database),
            stmt.with_options,
            stmt.text,
            if_not_exists=stmt.if_not_exists,
        ),
    )
    if not out.notices:
        # the change log starts now: DML after the CREATE is what its cursors see
        found = subs.find(fe.ctx(), name)
        if found is not None:
            await _log(fe).install(found.dependent_table_id)
    return out


async def handle_alter_retention(
    fe: Frontend, stmt: st.AlterRetention, params: list[object]
) -> Outcome:
    refuse_unparsed(fe, stmt, "RETENTION")
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.subscriptions.alter_retention(
            fe.ctx(), engine_name(stmt.name, fe.database), stmt.retention
        ),
    )


# --- cursors ---------------------------------------------------------------------------


async def handle_declare(
    fe: Frontend, stmt: st.DeclareSubscriptionCursor, params: list[object]
) -> Outcome:
    engine = fe.instance.engine
    sub = engine.subscriptions.get(fe.ctx(), engine_name(stmt.subscription, fe.database))
    log = _log(fe)
    up = log.upstream(sub.dependent_table_id)
    if up is None:
        raise InternalError(f"table id {sub.dependent_table_id} has been dropped")
    now_ms = engine.meta.clock.now_ms()
    cursor = SubscriptionCursor([], iter(()), stmt.cursor, sub, up)
    if stmt.since == "ms":
        ms = stmt.since_ms or 0
        if ms > now_ms:
            raise catalog_error(
                "rw_timestamp is too large, need to be less than the current unix_millis"
            )
        if ms < now_ms - sub.retention_seconds * 1000:
            raise catalog_error(
                "rw_timestamp is too small, need to be large than the current unix_millis"
                " - subscription's retention time"
            )
        cursor.seek = ms_to_epoch(ms)
    elif stmt.since == "now":
        cursor.seek = ms_to_epoch(now_ms)
    elif stmt.since == "begin":
        created_ms = epoch_to_ms(sub.created_epoch)
        cursor.seek = ms_to_epoch(max(now_ms - sub.retention_seconds * 1000, created_ms))
    else:
        epoch, rows = await log.snapshot(up)
        cursor.from_snapshot = True
        cursor.current = epoch
        cursor.buffer.extend((changes.INSERT, r, None) for r in rows)
    cursor.need_drop_at = time.monotonic() + sub.retention_seconds
    cursor.columns, _ = await _render(fe, log, cursor, [])
    if stmt.cursor in fe.cursors:
        raise catalog_error(f"cursor `{stmt.cursor}` already exists")
    fe.cursors[stmt.cursor] = cursor
    return Outcome(stmt.tag)


async def _render(
    fe: Frontend,
    log: ChangeLog,
    cursor: SubscriptionCursor,
    rows: list[tuple[str, changes.Row, int | None]],
) -> tuple[list[Column], list[tuple[object, ...]]]:
    from rwshim.dataplane.rows import decoded_rows as _decoded_rows

    assert cursor.upstream is not None
    fields, res = await log.render(cursor.upstream, rows)
    cols, decoders = await fe.data_session().columns(fields)
    # op is varchar, rw_timestamp bigint (FieldsManager::new)
    cols[-2] = Column("op", pgtypes.VARCHAR, pgtypes.type_size(pgtypes.VARCHAR))
    return cols, _decoded_rows([res], decoders)


async def fetch(fe: Frontend, cursor: SubscriptionCursor, stmt: st.FetchCursor) -> Outcome:
    """handle_fetch_cursor for a subscription cursor."""
    opts = {k.lower(): v for k, v in stmt.with_options}
    if len(opts) > 1 or (opts and "timeout" not in opts):
        raise NotImplementedError_("only `timeout` is supported in with options")
    timeout = interval_seconds(opts["timeout"]) if "timeout" in opts else None
    log = _log(fe)
    rows = await cursor.fetch(fe, log, stmt.count, timeout)
    cols, out = await _render(fe, log, cursor, rows)
    cursor.columns = cols
    return Outcome(f"FETCH {len(out)}", cols, out)


def fetch_options_refused(stmt: st.FetchCursor) -> None:
    """A query cursor takes no WITH options either (fetch_cursor.rs:83-96 reads them first)."""
    opts = {k.lower() for k, _ in stmt.with_options}
    if len(opts) > 1 or (opts and "timeout" not in opts):
        raise NotImplementedError_("only `timeout` is supported in with options")


def subscription_cursor_rows(fe: Frontend) -> tuple[list[Column], list[tuple[object, ...]]]:
    """SHOW SUBSCRIPTION CURSORS (show.rs:821-831, :969-1044): every session's."""
    names = ("Worker Id", "Session Id", "User", "Host", "Database", "Cursor Name",
             "Subscription Name", "State", "Idle Duration Ms", "Info")  # fmt: skip
    cols = [Column(n, pgtypes.INT8 if n == "Idle Duration Ms" else pgtypes.VARCHAR) for n in names]
    rows: list[tuple[object, ...]] = []
    for session_fe, process in _sessions(fe):
        for name, cur in session_fe.cursors.items():
            if isinstance(cur, SubscriptionCursor) and cur.subscription is not None:
                rows.append(
                    (str(FRONTEND_WORKER_ID), str(process.pid), process.user,
                     process.client_addr, process.database, name, cur.subscription.name,
                     cur.state_text(), cur.idle_seconds(), None)
                )  # fmt: skip
    return cols, rows


def cursor_rows(fe: Frontend) -> tuple[list[Column], list[tuple[object, ...]]]:
    """SHOW CURSORS (show.rs:811-820, :1046-1100): every session's query cursors."""
    names = ("Worker Id", "Session Id", "User", "Host", "Database", "Cursor Name", "Info")
    cols = [Column(n, pgtypes.VARCHAR) for n in names]
    rows: list[tuple[object, ...]] = []
    for session_fe, process in _sessions(fe):
        for name, cur in session_fe.cursors.items():
            if not isinstance(cur, SubscriptionCursor):
                rows.append(
                    (str(FRONTEND_WORKER_ID), str(process.pid), process.user,
                     process.client_addr, process.database, name, None)
                )  # fmt: skip
    return cols, rows


def _sessions(fe: Frontend) -> list[tuple[Frontend, Process]]:
    """Every live session's frontend and process (only this one's without a server).  A
    session's frontend is typed ``object`` by the instance, a layer below: narrowed here."""
    registry = fe.instance.registry
    out: list[tuple[Frontend, Process]] = []
    if registry is not None:
        for s in registry.sessions():
            front = s.frontend
            if isinstance(front, Frontend):
                out.append((front, s.process))
    elif fe.process is not None:
        out.append((fe, fe.process))
    return out


HANDLERS: dict[type[st.Statement], Handler] = {
    st.CreateSubscription: handle_create_subscription,
    st.AlterRetention: handle_alter_retention,
    st.DeclareSubscriptionCursor: handle_declare,
}
