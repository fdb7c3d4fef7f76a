"""The read API over the meta store's rows for everything above the engine: the frontend's
handlers, the dashboard, the test-control statements and the data plane ask it, by name, for
the catalog rows they show or act on, and run no SQL of their own on the store.

RisingWave: the frontend's ``CatalogReader`` over its ``Catalog``
(src/frontend/src/catalog/root_catalog.rs: ``get_database_by_name``, ``get_schema_by_id``,
``get_table_by_id``, ...) and the meta node's ``list_*`` RPCs the frontend and the dashboard
call (``list_table_fragments``, ``list_actor_states``, ``list_streaming_job_states``): rwshim
holds all of them in one SQLite store (rwshim/store/schema.py), so one reader stands for both.

Reads only: writes go through the engine (rwshim/engine), which also has its own reads for its
rules.  The system catalogs (``system_catalogs/``) stay what they are, the SQL definitions of
the catalog relations; the binder reads relations through ``store_source.StoreRelations``.
The reader follows the store: ``Instance`` makes a new one whenever it (re)opens the store.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from msgspec import Struct

from rwshim.common.passwords import StoredPassword

if TYPE_CHECKING:
    from rwshim.binder.context import QueryContext
    from rwshim.binder.udf import Lookup
    from rwshim.engine.graph import Graph


class Database(Struct, frozen=True):
    id: int
    owner_id: int


class RelationRow(Struct, frozen=True):
    """A relation as the frontend and the data plane read it (``relation``, any state)."""

    id: int
    kind: str
    name: str
    schema_id: int
    database_id: int
    definition: str
    append_only: bool
    sink_type: str | None
    connector: str | None
    refreshable: bool
    # a job's query as it reads now (a rendered template), None without one
    read_query: str | None


class ColumnRow(Struct, frozen=True):
    """A relation's column: its name, hidden flag and 0-based primary-key position."""

    name: str
    hidden: bool
    pk_position: int | None


class GraphRelation(Struct, frozen=True):
    """A relation in the dashboard's relation graph, with its schema's and database's names."""

    id: int
    kind: str
    name: str
    schema: str
    database_id: int
    database: str
    definition: str
    shared: bool
    target_table_id: int | None


class JobRow(Struct, frozen=True):
    """A streaming job as RWSHIM JOBS lists it: the job, its relation and its database's
    barrier state; the backfill counts sum its scanning fragments' (None without any)."""

    id: int
    database: str
    name: str
    kind: str
    status: str
    create_type: str
    job_type: str
    max_parallelism: int
    backfill_held: bool
    paused: bool
    backfill_consumed: int | None
    backfill_total: int | None


_RELATION = (
    "SELECT relation_id, kind, name, schema_id, database_id, definition, append_only,"
    " sink_type, connector, refreshable, read_query FROM relation WHERE relation_id = ?"
)

_JOBS = (
    "SELECT j.job_id, d.name, r.name, r.kind, j.job_status, j.create_type, j.job_type,"
    " j.max_parallelism, j.backfill_held, coalesce(b.is_paused, 0),"
    " (SELECT sum(backfill_consumed) FROM fragment f WHERE f.job_id = j.job_id"
    "   AND f.scan_relation_id IS NOT NULL),"
    " (SELECT sum(backfill_total) FROM fragment f WHERE f.job_id = j.job_id"
    "   AND f.scan_relation_id IS NOT NULL)"
    " FROM streaming_job j JOIN relation r ON r.relation_id = j.job_id"
    " JOIN database d ON d.database_id = j.database_id"
    " LEFT JOIN barrier_state b ON b.database_id = j.database_id ORDER BY j.job_id"
)


def _int(v: object) -> int | None:
    return None if v is None else int(v)  # type: ignore[call-overload]


