"""The per-statement context of the read path: who runs it, where, with which settings."""

from __future__ import annotations

from msgspec import Struct, field

from rwshim.common.acl import UserAcl

# Schemas searched before the user's search_path unless it names them itself, in RisingWave's
# order: pg_catalog, then rw_catalog (src/common/src/session_config/search_path.rs:64-90).
IMPLICIT_SCHEMAS: tuple[str, ...] = ("pg_catalog", "rw_catalog")
SYSTEM_SCHEMAS: frozenset[str] = frozenset({"pg_catalog", "information_schema", "rw_catalog"})
USER_WILDCARD = "$user"


def parse_search_path(text: str) -> tuple[str, ...]:
    """The ``search_path`` variable's text (``"$user", public``) as a tuple of schema names."""
    out = []
    for part in text.split(","):
        p = part.strip()
        if len(p) >= 2 and p[0] == p[-1] == '"':
            p = p[1:-1].replace('""', '"')
        if p:
            out.append(p)
    return tuple(out)


class QueryContext(Struct, frozen=True):
    """What a statement runs under; the session builds one per call.

    ``search_path`` is the session variable as a list (``["$user", "public"]``);
    ``variables`` holds the session variables by lower-case name, values as ``SHOW`` prints
    them (read by ``current_setting``).
    """

    database_id: int
    database: str
    user_id: int
    user: str
    search_path: tuple[str, ...] = (USER_WILDCARD, "public")
    variables: dict[str, str] = field(default_factory=dict)
    is_superuser: bool = True
    # The session's user and privileges: relations read and written are checked against it
    # (rwshim.common.acl.check_privileges).  None checks nothing: internal contexts (a view's or
    # materialized view's definition, row counts) and callers that act as the system.
    acl: UserAcl | None = None
    # RisingWave's session id (pg_backend_pid(), builtin_scalar.rs:741-744: the id its
    # BackendKeyData carries); not part of equality (a plan or result holding it is not kept)
    session_id: int = 0

    # Equality and hash leave ``variables`` out (a Struct compares every field, and a dict
    # has no hash).
    def _compared(self) -> tuple[object, ...]:
        return (
            self.database_id,
            self.database,
            self.user_id,
            self.user,
            self.search_path,
            self.is_superuser,
            self.acl,
        )

    def __eq__(self, other: object) -> bool:
        if type(other) is not QueryContext:
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    def resolved_path(self) -> list[str]:
        """The schemas an unqualified name is looked up in, system schemas first."""
        real = [self.user if s == USER_WILDCARD else s for s in self.search_path]
        implicit = [s for s in IMPLICIT_SCHEMAS if s not in self.search_path]
        return implicit + real

    def current_schema(self) -> str | None:
        """The first schema of the search path (``current_schema()``); None if there is none.

        The caller checks existence: PostgreSQL skips schemas that do not exist.
        """
        for s in self.search_path:
            return self.user if s == USER_WILDCARD else s
        return None

    @property
    def cache_key(self) -> tuple[object, ...]:
        """What a statement bound under this context depends on: a statement bound (and
        privilege-checked) under one ACL snapshot is not reused under another."""
        acl = self.acl
        return (
            self.database_id,
            self.search_path,
            self.user,
            None if acl is None else (acl.user_id, acl.is_super, acl.grants),
        )
