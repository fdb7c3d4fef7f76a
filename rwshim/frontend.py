"""Per-connection SQL semantics: statements in, Outcomes out (the seam between wire and SQL).

The protocol session (``session.py``) owns prepared statements, portals and the wire; it calls
this class for everything that depends on what the SQL means.  The lead owns this module: it
dispatches the typed statements of ``sql/`` to ``engine/`` (DDL, jobs) and ``query/`` (reads
and DML).

Interface the session relies on:
- ``parse(sql) -> list[Statement]`` (raise RwError on bad syntax; [] for an empty string),
- ``describe(stmt, param_oids) -> Description`` (parameter OIDs with 0s resolved, result
  columns or None),
- ``async execute(stmt, params) -> Outcome`` (params decoded to Python values; may await:
  a CancelRequest cancels the await),
- ``txn_status`` ('I', 'T', 'E'), ``parameter_changes`` (ParameterStatus to send, drained
  by the session), ``timezone`` (session TimeZone name, for timestamptz text output),
- ``close()`` when the connection ends.

PLACEHOLDER (until sql/engine/query land): answers SELECT of constants and expressions through
SQLite (``$n::type`` casts give parameter types), ``pg_sleep(n)`` as an awaitable sleep,
SET/SHOW from a dict, and BEGIN/COMMIT/ROLLBACK as RisingWave does (plain BEGIN keeps the
status idle and sends RisingWave's notice).
"""

from __future__ import annotations

import asyncio
import re
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


_BEGIN_NOTICE = (
    "Read-write transaction is not supported yet. Please specify `READ ONLY` to start a "
    "read-only transaction.\nFor compatibility, this statement will still succeed but no "
    "transaction is actually started."
)
_KEYWORDS = {"select", "set", "show", "begin", "start", "commit", "rollback", "values", "with"}
_CAST = re.compile(r"::\s*(\w+)")
_PARAM_CAST = re.compile(r"\$(\d+)\s*::\s*(\w+)")
_PARAM = re.compile(r"\$(\d+)")
_SLEEP = re.compile(r"^select\s+pg_sleep\(\s*([0-9.]+)\s*\)\s*$", re.I)
_ALIASES = {
    "int": "int4",
    "integer": "int4",
    "smallint": "int2",
    "bigint": "int8",
    "real": "float4",
    "float": "float8",
    "double": "float8",
    "boolean": "bool",
    "decimal": "numeric",
}


def _oid_of(name: str) -> int:
    t = pgtypes.BY_NAME.get(_ALIASES.get(name.lower(), name.lower()))
    return t.oid if t else pgtypes.TEXT


_SAMPLES: dict[int, object] = {
    pgtypes.INT2: 1,
    pgtypes.INT4: 1,
    pgtypes.INT8: 2**40,
    pgtypes.FLOAT4: 1.5,
    pgtypes.FLOAT8: 1.5,
    pgtypes.NUMERIC: 1.5,
    pgtypes.BOOL: 1,
    pgtypes.BYTEA: b"a",
}


