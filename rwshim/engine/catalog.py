"""The catalog: databases, schemas, relations (tables, views, materialized views, indexes,
sources, sinks and their internal tables), their columns and dependencies, name resolution
through the search path, privilege checks on drop/alter, renames, owners, schemas and
comments, and the removal of relations with everything they own.

RisingWave: the catalog controller, ``src/meta/src/controller/catalog/`` (``create_op.rs``,
``drop_op.rs`` drop_object, ``alter_op.rs``, ``get_op.rs``, ``list_op.rs``), ``rename.rs``,
``utils.rs`` (duplicate checks, get_referring_objects_cascade, ensure_schema_empty),
``streaming_job.rs`` (try_abort_creating_streaming_job); the frontend's resolution and checks,
``src/frontend/src/catalog/root_catalog.rs``, ``src/frontend/src/handler/privilege.rs``,
``handler/create_database.rs``, ``drop_database.rs``, ``create_schema.rs``, ``drop_schema.rs``,
``alter_utils.rs``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rwshim import pgtypes
from rwshim.engine.kinds import PROTO_KIND, STMT_KIND, TABLE_NAMESPACE
from rwshim.engine.state import Meta
from rwshim.engine.types import ColumnSpec, Context, ObjectName, Result
from rwshim.engine.users import Users
from rwshim.engine.waits import Waits
from rwshim.errors import (
    CatalogDuplicated,
    CatalogNotFound,
    InvalidInputSyntax,
    MetaPermissionDenied,
    PermissionDenied,
    ProtocolError,
)
from rwshim.store.schema import data_table
from rwshim.store.store import CLUSTER_VERSION, SYSTEM_SCHEMAS


@dataclass(slots=True)
class Rel:
    """A relation row joined with its streaming job (if any)."""

    id: int
    kind: str
    name: str
    schema_id: int
    database_id: int
    owner_id: int
    definition: str
    is_shared: bool
    status: str | None
    create_type: str | None
    job_type: str | None
    connector: str | None
    target_table_id: int | None

    @property
    def is_job(self) -> bool:
        return self.status is not None


_REL_SELECT = (
    "SELECT r.relation_id, r.kind, r.name, r.schema_id, r.database_id, r.owner_id, r.definition,"
    " r.is_shared, j.job_status, j.create_type, j.job_type, r.connector, r.target_table_id"
    " FROM relation r LEFT JOIN streaming_job j ON j.job_id = r.relation_id"
)


def _rel(row: Sequence[Any]) -> Rel:
    return Rel(
        int(row[0]),
        str(row[1]),
        str(row[2]),
        int(row[3]),
        int(row[4]),
        int(row[5]),
        str(row[6]),
        bool(row[7]),
        None if row[8] is None else str(row[8]),
        None if row[9] is None else str(row[9]),
        None if row[10] is None else str(row[10]),
        None if row[11] is None else str(row[11]),
        None if row[12] is None else int(row[12]),
    )


_CREATE_NAME = re.compile(
    r"^(\s*CREATE\s+(?:MATERIALIZED\s+VIEW|TABLE|VIEW|INDEX|SINK|SOURCE|SUBSCRIPTION)\s+"
    r"(?:IF\s+NOT\s+EXISTS\s+)?(?:(?:\"(?:[^\"]|\"\")*\"|[^\s(.\"]+)\.)*)"
    r"(\"(?:[^\"]|\"\")*\"|[^\s(.\"]+)",
    re.IGNORECASE,
)


def rename_in_definition(definition: str, new_name: str) -> str:
    """alter_relation_rename (src/meta/src/controller/rename.rs:31-67): the last part of the
    created object's name becomes ``new_name`` (printed unquoted, as Ident::new_unchecked)."""
    m = _CREATE_NAME.match(definition)
    if m is None:
        return definition
    return definition[: m.start(2)] + new_name + definition[m.end(2) :]


def _quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sqlite_affinity(type_oid: int) -> str:
    if type_oid in (pgtypes.INT2, pgtypes.INT4, pgtypes.INT8, pgtypes.BOOL):
        return "INTEGER"
    if type_oid in (pgtypes.FLOAT4, pgtypes.FLOAT8):
        return "REAL"
    if type_oid == pgtypes.NUMERIC:
        return "NUMERIC"
    if type_oid == pgtypes.BYTEA:
        return "BLOB"
    return "TEXT"


