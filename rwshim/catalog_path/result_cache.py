"""Results of catalog queries, kept while nothing they read can have changed (issue 16: psql's
``\\d`` list query spent half its time in SQLite recomputing the emulated pg_catalog views).

A query's rows are kept only when its engine text, and the text of every catalog view it
reads (transitively), calls nothing but functions SQLite knows as deterministic
(``PRAGMA function_list``: builtins and rwshim's ``create_function(deterministic=True)``
registrations, which read their arguments, the store, or the parts of the statement context
in the key) or aggregates; the date/time builtins (``date('now')``) and the session-reading
functions (``now()``, ``current_setting``, ``current_user``..., registered non-deterministic)
keep a query out.  What else such a query reads is the store, on the one connection: every
INSERT/UPDATE/DELETE there, committed or not, moves ``conn.total_changes``, and a change of it
drops every kept result.  The key is the statement text, the context's ``cache_key`` (database,
search path, user and ACL snapshot), the database name, the user id and superuser flag,
and the parameters.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Hashable, Sequence

from rwshim.catalog_path.system_catalogs import may_read_view
from rwshim.common.outcome import KeptRows
from rwshim.sql.cache import SizedLRU, TextLRU

# Names SQLite's grammar puts before "(" that are not function calls.
_KEYWORD_TEXT = (
    "all and any as asc between by case cast check collate current default desc distinct"
    " else end escape except exists filter following from glob group having if in"
    " intersect into is join key like limit materialized not nulls offset on or order over"
    " partition preceding range recursive references returning row rows select set some"
    " then union using values when where window with"
)
_KEYWORDS = frozenset(_KEYWORD_TEXT.split())
# The statement context's functions (install.py) that read only what the key holds: the
# database (id and name), the user (id and name) and the search path, and the store.
CONTEXT_FUNCTIONS = frozenset(
    (
        "rw_current_database_id",
        "rw_current_database",
        "rw_current_user_id",
        "rw_current_user",
        "rw_current_schema",
        "rw_current_schemas",
    )
)
# Deterministic in SQLite's flags, yet they read the clock when given 'now'.
_CLOCK = frozenset(("date", "time", "datetime", "julianday", "strftime", "unixepoch", "timediff"))
# Table-valued functions whose rows come from their arguments alone (the arguments' calls are
# checked as any others).
_PURE_TABLES = frozenset(("json_each", "json_tree"))

# Patterns (plain texts, compiled by ``re`` on first use: only a text that reads a catalog
# view is read with them, and SELECT 1 never is).
_STRING = r"'(?:[^']|'')*'"
_CALL = r'(?:"((?:[^"]|"")+)"|\b([A-Za-z_][A-Za-z0-9_$]*))\s*\('
_NAME = r'"((?:[^"]|"")+)"|\b([A-Za-z_][A-Za-z0-9_$]*)\b'
_VIEW_HEAD = (
    r"(?is)^\s*CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?VIEW\s+(?:IF\s+NOT\s+EXISTS\s+)?"
    r'(?:"(?:[^"]|"")+"|\S+)\s*(?:\([^)]*\))?\s*AS\s'
)

# Kept results and verdicts are bounded by bytes: the texts in their keys, and for results
# an estimate of their rows (rwshim/sql/cache.py).
MAX_KEY_BYTES = 16 * 1024 * 1024
_ROW_BYTES = 200
# A longer result streams, as every uncached one does.
MAX_ROWS = 10_000

Row = tuple[object, ...]


def _calls(sql: str) -> frozenset[str]:
    text = re.sub(_STRING, "''", sql)
    return frozenset(
        (m.group(1) or m.group(2)).lower()
        for m in re.finditer(_CALL, text)
        if m.group(1) is not None or m.group(2).lower() not in _KEYWORDS
    )


def _names(sql: str) -> frozenset[str]:
    text = re.sub(_STRING, "''", sql)
    return frozenset((m.group(1) or m.group(2)).lower() for m in re.finditer(_NAME, text))


class ResultCache:
    """Kept results of one store connection's catalog queries."""

    def __init__(
        self, conn: sqlite3.Connection, ensure_views: Callable[[str], None] | None = None
    ) -> None:
        self.conn = conn
        # makes the catalog views a text may read if they are not yet (made on first use)
        self._ensure_views = ensure_views
        self._entries: SizedLRU[Hashable, KeptRows] = SizedLRU(
            MAX_KEY_BYTES, weigh=lambda rows: _ROW_BYTES * len(rows)
        )
        self._changes = -1
        # engine text -> whether its result may be kept
        self._verdicts: TextLRU[bool] = TextLRU(MAX_KEY_BYTES)
        self._pure: frozenset[str] | None = None
        self._views: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._view_names_at: frozenset[str] | None = None
        self._views_version: object = None

    def __len__(self) -> int:
        """How many results are kept now (valid or not: a store change is seen on the next
        ``get``)."""
        return len(self._entries)

    def cacheable(self, sql: str) -> bool:
        """Whether the rows of engine text ``sql`` depend only on the store and the key."""
        return self._verdicts.get_or_make(sql, lambda: self._judge(sql))

    def get(self, key: Hashable) -> KeptRows | None:
        changes = self.conn.total_changes
        if changes != self._changes:
            self._entries.clear()
            self._changes = changes
            return None
        return self._entries.get(key)

    def put(self, key: Hashable, rows: list[Row]) -> KeptRows | None:
        """Keep ``rows``; the kept object (None: the store changed meanwhile, not kept)."""
        if self.conn.total_changes != self._changes:
            return None
        kept = KeptRows(rows)
        self._entries.put(key, kept)
        return kept

    # --- which texts qualify ----------------------------------------------------------------

    def _judge(self, sql: str) -> bool:
        if not may_read_view(sql):
            return False  # a constant or a store table: cheap to run again
        if self._ensure_views is not None:
            self._ensure_views(sql)
        views = self._view_names()
        pending = [n for n in _names(sql) if n in views]
        if not pending:
            # reads no catalog view (a constant, a store table): cheap to run again
            return False
        pure = self._pure_functions()
        calls = set(_calls(sql))
        seen: set[str] = set()
        while pending:
            name = pending.pop()
            if name in seen:
                continue
            seen.add(name)
            view_calls, refs = self._view(name)
            calls |= view_calls
            pending.extend(r for r in refs if r in views and r not in seen)
        return all(c in pure for c in calls)

    def _pure_functions(self) -> frozenset[str]:
        if self._pure is None:
            deterministic = 0x800  # SQLITE_DETERMINISTIC
            names: set[str] = set(_PURE_TABLES) | CONTEXT_FUNCTIONS
            impure: set[str] = set(_CLOCK)
            for name, _builtin, kind, _enc, _narg, flags in self.conn.execute(
                "PRAGMA function_list"
            ).fetchall():
                lowered = str(name).lower()
                if kind in ("a", "w") or int(flags) & deterministic:
                    names.add(lowered)
                elif lowered not in CONTEXT_FUNCTIONS:
                    # an overload SQLite cannot treat as deterministic taints the name
                    impure.add(lowered)
            self._pure = frozenset(names - impure)
        return self._pure

    def _view_names(self) -> frozenset[str]:
        """The SQLite views (the catalog relations), re-read when a schema changes."""
        version = (
            self.conn.execute("PRAGMA main.schema_version").fetchone(),
            self.conn.execute("PRAGMA temp.schema_version").fetchone(),
        )
        if self._view_names_at is None or version != self._views_version:
            self._views_version = version
            rows = self.conn.execute(
                "SELECT name FROM sqlite_temp_master WHERE type = 'view'"
                " UNION ALL SELECT name FROM sqlite_master WHERE type = 'view'"
            ).fetchall()
            self._view_names_at = frozenset(str(r[0]).lower() for r in rows)
            self._views.clear()
        return self._view_names_at

    def _view(self, name: str) -> tuple[frozenset[str], frozenset[str]]:
        """A view's calls and the names it mentions (its body read on first need)."""
        found = self._views.get(name)
        if found is None:
            row = self.conn.execute(
                "SELECT sql FROM sqlite_temp_master WHERE type = 'view' AND lower(name) = ?"
                " UNION ALL SELECT sql FROM sqlite_master WHERE type = 'view'"
                " AND lower(name) = ?",
                (name, name),
            ).fetchone()
            body = re.sub(_VIEW_HEAD, "", str(row[0] if row else ""), count=1)
            found = self._views[name] = (_calls(body), _names(body))
        return found


def result_key(parts: Sequence[object]) -> Hashable | None:
    """``parts`` as a dictionary key, or None when a parameter value is unhashable."""
    key = tuple(parts)
    try:
        hash(key)
    except TypeError:
        return None
    return key
