"""One data-plane connection, driven at the protocol level.

psycopg's ``AsyncConnection`` connects and waits on the socket; statements go through its libpq
wrapper (``psycopg.pq``) directly: the text with PostgreSQL's own ``$n`` placeholders,
parameters as text with explicit type OIDs, results in text form decoded by rwshim's own codecs
(``values``), rows streamed in chunks (libpq's chunked-rows mode), and Parse/Describe of the
extended protocol answered by PostgreSQL itself.

Cancellation is psycopg's: a task cancelled while waiting on the connection (CancelRequest,
statement_timeout) sends PostgreSQL's own cancel request and waits for the statement to end,
so the connection is ready for the next statement.  psycopg is imported when the first data
statement arrives (it costs 120-170 ms), never at server start.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rwshim.dataplane.plan.errors import PgError
from rwshim.sql.cache import SizedLRU

if TYPE_CHECKING:
    import psycopg
    from psycopg import pq

CHUNK_ROWS = 1000
# A statement text run this many times on one connection is prepared there (a named statement
# PostgreSQL parses and plans once); at most PREPARED_MAX per connection.
PREPARE_AFTER = 2
PREPARED_MAX = 256
# The texts counted and prepared are bounded by their bytes too (rwshim/sql/cache.py): a
# statement of megabytes is neither counted nor prepared, and a connection keeps at most this
# much statement text.
PREPARED_BYTES = 8 * 1024 * 1024
# PostgreSQL's SQLSTATE when a physical object went away under a statement (a race with DROP)
UNDEFINED_TABLE = "42P01"


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    type_oid: int  # PostgreSQL's


@dataclass(frozen=True, slots=True)
class Described:
    param_oids: list[int]  # PostgreSQL's
    fields: list[Field] | None  # None: no rows


class PgFailure(Exception):
    """PostgreSQL answered with an error (``error`` carries its fields)."""

    def __init__(self, error: PgError) -> None:
        super().__init__(error.message)
        self.error = error


class ConnectionLost(Exception):
    """The connection broke (the server or its backend went away)."""


_WAITING: Any = None  # psycopg.waiting's (Wait, Ready), imported with psycopg on first use


def _generators() -> Any:
    global _WAITING
    if _WAITING is None:
        from psycopg.waiting import Ready, Wait

        _WAITING = (Wait, Ready)
    return _WAITING


def _send(pgconn: pq.abc.PGconn) -> Generator[Any, Any, None]:
    wait, ready = _generators()
    while pgconn.flush() != 0:
        got = yield wait.RW
        if got & ready.R:
            pgconn.consume_input()


def _fetch(pgconn: pq.abc.PGconn) -> Generator[Any, Any, pq.abc.PGresult | None]:
    wait, _ = _generators()
    if pgconn.is_busy():
        while not (yield wait.R):
            pass
        while True:
            pgconn.consume_input()
            if not pgconn.is_busy():
                break
            while not (yield wait.R):
                pass
    return pgconn.get_result()


def _fetch_all(pgconn: pq.abc.PGconn) -> Generator[Any, Any, list[pq.abc.PGresult]]:
    yield from _send(pgconn)
    out: list[pq.abc.PGresult] = []
    while True:
        res = yield from _fetch(pgconn)
        if res is None:
            return out
        out.append(res)


def _error_of(res: pq.abc.PGresult) -> PgError:
    from psycopg import pq

    def field(code: int) -> str | None:
        v = res.error_field(code)
        return None if v is None else v.decode(errors="replace")

    D = pq.DiagnosticField
    return PgError(
        field(D.SQLSTATE) or "XX000",
        field(D.MESSAGE_PRIMARY) or (res.error_message.decode(errors="replace").strip()),
        field(D.MESSAGE_DETAIL),
        field(D.MESSAGE_HINT),
        field(D.COLUMN_NAME),
        field(D.TABLE_NAME),
        field(D.SCHEMA_NAME),
    )


def _stale_plan(error: PgError) -> bool:
    """PostgreSQL's refusal of a prepared statement whose relations changed shape under it
    (the catalog moved between our check and the statement): plancache.c's error."""
    return error.sqlstate == "0A000" and error.message == "cached plan must not change result type"


