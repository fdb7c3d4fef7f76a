"""The PostgreSQL connections that one instance's data sessions share (issue 27, item 4).

A session no longer owns a PostgreSQL connection for its whole life: it *leases* one for a
statement (a query's lease lasts while its rows stream: a suspended portal or an open cursor
keeps it) and gives it back when the statement ends.  A returned connection stays *owned* by
the session that used it last, so that session's next statement takes the same one back
with nothing to set again (its settings, prepared statements and catalog snapshots are still
there: session.py keeps them per connection).  Another session takes it only when there is no
other way: an idle connection whose session has closed first, then a new one while fewer than
``size`` are open, then the least recently used idle one (set to the new session's state
again), else it waits for one to come back.

The wait is bounded by the statement's ``statement_timeout`` (``DEFAULT_WAIT`` seconds when it
is 0, whose batch default of an hour is no wait a client should sit through); past it the
statement fails with ``PoolFull``, which names the limit and the flag that raises it.  The
same happens when PostgreSQL itself has no free connection (its ``max_connections``, e.g. an
external server shared with others).

Cancellation is unchanged: a statement runs on its lease alone, so a CancelRequest (or the
statement timeout) cancels that backend's statement and no other (pgio.PgConn.stream).

rwshim's own connections (the instance's admin connection, the change log's, each database's
epoch writer) are not leased from here.  RisingWave has no such pool (its batch queries run on
compute nodes); the error is rwshim's own condition, given PostgreSQL's SQLSTATE for it
(53300 too_many_connections).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import ClassVar, Protocol

from rwshim.dataplane.pgio import ConnectionLost, PgConn
from rwshim.errors import RwError

DEFAULT_SIZE = 64
# seconds a statement waits for a connection when its statement_timeout is 0
DEFAULT_WAIT = 30.0
FLAG = "--data-pool-size"
# PostgreSQL's texts when it has no connection slot left (postinit.c, proc.c)
_SERVER_FULL = ("too many clients already", "remaining connection slots are reserved")
_STATES_MAX = 4096


class Holder(Protocol):
    """A data session as the pool sees it: the connection it used last (None: none, or
    another session has it now)."""

    conn: PgConn | None


class PoolFull(RwError):
    """No data-plane connection came free within the statement's wait (rwshim's own
    condition; SQLSTATE 53300, PostgreSQL's too_many_connections)."""

    sqlstate: ClassVar[str] = "53300"

    def __init__(self, size: int, waited: float, server: str | None = None) -> None:
        seconds = f"{waited:g} s (statement_timeout, or {DEFAULT_WAIT:g} s when it is 0)"
        if server is None:
            what = (
                f"the data plane's connection pool is full: all {size} of its PostgreSQL"
                f" connections are in use by other sessions' statements (open cursors and"
                f" portals keep theirs); waited {seconds}.  Raise the limit with"
                f" {FLAG} (now {size})"
            )
        else:
            what = (
                "the data plane's PostgreSQL has no free connection (its max_connections):"
                f" {server}; waited {seconds}.  Raise PostgreSQL's max_connections, or"
                f" lower {FLAG} (now {size}) so that rwshim stays within it"
            )
        super().__init__(what)


def server_full(e: ConnectionLost) -> bool:
    """Whether a refused connection was refused for want of a free slot."""
    text = str(e)
    return any(t in text for t in _SERVER_FULL)


