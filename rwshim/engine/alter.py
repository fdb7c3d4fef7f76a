"""ALTER ... RENAME TO / SWAP WITH / OWNER TO / SET SCHEMA of relations, and ALTER DATABASE |
SCHEMA ... RENAME TO / OWNER TO, with the definitions they rewrite.

RisingWave: the frontend's checks, ``src/frontend/src/handler/alter_rename.rs``,
``alter_swap_rename.rs``, ``alter_owner.rs``, ``alter_set_schema.rs``; meta's
``src/meta/src/controller/catalog/alter_op.rs`` (alter_name, alter_database_name,
alter_schema_name, alter_swap_rename, alter_owner, alter_schema), ``controller/utils.rs``
(rename_relation 2004-2097, rename_relation_refer 2165-2258, check_relation_name_duplicate,
check_schema_name_duplicate, check_database_name_duplicate) and ``controller/rename.rs``
(the definition rewrites, rwshim/sql/unparse/rename.py).

A renamed relation's own definition names it anew (``alter_relation_rename``; a view's is its
``CREATE VIEW [schema.]name AS`` prefix, view_catalog.rs:68-74) and every relation that refers
to it has its definition rewritten (``alter_relation_rename_refs``); a move to another schema
rewrites nothing but a view's prefix, as in RisingWave.  rwshim also keeps the query each
materialized view or sink reads bound to relation ids: after any rename or move the read
queries that name a changed relation are rendered again (``Catalog.render_read_queries``).
"""

from __future__ import annotations

from collections.abc import Callable

from rwshim.engine.catalog import Catalog, Rel, view_sql
from rwshim.engine.kinds import PROTO_KIND, STMT_KIND, TABLE_NAMESPACE
from rwshim.engine.state import Meta
from rwshim.engine.subscriptions import Subscriptions
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.engine.users import Users
from rwshim.errors import (
    CatalogNotFound,
    InvalidInputSyntax,
    MetaCatalogDuplicated,
    NotImplementedError_,
    PermissionDenied,
    ProtocolError,
)
from rwshim.sql import unparse
from rwshim.store.store import SYSTEM_SCHEMAS

DDL = "/ddl_service.DdlService/"
# meta's ObjectType::as_str of a relation kind (an index is found as its index table first,
# check_relation_name_duplicate, controller/utils.rs:717-783)
_META_TYPE = {"materialized view": "table", "index": "table"}


