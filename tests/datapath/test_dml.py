"""DML on user tables on the data plane: tags and counts, upsert by primary key (each conflict
behaviour, a key repeated in one statement), RETURNING, defaults, refusals with RisingWave's
texts.  Ported from the in-process path's unit tests when user data moved to PostgreSQL."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from .conftest import Client, caused_by


@pytest.fixture
def t(db: Client) -> Client:
    db.run("CREATE TABLE t (id int PRIMARY KEY, v varchar)")
    return db


def test_insert_values_tag_counts_rows(t: Client) -> None:
    assert t.tag("INSERT INTO t VALUES (1, 'a'), (2, 'b')") == "INSERT 0 2"
    assert t.rows("SELECT id, v FROM t ORDER BY id") == [(1, "a"), (2, "b")]


def test_insert_on_existing_primary_key_overwrites(t: Client) -> None:
    t.run("INSERT INTO t VALUES (1, 'a')")
    assert t.tag("INSERT INTO t VALUES (1, 'b')") == "INSERT 0 1"
    assert t.rows("SELECT * FROM t") == [(1, "b")]


def test_key_repeated_in_one_statement_keeps_the_last_row(t: Client) -> None:
    # RisingWave's materialize executor applies the rows in order (overwrite): the last wins,
    # and the tag counts every input row (e2e streaming/on_conflict.slt:
    # insert into t2 values (3,4,5), (3,6,7))
    assert t.tag("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (1, 'c'), (1, 'd')") == "INSERT 0 4"
    assert t.rows("SELECT * FROM t ORDER BY id") == [(1, "d"), (2, "b")]


def test_key_repeated_by_a_select_over_a_table_keeps_the_last_row(t: Client) -> None:
    # the same rule when the rows come from a table (the repeated-key retry once named the
    # source's relations as the user wrote them, which the guard refused, and PostgreSQL's
    # "ON CONFLICT DO UPDATE command cannot affect row a second time" stood)
    t.run("CREATE TABLE s (n int, v varchar)")
    t.run("INSERT INTO s VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    t.run("FLUSH")
    assert t.tag("INSERT INTO t SELECT 5, v FROM s ORDER BY n") == "INSERT 0 3"
    assert t.tag("INSERT INTO t SELECT n % 2, v FROM s AS x WHERE x.n > 1 ORDER BY n") == (
        "INSERT 0 2"
    )
    t.run("FLUSH")
    assert t.rows("SELECT * FROM t ORDER BY id") == [(0, "b"), (1, "c"), (5, "c")]


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("", [(1, "new", None), (2, "b", 2)]),
        ("ON CONFLICT DO NOTHING", [(1, "old", 1), (2, "b", 2)]),
        ("ON CONFLICT DO UPDATE FULL", [(1, "new", None), (2, "b", 2)]),
    ],
)
def test_conflict_behaviours(db: Client, clause: str, expected: list[object]) -> None:
    db.run(f"CREATE TABLE c (k int PRIMARY KEY, v varchar, w int) {clause}")
    db.run("INSERT INTO c VALUES (1, 'old', 1)")
    assert db.tag("INSERT INTO c VALUES (1, 'new', NULL), (2, 'b', 2)") == "INSERT 0 2"
    assert db.rows("SELECT * FROM c ORDER BY k") == expected


def test_do_nothing_with_a_repeated_key_keeps_the_first(db: Client) -> None:
    db.run("CREATE TABLE c (k int PRIMARY KEY, v varchar) ON CONFLICT DO NOTHING")
    assert db.tag("INSERT INTO c VALUES (1, 'a'), (1, 'b'), (2, 'c')") == "INSERT 0 3"
    assert db.rows("SELECT * FROM c ORDER BY k") == [(1, "a"), (2, "c")]


def test_append_only_with_a_key_must_do_nothing(db: Client) -> None:
    assert db.error("CREATE TABLE a (k int PRIMARY KEY) APPEND ONLY ON CONFLICT OVERWRITE") == (
        caused_by(
            "Invalid input syntax: When PRIMARY KEY constraint applied to an APPEND ONLY table,"
            " the ON CONFLICT behavior must be DO NOTHING."
        )
    )


def test_null_in_a_key_column(db: Client) -> None:
    # RisingWave's key columns are nullable unless NOT NULL (handler/create_table.rs:181-183;
    # e2e batch/basic/null_range_scan.slt.part), and NULL keys are equal for the upsert
    db.run("CREATE TABLE t0 (c0 int, c1 int, PRIMARY KEY (c1, c0))")
    db.run("INSERT INTO t0 (c0) VALUES (1)")
    db.run("INSERT INTO t0 (c0) VALUES (1)")
    assert db.rows("SELECT * FROM t0") == [(1, None)]


def test_table_without_primary_key_keeps_duplicates_and_hides_row_id(db: Client) -> None:
    db.run("CREATE TABLE n (x bigint)")
    db.run("INSERT INTO n VALUES (5), (5)")
    cur = db.run("SELECT * FROM n")
    assert [d.name for d in cur.description or []] == ["x"]
    assert cur.fetchall() == [(5,), (5,)]
    ids = db.rows("SELECT _row_id FROM n")
    assert len({r[0] for r in ids}) == 2


def test_insert_select_and_column_list(t: Client) -> None:
    t.run("CREATE TABLE u (id int PRIMARY KEY, v varchar)")
    t.run("INSERT INTO t (v, id) VALUES ('x', 7)")
    assert t.tag("INSERT INTO u SELECT id + 1, v || '!' FROM t") == "INSERT 0 1"
    assert t.rows("SELECT * FROM u") == [(8, "x!")]


def test_insert_casts_to_column_type(t: Client) -> None:
    t.run("INSERT INTO t VALUES ('12', 34)")
    assert t.rows("SELECT id, v FROM t") == [(12, "34")]


def test_insert_returning(t: Client) -> None:
    cur = t.run("INSERT INTO t VALUES (1, 'a'), (2, 'b') RETURNING id * 10, v")
    assert (cur.statusmessage or "") == "INSERT 0 2"
    assert [d.name for d in cur.description or []] == ["?column?", "v"]
    assert cur.fetchall() == [(10, "a"), (20, "b")]


def test_update_and_delete_tags(t: Client) -> None:
    t.run("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
    assert t.tag("UPDATE t SET v = 'z' WHERE id >= 2") == "UPDATE 2"
    assert t.tag("UPDATE t SET v = 'z' WHERE id > 9") == "UPDATE 0"
    cur = t.run("DELETE FROM t WHERE v = 'z' RETURNING id")
    assert cur.statusmessage == "DELETE 2"
    assert sorted(cur.fetchall()) == [(2,), (3,)]
    assert t.rows("SELECT * FROM t") == [(1, "a")]


def test_update_with_parameters(t: Client) -> None:
    t.run("INSERT INTO t VALUES (1, 'a')")
    assert t.tag("UPDATE t SET v = %s WHERE id = %s", ("q", 1)) == "UPDATE 1"
    assert t.rows("SELECT v FROM t") == [("q",)]


def test_dml_on_materialized_view_is_refused(t: Client) -> None:
    t.run("CREATE MATERIALIZED VIEW mv AS SELECT id FROM t")
    for sql in ("INSERT INTO mv VALUES (1)", "DELETE FROM mv", "UPDATE mv SET id = 1"):
        assert t.error(sql) == caused_by(
            'Invalid input syntax: cannot change materialized view "mv"'
        ), sql


def test_dml_on_view_or_catalog_is_table_not_found(t: Client) -> None:
    t.run("CREATE VIEW v AS SELECT id FROM t")
    assert t.error("INSERT INTO v VALUES (1)") == caused_by("Catalog error", "table not found: v")
    assert t.sqlstate("INSERT INTO v VALUES (1)") == "42704"
    assert t.error("DELETE FROM rw_catalog.rw_tables") == caused_by(
        "Catalog error", "table not found: rw_tables"
    )


def test_append_only_table_refuses_update_and_delete(db: Client) -> None:
    db.run("CREATE TABLE ao (x int) APPEND ONLY")
    assert db.tag("INSERT INTO ao VALUES (1)") == "INSERT 0 1"
    for sql in ("UPDATE ao SET x = 2", "DELETE FROM ao"):
        assert db.error(sql) == caused_by(
            "Bind error: append-only table does not support update or delete"
        )


def test_insert_column_errors(t: Client) -> None:
    cases = {
        "INSERT INTO t (nope) VALUES (1)": "Bind error: Column nope not found in table t",
        "INSERT INTO t (id, id) VALUES (1, 2)": "Bind error: Column specified more than once",
        "INSERT INTO t VALUES (1, 'a', 3)":
            "Bind error: INSERT has more expressions than target columns",
        "INSERT INTO t (id, v) VALUES (1)":
            "Bind error: INSERT has more target columns than expressions",
        "UPDATE t SET id = 2": "Bind error: update modifying the PK column is unsupported",
        "UPDATE t SET v = 'a', v = 'b'": "Bind error: multiple assignments to the same column",
    }  # fmt: skip
    for sql, text in cases.items():
        assert t.error(sql) == caused_by(text), sql


def test_insert_bad_text_for_integer_column(t: Client) -> None:
    # RisingWave's cast error (src/common/src/types/mod.rs str_parse)
    assert t.error("INSERT INTO t VALUES ('foo', 'x')") == caused_by(
        "Expr error",
        "error while evaluating expression `str_parse('foo')`",
        "Parse error: integer invalid digit found in string",
    )


def test_omitted_columns_take_their_default(db: Client) -> None:
    db.run(
        "CREATE TABLE d (id int PRIMARY KEY, n int DEFAULT 40 + 2, at timestamptz DEFAULT now())"
    )
    before = dt.datetime.now(dt.UTC)
    db.run("INSERT INTO d (id) VALUES (1)")
    db.run("INSERT INTO d VALUES (2, 7)")
    got = db.rows("SELECT id, n, at FROM d ORDER BY id")
    assert [(r[0], r[1]) for r in got] == [(1, 42), (2, 7)]
    for r in got:
        assert r[2] is not None and before - dt.timedelta(seconds=5) <= r[2]


def test_not_null_is_enforced(db: Client) -> None:
    db.run("CREATE TABLE nn (k int PRIMARY KEY, v varchar NOT NULL)")
    assert db.error("INSERT INTO nn (k) VALUES (1)") == caused_by(
        "Expr error", 'null value in column "v" of relation "nn" violates not-null constraint'
    )


def test_generated_columns(db: Client) -> None:
    db.run("CREATE TABLE g (a int, b int AS a + 1)")
    db.run("INSERT INTO g VALUES (1), (5)")
    assert db.rows("SELECT a, b FROM g ORDER BY a") == [(1, 2), (5, 6)]
    assert db.error("INSERT INTO g VALUES (1, 2)") == caused_by(
        'Invalid insert operation: cannot insert a non-DEFAULT value into column "b"\n'
        '  DETAIL: Column "b" is a generated column.'
    )


def test_failed_insert_leaves_no_row(t: Client) -> None:
    t.error("INSERT INTO t VALUES (1, 'a'), ('x', 'b')")
    assert t.rows("SELECT count(*) FROM t") == [(0,)]


def test_insert_parenthesized_select_as_dbt_sends_it(t: Client) -> None:
    # dbt's incremental insert: INSERT INTO t ("a", "b") ( SELECT "a", "b" FROM tmp )
    t.run("CREATE TABLE u (id int PRIMARY KEY, v varchar)")
    t.run("INSERT INTO t VALUES (1, 'a'), (2, 'b')")
    assert t.tag('INSERT INTO u ("id", "v") ( SELECT "id", "v" FROM t )') == "INSERT 0 2"
    assert t.tag("INSERT INTO u ((SELECT id + 10, v FROM t WHERE id = 1))") == "INSERT 0 1"
    assert t.rows("SELECT id, v FROM u ORDER BY id") == [(1, "a"), (2, "b"), (11, "a")]


def test_numeric_keeps_every_digit(db: Client) -> None:
    # RisingWave's decimal is rust_decimal (96-bit mantissa, 28 digits:
    # src/common/src/types/decimal.rs); these fit and come back exact (the in-process path
    # turned them into floats)
    db.run("CREATE TABLE num (k int PRIMARY KEY, x numeric)")
    big = Decimal("123456789012345678901234567")
    assert db.tag("INSERT INTO num VALUES (1, %s), (2, 99999999999999999999)", (big,)) == (
        "INSERT 0 2"
    )
    assert db.rows("SELECT x FROM num ORDER BY k") == [(big,), (Decimal("99999999999999999999"),)]


def test_scalar_subquery_of_more_than_one_row_fails(db: Client) -> None:
    """The batch MaxOneRow executor's text (max_one_row.rs:67-70), in a query and in an
    UPDATE (e2e_test/batch/basic/dml_update.slt.part, subquery/scalar_subquery.slt.part)."""
    db.run("CREATE TABLE t (x int)")
    db.run("INSERT INTO t VALUES (1)")
    assert db.rows("SELECT (SELECT x FROM t) x, 1 one") == [(1, 1)]
    db.run("INSERT INTO t VALUES (2)")
    refused = caused_by("Scalar subquery produced more than one row.")
    assert db.error("SELECT (SELECT x FROM t) x, 1 one") == refused
    assert db.error("UPDATE t SET x = (SELECT generate_series(1, 2))") == refused
    assert db.rows("SELECT x FROM t ORDER BY x") == [(1,), (2,)]


def test_update_refuses_system_and_generated_key_columns(db: Client) -> None:
    """update.rs:244-281: the system column _rw_timestamp, a generated column, and a column a
    generated key column reads."""
    db.run("CREATE TABLE t (a int, b int AS a + 1, c int, PRIMARY KEY (b))")
    db.run("INSERT INTO t (a, c) VALUES (1, 1)")
    assert db.error("UPDATE t SET _rw_timestamp = _rw_timestamp + interval '1 second'") == (
        caused_by("Bind error: update modifying column `_rw_timestamp` is unsupported")
    )
    assert db.error("UPDATE t SET b = 3") == caused_by(
        "Bind error: update modifying the PK column is unsupported"
    )
    assert db.error("UPDATE t SET a = 3") == caused_by(
        "Bind error: update modifying the column referenced by generated columns that are part "
        "of the primary key is not allowed"
    )
    assert db.tag("UPDATE t SET c = 5") == "UPDATE 1"
    assert db.rows("SELECT a, b, c FROM t") == [(1, 2, 5)]


def test_update_of_a_column_list_from_one_subquery(db: Client) -> None:
    """SET (a, b) = (SELECT ...): PostgreSQL's parse repeats the subquery under each column;
    it is one subquery (e2e_test/batch/basic/dml_update.slt.part:141 answers RisingWave's
    MaxOneRow text when it yields two rows)."""
    db.run("CREATE TABLE t (v1 int, v2 int)")
    db.run("INSERT INTO t VALUES (1, 2)")
    db.run("CREATE TABLE y (v1 int, v2 int)")
    db.run("INSERT INTO y VALUES (11, 12)")
    db.run("FLUSH")
    assert db.tag("UPDATE t SET (v1, v2) = (SELECT y.v1, y.v2 FROM y)") == "UPDATE 1"
    assert db.rows("SELECT v1, v2 FROM t") == [(11, 12)]
    db.run("INSERT INTO y VALUES (22, 22)")
    db.run("FLUSH")
    refused = caused_by("Scalar subquery produced more than one row.")
    assert db.error("UPDATE t SET (v1, v2) = (SELECT y.v1, y.v2 FROM y)") == refused
    assert db.rows("SELECT v1, v2 FROM t") == [(11, 12)]


def test_a_failed_statement_keeps_the_sessions_settings_for_the_next(db: Client) -> None:
    # every DML of a database shares its epoch's connection; a failed statement's savepoint
    # is rolled back, and the next statement still writes in this session's time zone
    db.run("CREATE TABLE z (k int PRIMARY KEY, at timestamptz)")
    db.run("SET TIME ZONE 'Asia/Tokyo'")
    db.error("INSERT INTO z VALUES (1 / 0, '2020-01-01 09:00:00')")
    db.run("INSERT INTO z VALUES (1, '2020-01-01 09:00:00')")
    assert db.rows("SELECT at = '2020-01-01 00:00:00+00:00'::timestamptz FROM z") == [(True,)]
