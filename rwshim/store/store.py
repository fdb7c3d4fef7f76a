"""The SQLite meta store: opening (new, existing, migrated or refused), transactions, id sequences.

One ``sqlite3.Connection`` holds the catalog and the job state (user tables' rows are on the
PostgreSQL data plane, rwshim/dataplane).  In memory by default; in a data directory it is
``meta.db`` in WAL mode with ``synchronous=FULL`` so that a committed DDL survives kill -9 (and
a power cut).  Inside ``deferred_sync()`` (one DDL with its barrier waits) commits are written
at ``synchronous=NORMAL`` and the scope's end waits for them all with one ``fdatasync`` of the
WAL, before the DDL is acknowledged: a DDL commits up to three times, and each wait for the
disk costs more than the DDL's own work.
RisingWave's recovery rules run on top of this, in the engine (``Engine.__init__``), because
they are engine semantics.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path

from rwshim.errors import RwError, StoreUnusable, StoreWriteFailed
from rwshim.store import files, functions, image
from rwshim.store.schema import APPLICATION_ID, MAGIC, MIGRATIONS, SCHEMA_VERSION


class WriteRefusal:
    """The error a write transaction raises while ``error`` is set, in the task that set it
    (``WRITES_DENIED``): a session in a read-only transaction runs its writing statements so
    (RisingWave's catalog and user-info writers ask the session's ``txn_write_guard``:
    src/frontend/src/session/transaction.rs:252-275). Tasks that were already running
    (barriers) never see it; one the statement started sees it until the statement ends
    (the setter clears ``error``)."""

    __slots__ = ("error",)

    def __init__(self, error: RwError) -> None:
        self.error: RwError | None = error


WRITES_DENIED: ContextVar[WriteRefusal | None] = ContextVar("rwshim_writes_denied", default=None)

FILE_NAME = "meta.db"

# RisingWave's initial catalog (src/meta/model/migration/src/m20230908_072257_init.rs:908-972).
_INITIAL_USERS = ((1, "root", 0), (2, "postgres", 0), (3, "rwadmin", 1))
_INITIAL_SCHEMAS = ((2, "public"), (3, "pg_catalog"), (4, "information_schema"), (5, "rw_catalog"))
SYSTEM_SCHEMAS = ("pg_catalog", "information_schema", "rw_catalog")

# SQLite's primary result codes for a write the file system refused (sqlite3.h): the
# extended codes (SQLITE_IOERR_WRITE, ...) share the low byte.
_SQLITE_IOERR = 10
_SQLITE_FULL = 13
# Prepared statements the connection keeps (sqlite3 keeps 128 by default): one DDL runs about
# a hundred distinct statements and the read path as many again, so with the default a DDL
# cycle re-prepares most of its statements every time.
_CACHED_STATEMENTS = 1024


class Store:
    """The meta store.  Use ``Store.open()``; write only inside ``transaction()``."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, created: bool) -> None:
        self.conn = conn
        self.path = path
        self.created = created  # True when this open created a fresh store
        self.wal = False
        self._depth = 0
        # deferred_sync(): open scopes, the synchronous level set on the connection, and
        # conn.total_changes when every change was last known to be on disk.
        self._deferring = 0
        self._sync_level = "FULL"
        self._synced_changes = 0
        self._closed = False
        # Called before a statement that may write (the session calls release_readers):
        # whoever streams rows from this connection reads them into memory first (an active
        # SQLite statement makes DROP TABLE fail as "locked").  Not before the barrier
        # loop's writes: those only update rows, which an active read does not block.
        self.release_hooks: list[Callable[[], None]] = []

    @classmethod
    def open(cls, data_dir: str | Path | None = None, *, now: str = "") -> Store:
        """Open (or create) the store; ``data_dir`` None keeps it in memory.

        Raises ``StoreUnusable`` for a file that is not an rwshim store or is newer than this
        rwshim; the file is left untouched.
        """
        if data_dir is None:
            # The fresh schema copied from a template (image.py), ~1 ms where running the
            # scripts takes ~15; without one at hand, the scripts run.
            copied = image.copy_fresh(_memory_connection, create_schema)
            conn = copied if copied is not None else _memory_connection()
            return cls._opened(conn, None, now, schema_copied=copied is not None)
        path = Path(data_dir) / FILE_NAME
        path.parent.mkdir(parents=True, exist_ok=True)
        _refuse_foreign_file(path)
        files.check_files(path)
        conn = sqlite3.connect(
            str(path),
            isolation_level=None,
            check_same_thread=False,
            cached_statements=_CACHED_STATEMENTS,
        )
        try:
            _refuse_foreign_database(conn, path)
            files.quick_check(conn, path)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            store = cls._opened(conn, path, now)
            # Recorded in meta.db itself (checkpointed): a later open that finds it set and
            # the WAL gone knows committed changes were lost with the WAL (files.py).
            with store.transaction():
                conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('open', '1')")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError as e:
            conn.close()
            raise files.damaged(path, str(e)) from None
        except BaseException:
            conn.close()
            raise
        return store

    @classmethod
    def _opened(
        cls, conn: sqlite3.Connection, path: Path | None, now: str, *, schema_copied: bool = False
    ) -> Store:
        conn.execute("PRAGMA foreign_keys=OFF")
        functions.register(conn)
        store = cls(conn, path, created=False)
        store.wal = path is not None
        if schema_copied:
            # a fresh schema (user_version already SCHEMA_VERSION): only its rows to add
            store._create(now, schema=False)
            store.created = True
            return store
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            store._create(now)
            store.created = True
        elif version > SCHEMA_VERSION:
            raise StoreUnusable(
                f"the meta store {path} was written by a newer rwshim (schema version "
                f"{version}, this rwshim knows up to {SCHEMA_VERSION})"
            )
        elif version < SCHEMA_VERSION:
            store._migrate(version)
        return store

    def _create(self, now: str, *, schema: bool = True) -> None:
        """A new store: the schema (unless ``schema`` is False: it was copied in) and the
        initial rows."""
        with self.transaction():
            c = self.conn
            if schema:
                create_schema(c)
            c.executemany(
                "INSERT INTO meta(key, value) VALUES (?, ?)",
                [
                    ("magic", MAGIC),
                    ("schema_version", str(SCHEMA_VERSION)),
                    ("cluster_id", str(uuid.uuid4())),
                    ("created_at", now),
                ],
            )
            c.executemany(
                "INSERT INTO sequence(name, next_id) VALUES (?, ?)",
                [("object", 6), ("user", 4), ("fragment", 1), ("actor", 1)],
            )
            for uid, name, admin in _INITIAL_USERS:
                c.execute(
                    "INSERT INTO rw_user(user_id, name, is_super, can_create_db, can_create_user,"
                    " can_login, is_admin, created_at) VALUES (?, ?, 1, 1, 1, 1, ?, ?)",
                    (uid, name, admin, now),
                )
            c.execute(
                "INSERT INTO database(database_id, name, owner_id, created_at)"
                " VALUES (1, 'dev', 1, ?)",
                (now,),
            )
            for sid, name in _INITIAL_SCHEMAS:
                c.execute(
                    "INSERT INTO schema(schema_id, name, database_id, owner_id, created_at)"
                    " VALUES (?, ?, 1, 1, ?)",
                    (sid, name, now),
                )

    def _migrate(self, version: int) -> None:
        with self.transaction():
            for v, sql in MIGRATIONS:
                if v > version:
                    _script(self.conn, sql)
            self.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self.conn.execute(
                "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),)
            )

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (nested calls join the outer one).  Rolls back on error.

        A COMMIT that fails (a full disk, a file-size limit, an I/O error) rolls back too and
        raises ``StoreWriteFailed``: nothing of the transaction is kept, and none is left
        open for the next statement to join.
        """
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        denied = WRITES_DENIED.get()
        if denied is not None and denied.error is not None:
            raise denied.error
        self.settle()  # a transaction some other writer left open must not absorb this one
        if self.wal:
            self._set_sync_level()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise self.write_failure(e) or e from None
        self._depth = 1
        try:
            yield self.conn
        except BaseException as e:
            self._depth = 0
            self._rollback()
            failure = self.write_failure(e)
            if failure is not None:
                raise failure from None
            raise
        self._depth = 0
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as e:
            self._rollback()
            raise self.write_failure(e) or e from None

    @contextmanager
    def deferred_sync(self) -> Iterator[None]:
        """Commits inside are durable when the scope ends, not each at its COMMIT.

        Within the scope (and any scope another session has open) the connection commits at
        ``synchronous=NORMAL``: SQLite writes the WAL frames and does not wait for the disk
        (WAL mode stays consistent at NORMAL, SQLite's docs: a power cut can only lose the
        last commits, never corrupt).  The scope's end makes every change so far durable with
        one ``fdatasync`` of the WAL, as FULL's commit would have, so a caller that answers
        its client after the scope has the durability of FULL.  Nested and concurrent scopes
        share the connection: the last one out sets FULL again.  Outside a data directory
        (in memory) it does nothing."""
        if self.path is None:
            yield
            return
        self._deferring += 1
        self._set_sync_level()
        failed = True
        try:
            yield
            failed = False
        finally:
            self._deferring -= 1
            try:
                self.flush()
            except StoreWriteFailed:
                if not failed:
                    raise
            self._set_sync_level()

    def flush(self) -> None:
        """Wait until every committed change is on disk (after commits at NORMAL).  A failed
        sync raises ``StoreWriteFailed`` (the changes are committed but maybe not durable:
        the client must not take the statement as done)."""
        if self._closed or self.path is None:
            return
        try:
            changes = self.conn.total_changes
        except sqlite3.ProgrammingError:  # closed (a store that failed to open)
            return
        if changes == self._synced_changes:
            return
        if self._sync_level == "NORMAL":
            try:
                fd = os.open(f"{self.path}-wal", os.O_RDONLY)
            except FileNotFoundError:
                fd = -1  # no WAL (nothing written since a checkpoint removed it)
            if fd >= 0:
                try:
                    (getattr(os, "fdatasync", None) or os.fsync)(fd)
                except OSError:
                    raise StoreWriteFailed(self.written_file(), disk_full=False) from None
                finally:
                    os.close(fd)
        self._synced_changes = changes

    def unsynced(self) -> bool:
        """Whether a committed change may not be on disk yet (one committed at NORMAL inside
        or beside a ``deferred_sync`` scope, before the next ``flush``)."""
        if self._closed or self.path is None or self._sync_level != "NORMAL":
            return False
        return self.conn.total_changes != self._synced_changes

    def _set_sync_level(self) -> None:
        """NORMAL while a ``deferred_sync`` scope is open, else FULL.  SQLite refuses the
        change inside a transaction: then it is made at the next ``transaction()`` or
        ``settle()``."""
        if self._closed or not self.wal:
            return
        want = "NORMAL" if self._deferring else "FULL"
        if want == self._sync_level or self.conn.in_transaction:
            return
        if want == "NORMAL":
            # every change before this was committed at FULL: on disk already
            self._synced_changes = self.conn.total_changes
        else:
            self.flush()
        self.conn.execute(f"PRAGMA synchronous={want}")
        self._sync_level = want

    def release_readers(self) -> None:
        """Ask every open reader of this connection to finish its reads (``release_hooks``)."""
        for hook in list(self.release_hooks):
            hook()

    def _rollback(self) -> None:
        # SQLite may already have rolled the transaction back itself (it does for some
        # SQLITE_FULL and SQLITE_IOERR failures); a ROLLBACK then would fail on its own.
        if self.conn.in_transaction:
            with suppress(sqlite3.Error):
                self.conn.execute("ROLLBACK")

    def settle(self) -> bool:
        """Roll back a transaction left open outside ``transaction()``; True if there was one.

        Writers that manage their own SAVEPOINT (the read path's DML) commit with RELEASE;
        when that RELEASE fails, SQLite keeps the transaction open and every later write
        would join it, acknowledged and never committed.  The session calls this after
        every statement, so such a transaction ends with the statement that opened it.
        """
        if self._depth or not self.conn.in_transaction:
            return False
        with suppress(sqlite3.Error):
            self.conn.execute("ROLLBACK")
        self._set_sync_level()
        return True

    def write_failure(self, e: BaseException) -> RwError | None:
        """``StoreWriteFailed`` when ``e`` (or an error it was raised from) is SQLite failing to
        write the store's files, else None."""
        cur: BaseException | None = e
        seen = 0
        while cur is not None and seen < 8:
            if isinstance(cur, StoreWriteFailed):
                return cur
            if isinstance(cur, sqlite3.Error):
                code = getattr(cur, "sqlite_errorcode", None)
                if isinstance(code, int) and code & 0xFF in (_SQLITE_FULL, _SQLITE_IOERR):
                    return StoreWriteFailed(self.written_file(), disk_full=code & 0xFF == 13)
            cur = cur.__cause__ or cur.__context__
            seen += 1
        return None

    def written_file(self) -> str:
        """The file a commit writes (for error texts)."""
        if self.path is None:
            return "meta store (in memory)"
        return f"{self.path}-wal" if self.wal else str(self.path)

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    def next_id(self, sequence: str, count: int = 1) -> int:
        """Take ``count`` consecutive ids from a sequence; returns the first."""
        row = self.conn.execute(
            "SELECT next_id FROM sequence WHERE name = ?", (sequence,)
        ).fetchone()
        first = int(row[0])
        self.conn.execute(
            "UPDATE sequence SET next_id = ? WHERE name = ?", (first + count, sequence)
        )
        return first

    def meta_value(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def close(self) -> None:
        """Checkpoint (every committed change into ``meta.db``), mark the store closed
        cleanly, and close; SQLite then removes the WAL."""
        if self.path is not None:
            # A full disk may refuse these: the committed changes are in the WAL all the same,
            # and the next open (finding the flag set and the WAL there) reads them from it.
            with suppress(sqlite3.Error, StoreWriteFailed):
                self.settle()
                with self.transaction():
                    self.conn.execute("UPDATE meta SET value = '0' WHERE key = 'open'")
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._closed = True
        self.conn.close()

    def backup(self, dest_dir: Path) -> Path:
        """A consistent copy of this store in ``dest_dir`` (files.backup)."""
        return files.backup(self.conn, dest_dir)


def create_schema(conn: sqlite3.Connection) -> None:
    """The schema of a new store on an empty database, inside the caller's transaction: every
    migration's script, the application id and the schema version (no rows but those the
    scripts insert).  What an image of a fresh store holds (image.py): a change here that
    the scripts do not show must bump ``image.IMAGE_FORMAT``."""
    for _, sql in MIGRATIONS:
        _script(conn, sql)
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def _script(conn: sqlite3.Connection, sql: str) -> None:
    # executescript would COMMIT the open transaction; run statement by statement.
    for stmt in _split_sql(sql):
        conn.execute(stmt)


def _memory_connection() -> sqlite3.Connection:
    return sqlite3.connect(
        ":memory:",
        isolation_level=None,
        check_same_thread=False,
        cached_statements=_CACHED_STATEMENTS,
    )


def _refuse_foreign_file(path: Path) -> None:
    """Raise if ``path`` holds something other than a SQLite database (checked on the bytes,
    so the file is never touched)."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb") as f:
        header = f.read(16)
    if header != b"SQLite format 3\x00":
        raise StoreUnusable(f"{path} exists and is not an rwshim meta store (not a SQLite file)")


def _refuse_foreign_database(conn: sqlite3.Connection, path: Path) -> None:
    """Raise (and close) unless the database is empty or an rwshim store.  Reads through the
    WAL, so a store killed before its first checkpoint is recognised."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as e:
        conn.close()
        if e.sqlite_errorcode == sqlite3.SQLITE_CORRUPT:
            # a SQLite file whose schema pages are damaged: which store it was is unknowable,
            # and zeroed or overwritten pages are damage, as quick_check reports them
            raise files.damaged(path, str(e)) from None
        raise StoreUnusable(f"{path} exists and is not an rwshim meta store ({e})") from None
    if app_id != APPLICATION_ID and (app_id != 0 or objects):
        conn.close()
        raise StoreUnusable(f"{path} exists and is not an rwshim meta store")


def _split_sql(script: str) -> list[str]:
    """Split a schema script into statements (complete per sqlite3.complete_statement)."""
    out: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        # A statement ends only on a line with a ";" (asking SQLite of every line was a
        # fifth of creating a store: issue 16, start-up).
        if ";" in line and sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out
