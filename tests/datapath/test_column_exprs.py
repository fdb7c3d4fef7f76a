"""A table's generated and DEFAULT column expressions as RisingWave's DDL binder checks them
(create_table.rs bind_sql_column_constraints / check_generated_column_constraints,
builtin_scalar.rs ensure_now_function_allowed / ensure_proctime_function_allowed), proctime()
columns filled per write, and views binding functions as their query does ad hoc."""

from __future__ import annotations

from .conftest import Client, caused_by

PROCTIME_REFUSED = (
    "Invalid input syntax: Function `PROCTIME()` is only allowed in CREATE TABLE/SOURCE. "
    "Is `NOW()` what you want?"
)


def test_now_in_a_generated_column_is_refused(db: Client) -> None:
    assert db.error("CREATE TABLE t (v int, t timestamptz AS now() + interval '1 hour')") == (
        caused_by(
            'failed to bind the expression in generated column "t"',
            "Failed to bind expression: now() + INTERVAL '1 hour'",
            "Invalid input syntax: Cannot use `NOW()` function in generated columns. "
            "Do you want `PROCTIME()`?",
        )
    )
    assert db.rows("SELECT name FROM rw_tables") == []


def test_generated_column_rules(db: Client) -> None:
    assert db.error("CREATE TABLE t2 (v1 int AS v2 + 1, v2 int, v3 int AS v1 - 1)") == caused_by(
        "Bind error: A generated column cannot reference another generated column. "
        'Generated column "v3" references generated column "v1"'
    )
    sql = "CREATE TABLE t (v1 INT, v2 timestamptz AS proctime(), PRIMARY KEY (v1, v2))"
    assert db.error(sql) == caused_by(
        "Bind error: Generated columns with impure expressions should not be part of the "
        'primary key. Here column "v2" is defined as part of the primary key.'
    )
    # a pure generated column may be a key column; an existing name is refused first
    assert db.tag("CREATE TABLE k (a int, b int AS a * 2, PRIMARY KEY (a, b))") == "CREATE_TABLE"
    assert db.error("CREATE TABLE k (a int, b timestamptz AS now())") == caused_by(
        "Catalog error", "table named k already exists"
    )
    assert db.rows("SELECT name FROM rw_tables") == [("k",)]


def test_proctime_column_is_the_time_of_each_write(db: Client) -> None:
    assert db.tag("CREATE TABLE t3 (v1 int, v2 timestamptz AS proctime())") == "CREATE_TABLE"
    assert db.tag("INSERT INTO t3 VALUES (1), (2)") == "INSERT 0 2"
    db.run("FLUSH")
    assert db.tag("INSERT INTO t3 VALUES (3)") == "INSERT 0 1"
    assert db.rows("SELECT v1, v2 >= date '2021-01-01' FROM t3 ORDER BY v1") == [
        (1, True),
        (2, True),
        (3, True),
    ]
    one, two, three = (r[0] for r in db.rows("SELECT v2 FROM t3 ORDER BY v1"))
    assert one == two < three
    assert db.error("INSERT INTO t3 VALUES (4, now())") == caused_by(
        'Invalid insert operation: cannot insert a non-DEFAULT value into column "v2"\n'
        '  DETAIL: Column "v2" is a generated column.'
    )
    assert db.rows("SHOW CREATE TABLE t3") == [
        ("public.t3", "CREATE TABLE t3 (v1 INT, v2 timestamptz AS proctime())")
    ]


def test_proctime_outside_create_table_is_refused(db: Client) -> None:
    db.run("CREATE TABLE t (v int, ts timestamptz)")
    assert db.error("SELECT proctime()") == caused_by(
        "Failed to bind expression: proctime()", PROCTIME_REFUSED
    )
    assert db.error("SELECT v FROM t WHERE ts < proctime()") == caused_by(
        "Failed to bind expression: ts < proctime()", PROCTIME_REFUSED
    )
    assert db.error("CREATE MATERIALIZED VIEW m AS SELECT v, proctime() AS p FROM t") == (
        caused_by("Failed to bind expression: proctime()", PROCTIME_REFUSED)
    )


def test_a_view_calls_the_functions_its_query_calls(db: Client) -> None:
    """A view's functions bind as the query's do ad hoc (RisingWave's date_trunc takes only
    its own field names, where PostgreSQL's also takes abbreviations)."""
    db.run("CREATE TABLE dt (ts timestamp)")
    db.run("INSERT INTO dt VALUES ('2020-01-01 10:11:12')")
    refused = caused_by(
        "Expr error",
        'Invalid parameter field: invalid field "s". must be one of: microseconds, '
        "milliseconds, second, minute, hour, day, week, month, quarter, year, decade, century, "
        "millennium",
    )
    assert db.error("SELECT date_trunc('s', ts) FROM dt") == refused
    db.run("CREATE VIEW dtv AS SELECT date_trunc('s', ts) FROM dt")
    assert db.error("SELECT * FROM dtv") == refused
    db.run("CREATE VIEW dtm AS SELECT date_trunc('minute', ts) AS m FROM dt")
    assert [str(r[0]) for r in db.rows("SELECT m FROM dtm")] == ["2020-01-01 10:11:00"]


