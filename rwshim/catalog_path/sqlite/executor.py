"""Running the catalog path's queries on SQLite: parameters, rows, and SQLite's failures.

``SqliteExecutor`` is the ``prepared.Executor`` over the store's SQLite connection: it
registers rwshim's functions (sqlite/install.py) and the catalog views
(rwshim/catalog_path/system_catalogs) on the connection, makes each statement's
``SqliteLowering``, decodes SQLite's values (``types.decode``), and runs queries (constants and
the catalog relations: user tables' rows live on the PostgreSQL data plane).  A failure is
RisingWave's error: the one a registered function parked in ``FunctionState.error``, else
SQLite's message mapped to RisingWave's text (``sqlite_error``), never SQLite's own words.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from rwshim.binder import types
from rwshim.binder.functions import FunctionState
from rwshim.binder.prepared import Prepared
from rwshim.catalog_path.sqlite import casts
from rwshim.catalog_path.sqlite.install import install
from rwshim.catalog_path.system_catalogs import install_tables, install_views, may_read_view
from rwshim.common import pgtypes
from rwshim.errors import ItemNotFound, RwError
from rwshim.lazy import lazy_pattern

if TYPE_CHECKING:
    from rwshim.catalog_path.sqlite.lowering import SqliteLowering

_BIND_RE = lazy_pattern(r"\?(\d+)")


def decoder(oid: int) -> Callable[[object], object]:
    """SQLite's value of a column typed ``oid`` as the Python value for the wire."""
    ext = types.external(oid)
    if types.struct_fields(oid) is not None:
        return lambda v: types.decode(v, oid)  # its fields' types decide the text form
    if oid == types.REGTYPE_TAG:
        return lambda v: None if v is None else types.format_type_name(int(v))  # type: ignore[call-overload]
    scalar = types.scalar_decoder(ext)
    if scalar is not None:
        return scalar
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
            # the static catalog tables now (SHOW and EXPLAIN read them directly); the views
            # over them, ~20 ms of a start-up, before the first statement that reads one
            # (ensure_views)
            install_tables(conn)
        self._views_pending = install_catalog
        conn.execute("PRAGMA case_sensitive_like = ON")
        self._functions: frozenset[str] | None = None

    @property
    def functions(self) -> frozenset[str]:
        """Every function SQLite can call (builtins and registered), for the binder's
        ``function ... does not exist``.  Read at the first lowering, not at start-up (a
        constant ``SELECT 1`` needs none): every registration on the connection is made
        before this executor is (the store's) or by its constructor, so it is the same set."""
        if self._functions is None:
            self._functions = frozenset(
                str(r[0]).lower() for r in self.conn.execute("PRAGMA function_list").fetchall()
            )
        return self._functions

    def ensure_views(self, sql: str) -> None:
        """Create the catalog relations' TEMP views if they are not yet and engine text
        ``sql`` may read one (``may_read_view``): before it runs here, and before the result
        cache reads which views there are."""
        if self._views_pending and may_read_view(sql):
            install_views(self.conn)
            # Made inside a transaction, a rollback would drop them again: then they are
            # looked at again (CREATE ... IF NOT EXISTS) before the next statement.
            self._views_pending = self.conn.in_transaction

    def lowering(self) -> SqliteLowering:
        # imported on first use: the lowering brings sqlglot, which ``SELECT 1`` never needs
        from rwshim.catalog_path.sqlite.lowering import SqliteLowering

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

    def _run(self, sql: str, args: Sequence[object]) -> sqlite3.Cursor:
        if self._views_pending:
            self.ensure_views(sql)
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
