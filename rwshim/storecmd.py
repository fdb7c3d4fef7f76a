"""``rwshim store``: commands on a data directory's meta store, run beside or without a server.

``rwshim store backup DEST --data-dir DIR`` copies the store with SQLite's online backup API
(a consistent snapshot even while a server writes to it) into ``DEST/meta.db``, which
``rwshim --data-dir DEST`` then opens.  ``rwshim store check --data-dir DIR`` runs the checks
a server runs on open.  Which files make up a store: ``rwshim/store/files.py``.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import Any

from rwshim.errors import RwError
from rwshim.store import files
from rwshim.store.store import FILE_NAME


def add_parser(sub: Any) -> None:
    """Register ``store`` and its verbs on the ``rwshim`` command's subparsers."""
    store = sub.add_parser(
        "store",
        help="back up or check a data directory's meta store",
        description="Commands on the meta store of a data directory (see README, Reliability).",
    )
    verbs = store.add_subparsers(dest="verb", required=True)
    backup = verbs.add_parser(
        "backup", help="consistent copy of the store (safe while a server runs on it)"
    )
    backup.add_argument("dest", type=Path, help="an empty or new directory for the copy")
    backup.add_argument("--data-dir", type=Path, required=True, help="the store to copy")
    check = verbs.add_parser("check", help="run the checks a server makes when it opens a store")
    check.add_argument("--data-dir", type=Path, required=True)


def run(args: argparse.Namespace) -> int:
    path = Path(args.data_dir) / FILE_NAME
    try:
        if not path.is_file():
            raise RwError(f"{path} does not exist")
        files.check_files(path)
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            files.quick_check(conn, path)
            if args.verb == "check":
                print(f"{path}: ok")
                return 0
            target = files.backup(conn, Path(args.dest))
        finally:
            conn.close()
    except (RwError, OSError, sqlite3.Error) as e:
        print(f"rwshim store {args.verb}: {e}", file=sys.stderr)
        return 1
    print(f"backed up {path} to {target}")
    return 0
