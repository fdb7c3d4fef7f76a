"""Opening the meta store: fresh, reopened (recovery), migrated, refused; durability across
kill -9 in the middle of a DDL stream."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from rwshim.engine.types import ObjectName
from rwshim.errors import StoreUnusable
from rwshim.store import schema
from rwshim.store.store import FILE_NAME, Store
from tests.unit.engine.helpers import bg, counts_of, ctx, make_engine, mv, rel_id, table

ROOT = Path(__file__).resolve().parents[3]


def test_fresh_store_has_the_initial_rows_and_its_identity(tmp_path: Path) -> None:
    s = Store.open(tmp_path)
    assert s.created
    assert s.meta_value("magic") == schema.MAGIC
    assert s.conn.execute("PRAGMA application_id").fetchone() == (schema.APPLICATION_ID,)
    assert s.conn.execute("PRAGMA user_version").fetchone() == (schema.SCHEMA_VERSION,)
    assert s.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert s.next_id("object") == 6
    s.close()
    s2 = Store.open(tmp_path)
    assert not s2.created
    s2.close()


def test_transaction_rolls_back_on_error() -> None:
    s = Store.open()
    with pytest.raises(RuntimeError), s.transaction():
        s.conn.execute("INSERT INTO meta(key, value) VALUES ('x', 'y')")
        raise RuntimeError
    assert s.meta_value("x") is None


def test_refuses_a_file_that_is_not_a_store_and_leaves_it_alone(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_bytes(b"hello, not sqlite")
    with pytest.raises(StoreUnusable) as ex:
        Store.open(tmp_path)
    assert "is not an rwshim meta store" in ex.value.compact()
    assert (tmp_path / FILE_NAME).read_bytes() == b"hello, not sqlite"
    other = tmp_path / "other"
    other.mkdir()
    c = sqlite3.connect(other / FILE_NAME)
    c.execute("CREATE TABLE foreign_data(x)")
    c.commit()
    c.close()
    with pytest.raises(StoreUnusable):
        Store.open(other)
    c = sqlite3.connect(other / FILE_NAME)
    assert c.execute("SELECT name FROM sqlite_master").fetchall() == [("foreign_data",)]
    c.close()


def test_refuses_a_newer_store(tmp_path: Path) -> None:
    s = Store.open(tmp_path)
    s.conn.execute(f"PRAGMA user_version={schema.SCHEMA_VERSION + 1}")
    s.close()
    with pytest.raises(StoreUnusable) as ex:
        Store.open(tmp_path)
    assert "newer rwshim" in ex.value.compact()


def test_a_version_1_store_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / FILE_NAME)
    conn.executescript(schema.MIGRATIONS[0][1])
    conn.execute(f"PRAGMA application_id={schema.APPLICATION_ID}")
    conn.execute("PRAGMA user_version=1")
    conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    conn.execute(
        "INSERT INTO streaming_job(job_id, database_id, job_status, create_type,"
        " parallelism_kind, max_parallelism) VALUES (6, 1, 'CREATED', 'FOREGROUND', 'Adaptive',"
        " 256)"
    )
    conn.commit()
    conn.close()
    s = Store.open(tmp_path)
    assert s.conn.execute("PRAGMA user_version").fetchone() == (schema.SCHEMA_VERSION,)
    assert s.meta_value("schema_version") == str(schema.SCHEMA_VERSION)
    assert s.conn.execute("SELECT job_id, progress FROM streaming_job").fetchall() == [(6, "0.0%")]


def test_render_parallelism_function_for_the_catalog_views() -> None:
    s = Store.open()
    rows = s.conn.execute(
        "SELECT rw_render_parallelism('Fixed', 4, NULL), rw_render_parallelism('Adaptive', NULL,"
        " 'AUTO'), rw_render_parallelism('Adaptive', NULL, 'BOUNDED(64)'),"
        " rw_render_parallelism('Adaptive', NULL, 'RATIO(0.5)'),"
        " rw_render_parallelism('Custom', NULL, NULL), rw_render_parallelism(NULL, NULL, NULL)"
    ).fetchone()
    assert rows == ("4", "adaptive", "bounded(64)", "ratio(0.5)", "custom", "unknown")


def _dump(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    ]
    skip = {"barrier_state", "actor", "sequence"}  # barriers and re-rendering move on reopen
    return {
        t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
        for t in tables
        if t not in skip
    }


def test_reopen_keeps_the_catalog_and_runs_recovery(tmp_path: Path) -> None:
    e = make_engine(Store.open(tmp_path))
    t = table(e, "t", rows=100)
    mv(e, "m", [t], bg())
    e.barrier.pause_all(ctx())
    e.scale.alter_parallelism(ctx(), "table", ObjectName("t"), "2", deferred=True)
    before = _dump(e.conn)
    e.store.close()
    e2 = make_engine(Store.open(tmp_path), counts_of(e))
    after = _dump(e2.conn)
    assert after["relation"] == before["relation"]
    # Same fragments; only backfill progress moved (recovery's barrier reads rows).
    assert [f[:11] for f in after["fragment"]] == [f[:11] for f in before["fragment"]]
    assert e2.catalog.job_status(rel_id(e2, "m")) == "CREATING"  # background job resumes
    assert not e2.barrier.is_paused(1)  # pause cleared
    assert set(e2.actors.rendered_parallelism(t).values()) == {2}  # DEFERRED applied


CHILD = textwrap.dedent(
    """
    import contextlib
    import sys
    from rwshim.common import pgtypes
    from rwshim.engine.engine import Engine
    from rwshim.engine.types import ColumnSpec, Context, ObjectName, SystemClock
    from rwshim.store.store import Store

    e = Engine(Store.open(sys.argv[1]), SystemClock())
    cols = [ColumnSpec("v", pgtypes.INT4, "integer")]
    i = 0
    while True:
        # as the frontend runs a DDL: its commits durable at the scope's end
        with e.store.deferred_sync() if sys.argv[2] else contextlib.nullcontext():
            e.ddl.create_table(
                Context(), ObjectName(f"t{i}"), cols, definition=f"CREATE TABLE t{i}"
            )
        print(f"t{i}", flush=True)  # acknowledged only after the commit
        i += 1
    """
)


def test_deferred_sync_commits_at_normal_inside_and_full_again_after(tmp_path: Path) -> None:
    s = Store.open(tmp_path)

    def level() -> int:
        return int(s.conn.execute("PRAGMA synchronous").fetchone()[0])

    assert level() == 2  # FULL
    with s.deferred_sync():
        assert level() == 1  # NORMAL: the scope's end waits for the disk instead
        with s.transaction():
            first = s.next_id("object")
        # a second session's DDL while the first waits
        with s.deferred_sync(), s.transaction():
            s.next_id("object")
        assert level() == 1  # the outer scope is still open
    assert level() == 2
    s.close()
    s2 = Store.open(tmp_path)
    assert s2.next_id("object") == first + 2
    s2.close()


def test_deferred_sync_does_nothing_in_memory() -> None:
    s = Store.open()
    with s.deferred_sync(), s.transaction():
        s.next_id("object")
    assert s.next_id("object") == 7


@pytest.mark.parametrize("deferred", [False, True], ids=["full", "deferred-sync"])
def test_kill_9_during_a_ddl_stream_keeps_every_acknowledged_ddl(
    tmp_path: Path, deferred: bool
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), "deferred" if deferred else ""],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    assert proc.stdout is not None
    acked: list[str] = []
    deadline = time.monotonic() + 20
    while len(acked) < 40 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        acked.append(line.strip())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    assert len(acked) >= 10
    e = make_engine(Store.open(tmp_path))
    names = {r[0] for r in e.conn.execute("SELECT name FROM relation WHERE kind = 'table'")}
    assert set(acked) <= names
    assert e.conn.execute(
        "SELECT count(*) FROM streaming_job WHERE job_status != 'CREATED'"
    ).fetchone() == (0,)