def test_reserved_column_names(db: Client) -> None:
    """check_column_name_not_reserved (catalog/mod.rs:65-91) for a table's columns, an MV's
    column-name list and every select-list alias (binder/select.rs:355)."""

    def system(name: str) -> str:
        return caused_by(
            f'Invalid input syntax: column name "{name}" conflicts with a system column name'
        )

    def prefixed(prefix: str) -> str:
        return caused_by(f'internal error: column name prefixed with "{prefix}" are reserved word.')

    assert db.error("CREATE TABLE t (v1 int, cmin int)") == system("cmin")
    assert db.error('CREATE TABLE t (v1 int, "xmax" int)') == system("xmax")
    assert db.error("CREATE TABLE t (v1 int, cMax int)") == system("cmax")
    assert db.error("CREATE TABLE t (_row_id int)") == prefixed("_row_id")
    assert db.error("CREATE TABLE t (_rw_x int)") == prefixed("_rw_")
    assert db.tag('CREATE TABLE t (v1 int, "xMin" int)') == "CREATE_TABLE"
    assert db.error("CREATE MATERIALIZED VIEW mv AS SELECT 1 AS tableoid") == system("tableoid")
    assert db.error("CREATE MATERIALIZED VIEW mv (ctid) AS SELECT 1 AS x") == system("ctid")
    assert db.error("SELECT 1 AS xmin") == system("xmin")
    assert db.error("SELECT v1 AS ctid FROM t") == system("ctid")
    assert db.error("SELECT * FROM (SELECT v1 AS ctid FROM t) s") == system("ctid")
    assert db.error("CREATE VIEW vv AS SELECT v1 AS _row_idx FROM t") == prefixed("_row_id")
    assert db.rows('SELECT "xMin" AS "CTID" FROM t') == []
    # the select list binds item by item: an earlier item's error comes first
    assert db.error("SELECT nosuch, 1 AS ctid FROM t") == caused_by(
        "Failed to bind expression: nosuch", "Item not found: Invalid column: nosuch"
    )
    assert db.error("SELECT 1 AS ctid, nosuch FROM t") == system("ctid")
    assert db.rows("SELECT name FROM rw_relations WHERE name LIKE 'mv%' OR name = 'vv'") == []


def test_create_view_and_table_as_name_columns_as_a_batch_query(db: Client) -> None:
    """CREATE VIEW (create_view.rs:73-92) and CREATE TABLE AS (create_table_as.rs) take a
    batch query's columns, ``?column?`` for an unnamed item; CREATE MATERIALIZED VIEW wants an
    alias (create_mv.rs:80-98)."""
    assert db.tag("CREATE VIEW v AS SELECT 1") == "CREATE_VIEW"
    assert db.rows("SELECT * FROM v") == [(1,)]
    assert db.tag("CREATE TABLE t AS SELECT 1") == "CREATE_TABLE"
    assert db.rows("SELECT name FROM rw_columns WHERE relation_id = 't'::regclass") == [
        ("?column?",),
        ("_row_id",),
        ("_rw_timestamp",),
    ]
    assert db.tag("CREATE TABLE t2 (v1) AS SELECT 1, 2") == "CREATE_TABLE"
    assert db.rows('SELECT v1, "?column?" FROM t2') == [(1, 2)]
    assert db.error("CREATE TABLE t3 (a, b, c) AS SELECT 1, 2") == caused_by(
        "Invalid input syntax: too many column names were specified"
    )
    assert db.error("CREATE TABLE t4 (a int) AS SELECT 1") == caused_by(
        "Invalid input syntax: Should not specify data type in CREATE TABLE AS"
    )
    assert db.error("CREATE VIEW v2 (a, b) AS SELECT 1") == caused_by(
        "internal error: view has different number of columns than the query's columns"
    )
    assert db.tag("CREATE VIEW v3 (a) AS SELECT 1 AS x") == "CREATE_VIEW"
    assert db.rows("SELECT a FROM v3") == [(1,)]
    assert db.error("CREATE MATERIALIZED VIEW m AS SELECT 1") == caused_by(
        "Bind error: An alias must be specified for the 1st expression (counting from 1) in "
        "result relation"
    )


def test_what_only_an_append_only_table_may_have(db: Client) -> None:
    """create_table.rs:779-810: a watermark without TTL, retention_seconds (unless
    unsafe_enable_storage_retention_for_non_append_only_tables, then a notice)."""
    hint = "\nHINT: Use the key words `APPEND ONLY`"
    mark = "v2 timestamptz, WATERMARK FOR v2 AS v2 - INTERVAL '10 MINUTES'"
    assert db.error(f"CREATE TABLE t2 (v1 int, {mark})") == caused_by(
        "Not supported: Defining watermarks on table requires the table to be append only." + hint
    )
    assert db.tag(f"CREATE TABLE t3 (v1 int, {mark} WITH TTL)") == "CREATE_TABLE"
    assert db.tag(f"CREATE TABLE t4 (v1 int, {mark}) APPEND ONLY") == "CREATE_TABLE"
    assert db.error("CREATE TABLE t5 (v int) WITH (retention_seconds = 5)") == caused_by(
        "Not supported: Defining retention seconds on table requires the table to be append "
        "only." + hint
    )
    assert db.tag("CREATE TABLE t6 (v int) APPEND ONLY WITH (retention_seconds = 5)") == (
        "CREATE_TABLE"
    )
    notices: list[str] = []
    db.conn.add_notice_handler(lambda d: notices.append(d.message_primary or ""))
    db.run("SET unsafe_enable_storage_retention_for_non_append_only_tables TO true")
    assert db.tag("CREATE TABLE t5 (v int) WITH (retention_seconds = 5)") == "CREATE_TABLE"
    assert notices == [
        "Storage retention is enabled for non-append-only table. This may lead to stream "
        "inconsistency and unrecoverable node failure if there is any row "
        "INSERT/UPDATE/DELETE operation corresponding to the TTLed primary keys"
    ]
    assert db.rows("SELECT name FROM rw_tables ORDER BY name") == [
        ("t3",),
        ("t4",),
        ("t5",),
        ("t6",),
    ]
