"""Running lowered statements on SQLite: queries, DML, parameters, and SQLite's failures.

``SqliteExecutor`` is the ``prepared.Executor`` over the store's SQLite connection: it
registers rwshim's functions (sqlite/install.py) and the catalog views (rwshim/query/catalog)
on the connection, makes each statement's ``SqliteLowering``, decodes SQLite's values
(``types.decode``), and runs statements.  INSERT is carried out row by row in a savepoint:
each value cast to its column's type (sqlite/casts.py), DEFAULTs evaluated once per statement,
the hidden ``_row_id`` numbered, and a row with the same primary key deleted first (RisingWave's
overwrite on conflict).  A failure is RisingWave's error: the one a registered function parked
in ``FunctionState.error``, else SQLite's message mapped to RisingWave's text
(``sqlite_error``), never SQLite's own words.
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from rwshim import pgtypes
from rwshim.errors import ItemNotFound, RwError
from rwshim.query import types
from rwshim.query.catalog import install as install_catalog_views
from rwshim.query.functions import FunctionState
from rwshim.query.prepared import BindDefault, Prepared, column_of
from rwshim.query.sqlite import casts
from rwshim.query.sqlite.install import install
from rwshim.query.sqlite.storage import storage_table
from rwshim.results import Outcome

if TYPE_CHECKING:
    from rwshim.query.sqlite.lowering import SqliteLowering

ROW_ID = "_row_id"
_BIND_RE = re.compile(r"\?(\d+)")


def decoder(oid: int) -> Callable[[object], object]:
    """SQLite's value of a column typed ``oid`` as the Python value for the wire."""
    ext = types.external(oid)
    if types.struct_fields(oid) is not None:
        return lambda v: types.decode(v, oid)  # its fields' types decide the text form
    if oid == types.REGTYPE_TAG:
        return lambda v: None if v is None else types.format_type_name(int(v))  # type: ignore[call-overload]
    return lambda v: types.decode(v, ext)


