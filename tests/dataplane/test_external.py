"""``--postgres-url``: the same interface over a PostgreSQL rwshim does not own (here a second
child of ours plays it), and the refusal of a server older than 16 (Debian's PostgreSQL 15,
started for real)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from rwshim.cli.main import build_parser, config_from_args
from rwshim.dataplane.postgres import DataPlaneError, EmbeddedPostgres, ExternalPostgres, data_plane
from rwshim.dataplane.postgres.cluster import cache_root, tool_env
from rwshim.dataplane.postgres.osuser import server_user

pytestmark = pytest.mark.slow


def test_the_flag_is_a_setting() -> None:
    url = "postgresql://me@db.example/app"
    assert config_from_args(build_parser().parse_args(["--postgres-url", url])).postgres_url == url
    assert config_from_args(build_parser().parse_args([])).postgres_url is None


async def test_an_external_server_through_the_same_interface(pg: EmbeddedPostgres) -> None:
    plane = data_plane(postgres_url=pg.url)
    assert isinstance(plane, ExternalPostgres)
    await plane.start()
    try:
        await plane.wait_ready()
        assert plane.alive() and plane.generation == 0
        assert (plane.host, plane.port, plane.user, plane.dbname) == (
            pg.host,
            5432,
            "postgres",
            "postgres",
        )
        assert plane.socket_dir == Path(pg.host)
        assert plane.server_version == "18.6"
        async with await psycopg.AsyncConnection.connect(plane.dsn, autocommit=True) as conn:
            await conn.execute("CREATE TABLE ext (v int)")
            await conn.execute("INSERT INTO ext VALUES (7)")
        # It is the same server: the owner sees the row.
        async with await psycopg.AsyncConnection.connect(pg.dsn, autocommit=True) as conn:
            assert await (await conn.execute("SELECT v FROM ext")).fetchone() == (7,)
    finally:
        await plane.stop()
    assert pg.alive()  # stopping an external data plane leaves the server alone


def _old_postgres() -> Path:
    for bindir in sorted(Path("/usr/lib/postgresql").glob("*/bin")):
        name = bindir.parent.name
        if name.isdigit() and int(name) < 16 and (bindir / "postgres").exists():
            return bindir
    raise AssertionError(
        "this test needs a PostgreSQL older than 16 in /usr/lib/postgresql (.ci/run installs"
        " Debian's postgresql package, version 15 on this image)"
    )


@pytest.fixture
def old_server() -> Iterator[str]:
    """Debian's PostgreSQL 15 on a unix socket (as the server user when root); its URL."""
    bindir = _old_postgres()
    root = Path(tempfile.mkdtemp(prefix="rwshim-pg15-"))
    who = server_user(cache_root())
    if who is not None:
        os.chown(root, who.uid, who.gid)
    user, group = (None, None) if who is None else (who.uid, who.gid)
    extra_groups = None if who is None else []
    data = root / "data"
    subprocess.run(
        [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--no-sync", "-A", "trust"],
        cwd=root,
        env=tool_env(),
        check=True,
        capture_output=True,
        user=user,
        group=group,
        extra_groups=extra_groups,
    )
    proc = subprocess.Popen(
        [str(bindir / "postgres"), "-D", str(data), "-k", str(root), "-c", "listen_addresses="],
        cwd=root,
        env=tool_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        user=user,
        group=group,
        extra_groups=extra_groups,
    )
    url = f"postgresql://postgres@/postgres?host={root}&port=5432"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg.connect(url).close()
                break
            except psycopg.OperationalError:
                assert time.monotonic() < deadline and proc.poll() is None, "PG 15 did not start"
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(30)
        shutil.rmtree(root, ignore_errors=True)


async def test_a_server_older_than_16_is_refused(old_server: str) -> None:
    with psycopg.connect(old_server) as conn:
        version = conn.info.parameter_status("server_version")
        assert conn.info.server_version < 160000
    socket_dir = old_server.split("host=")[1].split("&")[0]
    plane = ExternalPostgres(old_server)
    with pytest.raises(DataPlaneError) as caught:
        await plane.start()
    assert str(caught.value) == (
        f"the PostgreSQL of --postgres-url (host={socket_dir} port=5432 user=postgres"
        f" dbname=postgres) is version {version}; rwshim needs PostgreSQL 16 or newer"
    )
    assert not plane.alive()
    with pytest.raises(DataPlaneError):
        await plane.wait_ready()
