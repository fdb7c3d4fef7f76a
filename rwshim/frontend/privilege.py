"""GRANT, REVOKE and ALTER DEFAULT PRIVILEGES: the frontend's part of each (the users, the
grantor, the privilege types an object kind takes, the objects by name), handed to the
engine's privilege part, which records them as meta does.

RisingWave: ``src/frontend/src/handler/handle_privilege.rs`` (make_prost_privilege,
bind_user_from_idents, make_prost_actions, handle_grant_privilege, handle_revoke_privilege,
handle_alter_default_privileges), ``src/frontend/src/user/user_privilege.rs``
(check_privilege_type, get_all_available_modes, get_prost_action),
``src/frontend/src/binder/relation/mod.rs`` (resolve_schema_qualified_name and
resolve_single_name: rwshim.common.names).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rwshim.common.acl import AVAILABLE, sort_actions
from rwshim.common.names import resolve_single_name
from rwshim.common.outcome import Outcome
from rwshim.engine import ObjectName as EngineName
from rwshim.engine.privileges import DefaultPrivilege
from rwshim.errors import (
    BindError,
    CatalogNotFound,
    HandlerPanicked,
    InvalidInputSyntax,
    PermissionDenied,
)
from rwshim.frontend.common import Handler, engine_name
from rwshim.sql import statements as st
from rwshim.store.store import SYSTEM_SCHEMAS

if TYPE_CHECKING:
    from rwshim.frontend.frontend import Frontend

# The actions get_prost_action maps (user_privilege.rs:88-101); the parser's others
# (REFERENCES, TEMPORARY, TRIGGER, TRUNCATE) reach its `unreachable!()`.
_MAPPED = {"SELECT", "INSERT", "UPDATE", "DELETE", "CONNECT", "CREATE", "USAGE", "EXECUTE"}

# GrantObjects variant -> the kind of mode set it takes (get_all_available_modes,
# user_privilege.rs:46-82); SEQUENCE forms take none.
_GRANT_MODES = {
    "DATABASE": "database",
    "SCHEMA": "schema",
    "TABLE": "table",
    "VIEW": "view",
    "MATERIALIZED VIEW": "materialized view",
    "SOURCE": "source",
    "SINK": "sink",
    "FUNCTION": "function",
    "SECRET": "secret",
    "SUBSCRIPTION": "subscription",
    "CONNECTION": "connection",
    "ALL TABLES IN SCHEMA": "table",
    "ALL VIEWS IN SCHEMA": "view",
    "ALL MATERIALIZED VIEWS IN SCHEMA": "materialized view",
    "ALL SOURCES IN SCHEMA": "source",
    "ALL SINKS IN SCHEMA": "sink",
    "ALL FUNCTIONS IN SCHEMA": "function",
    "ALL SECRETS IN SCHEMA": "secret",
    "ALL SUBSCRIPTIONS IN SCHEMA": "subscription",
    "ALL CONNECTIONS IN SCHEMA": "connection",
}

# PrivilegeObjectType (ALTER DEFAULT PRIVILEGES ... ON <type>) -> its mode set and the
# PbObjectType meta takes (derive_object_type, make_prost_actions: handle_privilege.rs:409-460).
_DEFAULT_KINDS = {
    "TABLES": "table",
    "VIEWS": "view",
    "MATERIALIZED VIEWS": "materialized view",
    "SOURCES": "source",
    "SINKS": "sink",
    "FUNCTIONS": "function",
    "SECRETS": "secret",
    "SUBSCRIPTIONS": "subscription",
    "CONNECTIONS": "connection",
    "SCHEMAS": "schema",
}

# PbAction's Debug (the prost enum's variant names), for make_prost_actions' message.
_ACTION_DEBUG = {a: a.capitalize() for a in _MAPPED}

# ALL <plural> IN SCHEMA -> the relation kinds it takes (the schema catalog's iter_* of
# handle_privilege.rs:271-348): every one of the kind, created or not.
_IN_SCHEMA_KINDS = {
    "ALL TABLES IN SCHEMA": "table",
    "ALL MATERIALIZED VIEWS IN SCHEMA": "materialized view",
    "ALL SOURCES IN SCHEMA": "source",
    "ALL SINKS IN SCHEMA": "sink",
    "ALL VIEWS IN SCHEMA": "view",
}


def _panic() -> HandlerPanicked:
    return HandlerPanicked("internal error: entered unreachable code")


def _users(fe: Frontend, names: Sequence[str]) -> list[int]:
    """bind_user_from_idents (handle_privilege.rs:376-391)."""
    out: list[int] = []
    for n in names:
        uid = fe.instance.engine.users.user_id(n)
        if uid is None:
            raise InvalidInputSyntax(f'User "{n}" does not exist')
        if uid not in out:
            out.append(uid)
    return out


def _grant_actions(privileges: Sequence[str], object_type: str) -> list[str]:
    """check_privilege_type and the actions of make_prost_privilege
    (user_privilege.rs:25-44, handle_privilege.rs:52-61): ALL is every mode of the kind; a
    listed action the kind does not take is a bind error."""
    kind = _GRANT_MODES.get(object_type)
    if privileges == ("ALL",):
        if kind is None:
            raise BindError("Invalid privilege type for the given object.")
        return list(sort_actions(AVAILABLE[kind]))
    for p in privileges:
        if kind is None:
            raise BindError("Invalid privilege type for the given object.")
        if p not in _MAPPED:
            raise _panic()
        if p not in AVAILABLE[kind]:
            raise BindError("Invalid privilege type for the given object.")
    return list(dict.fromkeys(privileges))


def _objects(fe: Frontend, stmt: st.Grant | st.Revoke) -> list[int]:
    """The object ids of make_prost_privilege (handle_privilege.rs:62-356)."""
    engine = fe.instance.engine
    catalog = engine.catalog
    ctx = fe.ctx()
    kind = stmt.object_type
    out: list[int] = []
    if kind == "DATABASE":
        for n in stmt.objects:
            out.append(catalog.database_id(resolve_single_name(n.parts, "database name")))
        return out
    if kind == "SCHEMA" or kind.startswith("ALL "):
        for n in stmt.objects:
            schema = resolve_single_name(n.parts, "schema name")
            sid = catalog.schema_id(ctx.database_id, schema)
            if sid is None:
                raise CatalogNotFound("schema", schema)
            if kind == "SCHEMA":
                out.append(sid)
            elif kind in _IN_SCHEMA_KINDS:
                out.extend(catalog.relation_ids_in_schema(sid, _IN_SCHEMA_KINDS[kind]))
            else:
                plural = _GRANT_MODES[kind]
                out.extend(engine.privileges.kind(plural).in_schema(sid))
        return out
    for i, n in enumerate(stmt.objects):
        name = engine_name(n, fe.database)
        if kind in ("TABLE", "MATERIALIZED VIEW"):
            out.append(_table_or_mview(fe, name, kind == "TABLE"))
        elif kind in ("VIEW", "SOURCE", "SINK"):
            rel = catalog.lookup(ctx, name, (kind.lower(),))
            # get_created_sink_by_name: a sink still being created is not found
            if rel is None or (kind == "SINK" and rel.status not in (None, "CREATED")):
                raise CatalogNotFound(kind.lower(), name.name)
            out.append(rel.id)
        else:
            args = stmt.function_args[i] if i < len(stmt.function_args) else None
            out.append(engine.privileges.kind(kind.lower()).resolve(ctx, name, args))
    return out


def _table_or_mview(fe: Frontend, name: EngineName, tables: bool) -> int:
    """GrantObjects::Tables / Mviews (handle_privilege.rs:72-130): a created table catalog of
    the right type; for TABLE a view of that name too."""
    catalog = fe.instance.engine.catalog
    ctx = fe.ctx()
    rel = catalog.lookup(ctx, name, ("table", "materialized view", "index"))
    if rel is not None and rel.status not in (None, "CREATED"):
        rel = None
    if rel is not None:
        if tables and rel.kind != "table":
            raise InvalidInputSyntax(f"{name.name} is not a table")
        if not tables and rel.kind != "materialized view":
            raise InvalidInputSyntax(f"{name.name} is not a materialized view")
        return rel.id
    if tables:
        view = catalog.lookup(ctx, name, ("view",))
        if view is not None:
            return view.id
    raise CatalogNotFound("table", name.name)


def _grantor(fe: Frontend, name: str | None) -> int | None:
    if name is None:
        return None
    uid = fe.instance.engine.users.user_id(name)
    if uid is None:
        raise InvalidInputSyntax(f'Grantor "{name}" does not exist')
    return uid


async def handle_grant(fe: Frontend, stmt: st.Grant, params: list[object]) -> Outcome:
    """handle_grant_privilege (handle_privilege.rs:463-497); GRANTED BY is checked for
    existence only: the session's user is the grantor."""
    users = _users(fe, stmt.grantees)
    _grantor(fe, stmt.granted_by)
    actions = _grant_actions(stmt.privileges, stmt.object_type)
    objects = [(oid, actions) for oid in _objects(fe, stmt)]
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.privileges.grant(
            fe.ctx(), users, objects, with_grant_option=stmt.with_grant_option
        ),
    )


