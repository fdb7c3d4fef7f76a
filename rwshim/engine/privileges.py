"""Privileges in the meta store: GRANT and REVOKE (with grant options, grantors and the
privileges that depend on them), ALTER DEFAULT PRIVILEGES and their application to objects
created later, the owner of any object, and a user's privileges as the frontend checks them.

The rule a statement checks is the frontend's (``rwshim.common.acl.check_privileges``); this part
keeps
the rows and answers meta's own checks.  Objects of kinds other parts own (functions, secrets,
connections, subscriptions) plug in through ``register_kind`` (``ObjectKind``: their owner, how
a statement names them, their ids in a schema), so GRANT on them and their ACLs work like a
relation's.

RisingWave: ``src/meta/src/controller/user.rs`` (grant_privilege, revoke_privilege,
grant_default_privileges, revoke_default_privileges, drop_user), ``controller/utils.rs``
(get_object_owner, upsert_user_privileges, ensure_privileges_not_referred,
get_referring_privileges_cascade, grant_default_privileges_automatically,
get_internal_tables_by_id, get_index_state_tables_by_table_id), ``src/frontend/src/session.rs``
(get_database_and_schema_id_for_create), ``src/frontend/src/handler/privilege.rs``
(check_privilege_for_drop_alter_db_schema).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from msgspec import Struct

from rwshim.common.acl import CheckItem, UserAcl, check_privileges
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, ObjectName, Result
from rwshim.errors import CatalogNotFound, MetaPermissionDenied, PermissionDenied, ProtocolError
from rwshim.store.store import SYSTEM_SCHEMAS

log = logging.getLogger("rwshim.engine")

# A kind another part owns: object id -> its owner id, None when it is not of that kind.
OwnerLookup = Callable[[int], int | None]


class ObjectKind(Struct, frozen=True):
    """How GRANT finds objects of a kind another part keeps (functions, secrets, connections,
    subscriptions): ``owner_of`` (get_object_owner), ``resolve(ctx, name, args)`` the id of the
    object a statement names (raising RisingWave's not-found error; ``args`` the text of a
    function's argument list, None without one), ``in_schema(schema_id)`` the ids of ALL
    <kind> IN SCHEMA."""

    owner_of: OwnerLookup
    resolve: Callable[[Context, ObjectName, str | None], int]
    in_schema: Callable[[int], list[int]]


def _no_objects(kind: str) -> ObjectKind:
    """A kind no part has registered: no object of it exists."""

    def resolve(ctx: Context, name: ObjectName, args: str | None) -> int:
        raise CatalogNotFound(kind, name.name)

    return ObjectKind(lambda oid: None, resolve, lambda sid: [])


# Rust's Debug of meta's Action enum (meta/model/src/user_privilege.rs), for its error texts.
_ACTION_DEBUG = {
    "INSERT": "Insert",
    "SELECT": "Select",
    "UPDATE": "Update",
    "DELETE": "Delete",
    "USAGE": "Usage",
    "CREATE": "Create",
    "CONNECT": "Connect",
    "EXECUTE": "Execute",
}


class DefaultPrivilege(Struct, frozen=True):
    """One ALTER DEFAULT PRIVILEGES operation (AlterDefaultPrivilegeRequest): ``object_type``
    is PbObjectType's word ('schema', 'table', 'materialized view', 'view', 'source', 'sink',
    'function', 'secret', 'connection', 'subscription')."""

    grant: bool
    actions: tuple[str, ...]
    object_type: str
    grantees: tuple[int, ...]
    grant_option: bool  # WITH GRANT OPTION (grant) / GRANT OPTION FOR (revoke)


# PbObjectType -> the meta model's ObjectType and for_materialized_view (object.rs:66-80).
_DEFAULT_OBJECT = {
    "schema": ("schema", False),
    "table": ("table", False),
    "materialized view": ("table", True),
    "view": ("view", False),
    "source": ("source", False),
    "sink": ("sink", False),
    "function": ("function", False),
    "secret": ("secret", False),
    "connection": ("connection", False),
    "subscription": ("subscription", False),
}


class Privileges:
    """The privilege rows of the meta store."""

    def __init__(self, meta: Meta) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self._kinds: dict[str, ObjectKind] = {}

    def register_kind(self, kind: str, objects: ObjectKind) -> None:
        """Let objects of ``kind`` ('function', 'secret', 'connection', 'subscription'), kept
        by another part, take privileges like a relation."""
        self._kinds[kind] = objects

    def kind(self, kind: str) -> ObjectKind:
        """The registered ``kind``; a kind nobody registered has no objects."""
        return self._kinds.get(kind) or _no_objects(kind)

    def _user(self, user_id: int) -> tuple[str, bool]:
        row = self.meta.q1("SELECT name, is_super FROM rw_user WHERE user_id = ?", (user_id,))
        if row is None:
            raise PermissionDenied("Session user is invalid")
        return str(row[0]), bool(row[1])

    # ------------------------------------------------------------------ the frontend's view

    def user_acl(self, user_id: int) -> UserAcl | None:
        """The user as the frontend's user catalog holds it, None if there is none."""
        row = self.meta.q1(
            "SELECT name, is_super, can_create_db, can_create_user, is_admin FROM rw_user"
            " WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return None
        grants: set[tuple[int, str]] = set()
        options: set[tuple[int, str]] = set()
        for oid, action, opt in self.conn.execute(
            "SELECT oid, action, with_grant_option FROM user_privilege WHERE user_id = ?",
            (user_id,),
        ):
            grants.add((int(oid), str(action)))
            if opt:
                options.add((int(oid), str(action)))
        return UserAcl(
            user_id,
            str(row[0]),
            bool(row[1]),
            bool(row[2]),
            bool(row[3]),
            bool(row[4]),
            frozenset(grants),
            frozenset(options),
            self.meta.acl_version,
        )

    def check(self, ctx: Context, items: Iterable[CheckItem]) -> None:
        """SessionImpl::check_privileges (privilege.rs:66-92) for the session's user."""
        check_privileges(self.user_acl(ctx.user_id), items)

    def check_create_in_schema(self, ctx: Context, schema_id: int, schema_name: str) -> None:
        """get_database_and_schema_id_for_create (session.rs:1188-1213): a system schema is
        not writable (check_schema_writable, catalog/mod.rs:94-103), then CREATE on it."""
        if schema_name in SYSTEM_SCHEMAS:
            raise ProtocolError(
                f'permission denied to write on "{schema_name}", '
                "System catalog modifications are currently disallowed."
            )
        owner = self.meta.val("SELECT owner_id FROM schema WHERE schema_id = ?", (schema_id,))
        self.check(ctx, [CheckItem(int(owner), "CREATE", schema_name, "schema", schema_id)])

    def check_db_schema_owner(self, ctx: Context, owner_id: int) -> None:
        """check_privilege_for_drop_alter_db_schema (privilege.rs:148-157)."""
        acl = self.user_acl(ctx.user_id)
        if ctx.user_id != owner_id and not (acl is not None and acl.is_super):
            raise PermissionDenied(
                "Only the owner, and superuser can drop or alter a schema or database."
            )

    def check_drop_alter(self, ctx: Context, owner_id: int, schema_id: int) -> None:
        """check_privilege_for_drop_alter (privilege.rs:104-138): the relation's owner, its
        schema's owner or a superuser (not a grantable privilege)."""
        if ctx.user_id == owner_id:
            return
        schema_owner = self.meta.val(
            "SELECT owner_id FROM schema WHERE schema_id = ?", (schema_id,)
        )
        if ctx.user_id == schema_owner or self._user(ctx.user_id)[1]:
            return
        raise PermissionDenied(
            "Only the relation owner, the schema owner, and superuser can drop or alter a relation."
        )

    def check_swap(self, ctx: Context, owner_a: int, owner_b: int) -> None:
        """check_swap_rename_privilege (alter_swap_rename.rs:29-45): a superuser, or the owner
        of both objects."""
        name, is_super = self._user(ctx.user_id)
        if not is_super and (owner_a != ctx.user_id or owner_b != ctx.user_id):
            raise PermissionDenied(f"{name} is not super user and not the owner of the objects.")

    def check_new_owner(self, ctx: Context, new_owner: int, schema_id: int) -> None:
        """check_schema_create_privilege (alter_owner.rs:32-46): unless the session's user is
        a superuser, the new owner needs CREATE on the object's schema."""
        if self._user(ctx.user_id)[1]:
            return
        acl = self.user_acl(new_owner)
        if acl is None or not (acl.is_super or acl.has_privilege(schema_id, "CREATE")):
            raise PermissionDenied("Require new owner to have create privilege on the object.")

    def check_not_owned_by_admin(self, owner_id: int, written_name: str) -> None:
        """check_owned_by_admin (alter_owner.rs:70-80): an admin user's object keeps its owner."""
        row = self.meta.q1("SELECT name, is_admin FROM rw_user WHERE user_id = ?", (owner_id,))
        if row is not None and row[1]:
            raise PermissionDenied(
                f"Cannot change owner of {written_name} owned by admin user {row[0]}"
            )

    # ------------------------------------------------------------------ objects

    def object_owner(self, oid: int) -> int | None:
        """The owner of any object (get_object_owner), None if there is no such object."""
        for sql in (
            "SELECT owner_id FROM database WHERE database_id = ?",
            "SELECT owner_id FROM schema WHERE schema_id = ?",
            "SELECT owner_id FROM relation WHERE relation_id = ?",
        ):
            v = self.meta.val(sql, (oid,))
            if v is not None:
                return int(v)
        for objects in self._kinds.values():
            found = objects.owner_of(oid)
            if found is not None:
                return found
        return None

    def _select_companions(self, oid: int) -> list[int]:
        """The state tables a SELECT on ``oid`` reaches too: the job's internal tables
        (get_internal_tables_by_id) and the tables of indexes on it
        (get_index_state_tables_by_table_id)."""
        return [
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM relation WHERE owner_job_id = ?"
                " UNION SELECT relation_id FROM relation WHERE kind = 'index'"
                " AND primary_table_id = ? ORDER BY 1",
                (oid, oid),
            )
        ]

    def _expand(self, objects: Sequence[tuple[int, Sequence[str]]]) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        for oid, actions in objects:
            companions = self._select_companions(oid)
            for action in actions:
                out.append((oid, action))
                if action == "SELECT":
                    out.extend((c, "SELECT") for c in companions)
        return out

    # ------------------------------------------------------------------ GRANT / REVOKE

    def grant(
        self,
        ctx: Context,
        user_ids: Sequence[int],
        objects: Sequence[tuple[int, Sequence[str]]],
        *,
        with_grant_option: bool,
    ) -> Result:
        """grant_privilege (controller/user.rs:224-338): the session's user grants; a grantor
        who is neither a superuser nor the object's owner passes on only what it holds WITH
        GRANT OPTION (the new privilege depends on that one) and silently skips the rest."""
        grantor = ctx.user_id
        is_super = self._user(grantor)[1]
        rows: list[tuple[int, str, int | None]] = []
        for oid, action in self._expand(objects):
            if is_super:
                rows.append((oid, action, None))
                continue
            if self.object_owner(oid) == grantor:
                rows.append((oid, action, None))
                continue
            source = self.meta.val(
                "SELECT id FROM user_privilege WHERE user_id = ? AND oid = ? AND action = ?"
                " AND with_grant_option ORDER BY id",
                (grantor, oid, action),
            )
            if source is None:
                # user.rs:304-310: skipped, the GRANT still succeeds; meta logs it
                log.warning("user %d don't have privilege %s or grant option", grantor, action)
                continue
            rows.append((oid, action, int(source)))
        with self.store.transaction():
            for uid in user_ids:
                for oid, action, dependent in rows:
                    self._upsert(uid, oid, action, grantor, with_grant_option, dependent)
            self.meta.acl_version += 1
        return Result()

    def _upsert(
        self,
        user_id: int,
        oid: int,
        action: str,
        granted_by: int,
        with_grant_option: bool,
        dependent: int | None,
    ) -> None:
        """upsert_user_privileges (controller/utils.rs:1376-1402): an existing privilege is
        kept, its grant option upgraded when asked."""
        self.conn.execute(
            "INSERT INTO user_privilege(dependent_id, user_id, oid, granted_by, action,"
            " with_grant_option) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT(user_id, oid, action, granted_by) DO UPDATE SET"
            " with_grant_option = with_grant_option OR excluded.with_grant_option",
            (dependent, user_id, oid, granted_by, action, int(with_grant_option)),
        )

    def revoke(
        self,
        ctx: Context,
        user_ids: Sequence[int],
        objects: Sequence[tuple[int, Sequence[str]]],
        *,
        granted_by: int,
        revoke_grant_option: bool,
        cascade: bool,
    ) -> Result:
        """revoke_privilege (controller/user.rs:340-518)."""
        revoker = self._user(ctx.user_id)
        is_super = revoker[1]
        if not is_super and granted_by != ctx.user_id:
            grantor_name = self.meta.val(
                "SELECT name FROM rw_user WHERE user_id = ?", (granted_by,)
            )
            raise MetaPermissionDenied(
                f"user {revoker[0]} is not super, can't revoke privileges for {grantor_name}"
            )
        items: dict[int, list[str]] = {}
        for oid, actions in objects:
            items[oid] = list(actions)
            if "SELECT" in actions:
                for c in self._select_companions(oid):
                    items[c] = ["SELECT"]
        if not is_super:
            for oid, actions in items.items():
                if self.object_owner(oid) == ctx.user_id:
                    continue
                owned = {
                    str(r[0])
                    for r in self.conn.execute(
                        "SELECT action FROM user_privilege WHERE user_id = ? AND oid = ?"
                        " AND with_grant_option",
                        (granted_by, oid),
                    )
                }
                if any(a not in owned for a in actions):
                    listed = ", ".join(_ACTION_DEBUG[a] for a in actions)
                    raise MetaPermissionDenied(
                        f"user {revoker[0]} don't have privileges [{listed}] or grant option"
                    )
        users = ", ".join("?" for _ in user_ids)
        roots: list[int] = []
        for oid, actions in items.items():
            sql = (
                f"SELECT id FROM user_privilege WHERE user_id IN ({users}) AND oid = ?"
                f" AND action IN ({', '.join('?' for _ in actions)})"
            )
            args: list[object] = [*user_ids, oid, *actions]
            if not is_super:
                sql += " AND granted_by = ?"
                args.append(granted_by)
            roots.extend(int(r[0]) for r in self.conn.execute(sql + " ORDER BY id", args))
        if not roots:
            return Result()  # user.rs:463-466: nothing to revoke, ignored
        if cascade:
            targets = self._dependents_closure(roots)
        else:
            referred = int(
                self.meta.val(
                    "SELECT count(*) FROM user_privilege WHERE dependent_id IN "
                    f"({', '.join('?' for _ in roots)})",
                    roots,
                )
            )
            if referred:
                # ensure_privileges_not_referred (controller/utils.rs:1314-1330)
                raise MetaPermissionDenied(f"privileges granted to {referred} other ones.")
            targets = roots
        with self.store.transaction():
            marks = ", ".join("?" for _ in targets)
            if revoke_grant_option:
                self.conn.execute(
                    f"UPDATE user_privilege SET with_grant_option = 0 WHERE id IN ({marks})",
                    targets,
                )
            else:
                # the dependent privileges go with them (FK_user_privilege_dependent_id cascades)
                self._delete_ids(self._dependents_closure(roots))
            self.meta.acl_version += 1
        return Result()

    def _dependents_closure(self, ids: Iterable[int]) -> list[int]:
        """The privileges and, transitively, those granted from them
        (construct_privilege_dependency_query, controller/utils.rs:1087-1115)."""
        out: list[int] = []
        stack = list(ids)
        seen: set[int] = set()
        while stack:
            pid = stack.pop()
            if pid in seen:
                continue
            seen.add(pid)
            out.append(pid)
            stack.extend(
                int(r[0])
                for r in self.conn.execute(
                    "SELECT id FROM user_privilege WHERE dependent_id = ?", (pid,)
                )
            )
        return sorted(out)

    def _delete_ids(self, ids: Sequence[int]) -> None:
        if ids:
            marks = ", ".join("?" for _ in ids)
            self.conn.execute(f"DELETE FROM user_privilege WHERE id IN ({marks})", list(ids))

    # ------------------------------------------------------------------ default privileges

    def alter_default_privileges(
        self,
        ctx: Context,
        user_ids: Sequence[int],
        schema_ids: Sequence[int],
        op: DefaultPrivilege,
    ) -> Result:
        """grant_default_privileges / revoke_default_privileges (controller/user.rs:520-742)
        for the session's database; ``schema_ids`` empty for ON SCHEMAS."""
        object_type, for_mv = _DEFAULT_OBJECT[op.object_type]
        with self.store.transaction():
            if op.grant:
                self._grant_defaults(ctx, user_ids, schema_ids, object_type, for_mv, op)
            else:
                self._revoke_defaults(ctx, user_ids, schema_ids, object_type, op)
            self.meta.acl_version += 1
        return Result()

    def _grant_defaults(
        self,
        ctx: Context,
        user_ids: Sequence[int],
        schema_ids: Sequence[int],
        object_type: str,
        for_mv: bool,
        op: DefaultPrivilege,
    ) -> None:
        """Schema defaults (no schema id) are matched by hand: an existing one only gains the
        grant option (and the grantor), otherwise a row is added (user.rs:560-619); the others
        rely on the unique key, a conflict upgrading only the grant option (user.rs:621-672)."""
        targets: list[int | None] = list(schema_ids) or [None]
        for uid in user_ids:
            for grantee in op.grantees:
                for action in op.actions:
                    for sid in targets:
                        existing = self.meta.val(
                            "SELECT id FROM user_default_privilege WHERE database_id = ?"
                            " AND schema_id IS ? AND object_type = ? AND for_materialized_view = ?"
                            " AND user_id = ? AND grantee = ? AND action = ? ORDER BY id",
                            (ctx.database_id, sid, object_type, int(for_mv), uid, grantee, action),
                        )
                        if existing is not None and sid is None and op.grant_option:
                            self.conn.execute(
                                "UPDATE user_default_privilege SET with_grant_option = 1,"
                                " granted_by = ? WHERE id = ?",
                                (ctx.user_id, existing),
                            )
                            continue
                        if existing is not None and sid is not None:
                            if op.grant_option:
                                self.conn.execute(
                                    "UPDATE user_default_privilege SET with_grant_option = 1"
                                    " WHERE id = ?",
                                    (existing,),
                                )
                            continue
                        self.conn.execute(
                            "INSERT INTO user_default_privilege(database_id, schema_id,"
                            " object_type, for_materialized_view, user_id, grantee, granted_by,"
                            " action, with_grant_option) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (
                                ctx.database_id,
                                sid,
                                object_type,
                                int(for_mv),
                                uid,
                                grantee,
                                ctx.user_id,
                                action,
                                int(op.grant_option),
                            ),
                        )

    def _revoke_defaults(
        self,
        ctx: Context,
        user_ids: Sequence[int],
        schema_ids: Sequence[int],
        object_type: str,
        op: DefaultPrivilege,
    ) -> None:
        """revoke_default_privileges (user.rs:684-742): matched by object type alone, so
        REVOKE ... ON TABLES also revokes the materialized-view defaults of those schemas."""
        if not op.grantees or not op.actions or not user_ids:
            return
        if schema_ids:
            schema_filter = f"schema_id IN ({', '.join('?' for _ in schema_ids)})"
        else:
            schema_filter = "schema_id IS NULL"
        sql = (
            f" FROM user_default_privilege WHERE database_id = ? AND {schema_filter}"
            f" AND user_id IN ({', '.join('?' for _ in user_ids)}) AND object_type = ?"
            f" AND grantee IN ({', '.join('?' for _ in op.grantees)})"
            f" AND action IN ({', '.join('?' for _ in op.actions)})"
        )
        args = [
            ctx.database_id,
            *schema_ids,
            *user_ids,
            object_type,
            *op.grantees,
            *op.actions,
        ]
        if op.grant_option:
            self.conn.execute(
                "UPDATE user_default_privilege SET with_grant_option = 0 WHERE id IN"
                f" (SELECT id{sql} AND with_grant_option)",
                args,
            )
        else:
            self.conn.execute("DELETE" + sql, args)

    def apply_relation_defaults(self, relation_id: int) -> None:
        """grant_default_privileges_automatically for a new relation (inside a transaction):
        a table, materialized view, view, source or sink; indexes and internal tables take
        none (no PrivilegeObjectType names them)."""
        row = self.meta.q1(
            "SELECT kind, database_id, schema_id, owner_id FROM relation WHERE relation_id = ?",
            (relation_id,),
        )
        if row is None or row[0] in ("index", "internal"):
            return
        kind = str(row[0])
        self.apply_defaults(
            relation_id,
            "table" if kind == "materialized view" else kind,
            database_id=int(row[1]),
            schema_id=int(row[2]),
            owner_id=int(row[3]),
            for_materialized_view=kind == "materialized view",
        )

    def apply_defaults(
        self,
        object_id: int,
        object_type: str,
        *,
        database_id: int,
        schema_id: int | None,
        owner_id: int,
        for_materialized_view: bool = False,
    ) -> None:
        """grant_default_privileges_automatically (controller/utils.rs:1422-1528) for a new
        object (inside the caller's transaction): the defaults its owner set for objects of
        its type in its database and schema; SELECT reaches its internal tables too."""
        rows = self.conn.execute(
            "SELECT grantee, granted_by, action, with_grant_option FROM user_default_privilege"
            " WHERE database_id = ? AND schema_id IS ? AND user_id = ? AND object_type = ?"
            " AND for_materialized_view = ? ORDER BY id",
            (database_id, schema_id, owner_id, object_type, int(for_materialized_view)),
        ).fetchall()
        if not rows:
            return
        internal = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT relation_id FROM relation WHERE owner_job_id = ? ORDER BY 1", (object_id,)
            )
        ]
        for grantee, granted_by, action, with_option in rows:
            targets = [object_id] + (internal if action == "SELECT" else [])
            for oid in targets:
                self._upsert(
                    int(grantee), oid, str(action), int(granted_by), bool(with_option), None
                )
        self.meta.acl_version += 1

    # ------------------------------------------------------------------ removal

    def forget_objects(self, ids: Iterable[int]) -> None:
        """Objects dropped (inside the caller's transaction): their privileges go, with the
        privileges granted from them; a dropped schema or database takes its default
        privileges along (the FKs of m20250603_084830_default_privilege.rs)."""
        wanted = sorted(set(ids))
        if not wanted:
            return
        marks = ", ".join("?" for _ in wanted)
        before = self.conn.total_changes
        roots = [
            int(r[0])
            for r in self.conn.execute(
                f"SELECT id FROM user_privilege WHERE oid IN ({marks})", wanted
            )
        ]
        self._delete_ids(self._dependents_closure(roots))
        self.conn.execute(
            f"DELETE FROM user_default_privilege WHERE schema_id IN ({marks})"
            f" OR database_id IN ({marks})",
            wanted + wanted,
        )
        if self.conn.total_changes != before:
            # only then: every session rebuilds its ACL and read-path context on a bump,
            # and most drops take no privilege with them
            self.meta.acl_version += 1

    def granted_to_others(self, user_id: int) -> int:
        """How many privileges ``user_id`` granted (drop_user's check, controller/user.rs:
        193-203, counts every row it is the grantor of)."""
        return int(
            self.meta.val("SELECT count(*) FROM user_privilege WHERE granted_by = ?", (user_id,))
        )

    def forget_user(self, user_id: int) -> None:
        """A dropped user's privileges and default privileges (the FKs' cascades)."""
        roots = [
            int(r[0])
            for r in self.conn.execute(
                "SELECT id FROM user_privilege WHERE user_id = ?", (user_id,)
            )
        ]
        self._delete_ids(self._dependents_closure(roots))
        self.conn.execute(
            "DELETE FROM user_default_privilege WHERE user_id = ? OR grantee = ? OR granted_by = ?",
            (user_id, user_id, user_id),
        )
        self.meta.acl_version += 1
