"""CREATE USER / ALTER USER options over a real socket, as RisingWave's parser and handlers
take them (src/sqlparser/src/ast/statement.rs:1037-1200 UserOption / UserOptions::parse_to,
handler/create_user.rs, handler/alter_user.rs): each option group at most once, quoted words
by their exact value, ADMIN / NOADMIN (only an admin user grants them; an admin is always a
superuser), OAUTH (jwks_url and issuer required), ENCRYPTED PASSWORD, and the notices of an
empty or NULL password.

Parse errors after RisingWave's src/sqlparser/tests/testdata/create.yaml and
e2e_test/ddl/user.slt.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause


@pytest.fixture
async def server(rw_server_factory: Callable[..., Awaitable[Running]]) -> Running:
    return await rw_server_factory()


def parse_error(message: str, sql: str, col: int) -> tuple[str, str]:
    caret = " " * (len("LINE 1: ") + col - 1)
    return ("XX000", f"\n\nCaused by:\n  sql parser error: {message}\nLINE 1: {sql}\n{caret}^\n")


@pytest.mark.parametrize(
    ("sql", "message", "col"),
    [
        ("create user tmp createdb nocreatedb", "conflicting or redundant options", 36),
        ("create user tmp createdb createdb", "conflicting or redundant options", 34),
        (
            "create user tmp with password '123' password null",
            "conflicting or redundant options",
            50,
        ),
        (
            "create user tmp with encrypted password '' password null",
            "conflicting or redundant options",
            57,
        ),
        ("create user tmp admin noadmin", "conflicting or redundant options", 30),
        (
            "create user tmp with oauth (issuer = 'i') password 'p'",
            "conflicting or redundant options",
            55,
        ),
        (
            "create user tmp with encrypted password null",
            "expected literal string, found: null",
            41,
        ),
        ("create user tmp with password 123", "expected literal string, found: 123", 31),
        ('CREATE USER user1 WITH "LOGIn"', 'unexpected user option: "LOGIn"', 31),
        ('CREATE USER user1 WITH "LOGIN"', 'unexpected user option: "LOGIN"', 31),
        ("create user tmp encrypted foo 'x'", "expected PASSWORD after ENCRYPTED, found foo", 31),
        ("alter user root with login nologin", "conflicting or redundant options", 35),
    ],
)
async def test_parse_errors(client: Client, sql: str, message: str, col: int) -> None:
    assert await cause(client, sql) == parse_error(message, sql, col)


async def flags(c: Client, name: str) -> tuple[object, ...]:
    rows = await c.rows(
        "SELECT is_super, create_db, create_user, can_login, is_admin FROM rw_catalog.rw_users"
        f" WHERE name = '{name}'"
    )
    assert len(rows) == 1, rows
    return rows[0]


async def test_options_and_notices(client_factory: Connect) -> None:
    root = await client_factory()
    await root.run("""CREATE USER u1 WITH "login" SUPERUSER NOCREATEDB CREATEUSER""")
    assert await flags(root, "u1") == (True, False, True, True, False)
    await root.notices()
    await root.run("CREATE USER u2 NOLOGIN PASSWORD ''")
    assert await root.notices() == [
        ("NOTICE", "00000", "empty string is not a valid password, clearing password")
    ]
    await root.run("CREATE USER u3 PASSWORD NULL")
    assert await root.notices() == [
        ("NOTICE", "00000", "empty string is not a valid password, clearing password")
    ]
    assert await flags(root, "u2") == (False, False, False, False, False)
    await root.run("CREATE USER u4 ENCRYPTED PASSWORD 'secret'")
    await root.run("CREATE USER u5 OAUTH (jwks_url = 'http://127.0.0.1:1/jwks', issuer = 'me')")
    assert await cause(root, "CREATE USER u6 OAUTH (jwks_url = 'http://x')") == (
        "XX000",
        "\n\nCaused by:\n  Invalid parameter value: jwks_url and issuer must be provided\n",
    )
    await root.run("ALTER USER u1 WITH NOSUPERUSER CREATEDB NOCREATEUSER")
    assert await flags(root, "u1") == (False, True, False, True, False)


async def test_admin_option(client_factory: Connect) -> None:
    root = await client_factory()
    denied = "\n\nCaused by:\n  Permission denied: "
    assert await cause(root, "CREATE USER a1 ADMIN") == (
        "XX000",
        denied + "only admin users can create admin users\n",
    )
    await root.run("CREATE USER a1")
    assert await cause(root, "ALTER USER a1 WITH ADMIN") == (
        "XX000",
        denied + "a1 cannot be altered with admin option\n",
    )
    admin = await client_factory("rwadmin")
    await admin.notices()
    await admin.run("CREATE USER a2 WITH ADMIN")
    assert await admin.notices() == [("NOTICE", "00000", "Admin users are always superusers")]
    assert await flags(admin, "a2") == (True, False, False, True, True)
    await admin.run("ALTER USER a2 WITH NOSUPERUSER")
    assert await admin.notices() == [
        ("NOTICE", "00000", "admin users must remain superusers, ignoring NOSUPERUSER")
    ]
    assert await flags(admin, "a2") == (True, False, False, True, True)
    await admin.run("ALTER USER a1 WITH ADMIN")
    assert await flags(admin, "a1") == (True, False, False, True, True)
    await admin.run("ALTER USER a1 WITH NOADMIN")
    assert await flags(admin, "a1") == (True, False, False, True, False)
    # root may no longer alter an admin user at all
    assert await cause(root, "ALTER USER a2 WITH CREATEDB") == (
        "XX000",
        denied + "a2 cannot be altered with admin option\n",
    )
