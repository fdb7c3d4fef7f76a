"""A statement text run again on a session's data-plane connection is prepared there (pgio:
PostgreSQL parses and plans it once).  What a client sees must not change: the rows after the
relation it reads changed shape, the answers of a parameterised lookup, and an error, which is
the same on the run before preparing and on the runs after."""

from __future__ import annotations

import asyncio

import psycopg

from rwshim.dataplane.pgio import PgConn
from rwshim.testing import RwShim

from .conftest import Client

RUNS = 4  # past rwshim's prepare-on-second-run threshold on the data-plane connection


def test_repeated_text_follows_a_table_recreated_under_its_name(db: Client) -> None:
    db.run("CREATE TABLE t (id int PRIMARY KEY, v varchar)")
    db.run("INSERT INTO t VALUES (1, 'a')")
    db.run("FLUSH")
    for _ in range(RUNS):
        cur = db.run("SELECT * FROM t")
        assert [d.name for d in cur.description or []] == ["id", "v"]
        assert cur.fetchall() == [(1, "a")]
    db.run("DROP TABLE t")
    db.run("CREATE TABLE t (k varchar, n bigint, d double precision)")
    db.run("INSERT INTO t VALUES ('x', 7, 1.5)")
    db.run("FLUSH")
    for _ in range(RUNS):
        cur = db.run("SELECT * FROM t")
        assert [d.name for d in cur.description or []] == ["k", "n", "d"]
        assert cur.fetchall() == [("x", 7, 1.5)]


def test_repeated_parameterised_lookup_by_primary_key(db: Client) -> None:
    db.run("CREATE TABLE kv (k int PRIMARY KEY, v varchar)")
    db.run("INSERT INTO kv SELECT g, 'v' || g FROM generate_series(1, 50) AS g")
    db.run("FLUSH")
    got = [
        db.conn.execute("SELECT v FROM kv WHERE k = %s", (k,), prepare=True).fetchall()
        for k in (3, 50, 51, 3, 1)
    ]
    assert got == [[("v3",)], [("v50",)], [], [("v3",)], [("v1",)]]
    # DML repeated with parameters (a loader's statement) goes the same way
    for k in (60, 61, 62):
        cur = db.conn.execute("INSERT INTO kv VALUES (%s, %s)", (k, f"n{k}"), prepare=True)
        assert cur.statusmessage == "INSERT 0 1"
    db.run("FLUSH")
    assert db.rows("SELECT k, v FROM kv WHERE k >= 60 ORDER BY k") == [
        (60, "n60"),
        (61, "n61"),
        (62, "n62"),
    ]


def test_an_error_reads_the_same_before_and_after_the_text_is_prepared(db: Client) -> None:
    db.run("CREATE TABLE z (a int)")
    db.run("INSERT INTO z VALUES (0)")
    db.run("FLUSH")
    errors = []
    for _ in range(RUNS):
        try:
            db.run("SELECT 1 / a FROM z")
        except psycopg.Error as e:
            errors.append((e.sqlstate, e.diag.message_primary))
        else:
            raise AssertionError("division by zero answered")
    assert len(set(errors)) == 1, errors
    # and the connection carries on
    assert db.rows("SELECT a FROM z") == [(0,)]


def test_a_prepared_statement_whose_table_changed_shape_runs_as_text(
    db: Client, rwshim: RwShim
) -> None:
    """PostgreSQL refuses a prepared statement whose relation changed its columns ("cached
    plan must not change result type"): the connection forgets its statements and runs the
    text, so the change (a table altered between rwshim's catalog check and the statement)
    shows as the new columns, never as that error.  A real fault: the table is altered on
    another connection to the data plane's PostgreSQL."""
    db.run("CREATE TABLE s (a int)")
    db.run("INSERT INTO s VALUES (1)")  # the data plane exists now
    conninfo = rwshim.instance.data.conninfo()

    async def run() -> list[list[tuple[str, list[bytes | None]]]]:
        conn = await PgConn.connect(conninfo)
        other = await PgConn.connect(conninfo)
        try:
            await conn.script("CREATE TABLE shape_probe (a int)")
            await conn.script("INSERT INTO shape_probe VALUES (1)")

            async def select() -> list[tuple[str, list[bytes | None]]]:
                out = []
                async for res in conn.stream("SELECT * FROM shape_probe", [], []):
                    names = [(res.fname(i) or b"").decode() for i in range(res.nfields)]
                    for r in range(res.ntuples):
                        row = [res.get_value(r, i) for i in range(res.nfields)]
                        out.append((",".join(names), row))
                return out

            seen = [await select() for _ in range(RUNS)]  # prepared from the second run
            await other.script("ALTER TABLE shape_probe ADD COLUMN b text DEFAULT 'x'")
            seen.append(await select())
            seen.append(await select())  # prepared again afterwards
            return seen
        finally:
            await conn.close()
            await other.close()

    seen = asyncio.run(run())
    assert seen[:RUNS] == [[("a", [b"1"])]] * RUNS
    assert seen[RUNS:] == [[("a,b", [b"1", b"x"])]] * 2


def test_a_repeated_text_answers_in_the_session_time_zone(db: Client) -> None:
    """A text run twice is prepared on the data plane; PostgreSQL makes a literal's cast to
    timestamptz a constant when it parses it, so the prepared statements are dropped when the
    session's time zone changes (e2e_test/batch/basic/to_jsonb.slt.part: the same literal read
    in UTC after Europe/London answered London's instant)."""
    db.run("CREATE TABLE z (v int)")  # a text reading a table runs on the data plane
    db.run("INSERT INTO z VALUES (1)")
    sql = "SELECT extract(epoch FROM '2014-05-28 12:22:35'::timestamptz)::bigint FROM z"
    answers = []
    for zone in ("UTC", "Europe/London", "EST5EDT", "UTC"):
        db.run(f"SET timezone TO '{zone}'")
        answers += [db.rows(sql)[0][0], db.rows(sql)[0][0]]
    utc = 1401279755
    assert answers == [utc, utc, utc - 3600, utc - 3600, utc + 4 * 3600, utc + 4 * 3600, utc, utc]
