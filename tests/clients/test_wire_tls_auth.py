"""TLS upgrade with a self-signed certificate, and password logins (SCRAM, md5, cleartext)."""

from __future__ import annotations

import ssl
import subprocess
from collections.abc import Callable
from pathlib import Path

import asyncpg
import psycopg
import pytest

from tests.conftest import Running, ThreadRunning


@pytest.fixture(scope="module")
def cert(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("tls")
    crt, key = d / "server.crt", d / "server.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(crt)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return crt, key


def test_tls_with_psycopg_and_psql(
    rw_thread_server_factory: Callable[..., ThreadRunning], cert: tuple[Path, Path]
) -> None:
    server = rw_thread_server_factory(tls_cert=cert[0], tls_key=cert[1])
    with psycopg.connect(server.dsn(sslmode="require"), autocommit=True) as conn:
        assert conn.pgconn.ssl_in_use
        assert conn.execute("select 1").fetchone() == (1,)
    r = subprocess.run(
        ["psql", "-X", "-At", "-c", "select 'tls'"],
        env=server.env(PGSSLMODE="require"), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert (r.returncode, r.stdout) == (0, "tls\n"), r.stderr


async def test_tls_with_asyncpg(
    rw_server_factory: Callable[..., object], cert: tuple[Path, Path]
) -> None:
    server: Running = await rw_server_factory(tls_cert=cert[0], tls_key=cert[1])  # type: ignore[misc]
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    conn = await asyncpg.connect(
        host=server.host, port=server.port, user="root", database="dev", ssl=ctx
    )
    try:
        assert await conn.fetchval("select $1::int4", 3) == 3
    finally:
        await conn.close()


def test_without_a_certificate_ssl_is_refused(rw_thread_server: ThreadRunning) -> None:
    with pytest.raises(psycopg.OperationalError, match="server does not support SSL"):
        psycopg.connect(rw_thread_server.dsn(sslmode="require"))
    with psycopg.connect(rw_thread_server.dsn(sslmode="prefer")) as conn:  # 'N', then plain
        assert not conn.pgconn.ssl_in_use


@pytest.mark.parametrize("method", ["scram", "md5", "cleartext"])
def test_password_logins_with_psycopg(
    rw_thread_server_factory: Callable[..., ThreadRunning], method: str
) -> None:
    server = rw_thread_server_factory(password="pw 1", auth=method)
    with psycopg.connect(server.dsn(password="'pw 1'"), autocommit=True) as conn:
        assert conn.execute("select 1").fetchone() == (1,)
        assert conn.info.backend_pid > 0  # BackendKeyData is sent on password logins too
    with pytest.raises(psycopg.OperationalError) as info:
        psycopg.connect(server.dsn(password="wrong"))
    assert "FATAL:  Invalid password" in str(info.value)


@pytest.mark.parametrize("method", ["scram", "md5"])
async def test_password_logins_with_asyncpg(
    rw_server_factory: Callable[..., object], method: str
) -> None:
    server: Running = await rw_server_factory(password="s3cret", auth=method)  # type: ignore[misc]
    conn = await asyncpg.connect(
        host=server.host, port=server.port, user="root", database="dev", password="s3cret"
    )
    try:
        assert await conn.fetchval("select 1") == 1
    finally:
        await conn.close()
    with pytest.raises(asyncpg.InvalidPasswordError) as info:
        await asyncpg.connect(
            host=server.host, port=server.port, user="root", database="dev", password="nope"
        )
    assert (info.value.sqlstate, str(info.value)) == ("28P01", "Invalid password")


def test_psql_password_prompt_reconnect(
    rw_thread_server_factory: Callable[..., ThreadRunning],
) -> None:
    """psql connects, sees the password request, closes, and reconnects with the password."""
    server = rw_thread_server_factory(password="pw", auth="scram")
    r = subprocess.run(
        ["psql", "-X", "-At", "-c", "select 1"],
        env=server.env(PGPASSWORD="pw"), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert (r.returncode, r.stdout) == (0, "1\n"), r.stderr
    r = subprocess.run(
        ["psql", "-X", "-w", "-At", "-c", "select 1"],
        env=server.env(), capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert r.returncode == 2
    assert "no password supplied" in r.stderr


def test_tls_required_refuses_plain_connections(
    rw_thread_server_factory: Callable[..., ThreadRunning], cert: tuple[Path, Path]
) -> None:
    server = rw_thread_server_factory(tls_cert=cert[0], tls_key=cert[1], tls_required=True)
    with pytest.raises(psycopg.OperationalError) as info:
        psycopg.connect(server.dsn(sslmode="disable"))
    assert (
        "FATAL:  Failed to start a new session: SSL connection is required but not established"
        in str(info.value)
    )
    with psycopg.connect(server.dsn(sslmode="require")) as conn:
        assert conn.pgconn.ssl_in_use
