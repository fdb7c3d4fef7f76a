"""A data-plane query's rows as they come (``Rows``): an async iterator over PostgreSQL's
chunks on the connection the query leased (dataplane/pool.py), which goes back to the pool
when the rows end, are closed, or are settled before the session's next statement.  Split
from session.py (its DataSession makes them and answers their errors).

RisingWave streams a batch query's rows to the client as its executors produce them
(src/frontend/src/handler/query.rs, the PgResponseStream); rwshim streams PostgreSQL's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any

from rwshim.dataplane.pgio import CHUNK_ROWS, UNDEFINED_TABLE, ConnectionLost, PgFailure, fields_of
from rwshim.errors import QueryTimeout, RwError

if TYPE_CHECKING:
    from psycopg import pq

    from rwshim.common.outcome import Outcome
    from rwshim.dataplane.pgio import PgConn
    from rwshim.dataplane.plane import Planned
    from rwshim.dataplane.session import DataSession, SessionState

# rows being closed in the background (Rows.abandon): kept until done
_CLOSING: set[asyncio.Task[None]] = set()


class Dropped(Exception):
    def __init__(self, error: RwError) -> None:
        self.error = error


def decoded_rows(
    results: Sequence[pq.abc.PGresult], decoders: list[Callable[[bytes], object]]
) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for res in results:
        n = res.ntuples
        if not n:
            continue
        for r in range(n):
            out.append(
                tuple(
                    None if (v := res.get_value(r, i)) is None else dec(v)
                    for i, dec in enumerate(decoders)
                )
            )
    return out


class Rows:
    """A query's rows as they come: an async iterator over PostgreSQL's chunks."""

    def __init__(
        self,
        session: DataSession,
        conn: PgConn,
        planned: Planned,
        state: SessionState,
        pg_types: list[int],
        args: list[bytes | None],
        deadline: float,
    ) -> None:
        self.session = session
        self.conn = conn
        self.planned = planned
        self.state = state
        self.deadline = deadline
        self.pg_types = pg_types
        self.field_oids: tuple[int, ...] = ()
        # read to PostgreSQL's end of the statement (not left early, no error)
        self.finished = False
        self._chunks: AsyncIterator[Any] = conn.stream(
            planned.statement.text, args, pg_types, deadline=deadline
        )
        self._buffer: list[tuple[object, ...]] = []
        self._pos = 0
        self._decoders: list[Callable[[bytes], object]] = []
        self._done = False
        self._abandoned = False
        self._started = False
        # the connection's lease has ended (pool.py): at the rows' end, never before
        self.released = False

    def _end(self) -> None:
        """No more is read from the connection: its lease ends."""
        self._done = True
        if not self.released:
            self.released = True
            self.session._release(self.conn)

    async def _next_chunk(self) -> Any | None:
        try:
            # the deadline is the connection's (pgio): a wait past it raises TimeoutError,
            # with no timer context per chunk and no task needed to start in place
            return await anext(self._chunks)
        except StopAsyncIteration:
            return None
        except TimeoutError:
            await self.aclose()
            raise QueryTimeout(int((self.state.timeout_ms or 3600 * 1000) // 1000)) from None
        except PgFailure as e:
            self._end()  # (the stream drained the connection)
            err = self.session._failure(e, self.planned, self.state)
            if e.error.sqlstate == UNDEFINED_TABLE and not self._started:
                raise Dropped(err) from None
            raise err from None
        except ConnectionLost as e:
            err = self.session._lost(e, self.conn)
            self._end()
            raise err from None
        except BaseException:
            # a cancel (CancelRequest): the stream stopped the statement and drained the
            # connection on its way out (pgio.PgConn.stream), or closed it
            self._end()
            raise

    async def start(self, outcome: Outcome) -> None:
        """Read up to the first chunk: the columns (and any error before the first row)."""
        res = await self._next_chunk()
        if res is None:  # pragma: no cover - a query always describes its columns
            outcome.columns = []
            self._end()
            return
        fields = fields_of(res)
        cols, self._decoders = await self.session.columns(fields, self.planned.statement)
        self.field_oids = tuple(f.type_oid for f in fields)
        outcome.columns = cols
        self._started = True
        self._take(res)
        if res.ntuples < CHUNK_ROWS:
            await self._complete()

    async def _complete(self) -> None:
        """A chunk short of CHUNK_ROWS is the result's last (libpq hands a partial chunk
        over only at the statement's end): read PostgreSQL's end now, without waiting, so
        that the connection's lease ends with the statement and not when the client reads
        its last row (a driver's one-row Execute leaves the portal suspended for good)."""
        while (res := await self._next_chunk()) is not None:
            self._buffer.extend(decoded_rows([res], self._decoders))
        self.finished = True
        self._end()

    def _take(self, res: Any) -> None:
        self._buffer = decoded_rows([res], self._decoders)
        self._pos = 0

    def abandon(self) -> None:
        """Nobody will read the rest (the portal or cursor was closed): the statement is
        stopped and the connection's lease given back now, not at the session's next
        statement (the pool's other sessions may be waiting for it)."""
        self._abandoned = True
        if self._done:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - the server always runs a loop
            return
        task = loop.create_task(self.aclose())
        _CLOSING.add(task)
        task.add_done_callback(_CLOSING.discard)

    async def settle(self) -> None:
        """The connection is wanted for another statement: stop this one if its rows are
        abandoned, else read the rest into memory (a suspended portal's rows are never
        dropped)."""
        if self._done:
            return
        if self._abandoned:
            await self.aclose()
            return
        rest = self._buffer[self._pos :]
        while True:
            res = await self._next_chunk()
            if res is None:
                break
            rest.extend(decoded_rows([res], self._decoders))
        self._buffer, self._pos = rest, 0
        self._end()

    def __aiter__(self) -> Rows:
        return self

    async def __anext__(self) -> tuple[object, ...]:
        while self._pos >= len(self._buffer):
            if self._done:
                raise StopAsyncIteration
            res = await self._next_chunk()
            if res is None:
                self.finished = True
                self._end()
                raise StopAsyncIteration
            try:
                self._take(res)
            except BaseException:
                await self.aclose()
                raise
            if res.ntuples < CHUNK_ROWS:
                await self._complete()
        row = self._buffer[self._pos]
        self._pos += 1
        return row

    async def aclose(self) -> None:
        """Stop reading: the statement is cancelled on PostgreSQL and the connection drained."""
        if not self._done:
            self._done = True
            try:
                with contextlib.suppress(Exception):
                    await self._chunks.aclose()  # type: ignore[attr-defined]
            finally:
                self._end()
