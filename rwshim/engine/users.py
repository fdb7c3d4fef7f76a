"""Users and their attributes: who may create databases and users, who is a superuser or an
admin, and the checks RisingWave's frontend makes before it asks meta to create, alter or drop
a user.

RisingWave: ``src/meta/src/controller/user.rs`` (the user catalog; drop refused for the default
superusers and while the user owns objects or granted privileges),
``src/frontend/src/handler/create_user.rs``, ``alter_user.rs``, ``drop_user.rs`` (the
permission checks), ``src/frontend/src/catalog/root_catalog.rs`` (the session user).
"""

from __future__ import annotations

from collections.abc import Mapping

from rwshim.engine.privileges import Privileges
from rwshim.engine.state import Meta
from rwshim.engine.types import Context, Result
from rwshim.errors import (
    CatalogDuplicated,
    CatalogNotFound,
    InternalError,
    MetaPermissionDenied,
    PermissionDenied,
)

# DEFAULT_SUPER_USER, DEFAULT_SUPER_USER_FOR_PG, DEFAULT_SUPER_USER_FOR_ADMIN
# (src/common/src/catalog/mod.rs).
DEFAULT_SUPER_USERS = ("root", "postgres")
ADMIN_USER = "rwadmin"


class Users:
    """The user catalog."""

    def __init__(self, meta: Meta, privileges: Privileges) -> None:
        self.meta = meta
        self.store = meta.store
        self.conn = meta.conn
        self.privileges = privileges

    def user(self, user_id: int) -> tuple[str, bool, bool, bool, bool]:
        """(name, is_super, can_create_db, can_create_user, is_admin) of the session's user."""
        row = self.meta.q1(
            "SELECT name, is_super, can_create_db, can_create_user, is_admin FROM rw_user"
            " WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            raise PermissionDenied("Session user is invalid")
        return str(row[0]), bool(row[1]), bool(row[2]), bool(row[3]), bool(row[4])

    def is_super(self, ctx: Context) -> bool:
        """Whether the session's user is a superuser (every superuser-only check asks this)."""
        return self.user(ctx.user_id)[1]

    def user_id(self, name: str) -> int | None:
        """The id of a user by name, None if there is none."""
        v = self.meta.val("SELECT user_id FROM rw_user WHERE name = ?", (name,))
        return None if v is None else int(v)

    def create_user(
        self,
        ctx: Context,
        name: str,
        *,
        superuser: bool = False,
        create_db: bool = False,
        create_user: bool = False,
        login: bool = True,
        admin: bool = False,
        auth_type: str | None = None,
        auth_value: str | None = None,
    ) -> Result:
        """create_user.rs:40-140 (the permission checks and the duplicate check); the new user
        gets CONNECT on the session's database WITH GRANT OPTION from the session's user
        (create_user.rs:87-96: RisingWave has no PUBLIC group)."""
        if self.user_id(name) is not None:
            raise CatalogDuplicated(f"user named {name} already exists")
        _, is_super, _, can_create_user, is_admin = self.user(ctx.user_id)
        if not is_super:
            if superuser:
                raise PermissionDenied("must be superuser to create superusers")
            if not can_create_user:
                raise PermissionDenied("permission denied to create user")
        if admin and not is_admin:
            raise PermissionDenied("only admin users can create admin users")
        superuser = superuser or admin  # admin users are always superusers (create_user.rs:129)
        with self.store.transaction():
            uid = self.store.next_id("user")
            self.conn.execute(
                "INSERT INTO rw_user(user_id, name, is_super, can_create_db, can_create_user,"
                " can_login, is_admin, auth_type, auth_value, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    uid,
                    name,
                    int(superuser),
                    int(create_db),
                    int(create_user),
                    int(login),
                    int(admin),
                    auth_type,
                    auth_value,
                    self.meta.now(),
                ),
            )
            self.conn.execute(
                "INSERT INTO user_privilege(user_id, oid, granted_by, action, with_grant_option)"
                " VALUES (?, ?, ?, 'CONNECT', 1)",
                (uid, ctx.database_id, ctx.user_id),
            )
            self.meta.acl_version += 1
        return Result()

    def alter_user(
        self,
        ctx: Context,
        name: str,
        *,
        flags: Mapping[str, bool],
        auth: tuple[str | None, str | None] | None = None,
    ) -> Result:
        """ALTER USER <name> [WITH] options (alter_user.rs:34-160): ``flags`` are superuser,
        createdb, createuser, login, admin; ``auth`` the new (auth_type, auth_value), (None,
        None) to clear the password, None to leave it."""
        row = self.meta.q1(
            "SELECT user_id, is_super, is_admin FROM rw_user WHERE name = ?", (name,)
        )
        if row is None:
            raise CatalogNotFound("user", name)
        uid, target_super, target_admin = int(row[0]), bool(row[1]), bool(row[2])
        _, is_super, _, can_create_user, is_admin = self.user(ctx.user_id)
        self_password_only = uid == ctx.user_id and not flags and auth is not None
        if not self_password_only and (target_admin or "admin" in flags) and not is_admin:
            raise PermissionDenied(f"{name} cannot be altered with admin option")
        if not is_super:
            if target_super or "superuser" in flags:
                raise PermissionDenied(
                    "must be superuser to alter superuser roles or change superuser attribute"
                )
            if not can_create_user and not self_password_only:
                raise PermissionDenied("permission denied to alter user")
        columns = {
            "superuser": "is_super",
            "createdb": "can_create_db",
            "createuser": "can_create_user",
            "login": "can_login",
            "admin": "is_admin",
        }
        notices: list[str] = []
        with self.store.transaction():
            for key, value in flags.items():
                self.conn.execute(
                    f"UPDATE rw_user SET {columns[key]} = ? WHERE user_id = ?", (int(value), uid)
                )
            if auth is not None:
                if auth == (None, None):
                    notices.append("empty string is not a valid password, clearing password")
                self.conn.execute(
                    "UPDATE rw_user SET auth_type = ?, auth_value = ? WHERE user_id = ?",
                    (*auth, uid),
                )
            if flags.get("admin", target_admin) and not flags.get("superuser", target_super):
                # admin users stay superusers (alter_user.rs:146-156)
                self.conn.execute("UPDATE rw_user SET is_super = 1 WHERE user_id = ?", (uid,))
                if flags.get("superuser") is False:
                    notices.append("admin users must remain superusers, ignoring NOSUPERUSER")
            self.meta.acl_version += 1
        return Result(notices)

    def rename_user(self, ctx: Context, name: str, new_name: str) -> Result:
        """ALTER USER <name> RENAME TO <new> (alter_user.rs:180-203): never the session's
        user, only by a superuser, never to or from rwadmin; the password is cleared (an md5
        hash is salted with the name); meta refuses a taken name (check_user_name_duplicate,
        controller/utils.rs)."""
        row = self.meta.q1("SELECT user_id FROM rw_user WHERE name = ?", (name,))
        if row is None:
            raise CatalogNotFound("user", name)
        uid = int(row[0])
        if uid == ctx.user_id:
            raise InternalError("session user cannot be renamed")
        if not self.is_super(ctx):
            raise PermissionDenied("must be superuser to rename users")
        if new_name == ADMIN_USER:
            raise PermissionDenied(f"{ADMIN_USER} is reserved for admin")
        if name == ADMIN_USER:
            raise PermissionDenied(f"{ADMIN_USER} cannot be renamed")
        if self.user_id(new_name) is not None:
            raise CatalogDuplicated(f"user named {new_name} already exists")
        with self.store.transaction():
            self.conn.execute(
                "UPDATE rw_user SET name = ?, auth_type = NULL, auth_value = NULL"
                " WHERE user_id = ?",
                (new_name, uid),
            )
            self.meta.acl_version += 1
        return Result()

    def drop_user(self, ctx: Context, name: str, *, if_exists: bool = False) -> Result:
        """drop_user.rs:30-95."""
        row = self.meta.q1(
            "SELECT user_id, is_super, is_admin FROM rw_user WHERE name = ?", (name,)
        )
        if row is None:
            if if_exists:
                return Result([f'user "{name}" does not exist, skipping'])
            raise CatalogNotFound("user", name)
        uid, target_super, target_admin = int(row[0]), bool(row[1]), bool(row[2])
        if uid == ctx.user_id:
            raise PermissionDenied("current user cannot be dropped")
        _, is_super, _, can_create_user, is_admin = self.user(ctx.user_id)
        if not is_super:
            if target_super:
                raise PermissionDenied("must be superuser to drop superusers")
            if not can_create_user:
                raise PermissionDenied("permission denied to drop user")
        if target_admin and not is_admin:
            raise PermissionDenied("only admin users can drop admin users")
        if name in DEFAULT_SUPER_USERS:
            # src/meta/src/controller/user.rs:173-178
            raise MetaPermissionDenied(f"drop default super user {name} is not allowed")
        owns = int(
            self.meta.val(
                "SELECT (SELECT count(*) FROM relation WHERE owner_id = ?)"
                " + (SELECT count(*) FROM schema WHERE owner_id = ?)"
                " + (SELECT count(*) FROM database WHERE owner_id = ?)",
                (uid, uid, uid),
            )
        )
        if owns:
            # src/meta/src/controller/user.rs:180-191
            raise MetaPermissionDenied(
                f"drop user {name} is not allowed, because it owns {owns} objects"
            )
        granted = self.privileges.granted_to_others(uid)
        if granted:
            # src/meta/src/controller/user.rs:193-203
            raise MetaPermissionDenied(
                f"drop user {name} is not allowed, because it granted {granted} privileges to"
                " others"
            )
        with self.store.transaction():
            self.privileges.forget_user(uid)
            self.conn.execute("DELETE FROM rw_user WHERE user_id = ?", (uid,))
        return Result()