async def handle_revoke(fe: Frontend, stmt: st.Revoke, params: list[object]) -> Outcome:
    """handle_revoke_privilege (handle_privilege.rs:499-540)."""
    users = _users(fe, stmt.grantees)
    granted_by = _grantor(fe, stmt.granted_by)
    actions = _grant_actions(stmt.privileges, stmt.object_type)
    objects = [(oid, actions) for oid in _objects(fe, stmt)]
    return await fe.engine_call(
        stmt.tag,
        lambda: fe.instance.engine.privileges.revoke(
            fe.ctx(),
            users,
            objects,
            granted_by=fe.user_id if granted_by is None else granted_by,
            revoke_grant_option=stmt.revoke_grant_option,
            cascade=stmt.cascade,
        ),
    )


def _default_actions(privileges: Sequence[str], kind: str) -> list[str]:
    """make_prost_actions (handle_privilege.rs:425-461)."""
    available = AVAILABLE[kind]
    if privileges == ("ALL",):
        return list(sort_actions(available))
    if any(p not in _MAPPED for p in privileges):
        raise _panic()
    for p in privileges:
        if p not in available:
            raise InvalidInputSyntax(
                f"Invalid privilege type for the given object: {_ACTION_DEBUG[p]}"
            )
    return list(dict.fromkeys(privileges))


