"""Queries and DML on the read path, with statement_timeout over the whole answer, and the
session's cursors (DECLARE, FETCH, CLOSE).

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
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from rwshim import pgtypes
from rwshim.errors import QueryTimeout, RwError, Uncategorized
from rwshim.frontend.common import Cursor, Handler
from rwshim.instance import Instance
from rwshim.results import Column, Outcome
from rwshim.sql import statements as st

if TYPE_CHECKING:
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
    instance = fe.instance
    deadline = time.monotonic() + ms / 1000
    instance.deadline = deadline
    try:
        out = instance.query.execute(stmt.text, params, fe.query_context())
    except RwError:
        if time.monotonic() > deadline:
            raise QueryTimeout(ms // 1000) from None
        raise
    finally:
        instance.deadline = math.inf
    if not isinstance(out.rows, (list, tuple)):
        out.rows = _deadline(instance, out.rows, deadline, ms // 1000)
    return out


def handle_dml(
    fe: Frontend, stmt: st.Insert | st.Update | st.Delete, params: list[object]
) -> Outcome:
    out = fe.instance.query.execute(stmt.text, params, fe.query_context())
    return out


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


def handle_declare(fe: Frontend, stmt: st.DeclareCursor, params: list[object]) -> Outcome:
    out = fe.instance.query.execute(stmt.query, params, fe.query_context())
    fe.cursors[stmt.cursor] = Cursor(out.columns or [], iter(out.rows))
    return Outcome(stmt.tag)


def handle_fetch(fe: Frontend, stmt: st.FetchCursor, params: list[object]) -> Outcome:
    cur = fe.cursors.get(stmt.cursor)
    if cur is None:
        # src/frontend/src/session/cursor_manager.rs: "Cursor {} does not exist"
        raise Uncategorized(f'cursor "{stmt.cursor}" does not exist')
    rows: list[Sequence[object]] = []
    for row in cur.rows:
        rows.append(row)
        if stmt.count is not None and len(rows) >= stmt.count:
            break
    return Outcome(f"FETCH {len(rows)}", cur.columns, rows)


def handle_close_cursor(fe: Frontend, stmt: st.CloseCursor, params: list[object]) -> Outcome:
    if stmt.cursor is None:
        fe.cursors.clear()
    else:
        fe.cursors.pop(stmt.cursor, None)
    return Outcome(stmt.tag)


HANDLERS: dict[type[st.Statement], Handler] = {
    st.Query: handle_query,
    st.Insert: handle_dml,
    st.Update: handle_dml,
    st.Delete: handle_dml,
    st.DeclareCursor: handle_declare,
    st.FetchCursor: handle_fetch,
    st.CloseCursor: handle_close_cursor,
}
