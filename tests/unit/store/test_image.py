"""An in-memory store copied from the schema image (rwshim/store/image.py) is exactly a store
whose schema scripts ran; a missing, damaged, foreign or other-schema image is passed over."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from rwshim.cachedir import CACHE_ENV
from rwshim.store import image, schema
from rwshim.store import store as store_module
from rwshim.store.store import Store

NOW = "2026-01-01 00:00:00.000000+00:00"
Dump = dict[str, object]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache root of the test's own, and no template kept from earlier opens."""
    root = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(root))
    image.forget()
    yield root
    image.forget()


def scripts_store() -> Store:
    """An in-memory store made by running the schema scripts (no image)."""
    return Store._opened(store_module._memory_connection(), None, NOW)


def dump(s: Store) -> Dump:
    """Everything a store holds and the connection settings it was opened with (the random
    cluster id aside).  Not the schema cookie (``PRAGMA schema_version``): SQLite's count of
    schema changes made through this file, which a backup sets to the target's own count
    plus one; no answer reads it, and it tells other connections to the file when to
    re-read the schema (an in-memory store has none)."""
    c = s.conn
    out: Dump = {"created": s.created}
    out["master"] = c.execute(
        "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master"
    ).fetchall()
    out["temp"] = c.execute("SELECT * FROM sqlite_temp_master").fetchall()
    for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
        rows = c.execute(f'SELECT * FROM "{name}"').fetchall()
        if name == "meta":
            rows = [r for r in rows if r[0] != "cluster_id"]
        out[f"table {name}"] = sorted(rows, key=repr)
    for pragma in (
        "user_version", "application_id", "page_size", "page_count",
        "freelist_count", "encoding", "auto_vacuum", "journal_mode", "foreign_keys",
        "integrity_check", "database_list",
    ):  # fmt: skip
        out[pragma] = c.execute(f"PRAGMA {pragma}").fetchall()
    out["function"] = c.execute("SELECT rw_render_parallelism('Fixed', 4, NULL)").fetchone()
    out["cluster_id"] = len(s.meta_value("cluster_id") or "")
    return out


def test_a_copied_store_is_the_store_its_scripts_make(cache: Path) -> None:
    expected = dump(scripts_store())
    assert dump(Store.open(now=NOW)) == expected  # from the template made in this process
    image.forget()
    assert image.image_path(cache).exists()
    loaded = Store.open(now=NOW)  # from the template loaded from the image file
    assert dump(loaded) == expected
    # separate databases, each with a cluster id of its own
    with loaded.transaction():
        loaded.conn.execute("INSERT INTO meta(key, value) VALUES ('x', 'y')")
    again = Store.open(now=NOW)
    assert again.meta_value("x") is None
    assert again.meta_value("cluster_id") != loaded.meta_value("cluster_id")


def test_the_image_is_written_once_and_reused(cache: Path) -> None:
    Store.open()
    path = image.image_path(cache)
    st = path.stat()
    assert st.st_mode & 0o777 == 0o644
    image.forget()
    Store.open()
    assert path.stat().st_ino == st.st_ino  # loaded, not made and written again
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left


def rewritten(path: Path, before: os.stat_result) -> bool:
    return path.stat().st_ino != before.st_ino


def test_a_damaged_image_is_passed_over_and_written_again(cache: Path) -> None:
    expected = dump(scripts_store())
    Store.open()
    path = image.image_path(cache)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    before = path.stat()
    image.forget()
    assert dump(Store.open(now=NOW)) == expected
    assert rewritten(path, before)
    for cut in (b"", path.read_bytes()[:100]):  # empty, cut short
        path.write_bytes(cut)
        image.forget()
        assert dump(Store.open(now=NOW)) == expected


def test_an_image_others_may_write_is_not_read(cache: Path) -> None:
    Store.open()
    path = image.image_path(cache)
    path.chmod(0o666)
    before = path.stat()
    image.forget()
    Store.open()
    assert rewritten(path, before) and path.stat().st_mode & 0o777 == 0o644


def test_an_image_of_another_schema_is_not_read(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A well-formed image whose database is not this schema (another user_version) is
    passed over; a change of the scripts names another file."""
    expected = dump(scripts_store())
    other = sqlite3.connect(":memory:")
    other.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    other.execute("PRAGMA user_version=1")
    other.commit()
    image.write_image(image.image_path(cache), other.serialize())
    assert dump(Store.open(now=NOW)) == expected
    path = image.image_path(cache)
    changed = (*schema.MIGRATIONS, (99, "CREATE TABLE x (y INTEGER);"))
    monkeypatch.setattr(image, "MIGRATIONS", changed)
    assert image.image_path(cache) != path


def test_without_a_writable_cache_root_the_store_is_made_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = dump(scripts_store())
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(CACHE_ENV, str(blocker))
    image.forget()
    try:
        assert dump(Store.open(now=NOW)) == expected
        assert dump(Store.open(now=NOW)) == expected  # the template this process kept
    finally:
        image.forget()


def test_a_store_in_a_data_directory_runs_its_scripts(cache: Path, tmp_path: Path) -> None:
    s = Store.open(tmp_path / "data")
    assert s.created
    s.close()
    assert not image.image_path(cache).exists()
