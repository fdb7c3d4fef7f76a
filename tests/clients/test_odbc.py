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
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal

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


def test_one_cursor_two_prepared_statements(rw_thread_server: ThreadRunning) -> None:
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
