"""A live rwshim (the pytest plugin's fixture) and a psycopg connection to it: the data plane is
exercised as clients see it, on rwshim's own PostgreSQL child."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from rwshim.testing import RwShim
from tests.rel import serverproc


class Client:
    """One autocommit psycopg connection with short-hands for the tests."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def run(self, sql: str, params: Any = None) -> psycopg.Cursor[Any]:
        return self.conn.execute(sql, params)

    def rows(self, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self.conn.execute(sql, params).fetchall()]

    def tag(self, sql: str, params: Any = None) -> str:
        cur = self.conn.execute(sql, params)
        return (cur.statusmessage or "").strip()

    def error(self, sql: str, params: Any = None) -> str:
        """The whole error message (RisingWave's report) of a statement that must fail."""
        with pytest.raises(psycopg.Error) as info:
            self.conn.execute(sql, params)
        diag = info.value.diag
        return diag.message_primary or str(info.value)

    def sqlstate(self, sql: str) -> str | None:
        with pytest.raises(psycopg.Error) as info:
            self.conn.execute(sql)
        return info.value.sqlstate


# a session whose every INSERT/UPDATE/DELETE waits until its epoch is committed
IMPLICIT_FLUSH = "-c rw_implicit_flush=true"


def caused_by(*chain: str) -> str:
    """RisingWave's report of an error chain under the simple-query envelope."""
    if len(chain) == 1:
        return f"Failed to run the query\n\nCaused by:\n  {chain[0]}\n"
    lines = "".join(f"{i:>3}: {m}\n" for i, m in enumerate(chain, start=1))
    return (
        f"Failed to run the query\n\nCaused by these errors (recent errors listed first):\n{lines}"
    )


@pytest.fixture
def db(rwshim: RwShim) -> Iterator[Client]:
    # These tests are about what the data plane stores and answers, not about when a write
    # becomes visible: like RisingWave's own e2e tests (``SET RW_IMPLICIT_FLUSH TO true``),
    # every DML waits for the barrier that commits it.
    with psycopg.connect(rwshim.dsn, autocommit=True, options=IMPLICIT_FLUSH) as conn:
        yield Client(conn)


@pytest.fixture(autouse=True)
def _reap_server_processes() -> Iterator[None]:
    """Kill any rwshim child a failed test left running (tests/rel/serverproc.reap)."""
    before = serverproc.live()  # a module fixture's server outlives the test
    yield
    serverproc.reap(keep=before)
