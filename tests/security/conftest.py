"""A live rwshim with a plain user, and rwshim's own connection to its data plane's PostgreSQL
(to prove what PostgreSQL did and did not run)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from rwshim.testing import RwShim

SECRET = "only-root-may-read-this"


class Shim:
    """The server, root's and alice's connections (alice: SELECT on t only)."""

    def __init__(self, server: RwShim) -> None:
        self.server = server
        self.root = psycopg.connect(server.dsn, autocommit=True)
        self.root.execute("CREATE TABLE t (id int PRIMARY KEY, v varchar)")
        self.root.execute("INSERT INTO t VALUES (1, 'a')")
        self.root.execute("CREATE TABLE secret (s varchar)")
        self.root.execute("INSERT INTO secret VALUES (%s)", (SECRET,))
        self.root.execute("FLUSH")
        self.root.execute("CREATE USER alice")
        self.root.execute("GRANT SELECT ON t TO alice")
        self.alice = self.connect("alice")

    def connect(self, user: str) -> psycopg.Connection[Any]:
        s = self.server
        return psycopg.connect(
            f"host={s.host} port={s.port} user={user} dbname={s.database}", autocommit=True
        )

    def admin(self) -> psycopg.Connection[Any]:
        """rwshim's own (superuser) connection to the data plane's database."""
        return psycopg.connect(self.server.instance.data.conninfo(), autocommit=True)

    def close(self) -> None:
        self.alice.close()
        self.root.close()


@pytest.fixture(scope="module")
def shim() -> Iterator[Shim]:
    server = RwShim()
    made = Shim(server)
    try:
        yield made
    finally:
        made.close()
        server.stop()


def error_of(conn: psycopg.Connection[Any], sql: str) -> str:
    """The whole primary message of a statement that must fail."""
    with pytest.raises(psycopg.Error) as info:
        conn.execute(sql)
    return info.value.diag.message_primary or str(info.value)
