"""RisingWave's privilege model as plain values: the grantable actions and their ACL letters,
the actions each kind of object can hold, a user's privileges as the frontend holds them, and
the frontend's check (``check_privileges``) with its ``Permission denied`` texts.

A leaf module: the engine (DDL checks, GRANT/REVOKE) and the read path (SELECT and DML, the
``has_*_privilege`` functions) both import it, so one rule serves both, whatever engine runs a
query.

RisingWave: ``src/common/src/acl/mod.rs`` (AclMode, its letters and the ALL_AVAILABLE_* sets),
``proto/user.proto`` (Action names), ``src/frontend/src/handler/privilege.rs``
(ObjectCheckItem, check_privileges), ``src/frontend/src/user/user_catalog.rs``
(has_privilege, check_privilege_with_grant_option, check_object_visibility).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from msgspec import Struct, field

from rwshim.errors import PermissionDenied

# AclMode in bit order with its Display letter (acl/mod.rs:26-58); only these eight are
# grantable (the PbAction conversion, acl/mod.rs:60-90).
ACTIONS: tuple[str, ...] = (
    "INSERT",
    "SELECT",
    "UPDATE",
    "DELETE",
    "EXECUTE",
    "USAGE",
    "CREATE",
    "CONNECT",
)
LETTER: dict[str, str] = {
    "INSERT": "a",
    "SELECT": "r",
    "UPDATE": "w",
    "DELETE": "d",
    "EXECUTE": "X",
    "USAGE": "U",
    "CREATE": "C",
    "CONNECT": "c",
}
RANK: dict[str, int] = {a: i for i, a in enumerate(ACTIONS)}

# The kinds of grant object (PbObject of proto/user.proto GrantPrivilege): a table id stands for
# tables, materialized views, indexes and internal tables alike.
DATABASE = "database"
SCHEMA = "schema"
TABLE = "table"
VIEW = "view"
SOURCE = "source"
SINK = "sink"
FUNCTION = "function"
SUBSCRIPTION = "subscription"
CONNECTION = "connection"
SECRET = "secret"

# ObjectCheckItem::error_message's object words (privilege.rs:44-56).
ERROR_WORD: dict[str, str] = {
    DATABASE: "database",
    SCHEMA: "schema",
    TABLE: "table or materialized view",
    VIEW: "view",
    SOURCE: "source",
    SINK: "sink",
    FUNCTION: "function",
    SUBSCRIPTION: "subscription",
    CONNECTION: "connection",
    SECRET: "secret",
}


def sort_actions(actions: Iterable[str]) -> list[str]:
    """Actions in AclMode's bit order (how an AclModeSet iterates)."""
    return sorted(set(actions), key=RANK.__getitem__)


# ALL_AVAILABLE_*_MODES (acl/mod.rs:109-123), by the statement's object type: GRANT ... ON
# TABLE / VIEW take the four DML modes, MATERIALIZED VIEW / SOURCE / SINK / SUBSCRIPTION are
# read-only, FUNCTION takes EXECUTE, CONNECTION and SECRET take USAGE.
AVAILABLE: dict[str, tuple[str, ...]] = {
    "database": ("CREATE", "CONNECT"),
    "schema": ("CREATE", "USAGE"),
    "table": ("INSERT", "SELECT", "UPDATE", "DELETE"),
    "view": ("INSERT", "SELECT", "UPDATE", "DELETE"),
    "materialized view": ("SELECT",),
    "source": ("SELECT",),
    "sink": ("SELECT",),
    "subscription": ("SELECT",),
    "function": ("EXECUTE",),
    "connection": ("USAGE",),
    "secret": ("USAGE",),
}


class CheckItem(Struct, frozen=True):
    """One privilege a statement needs (privilege.rs ObjectCheckItem): the object's owner
    (who needs nothing), the action, the name the error shows and the object."""

    owner: int
    action: str
    name: str
    kind: str  # a grant object kind above
    object_id: int

    def error_message(self) -> str:
        """privilege.rs:44-62: the action is PbAction's name printed with ``{:?}`` (quoted)."""
        return f'permission denied for {ERROR_WORD[self.kind]} "{self.name}": "{self.action}"'


class UserAcl(Struct, frozen=True):
    """A user as the frontend's UserCatalog holds it: attributes and privileges.

    ``grants`` holds (object id, action) for every privilege the user was granted, whoever
    granted it; ``grant_options`` those held WITH GRANT OPTION.  ``version`` identifies the
    snapshot (it changes whenever privileges or user attributes may have), so caches of
    statements bound under one snapshot do not serve another.
    """

    user_id: int
    name: str
    is_super: bool
    can_create_db: bool = False
    can_create_user: bool = False
    is_admin: bool = False
    grants: frozenset[tuple[int, str]] = field(default_factory=frozenset)
    grant_options: frozenset[tuple[int, str]] = field(default_factory=frozenset)
    version: int = 0

    def has_privilege(self, object_id: int, action: str) -> bool:
        """user_catalog.rs has_privilege (superuser status not considered)."""
        return (object_id, action) in self.grants

    def sees(self, object_id: int, owner: int) -> bool:
        """has_access_to_object (user/mod.rs:27-35, user_catalog.rs check_object_visibility):
        the owner, a superuser, or a holder of SELECT, EXECUTE or USAGE on the object."""
        if owner == self.user_id or self.is_super:
            return True
        return any((object_id, a) in self.grants for a in ("SELECT", "EXECUTE", "USAGE"))

    def holds(self, object_id: int, wanted: Sequence[tuple[str, bool]]) -> bool:
        """check_privilege_with_grant_option (user_catalog.rs:203-229): every (action,
        needs grant option) is held; a superuser holds everything."""
        if self.is_super:
            return True
        for action, with_option in wanted:
            pool = self.grant_options if with_option else self.grants
            if (object_id, action) not in pool:
                return False
        return True


def check_privileges(acl: UserAcl | None, items: Iterable[CheckItem]) -> None:
    """SessionImpl::check_privileges (privilege.rs:66-92): a superuser passes; otherwise each
    item passes if the user owns the object or holds the action on it, and the first that does
    not raises ``Permission denied: permission denied for <kind> "<name>": "<ACTION>"``.
    ``acl`` None means the session's user no longer exists."""
    if acl is None:
        raise PermissionDenied("Session user is invalid")
    if acl.is_super:
        return
    for item in items:
        if item.owner == acl.user_id:
            continue
        if not acl.has_privilege(item.object_id, item.action):
            raise PermissionDenied(item.error_message())
