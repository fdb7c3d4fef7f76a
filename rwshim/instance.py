"""One rwshim "cluster": the meta store, the catalog and barrier engine, the read path, and the
clock, shared by every connection of a server (RisingWave's meta node plus its frontend state).

No I/O here: the server drives ``tick()`` from its barrier loop, tests drive it by hand.
"""

from __future__ import annotations

import datetime as dt
import math
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from rwshim.engine import Engine, ManualClock, SystemClock
from rwshim.engine.types import Clock
from rwshim.query import catalog
from rwshim.errors import RwError
from rwshim.passwords import StoredPassword
from rwshim.query.context import QueryContext
from rwshim.query.engine import QueryEngine
from rwshim.query.store_source import StoreRelations
from rwshim.store.schema import data_table
from rwshim.store.store import Store

# version() at the reference commit: PostgreSQL 13.14.0-RisingWave-<cargo version> (<git sha>)
# (src/common/src/lib.rs current_cluster_version, clients.md §8.1).
RW_VERSION = "PostgreSQL 13.14.0-RisingWave-3.2.0-alpha (448c6570b1b9d636736708340f61a85900c2b7d7)"


class Instance:
    """The state every session of one server shares."""

    def __init__(self, data_dir: str | Path | None = None, *, manual_clock: bool = False) -> None:
        self.data_dir = data_dir
        self.manual = manual_clock
        self.clock: Clock = ManualClock() if manual_clock else SystemClock()
        self.store = Store.open(data_dir)
        # The read path first: the engine's bootstrap recovery resumes background backfills,
        # which count their upstreams' rows through ``row_count`` (and so the read path).
        self._attach_read_path()
        self.engine = Engine(self.store, self.clock, row_count=self.row_count)
        # Set by the server: lists live sessions for SHOW PROCESSLIST and KILL.
        self.registry: object | None = None
        # Called after every barrier (the pytest plugin and ctl watch progress through it).
        self.on_tick: list[Callable[[], None]] = []

    def _attach_read_path(self) -> None:
        conn = self.store.conn
        # statement_timeout: SQLite checks the running batch query's deadline as it works
        # (one query runs at a time: the store is driven from one thread).
        conn.set_progress_handler(self._past_deadline, 50_000)
        self.relations = StoreRelations(conn)
        self.query = QueryEngine(conn, self.relations, version=RW_VERSION, clock=self._now)
        catalog.install(conn)

    # time.monotonic() after which SQLite abandons the query running now (inf: none runs).
    deadline: float = math.inf

    def _past_deadline(self) -> int:
        return 1 if time.monotonic() > self.deadline else 0

    def _now(self) -> dt.datetime:
        return dt.datetime.fromtimestamp(self.clock.now_ms() / 1000, tz=dt.UTC)

    @property
    def conn(self) -> sqlite3.Connection:
        return self.store.conn

    def row_count(self, relation_id: int) -> int:
        """Rows a backfill of ``relation_id`` reads: a table's stored rows, or the rows of a
        materialized view's defining query (it reads as that query, decision 4)."""
        # From the store, not ``self.engine``: this runs inside the engine's constructor
        # during recovery, before ``self.engine`` is set.
        found = self.conn.execute(
            "SELECT kind, database_id, owner_id, name FROM relation WHERE relation_id = ?",
            (relation_id,),
        ).fetchone()
        if found is None:
            return 0
        kind, database_id, owner_id = str(found[0]), int(found[1]), int(found[2])
        if kind == "table":
            try:
                row = self.conn.execute(f'SELECT count(*) FROM "{data_table(relation_id)}"').fetchone()
            except sqlite3.Error:
                return 0
            return int(row[0]) if row else 0
        names = self.conn.execute(
            "SELECT d.name, s.name, u.name FROM relation r JOIN schema s ON s.schema_id = r.schema_id"
            " JOIN database d ON d.database_id = r.database_id JOIN rw_user u ON u.user_id = r.owner_id"
            " WHERE r.relation_id = ?",
            (relation_id,),
        ).fetchone()
        if names is None:
            return 0
        db, schema, owner = (str(x) for x in names)
        ctx = QueryContext(database_id, db, owner_id, owner)
        try:
            out = self.query.execute(f'SELECT count(*) FROM "{schema}"."{found[3]}"', [], ctx)
            value = next(iter(out.rows))[0]
            return int(value) if isinstance(value, (int, float, str)) else 0
        except RwError:
            return 0

    def user_password(self, name: str) -> StoredPassword | None:
        """The password stored for user ``name`` by CREATE USER ... PASSWORD (None when the
        user has none or does not exist: the server's ``--password`` applies then)."""
        row = self.conn.execute(
            "SELECT auth_type, auth_value FROM rw_user WHERE name = ?", (name,)
        ).fetchone()
        if row is None or row[0] is None or row[1] is None:
            return None
        return StoredPassword(str(row[0]), str(row[1]))

    def tick(self, database_id: int | None = None) -> None:
        """One barrier (all databases when None); the catalog may have changed."""
        self.engine.tick(database_id)
        self.query.invalidate()
        for fn in list(self.on_tick):
            fn()

    def restart(self) -> None:
        """Close and reopen the store: RisingWave's recovery on restart (decision 3)."""
        self.engine = self.engine.restart()
        self.store = self.engine.store
        self._attach_read_path()

    def close(self) -> None:
        self.store.conn.close()
