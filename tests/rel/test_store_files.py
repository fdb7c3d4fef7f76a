"""The store is honest about its own state: a clean stop leaves every committed change in
``meta.db`` (checkpointed, no WAL left); a store whose files lost committed changes or whose
pages are damaged is refused at start-up with one line and exit status 1 (no traceback),
and left as it was; ``rwshim store backup`` makes a consistent copy of the meta store while
a server writes, and of the whole data directory (with the data plane's cluster ``pg/``,
which holds the user rows) when no server runs on it."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from tests.rel.serverproc import ServerProcess, run_cli


def _populate(sp: ServerProcess, tables: int = 5) -> None:
    with sp.connect() as c:
        for i in range(tables):
            c.execute(f"CREATE TABLE t{i} (v int, p varchar)")
            c.execute(f"INSERT INTO t{i} SELECT n, 'row' FROM generate_series(1, 200) AS g(n)")
        c.execute("FLUSH")


def _tables_without_wal(meta: Path) -> list[str]:
    """The user tables ``meta.db`` itself holds (the WAL ignored: immutable read)."""
    conn = sqlite3.connect(f"file:{meta}?mode=ro&immutable=1", uri=True)
    try:
        rows = conn.execute(
            "SELECT name FROM relation WHERE kind = 'table' ORDER BY name"
        ).fetchall()
    finally:
        conn.close()
    return [r[0] for r in rows]


def _files(data_dir: Path) -> dict[str, bytes]:
    """Every file under ``data_dir`` (the meta store and the data plane's cluster)."""
    return {
        str(p.relative_to(data_dir)): p.read_bytes()
        for p in sorted(data_dir.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _refused(data_dir: Path) -> str:
    """Start a server on ``data_dir``: it must refuse with one line and status 1."""
    before = _files(data_dir)
    done = run_cli("--port", "0", "--no-uvloop", "--data-dir", str(data_dir))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    after = _files(data_dir)
    assert after == before  # left as it was
    return lines[0]


def test_clean_stop_checkpoints_into_meta_db(tmp_path: Path) -> None:
    sp = ServerProcess("--data-dir", str(tmp_path))
    _populate(sp)
    assert sp.stop() == 0
    wal = tmp_path / "meta.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    assert _tables_without_wal(tmp_path / "meta.db") == [f"t{i}" for i in range(5)]
    # ... and a copy of meta.db with the stopped data cluster (the user rows) is then a whole
    # store: no WAL of either is needed.
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(tmp_path / "meta.db", copy / "meta.db")
    shutil.copytree(tmp_path / "pg", copy / "pg", symlinks=True)
    sp = ServerProcess("--data-dir", str(copy))
    with sp.connect() as c:
        assert c.execute("SELECT count(*) FROM t4").fetchone() == (200,)
    assert sp.stop() == 0


def _killed_store(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    sp = ServerProcess("--data-dir", str(data))
    _populate(sp)
    pg = _postmaster(data)
    sp.kill()
    _wait_gone(pg)  # the data plane's child dies with the server, in its own time
    assert (data / "meta.db-wal").stat().st_size > 0
    return data


def _postmaster(data_dir: Path) -> int:
    return int((data_dir / "pg" / "postmaster.pid").read_text().split("\n", 1)[0])


def _wait_gone(pid: int) -> None:
    for _ in range(600):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError(f"PostgreSQL (pid {pid}) outlived its rwshim")


def test_meta_db_copied_without_its_wal_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    sp = ServerProcess("--data-dir", str(data))
    _populate(sp)
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(data / "meta.db", copy / "meta.db")  # while the server runs: WAL not copied
    assert sp.stop() == 0
    line = _refused(copy)
    assert line.endswith(
        f"ERROR rwshim: cannot serve: the meta store {copy / 'meta.db'} is damaged: it was "
        "not closed cleanly and its write-ahead log meta.db-wal is missing (committed "
        "changes may be lost with it; copy a store with `rwshim store backup`); it was left "
        "as it is"
    ), line


def test_killed_before_any_write_opens(tmp_path: Path) -> None:
    # Killed right after start (again): the WAL holds what the start-up wrote, the store
    # opens with everything.
    data = tmp_path / "data"
    sp = ServerProcess("--data-dir", str(data))
    _populate(sp, tables=1)
    sp.kill()
    sp = ServerProcess("--data-dir", str(data))
    sp.kill()
    sp = ServerProcess("--data-dir", str(data))
    with sp.connect() as c:
        assert c.execute("SELECT count(*) FROM t0").fetchone() == (200,)
    assert sp.stop() == 0


def test_deleted_wal_is_refused(tmp_path: Path) -> None:
    data = _killed_store(tmp_path)
    (data / "meta.db-wal").unlink()
    assert "its write-ahead log meta.db-wal is missing" in _refused(data)


def test_half_truncated_wal_is_refused(tmp_path: Path) -> None:
    data = _killed_store(tmp_path)
    wal = data / "meta.db-wal"
    os.truncate(wal, wal.stat().st_size // 2)
    line = _refused(data)
    assert "is damaged: its write-ahead log meta.db-wal holds" in line, line
    assert "committed to it (it was truncated); it was left as it is" in line


def _stopped_store(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    sp = ServerProcess("--data-dir", str(data))
    _populate(sp, tables=20)
    assert sp.stop() == 0
    return data


def test_zeroed_pages_are_refused(tmp_path: Path) -> None:
    data = _stopped_store(tmp_path)
    meta = data / "meta.db"
    raw = bytearray(meta.read_bytes())
    page = 4096
    mid = (len(raw) // page // 2) * page
    raw[mid : mid + 4 * page] = bytes(4 * page)
    meta.write_bytes(bytes(raw))
    line = _refused(data)
    assert f"cannot serve: the meta store {meta} is damaged: " in line, line


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_bytes_are_refused(tmp_path: Path, seed: int) -> None:
    data = _stopped_store(tmp_path)
    meta = data / "meta.db"
    raw = bytearray(meta.read_bytes())
    rnd = random.Random(seed)
    start = rnd.randrange(4096, len(raw) - 8192)
    raw[start : start + 8192] = rnd.randbytes(8192)
    meta.write_bytes(bytes(raw))
    line = _refused(data)
    assert f"cannot serve: the meta store {meta} is damaged: " in line, line


def test_backup_while_a_server_writes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    sp = ServerProcess("--data-dir", str(data))
    try:
        _populate(sp)
        with sp.connect() as c:
            c.execute("CREATE MATERIALIZED VIEW m AS SELECT count(*) AS n FROM t0")
            done = run_cli("store", "backup", str(tmp_path / "copy"), "--data-dir", str(data))
            assert done.returncode == 0, done.stderr
            assert done.stdout == f"backed up {data / 'meta.db'} to {tmp_path / 'copy/meta.db'}\n"
            # The rows are in PostgreSQL's running cluster, which cannot be copied online:
            # the copy says so instead of holding empty tables silently.
            assert done.stderr == (
                f"rwshim store backup: the rows of user tables, in {data / 'pg'}, are not in "
                "this copy: a server is running on them and PostgreSQL's cluster cannot be "
                "copied while it runs; stop the server and back up again to copy them\n"
            )
            c.execute("CREATE TABLE after_backup (v int)")  # the server goes on writing
    finally:
        assert sp.stop() == 0
    # The copy is one file, consistent, and a store a server opens.
    assert sorted(p.name for p in (tmp_path / "copy").iterdir()) == ["meta.db"]
    check = run_cli("store", "check", "--data-dir", str(tmp_path / "copy"))
    assert (check.returncode, check.stdout) == (0, f"{tmp_path / 'copy/meta.db'}: ok\n")
    sp = ServerProcess("--data-dir", str(tmp_path / "copy"))
    try:
        with sp.connect() as c:
            names = [r[0] for r in c.execute("SELECT name FROM rw_tables ORDER BY name")]
            assert names == [f"t{i}" for i in range(5)]
            mvs = [r[0] for r in c.execute("SELECT name FROM rw_materialized_views")]
            assert mvs == ["m"]
    finally:
        assert sp.stop() == 0
    # With the server stopped, the backup is the whole data directory, rows included.
    whole = tmp_path / "whole"
    done = run_cli("store", "backup", str(whole), "--data-dir", str(data))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        f"backed up {data / 'meta.db'} to {whole / 'meta.db'}\n"
        f"backed up {data / 'pg'} to {whole / 'pg'}\n"
    )
    assert sorted(p.name for p in whole.iterdir()) == ["meta.db", "pg"]
    sp = ServerProcess("--data-dir", str(whole))
    try:
        with sp.connect() as c:
            names = [r[0] for r in c.execute("SELECT name FROM rw_tables ORDER BY name")]
            assert names == ["after_backup"] + [f"t{i}" for i in range(5)]
            assert c.execute("SELECT n FROM m").fetchone() == (200,)
            assert c.execute("SELECT count(*) FROM t4").fetchone() == (200,)
    finally:
        assert sp.stop() == 0
    # A second backup into the same place is refused, the first copy kept.
    again = run_cli("store", "backup", str(tmp_path / "copy"), "--data-dir", str(data))
    assert again.returncode == 1
    assert again.stderr == (
        f"rwshim store backup: {tmp_path / 'copy/meta.db'} exists; back up into an empty "
        "directory\n"
    )
    assert sorted(p.name for p in (tmp_path / "copy").iterdir()) == ["meta.db"]