class SqliteExecutor:
    """Runs prepared statements on one SQLite connection."""

    def __init__(
        self, conn: sqlite3.Connection, state: FunctionState, install_catalog: bool = True
    ) -> None:
        self.conn = conn
        self.state = state
        install(conn, state)
        if install_catalog:
            # the catalog relations as TEMP views (they call the functions registered above)
            install_catalog_views(conn)
        conn.execute("PRAGMA case_sensitive_like = ON")
        # every function SQLite can call (builtins and registered), for the binder's
        # ``function ... does not exist``
        self.functions = frozenset(
            str(r[0]).lower() for r in conn.execute("PRAGMA function_list").fetchall()
        )

    def lowering(self) -> SqliteLowering:
        # imported on first use: the lowering brings sqlglot, which ``SELECT 1`` never needs
        from rwshim.query.sqlite.lowering import SqliteLowering

        return SqliteLowering(self.functions)

    def decoder(self, oid: int) -> Callable[[object], object]:
        return decoder(oid)

    def param_count(self, sql: str) -> int:
        """The highest ``?n`` of ``sql``."""
        return max((int(m) for m in _BIND_RE.findall(sql)), default=0)

    def encode_param(self, value: object, oid: int) -> object:
        return encode_param(value, oid)

    def failure(self, e: Exception) -> RwError | None:
        return sqlite_error(e) if isinstance(e, sqlite3.Error) else None

    def select(self, prep: Prepared, args: Sequence[object]) -> Iterator[tuple[object, ...]]:
        cur = self._run(prep.sql, list(args[: prep.nbind]))
        return self._rows(cur, prep.decoders)

    def dml(self, prep: Prepared, args: Sequence[object], bind_default: BindDefault) -> Outcome:
        """Run an INSERT / UPDATE / DELETE.  UPDATE and DELETE run as one statement; INSERT
        evaluates its source, casts each value to the column's type, fills DEFAULTs and the
        hidden row id, and upserts by primary key (RisingWave overwrites the row with the
        same key: ``ConflictBehavior::Overwrite``, handler/create_table.rs:696-697), all in
        one savepoint."""
        rel = prep.target
        assert rel is not None
        ret_cols = [column_of(c) for c in prep.columns] if prep.returning_sql else None
        if prep.kind in ("update", "delete"):
            cur = self._run(prep.sql, list(args[: prep.nbind]))
            if prep.returning_sql:
                rows = [
                    tuple(d(v) for d, v in zip(prep.decoders, r, strict=True))
                    for r in cur.fetchall()
                ]
                n = len(rows)
            else:
                rows = []
                n = cur.rowcount
            tag = f"{prep.kind.upper()} {n}"
            return Outcome(tag, ret_cols, rows)
        # INSERT: evaluate the source, cast to the column types, upsert by primary key
        storage = storage_table(rel)
        cur = self._run(prep.sql, list(args[: prep.nbind]))
        source_rows: Iterable[Sequence[object]]
        if storage in prep.sql:
            # The source reads the target: take it whole first (no Halloween problem).
            try:
                source_rows = cur.fetchall()
            except sqlite3.Error as e:
                raise self._translate_error(e) from None
        else:
            # A huge INSERT ... SELECT goes through in batches, never whole in memory.
            source_rows = self._batches(cur)
        by_name = {c.name: c for c in rel.columns}
        cols = list(prep.insert_columns)
        # columns the statement leaves out take their DEFAULT (evaluated once per statement)
        defaults: list[tuple[str, object]] = []
        for c in rel.columns:
            if c.name not in cols and not c.hidden and c.default_expr:
                dcol = self._default_value(bind_default, c.default_expr, c.type_oid)
                defaults.append((c.name, dcol))
        has_row_id = ROW_ID in by_name and by_name[ROW_ID].hidden and ROW_ID not in cols
        all_cols = cols + [d[0] for d in defaults] + ([ROW_ID] if has_row_id else [])
        placeholders = ", ".join("?" for _ in all_cols)
        col_list = ", ".join(f'"{c}"' for c in all_cols)
        insert_sql = f'INSERT INTO "{storage}" ({col_list}) VALUES ({placeholders})'
        if prep.returning_sql:
            insert_sql += " RETURNING " + prep.returning_sql
        pk = [c for c in rel.primary_key if c in all_cols]
        delete_sql = ""
        if pk and len(pk) == len(rel.primary_key):
            cond = " AND ".join(f'"{c}" = ?' for c in pk)
            delete_sql = f'DELETE FROM "{storage}" WHERE {cond}'
        next_row_id = 0
        if has_row_id:
            r = self._run(f'SELECT COALESCE(MAX("{ROW_ID}"), 0) FROM "{storage}"', []).fetchone()
            next_row_id = int(r[0]) if r else 0
        out_rows: list[tuple[object, ...]] = []
        self.state.error = None
        # one statement is all or nothing
        self.conn.execute("SAVEPOINT rw_dml")
        inserted = 0
        try:
            for raw in source_rows:
                inserted += 1
                values: list[object] = [
                    casts.cast(v, prep.source_oids[i], by_name[cname].type_oid)
                    for i, (cname, v) in enumerate(zip(cols, raw, strict=False))
                ]
                values.extend(d[1] for d in defaults)
                if has_row_id:
                    next_row_id += 1
                    values.append(next_row_id)
                if delete_sql:
                    self._run(delete_sql, [values[all_cols.index(c)] for c in pk])
                c2 = self._run(insert_sql, values)
                if prep.returning_sql:
                    out_rows.extend(
                        tuple(d(v) for d, v in zip(prep.decoders, r, strict=True))
                        for r in c2.fetchall()
                    )
        except BaseException:
            self.conn.execute("ROLLBACK TO rw_dml")
            self.conn.execute("RELEASE rw_dml")
            raise
        self.conn.execute("RELEASE rw_dml")
        return Outcome(f"INSERT 0 {inserted}", ret_cols, out_rows)

    def _batches(self, cur: sqlite3.Cursor, size: int = 1000) -> Iterator[Sequence[object]]:
        while True:
            try:
                batch = cur.fetchmany(size)
            except sqlite3.Error as e:
                raise self._translate_error(e) from None
            if not batch:
                return
            yield from batch

    def _default_value(self, bind_default: BindDefault, expr_text: str, type_oid: int) -> object:
        """A column DEFAULT evaluated as RisingWave does at insert time, in storage form."""
        sql, oid = bind_default(expr_text)
        row = self._run(sql, []).fetchone()
        value = row[0] if row else None
        return casts.cast(value, oid, type_oid)

    def _run(self, sql: str, args: Sequence[object]) -> sqlite3.Cursor:
        try:
            return self.conn.execute(sql, args)
        except sqlite3.Error as e:
            raise self._translate_error(e) from None

    def _translate_error(self, e: sqlite3.Error) -> RwError:
        if self.state.error is not None:
            err = self.state.error
            self.state.error = None
            return err
        return sqlite_error(e)

    def _rows(
        self, cur: sqlite3.Cursor, decoders: list[Callable[[object], object]]
    ) -> Iterator[tuple[object, ...]]:
        try:
            for row in cur:
                yield tuple([d(v) for d, v in zip(decoders, row, strict=True)])
        except sqlite3.Error as e:
            raise self._translate_error(e) from None


