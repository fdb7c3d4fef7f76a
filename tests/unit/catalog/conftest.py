"""A real meta store (rwshim/store) filled with raw INSERTs, with the catalog views.

These scenarios write the store's rows the way rwshim/store/schema.py documents them
(relations, columns, streaming jobs, fragments, actors), to reach states the engine's DDL does
not produce on demand (test_engine_scenario.py drives the engine itself).  The context
functions the query core registers are registered here over a mutable ``Ctx``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import pytest

from rwshim.catalog_path import system_catalogs as catalog
from rwshim.store.store import Store as MetaStore

TS = "2026-11-29 23:00:00.000000+00:00"
TS2 = "2026-11-29 23:00:05.000000+00:00"
VERSION = "3.2.0-alpha"


@dataclass
class Ctx:
    database_id: int = 1
    user_id: int = 1
    schema: str = "public"


@dataclass
class Store:
    conn: sqlite3.Connection
    ctx: Ctx = field(default_factory=Ctx)
    next_id: int = 6
    next_fragment: int = 1
    next_actor: int = 1

    def rows(self, relation: str, where: str = "", params: Sequence[object] = ()) -> list[tuple]:
        schema, name = relation.split(".")
        sql = f'SELECT * FROM "{catalog.RELATIONS[(schema, name)].sqlite_name}"'
        if where:
            sql += " WHERE " + where
        return [tuple(r) for r in self.conn.execute(sql, params).fetchall()]

    def oid(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def user(self, name: str, is_super: bool = False) -> int:
        uid = 1 + self.conn.execute("SELECT max(user_id) FROM rw_user").fetchone()[0]
        self.conn.execute(
            "INSERT INTO rw_user (user_id, name, is_super, can_create_db, can_create_user, "
            "can_login, created_at) VALUES (?, ?, ?, 0, 0, 1, ?)",
            (uid, name, int(is_super), TS),
        )
        return uid

    def database(self, name: str) -> tuple[int, dict[str, int]]:
        db = self.oid()
        self.conn.execute(
            "INSERT INTO database (database_id, name, owner_id, created_at) VALUES (?, ?, 1, ?)",
            (db, name, TS),
        )
        schemas = {}
        for s in ("public", "pg_catalog", "information_schema", "rw_catalog"):
            schemas[s] = self.schema(s, db)
        return db, schemas

    def schema(self, name: str, database_id: int = 1, owner: int = 1) -> int:
        sid = self.oid()
        self.conn.execute(
            "INSERT INTO schema (schema_id, name, database_id, owner_id, created_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (sid, name, database_id, owner, TS),
        )
        return sid

    def relation(
        self,
        kind: str,
        name: str,
        columns: Sequence[tuple[str, int, str]] = (),
        *,
        schema_id: int = 2,
        database_id: int = 1,
        owner: int = 1,
        definition: str = "",
        pk: Sequence[int] = (),
        hidden: Sequence[int] = (),
        created: bool = True,
        **extra: object,
    ) -> int:
        rid = self.oid()
        cols = {
            "relation_id": rid,
            "kind": kind,
            "name": name,
            "schema_id": schema_id,
            "database_id": database_id,
            "owner_id": owner,
            "definition": definition,
            "initialized_at": TS,
            "created_at": TS2 if created else None,
            "initialized_at_cluster_version": VERSION,
            "created_at_cluster_version": VERSION if created else None,
            **extra,
        }
        names = ", ".join(cols)
        marks = ", ".join("?" for _ in cols)
        self.conn.execute(f"INSERT INTO relation ({names}) VALUES ({marks})", tuple(cols.values()))
        # RisingWave's column ids: the hidden _row_id is 0, user columns count from 1.
        next_column_id = 1
        for pos, (cname, oid, rw_type) in enumerate(columns):
            column_id = 0 if cname == "_row_id" else next_column_id
            next_column_id += cname != "_row_id"
            self.conn.execute(
                "INSERT INTO relation_column (relation_id, position, column_id, name, type_oid, "
                "rw_type, is_hidden, is_nullable, pk_position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (rid, pos, column_id, cname, oid, rw_type, int(pos in hidden), 1,
                 list(pk).index(pos) if pos in pk else None),
            )  # fmt: skip
        return rid

    def job(
        self,
        job_id: int,
        status: str = "CREATED",
        create_type: str = "FOREGROUND",
        kind: str = "Adaptive",
        fixed: int | None = None,
        strategy: str | None = "BOUNDED(64)",
        max_parallelism: int = 256,
        database_id: int = 1,
        backfill_type: str = "NORMAL_BACKFILL",
    ) -> None:
        self.conn.execute(
            "INSERT INTO streaming_job (job_id, database_id, job_status, create_type, "
            "backfill_type, parallelism_kind, parallelism_fixed, adaptive_parallelism_strategy, "
            "max_parallelism) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (job_id, database_id, status, create_type, backfill_type, kind, fixed, strategy,
             max_parallelism),
        )  # fmt: skip

    def fragment(
        self,
        job_id: int,
        flags: Sequence[str],
        distribution: str = "HASH",
        actors: int = 1,
        state_tables: Sequence[int] = (),
        upstream: Sequence[tuple[int, str]] = (),
        **extra: object,
    ) -> int:
        fid = self.next_fragment
        self.next_fragment += 1
        cols = {
            "fragment_id": fid,
            "job_id": job_id,
            "flags": json.dumps(list(flags)),
            "distribution_type": distribution,
            "state_table_ids": json.dumps(list(state_tables)),
            "vnode_count": 1 if distribution == "SINGLE" else 256,
            **extra,
        }
        self.conn.execute(
            f"INSERT INTO fragment ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})",
            tuple(cols.values()),
        )
        for src, dispatcher in upstream:
            self.conn.execute(
                "INSERT INTO fragment_relation VALUES (?, ?, ?)", (src, fid, dispatcher)
            )
        for _ in range(actors):
            self.conn.execute(
                "INSERT INTO actor (actor_id, fragment_id, worker_id) VALUES (?, ?, 1)",
                (self.next_actor, fid),
            )
            self.next_actor += 1
        return fid


def make_store() -> Store:
    # The store as rwshim creates it: every migration applied, RisingWave's initial users
    # (root, postgres, rwadmin), database dev and its schemas public, pg_catalog,
    # information_schema, rw_catalog.
    meta = MetaStore.open(now=TS)
    conn = meta.conn
    store = Store(conn)
    conn.create_function("rw_current_database_id", 0, lambda: store.ctx.database_id)
    conn.create_function("rw_current_user_id", 0, lambda: store.ctx.user_id)
    conn.create_function("rw_current_schema", 0, lambda: store.ctx.schema)
    catalog.install(conn)
    return store


@pytest.fixture
def store() -> Iterator[Store]:
    s = make_store()
    yield s
    s.conn.close()
