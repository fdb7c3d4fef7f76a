"""psqlODBC (Debian's ``odbc-postgresql``, under unixODBC) driven from Python with ``pyodbc``,
against a real rwshim server, with a DSN-less connection string naming the driver that the
Debian package registers (``PostgreSQL Unicode``).

psqlODBC prepares a parameterised statement server-side under a plan name made from the
statement handle's address (``_PLAN0x...``) and frees it with ``DEALLOCATE "<name>"`` when the
handle runs another statement.  RisingWave's DEALLOCATE succeeds with a notice but drops
nothing (``handler/prepared_statement.rs:34-44``), so the next Parse under the same name fails
with ``Duplicated statement name`` (``pg_protocol.rs:1007-1009``): one cursor running two
different parameterised statements fails on RisingWave.  ``UseServerSidePrepare=0`` makes
psqlODBC inline the parameters and send simple queries, which always works.

``SQLColumns`` and ``SQLStatistics`` read ``pg_class.relhasrules`` (and ``relhassubclass``),
which RisingWave's pg_class lacks (pg_class.rs): both fail there, and psqlODBC reports only
``Error while executing the query``.  The test reads the statement the driver sent from the
server's statement log and runs it again with psycopg to check RisingWave's whole message.
(``SQLPrimaryKeys`` only reads columns RisingWave has.)
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterator
from decimal import Decimal

import psycopg
import pyodbc
import pytest

from tests.conftest import ThreadRunning

DRIVER = "PostgreSQL Unicode"


def connection_string(server: ThreadRunning, extra: str = "") -> str:
    return (
        f"DRIVER={{{DRIVER}}};SERVER={server.host};PORT={server.port};DATABASE=dev;"
        f"UID=root;PWD=;{extra}"
    )


@pytest.fixture
def odbc(rw_thread_server: ThreadRunning) -> Iterator[pyodbc.Connection]:
    drivers = pyodbc.drivers()
    assert DRIVER in drivers, (
        f"ODBC driver {DRIVER!r} not registered (have {drivers}): run `bash .ci/setup` as root "
        "(it installs Debian's odbc-postgresql and unixodbc)"
    )
    conn = pyodbc.connect(connection_string(rw_thread_server), autocommit=True)
    yield conn
    conn.close()


def test_queries_parameters_and_types(odbc: pyodbc.Connection) -> None:
    assert odbc.getinfo(pyodbc.SQL_DBMS_NAME) == "PostgreSQL"
    assert odbc.getinfo(pyodbc.SQL_DBMS_VER) == "13.14.0"
    # One cursor per statement, all kept open: each gets its own plan name (see the module
    # docstring for what reusing one cursor does).
    cursors: list[pyodbc.Cursor] = []

    def cursor() -> pyodbc.Cursor:
        cursors.append(odbc.cursor())
        return cursors[-1]

    cursor().execute(
        "CREATE TABLE readings (id int PRIMARY KEY, site varchar, value double precision,"
        " amount numeric, day date, at timestamp)"
    )
    ins = cursor()
    insert = "INSERT INTO readings VALUES (?, ?, ?, ?, ?, ?)"
    ins.execute(insert, 1, "north", 1.5, "2.5", "2024-07-01", "2024-07-01 06:00:00")
    assert ins.rowcount == 1
    ins.execute(
        insert,
        2,
        "south",
        2.25,
        Decimal("3.75"),
        dt.date(2024, 7, 2),
        dt.datetime(2024, 7, 2, 6, 30, 15),
    )
    # The same statement twice on one cursor reused its plan; executemany binds one per row.
    many = cursor()
    many.executemany("INSERT INTO readings (id, site) VALUES (?, ?)", [(3, "east"), (4, "west")])
    cursor().execute("FLUSH")
    rows = cursor().execute("SELECT * FROM readings ORDER BY id").fetchall()
    day1, day2 = dt.date(2024, 7, 1), dt.date(2024, 7, 2)
    assert [tuple(r) for r in rows] == [
        (1, "north", 1.5, Decimal("2.5"), day1, dt.datetime(2024, 7, 1, 6)),
        (2, "south", 2.25, Decimal("3.75"), day2, dt.datetime(2024, 7, 2, 6, 30, 15)),
        (3, "east", None, None, None, None),
        (4, "west", None, None, None, None),
    ]  # fmt: skip
    q = cursor().execute("SELECT site, value FROM readings WHERE id >= ? ORDER BY id", 2)
    assert [tuple(r) for r in q.fetchall()] == [("south", 2.25), ("east", None), ("west", None)]
    assert [d[0] for d in q.description] == ["site", "value"]
    tables = sorted(r.table_name for r in cursor().tables(schema="public"))
    assert tables == ["readings"]


def test_errors_carry_risingwaves_sqlstate_and_text(odbc: pyodbc.Connection) -> None:
    with pytest.raises(pyodbc.ProgrammingError) as info:
        odbc.cursor().execute("SELECT * FROM missing")
    assert info.value.args == (
        "42704",
        "[42704] ERROR: Failed to run the query\n\nCaused by these errors (recent errors listed "
        "first):\n  1: Catalog error\n  2: table or source not found: missing\n;\n"
        "Error while executing the query (1) (SQLExecDirectW)",
    )
    cur = odbc.cursor()
    cur.execute("SET streaming_max_parallelism = 4")
    cur.execute("CREATE TABLE sales (region varchar, amount int)")
    cur.execute("CREATE MATERIALIZED VIEW sales_mv AS SELECT * FROM sales")
    with pytest.raises(pyodbc.Error) as err:
        cur.execute("ALTER MATERIALIZED VIEW sales_mv SET BACKFILL_PARALLELISM = 8")
    assert err.value.args == (
        "XX000",
        "[XX000] ERROR: Failed to run the query\n\nCaused by these errors (recent errors listed "
        "first):\n  1: gRPC request to meta service (call "
        "`/ddl_service.DdlService/AlterBackfillParallelism`) failed: Internal error\n"
        "  2: specified backfill parallelism 8 should not exceed max parallelism 4\n;\n"
        "Error while executing the query (1) (SQLExecDirectW)",
    )
    assert cur.execute("SELECT 1").fetchall()[0][0] == 1


class _Statements(logging.Handler):
    """The statements the server logs (``rwshim.statement`` at DEBUG), failed ones with their
    text as logged (the first 500 characters)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.failed: list[str] = []
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage()
        self.lines.append(line)
        m = re.search(r' sql="((?:[^"\\]|\\.)*)"$', line)
        if " ok=False " in line and m is not None:
            self.failed.append(re.sub(r"\\(.)", lambda g: {"n": "\n"}.get(g[1], g[1]), m[1]))


