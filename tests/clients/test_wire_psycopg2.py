"""psycopg2 (dbt's and SQLAlchemy's default driver): simple protocol only, client-side
parameters, and no ``SET datestyle`` on connect because DateStyle is announced."""

from __future__ import annotations

from collections.abc import Callable

import psycopg2

from rwshim.common.outcome import Outcome
from rwshim.frontend import Frontend, Statement
from rwshim.instance import Instance
from rwshim.server.session import ProcessInfo
from tests.conftest import ThreadRunning


def test_psycopg2_connects_without_datestyle_fixup(
    rw_thread_server_factory: Callable[..., ThreadRunning],
) -> None:
    seen: list[str] = []

    class Recording(Frontend):
        async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
            seen.append(stmt.text)
            return await Frontend.execute(self, stmt, params)

    instance = Instance()

    def factory(user: str, db: str, options: dict[str, str], p: ProcessInfo) -> Frontend:
        return Recording(instance, user, db, options, p)

    server = rw_thread_server_factory(frontend_factory=factory)
    conn = psycopg2.connect(server.dsn())
    try:
        assert conn.server_version == 131400
        cur = conn.cursor()
        cur.execute("select %s::int4 + 1, %s::text", (41, "it's"))
        assert cur.fetchone() == (42, "it's")
        conn.commit()
    finally:
        conn.close()
    # psycopg2's implicit BEGIN, the query with parameters inlined, COMMIT; no SET datestyle.
    assert seen == ["BEGIN", "select 41::int4 + 1, 'it''s'::text", "COMMIT"]