class CatalogReader:
    """Named reads over one store connection (the module docstring)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def version(self) -> tuple[int, int]:
        """Changes whenever a row may have: the connection (a restart reopens the store) and
        its count of changes."""
        return id(self._conn), self._conn.total_changes

    # --- databases, schemas, users ---------------------------------------------------------

    def database_by_name(self, name: str) -> Database | None:
        row = self._conn.execute(
            "SELECT database_id, owner_id FROM database WHERE name = ?", (name,)
        ).fetchone()
        return None if row is None else Database(int(row[0]), int(row[1]))

    def databases(self) -> list[tuple[int, str]]:
        """(id, name) of every database, by id."""
        return [
            (int(db), str(name))
            for db, name in self._conn.execute("SELECT database_id, name FROM database ORDER BY 1")
        ]

    def schema_name(self, schema_id: int) -> str | None:
        row = self._conn.execute(
            "SELECT name FROM schema WHERE schema_id = ?", (schema_id,)
        ).fetchone()
        return None if row is None else str(row[0])

    def can_connect(self, user_id: int, database_id: int) -> bool:
        """Whether the user holds CONNECT on the database (granted, not by ownership)."""
        row = self._conn.execute(
            "SELECT 1 FROM user_privilege WHERE user_id = ? AND oid = ? AND action = 'CONNECT'",
            (user_id, database_id),
        ).fetchone()
        return row is not None

    def stored_password(self, user: str) -> StoredPassword | None:
        """The password stored for ``user`` by CREATE USER ... PASSWORD (None when the user has
        none or does not exist)."""
        row = self._conn.execute(
            "SELECT auth_type, auth_value FROM rw_user WHERE name = ?", (user,)
        ).fetchone()
        if row is None or row[0] is None or row[1] is None:
            return None
        return StoredPassword(str(row[0]), str(row[1]))

    # --- relations -------------------------------------------------------------------------

    def relation(self, relation_id: int) -> RelationRow | None:
        row = self._conn.execute(_RELATION, (relation_id,)).fetchone()
        if row is None:
            return None
        rid, kind, name, schema_id, db, definition, append_only, sink, conn, refresh, rq = row
        return RelationRow(
            int(rid), str(kind), str(name), int(schema_id), int(db), str(definition or ""),
            bool(append_only), sink, conn, bool(refresh), rq,
        )  # fmt: skip

    def columns(self, relation_id: int) -> list[ColumnRow]:
        """A relation's columns in order, hidden ones included."""
        return [
            ColumnRow(str(n), bool(h), _int(p))
            for n, h, p in self._conn.execute(
                "SELECT name, is_hidden, pk_position FROM relation_column WHERE relation_id = ?"
                " ORDER BY position",
                (relation_id,),
            )
        ]

    def column_types(self, relation_id: int) -> list[tuple[str, str]]:
        """A relation's visible columns in order with their RisingWave type names."""
        return [
            (str(n), str(t))
            for n, t in self._conn.execute(
                "SELECT name, rw_type FROM relation_column WHERE relation_id = ? AND NOT is_hidden"
                " AND name != '_rw_timestamp' ORDER BY position",
                (relation_id,),
            )
        ]

    def created_indexes(self, relation_id: int) -> list[int]:
        """The indexes on a table or materialized view whose jobs are created, oldest first
        (a creating index serves no query: background_ddl/index.slt:48-54)."""
        return [
            int(r[0])
            for r in self._conn.execute(
                "SELECT r.relation_id FROM relation r JOIN streaming_job j"
                " ON j.job_id = r.relation_id WHERE r.kind = 'index' AND r.primary_table_id = ?"
                " AND j.job_status = 'CREATED' ORDER BY r.relation_id",
                (relation_id,),
            )
        ]

    def relation_id(
        self, database_id: int, name: str, kinds: tuple[str, ...], schema: str | int
    ) -> int | None:
        """The relation of one of ``kinds`` named ``name`` in a schema of the database, the
        schema by name or by id."""
        marks = ", ".join("?" * len(kinds))
        sql = (
            "SELECT r.relation_id FROM relation r JOIN schema s ON s.schema_id = r.schema_id"
            # +: the name's index, not the database's (which holds every relation)
            f" WHERE r.name = ? AND +r.database_id = ? AND r.kind IN ({marks})"
            + (" AND s.name = ?" if isinstance(schema, str) else " AND r.schema_id = ?")
        )
        hit = self._conn.execute(sql, (name, database_id, *kinds, schema)).fetchone()
        return None if hit is None else int(hit[0])

    def defining_queries(self, database_id: int) -> list[tuple[int, str, str | None]]:
        """(id, definition, creator's search path) of the database's relations that have a
        defining query (materialized views, views, sinks, tables), by id."""
        return [
            (int(rid), str(definition), path)
            for rid, definition, path in self._conn.execute(
                "SELECT relation_id, definition, search_path FROM relation WHERE database_id = ?"
                " AND definition IS NOT NULL"
                " AND kind IN ('materialized view', 'view', 'sink', 'table')"
                " ORDER BY relation_id",
                (database_id,),
            )
        ]

    def relation_names(self) -> dict[int, tuple[str, str]]:
        """Every relation's (name, kind), by id."""
        return {
            int(r[0]): (str(r[1]), str(r[2]))
            for r in self._conn.execute("SELECT relation_id, name, kind FROM relation")
        }

    def graph_relations(self) -> list[GraphRelation]:
        """Every relation but internal state tables, by id, with schema and database names."""
        out = []
        for rid, kind, name, schema, db_id, db, definition, shared, target in self._conn.execute(
            "SELECT r.relation_id, r.kind, r.name, s.name, r.database_id, d.name, r.definition,"
            " r.is_shared, r.target_table_id FROM relation r"
            " JOIN schema s ON s.schema_id = r.schema_id"
            " JOIN database d ON d.database_id = r.database_id"
            " WHERE r.kind != 'internal' ORDER BY r.relation_id"
        ):
            rel = GraphRelation(
                int(rid), str(kind), str(name), str(schema), int(db_id), str(db),
                str(definition), bool(shared), _int(target),
            )  # fmt: skip
            out.append(rel)
        return out

    def dependencies(self) -> list[tuple[int, int]]:
        """(referenced, dependent) of every dependency."""
        return [
            (int(ref), int(dep))
            for ref, dep in self._conn.execute(
                "SELECT referenced_id, dependent_id FROM dependency ORDER BY 1, 2"
            )
        ]

    def system_relation_kind(self, schema: str, name: str) -> str | None:
        """'table' / 'view' for a system catalog relation, None if there is none so named."""
        row = self._conn.execute(
            "SELECT kind FROM rwshim_sys_relation WHERE schema_name = ? AND name = ?",
            (schema, name),
        ).fetchone()
        return None if row is None else str(row[0])

    # --- streaming jobs, fragments, actors -------------------------------------------------

    def jobs(self) -> list[JobRow]:
        """Every streaming job, by id."""
        out = []
        for row in self._conn.execute(_JOBS).fetchall():
            jid, db, name, kind, status, ctype, jtype, maxp, held, paused, consumed, total = row
            job = JobRow(
                int(jid), str(db), str(name), str(kind), str(status), str(ctype), str(jtype),
                int(maxp), bool(held), bool(paused), _int(consumed), _int(total),
            )  # fmt: skip
            out.append(job)
        return out

    def job_names(self) -> dict[int, str]:
        """Every streaming job's relation name, by job id."""
        return {
            int(r[0]): str(r[1])
            for r in self._conn.execute(
                "SELECT j.job_id, r.name FROM streaming_job j JOIN relation r"
                " ON r.relation_id = j.job_id"
            )
        }

    def job_visible(self, job_id: int) -> bool:
        """Whether the job exists and is past INITIAL (what the frontend can see)."""
        row = self._conn.execute(
            "SELECT 1 FROM streaming_job WHERE job_id = ? AND job_status != 'INITIAL'",
            (job_id,),
        ).fetchone()
        return row is not None

    def graph(self) -> Graph:
        """The whole fragment graph the engine's rules read (rwshim.engine.graph)."""
        from rwshim.engine import graph

        return graph.Graph.load(self._conn)

    def fragment(self, fragment_id: int) -> sqlite3.Row | None:
        """A fragment's row (every column of ``fragment``, by name)."""
        cur = self._conn.cursor()
        cur.row_factory = sqlite3.Row
        row: sqlite3.Row | None = cur.execute(
            "SELECT * FROM fragment WHERE fragment_id = ?", (fragment_id,)
        ).fetchone()
        return row

    def fragments(self, job_id: int) -> list[sqlite3.Row]:
        """A job's fragments' rows, by id."""
        cur = self._conn.cursor()
        cur.row_factory = sqlite3.Row
        return list(
            cur.execute("SELECT * FROM fragment WHERE job_id = ? ORDER BY fragment_id", (job_id,))
        )

    def fragment_ids(self, job_id: int) -> list[int]:
        return [
            int(r[0])
            for r in self._conn.execute(
                "SELECT fragment_id FROM fragment WHERE job_id = ?", (job_id,)
            )
        ]

    def fragment_edges(self, fragment_id: int) -> list[tuple[int, int, str]]:
        """(source, target, dispatcher type) of the edges into and out of a fragment."""
        return [
            (int(s), int(t), str(d))
            for s, t, d in self._conn.execute(
                "SELECT source_fragment_id, target_fragment_id, dispatcher_type"
                " FROM fragment_relation WHERE source_fragment_id = ? OR target_fragment_id = ?",
                (fragment_id, fragment_id),
            )
        ]

    def upstream_fragments(self, fragment_id: int, job_id: int | None = None) -> list[int]:
        """The fragments a fragment reads from, by id (only ``job_id``'s when given)."""
        if job_id is None:
            rows = self._conn.execute(
                "SELECT source_fragment_id FROM fragment_relation WHERE target_fragment_id = ? "
                "ORDER BY 1",
                (fragment_id,),
            )
        else:
            rows = self._conn.execute(
                "SELECT r.source_fragment_id FROM fragment_relation r JOIN fragment f ON "
                "f.fragment_id = r.source_fragment_id WHERE r.target_fragment_id = ? "
                "AND f.job_id = ?",
                (fragment_id, job_id),
            )
        return [int(r[0]) for r in rows]

    def actors(self, fragment_id: int) -> list[int]:
        """A fragment's actor ids, in order."""
        return [
            int(r[0])
            for r in self._conn.execute(
                "SELECT actor_id FROM actor WHERE fragment_id = ? ORDER BY actor_id", (fragment_id,)
            )
        ]

    def backfill_total(self, relation_id: int) -> int | None:
        """The most rows a fragment scanning the relation last counted, None if none has."""
        row = self._conn.execute(
            "SELECT max(backfill_total) FROM fragment WHERE scan_relation_id = ?", (relation_id,)
        ).fetchone()
        return None if row is None else _int(row[0])

    # --- barriers, subscriptions -----------------------------------------------------------

    def barrier_states(self) -> dict[int, tuple[bool, int, int]]:
        """(paused, epoch, barrier count) of each database that has barrier state."""
        return {
            int(db): (bool(paused), int(epoch), int(count))
            for db, paused, epoch, count in self._conn.execute(
                "SELECT database_id, is_paused, epoch, barrier_count FROM barrier_state"
            )
        }

    def subscription_retention(self) -> dict[int, int]:
        """Subscribed relation id -> the longest retention (seconds) of its subscriptions."""
        rows = self._conn.execute(
            "SELECT dependent_table_id, max(retention_seconds) FROM subscription"
            " GROUP BY dependent_table_id"
        ).fetchall()
        return {int(r[0]): int(r[1]) for r in rows}

    def any_subscription(self) -> bool:
        return self._conn.execute("SELECT 1 FROM subscription LIMIT 1").fetchone() is not None

    # --- SQL functions ---------------------------------------------------------------------

    def udf_lookup(self, ctx: QueryContext) -> Lookup:
        """The SQL functions a query in ``ctx`` can call (rwshim.binder.udf_store.lookup)."""
        from rwshim.binder.udf_store import lookup

        return lookup(self._conn, ctx)

    def function_callers(
        self, function_id: int, contexts: list[tuple[int, str, QueryContext]]
    ) -> list[int]:
        """The relations among ``contexts`` whose query calls the function
        (rwshim.binder.udf_store.callers)."""
        from rwshim.binder.udf_store import callers

        return callers(self._conn, function_id, contexts)
