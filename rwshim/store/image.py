"""The fresh schema of an in-memory meta store, made once and copied (start-up, issue 16).

Creating a store runs every migration of rwshim/store/schema.py, ~85 statements and ~15 ms of
a ~0.3 s start-up.  An in-memory store (no ``--data-dir``) instead gets a page-by-page copy
(SQLite's online backup) of a template connection that holds the fresh schema:

- in a process, the template is made at the first open and kept;
- across processes, it is loaded from an image file under the cache root
  (rwshim/cachedir.py, as the data plane's template cluster):
  ``store/meta-v<schema version>-<SQLite version>-<key>.img``, the key a CRC of the schema
  scripts, the application id and ``IMAGE_FORMAT``; a changed script names another file, so
  an image is never stale.  The file is ``_MAGIC``, the CRC-32 of the rest, and the database
  as ``sqlite3.Connection.serialize()`` gives it.  It is written beside its final name and
  renamed into place.  A file that is missing, not ours (another owner, or writable by group
  or others: it would be run as our schema), damaged (CRC), or not the schema it should be
  (``user_version``, ``application_id``) is passed over: the scripts run, and the image is
  written again.

The template is made by running the scripts (the caller's ``build``, ``store.create_schema``:
the very statements a store created without an image runs), so a copy is exactly a store
whose scripts ran (but for SQLite's schema cookie, which a backup sets to the target's count
plus one and nothing reads); tests/unit/store/test_image.py holds the two equal.  Only the
schema is in it: the per-store rows (cluster id, creation times, the initial users, database
and schemas), the connection's functions and pragmas and its TEMP objects are made by
``Store.open`` for every store.  The copy lands in a plain ``:memory:`` database (a
deserialized one is capped at SQLite's memdb size limit, 1 GiB by default; a backup target is
not).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import zlib
from collections.abc import Callable
from pathlib import Path

from rwshim.cachedir import cache_root
from rwshim.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

# Bump when what the image holds changes without a change of the scripts (build's pragmas).
IMAGE_FORMAT = 1
_MAGIC = b"rwshim meta store image 1\n"
_CRC_BYTES = 4

_lock = threading.Lock()
# The fresh schema, loaded or made at the first in-memory open of this process.
_template: sqlite3.Connection | None = None


def image_dir(root: Path | None = None) -> Path:
    """The directory of the images (the read path's static catalog tables keep theirs here
    too, rwshim/catalog_path/system_catalogs/static_image.py)."""
    return (root if root is not None else cache_root()) / "store"


def image_path(root: Path | None = None) -> Path:
    """Where the image of this rwshim's schema on this SQLite is kept."""
    # over the scripts' bytes, each after its version and length (a repr of the scripts
    # costs ten times as much)
    key = zlib.crc32(f"{IMAGE_FORMAT} {APPLICATION_ID}".encode())
    for version, sql in MIGRATIONS:
        text = sql.encode()
        key = zlib.crc32(text, zlib.crc32(f" {version} {len(text)} ".encode(), key))
    return image_dir(root) / f"meta-v{SCHEMA_VERSION}-{sqlite3.sqlite_version}-{key:08x}.img"


def copy_fresh(
    connect: Callable[[], sqlite3.Connection], build: Callable[[sqlite3.Connection], None]
) -> sqlite3.Connection | None:
    """A new connection (from ``connect``, to an empty ``:memory:`` database) holding the fresh
    schema, copied from the template; None when no template can be had (the caller runs the
    scripts then).  ``build`` runs the schema scripts in a transaction on an empty
    connection (it makes the template when no image is found)."""
    global _template
    with _lock:
        if _template is None:
            _template = _load() or _make(build)
        if _template is None:
            return None
        conn = connect()
        try:
            _template.backup(conn)
        except sqlite3.Error:
            # (a page size the target cannot take, say): the scripts run instead
            conn.close()
            return None
        return conn


def forget() -> None:
    """Drop this process's template (the next open loads or makes it again); for tests."""
    global _template
    with _lock:
        if _template is not None:
            _template.close()
        _template = None


def _connect() -> sqlite3.Connection:
    return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)


def read_image(path: Path) -> memoryview | None:
    """The database an image file holds, or None when it is missing, not ours (another
    owner, or writable by group or others) or damaged (short, not an image, a CRC that does
    not match)."""
    try:
        with path.open("rb") as f:
            st = os.fstat(f.fileno())
            if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
                return None
            if st.st_mode & 0o022:
                return None
            data = f.read()
    except OSError:
        return None
    head = len(_MAGIC) + _CRC_BYTES
    if len(data) <= head or not data.startswith(_MAGIC):
        return None
    payload = memoryview(data)[head:]
    if zlib.crc32(payload) != int.from_bytes(data[len(_MAGIC) : head], "big"):
        return None
    return payload


def _load() -> sqlite3.Connection | None:
    """The template from the image file, or None (no image to read, or not this schema)."""
    payload = read_image(image_path())
    if payload is None:
        return None
    conn = _connect()
    try:
        conn.deserialize(payload)
        if _pragmas(conn) != (SCHEMA_VERSION, APPLICATION_ID):
            conn.close()
            return None
    except sqlite3.Error:
        conn.close()
        return None
    return conn


def _pragmas(conn: sqlite3.Connection) -> tuple[int, int]:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    return int(version), int(app_id)


def _make(build: Callable[[sqlite3.Connection], None]) -> sqlite3.Connection | None:
    """The template made by running the scripts, and its image written for the next process
    (when the cache root can be written: else only this process keeps it)."""
    conn = _connect()
    try:
        conn.execute("BEGIN IMMEDIATE")
        build(conn)
        conn.execute("COMMIT")
    except sqlite3.Error:
        conn.close()
        return None
    with contextlib.suppress(OSError, sqlite3.Error):
        write_image(image_path(), conn.serialize())
    return conn


def write_image(path: Path, payload: bytes) -> None:
    """Write an image file holding ``payload`` (a serialized database); raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
    # Beside its final name, then renamed: a reader sees no image or a whole one.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(_MAGIC + zlib.crc32(payload).to_bytes(_CRC_BYTES, "big") + payload)
        # (the umask may have given group or others write: then _load would refuse it)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
