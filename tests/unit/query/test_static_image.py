"""The static catalog tables copied from their image
(rwshim/catalog_path/system_catalogs/static_image.py)
are exactly the tables inserting their rows makes; an image that is missing, damaged or short
of rows is passed over.  Real SQLite connections, an image directory of the test's own."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from rwshim.cachedir import CACHE_ENV
from rwshim.catalog_path.system_catalogs import static_image
from rwshim.catalog_path.system_catalogs.static import TABLES, install_static, static_rows
from rwshim.store.image import write_image

Dump = dict[str, object]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(static_image, "_kept", None)
    yield tmp_path


def installed(in_transaction: bool = False) -> Dump:
    """The static tables install_static makes on a new connection: in autocommit (from the
    image) or inside a transaction (inserted row by row)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE main_table (x INTEGER)")
    if in_transaction:
        conn.execute("BEGIN")
    install_static(conn)
    if in_transaction:
        conn.execute("COMMIT")
    assert not conn.in_transaction
    out: Dump = {
        "temp": conn.execute("SELECT * FROM sqlite_temp_master").fetchall(),
        "databases": [r[1] for r in conn.execute("PRAGMA database_list")],
    }
    for name, _ in TABLES:
        out[name] = conn.execute(f"SELECT rowid, * FROM temp.{name} ORDER BY rowid").fetchall()
    conn.close()
    return out


def image_path() -> Path:
    return static_image.image_path(TABLES, static_rows())


def forget() -> None:
    static_image._kept = None


def test_the_copy_is_the_tables_their_rows_make(cache: Path) -> None:
    expected = installed(in_transaction=True)
    assert not image_path().exists()  # inserted: no image made
    assert expected["databases"] == ["main", "temp"]
    assert installed() == expected  # from an image made now
    assert image_path().exists()
    assert installed() == expected  # from the image this process kept
    forget()
    assert installed() == expected  # from the image file


def test_a_damaged_or_short_image_is_passed_over(cache: Path) -> None:
    expected = installed(in_transaction=True)
    installed()
    path = image_path()
    data = bytearray(path.read_bytes())
    data[-100] ^= 0xFF
    path.write_bytes(bytes(data))
    before = path.stat()
    forget()
    assert installed() == expected
    assert path.stat().st_ino != before.st_ino  # made and written again
    # a well-formed image holding too few rows: the rows are inserted
    short = sqlite3.connect(":memory:")
    for name, columns in TABLES:
        short.execute(f"CREATE TABLE {name} ({columns})")
    short.commit()
    write_image(path, short.serialize())
    forget()
    assert installed() == expected


def test_without_a_writable_cache_root_the_tables_are_made_all_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(CACHE_ENV, str(blocker))
    monkeypatch.setattr(static_image, "_kept", None)
    expected = installed(in_transaction=True)
    assert installed() == expected


def test_other_rows_name_another_image(cache: Path) -> None:
    rows = static_rows()
    changed = (rows[0], rows[1][:-1], rows[2])
    assert static_image.image_path(TABLES, changed) != static_image.image_path(TABLES, rows)
