"""One client interface over two drivers, so each scenario body runs over both protocol paths.

- ``psycopg`` (AsyncConnection, autocommit): statements without parameters go through the
  simple query protocol; errors carry pgwire's "Failed to run the query" envelope.
- ``asyncpg``: every statement is prepared and executed (Parse/Describe/Bind/Execute, the
  extended protocol); errors raised at Execute carry "Failed to execute the statement".

Notices are collected through each driver's own hook (psycopg's notice handler, asyncpg's log
listener) as (severity, SQLSTATE, message).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

import asyncpg  # type: ignore[import-untyped]
import psycopg

from rwshim.errors import EXECUTE_STATEMENT, RUN_QUERY
from tests.conftest import Running

DRIVERS = ("psycopg", "asyncpg")


@dataclass(frozen=True)
class Failure:
    """What the client saw of an ErrorResponse."""

    severity: str
    sqlstate: str
    message: str


Notice = tuple[str, str, str]


class Client(Protocol):
    name: str
    # The pgwire envelope this protocol path puts on an error raised while executing.
    envelope: str

    async def run(self, sql: str) -> str:
        """Execute one statement; return its command tag."""

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """Execute one query; return its rows as tuples."""

    async def simple(self, sql: str) -> str:
        """Execute through the simple query protocol whatever the driver; return the tag (for
        statements RisingWave describes as NoData although they return rows: CANCEL JOBS)."""

    async def fail(self, sql: str) -> Failure:
        """Execute one statement that must fail; return the error."""

    async def notices(self) -> list[Notice]:
        """The notices received since the last call (and clear them)."""

    async def close(self) -> None: ...


class PsycopgClient:
    name = "psycopg"
    envelope = RUN_QUERY

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn
        self._notices: list[Notice] = []
        conn.add_notice_handler(
            lambda d: self._notices.append(
                (d.severity or "", d.sqlstate or "", d.message_primary or "")
            )
        )

    async def run(self, sql: str) -> str:
        cur = await self.conn.execute(sql)
        return cur.statusmessage or ""

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        cur = await self.conn.execute(sql)
        return [tuple(r) for r in await cur.fetchall()]

    async def simple(self, sql: str) -> str:
        return await self.run(sql)

    async def fail(self, sql: str) -> Failure:
        try:
            cur = await self.conn.execute(sql)
        except psycopg.Error as e:
            d = e.diag
            return Failure(d.severity or "", d.sqlstate or "", d.message_primary or "")
        raise AssertionError(f"{sql!r} succeeded with {cur.statusmessage!r}")

    async def notices(self) -> list[Notice]:
        out, self._notices = self._notices, []
        return out

    async def close(self) -> None:
        await self.conn.close()


class AsyncpgClient:
    name = "asyncpg"
    envelope = EXECUTE_STATEMENT

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self._notices: list[Notice] = []
        conn.add_log_listener(
            lambda _c, m: self._notices.append((m.severity, m.sqlstate, m.message))
        )

    async def run(self, sql: str) -> str:
        stmt = await self.conn.prepare(sql)
        await stmt.fetch()
        return str(stmt.get_statusmsg())

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        stmt = await self.conn.prepare(sql)
        return [tuple(r) for r in await stmt.fetch()]

    async def simple(self, sql: str) -> str:
        return str(await self.conn.execute(sql))

    async def fail(self, sql: str) -> Failure:
        try:
            stmt = await self.conn.prepare(sql)
        except asyncpg.PostgresError as e:
            raise AssertionError(f"{sql!r} failed at Parse/Describe: {e}") from e
        try:
            await stmt.fetch()
        except asyncpg.PostgresError as e:
            return Failure(str(e.severity), str(e.sqlstate), str(e.message))
        raise AssertionError(f"{sql!r} succeeded with {stmt.get_statusmsg()!r}")

    async def notices(self) -> list[Notice]:
        # asyncpg hands log messages to listeners through loop.call_soon.
        await asyncio.sleep(0)
        out, self._notices = self._notices, []
        return out

    async def close(self) -> None:
        await self.conn.close()


async def connect(
    driver: str, server: Running, user: str = "root", database: str = "dev"
) -> Client:
    if driver == "psycopg":
        conn = await psycopg.AsyncConnection.connect(server.dsn(user, database), autocommit=True)
        return PsycopgClient(conn)
    aconn = await asyncpg.connect(host=server.host, port=server.port, user=user, database=database)
    return AsyncpgClient(aconn)


def meta_error(envelope: str, call: str, text: str, code: str = "Internal error") -> str:
    """A meta error as the client reads it (rw-engine-semantics §4.3): envelope, the gRPC
    line naming the call, then meta's own text."""
    return (
        f"{envelope}\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: gRPC request to meta service (call `/ddl_service.DdlService/{call}`) failed:"
        f" {code}\n"
        f"  2: {text}\n"
    )


def invalid_parameter(envelope: str, text: str) -> str:
    """A meta InvalidParameter on CREATE: lifted out of the status, no gRPC line (§4.3)."""
    return f"{envelope}\n\nCaused by:\n  Invalid parameter value: Invalid parameter: {text}\n"