def _oid_of_value(v: object) -> int:
    if isinstance(v, bool):
        return pgtypes.BOOL
    if isinstance(v, int):
        return pgtypes.INT4 if -(2**31) <= v < 2**31 else pgtypes.INT8
    if isinstance(v, float):
        return pgtypes.FLOAT8
    if isinstance(v, bytes):
        return pgtypes.BYTEA
    return pgtypes.TEXT


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
    timezone: str = "UTC"
    _vars: dict[str, str] = field(default_factory=dict)
    _db: sqlite3.Connection = field(default_factory=lambda: sqlite3.connect(":memory:"))
    _columns: dict[str, list[Column]] = field(default_factory=dict)
    _translations: dict[str, tuple[str, list[int]]] = field(default_factory=dict)
    _descriptions: dict[tuple[str, tuple[int, ...]], Description] = field(default_factory=dict)

    def parse(self, sql: str) -> list[Statement]:
        """Split and parse a query string; raises RwError on bad syntax."""
        stmts = [Statement(s.strip()) for s in sql.split(";") if s.strip()]
        for s in stmts:
            word = s.text.split(None, 1)[0]
            if word.lower() not in _KEYWORDS:
                line = sql.lstrip().splitlines()[0] if sql.strip() else ""
                col = line.find(word)
                raise RwError(
                    f"sql parser error: expected statement, found: {word}\n"
                    f"LINE 1: {line}\n{' ' * (8 + max(col, 0))}^"
                )
        return stmts

    def _sqlite(self, stmt: Statement) -> tuple[str, list[int]]:
        hit = self._translations.get(stmt.text)
        if hit is not None:
            return hit[0], list(hit[1])
        casts = {int(n): _oid_of(t) for n, t in _PARAM_CAST.findall(stmt.text)}
        nparams = max((int(n) for n in _PARAM.findall(stmt.text)), default=0)
        oids = [casts.get(i + 1, 0) for i in range(nparams)]
        sql = _PARAM.sub(lambda m: "?" + m.group(1), _CAST.sub("", stmt.text))
        self._translations[stmt.text] = (sql, oids)
        return sql, list(oids)

    def describe(self, stmt: Statement, param_oids: list[int]) -> Description:
        low = stmt.text.lower()
        if _SLEEP.match(stmt.text):
            return Description([], [Column("pg_sleep", pgtypes.VOID)])
        if low.startswith("show"):
            return Description([], [Column(stmt.text.split()[1], pgtypes.VARCHAR)])
        if low.startswith(("select", "values", "with")):
            key = (stmt.text, tuple(param_oids))
            hit = self._descriptions.get(key)
            if hit is not None:
                return hit
            sql, oids = self._sqlite(stmt)
            for i, o in enumerate(param_oids):
                if o and i < len(oids):
                    oids[i] = o
            oids = [o or pgtypes.TEXT for o in oids]
            # A trial run with sample parameters of the right types gives the column types.
            samples = [_SAMPLES.get(o, "a") for o in oids]
            try:
                cur = self._db.execute(sql, samples)
                row = cur.fetchone()
            except sqlite3.Error as e:
                raise RwError(str(e)) from None
            cols = [
                Column(d[0], _oid_of_value(row[i]) if row else pgtypes.TEXT)
                for i, d in enumerate(cur.description or ())
            ]
            self._columns[stmt.text] = cols
            self._descriptions[key] = Description(oids, cols)
            return self._descriptions[key]
        return Description(list(param_oids), None)

    async def execute(self, stmt: Statement, params: list[object]) -> Outcome:
        low = stmt.text.lower()
        m = _SLEEP.match(stmt.text)
        if m:
            await asyncio.sleep(float(m.group(1)))
            return Outcome("SELECT", [Column("pg_sleep", pgtypes.VOID)], [("",)], count_rows=True)
        if low.startswith(("select", "values", "with")):
            sql, _ = self._sqlite(stmt)
            try:
                cur = self._db.execute(sql, params)
                rows = cur.fetchall()
            except sqlite3.Error as e:
                raise RwError(str(e)) from None
            cols = self._columns.get(stmt.text) or [
                Column(d[0], _oid_of_value(rows[0][i]) if rows else pgtypes.TEXT)
                for i, d in enumerate(cur.description or ())
            ]
            return Outcome("SELECT", cols, rows, count_rows=True)
        if low.startswith("set "):
            parts = re.split(r"\s+(?:to|=)\s+|\s*=\s*", stmt.text[4:].strip(), maxsplit=1)
            if len(parts) == 2:
                name, value = parts[0].strip().lower(), parts[1].strip().strip("'")
                self._vars[name] = value
                if name == "application_name":
                    self.parameter_changes.append(("application_name", value))
            return Outcome("SET_VARIABLE")
        if low.startswith("show "):
            name = stmt.text.split()[1]
            value = self._vars.get(name.lower(), "UTC" if name.lower() == "timezone" else "")
            return Outcome("SHOW_VARIABLE", [Column(name, pgtypes.VARCHAR)], [(value,)])
        if low.startswith(("begin", "start")):
            if "read only" in low:
                self.txn_status = "T"
                return Outcome("BEGIN")
            return Outcome("BEGIN", notices=[_BEGIN_NOTICE])
        if low.startswith(("commit", "rollback")):
            self.txn_status = "I"
            return Outcome(low.split()[0].upper())
        raise RwError(f"unsupported: {stmt.text}")

    def close(self) -> None:
        self._db.close()