class Pool:
    """The leases of one instance's data sessions (one event loop's)."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self.opened = 0  # open connections, or being opened
        # idle connections by owner: owned ones in order of release (oldest first), and
        # those whose session has gone
        self._owned: dict[PgConn, Holder] = {}
        self._free: list[PgConn] = []
        self._leased: set[PgConn] = set()
        # statements waiting for a connection: a future resolved with one (theirs now), or
        # with None (a slot came free: try again)
        self._waiters: deque[asyncio.Future[PgConn | None]] = deque()
        self._closed = False
        # session states by content -> a number (DataSession.state_key): keys compare as
        # numbers; numbers are never reused, so forgetting the table only costs a re-set
        self._states: dict[object, int] = {}
        self._state_ids = 0

    def intern(self, content: object) -> int:
        """The number of a session state's content (equal contents, one number)."""
        found = self._states.get(content)
        if found is None:
            if len(self._states) >= _STATES_MAX:
                self._states.clear()
            self._state_ids += 1
            found = self._states[content] = self._state_ids
        return found

    @property
    def leased(self) -> int:
        return len(self._leased)

    def _reclaim(self, holder: Holder, usable: Callable[[PgConn], bool]) -> PgConn | None:
        """The holder's own idle connection, leased again (None: not idle, or gone)."""
        conn = holder.conn
        if conn is None or self._owned.get(conn) is not holder:
            return None
        del self._owned[conn]
        if not usable(conn):
            holder.conn = None
            self._close(conn)
            return None
        self._leased.add(conn)
        return conn

    def take(
        self, holder: Holder, key: tuple[object, ...], usable: Callable[[PgConn], bool]
    ) -> PgConn | None:
        """An idle connection already set to ``key`` (the holder's own first), leased to
        it at once; None when there is none (nothing waits)."""
        own = holder.conn
        if own is not None and own.synced == key:
            conn = self._reclaim(holder, usable)
            if conn is not None:
                return conn
        conn = self._matching(key, usable)
        if conn is not None:
            self._leased.add(conn)
            holder.conn = conn
        return conn

    def _matching(self, key: tuple[object, ...], usable: Callable[[PgConn], bool]) -> PgConn | None:
        """An idle connection set to ``key``, out of the idle ones (none: None).  Sessions
        alike (the same user, database, path, variables and time zone: most clients' many
        connections) share connections without setting anything, and so a pool smaller
        than the sessions costs them no more than one as large."""
        for conn in self._free:
            if conn.synced == key and usable(conn):
                self._free.remove(conn)
                return conn
        for conn, owner in self._owned.items():
            if conn.synced == key and usable(conn):
                del self._owned[conn]
                if owner.conn is conn:
                    owner.conn = None
                return conn
        return None

    async def acquire(
        self,
        holder: Holder,
        wait: float,
        usable: Callable[[PgConn], bool],
        connect: Callable[[], Awaitable[PgConn]],
        key: tuple[object, ...],
    ) -> PgConn:
        """A connection leased to ``holder`` (``holder.conn`` is set to it), preferably one
        set to its state ``key`` already; waits up to ``wait`` seconds for one, then raises
        PoolFull."""
        own = self._reclaim(holder, usable)
        if own is not None:
            return own
        started = time.monotonic()
        deadline = started + wait
        server: str | None = None
        backoff = 0.02
        while True:
            conn = self._matching(key, usable) or self._idle_one(usable)
            if conn is None and self.opened < self.size and server is None:
                self.opened += 1
                try:
                    conn = await connect()
                except ConnectionLost as e:
                    self._slot_freed()
                    if not server_full(e):
                        raise
                    # PostgreSQL has no slot left (other clients, other instances): take an
                    # idle connection of ours at once, else wait for a release, trying again
                    # now and then
                    server = str(e)
                    conn = self._idle_one(usable, full=True)
                except BaseException:
                    self._slot_freed()
                    raise
            if conn is not None:
                self._leased.add(conn)
                holder.conn = conn
                return conn
            left = deadline - time.monotonic()
            if left <= 0:
                raise PoolFull(self.size, round(wait, 3), server)
            got = await self._wait(min(left, backoff) if server is not None else left)
            if server is not None:
                backoff = min(backoff * 2, 1.0)
                server = None if got is None else server
            if got is not None:
                if usable(got):
                    holder.conn = got
                    return got
                self._leased.discard(got)
                self._close(got)

    def _idle_one(self, usable: Callable[[PgConn], bool], full: bool = False) -> PgConn | None:
        """An idle connection to take: one whose session has gone, else (when no new one
        may be opened: the pool, or ``full``, PostgreSQL is full) the least recently used
        owned one."""
        while self._free:
            conn = self._free.pop()
            if usable(conn):
                return conn
            self._close(conn)
        if self.opened < self.size and not full:
            return None
        while self._owned:
            conn, owner = next(iter(self._owned.items()))
            del self._owned[conn]
            if owner.conn is conn:
                owner.conn = None
            if usable(conn):
                return conn
            self._close(conn)
            if self.opened < self.size and not full:
                return None
        return None

    async def _wait(self, seconds: float) -> PgConn | None:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[PgConn | None] = loop.create_future()
        self._waiters.append(fut)
        timer = loop.call_later(seconds, _expire, fut)
        try:
            return await fut
        except asyncio.CancelledError:
            # a connection handed over just before the cancel is not lost
            if fut.done() and not fut.cancelled() and (got := fut.result()) is not None:
                self.release(got, None)
            raise
        finally:
            timer.cancel()
            if not fut.done():
                fut.cancel()
            with contextlib.suppress(ValueError):
                self._waiters.remove(fut)

    def release(self, conn: PgConn, holder: Holder | None) -> None:
        """The lease ends: the connection goes to a waiting statement, or stays idle, owned
        by ``holder`` (None: its session has gone).  A broken connection, or one left in a
        transaction, is closed."""
        if conn not in self._leased:
            return
        self._leased.discard(conn)
        if self._closed or conn.closed or conn.busy or conn.in_transaction:
            if holder is not None and holder.conn is conn:
                holder.conn = None
            self._close(conn)
            return
        while self._waiters:
            fut = self._waiters.popleft()
            if not fut.done():
                if holder is not None and holder.conn is conn:
                    holder.conn = None
                self._leased.add(conn)
                fut.set_result(conn)
                return
        if holder is None or holder.conn is not conn:
            self._free.append(conn)
        else:
            self._owned[conn] = holder

    def disown(self, holder: Holder) -> None:
        """The holder's session has gone: its idle connection is anyone's."""
        conn = holder.conn
        holder.conn = None
        if conn is not None and self._owned.get(conn) is holder:
            del self._owned[conn]
            self._free.append(conn)

    def discard(self, conn: PgConn) -> None:
        """A leased connection that cannot be given back (its session went mid-statement)."""
        if conn in self._leased:
            self._leased.discard(conn)
            self._close(conn)

    def _close(self, conn: PgConn) -> None:
        conn.close_now()
        self._slot_freed()

    def _slot_freed(self) -> None:
        self.opened -= 1
        while self._waiters:
            fut = self._waiters.popleft()
            if not fut.done():
                fut.set_result(None)
                return

    def close_now(self) -> None:
        """Close every idle connection (the instance is closing; leases close with their
        sessions)."""
        self._closed = True
        for conn in [*self._owned, *self._free]:
            self._close(conn)
        self._owned.clear()
        self._free.clear()


def _expire(fut: asyncio.Future[PgConn | None]) -> None:
    if not fut.done():
        fut.set_result(None)
