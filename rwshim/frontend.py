"""Per-connection SQL semantics: statements in, Outcomes out (the seam between wire and SQL).

The protocol session (``session.py``) owns prepared statements, portals and the wire; it calls
this class for everything that depends on what the SQL means.  The lead owns this module: it
dispatches the typed statements of ``sql/`` to ``engine/`` (DDL, jobs) and ``query/`` (reads
and DML).

PLACEHOLDER (until sql/engine/query land): answers SELECT of constants through SQLite,
SET/SHOW from a dict, and BEGIN/COMMIT/ROLLBACK as RisingWave does.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from rwshim import pgtypes
from rwshim.errors import RwError
from rwshim.results import Column, Outcome


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of a query string (placeholder; sql/ provides the typed ones)."""

    text: str


@dataclass(frozen=True, slots=True)
class Description:
    """What Describe answers: parameter type OIDs, and the result columns (None = NoData)."""

    param_oids: list[int]
    columns: list[Column] | None


@dataclass(slots=True)
class Frontend:
    """SQL semantics of one connection."""

    user: str
    database: str
    options: dict[str, str] = field(default_factory=dict)
    # Transaction status byte for ReadyForQuery: 'I', 'T' or 'E'.
    txn_status: str = "I"
    # ParameterStatus messages to send after the current statement (name, value).
    parameter_changes: list[tuple[str, str]] = field(default_factory=list)
    _vars: dict[str, str] = field(default_factory=dict)
    _db: sqlite3.Connection = field(default_factory=lambda: sqlite3.connect(":memory:"))

    def parse(self, sql: str) -> list[Statement]:
        """Split and parse a query string; raises RwError on bad syntax."""
        return [Statement(s.strip()) for s in sql.split(";") if s.strip()]

    def describe(self, stmt: Statement, param_oids: list[int]) -> Description:
        if stmt.text.lower().startswith("select"):
            cur = self._db.execute(stmt.text.replace("$", "?"), [None] * len(param_oids))
            cols = [Column(d[0], pgtypes.INT4) for d in cur.description or ()]
            return Description([o or pgtypes.TEXT for o in param_oids], cols)
        return Description(list(param_oids), None)

    async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
        low = stmt.text.lower()
        if low.startswith("select"):
            try:
                cur = self._db.execute(stmt.text.replace("$", "?"), params)
            except sqlite3.Error as e:
                raise RwError(str(e)) from None
            cols = [Column(d[0], pgtypes.INT4) for d in cur.description or ()]
            return Outcome("SELECT", cols, cur.fetchall(), count_rows=True)
        if low.startswith("set "):
            return Outcome("SET_VARIABLE")
        if low.startswith(("begin", "start")):
            return Outcome("BEGIN")
        if low.startswith(("commit", "rollback")):
            return Outcome(low.split()[0].upper())
        raise RwError(f"unsupported: {stmt.text}")