async def handle_alter_default_privileges(
    fe: Frontend, stmt: st.AlterDefaultPrivileges, params: list[object]
) -> Outcome:
    """handle_alter_default_privileges (handle_privilege.rs:542-672)."""
    engine = fe.instance.engine
    ctx = fe.ctx()
    is_super = fe.is_superuser
    if stmt.target_users is None:
        users = [fe.user_id]
    else:
        users = _users(fe, stmt.target_users)
        if not is_super and len(users) > 1:
            raise PermissionDenied("Only superuser can alter default privileges for multiple users")
        if not is_super and any(u != fe.user_id for u in users):
            raise PermissionDenied("Only superuser can alter default privileges for other users")
    kind = _DEFAULT_KINDS[stmt.object_type]
    schema_ids: list[int] = []
    if stmt.schemas is None:
        if kind != "schema":
            schema_ids = [
                sid
                for sid, name in engine.catalog.schemas_of(ctx.database_id)
                if name not in SYSTEM_SCHEMAS
            ]
            if not schema_ids:
                return Outcome(stmt.tag)
    else:
        for n in stmt.schemas:
            schema = resolve_single_name(n.parts, "schema name")
            sid = engine.catalog.schema_id(ctx.database_id, schema)
            if sid is None:
                raise CatalogNotFound("schema", schema)
            schema_ids.append(sid)
    grantees = _users(fe, stmt.grantees)
    op = DefaultPrivilege(
        stmt.grant,
        tuple(_default_actions(stmt.privileges, kind)),
        kind,
        tuple(grantees),
        stmt.grant_option,
    )
    return await fe.engine_call(
        stmt.tag,
        lambda: engine.privileges.alter_default_privileges(ctx, users, schema_ids, op),
    )


HANDLERS: dict[type[st.Statement], Handler] = {
    st.Grant: handle_grant,
    st.Revoke: handle_revoke,
    st.AlterDefaultPrivileges: handle_alter_default_privileges,
}
