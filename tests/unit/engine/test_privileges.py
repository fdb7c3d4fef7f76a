"""The privilege model without a socket: rwshim.common.acl's check and texts, the engine's privilege
rows (grantors, dependent privileges, who may revoke what, default privileges, what a drop
takes along), and the store migration that brings older stores to user_privilege."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rwshim.common.acl import CheckItem, UserAcl, check_privileges
from rwshim.engine.engine import Engine
from rwshim.engine.privileges import DefaultPrivilege
from rwshim.engine.types import Context, ObjectName
from rwshim.errors import MetaPermissionDenied, PermissionDenied
from rwshim.store import schema
from rwshim.store.store import FILE_NAME, Store
from tests.unit.engine.helpers import ctx, make_engine, table


def _user(e: Engine, name: str) -> Context:
    e.users.create_user(ctx(), name)
    uid = e.users.user_id(name)
    assert uid is not None
    return Context(database_id=1, user_id=uid)


def _rows(e: Engine, oid: int) -> list[tuple[str, str, str, int, bool]]:
    """(user, action, grantor, depends on another privilege, with grant option) on ``oid``."""
    return [
        (str(r[0]), str(r[1]), str(r[2]), int(r[3]), bool(r[4]))
        for r in e.conn.execute(
            "SELECT u.name, p.action, g.name, p.dependent_id IS NOT NULL, p.with_grant_option"
            " FROM user_privilege p JOIN rw_user u ON u.user_id = p.user_id"
            " JOIN rw_user g ON g.user_id = p.granted_by WHERE p.oid = ? ORDER BY p.id",
            (oid,),
        )
    ]


def test_check_privileges_texts() -> None:
    """privilege.rs:44-92."""
    alice = UserAcl(4, "alice", False, grants=frozenset({(7, "SELECT")}))
    check_privileges(alice, [CheckItem(1, "SELECT", "t", "table", 7)])
    check_privileges(alice, [CheckItem(4, "DELETE", "t", "table", 7)])  # the owner
    check_privileges(UserAcl(1, "root", True), [CheckItem(4, "DELETE", "t", "table", 7)])
    with pytest.raises(PermissionDenied) as e:
        check_privileges(alice, [CheckItem(1, "USAGE", "s", "schema", 2)])
    assert e.value.chain == ['Permission denied: permission denied for schema "s": "USAGE"']
    with pytest.raises(PermissionDenied) as e:
        check_privileges(None, [])
    assert e.value.chain == ["Permission denied: Session user is invalid"]


def test_grant_records_grantor_and_dependency() -> None:
    e = make_engine()
    t = table(e, "t")
    alice, bob = _user(e, "alice"), _user(e, "bob")
    carol = _user(e, "carol")
    e.privileges.grant(ctx(), [alice.user_id], [(t, ["SELECT"])], with_grant_option=True)
    e.privileges.grant(alice, [bob.user_id], [(t, ["SELECT", "INSERT"])], with_grant_option=False)
    # bob holds no grant option: nothing is recorded for carol (user.rs:303-309)
    e.privileges.grant(bob, [carol.user_id], [(t, ["SELECT"])], with_grant_option=False)
    assert _rows(e, t) == [
        ("alice", "SELECT", "root", 0, True),
        ("bob", "SELECT", "alice", 1, False),
    ]
    # granting again upgrades the grant option only (upsert_user_privileges)
    e.privileges.grant(alice, [bob.user_id], [(t, ["SELECT"])], with_grant_option=True)
    assert _rows(e, t)[1] == ("bob", "SELECT", "alice", 1, True)


def test_revoke_rules() -> None:
    e = make_engine()
    t = table(e, "t")
    alice, bob = _user(e, "alice"), _user(e, "bob")
    e.privileges.grant(ctx(), [alice.user_id], [(t, ["SELECT"])], with_grant_option=True)
    e.privileges.grant(alice, [bob.user_id], [(t, ["SELECT"])], with_grant_option=True)
    with pytest.raises(MetaPermissionDenied) as err:
        e.privileges.revoke(
            alice, [bob.user_id], [(t, ["SELECT"])], granted_by=1,
            revoke_grant_option=False, cascade=False,
        )  # fmt: skip
    assert err.value.chain == [
        "Permission denied: user alice is not super, can't revoke privileges for root"
    ]
    with pytest.raises(MetaPermissionDenied) as err:
        e.privileges.revoke(
            ctx(), [alice.user_id], [(t, ["SELECT"])], granted_by=1,
            revoke_grant_option=False, cascade=False,
        )  # fmt: skip
    assert err.value.chain == ["Permission denied: privileges granted to 1 other ones."]
    # a superuser's REVOKE takes every grantor's privilege (user.rs:441-443)
    e.privileges.revoke(
        ctx(), [bob.user_id], [(t, ["SELECT"])], granted_by=1,
        revoke_grant_option=False, cascade=False,
    )  # fmt: skip
    assert _rows(e, t) == [("alice", "SELECT", "root", 0, True)]


def test_dropping_objects_and_users_takes_their_privileges() -> None:
    e = make_engine()
    t = table(e, "t")
    alice = _user(e, "alice")
    e.privileges.grant(ctx(), [alice.user_id], [(t, ["SELECT"])], with_grant_option=False)
    e.ddl.drop_relation(ctx(), "table", ObjectName("t"))
    assert _rows(e, t) == []
    e.privileges.alter_default_privileges(
        ctx(), [1], [2], DefaultPrivilege(True, ("SELECT",), "table", (alice.user_id,), False)
    )
    e.users.drop_user(ctx(), "alice")
    assert e.conn.execute("SELECT count(*) FROM user_default_privilege").fetchone() == (0,)
    assert e.conn.execute(
        "SELECT count(*) FROM user_privilege WHERE user_id = ?", (alice.user_id,)
    ).fetchone() == (0,)


def test_schema_default_privileges_are_matched_by_hand() -> None:
    """user.rs:560-619: an existing schema default gains the grant option; without it a
    second row is added (the unique key does not see NULL schema ids as equal)."""
    e = make_engine()
    john = _user(e, "john")
    op = DefaultPrivilege(True, ("USAGE",), "schema", (john.user_id,), False)
    e.privileges.alter_default_privileges(ctx(), [1], [], op)
    e.privileges.alter_default_privileges(ctx(), [1], [], op)
    with_option = DefaultPrivilege(True, ("USAGE",), "schema", (john.user_id,), True)
    e.privileges.alter_default_privileges(ctx(), [1], [], with_option)
    rows = e.conn.execute(
        "SELECT with_grant_option FROM user_default_privilege ORDER BY id"
    ).fetchall()
    assert rows == [(1,), (0,)]
    e.catalog.create_schema(ctx(), "s")
    sid = e.catalog.schema_id(1, "s")
    assert sid is not None
    assert _rows(e, sid) == [("john", "USAGE", "root", 0, True)]


def test_a_version_5_store_gets_user_privilege(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / FILE_NAME)
    for _v, sql in schema.MIGRATIONS[:5]:
        conn.executescript(sql)
    conn.execute(f"PRAGMA application_id={schema.APPLICATION_ID}")
    conn.execute("PRAGMA user_version=5")
    conn.execute("INSERT INTO meta VALUES ('schema_version', '5')")
    conn.execute(
        "INSERT INTO rw_user(user_id, name, created_at) VALUES (1, 'root', ''), (4, 'old', '')"
    )
    conn.execute("INSERT INTO database(database_id, name, owner_id, created_at) VALUES"
                 " (1, 'dev', 1, ''), (6, 'db2', 1, '')")  # fmt: skip
    conn.execute("INSERT INTO privilege VALUES (4, 9, 'SELECT', 1, 1)")
    conn.commit()
    conn.close()
    s = Store.open(tmp_path)
    rows = s.conn.execute(
        "SELECT user_id, oid, action, granted_by, with_grant_option FROM user_privilege"
        " ORDER BY oid, action"
    ).fetchall()
    # the old grant, and CONNECT everywhere for a user made before CONNECT was granted
    assert rows == [(4, 1, "CONNECT", 1, 1), (4, 6, "CONNECT", 1, 1), (4, 9, "SELECT", 1, 1)]