def encode_param(value: object, oid: int) -> object:
    """A decoded parameter value (from the wire, by its OID) in SQLite storage form."""
    if value is None:
        return None
    if isinstance(value, bool):
        return 1 if value else 0
    if types.is_array(oid):
        if isinstance(value, str):
            elem = types.element_of(oid) or pgtypes.VARCHAR
            return casts.cast(value, pgtypes.VARCHAR, types.array_of(elem))
        if isinstance(value, (list, tuple)):
            return types.to_array_json([encode_param(v, types.element_of(oid) or 0) for v in value])
    if isinstance(value, Decimal):
        # numerics are SQLite numbers: integers that fit 64 bits, otherwise REAL (as the
        # read path's casts store them); a larger integer must not overflow sqlite3
        if value == value.to_integral_value() and -(2**63) <= value < 2**63:
            return int(value)
        return float(value)
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            return value.astimezone(dt.UTC).isoformat(sep=" ", timespec="microseconds")
        return value.isoformat(sep=" ", timespec="microseconds")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return types.format_interval(value)
    if isinstance(value, pgtypes.Interval):
        # a binary interval parameter; the read path keeps intervals as 30-day months
        return types.format_interval(
            dt.timedelta(days=value.months * 30 + value.days, microseconds=value.microseconds)
        )
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str) and oid in types.INTEGER_OIDS:
        return casts.cast(value, pgtypes.VARCHAR, oid)
    if isinstance(value, str) and oid == pgtypes.BOOL:
        return casts.cast(value, pgtypes.VARCHAR, oid)
    return value


def sqlite_error(e: sqlite3.Error) -> RwError:
    """A SQLite failure in RisingWave's words (never SQLite's own text)."""
    msg = str(e)
    if msg.startswith("no such column: "):
        return ItemNotFound(f"Invalid column: {msg.removeprefix('no such column: ')}")
    if msg.startswith("no such function: "):
        name = msg.removeprefix("no such function: ")
        return RwError(f"function {name} does not exist", sqlstate="42883")
    if "UNIQUE constraint failed" in msg:
        return RwError("Invalid insert operation: duplicate key value violates unique constraint")
    if "NOT NULL constraint failed" in msg:
        col = msg.rsplit(".", 1)[-1]
        return RwError(
            f'Invalid input syntax: null value in column "{col}" violates not-null constraint'
        )
    if "integer overflow" in msg:
        return RwError("Expr error", "Numeric out of range")
    return RwError("internal error: the query could not be executed")
