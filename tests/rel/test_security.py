"""Who may connect and what a non-superuser may do: per-user passwords (RisingWave's md5
storage and exchange), ``--password`` as the fallback, PostgreSQL's codes for a wrong
password / unknown user / unknown database, the superuser-only statements, and the
start-up line that says who can reach the server."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from rwshim.common.passwords import StoredPassword, encrypted_password
from rwshim.wire import auth
from tests.conftest import Running

Factory = Callable[..., Awaitable[Running]]
# Simple protocol (asyncpg execute() without arguments): "Failed to run the query".
ENVELOPE = "Failed to run the query\n\nCaused by:\n  Permission denied: {}\n"


def test_encrypted_password_as_risingwave_stores_it() -> None:
    # The vectors of user_authentication.rs's test_encrypt_password (user foo, password bar).
    assert encrypted_password("foo", "bar") == StoredPassword(
        "md5", "md596948aad3fcae80c08a35c9b5958cd89"
    )
    assert encrypted_password("foo", "") is None
    assert encrypted_password("foo", "md596948aad3fcae80c08a35c9b5958cd89") == StoredPassword(
        "md5", "md596948aad3fcae80c08a35c9b5958cd89"
    )
    sha = "SHA-256:88ecde925da3c6f8ec3d140683da9d2a422f26c1ae1d9212da1e5a53416dcc88"
    assert encrypted_password("foo", sha) == StoredPassword("sha256", sha)
    # Not the exact length of a hash: a password like any other.
    assert encrypted_password("foo", "md5abc") == StoredPassword(
        "md5", "md5" + hashlib.md5(b"md5abcfoo").hexdigest()
    )


def test_md5_exchange_over_the_stored_hash() -> None:
    # md5_hash_with_salt's vector in the same RisingWave test.
    a = auth.Md5("foo", stored="md596948aad3fcae80c08a35c9b5958cd89", salt=b"\x1a\x2b\x3d\x4e")
    assert a.start() == b"R\x00\x00\x00\x0c\x00\x00\x00\x05\x1a\x2b\x3d\x4e"
    assert a.step(b"md59f2fa6a30871a92249bdd2f1eeee4ef6\x00").done
    b = auth.Md5("foo", stored="md596948aad3fcae80c08a35c9b5958cd89", salt=b"\x1a\x2b\x3d\x4e")
    with pytest.raises(auth.AuthFailed) as e:
        b.step(b"md59f2fa6a30871a92249bdd2f1eeee4ef7\x00")
    assert (e.value.sqlstate, str(e.value)) == ("28P01", "Invalid password")


async def _connect(server: Running, **kw: str) -> asyncpg.Connection:
    kw.setdefault("user", "root")
    kw.setdefault("database", "dev")
    return await asyncpg.connect(host=server.host, port=server.port, **kw)


async def test_per_user_password_and_server_password_fallback(rw_server_factory: Factory) -> None:
    server = await rw_server_factory(password="rootpw", auth="scram")
    root = await _connect(server, password="rootpw")
    await root.execute("CREATE USER alice PASSWORD 'secret'")
    await root.execute("CREATE USER bob")
    assert server.server.instance is not None
    assert server.server.instance.user_password("alice") == StoredPassword(
        "md5", "md5" + hashlib.md5(b"secretalice").hexdigest()
    )
    alice = await _connect(server, user="alice", password="secret")
    assert await alice.fetchval("SELECT current_user") == "alice"
    await alice.close()
    # The server-wide password is not alice's.
    with pytest.raises(asyncpg.InvalidPasswordError) as e:
        await _connect(server, user="alice", password="rootpw")
    assert (e.value.sqlstate, str(e.value)) == ("28P01", "Invalid password")
    # bob has no password of his own: --password applies to him.
    bob = await _connect(server, user="bob", password="rootpw")
    await bob.close()
    with pytest.raises(asyncpg.InvalidPasswordError):
        await _connect(server, user="bob", password="secret")
    await root.close()


async def test_auth_failures_get_postgresql_codes(rw_server: Running) -> None:
    root = await _connect(rw_server)
    await root.execute("CREATE USER carol PASSWORD 'pw'")
    with pytest.raises(asyncpg.InvalidPasswordError) as e1:
        await _connect(rw_server, user="carol", password="wrong")
    assert (e1.value.sqlstate, str(e1.value)) == ("28P01", "Invalid password")
    with pytest.raises(asyncpg.InvalidAuthorizationSpecificationError) as e2:
        await _connect(rw_server, user="nobody")
    assert (e2.value.sqlstate, str(e2.value)) == (
        "28000",
        "Failed to start a new session: Catalog error: Role nobody does not exist",
    )
    with pytest.raises(asyncpg.InvalidCatalogNameError) as e3:
        await _connect(rw_server, database="nodb")
    assert (e3.value.sqlstate, str(e3.value)) == (
        "3D000",
        "Failed to start a new session: Catalog error: database not found: nodb",
    )
    # The failures left nothing behind.
    assert len(rw_server.server.registry) == 1
    await root.close()


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        # alter_system.rs:30 / recover.rs:22-30 / the pause extension (risectl needs meta access)
        (
            "ALTER SYSTEM SET barrier_interval_ms = 500",
            "must be superuser to execute ALTER SYSTEM command",
        ),
        ("RECOVER", "only superusers can trigger adhoc recovery"),
        ("ALTER SYSTEM PAUSE", "must be superuser to pause or resume streaming"),
        ("ALTER SYSTEM RESUME", "must be superuser to pause or resume streaming"),
        ("ALTER DATABASE dev PAUSE", "must be superuser to pause or resume streaming"),
        ("CREATE USER eve SUPERUSER", "must be superuser to create superusers"),
        ("CREATE USER eve", "permission denied to create user"),
        ("CREATE DATABASE other", "permission denied to create database"),
    ],
)  # fmt: skip
async def test_superuser_statements_refused_to_other_users(
    rw_server: Running, sql: str, reason: str
) -> None:
    root = await _connect(rw_server)
    await root.execute("CREATE USER dave PASSWORD 'pw'")
    dave = await _connect(rw_server, user="dave", password="pw")
    with pytest.raises(asyncpg.PostgresError) as e:
        await dave.execute(sql)
    assert (e.value.sqlstate, str(e.value)) == ("XX000", ENVELOPE.format(reason))
    # Refused, not done: the connection goes on, the cluster is as before.
    assert await dave.fetchval("SELECT 1") == 1
    assert await root.fetchval("SELECT count(*) FROM rw_catalog.rw_users WHERE name = 'eve'") == 0
    await root.execute("ALTER SYSTEM PAUSE")
    await root.execute("ALTER SYSTEM RESUME")
    await dave.close()
    await root.close()


def _first_log_line(*args: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "rwshim", "--port", "0", "--no-uvloop", *args],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if "ready on" in line:
                return line.split(": ", 1)[1].strip()
        raise AssertionError("no start-up line")
    finally:
        proc.kill()
        proc.wait(10)


def test_start_up_line_says_loopback_unless_told_otherwise() -> None:
    line = _first_log_line()
    assert line.startswith("rwshim ready on 127.0.0.1:")
    assert line.endswith("(loopback only; --host to listen elsewhere)")
    # (a password-less server beyond loopback must be asked for: tests/rel/test_exposure.py)
    line = _first_log_line("--host", "0.0.0.0", "--allow-remote-without-password")
    assert line.endswith("(reachable from other hosts)")


async def test_alter_user_password(rw_server: Running) -> None:
    root = await _connect(rw_server)
    await root.execute("CREATE USER erin PASSWORD 'one'")
    await root.execute("CREATE USER fred")
    await root.execute("ALTER USER erin WITH PASSWORD 'two'")
    with pytest.raises(asyncpg.InvalidPasswordError):
        await _connect(rw_server, user="erin", password="one")
    erin = await _connect(rw_server, user="erin", password="two")
    # A user may change their own password and nothing else (alter_user.rs:39-75).
    await erin.execute("ALTER USER erin PASSWORD 'three'")
    for sql, reason in [
        ("ALTER USER fred PASSWORD 'x'", "permission denied to alter user"),
        ("ALTER USER erin NOLOGIN", "permission denied to alter user"),
        (
            "ALTER USER root PASSWORD 'x'",
            "must be superuser to alter superuser roles or change superuser attribute",
        ),
    ]:
        with pytest.raises(asyncpg.PostgresError) as e:
            await erin.execute(sql)
        assert str(e.value) == ENVELOPE.format(reason)
    await erin.close()
    (await _connect(rw_server, user="erin", password="three")).terminate()
    # An empty password clears it, with RisingWave's notice; erin then needs none (trust).
    notices: list[str] = []
    root.add_log_listener(lambda _c, m: notices.append(m.message))
    await root.execute("ALTER USER erin PASSWORD ''")
    assert notices == ["empty string is not a valid password, clearing password"]
    (await _connect(rw_server, user="erin")).terminate()
    with pytest.raises(asyncpg.PostgresError) as e:
        await root.execute("ALTER USER nobody LOGIN")
    assert str(e.value) == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: user not found: nobody\n"
    )
    await root.close()
