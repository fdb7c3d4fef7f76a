"""Queries and DML, with statement_timeout over the whole answer, and the session's cursors
(DECLARE, FETCH, CLOSE).  A statement that reads or writes user data runs on the PostgreSQL
data plane (rwshim/dataplane: this session's connection); constants and catalog-only queries
run in process.

RisingWave: ``src/frontend/src/handler/query.rs``, ``handler/declare_cursor.rs``,
``fetch_cursor.rs``, ``close_cursor.rs``, ``src/frontend/src/session/cursor_manager.rs``,
``src/frontend/src/session.rs:1451-1457`` and ``src/common/src/config/batch.rs:122-125``
(the batch timeout).
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from rwshim.common import pgtypes
from rwshim.common.names import resolve_schema_qualified_name
from rwshim.common.outcome import Column, Outcome, Rows
from rwshim.errors import (
    InternalError,
    NotImplementedError_,
    QueryTimeout,
    RwError,
)
from rwshim.frontend.common import Cursor, Handler, do_flush, read_only_refusal
from rwshim.instance import Instance
from rwshim.sql import statements as st

if TYPE_CHECKING:
    from rwshim.dataplane.plane import Planned
    from rwshim.frontend.frontend import Frontend

# SELECT pg_sleep(n): the one query that waits on the session's loop (and so can be cancelled
# or time out without blocking other sessions).
SLEEP = re.compile(r"^\s*select\s+pg_sleep\s*\(\s*([0-9.]+)\s*\)\s*$", re.IGNORECASE)


def sleep_columns() -> list[Column]:
    """The result columns of SELECT pg_sleep(n)."""
    return [Column("pg_sleep", pgtypes.VOID, 4)]


def timeout_ms(fe: Frontend) -> int:
    """statement_timeout, or the batch default (1 hour) when it is 0
    (session.rs:1451-1457, config/batch.rs:122-125)."""
    return fe.config.statement_timeout_ms or 3600 * 1000


async def handle_query(fe: Frontend, stmt: st.Query, params: list[object]) -> Outcome:
    ms = timeout_ms(fe)
    m = SLEEP.match(stmt.text)
    if m:
        try:
            await asyncio.wait_for(asyncio.sleep(float(m.group(1))), ms / 1000)
        except TimeoutError:
            raise QueryTimeout(ms // 1000) from None
        return Outcome("SELECT", sleep_columns(), [("",)], True)
    planned = fe.data_plan(stmt.text)
    if planned is not None:
        if fe.instance.commits_pending:
            # a read sees every barrier that came before it (dataplane/epochs.py)
            await fe.instance.settle_changes()
        return await fe.data_session().execute(planned, params, fe.data_state())
    instance = fe.instance
    deadline = time.monotonic() + ms / 1000
    instance.deadline = deadline
    try:
        out = catalog_execute(fe, stmt.text, params)
    except RwError:
        if time.monotonic() > deadline:
            raise QueryTimeout(ms // 1000) from None
        raise
    finally:
        instance.deadline = math.inf
    out.constant = instance.query.is_constant(stmt.text)
    rows = out.rows
    if not isinstance(rows, (list, tuple, AsyncIterator)):
        out.rows = _deadline(instance, rows, deadline, ms // 1000)
    return out


def catalog_execute(fe: Frontend, text: str, params: list[object]) -> Outcome:
    """Run ``text`` on the catalog path, then apply to the session the ``set_config(name,
    value, false)`` calls it made: RisingWave's binder sets the session variable and answers
    the new value (binder/expr/function/builtin_scalar.rs:621-661), so SHOW and
    ``current_setting`` see it; a name or value the session refuses fails the statement with
    the same error as SET.  (The catalog path calls set_config while it produces the first
    row, which it reads before returning.)"""
    out = fe.instance.query.execute(text, params, fe.query_context())
    fe.apply_settings(fe.instance.query.take_settings())
    return out


def _copy_query(text: str) -> str:
    """The query of ``COPY (<query>) TO STDOUT``: the text inside the outer parentheses."""
    start = text.index("(")
    depth, quote = 0, ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1 : i]
    raise NotImplementedError_(f"Unhandled statement: {text.strip()}")


async def handle_copy(fe: Frontend, stmt: st.Copy, params: list[object]) -> Outcome:
    """``COPY (<query>) TO STDOUT``: the query's rows as COPY data (handler/mod.rs:656-664);
    RisingWave handles no other COPY (its ``Unhandled statement``, handler/mod.rs:1686)."""
    if stmt.table is not None or not stmt.to_stdout:
        shown = (
            f"COPY {'.'.join(stmt.table.parts)} TO STDOUT"
            if stmt.table is not None and stmt.to_stdout
            else stmt.text.strip()
        )
        raise NotImplementedError_(f"Unhandled statement: {shown}")
    out = await handle_query(fe, st.Query(_copy_query(stmt.text)), params)
    return Outcome("COPY", out.columns, out.rows, count_rows=True, copy_out=True)


async def handle_dml(
    fe: Frontend, stmt: st.Insert | st.Update | st.Delete, params: list[object]
) -> Outcome:
    # A DML target is never in another database (binder insert.rs:111, update.rs:132,
    # delete.rs:74: resolve_schema_qualified_name).
    resolve_schema_qualified_name(fe.database, stmt.table.parts)
    planned = fe.data_plan(stmt.text)
    if fe.txn_read_only:
        raise read_only_refusal()  # after binding (handler/query.rs:502-513)
    if planned is not None:
        return await run_dml(fe, planned, params)
    # DML whose text PostgreSQL cannot parse: the in-process path refuses it (no user data)
    return catalog_execute(fe, stmt.text, params)


async def run_dml(fe: Frontend, planned: Planned, params: list[object]) -> Outcome:
    """A planned INSERT / UPDATE / DELETE run on the data plane, then what the session's
    variables make a DML wait for (also CREATE TABLE AS's insert: create_table_as.rs runs it
    through handle_query)."""
    # A change belongs to the epoch after the barrier it follows: the change log seals a
    # barrier's changes in the background, so a write waits for that first (else it would be
    # sealed into the earlier epoch).
    await fe.instance.settle_changes()
    losses = fe.instance.epoch_losses(fe.ctx().database_id)
    out = await fe.data_session().execute(planned, params, fe.data_state())
    await _after_dml(fe, losses)
    return out


async def _after_dml(fe: Frontend, losses: int) -> None:
    """What a session variable makes a DML wait for before it completes: ``implicit_flush``
    a FLUSH (handler/query.rs:564-568); else ``dml_wait_persistence`` the commit of the next
    barrier, without injecting one (src/stream/src/executor/dml.rs:160-190; ignored under
    implicit_flush, optimizer_context.rs:281-284)."""
    config = fe.config
    if config.implicit_flush:
        await do_flush(fe, losses=losses)
    elif config.dml_wait_persistence:
        db = fe.ctx().database_id
        barrier = fe.instance.engine.barrier
        epoch = barrier.epoch(db) if db in barrier.databases() else 0
        await fe.instance.data.epochs.wait_commit(db, epoch)


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


# --- cursors -----------------------------------------------------------------------------------


async def handle_declare(fe: Frontend, stmt: st.DeclareCursor, params: list[object]) -> Outcome:
    planned = fe.data_plan(stmt.query)
    if stmt.cursor in fe.cursors:
        # the query is bound first; its rows are read at FETCH (session/cursor_manager.rs:
        # 1156-1161 add_query_cursor: a CatalogError)
        raise RwError("Catalog error", f"cursor `{stmt.cursor}` already exists")
    if planned is not None:
        if fe.instance.commits_pending:
            await fe.instance.settle_changes()
        out = await fe.data_session().execute(planned, params, fe.data_state())
    else:
        out = catalog_execute(fe, stmt.query, params)
    rows = out.rows
    # An in-process cursor reads the store's SQLite connection: Rows lets another session's
    # write read the rest into memory (session.release_reads).  A data-plane cursor reads
    # its session's own PostgreSQL connection, which holds nothing another session waits on.
    fe.cursors[stmt.cursor] = Cursor(
        out.columns or [], rows if isinstance(rows, AsyncIterator) else Rows(rows)
    )
    return Outcome(stmt.tag)


async def handle_fetch(fe: Frontend, stmt: st.FetchCursor, params: list[object]) -> Outcome:
    cur = fe.cursors.get(stmt.cursor)
    if cur is None:
        # session/cursor_manager.rs:1197-1203 get_rows_with_cursor (v2.8.5 and v3.0.3 alike)
        raise InternalError(f"Cannot find cursor `{stmt.cursor}`")
    from rwshim.frontend import subscriptions
    from rwshim.frontend.sub_cursor import SubscriptionCursor

    if isinstance(cur, SubscriptionCursor):
        return await subscriptions.fetch(fe, cur, stmt)
    subscriptions.fetch_options_refused(stmt)
    rows: list[Sequence[object]] = []
    source = cur.rows
    while stmt.count is None or len(rows) < stmt.count:
        if isinstance(source, AsyncIterator):
            try:
                row = await anext(source)
            except StopAsyncIteration:
                break
        else:
            found = next(source, None)
            if found is None:
                break
            row = found
        rows.append(row)
    return Outcome(f"FETCH {len(rows)}", cur.columns, rows)


def handle_close_cursor(fe: Frontend, stmt: st.CloseCursor, params: list[object]) -> Outcome:
    if stmt.cursor is None:
        closed = list(fe.cursors.values())
        fe.cursors.clear()
    else:
        found = fe.cursors.pop(stmt.cursor, None)
        if found is None:
            # session/cursor_manager.rs:1166-1175 remove_cursor: a CatalogError (sic)
            raise RwError("Catalog error", f"cursor `{stmt.cursor}` don't exists")
        closed = [found]
    for cursor in closed:
        # a data-plane query's rows give their pooled connection back now (dataplane/pool.py)
        abandon = getattr(cursor.rows, "abandon", None)
        if abandon is not None:
            abandon()
    return Outcome(stmt.tag)


HANDLERS: dict[type[st.Statement], Handler] = {
    st.Query: handle_query,
    st.Copy: handle_copy,
    st.Insert: handle_dml,
    st.Update: handle_dml,
    st.Delete: handle_dml,
    st.DeclareCursor: handle_declare,
    st.FetchCursor: handle_fetch,
    st.CloseCursor: handle_close_cursor,
}