class Alter:
    """Renames, swaps, owners and schemas of relations; renames and owners of schemas and
    databases."""

    def __init__(self, meta: Meta, users: Users, catalog: Catalog) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.users = users
        self.catalog = catalog
        # a renamed upstream's subscriptions (engine.subscriptions; set by the engine)
        self.subscriptions: Subscriptions | None = None

    # ------------------------------------------------------------------ resolution

    def _relation(self, ctx: Context, kind: str, name: ObjectName, check: str = "") -> Rel:
        """The relation an ALTER names: a table or materialized view by
        get_created_table_by_name, then ``check``: ``rename`` (alter_rename.rs:42-50, ``"t" is
        not a MATERIALIZED_VIEW``), ``schema`` (validate_table_type_for_alter,
        alter_utils.rs:27-49) or none (alter_owner.rs takes any table catalog); other kinds by
        their own look-up (a sink only once created)."""
        if kind in ("table", "materialized view"):
            rel = self.catalog.lookup(ctx, name, TABLE_NAMESPACE)
            if rel is None or rel.status != "CREATED":
                raise CatalogNotFound("table", name.name)
            if rel.kind != kind and check == "rename":
                raise InvalidInputSyntax(f'"{_written(name)}" is not a {PROTO_KIND[kind]}')
            if rel.kind != kind and check == "schema":
                raise InvalidInputSyntax(
                    f"cannot alter schema of {PROTO_KIND[rel.kind]} {rel.name} by {STMT_KIND[kind]}"
                )
            return rel
        rel = self.catalog.lookup(ctx, name, (kind,))
        if rel is None and kind == "source" and check == "rename":
            # handle_rename_source (alter_rename.rs:208-219): the source a table with connector
            # owns is found by name and refused
            table = self.catalog.lookup(ctx, name, ("table",))
            if table is not None and table.connector is not None:
                raise InvalidInputSyntax("Use `ALTER TABLE` to alter a table with connector.")
        if rel is None or (kind == "sink" and rel.status != "CREATED"):
            raise CatalogNotFound(kind, name.name)
        return rel

    def _swapped(self, ctx: Context, kind: str, a: ObjectName, b: ObjectName) -> tuple[Rel, Rel]:
        """The two relations of a swap (alter_swap_rename.rs:57-93)."""
        if kind not in ("table", "materialized view"):
            return self._relation(ctx, kind, a), self._relation(ctx, kind, b)
        ra, rb = self._relation(ctx, kind, a), self._relation(ctx, kind, b)
        if ra.kind != rb.kind:
            raise PermissionDenied(f"cannot swap between {a.name} and {b.name}: type mismatch")
        if ra.kind != kind:
            raise CatalogNotFound(kind, a.name)
        return ra, rb

    def _duplicate(self, schema_id: int, name: str, call: str) -> None:
        """check_relation_name_duplicate as meta answers it (gRPC AlreadyExists)."""
        row = self.catalog.check_duplicate(schema_id, name)
        if row is not None:
            creating = row.status not in (None, "CREATED") and (
                row.kind not in ("source", "view") or row.is_shared
            )
            word = _META_TYPE.get(row.kind, row.kind)
            raise MetaCatalogDuplicated(DDL + call, word, name, creating=creating)

    # ------------------------------------------------------------------ relations

    def rename(self, ctx: Context, kind: str, name: ObjectName, new_name: str) -> Result:
        """ALTER <kind> <name> RENAME TO <new> (alter_rename.rs; meta alter_name)."""
        if kind == "database":
            return self.rename_database(ctx, name.name, new_name)
        if kind == "schema":
            return self.rename_schema(ctx, name.name, new_name)
        rel = self._relation(ctx, kind, name, "rename")
        self.catalog.check_drop_alter(ctx, rel)
        self._duplicate(rel.schema_id, new_name, "AlterName")
        with self.store.transaction():
            self._rename_one(rel, new_name)
            self._rename_refs(rel, rel.name, new_name)
            if self.subscriptions is not None:
                self.subscriptions.rename_upstream(rel.id, rel.name, new_name)
            self.catalog.render_read_queries([rel.id])
        return Result()

    def swap(self, ctx: Context, kind: str, name: ObjectName, other: ObjectName) -> Result:
        """ALTER <kind> <a> SWAP WITH <b> (alter_swap_rename.rs; meta alter_swap_rename): the
        two exchange names, each keeping its schema."""
        if kind == "schema":
            raise NotImplementedError_("ALTER SCHEMA SWAP WITH is not supported yet")
        a, b = self._swapped(ctx, kind, name, other)
        self.catalog.privileges.check_swap(ctx, a.owner_id, b.owner_id)
        with self.store.transaction():
            a_name, b_name = a.name, b.name
            self._rename_one(a, b_name)
            self._rename_one(b, a_name)
            self._rename_refs(a, a_name, b_name)
            self._rename_refs(b, b_name, a_name)
            self.catalog.render_read_queries([a.id, b.id])
        return Result()

    def alter_owner(self, ctx: Context, kind: str, name: ObjectName, owner: str) -> Result:
        """ALTER <kind> <name> OWNER TO <user> (alter_owner.rs; meta alter_owner: a table's
        indexes and the state tables of both go along)."""
        if kind == "database":
            return self.alter_database_owner(ctx, name.name, owner)
        if kind == "schema":
            return self.alter_schema_owner(ctx, name.name, owner)
        uid = self.users.user_id(owner)
        if uid is None:
            raise CatalogNotFound("user", owner)
        rel = self._relation(ctx, kind, name)
        self.catalog.check_drop_alter(ctx, rel)
        self.catalog.privileges.check_new_owner(ctx, uid, rel.schema_id)
        if rel.owner_id == uid:
            return Result()
        self.catalog.privileges.check_not_owned_by_admin(rel.owner_id, _written(name))
        ids = [rel.id, *self._indexes_of(rel)]
        with self.store.transaction():
            for rid in ids:
                self.conn.execute(
                    "UPDATE relation SET owner_id = ? WHERE relation_id = ? OR owner_job_id = ?",
                    (uid, rid, rid),
                )
        return Result()

    def set_schema(self, ctx: Context, kind: str, name: ObjectName, schema: str) -> Result:
        """ALTER <kind> <name> SET SCHEMA <schema> (alter_set_schema.rs; meta alter_schema):
        a table takes its indexes along; definitions are not rewritten (a view's prefix is)."""
        rel = self._relation(ctx, kind, name, "schema")
        old_schema = self.catalog.schema_name(rel.schema_id)
        if old_schema == schema:
            return Result()
        self.catalog.check_drop_alter(ctx, rel)
        sid = self.catalog.schema_id(ctx.database_id, schema)
        if sid is None:
            raise CatalogNotFound("schema", schema)
        existing = self.catalog.check_duplicate(sid, rel.name)
        if existing is not None:
            raise self.catalog.duplicate_error(existing)
        # alter_set_schema.rs:185-186: CREATE on the new schema
        self.catalog.privileges.check_create_in_schema(ctx, sid, schema)
        moved = [rel.id, *self._indexes_of(rel)]
        with self.store.transaction():
            for rid in moved:
                self.conn.execute(
                    "UPDATE relation SET schema_id = ? WHERE relation_id = ? OR owner_job_id = ?",
                    (sid, rid, rid),
                )
            if rel.kind == "view":
                self._set_view_definition(rel, old_schema, rel.name, schema, rel.name)
            self.catalog.render_read_queries(moved)
        return Result()

    def _indexes_of(self, rel: Rel) -> list[int]:
        # a materialized view is a Table object to meta: its indexes go along too
        # (alter_op.rs alter_owner / alter_schema, ObjectType::Table)
        if rel.kind not in ("table", "materialized view"):
            return []
        return [
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM relation WHERE kind = 'index' AND primary_table_id = ?",
                (rel.id,),
            )
        ]

    # ------------------------------------------------------------------ definitions

    def _rename_one(self, rel: Rel, new_name: str) -> None:
        """rename_relation: the name, and the definition naming it (a view's prefix)."""
        if rel.kind == "view":
            schema = self.catalog.schema_name(rel.schema_id)
            self._set_view_definition(rel, schema, rel.name, schema, new_name)
        else:
            self._set_definition(
                rel.id, _rewrite(rel.definition, unparse.rename_relation, new_name)
            )
        self.conn.execute("UPDATE relation SET name = ? WHERE relation_id = ?", (new_name, rel.id))

    def _rename_refs(self, rel: Rel, old: str, new: str) -> None:
        """rename_relation_refer: the definitions of the relations that refer to ``rel`` (and of
        the sinks into it) now name ``new``."""
        rows = self.conn.execute(
            "SELECT dependent_id FROM dependency WHERE referenced_id = ? UNION "
            "SELECT relation_id FROM relation WHERE target_table_id = ? ORDER BY 1",
            (rel.id, rel.id),
        ).fetchall()
        for (rid,) in rows:
            dep = self.catalog.relation(int(rid))
            if dep is None:
                continue
            if dep.kind == "view":
                schema = self.catalog.schema_name(dep.schema_id)
                sql = view_sql(dep.definition, schema, dep.name)
                rewritten = _rewrite(sql, lambda d, _: unparse.rename_refs(d, old, new), "")
                self._set_definition(dep.id, unparse.view_definition(schema, dep.name, rewritten))
            else:
                rewritten = _rewrite(
                    dep.definition, lambda d, _: unparse.rename_refs(d, old, new), ""
                )
                self._set_definition(dep.id, rewritten)

    def _set_view_definition(
        self, rel: Rel, old_schema: str, old_name: str, schema: str, name: str
    ) -> None:
        current = self.meta.val("SELECT definition FROM relation WHERE relation_id = ?", (rel.id,))
        sql = view_sql(str(current), old_schema, old_name)
        self._set_definition(rel.id, unparse.view_definition(schema, name, sql))

    def _set_definition(self, relation_id: int, definition: str) -> None:
        self.conn.execute(
            "UPDATE relation SET definition = ? WHERE relation_id = ?", (definition, relation_id)
        )

    # ------------------------------------------------------------------ schemas

    def rename_schema(self, ctx: Context, name: str, new_name: str) -> Result:
        """ALTER SCHEMA <name> RENAME TO <new> (alter_rename.rs:228-275; meta
        alter_schema_name): views in it show the new schema; read queries naming its relations
        are rendered again."""
        sid = self.catalog.schema_id(ctx.database_id, name)
        if sid is None:
            raise CatalogNotFound("schema", name)
        if name in SYSTEM_SCHEMAS:
            raise ProtocolError(
                f'permission denied to rename on "{name}", System catalog modifications are'
                " currently disallowed."
            )
        self._check_db_schema_owner(ctx, "schema", sid)
        if not self.users.is_super(ctx) and not self._has_privilege(
            ctx.user_id, ctx.database_id, "CREATE"
        ):
            raise PermissionDenied("Do not have CREATE privilege on the current database")
        if self.catalog.schema_id(ctx.database_id, new_name) is not None:
            raise MetaCatalogDuplicated(DDL + "AlterName", "schema", new_name, creating=False)
        members = self._relations_in("schema_id", sid)
        with self.store.transaction():
            self.conn.execute("UPDATE schema SET name = ? WHERE schema_id = ?", (new_name, sid))
            for rel in members:
                if rel.kind == "view":
                    self._set_view_definition(rel, name, rel.name, new_name, rel.name)
            self.catalog.render_read_queries([r.id for r in members])
        return Result()

    def alter_schema_owner(self, ctx: Context, name: str, owner: str) -> Result:
        """ALTER SCHEMA <name> OWNER TO <user> (alter_owner.rs:189-198)."""
        uid = self._new_owner(owner)
        sid = self.catalog.schema_id(ctx.database_id, name)
        if sid is None:
            raise CatalogNotFound("schema", name)
        current = self._check_db_schema_owner(ctx, "schema", sid)
        if current != uid:
            self._check_owned_by_admin(name, current)
            with self.store.transaction():
                self.conn.execute("UPDATE schema SET owner_id = ? WHERE schema_id = ?", (uid, sid))
        return Result()

    # ------------------------------------------------------------------ databases

    def rename_database(self, ctx: Context, name: str, new_name: str) -> Result:
        """ALTER DATABASE <name> RENAME TO <new> (alter_rename.rs:277-330; meta
        alter_database_name)."""
        db_id = self.catalog.database_id(name)
        owner_id = int(
            self.meta.val("SELECT owner_id FROM database WHERE database_id = ?", (db_id,))
        )
        _, is_super, can_db, _, is_admin = self.users.user(ctx.user_id)
        if self.users.user(owner_id)[4] and not is_admin:
            raise PermissionDenied("only admin users can rename databases owned by admin users")
        self._check_db_schema_owner(ctx, "database", db_id)
        if not is_super and not can_db:
            raise PermissionDenied("Non-superuser owners must also have the CREATEDB privilege")
        if db_id == ctx.database_id:
            raise PermissionDenied("Current database cannot be renamed")
        if self.meta.val("SELECT 1 FROM database WHERE name = ?", (new_name,)):
            raise MetaCatalogDuplicated(DDL + "AlterName", "database", new_name, creating=False)
        members = self._relations_in("database_id", db_id)
        with self.store.transaction():
            self.conn.execute(
                "UPDATE database SET name = ? WHERE database_id = ?", (new_name, db_id)
            )
            self.catalog.render_read_queries([r.id for r in members])
        return Result()

    def alter_database_owner(self, ctx: Context, name: str, owner: str) -> Result:
        """ALTER DATABASE <name> OWNER TO <user> (alter_owner.rs:180-188)."""
        uid = self._new_owner(owner)
        db_id = self.catalog.database_id(name)
        current = self._check_db_schema_owner(ctx, "database", db_id)
        if current != uid:
            self._check_owned_by_admin(name, current)
            with self.store.transaction():
                self.conn.execute(
                    "UPDATE database SET owner_id = ? WHERE database_id = ?", (uid, db_id)
                )
        return Result()

    # ------------------------------------------------------------------ shared checks

    def _new_owner(self, owner: str) -> int:
        uid = self.users.user_id(owner)
        if uid is None:
            raise CatalogNotFound("user", owner)
        return uid

    def _check_db_schema_owner(self, ctx: Context, table: str, object_id: int) -> int:
        """check_privilege_for_drop_alter_db_schema (privilege.rs:148-157); the owner id."""
        owner = int(
            self.meta.val(f"SELECT owner_id FROM {table} WHERE {table}_id = ?", (object_id,))
        )
        if not self.users.is_super(ctx) and owner != ctx.user_id:
            raise PermissionDenied(
                "Only the owner, and superuser can drop or alter a schema or database."
            )
        return owner

    def _check_owned_by_admin(self, name: str, owner_id: int) -> None:
        """alter_owner.rs:62-73."""
        owner_name, _, _, _, is_admin = self.users.user(owner_id)
        if is_admin:
            raise PermissionDenied(
                f"Cannot change owner of {name} owned by admin user {owner_name}"
            )

    def _has_privilege(self, user_id: int, object_id: int, action: str) -> bool:
        return bool(
            self.meta.val(
                "SELECT 1 FROM user_privilege WHERE user_id = ? AND oid = ? AND action = ?",
                (user_id, object_id, action),
            )
        )

    def _relations_in(self, column: str, value: int) -> list[Rel]:
        rows = self.conn.execute(
            f"SELECT relation_id FROM relation WHERE {column} = ? AND kind != 'internal'"
            " ORDER BY relation_id",
            (value,),
        ).fetchall()
        return [r for r in (self.catalog.relation(int(x[0])) for x in rows) if r is not None]


def _rewrite(definition: str, fn: Callable[[str, str], str], arg: str) -> str:
    """``fn(definition, arg)``; a definition the printer cannot read (one an older rwshim
    stored as typed) is kept, as it was."""
    try:
        return fn(definition, arg)
    except (unparse.UnparseError, ValueError):
        return definition


def _written(name: ObjectName) -> str:
    return name.name if name.schema is None else f"{name.schema}.{name.name}"
