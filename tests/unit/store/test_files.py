"""The start-up checks of the store's files (rwshim/store/files.py), on real files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rwshim.errors import StoreUnusable
from rwshim.store import files
from rwshim.store.store import Store


def _killed(tmp_path: Path) -> Path:
    """A store whose process went away without closing it (the WAL holds its writes)."""
    store = Store.open(tmp_path)
    with store.transaction():
        store.conn.execute("INSERT INTO meta(key, value) VALUES ('probe', 'x')")
    # What a kill leaves: the connection is never closed; copy the files as they are now.
    out = tmp_path / "copy"
    out.mkdir()
    for name in ("meta.db", "meta.db-wal", "meta.db-shm"):
        (out / name).write_bytes((tmp_path / name).read_bytes())
    store.close()
    return out / "meta.db"


def test_clean_close_needs_no_wal(tmp_path: Path) -> None:
    Store.open(tmp_path).close()
    assert not (tmp_path / "meta.db-wal").exists()
    files.check_files(tmp_path / "meta.db")
    assert files.clean_flag(tmp_path / "meta.db") == "0"


def test_killed_store_with_its_wal_passes(tmp_path: Path) -> None:
    meta = _killed(tmp_path)
    assert files.clean_flag(meta) == "1"
    files.check_files(meta)


def test_empty_wal_after_the_open_checkpoint_passes(tmp_path: Path) -> None:
    meta = _killed(tmp_path)
    os.truncate(Path(f"{meta}-wal"), 0)
    files.check_files(meta)


def test_missing_wal_of_an_unclosed_store_is_refused(tmp_path: Path) -> None:
    meta = _killed(tmp_path)
    Path(f"{meta}-wal").unlink()
    with pytest.raises(StoreUnusable) as e:
        files.check_files(meta)
    assert "its write-ahead log meta.db-wal is missing" in str(e.value)


def test_foreign_wal_header_is_refused(tmp_path: Path) -> None:
    meta = _killed(tmp_path)
    wal = Path(f"{meta}-wal")
    wal.write_bytes(b"\x00" * 32 + wal.read_bytes()[32:])
    with pytest.raises(StoreUnusable) as e:
        files.check_files(meta)
    assert "is not a SQLite WAL" in str(e.value)
