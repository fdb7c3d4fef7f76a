"""The catalog: databases, schemas, relations (tables, views, materialized views, indexes,
sources, sinks and their internal tables), their columns and dependencies, name resolution
through the search path, privilege checks on drop/alter, comments, the rendering of the read
queries bound to relation ids, and the removal of relations with everything they own
(renames, owners and schemas are the alter part's, alter.py).

RisingWave: the catalog controller, ``src/meta/src/controller/catalog/`` (``create_op.rs``,
``drop_op.rs`` drop_object, ``alter_op.rs``, ``get_op.rs``, ``list_op.rs``), ``rename.rs``,
``utils.rs`` (duplicate checks, get_referring_objects_cascade, ensure_schema_empty),
``streaming_job.rs`` (try_abort_creating_streaming_job); the frontend's resolution and checks,
``src/frontend/src/catalog/root_catalog.rs``, ``src/frontend/src/handler/privilege.rs``,
``handler/create_database.rs``, ``drop_database.rs``, ``create_schema.rs``, ``drop_schema.rs``,
``alter_utils.rs``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from rwshim.common.acl import CheckItem
from rwshim.engine.kinds import PROTO_KIND, STMT_KIND, TABLE_NAMESPACE
from rwshim.engine.privileges import Privileges
from rwshim.engine.relrow import _REL_SELECT, Owned, _rel
from rwshim.engine.relrow import Rel as Rel
from rwshim.engine.relrow import view_sql as view_sql
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
from rwshim.sql import unparse
from rwshim.store.store import SYSTEM_SCHEMAS


class Catalog:
    """The catalog controller over the store."""

    def __init__(self, meta: Meta, users: Users, waits: Waits, privileges: Privileges) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.waits = waits
        self.privileges = privileges

    # ------------------------------------------------------------------ privileges

    def check_drop_alter(self, ctx: Context, rel: Owned) -> None:
        """privilege.rs:104-138 (``Privileges.check_drop_alter``) for any schema object: a
        relation, a secret, a connection."""
        self.privileges.check_drop_alter(ctx, rel.owner_id, rel.schema_id)

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
        search path that exists; the session's user needs CREATE on it
        (get_database_and_schema_id_for_create, session.rs:1188-1213)."""
        found = self.find_creation_schema(ctx, name.schema)
        self.privileges.check_create_in_schema(ctx, *found)
        return found

    def find_creation_schema(self, ctx: Context, schema: str | None) -> tuple[int, str]:
        """The named schema, else the first of the search path that exists."""
        if schema is not None:
            sid = self.schema_id(ctx.database_id, schema)
            if sid is None:
                raise CatalogNotFound("schema", schema)
            return sid, schema
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

    def relation_ids_in_schema(self, schema_id: int, kind: str) -> list[int]:
        """Every relation of ``kind`` in a schema, created or not (the schema catalog's
        iter_* that GRANT ... ON ALL <kind> IN SCHEMA walks)."""
        return [
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM visible_relation WHERE schema_id = ? AND kind = ?"
                " ORDER BY relation_id",
                (schema_id, kind),
            )
        ]

    def schemas_of(self, database_id: int) -> list[tuple[int, str]]:
        """The schemas of a database as (id, name)."""
        return [
            (int(r[0]), str(r[1]))
            for r in self.conn.execute(
                "SELECT schema_id, name FROM schema WHERE database_id = ? ORDER BY schema_id",
                (database_id,),
            )
        ]

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
        resource_group: str | None = None,
        barrier_interval_ms: int | None = None,
        checkpoint_frequency: int | None = None,
        check_options: Callable[[], list[str]] | None = None,
    ) -> Result:
        """create_database.rs:30-110; ``check_options`` runs after the owner is found and
        returns the options' notices (Params.create_database)."""
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
        notices = check_options() if check_options is not None else []
        now = self.meta.now()
        with self.store.transaction():
            db_id = self.store.next_id("object")
            self.conn.execute(
                "INSERT INTO database(database_id, name, owner_id, resource_group,"
                " barrier_interval_ms, checkpoint_frequency, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    db_id,
                    name,
                    owner_id,
                    resource_group or "default",
                    barrier_interval_ms,
                    checkpoint_frequency,
                    now,
                ),
            )
            for s in ("public", "pg_catalog", "information_schema", "rw_catalog"):
                sid = self.store.next_id("object")
                self.conn.execute(
                    "INSERT INTO schema(schema_id, name, database_id, owner_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (sid, s, db_id, owner_id, now),
                )
        return Result(notices)

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
        is_admin = self.users.user(ctx.user_id)[4]
        owner_admin = bool(
            self.meta.val("SELECT is_admin FROM rw_user WHERE user_id = ?", (owner_id,))
        )
        if owner_admin and not is_admin:
            raise PermissionDenied("only admin users can drop databases created by admin users")
        self.privileges.check_db_schema_owner(ctx, owner_id)
        ids = self.cascade_closure(
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM relation WHERE database_id = ? AND kind != 'internal'",
                (db_id,),
            )
        )
        self.refuse_dropping_creating(ids, "database")
        self.refuse_cross_database(ids, db_id)
        with self.store.transaction():
            self.remove_relations(ids)
            self.privileges.forget_objects(
                [db_id]
                + [
                    int(r[0])
                    for r in self.conn.execute(
                        "SELECT schema_id FROM schema WHERE database_id = ? UNION ALL "
                        "SELECT function_id FROM function WHERE database_id = ?",
                        (db_id, db_id),
                    )
                ]
            )
            self._remove_subscriptions("database_id", db_id)
            self.conn.execute("DELETE FROM secret WHERE database_id = ?", (db_id,))
            self.conn.execute("DELETE FROM function WHERE database_id = ?", (db_id,))
            self.conn.execute("DELETE FROM connection WHERE database_id = ?", (db_id,))
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
        # create_schema.rs:78-83: CREATE on the database
        db_name, db_owner = self.meta.q1(
            "SELECT name, owner_id FROM database WHERE database_id = ?", (ctx.database_id,)
        ) or ("", 0)
        self.privileges.check(
            ctx, [CheckItem(int(db_owner), "CREATE", str(db_name), "database", ctx.database_id)]
        )
        with self.store.transaction():
            sid = self.store.next_id("object")
            self.conn.execute(
                "INSERT INTO schema(schema_id, name, database_id, owner_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (sid, name, ctx.database_id, owner_id, self.meta.now()),
            )
            # create_op.rs:156-159
            self.privileges.apply_defaults(
                sid, "schema", database_id=ctx.database_id, schema_id=None, owner_id=owner_id
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
        self.privileges.check_db_schema_owner(ctx, int(owner))
        ids = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM relation WHERE schema_id = ? AND kind != 'internal'",
                (sid,),
            )
        ]
        # Secrets and connections are schema objects too; their users anywhere go with them.
        others = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT secret_id FROM secret WHERE schema_id = ? UNION ALL "
                "SELECT connection_id FROM connection WHERE schema_id = ? UNION ALL "
                "SELECT function_id FROM function WHERE schema_id = ? UNION ALL "
                "SELECT subscription_id FROM subscription WHERE schema_id = ?",
                (sid, sid, sid, sid),
            )
        ]
        if (ids or others) and not cascade:
            raise MetaPermissionDenied("schema is not empty")
        ids += self._users_of(others)
        removed = self.cascade_closure(ids)
        self.refuse_dropping_creating(removed, "schema")
        self.refuse_cross_database(removed, ctx.database_id)
        with self.store.transaction():
            self.remove_relations(removed)
            self.privileges.forget_objects([sid, *others])
            self._remove_subscriptions("schema_id", sid)
            self.conn.execute("DELETE FROM secret WHERE schema_id = ?", (sid,))
            self.conn.execute("DELETE FROM connection WHERE schema_id = ?", (sid,))
            self.conn.execute("DELETE FROM function WHERE schema_id = ?", (sid,))
            self.conn.execute("DELETE FROM schema WHERE schema_id = ?", (sid,))
        self.meta.commit_actions()
        return Result()

    def _users_of(self, object_ids: Iterable[int]) -> list[int]:
        """Relations that reference these secrets or connections (directly, or through a
        connection that references a secret)."""
        out: list[int] = []
        todo = list(object_ids)
        seen: set[int] = set()
        while todo:
            oid = todo.pop()
            if oid in seen:
                continue
            seen.add(oid)
            for (dep,) in self.conn.execute(
                "SELECT dependent_id FROM object_dependency WHERE referenced_id = ?", (oid,)
            ):
                if self.meta.q1("SELECT 1 FROM relation WHERE relation_id = ?", (dep,)):
                    out.append(int(dep))
                else:
                    todo.append(int(dep))
        return out

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
        vals += [definition, now, self.meta.release.cluster_version]
        if created:
            cols += ["created_at", "created_at_cluster_version"]
            vals += [now, self.meta.release.cluster_version]
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
                " rw_type, is_hidden, is_nullable, pk_position, default_expr, generated_expr,"
                " pk_desc, pk_nulls_smallest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                    int(c.pk_desc),
                    int(c.pk_nulls_smallest),
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

    def refuse_cross_database(self, ids: Iterable[int], database_id: int) -> None:
        """drop_object (drop_op.rs:253-262, after the creating-jobs check of 213-231): a drop
        may not remove objects of another database (a materialized view there reading what is
        dropped)."""
        for rid in sorted(set(ids)):
            db = self.meta.val("SELECT database_id FROM relation WHERE relation_id = ?", (rid,))
            if db is not None and int(db) != database_id:
                raise MetaPermissionDenied(
                    f"Referenced by other objects in database {db}, please drop them manually"
                )

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
                self.privileges.forget_objects([iid])
                self.conn.execute("DELETE FROM relation WHERE relation_id = ?", (iid,))
            self.conn.execute("DELETE FROM fragment WHERE job_id = ?", (rid,))
            self.conn.execute(
                "DELETE FROM dependency WHERE referenced_id = ? OR dependent_id = ?", (rid, rid)
            )
            # a subscription goes with the table or materialized view it reads (CASCADE; a
            # RESTRICT drop refused before: engine.ddl)
            self._remove_subscriptions("dependent_table_id", rid)
            status = self.meta.val("SELECT job_status FROM streaming_job WHERE job_id = ?", (rid,))
            self.conn.execute("DELETE FROM streaming_job WHERE job_id = ?", (rid,))
            self.waits.notify_removed(rid, str(kind), status, cancelled)
        self.waits.check_wait_all()

    def _remove_subscriptions(self, column: str, value: int) -> None:
        """Delete the subscriptions whose ``column`` is ``value``, with their privileges."""
        subs = [
            int(r[0])
            for r in self.conn.execute(
                f"SELECT subscription_id FROM subscription WHERE {column} = ?", (value,)
            )
        ]
        if subs:
            self.privileges.forget_objects(subs)
            self.conn.execute(f"DELETE FROM subscription WHERE {column} = ?", (value,))

    # ------------------------------------------------------------------ resolution for ALTER

    def resolve_job(self, ctx: Context, kind: str, name: ObjectName, what: str) -> Rel:
        """alter_utils.rs:27-110: resolve the object of an ALTER on a streaming job."""
        if kind in ("table", "materialized view", "index"):
            rel = self.lookup(ctx, name, TABLE_NAMESPACE)
            # ALTER TABLE first looks among created tables only (mod.rs:1690-1725).
            if rel is None or (kind == "table" and rel.status != "CREATED"):
                raise CatalogNotFound("table", name.name)
            if (
                what == "config"
                and rel.status not in (None, "CREATED")
                and not self.meta.release.alter_config_finds_creating
            ):
                # Release.alter_config_finds_creating (get_created_table_by_name)
                raise CatalogNotFound("table", name.name)
            if rel.kind != kind:
                raise InvalidInputSyntax(
                    f"cannot alter {what} of {PROTO_KIND[rel.kind]} {rel.name} by {STMT_KIND[kind]}"
                )
        elif kind == "sink":
            rel = self.lookup(ctx, name, ("sink",))
            # 448c657 finds a sink still being created (get_any_sink_by_name,
            # alter_utils.rs:96); the releases only created ones (get_created_sink_by_name,
            # v3.0.3 and v2.8.5 alter_utils.rs:110).
            if rel is None or (
                rel.status not in (None, "CREATED")
                and not self.meta.release.alter_finds_creating_sink
            ):
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

    # -------------------------------------------------------- names, read queries, comments

    def schema_name(self, schema_id: int) -> str:
        return str(self.meta.val("SELECT name FROM schema WHERE schema_id = ?", (schema_id,)))

    def view_of(self, relation_id: int) -> tuple[str, list[str]] | None:
        """A view's stored SQL and column names, None if the relation is no view."""
        rel = self.relation(relation_id)
        if rel is None or rel.kind != "view":
            return None
        sql = view_sql(rel.definition, self.schema_name(rel.schema_id), rel.name)
        return sql, [c.name for c in self.columns(relation_id)]

    def locate(self, relation_id: int) -> tuple[str, str, str] | None:
        """(database, schema, name) of a relation now, None if it is gone."""
        row = self.meta.q1(
            "SELECT d.name, s.name, r.name FROM relation r JOIN schema s ON"
            " s.schema_id = r.schema_id JOIN database d ON d.database_id = r.database_id"
            " WHERE r.relation_id = ?",
            (relation_id,),
        )
        return None if row is None else (str(row[0]), str(row[1]), str(row[2]))

    def read_query(self, template_json: str, database_id: int) -> str:
        """A read-query template (rwshim/sql/unparse/bound.py) rendered with the current names
        of the relations it references, as seen from ``database_id``."""
        home = str(self.meta.val("SELECT name FROM database WHERE database_id = ?", (database_id,)))
        return unparse.render(template_json, self.locate, home)

    def render_read_queries(self, changed: Iterable[int]) -> None:
        """Render again (inside a transaction) the read queries of the relations that read a
        relation of ``changed`` (renamed, moved, or in a renamed schema or database)."""
        ids = sorted(set(changed))
        if not ids:
            return
        marks = ", ".join("?" for _ in ids)
        # the references of a template (expanded views' included): refs[i][3] is a relation id
        rows = self.conn.execute(
            "SELECT r.relation_id, r.read_query_template, r.database_id FROM relation r"
            " WHERE r.read_query_template IS NOT NULL AND EXISTS (SELECT 1 FROM json_each("
            "r.read_query_template, '$.refs') ref WHERE json_extract(ref.value, '$[3]')"
            f" IN ({marks}))",
            ids,
        ).fetchall()
        for rid, template, db_id in rows:
            self.conn.execute(
                "UPDATE relation SET read_query = ? WHERE relation_id = ?",
                (self.read_query(str(template), int(db_id)), int(rid)),
            )

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
            (self.meta.now(), self.meta.release.cluster_version, job_id),
        )
        # streaming_job.rs:1785-1787: the owner's default privileges apply once it is created
        self.privileges.apply_relation_defaults(job_id)

    def job_status(self, job_id: int) -> str | None:
        """A streaming job's status (INITIAL, CREATING, CREATED), None if it is no job."""
        v = self.meta.val("SELECT job_status FROM streaming_job WHERE job_id = ?", (job_id,))
        return None if v is None else str(v)
