"""The meta store's files on disk: which they are, whether they are whole, and a backup.

A data directory holds up to three files, all of them the store:

- ``meta.db``: the SQLite database (catalog, job state; user tables' rows are on the
  PostgreSQL data plane, in ``data_dir/pg``);
- ``meta.db-wal``: SQLite's write-ahead log.  Committed changes live here until a checkpoint
  copies them into ``meta.db``; while the server runs (or after it was killed) it holds
  committed data, so copying ``meta.db`` alone loses them.  A clean stop checkpoints and
  removes it;
- ``meta.db-shm``: the WAL's shared-memory index (rebuilt from the WAL when missing).

To copy a store consistently use ``rwshim store backup`` (SQLite's online backup API, safe
while a server runs on the store), never a file copy of ``meta.db`` alone.

Checks made before SQLite opens the files (``check_files``), each refusing with one line:

- the store was not closed cleanly (``meta.open`` is 1 in ``meta.db`` itself: it is written
  and checkpointed at every open) but its WAL is gone: the committed changes the WAL held
  are lost (a copied ``meta.db`` without its WAL, a deleted WAL);
- the WAL is shorter than the frames the wal-index says were committed (a truncated WAL);
- a WAL whose header is not SQLite's.

After opening, ``PRAGMA quick_check`` must answer ``ok`` (zeroed or overwritten pages).
"""

from __future__ import annotations

import os
import sqlite3
import struct
import sys
from pathlib import Path

from rwshim.errors import StoreUnusable

WAL_SUFFIX = "-wal"
SHM_SUFFIX = "-shm"
_WAL_MAGIC = (0x377F0682, 0x377F0683)
_WAL_HEADER = 32
_FRAME_HEADER = 24


def damaged(path: Path, why: str) -> StoreUnusable:
    return StoreUnusable(f"the meta store {path} is damaged: {why}; it was left as it is")


def clean_flag(path: Path) -> str | None:
    """``meta.open`` as ``meta.db`` itself holds it (the WAL not read), or None if unknown."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'open'").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return None if row is None else str(row[0])


def check_files(path: Path) -> None:
    """Refuse a store whose WAL lost committed changes (see the module docstring)."""
    if not path.exists() or path.stat().st_size == 0:
        return
    wal = Path(str(path) + WAL_SUFFIX)
    if not wal.exists():
        # (an empty WAL is one the open-time checkpoint truncated: nothing was lost)
        if clean_flag(path) == "1":
            raise damaged(
                path,
                f"it was not closed cleanly and its write-ahead log {wal.name} is missing "
                "(committed changes may be lost with it; copy a store with `rwshim store "
                "backup`)",
            )
        return
    if wal.stat().st_size == 0:
        return
    with wal.open("rb") as f:
        head = f.read(_WAL_HEADER)
    size = wal.stat().st_size
    if len(head) < _WAL_HEADER:
        raise damaged(path, f"its write-ahead log {wal.name} is cut short")
    magic, _version, page_size, _seq, salt1, salt2 = struct.unpack(">6I", head[:24])
    if magic not in _WAL_MAGIC or page_size < 512 or page_size & (page_size - 1):
        raise damaged(path, f"its write-ahead log {wal.name} is not a SQLite WAL")
    frames = (size - _WAL_HEADER) // (_FRAME_HEADER + page_size)
    committed = _committed_frames(Path(str(path) + SHM_SUFFIX), salt1, salt2)
    if committed is not None and frames < committed:
        raise damaged(
            path,
            f"its write-ahead log {wal.name} holds {frames} of the {committed} frames "
            "committed to it (it was truncated)",
        )


def _committed_frames(shm: Path, salt1: int, salt2: int) -> int | None:
    """mxFrame of the wal-index (the last committed frame), when the index belongs to this
    WAL (same salts); SQLite's WalIndexHdr is in native byte order (wal.c)."""
    try:
        with shm.open("rb") as f:
            hdr = f.read(48)
    except OSError:
        return None
    if len(hdr) < 48:
        return None
    order = "<" if sys.byteorder == "little" else ">"
    mx_frame = struct.unpack_from(order + "I", hdr, 16)[0]
    s1, s2 = struct.unpack_from(order + "2I", hdr, 32)
    # The salts are copied from the WAL header as bytes (big-endian there).
    wal_salts = struct.unpack(order + "2I", struct.pack(">2I", salt1, salt2))
    if (s1, s2) != wal_salts or hdr[12] == 0:  # another generation, or not initialised
        return None
    return int(mx_frame)


def quick_check(conn: sqlite3.Connection, path: Path | None) -> None:
    """``PRAGMA quick_check`` must say ok (pages zeroed or overwritten fail it)."""
    try:
        rows = conn.execute("PRAGMA quick_check(1)").fetchall()
    except sqlite3.DatabaseError as e:
        raise damaged(path or Path(":memory:"), str(e)) from None
    if rows != [("ok",)]:
        found = str(rows[0][0]).replace("*** in database main ***", "") if rows else "nothing"
        raise damaged(
            path or Path(":memory:"), "SQLite's quick_check found " + " ".join(found.split())
        )


def backup(conn: sqlite3.Connection, dest_dir: Path) -> Path:
    """Copy the store open on ``conn`` into ``dest_dir/meta.db`` with SQLite's online backup
    (consistent while writers go on); the copy is marked closed cleanly.  Returns its path."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    target = dest_dir / "meta.db"
    for p in (target, Path(str(target) + WAL_SUFFIX)):
        if p.exists():
            raise FileExistsError(f"{p} exists; back up into an empty directory")
    partial = dest_dir / "meta.db.partial"
    partial.unlink(missing_ok=True)
    out = sqlite3.connect(str(partial), isolation_level=None)
    try:
        conn.backup(out)
        out.execute("UPDATE meta SET value = '0' WHERE key = 'open'")
        out.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        rows = out.execute("PRAGMA quick_check(1)").fetchall()
        if rows != [("ok",)]:
            raise sqlite3.DatabaseError(f"the copy does not check: {rows}")
    finally:
        out.close()
    for suffix in (WAL_SUFFIX, SHM_SUFFIX):
        Path(str(partial) + suffix).unlink(missing_ok=True)
    with partial.open("rb+") as f:
        os.fsync(f.fileno())
    partial.rename(target)
    return target
