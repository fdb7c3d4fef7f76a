"""A prepared data-plane query run again without planning, its rows passed through (issue 16).

A driver that prepares a statement runs it again and again with other parameters
(``PQsendQueryPrepared``, pgbench ``-M prepared``, a pool's prepared lookups).  Each run on
the full path plans the text again (a cache hit), checks that the relations' PostgreSQL
objects exist, syncs the session's settings to its PostgreSQL connection, and decodes every
value into a Python object only to encode it back into the same text.  Once such a query has
run to its end, what that work produced is kept here, with what it depended on:

- the catalog version (the plan, the PostgreSQL objects and the prepared statement on the
  connection all follow it: the data plane forgets plans and prepared statements when it
  moves);
- the session's query context, the very object (a SET, a USE, a GRANT or REVOKE makes a new
  one), and its time zone;
- the data plane's server generation (a restarted PostgreSQL), and the session state set on
  the connection (``DataSession.state_key``): a run leases an idle connection already set to
  it (dataplane/pool.py), or takes the full path.

While they all hold, a run sends the prepared statement at once.  Its rows are passed through
as PostgreSQL sent them when every column's text is RisingWave's text too (``PASS_THROUGH``:
booleans, integers, strings; ``tests/unit/datapath/test_quick.py`` holds the round trip);
a query with any other column keeps the full path, as do row-limited Executes, binary results
and queries that read catalog snapshots.  Errors, the statement timeout and a CancelRequest
are the full path's: PostgreSQL's error mapped to RisingWave's, the running statement
cancelled on PostgreSQL.

RisingWave has no such shortcut (each Execute of a portal runs its plan,
src/utils/pgwire/src/pg_protocol.rs); the bytes a client gets are the same.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from msgspec import Struct

from rwshim.common import pgtypes
from rwshim.dataplane.pgio import UNDEFINED_TABLE, ConnectionLost, PgConn, PgFailure
from rwshim.dataplane.plan import typemap
from rwshim.errors import InternalError, QueryTimeout
from rwshim.wire import backend

if TYPE_CHECKING:
    from rwshim.binder.context import QueryContext
    from rwshim.dataplane.plane import Planned
    from rwshim.dataplane.session import DataSession, SessionState

# Types whose PostgreSQL text output (as the data session's connection is set up) is
# RisingWave's text output byte for byte: decoding and encoding again would give the same
# bytes.  By PostgreSQL's result type; the client sees ``typemap.result_oid`` of it.
PASS_THROUGH = frozenset(
    {pgtypes.BOOL, pgtypes.INT2, pgtypes.INT4, pgtypes.INT8, pgtypes.TEXT, pgtypes.VARCHAR}
)
_ROW1 = struct.Struct("!ihi")


class Quick(Struct):
    """One query's kept run (see the module docstring); made by ``DataSession.quick_of``."""

    planned: Planned
    state: SessionState
    generation: int  # the data plane's server generation
    synced: tuple[object, ...]  # DataSession.state_key: (context, version, time zone, catalog)
    pg_types: list[int]  # PostgreSQL's parameter types
    param_oids: list[int]  # the types parameters are encoded as (dsession.param_oid)
    field_oids: tuple[int, ...]  # PostgreSQL's result types


def passes_through(field_oids: Sequence[int], result_oids: Sequence[int]) -> bool:
    """Whether rows of these PostgreSQL result types reach the client as PostgreSQL sent them
    (text format): every type is one of ``PASS_THROUGH``, shown to the client as its own."""
    return all(
        f in PASS_THROUGH and typemap.result_oid(f) == r
        for f, r in zip(field_oids, result_oids, strict=True)
    )


def holds(session: DataSession, quick: Quick, ctx: QueryContext, timezone: str) -> bool:
    """Whether nothing ``quick`` depends on has changed (cheap: identities and a version)."""
    plane = session.plane
    return (
        ctx is quick.state.ctx
        and timezone == quick.state.timezone
        and quick.generation == plane.generation()
        and plane._catalog_version() == quick.synced[3]
    )


def _row(values: list[bytes | None]) -> bytes:
    if len(values) == 1:
        v = values[0]
        if v is not None:
            return b"D" + _ROW1.pack(len(v) + 10, 1, len(v)) + v
    return backend.data_row(values)


async def run(
    session: DataSession,
    quick: Quick,
    params: Sequence[object],
    timeout_ms: int,  # the effective statement timeout (frontend.query.timeout_ms)
    out: list[bytes],
    flush: Callable[[], Awaitable[None]],
    flush_at: int,
) -> int | None:
    """Run ``quick`` with ``params``: its DataRows appended to ``out`` (``flush`` called as
    they pass ``flush_at`` bytes), the number of rows; None when PostgreSQL no longer has a
    relation it reads (another session dropped it: nothing was sent, the full path plans
    again and answers RisingWave's not-found error)."""
    active = session.active
    if active is not None:
        await active.settle()
        session.active = None
    # an idle connection already set to the session's state (its own, or one a session
    # alike left: dataplane/pool.py); none: the full path leases one and sets it
    conn = session.plane.pool.take(session, quick.synced, session._usable)
    if conn is None:
        return None
    try:
        return await _run(session, quick, conn, params, timeout_ms, out, flush, flush_at)
    finally:
        session._release(conn)


async def _run(
    session: DataSession,
    quick: Quick,
    conn: PgConn,
    params: Sequence[object],
    timeout_ms: int,
    out: list[bytes],
    flush: Callable[[], Awaitable[None]],
    flush_at: int,
) -> int | None:
    from rwshim.dataplane import values

    args = [values.encode_param(v, t) for v, t in zip(params, quick.param_oids, strict=False)]
    seconds = timeout_ms / 1000
    chunks = conn.stream(
        quick.planned.statement.text, args, quick.pg_types, deadline=time.monotonic() + seconds
    )
    append = out.append
    sent = size = 0
    finished = False
    ncols = len(quick.field_oids)
    try:
        async for res in chunks:
            if sent == 0 and tuple(res.ftype(i) for i in range(res.nfields)) != quick.field_oids:
                # cannot happen while the catalog holds (the same prepared statement)
                raise InternalError("the prepared query's result shape changed")
            get = res.get_value
            for r in range(res.ntuples):
                data = _row([get(r, i) for i in range(ncols)])
                append(data)
                sent += 1
                size += len(data)
                if size >= flush_at:
                    await flush()
                    size = 0
        finished = True
    except TimeoutError:
        raise QueryTimeout(int(seconds)) from None
    except PgFailure as e:
        finished = True
        if e.error.sqlstate == UNDEFINED_TABLE and sent == 0:
            return None
        raise session._failure(e, quick.planned, quick.state) from None
    except ConnectionLost as e:
        finished = True
        raise session._lost(e, conn) from None
    finally:
        if not finished:
            # left early (a cancel, a timeout, a failed flush): the statement is stopped on
            # PostgreSQL and the connection drained for the next one
            await chunks.aclose()  # type: ignore[attr-defined]
    return sent