def test_one_cursor_two_prepared_statements(rw_thread_server: ThreadRunning) -> None:
    log = logging.getLogger("rwshim.statement")
    handler, level = _Statements(), log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    conn = pyodbc.connect(connection_string(rw_thread_server), autocommit=True)
    try:
        cur = conn.cursor()
        assert cur.execute("SELECT ?::int + 1", 1).fetchall()[0][0] == 2
        with pytest.raises(pyodbc.Error) as info:
            cur.execute("SELECT ?::varchar", "x")
        assert info.value.args == (
            "XX000",
            "[XX000] ERROR: Failed to prepare the statement\n\nCaused by:\n"
            "  Duplicated statement name\n;\nError while preparing parameters (1) "
            "(SQLExecDirectW)",
        )
    finally:
        conn.close()
        log.removeHandler(handler)
        log.setLevel(level)
    # the driver freed its plan first: DEALLOCATE succeeds (with RisingWave's notice) and
    # drops nothing
    [dealloc] = [x for x in handler.lines if " kind=Deallocate " in x]
    assert " ok=True tag=DEALLOCATE " in dealloc and ' sql="DEALLOCATE \\"_PLAN0x' in dealloc
    # The workaround: parameters inlined by the driver, simple queries only.
    conn = pyodbc.connect(
        connection_string(rw_thread_server, "UseServerSidePrepare=0;"), autocommit=True
    )
    try:
        cur = conn.cursor()
        assert cur.execute("SELECT ?::int + 1", 1).fetchall()[0][0] == 2
        assert cur.execute("SELECT ?::varchar", "x").fetchall()[0][0] == "x"
    finally:
        conn.close()


