"""``rwshim store``: commands on a data directory's meta store, run beside or without a server.

``rwshim store backup DEST --data-dir DIR`` copies the store with SQLite's online backup API
(a consistent snapshot even while a server writes to it) into ``DEST/meta.db``, which
``rwshim --data-dir DEST`` then opens.  ``rwshim store check --data-dir DIR`` runs the checks
a server runs on open.  Which files make up a store: ``rwshim/store/files.py``.

User rows live in the data plane's PostgreSQL cluster, ``DIR/pg/``.  It is copied too when no
server runs it (the copy holds the data directory's lock, so no server starts it meanwhile):
``DEST`` is then a whole data directory.  While a server runs it, the cluster cannot be copied
consistently (it runs with ``wal_level=minimal``, which allows no online backup): the meta
store alone is copied and stderr says that the rows are not in the copy.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rwshim.errors import RwError
from rwshim.store import files
from rwshim.store.store import FILE_NAME

if TYPE_CHECKING:
    from rwshim.dataplane.postgres.cluster import DataDirLock

DATA_CLUSTER = "pg"  # the data plane's cluster in a data directory (dataplane/postgres/cluster.py)


HELP = "back up or check a data directory's meta store"


def add_parser(sub: Any) -> None:
    """Register ``store`` and its verbs on the ``rwshim`` command's subparsers."""
    store = sub.add_parser(
        "store",
        help=HELP,
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
            lock = _try_lock(Path(args.data_dir))
            try:
                target = files.backup(conn, Path(args.dest))
                print(f"backed up {path} to {target}")
                _backup_cluster(Path(args.data_dir), Path(args.dest), lock is not None)
            finally:
                if lock is not None:
                    lock.release()
        finally:
            conn.close()
    except (RwError, OSError, sqlite3.Error) as e:
        print(f"rwshim store {args.verb}: {e}", file=sys.stderr)
        return 1
    return 0


def _try_lock(data_dir: Path) -> DataDirLock | None:
    """The data directory's lock, or None while a server's PostgreSQL holds it."""
    # The data plane's modules load here, not at import: the CLI imports this module to
    # register ``store`` on every start of a server (issue 16, start-up).
    from rwshim.dataplane.postgres.cluster import DataDirLock
    from rwshim.dataplane.postgres.errors import DataDirInUse

    lock = DataDirLock(data_dir)
    try:
        lock.acquire()
    except DataDirInUse:
        return None
    return lock


def _backup_cluster(data_dir: Path, dest: Path, locked: bool) -> None:
    """Copy ``data_dir/pg`` (the user rows) into ``dest/pg`` when no server runs it."""
    source = data_dir / DATA_CLUSTER
    if not (source / "PG_VERSION").exists():
        return  # no data statement ever ran: there are no rows to copy
    from rwshim.dataplane.postgres.cluster import pid_alive, postmaster_pid

    pid = postmaster_pid(source)
    if not locked or (pid is not None and pid_alive(pid)):
        print(
            f"rwshim store backup: the rows of user tables, in {source}, are not in this copy:"
            " a server is running on them and PostgreSQL's cluster cannot be copied while it"
            " runs; stop the server and back up again to copy them",
            file=sys.stderr,
        )
        return
    target = dest / DATA_CLUSTER
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns("postmaster.pid"))
    print(f"backed up {source} to {target}")