def fields_of(res: pq.abc.PGresult) -> list[Field]:
    return [Field((res.fname(i) or b"").decode(), res.ftype(i)) for i in range(res.nfields)]


class PgConn:
    """One autocommit connection to the instance's database."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn
        self.pgconn = conn.pgconn
        self.busy = False
        # The statements' path waits on the socket with a reader it keeps registered between
        # statements (psycopg's own wait adds and removes one, with a timer, at every wait:
        # about half of a short query's CPU here).  psycopg's waits replace it, so they
        # unregister it first (_unwatch).
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._ready = 0
        self._writing = False
        # (text, parameter types) -> the name of its prepared statement, and run counts of
        # the texts not prepared yet
        self._prepared: dict[tuple[str, tuple[int, ...]], bytes] = {}
        self._prepared_bytes = 0
        self._runs: SizedLRU[tuple[str, tuple[int, ...]], int] = SizedLRU(PREPARED_BYTES // 2)
        # the rwshim session state last set on this connection (dataplane/session.py,
        # DataSession.state_key: by content, so that sessions alike share it as it is)
        self.synced: tuple[object, ...] | None = None
        # the batch now() last set on it (rw.stream_now; dataplane/session.py, _sync_now)
        self.now_set = ""
        # the data plane's server generation when it was opened, and the catalog snapshots
        # in its temporary tables ((schema, name) -> their key): a leased connection serves
        # one session after another (dataplane/pool.py)
        self.generation = -1
        self.snapshots: dict[tuple[str, str], object] = {}
        # inside a transaction block (the epochs' writer), what undoes a failed attempt
        # before the stale-plan retry runs the text again (its savepoint)
        self.undo_attempt: str | None = None

    @classmethod
    async def connect(cls, conninfo: str) -> PgConn:
        import psycopg

        try:
            conn = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
        except psycopg.OperationalError as e:
            raise ConnectionLost(str(e).strip()) from None
        return cls(conn)

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction block is open on the connection (the epochs' writer)."""
        from psycopg import pq

        return self.pgconn.transaction_status != pq.TransactionStatus.IDLE

    @property
    def closed(self) -> bool:
        return bool(self.conn.closed) or self.conn.broken

    def _forget_texts(self) -> None:
        # a closed connection may wait for a cyclic collection: not with its texts
        self._runs.clear()
        self._prepared.clear()
        self._prepared_bytes = 0

    async def close(self) -> None:
        self._unwatch()
        self._forget_texts()
        with contextlib.suppress(Exception):
            await self.conn.close()

    def close_now(self) -> None:
        """Close the socket without waiting (sends Terminate)."""
        self._unwatch()
        self._forget_texts()
        with contextlib.suppress(Exception):
            self.pgconn.finish()

    async def _wait(self, gen: Generator[Any, Any, Any]) -> Any:
        """psycopg's wait (its cancel-on-interrupt included): for the admin path."""
        import psycopg

        self._unwatch()
        try:
            return await self.conn.wait(gen)
        except psycopg.OperationalError as e:
            raise ConnectionLost(str(e).strip()) from None

    # --- the statements' wait ---------------------------------------------------------------

    def _unwatch(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None:
            with contextlib.suppress(Exception):
                loop.remove_reader(self.pgconn.socket)

    def _on_readable(self) -> None:
        waiter = self._waiter
        if waiter is None:
            # data nobody waits for (the next chunk of a result the client reads slowly, a
            # notice): leave it in the socket, so a result is never read ahead into memory
            self._unwatch()
            return
        self._ready |= _generators()[1].R
        if not waiter.done():
            waiter.set_result(None)

    def _on_writable(self) -> None:
        self._ready |= _generators()[1].W
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _on_deadline(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(TimeoutError())

    async def _wait_fast(self, gen: Generator[Any, Any, Any], deadline: float | None = None) -> Any:
        """Run a libpq generator, waiting on the socket with the kept reader; past
        ``deadline`` (time.monotonic) a wait raises TimeoutError.  A cancel (CancelRequest)
        raises here too; the caller stops the statement.  Needs no task: a statement started
        in place by the server's fast path moves into one at its first wait."""
        import psycopg

        wait, _ = _generators()
        try:
            s = next(gen)
            while True:
                loop = asyncio.get_running_loop()
                fd = self.pgconn.socket
                if self._loop is not loop:
                    self._unwatch()
                    loop.add_reader(fd, self._on_readable)
                    self._loop = loop
                if s & wait.W:
                    loop.add_writer(fd, self._on_writable)
                    self._writing = True
                self._ready = 0
                self._waiter = waiter = loop.create_future()
                timer = None
                if deadline is not None:
                    timer = loop.call_later(max(deadline - time.monotonic(), 0), self._on_deadline)
                try:
                    await waiter
                finally:
                    self._waiter = None
                    if timer is not None:
                        timer.cancel()
                    if self._writing:
                        self._writing = False
                        with contextlib.suppress(Exception):
                            loop.remove_writer(fd)
                s = gen.send(self._ready)
        except StopIteration as e:
            return e.value
        except TimeoutError:  # the deadline's (an OSError, but the connection is fine)
            raise
        except (psycopg.OperationalError, OSError) as e:
            self._unwatch()
            raise ConnectionLost(str(e).strip()) from None

    async def _fetch_all_fast(self, deadline: float | None = None) -> list[pq.abc.PGresult]:
        results: list[pq.abc.PGresult] = await self._wait_fast(_fetch_all(self.pgconn), deadline)
        self._check(results)
        return results

    async def _statement_name(
        self, sql: str, types: Sequence[int], deadline: float | None = None
    ) -> bytes | None:
        """The prepared statement for this text on this connection, prepared on its
        PREPARE_AFTER-th run; None: run it unnamed (PostgreSQL's error, if it has one, comes
        from that run)."""
        key = (sql, tuple(types))
        name = self._prepared.get(key)
        if name is not None:
            return name
        runs = self._runs.get(key, 0) + 1
        if runs < PREPARE_AFTER:
            self._runs.put(key, runs)  # (not kept when too long to be worth preparing)
            return None
        self._runs.pop(key)
        size = len(sql)
        if len(self._prepared) >= PREPARED_MAX or self._prepared_bytes + size > PREPARED_BYTES:
            await self.forget_prepared()
        name = b"rw%d" % (len(self._prepared) + 1)
        self.pgconn.send_prepare(name, sql.encode(), list(types) or None)
        try:
            await self._fetch_all_fast(deadline)
        except PgFailure:
            if self.in_transaction:
                # the failed PREPARE aborted the transaction block (the epochs' writer): undo
                # it, or the unnamed run answers "current transaction is aborted"
                if self.undo_attempt is None:
                    raise
                await self.script(self.undo_attempt)
            return None
        self._prepared[key] = name
        self._prepared_bytes += size
        return name

    async def forget_prepared(self) -> None:
        """Deallocate this connection's prepared statements (the catalog changed: the
        relations they read may have another shape)."""
        self._runs.clear()
        if not self._prepared:
            return
        self._prepared.clear()
        self._prepared_bytes = 0
        self.pgconn.send_query(b"DEALLOCATE ALL")
        await self._fetch_all_fast()

    def _check(self, results: Sequence[pq.abc.PGresult]) -> None:
        from psycopg import pq

        for res in results:
            if res.status == pq.ExecStatus.FATAL_ERROR:
                raise PgFailure(_error_of(res))
        if self.pgconn.status != pq.ConnStatus.OK:
            raise ConnectionLost(self.pgconn.error_message.decode(errors="replace").strip())

    async def script(self, sql: str) -> None:
        """Run statements without parameters (several allowed: the simple protocol)."""
        self.pgconn.send_query(sql.encode())
        self._check(await self._wait(_fetch_all(self.pgconn)))

    async def query(
        self, sql: str, params: Sequence[bytes | None] = (), types: Sequence[int] = ()
    ) -> pq.abc.PGresult:
        """One statement; its last result (all rows in memory: for small answers)."""
        self.pgconn.send_query_params(sql.encode(), list(params), list(types) or None, None, 0)
        results: list[pq.abc.PGresult] = await self._wait(_fetch_all(self.pgconn))
        self._check(results)
        return results[-1]

    async def describe(self, sql: str, types: Sequence[int]) -> Described:
        """PostgreSQL's Parse + Describe of the unnamed statement."""
        from psycopg import pq

        self.pgconn.send_prepare(b"", sql.encode(), list(types) or None)
        self._check(await self._wait(_fetch_all(self.pgconn)))
        self.pgconn.send_describe_prepared(b"")
        results = await self._wait(_fetch_all(self.pgconn))
        self._check(results)
        res = results[-1]
        params = [res.param_type(i) for i in range(res.nparams)]
        if res.status == pq.ExecStatus.COMMAND_OK and res.nfields == 0:
            return Described(params, None)
        return Described(params, fields_of(res))

    async def stream(
        self,
        sql: str,
        params: Sequence[bytes | None],
        types: Sequence[int],
        chunk: int = CHUNK_ROWS,
        deadline: float | None = None,
    ) -> AsyncIterator[pq.abc.PGresult]:
        """Run one statement; its results chunk by chunk (the last one carries the command
        status).  Leaving early cancels the statement and drains what is left; a wait past
        ``deadline`` (time.monotonic) raises TimeoutError (then the statement is stopped)."""
        from psycopg import pq

        pgconn = self.pgconn
        self.busy = True
        done = False
        first = True
        try:
            name = await self._statement_name(sql, types, deadline)
            if name is not None:
                pgconn.send_query_prepared(name, list(params), None, 0)
            else:
                pgconn.send_query_params(sql.encode(), list(params), list(types) or None, None, 0)
            pgconn.set_chunked_rows_mode(chunk)
            await self._wait_fast(_send(pgconn), deadline)
            while True:
                res = await self._wait_fast(_fetch(pgconn), deadline)
                if res is None:
                    done = True
                    break
                if res.status == pq.ExecStatus.FATAL_ERROR:
                    await self._drain()
                    error = _error_of(res)
                    if first and name is not None and _stale_plan(error):
                        # the plan went stale under us: forget it and run the text unnamed
                        # (in a transaction block, after undoing the failed attempt)
                        if self.undo_attempt is not None and self.in_transaction:
                            await self.script(self.undo_attempt)
                        await self.forget_prepared()
                        name = None
                        pgconn.send_query_params(
                            sql.encode(), list(params), list(types) or None, None, 0
                        )
                        pgconn.set_chunked_rows_mode(chunk)
                        await self._wait_fast(_send(pgconn), deadline)
                        continue
                    done = True
                    raise PgFailure(error)
                first = False
                yield res
            if pgconn.status != pq.ConnStatus.OK:
                raise ConnectionLost(pgconn.error_message.decode(errors="replace").strip())
        finally:
            self.busy = False
            if not done and not self.closed:
                await self._abandon()

    async def _drain(self) -> None:
        while True:
            res = await self._wait_fast(_fetch(self.pgconn))
            if res is None:
                return

    async def _abandon(self) -> None:
        """Stop the running statement (its rows are no longer wanted) and drain."""
        with contextlib.suppress(Exception):
            await self.conn.cancel_safe(timeout=5.0)
        try:
            await self._drain()
        except Exception:
            await self.close()
