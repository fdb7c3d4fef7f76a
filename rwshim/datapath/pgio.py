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

import contextlib
from collections.abc import AsyncIterator, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rwshim.query.pg.errors import PgError

if TYPE_CHECKING:
    import psycopg
    from psycopg import pq

CHUNK_ROWS = 1000


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


def _generators() -> Any:
    from psycopg.waiting import Ready, Wait

    return Wait, Ready


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


def fields_of(res: pq.abc.PGresult) -> list[Field]:
    return [Field((res.fname(i) or b"").decode(), res.ftype(i)) for i in range(res.nfields)]


class PgConn:
    """One autocommit connection to the instance's database."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn
        self.pgconn = conn.pgconn
        self.busy = False

    @classmethod
    async def connect(cls, conninfo: str) -> PgConn:
        import psycopg

        try:
            conn = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
        except psycopg.OperationalError as e:
            raise ConnectionLost(str(e).strip()) from None
        return cls(conn)

    @property
    def closed(self) -> bool:
        return bool(self.conn.closed) or self.conn.broken

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.conn.close()

    def close_now(self) -> None:
        """Close the socket without waiting (sends Terminate)."""
        with contextlib.suppress(Exception):
            self.pgconn.finish()

    async def _wait(self, gen: Generator[Any, Any, Any]) -> Any:
        import psycopg

        try:
            return await self.conn.wait(gen)
        except psycopg.OperationalError as e:
            raise ConnectionLost(str(e).strip()) from None

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
    ) -> AsyncIterator[pq.abc.PGresult]:
        """Run one statement; its results chunk by chunk (the last one carries the command
        status).  Leaving early cancels the statement and drains what is left."""
        from psycopg import pq

        pgconn = self.pgconn
        pgconn.send_query_params(sql.encode(), list(params), list(types) or None, None, 0)
        pgconn.set_chunked_rows_mode(chunk)
        self.busy = True
        done = False
        try:
            await self._wait(_send(pgconn))
            while True:
                res = await self._wait(_fetch(pgconn))
                if res is None:
                    done = True
                    break
                if res.status == pq.ExecStatus.FATAL_ERROR:
                    await self._drain()
                    done = True
                    raise PgFailure(_error_of(res))
                yield res
            if pgconn.status != pq.ConnStatus.OK:
                raise ConnectionLost(pgconn.error_message.decode(errors="replace").strip())
        finally:
            self.busy = False
            if not done and not self.closed:
                await self._abandon()

    async def _drain(self) -> None:
        while True:
            res = await self._wait(_fetch(self.pgconn))
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
