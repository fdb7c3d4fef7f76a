"""What the frontend's handler modules share: the handler signature, the object words of
statements as the engine's relation kinds, names for the engine, the cursor record, the
parse errors of the statements a release's parser does not know (``refuse_unparsed``), and
FLUSH (which FLUSH and a DML under implicit_flush run).

RisingWave: ``src/frontend/src/handler/mod.rs`` (``HandlerArgs``: each handler is a function
of the session and the statement), ``handler/flush.rs`` (do_flush).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from msgspec import Struct

from rwshim.common import pgtypes
from rwshim.common.names import resolve_schema_qualified_name
from rwshim.common.outcome import Column, Outcome
from rwshim.engine import ObjectName as EngineName
from rwshim.errors import PermissionDenied, RwError
from rwshim.sql import statements as st
from rwshim.sql.errors_text import expected_error
from rwshim.sql.tokens import tokenize

if TYPE_CHECKING:
    from rwshim.engine.types import Waiter
    from rwshim.frontend.frontend import Frontend

# A statement handler: the session's frontend, the statement, its decoded parameters.
Handler = Callable[["Frontend", Any, list[object]], Outcome | Awaitable[Outcome]]

# The frontend's worker id in the emulated cluster (rw_worker_nodes row 1).
FRONTEND_WORKER_ID = 1

# Object words of ALTER/DROP/WAIT -> the engine's relation kinds.
KINDS = {
    "TABLE": "table",
    "MATERIALIZED VIEW": "materialized view",
    "VIEW": "view",
    "INDEX": "index",
    "SOURCE": "source",
    "SINK": "sink",
}


class Cursor(Struct):
    """A cursor of the session (DECLARE ... CURSOR FOR): its columns and the rows left."""

    columns: list[Column]
    rows: Iterator[Sequence[object]] | AsyncIterator[Sequence[object]]


def engine_name(name: st.ObjectName, database: str) -> EngineName:
    """A statement's (possibly qualified) name as the engine takes it, in the session's
    ``database``: Binder::resolve_schema_qualified_name (a database part must be the
    session's; rwshim.common.names)."""
    schema, real = resolve_schema_qualified_name(database, name.parts)
    return EngineName(real, schema)


def varchar_columns(cols: Sequence[Any]) -> list[Column]:
    """Result columns of the catalog's SHOW/DESCRIBE answers."""
    return [Column(c.name, c.type_oid, pgtypes.type_size(c.type_oid)) for c in cols]


async def do_flush(fe: Frontend, tag: str = "FLUSH", losses: int | None = None) -> Outcome:
    """A checkpoint barrier on the session's database, then the wait until its epoch is
    committed on the data plane, so every later read sees what was written before
    (handler/flush.rs:27-43: the flush, then the wait for the frontend's snapshot).  If the
    data plane lost an open epoch meanwhile (its PostgreSQL went away; ``losses``: the count
    before the writes this flush is for), the flush fails: what it was to make durable is
    not."""
    instance = fe.instance
    db = fe.ctx().database_id
    before = instance.epoch_losses(db) if losses is None else losses
    out = await fe.engine_call(tag, lambda: instance.engine.barrier.flush(fe.ctx()))
    await instance.settle_changes()
    await instance.settle_sinks()
    if instance.epoch_losses(db) != before:
        # rwshim's own condition, worded as the data plane's other losses (plane.DataPlaneLost)
        raise RwError(
            "the data plane's PostgreSQL is unavailable: writes of this epoch were lost"
            " before a barrier committed them"
        )
    return out


def refuse_unparsed(fe: Frontend, stmt: st._AlterObject, word: str) -> None:
    """The parse error of a release whose parser does not know ``ALTER <kind> <name> SET
    <word>`` (Release.unparsed_set): ``expected <its list> after SET, found: <word as typed>``
    at that word.  (RisingWave fails the whole query string at parse time; rwshim, whose one
    grammar parses every release's statements, fails this statement when it runs.)"""
    if isinstance(stmt, st.AlterResourceGroup) and stmt.value is None:
        _refuse_unparsed_reset(fe, stmt)
        return
    if (
        isinstance(stmt, st.AlterResourceGroup)
        and stmt.kind.upper() == "DATABASE"
        and not fe.instance.release.database_resource_group
    ):
        toks = tokenize(stmt.text)
        at = next((t for t in toks if t.value.upper() == "DEFERRED" and not t.quoted), toks[-1])
        raise expected_error(stmt.text, at, "end of statement")
    expected = fe.instance.release.unparsed_set(stmt.kind.upper(), word)
    if expected is None:
        return
    toks = tokenize(stmt.text)
    for prev, tok in itertools.pairwise(toks):
        if prev.value.upper() == "SET" and tok.value.upper() == word and not tok.quoted:
            raise expected_error(stmt.text, tok, expected)
    raise expected_error(stmt.text, toks[-1], expected)


def _refuse_unparsed_reset(fe: Frontend, stmt: st.AlterResourceGroup) -> None:
    """``ALTER <kind> <name> RESET RESOURCE_GROUP`` on a release whose parser refuses it
    (Release.unparsed_reset_resource_group): at RESET or at RESOURCE_GROUP."""
    refused = fe.instance.release.unparsed_reset_resource_group(stmt.kind.upper())
    if refused is None:
        return
    expected, at_reset = refused
    toks = tokenize(stmt.text)
    for prev, tok in itertools.pairwise(toks):
        if prev.value.upper() == "RESET" and tok.value.upper() == "RESOURCE_GROUP":
            raise expected_error(stmt.text, prev if at_reset else tok, expected)
    raise expected_error(stmt.text, toks[-1], expected)


def waiter_future(waiter: Waiter) -> asyncio.Future[None]:
    """A future of the running loop that completes when the engine's ``waiter`` does (a
    session awaiting a job, a barrier or the reschedule lock)."""
    fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def wake(_: Waiter) -> None:
        if not fut.done():
            fut.set_result(None)

    waiter.add_done_callback(wake)
    return fut


def read_only_refusal() -> PermissionDenied:
    """A write in ``START TRANSACTION READ ONLY`` (session/transaction.rs:255-262
    ``txn_write_guard``)."""
    return PermissionDenied("cannot execute in a read-only transaction")
