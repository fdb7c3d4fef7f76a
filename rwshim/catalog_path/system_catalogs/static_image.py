"""An image of the static catalog tables' rows, attached while ``install_static`` copies them.

Inserting the ~1,100 static rows (static.py) one by one is most of what the read path does at
start-up (~4 ms); SQLite copies them from another database's tables in a fraction of that.
The rows are kept as a small database (the static tables as ordinary tables) serialized in an
image file beside the meta store's (rwshim/store/image.py: same file format, same checks on
reading, same directory under the cache root), named by a CRC of the tables' definitions and
rows and the SQLite version: changed rows name another file, so an image is never stale.
``attach`` deserializes it as the attached database ``ATTACHED`` (made, and written for the
next process, when there is none to read), ``detach`` drops it again.  The image's bytes are
kept in the process for the next instance.  The copy is checked by its row counts; any
failure leaves the rows to be inserted one by one.
"""

from __future__ import annotations

import contextlib
import marshal
import sqlite3
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rwshim.store.image import image_dir, read_image, write_image

ATTACHED = "rwshim_static_image"
# Bump when what the image holds changes without a change of the tables or rows.
IMAGE_FORMAT = 1

# The image this process read or made last: (its file's path, its database).
_kept: tuple[Path, bytes | memoryview] | None = None
# The rows attach was last given and their image's file name (the same rows object every
# time: static.static_rows keeps it).
_named: tuple[object, str] | None = None


def image_path(
    tables: Sequence[tuple[str, str]], rows: Sequence[Sequence[tuple[object, ...]]]
) -> Path:
    return image_dir() / image_name(tables, rows)


def image_name(
    tables: Sequence[tuple[str, str]], rows: Sequence[Sequence[tuple[object, ...]]]
) -> str:
    # marshal (format 2, without back-references) writes equal values as equal bytes; any
    # difference in its output only names another image, never a wrong one
    value: Any = (IMAGE_FORMAT, tuple(tables), tuple(tuple(r) for r in rows))
    data = marshal.dumps(value, 2)
    return f"catalog-{sqlite3.sqlite_version}-{zlib.crc32(data):08x}.img"


def attach(
    conn: sqlite3.Connection,
    tables: Sequence[tuple[str, str]],
    rows: Sequence[Sequence[tuple[object, ...]]],
) -> bool:
    """Attach the image of ``tables`` holding ``rows`` to ``conn`` as ``ATTACHED``; False
    when that cannot be done (the caller inserts the rows then)."""
    global _kept, _named
    if _named is None or _named[0] is not rows:
        try:
            _named = (rows, image_name(tables, rows))
        except ValueError:  # a value marshal cannot write
            return False
    path = image_dir() / _named[1]
    payload = _kept[1] if _kept is not None and _kept[0] == path else read_image(path)
    if payload is None:
        payload = _make(tables, rows)
        if payload is None:
            return False
        with contextlib.suppress(OSError):
            write_image(path, payload)
    _kept = (path, payload)
    try:
        conn.execute(f"ATTACH DATABASE ':memory:' AS {ATTACHED}")
    except sqlite3.Error:
        return False
    try:
        conn.deserialize(payload, name=ATTACHED)
    except sqlite3.Error:
        detach(conn)
        return False
    return True


def insert_rows(conn: sqlite3.Connection, table: str, rows: Sequence[tuple[object, ...]]) -> None:
    """Insert ``rows`` into ``table`` one by one (the image's own, and the fallback when none
    can be attached)."""
    marks = ", ".join("?" * len(rows[0]))
    conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


def detach(conn: sqlite3.Connection) -> None:
    with contextlib.suppress(sqlite3.Error):
        conn.execute(f"DETACH DATABASE {ATTACHED}")


def _make(
    tables: Sequence[tuple[str, str]], rows: Sequence[Sequence[tuple[object, ...]]]
) -> bytes | None:
    """The image's database: ``tables`` as ordinary tables, filled with ``rows``."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.execute("BEGIN")
        for (name, columns), table_rows in zip(tables, rows, strict=True):
            conn.execute(f"CREATE TABLE {name} ({columns})")
            insert_rows(conn, name, table_rows)
        conn.execute("COMMIT")
        return conn.serialize()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