class Catalog:
    """The catalog controller over the store."""

    def __init__(self, meta: Meta, users: Users, waits: Waits) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.waits = waits

    # ------------------------------------------------------------------ privileges

    def check_drop_alter(self, ctx: Context, rel: Rel) -> None:
        """privilege.rs:113-138."""
        if self.users.is_super(ctx) or rel.owner_id == ctx.user_id:
            return
        schema_owner = self.meta.val(
            "SELECT owner_id FROM schema WHERE schema_id = ?", (rel.schema_id,)
        )
        if schema_owner == ctx.user_id:
            return
        raise PermissionDenied(
            "Only the relation owner, the schema owner, and superuser can drop or alter a relation."
        )

    # ------------------------------------------------------------------ name resolution

    def search_path(self, ctx: Context) -> list[str]:
        """The session's search_path as schema names (``$user`` is the session user)."""
        user = self.users.user(ctx.user_id)[0]
        out = []
        for part in ctx.var("search_path").split(","):
            name = part.strip()
            if name.startswith('"') and name.endswith('"'):
                name = name[1:-1].replace('""', '"')
            if name == "$user":
                name = user
            if name:
                out.append(name)
        return out

    def schema_id(self, database_id: int, name: str) -> int | None:
        """A schema of a database by name, None if there is none."""
        v = self.meta.val(
            "SELECT schema_id FROM schema WHERE database_id = ? AND name = ?", (database_id, name)
        )
        return None if v is None else int(v)

    def creation_schema(self, ctx: Context, name: ObjectName) -> tuple[int, str]:
        """The schema a CREATE makes ``name`` in: the named one, else the first of the
        search path that exists."""
        if name.schema is not None:
            sid = self.schema_id(ctx.database_id, name.schema)
            if sid is None:
                raise CatalogNotFound("schema", name.schema)
            return sid, name.schema
        for s in self.search_path(ctx):
            sid = self.schema_id(ctx.database_id, s)
            if sid is not None:
                return sid, s
        # root_catalog.rs:682-685
        raise CatalogNotFound("first valid schema", "no schema has been selected to create in")

    def lookup(
        self, ctx: Context, name: ObjectName, kinds: Iterable[str] | None = None
    ) -> Rel | None:
        """A relation visible to the frontend (creating ones included, INITIAL ones not) by
        name through the session's search path; a missing explicit schema raises 42704."""
        kind_list = list(kinds) if kinds is not None else None
        if name.schema is not None:
            sid = self.schema_id(ctx.database_id, name.schema)
            if sid is None:
                raise CatalogNotFound("schema", name.schema)
            schemas = [sid]
        else:
            schemas = [
                s
                for s in (self.schema_id(ctx.database_id, n) for n in self.search_path(ctx))
                if s is not None
            ]
        for sid in schemas:
            sql = (
                _REL_SELECT + " WHERE r.schema_id = ? AND r.name = ? AND r.kind != 'internal'"
                " AND (j.job_status IS NULL OR j.job_status != 'INITIAL')"
            )
            args: list[object] = [sid, name.name]
            if kind_list is not None:
                sql += f" AND r.kind IN ({','.join('?' * len(kind_list))})"
                args += kind_list
            row = self.meta.q1(sql + " ORDER BY r.relation_id", args)
            if row is not None:
                return _rel(row)
        return None

    def relation(self, relation_id: int) -> Rel | None:
        """A relation by id, whatever its state."""
        row = self.meta.q1(_REL_SELECT + " WHERE r.relation_id = ?", (relation_id,))
        return None if row is None else _rel(row)

    def check_duplicate(self, schema_id: int, name: str) -> Rel | None:
        """check_relation_name_duplicated (root_catalog.rs:1063-1112): the existing visible
        relation of that name, if any."""
        row = self.meta.q1(
            _REL_SELECT + " WHERE r.schema_id = ? AND r.name = ? AND r.kind != 'internal'"
            " AND (j.job_status IS NULL OR j.job_status != 'INITIAL') ORDER BY r.relation_id",
            (schema_id, name),
        )
        return None if row is None else _rel(row)

    @staticmethod
    def duplicate_error(rel: Rel) -> CatalogDuplicated:
        """The name clash with ``rel`` (``... and is still being created`` for a creating
        job)."""
        creating = rel.status is not None and rel.status != "CREATED"
        if rel.kind in ("source", "view"):
            creating = False
        suffix = " and is still being created" if creating else ""
        return CatalogDuplicated(f"{rel.kind} named {rel.name} already exists{suffix}")

    # ------------------------------------------------------------------ databases and schemas

    def create_database(
        self,
        ctx: Context,
        name: str,
        *,
        if_not_exists: bool = False,
        owner: str | None = None,
        barrier_interval_ms: int | None = None,
        checkpoint_frequency: int | None = None,
    ) -> Result:
        """create_database.rs:30-110."""
        _, is_super, can_db, _, _ = self.users.user(ctx.user_id)
        if not can_db and not is_super:
            raise PermissionDenied("permission denied to create database")
        if self.meta.val("SELECT 1 FROM database WHERE name = ?", (name,)):
            if if_not_exists:
                return Result([f'database "{name}" exists, skipping'])
            raise CatalogDuplicated(f"database named {name} already exists")
        owner_id = ctx.user_id
        if owner is not None:
            v = self.meta.val("SELECT user_id FROM rw_user WHERE name = ?", (owner,))
            if v is None:
                raise CatalogNotFound("user", owner)
            owner_id = int(v)
        now = self.meta.now()
        with self.store.transaction():
            db_id = self.store.next_id("object")
            self.conn.execute(
                "INSERT INTO database(database_id, name, owner_id, barrier_interval_ms,"
                " checkpoint_frequency, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (db_id, name, owner_id, barrier_interval_ms, checkpoint_frequency, now),
            )
            for s in ("public", "pg_catalog", "information_schema", "rw_catalog"):
                sid = self.store.next_id("object")
                self.conn.execute(
                    "INSERT INTO schema(schema_id, name, database_id, owner_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (sid, s, db_id, owner_id, now),
                )
        return Result()

    def database_id(self, name: str) -> int:
        """The id of a database by name; 3D000 ``database not found`` otherwise."""
        v = self.meta.val("SELECT database_id FROM database WHERE name = ?", (name,))
        if v is None:
            raise CatalogNotFound("database", name)
        return int(v)

    def drop_database(self, ctx: Context, name: str, *, if_exists: bool = False) -> Result:
        """drop_database.rs:28-90; databases always drop in cascade mode."""
        current = self.meta.val(
            "SELECT name FROM database WHERE database_id = ?", (ctx.database_id,)
        )
        if current == name:
            raise PermissionDenied("cannot drop the currently open database")
        v = self.meta.q1("SELECT database_id, owner_id FROM database WHERE name = ?", (name,))
        if v is None:
            if if_exists:
                return Result([f'database "{name}" does not exist, skipping'])
            raise CatalogNotFound("database", name)
        db_id, owner_id = int(v[0]), int(v[1])
        _, is_super, _, _, is_admin = self.users.user(ctx.user_id)
        owner_admin = bool(
            self.meta.val("SELECT is_admin FROM rw_user WHERE user_id = ?", (owner_id,))
        )
        if owner_admin and not is_admin:
            raise PermissionDenied("only admin users can drop databases created by admin users")
        if not is_super and owner_id != ctx.user_id:
            raise PermissionDenied(  # privilege.rs:148-157
                "Only the owner, and superuser can drop or alter a schema or database."
            )
        ids = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM relation WHERE database_id = ? AND kind != 'internal'",
                (db_id,),
            )
        ]
        self.refuse_dropping_creating(ids, "database")
        with self.store.transaction():
            self.remove_relations(ids)
            self.conn.execute("DELETE FROM schema WHERE database_id = ?", (db_id,))
            self.conn.execute("DELETE FROM barrier_state WHERE database_id = ?", (db_id,))
            self.conn.execute("DELETE FROM database WHERE database_id = ?", (db_id,))
        self.meta.commit_actions()
        return Result()

    def create_schema(
        self, ctx: Context, name: str, *, if_not_exists: bool = False, owner: str | None = None
    ) -> Result:
        """create_schema.rs:30-90."""
        if self.schema_id(ctx.database_id, name) is not None:
            if if_not_exists:
                return Result([f'schema "{name}" exists, skipping'])
            raise CatalogDuplicated(f"schema named {name} already exists")
        owner_id = ctx.user_id
        if owner is not None:
            oid = self.users.user_id(owner)
            if oid is None:
                raise CatalogNotFound("user", owner)
            owner_id = oid
        with self.store.transaction():
            sid = self.store.next_id("object")
            self.conn.execute(
                "INSERT INTO schema(schema_id, name, database_id, owner_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (sid, name, ctx.database_id, owner_id, self.meta.now()),
            )
        return Result()

    def drop_schema(
        self, ctx: Context, name: str, *, if_exists: bool = False, cascade: bool = False
    ) -> Result:
        """drop_schema.rs:28-75; meta ensure_schema_empty (controller/utils.rs:1012-1022)."""
        if name in SYSTEM_SCHEMAS:
            raise ProtocolError(
                f"cannot drop schema {name} because it is required by the database system"
            )
        sid = self.schema_id(ctx.database_id, name)
        if sid is None:
            if if_exists:
                return Result([f'schema "{name}" does not exist, skipping'])
            raise CatalogNotFound("schema", name)
        owner = self.meta.val("SELECT owner_id FROM schema WHERE schema_id = ?", (sid,))
        if not self.users.is_super(ctx) and owner != ctx.user_id:
            raise PermissionDenied(  # privilege.rs:148-157
                "Only the owner, and superuser can drop or alter a schema or database."
            )
        ids = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM relation WHERE schema_id = ? AND kind != 'internal'",
                (sid,),
            )
        ]
        if ids and not cascade:
            raise MetaPermissionDenied("schema is not empty")
        self.refuse_dropping_creating(self.cascade_closure(ids), "schema")
        with self.store.transaction():
            self.remove_relations(self.cascade_closure(ids))
            self.conn.execute("DELETE FROM schema WHERE schema_id = ?", (sid,))
        self.meta.commit_actions()
        return Result()

    # ------------------------------------------------------------------ relation rows

    def insert_relation(
        self,
        rid: int,
        kind: str,
        name: str,
        schema_id: int,
        ctx: Context,
        definition: str,
        columns: Sequence[ColumnSpec],
        primary_key: Sequence[int] = (),
        created: bool = True,
        extra: Mapping[str, object] | None = None,
    ) -> None:
        """A relation row and its columns (inside a transaction); ``created`` False leaves
        created_at to the job's finish."""
        now = self.meta.now()
        cols = ["relation_id", "kind", "name", "schema_id", "database_id", "owner_id"]
        vals: list[object] = [rid, kind, name, schema_id, ctx.database_id, ctx.user_id]
        cols += ["definition", "initialized_at", "initialized_at_cluster_version"]
        vals += [definition, now, CLUSTER_VERSION]
        if created:
            cols += ["created_at", "created_at_cluster_version"]
            vals += [now, CLUSTER_VERSION]
        for k, v in (extra or {}).items():
            cols.append(k)
            vals.append(v)
        self.conn.execute(
            f"INSERT INTO relation({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            vals,
        )
        pk_pos = {p: i for i, p in enumerate(primary_key)}
        for pos, c in enumerate(columns):
            column_id = 0 if (c.is_hidden and c.name == "_row_id") else pos + 1
            self.conn.execute(
                "INSERT INTO relation_column(relation_id, position, column_id, name, type_oid,"
                " rw_type, is_hidden, is_nullable, pk_position, default_expr, generated_expr)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rid,
                    pos,
                    column_id,
                    c.name,
                    c.type_oid,
                    c.rw_type,
                    int(c.is_hidden),
                    int(c.is_nullable),
                    pk_pos.get(pos),
                    c.default_expr,
                    c.generated_expr,
                ),
            )

    def columns(self, relation_id: int) -> list[ColumnSpec]:
        """A relation's columns in order (hidden ones included)."""
        return [
            ColumnSpec(
                str(r[0]),
                int(r[1]),
                str(r[2]),
                bool(r[3]),
                bool(r[4]),
                None if r[5] is None else str(r[5]),
                None if r[6] is None else str(r[6]),
            )
            for r in self.conn.execute(
                "SELECT name, type_oid, rw_type, is_hidden, is_nullable, default_expr,"
                " generated_expr FROM relation_column WHERE relation_id = ? ORDER BY position",
                (relation_id,),
            )
        ]

    def insert_dependencies(self, dependent: int, referenced: Iterable[int]) -> None:
        """``dependent`` depends on each of ``referenced`` (DROP RESTRICT checks these)."""
        for r in set(referenced):
            self.conn.execute(
                "INSERT OR IGNORE INTO dependency(referenced_id, dependent_id) VALUES (?, ?)",
                (r, dependent),
            )

    def streaming_inputs(self, ids: Iterable[int]) -> list[Rel]:
        """Follow views to the relations a query actually streams from."""
        out: dict[int, Rel] = {}
        stack = list(ids)
        seen: set[int] = set()
        while stack:
            rid = stack.pop()
            if rid in seen:
                continue
            seen.add(rid)
            rel = self.relation(rid)
            if rel is None:
                continue
            if rel.kind == "view":
                stack.extend(
                    int(r[0])
                    for r in self.conn.execute(
                        "SELECT referenced_id FROM dependency WHERE dependent_id = ?", (rid,)
                    )
                )
            else:
                out[rid] = rel
        return [out[k] for k in sorted(out)]

    def create_data_table(self, table_id: int) -> None:
        """The table's rows live in ``rel_<id>`` (store/schema.py); ``_row_id`` is its key."""
        cols = self.columns(table_id)
        defs = []
        for c in cols:
            if c.is_hidden and c.name == "_row_id":
                defs.append(f"{_quote_ident(c.name)} INTEGER PRIMARY KEY")
            else:
                defs.append(f"{_quote_ident(c.name)} {_sqlite_affinity(c.type_oid)}")
        with self.store.transaction():
            self.conn.execute(
                f"CREATE TABLE IF NOT EXISTS {data_table(table_id)} ({', '.join(defs)})"
            )

    # ------------------------------------------------------------------ removal (drop_op.rs)

    def cascade_closure(self, ids: Iterable[int]) -> list[int]:
        """The objects plus everything that (transitively) depends on them, and sinks into
        them (get_referring_objects_cascade, controller/utils.rs:478-520)."""
        out: list[int] = []
        stack = list(ids)
        seen: set[int] = set()
        while stack:
            rid = stack.pop()
            if rid in seen:
                continue
            seen.add(rid)
            out.append(rid)
            stack.extend(
                int(r[0])
                for r in self.conn.execute(
                    "SELECT dependent_id FROM dependency WHERE referenced_id = ?"
                    " UNION SELECT relation_id FROM relation WHERE target_table_id = ?",
                    (rid, rid),
                )
            )
        return out

    def refuse_dropping_creating(self, ids: Iterable[int], kind: str) -> None:
        """drop_object (src/meta/src/controller/catalog/drop_op.rs:212-230): a drop whose
        removed objects include streaming jobs not yet Created is refused, except a single
        creating sink dropped as a sink (which is cancelled)."""
        wanted = sorted(set(ids))
        if not wanted:
            return
        marks = ", ".join("?" for _ in wanted)
        n = int(
            self.meta.val(
                f"SELECT count(*) FROM streaming_job WHERE job_id IN ({marks})"
                " AND job_status IN ('INITIAL', 'CREATING')",
                wanted,
            )
        )
        if n and not (n == 1 and kind == "sink"):
            raise MetaPermissionDenied(
                f"cannot drop {n} streaming job(s) that are still being created; please cancel"
                " them first"
            )

    def remove_relations(self, ids: Iterable[int], *, cancelled: bool = True) -> None:
        """Delete relations with everything they own (inside a transaction).  Foreground
        creates waiting on a removed job fail as RisingWave's do (streaming_job.rs:1059-1076)."""
        for rid in ids:
            kind = self.meta.val("SELECT kind FROM relation WHERE relation_id = ?", (rid,))
            if kind is None:
                continue
            frag_ids = [
                int(r[0])
                for r in self.conn.execute(
                    "SELECT fragment_id FROM fragment WHERE job_id = ?", (rid,)
                )
            ]
            for fid in frag_ids:
                self.conn.execute("DELETE FROM actor WHERE fragment_id = ?", (fid,))
                self.conn.execute(
                    "DELETE FROM fragment_relation WHERE source_fragment_id = ?"
                    " OR target_fragment_id = ?",
                    (fid, fid),
                )
            internal = [
                int(r[0])
                for r in self.conn.execute(
                    "SELECT relation_id FROM relation WHERE owner_job_id = ?", (rid,)
                )
            ]
            for iid in [*internal, rid]:
                self.conn.execute("DELETE FROM relation_column WHERE relation_id = ?", (iid,))
                self.conn.execute("DELETE FROM comment WHERE object_id = ?", (iid,))
                self.conn.execute("DELETE FROM privilege WHERE object_id = ?", (iid,))
                self.conn.execute("DELETE FROM relation WHERE relation_id = ?", (iid,))
            self.conn.execute("DELETE FROM fragment WHERE job_id = ?", (rid,))
            self.conn.execute(
                "DELETE FROM dependency WHERE referenced_id = ? OR dependent_id = ?", (rid, rid)
            )
            status = self.meta.val("SELECT job_status FROM streaming_job WHERE job_id = ?", (rid,))
            self.conn.execute("DELETE FROM streaming_job WHERE job_id = ?", (rid,))
            if kind == "table":
                self.conn.execute(f"DROP TABLE IF EXISTS {data_table(rid)}")
            self.waits.notify_removed(rid, str(kind), status, cancelled)
        self.waits.check_wait_all()

    # ------------------------------------------------------------------ resolution for ALTER

    def resolve_job(self, ctx: Context, kind: str, name: ObjectName, what: str) -> Rel:
        """alter_utils.rs:27-110: resolve the object of an ALTER on a streaming job."""
        if kind in ("table", "materialized view", "index"):
            rel = self.lookup(ctx, name, TABLE_NAMESPACE)
            # ALTER TABLE first looks among created tables only (mod.rs:1690-1725).
            if rel is None or (kind == "table" and rel.status != "CREATED"):
                raise CatalogNotFound("table", name.name)
            if rel.kind != kind:
                raise InvalidInputSyntax(
                    f"cannot alter {what} of {PROTO_KIND[rel.kind]} {rel.name} by {STMT_KIND[kind]}"
                )
        elif kind == "sink":
            rel = self.lookup(ctx, name, ("sink",))
            if rel is None:
                raise CatalogNotFound("sink", name.name)
        elif kind == "source":
            rel = self.lookup(ctx, name, ("source",))
            if rel is None:
                raise CatalogNotFound("source", name.name)
            if not rel.is_shared:
                raise InvalidInputSyntax(
                    f"cannot alter {what} of non-shared source.\nUse `ALTER MATERIALIZED VIEW` to "
                    "alter the materialized view using the source instead."
                )
        else:
            raise InvalidInputSyntax(f"cannot alter {what} of {kind}")
        self.check_drop_alter(ctx, rel)
        return rel

    def resolve_for_alter(self, ctx: Context, kind: str, name: ObjectName) -> Rel:
        """The object of an ALTER ... RENAME / SWAP / OWNER / SET SCHEMA, with the drop/alter
        privilege checked."""
        rel = self.lookup(ctx, name)
        if rel is None or rel.kind != kind:
            raise CatalogNotFound(
                {"materialized view": "table", "index": "index"}.get(kind, kind), name.name
            )
        self.check_drop_alter(ctx, rel)
        return rel

    # -------------------------------------------------------- rename, swap, owner, schema, comment

    def rename(self, ctx: Context, kind: str, name: ObjectName, new_name: str) -> Result:
        """ALTER <kind> <name> RENAME TO <new> (meta AlterName)."""
        rel = self.resolve_for_alter(ctx, kind, name)
        existing = self.check_duplicate(rel.schema_id, new_name)
        if existing is not None:
            raise self.duplicate_error(existing)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE relation SET name = ?, definition = ? WHERE relation_id = ?",
                (new_name, rename_in_definition(rel.definition, new_name), rel.id),
            )
        return Result()

    def swap(self, ctx: Context, kind: str, name: ObjectName, other: ObjectName) -> Result:
        """ALTER <kind> <a> SWAP WITH <b> (meta AlterSwapRename): the two exchange names."""
        a = self.resolve_for_alter(ctx, kind, name)
        b = self.resolve_for_alter(ctx, kind, other)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE relation SET name = ?, schema_id = ?, definition = ? WHERE relation_id = ?",
                (b.name, b.schema_id, rename_in_definition(a.definition, b.name), a.id),
            )
            self.conn.execute(
                "UPDATE relation SET name = ?, schema_id = ?, definition = ? WHERE relation_id = ?",
                (a.name, a.schema_id, rename_in_definition(b.definition, a.name), b.id),
            )
        return Result()

    def alter_owner(self, ctx: Context, kind: str, name: ObjectName, owner: str) -> Result:
        """ALTER <kind> <name> OWNER TO <user>."""
        rel = self.resolve_for_alter(ctx, kind, name)
        uid = self.users.user_id(owner)
        if uid is None:
            raise CatalogNotFound("user", owner)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE relation SET owner_id = ? WHERE relation_id = ? OR owner_job_id = ?",
                (uid, rel.id, rel.id),
            )
        return Result()

    def set_schema(self, ctx: Context, kind: str, name: ObjectName, schema: str) -> Result:
        """ALTER <kind> <name> SET SCHEMA <schema>."""
        rel = self.resolve_for_alter(ctx, kind, name)
        sid = self.schema_id(ctx.database_id, schema)
        if sid is None:
            raise CatalogNotFound("schema", schema)
        existing = self.check_duplicate(sid, rel.name)
        if existing is not None:
            raise self.duplicate_error(existing)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE relation SET schema_id = ? WHERE relation_id = ? OR owner_job_id = ?",
                (sid, rel.id, rel.id),
            )
        return Result()

    def comment_on(
        self, ctx: Context, relation_id: int, column: str | None, text: str | None
    ) -> Result:
        """COMMENT ON TABLE/COLUMN (meta CommentOn); None removes the comment."""
        objsubid = 0
        if column is not None:
            pos = self.meta.val(
                "SELECT position FROM relation_column WHERE relation_id = ? AND name = ?",
                (relation_id, column),
            )
            if pos is None:
                raise CatalogNotFound("column", column)
            objsubid = int(pos) + 1
        with self.store.transaction():
            if text is None:
                self.conn.execute(
                    "DELETE FROM comment WHERE object_id = ? AND objsubid = ?",
                    (relation_id, objsubid),
                )
            else:
                self.conn.execute(
                    "INSERT OR REPLACE INTO comment(object_id, objsubid, description)"
                    " VALUES (?, ?, ?)",
                    (relation_id, objsubid, text),
                )
        return Result()

    # ------------------------------------------------------------------ streaming job status

    def finish_streaming_job(self, job_id: int, epoch: int) -> None:
        """finish_streaming_job (controller/streaming_job.rs:1551-1599): the job is Created at
        ``epoch`` (its relation's created_at is now)."""
        self.conn.execute(
            "UPDATE streaming_job SET job_status = 'CREATED', created_epoch = ? WHERE job_id = ?",
            (epoch, job_id),
        )
        self.conn.execute(
            "UPDATE relation SET created_at = ?, created_at_cluster_version = ?"
            " WHERE relation_id = ?",
            (self.meta.now(), CLUSTER_VERSION, job_id),
        )

    def job_status(self, job_id: int) -> str | None:
        """A streaming job's status (INITIAL, CREATING, CREATED), None if it is no job."""
        v = self.meta.val("SELECT job_status FROM streaming_job WHERE job_id = ?", (job_id,))
        return None if v is None else str(v)