def test_default_manual_commit(rw_thread_server: ThreadRunning) -> None:
    """pyodbc's default (autocommit off): psqlODBC sends BEGIN before each statement while the
    server reports no transaction; RisingWave's BEGIN is a no-op, so the writes still land."""
    conn = pyodbc.connect(connection_string(rw_thread_server, "UseServerSidePrepare=0;"))
    try:
        cur = conn.cursor()
        cur.execute("CREATE TABLE notes (id int, body varchar)")
        cur.execute("INSERT INTO notes VALUES (?, ?)", 1, "kept")
        conn.commit()
        cur.execute("FLUSH")
        assert [tuple(r) for r in cur.execute("SELECT * FROM notes").fetchall()] == [(1, "kept")]
    finally:
        conn.close()


# What psqlODBC 13.02 sends for SQLColumns(table='legs') and SQLStatistics(table='legs'),
# taken from rwshim's statement log (each is checked below against the statement the driver
# sent in this run, over the 500 characters the log keeps).
SQL_COLUMNS = (
    "select n.nspname, c.relname, a.attname, a.atttypid, t.typname, a.attnum, a.attlen, "
    "a.atttypmod, a.attnotnull, c.relhasrules, c.relkind, c.oid, pg_get_expr(d.adbin, "
    "d.adrelid), case t.typtype when 'd' then t.typbasetype else 0 end, t.typtypmod, 0, "
    "attidentity, c.relhassubclass from (((pg_catalog.pg_class c inner join "
    "pg_catalog.pg_namespace n on n.oid = c.relnamespace and c.relname = 'legs' and "
    "n.nspname = 'public') inner join pg_catalog.pg_attribute a on (not a.attisdropped) and "
    "a.attnum > 0 and a.attrelid = c.oid) inner join pg_catalog.pg_type t on t.oid = "
    "a.atttypid) left outer join pg_attrdef d on a.atthasdef and d.adrelid = a.attrelid and "
    "d.adnum = a.attnum order by n.nspname, c.relname, attnum"
)


def test_catalog_functions(rw_thread_server: ThreadRunning) -> None:
    log = logging.getLogger("rwshim.statement")
    handler, level = _Statements(), log.level
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    conn = pyodbc.connect(connection_string(rw_thread_server), autocommit=True)
    try:
        conn.cursor().execute(
            "CREATE TABLE legs (trip int, seq int, place varchar, PRIMARY KEY (trip, seq))"
        )
        keys = [tuple(r) for r in conn.cursor().primaryKeys(table="legs", schema="public")]
        # RisingWave's pg_index names a primary key after its table (pg_index.rs)
        assert keys == [("dev", "public", "legs", "trip", 1, "legs"),
                        ("dev", "public", "legs", "seq", 2, "legs")]  # fmt: skip
        for call, name in ((conn.cursor().columns, "SQLColumns"),
                           (conn.cursor().statistics, "SQLStatistics")):  # fmt: skip
            with pytest.raises(pyodbc.Error) as info:
                call(table="legs", schema="public")
            assert info.value.args == (
                "HY000",
                f"[HY000] Error while executing the query (1) ({name})",
            )
    finally:
        conn.close()
        log.removeHandler(handler)
        log.setLevel(level)
    # SQLColumns sends its columns query with LIKE patterns; SQLStatistics starts with the
    # same query with '=' and stops when it fails
    like = SQL_COLUMNS.replace("= 'legs' and n.nspname = ", "like 'legs' and n.nspname like ")
    assert handler.failed == [like[:500], SQL_COLUMNS[:500]]
    with (
        psycopg.connect(rw_thread_server.dsn(), autocommit=True) as pg,
        pytest.raises(psycopg.errors.InternalError_) as err,
    ):
        pg.execute(SQL_COLUMNS)
    assert str(err.value) == (
        "Failed to run the query\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Failed to bind expression: c.relhasrules\n"
        "  2: Item not found: Invalid column: relhasrules"
    )
