"""postgres-cdc against a real PostgreSQL 15 upstream (wal_level = logical) that the module
starts: a shared source, tables on it (their snapshot at the first barrier, then the
upstream's inserts, updates and deletes at the barriers after), a materialized view over
them, and RisingWave's validation errors when the upstream is not as the statement says
(java/connector-node/.../PostgresValidator.java, SourceValidateHandler.java at 448c657)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest

from rwshim.testing import RwShim
from tests.datapath.conftest import Client, caused_by
from tests.scenarios.pg15 import Pg15


@pytest.fixture(scope="module")
def upstream() -> Iterator[Pg15]:
    pg = Pg15(wal_level="logical")
    try:
        yield pg
    finally:
        pg.close()


_n = 0


@pytest.fixture
def up(upstream: Pg15) -> Iterator[tuple[Pg15, str]]:
    """The upstream and a fresh database on it (its slots dropped after the test)."""
    global _n
    _n += 1
    name = f"cdc{_n}"
    upstream.run(f"CREATE DATABASE {name}")
    try:
        yield upstream, name
    finally:
        # the server's connections go first (one may be reading its slot), then the slots
        upstream.run(
            "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
            f" WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        )
        for (slot,) in upstream.rows(
            f"SELECT slot_name FROM pg_replication_slots WHERE database = '{name}'"
        ):
            upstream.run(f"SELECT pg_drop_replication_slot('{slot}')")
        upstream.run(f"DROP DATABASE {name} WITH (FORCE)")


def run_on(pg: Pg15, database: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(pg.dsn.replace("dbname=postgres", f"dbname={database}")) as c:
        c.autocommit = True
        c.execute(sql)


def rows_on(pg: Pg15, database: str, sql: str) -> list[tuple[object, ...]]:
    import psycopg

    with psycopg.connect(pg.dsn.replace("dbname=postgres", f"dbname={database}")) as c:
        return [tuple(r) for r in c.execute(sql).fetchall()]


def with_clause(pg: Pg15, database: str, extra: str = "") -> str:
    return (
        f"connector = 'postgres-cdc', hostname = '{pg.host}', port = '{pg.port}',"
        f" username = 'postgres', password = '', database.name = '{database}',"
        f" slot.name = '{database}_slot'{extra}"
    )


def test_snapshot_then_changes_at_barriers(rw: RwShim, db: Client, up: tuple[Pg15, str]) -> None:
    pg, name = up
    run_on(pg, name, "CREATE TABLE orders (id int PRIMARY KEY, item text, price numeric(10,2),"
                     " at timestamptz, tags text[], doc jsonb)")  # fmt: skip
    run_on(pg, name, "INSERT INTO orders VALUES (1, 'a', 1.50, '2024-01-01 10:00:00+00', '{x,y}',"
                     " '{\"k\": 1}'), (2, 'b', 2.25, NULL, NULL, NULL)")  # fmt: skip
    assert db.tag(f"CREATE SOURCE pg WITH ({with_clause(pg, name)})") == "CREATE_SOURCE"
    slots = f"SELECT slot_name, plugin FROM pg_replication_slots WHERE database = '{name}'"
    assert pg.rows(slots) == [(f"{name}_slot", "pgoutput")]
    db.run(
        "CREATE TABLE o (id int PRIMARY KEY, item varchar, price decimal, at timestamptz,"
        " tags varchar[], doc jsonb) FROM pg TABLE 'public.orders'"
    )
    db.run("SET BACKGROUND_DDL = true")  # the manual clock: a barrier finishes the backfill
    db.run("CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n, sum(price) AS s FROM o")
    # the snapshot comes with the first barrier after the CREATE
    rw.tick()
    got = db.rows("SELECT id, item, price, at::varchar, tags, doc::varchar FROM o ORDER BY id")
    assert got == [
        (1, "a", Decimal("1.50"), "2024-01-01 10:00:00+00:00", ["x", "y"], '{"k": 1}'),
        (2, "b", Decimal("2.25"), None, None, None),
    ]  # fmt: skip
    assert db.rows("SELECT n, s FROM total") == [(2, Decimal("3.75"))]
    run_on(pg, name, "INSERT INTO orders (id, item, price) VALUES (3, 'c', 3)")
    run_on(pg, name, "UPDATE orders SET item = 'A' WHERE id = 1")
    run_on(pg, name, "DELETE FROM orders WHERE id = 2")
    # nothing moves before a barrier
    assert db.rows("SELECT id, item FROM o ORDER BY id") == [(1, "a"), (2, "b")]
    db.run("FLUSH")
    assert db.rows("SELECT id, item, price FROM o ORDER BY id") == [
        (1, "A", Decimal("1.50")), (3, "c", Decimal("3")),
    ]  # fmt: skip
    assert db.rows("SELECT n, s FROM total") == [(2, Decimal("4.50"))]
    # a key that changes moves the row
    run_on(pg, name, "UPDATE orders SET id = 30 WHERE id = 3")
    rw.tick()
    assert db.rows("SELECT id FROM o ORDER BY id") == [(1,), (30,)]
    # each change is read once: later barriers add nothing
    rw.tick(2)
    assert db.rows("SELECT id, item FROM o ORDER BY id") == [(1, "A"), (30, "c")]


def test_shared_source_two_tables_and_include(rw: RwShim, db: Client, up: tuple[Pg15, str]) -> None:
    pg, name = up
    run_on(pg, name, "CREATE SCHEMA shop; CREATE TABLE shop.a (k int PRIMARY KEY, v int);"
                     " CREATE TABLE shop.b (k bigint PRIMARY KEY, s varchar(10), extra int);"
                     " INSERT INTO shop.a VALUES (1, 10);"
                     " INSERT INTO shop.b VALUES (1, 'x', 0)")  # fmt: skip
    opts = with_clause(pg, name, ", schema.name = 'shop'")
    db.run(f"CREATE SOURCE pg WITH ({opts})")
    db.run("CREATE TABLE a (k int PRIMARY KEY, v int) FROM pg TABLE 'shop.a'")
    db.run(
        "CREATE TABLE b (k bigint PRIMARY KEY, s varchar) INCLUDE timestamp AS ts"
        " INCLUDE table_name AS tn INCLUDE database_name AS dn FROM pg TABLE 'shop.b'"
    )
    rw.tick()
    assert db.rows("SELECT * FROM a") == [(1, 10)]
    # snapshot rows carry the default timestamp (cdc backfill's with_additional_columns)
    assert db.rows("SELECT k, s, ts::varchar, tn, dn FROM b") == [
        (1, "x", "1970-01-01 00:00:00+00:00", "b", name)
    ]
    run_on(pg, name, "BEGIN; INSERT INTO shop.a VALUES (2, 20); UPDATE shop.b SET s = 'y';"
                     " INSERT INTO shop.b VALUES (2, 'z', 5); COMMIT")  # fmt: skip
    rw.tick()
    assert db.rows("SELECT * FROM a ORDER BY k") == [(1, 10), (2, 20)]
    rows = db.rows("SELECT k, s, ts > '2000-01-01' FROM b ORDER BY k")
    assert rows == [(1, "y", True), (2, "z", True)]
    # the publication the source made (rw_publication_<uuid>, validate.rs:220-229) covers both
    # tables now (ALTER PUBLICATION ... ADD TABLE, PostgresValidator.alterPublicationIfNeeded)
    assert rows_on(pg, name, "SELECT pubname ~ '^rw_publication_[0-9a-f]{32}$', tablename"
                             " FROM pg_publication_tables ORDER BY 2") == [
        (True, "a"), (True, "b"),
    ]  # fmt: skip


def test_drop_keeps_the_slot(rw: RwShim, db: Client, up: tuple[Pg15, str]) -> None:
    """RisingWave drops no replication slot: Debezium's slot.drop.on.stop is false, and its
    e2e tests drop the slots themselves (postgres_corner_schema_change.slt:17-28)."""
    pg, name = up
    run_on(pg, name, "CREATE TABLE t (id int PRIMARY KEY)")
    db.run(f"CREATE SOURCE pg WITH ({with_clause(pg, name)})")
    db.run("CREATE TABLE t (id int PRIMARY KEY) FROM pg TABLE 'public.t'")
    rw.tick()
    # the table depends on its source: a rename reaches its definition, a DROP is refused
    # (check_object_refer_for_drop, src/meta/src/controller/utils.rs:843-870: any table is
    # named a materialized view there)
    assert db.tag("ALTER SOURCE pg RENAME TO pg2") == "ALTER_SOURCE"
    assert db.rows("SHOW CREATE TABLE t") == [
        ("public.t", "CREATE TABLE t (id INT PRIMARY KEY) FROM pg2 TABLE 'public.t'")
    ]
    run_on(pg, name, "INSERT INTO t VALUES (7)")
    rw.tick()
    assert db.rows("SELECT id FROM t") == [(7,)]
    assert db.error("DROP SOURCE pg2") == caused_by(
        "Permission denied: source used by 1 other objects. \nDETAIL: materialized view"
        " public.t depends on it\nHINT:  Use DROP ... CASCADE to drop the dependent objects too."
    )
    assert db.tag("DROP TABLE t") == "DROP_TABLE"
    assert db.tag("DROP SOURCE pg2") == "DROP_SOURCE"
    rw.tick()
    slots = f"SELECT slot_name FROM pg_replication_slots WHERE database = '{name}'"
    assert pg.rows(slots) == [(f"{name}_slot",)]


def test_toast_and_unconvertible_values(rw: RwShim, db: Client, up: tuple[Pg15, str]) -> None:
    pg, name = up
    run_on(pg, name, "CREATE TABLE t (id int PRIMARY KEY, big text, n numeric, m money)")
    big = "x" * 100_000
    run_on(pg, name, f"ALTER TABLE t ALTER big SET STORAGE EXTERNAL; INSERT INTO t VALUES"
                     f" (1, '{big}', 1e40, '$1,234.50')")  # fmt: skip
    db.run(f"CREATE SOURCE pg WITH ({with_clause(pg, name)})")
    db.run(
        "CREATE TABLE t (id int PRIMARY KEY, big varchar, n decimal, m decimal)"
        " FROM pg TABLE 'public.t'"
    )
    rw.tick()
    # 1e40 is beyond RisingWave's decimal: a non-key value that does not convert is NULL, as
    # RisingWave's parser pads it (logged); money loses its currency formatting (Debezium)
    got = db.rows("SELECT id, length(big), n, m FROM t")
    assert got == [(1, 100_000, None, Decimal("1234.50"))]
    run_on(pg, name, "UPDATE t SET n = 2 WHERE id = 1")  # big is not sent: TOAST unchanged
    rw.tick()
    assert db.rows("SELECT id, length(big), n FROM t") == [(1, 100_000, Decimal("2"))]


SOURCE = "/ddl_service.DdlService/CreateSource"
TABLE = "/ddl_service.DdlService/CreateTable"


def source_failed(message: str) -> str:
    return caused_by(
        f"gRPC request to meta service (call `{SOURCE}`) failed: Internal error",
        "failed to create source worker", "failed to create SplitEnumerator",
        "source validation failed", message,
    )  # fmt: skip


def table_failed(message: str) -> str:
    return caused_by(
        f"gRPC request to meta service (call `{TABLE}`) failed: Internal error",
        "source validation failed", message,
    )  # fmt: skip


def test_validation_errors(rw: RwShim, db: Client, up: tuple[Pg15, str]) -> None:
    pg, name = up
    run_on(pg, name, "CREATE TABLE t (id int PRIMARY KEY, v int, w text);"
                     " CREATE TABLE nokey (id int)")  # fmt: skip
    # a publication that does not exist, with auto create disabled
    opts = with_clause(
        pg, name, ", publication.name = 'nopub', publication.create.enable = 'false'"
    )
    assert db.error(f"CREATE SOURCE s WITH ({opts})") == source_failed(
        "INVALID_ARGUMENT: Publication 'nopub' doesn't exist and auto create is disabled"
    )
    # an option the connector needs, empty
    bad = with_clause(pg, name).replace(f"database.name = '{name}'", "database.name = ' '")
    assert db.error(f"CREATE SOURCE s WITH ({bad})") == source_failed(
        "INVALID_ARGUMENT: 'database.name' cannot be empty. Please check the WITH properties"
    )
    # nobody listens there
    closed = with_clause(pg, name).replace(f"port = '{pg.port}'", "port = '1'")
    assert db.error(f"CREATE SOURCE s WITH ({closed})") == source_failed(
        f"Internal error: Connection to {pg.host}:1 refused. Check that the hostname and port are"
        " correct and that the postmaster is accepting TCP/IP connections."
    )
    assert db.rows("SELECT count(*) FROM rw_sources") == [(0,)]
    opts = with_clause(pg, name, ", publication.name = 'pub'")
    db.run(f"CREATE SOURCE pg WITH ({opts})")
    slots = f"SELECT count(*) FROM pg_replication_slots WHERE slot_name = '{name}_slot'"
    assert pg.rows(slots) == [(1,)]
    cases = [
        ("CREATE TABLE x (id int PRIMARY KEY, v int) FROM pg TABLE 'public.missing'",
         'INTERNAL: ERROR: relation "public.missing" does not exist'),
        ("CREATE TABLE x (id int PRIMARY KEY, nope int) FROM pg TABLE 'public.t'",
         "INVALID_ARGUMENT: Column 'nope' not found in the upstream database"),
        ("CREATE TABLE x (id int PRIMARY KEY, v varchar) FROM pg TABLE 'public.t'",
         "INVALID_ARGUMENT: Incompatible data type of column v"),
        ("CREATE TABLE x (id int, v int, PRIMARY KEY (id, v)) FROM pg TABLE 'public.t'",
         "INVALID_ARGUMENT: Primary key mismatch: the SQL schema defines 2 primary key columns,"
         " but the source table in Postgres has 1 columns."),
        ("CREATE TABLE x (id int, v int PRIMARY KEY) FROM pg TABLE 'public.t'",
         "INVALID_ARGUMENT: Primary key mismatch: The primary key list of the source table in"
         " Postgres does not contain 'v'.\nHint: If your primary key contains uppercase letters,"
         " please ensure that the primary key in the DML of RisingWave uses the same uppercase"
         ' format and is wrapped with double quotes ("").'),
        ("CREATE TABLE x (id int PRIMARY KEY) FROM pg TABLE 'public.nokey'",
         "INVALID_ARGUMENT: Primary key mismatch: the SQL schema defines 1 primary key columns,"
         " but the source table in Postgres has 0 columns."),
    ]  # fmt: skip
    for sql, message in cases:
        assert db.error(sql) == table_failed(message), sql
    assert db.rows("SELECT count(*) FROM rw_tables") == [(0,)]
    # a subset of the upstream's columns is a valid table
    assert db.tag("CREATE TABLE x (id int PRIMARY KEY, w varchar) FROM pg TABLE 'public.t'") == (
        "CREATE_TABLE"
    )


def test_wal_level_not_logical(rw: RwShim, db: Client) -> None:
    pg = Pg15()
    try:
        opts = with_clause(pg, "postgres")
        assert db.error(f"CREATE SOURCE s WITH ({opts})") == source_failed(
            "INVALID_ARGUMENT: Postgres wal_level should be 'logical'.\nPlease modify the config"
            " and restart your Postgres server."
        )
    finally:
        pg.close()


def test_direct_cdc_table_refused(db: Client, up: tuple[Pg15, str]) -> None:
    """448c657 refuses a CDC table with its own connector (create_source.rs:761-768)."""
    pg, name = up
    assert db.error(
        f"CREATE TABLE t (id int PRIMARY KEY) WITH ({with_clause(pg, name)}, table.name = 't')"
    ) == caused_by(
        "Protocol error: directly creating a CDC table for connector postgres-cdc is no longer"
        " supported; please `CREATE SOURCE` to create a shared CDC source first, then `CREATE"
        " TABLE ... FROM <source> TABLE '<database>.<table>'`"
    )


def test_wildcard_reads_the_columns_upstream(rw: RwShim, db: Client, up: tuple[Pg15, str]) -> None:
    """``(*)``: bind_cdc_table_schema_externally (create_table.rs:1619-1644) takes the upstream
    table's columns (sea_type_to_rw_type, connector_common/postgres.rs:687-759) and key."""
    pg, name = up
    run_on(pg, name, "CREATE TYPE mood AS ENUM ('ok', 'sad'); CREATE TABLE w (a int, b text,"
                     " c numeric, d timestamptz, e mood, f int8[], PRIMARY KEY (b, a));"
                     " INSERT INTO w VALUES (1, 'x', 1.5, '2024-01-01 00:00:00+00', 'sad',"
                     " '{1,2}'); "
                     " CREATE TABLE nokey (a int)")  # fmt: skip
    db.run(f"CREATE SOURCE pg WITH ({with_clause(pg, name)})")
    db.run("CREATE TABLE w (*) FROM pg TABLE 'public.w'")
    assert db.rows(
        "SELECT c.name, c.data_type, c.is_primary_key FROM rw_columns c JOIN rw_tables t"
        " ON t.id = c.relation_id WHERE t.name = 'w' AND NOT c.is_hidden ORDER BY c.position"
    ) == [
        ("a", "integer", True), ("b", "character varying", True), ("c", "numeric", False),
        ("d", "timestamp with time zone", False), ("e", "character varying", False),
        ("f", "bigint[]", False),
    ]  # fmt: skip
    rw.tick()
    assert db.rows("SELECT a, b, c, e, f FROM w") == [(1, "x", Decimal("1.5"), "sad", [1, 2])]
    assert db.error("CREATE TABLE n (*) FROM pg TABLE 'public.nokey'") == caused_by(
        "failed to auto derive table schema",
        "Postgres table should define the primary key for non-append-only tables",
    )
    assert db.error("CREATE TABLE n (*) FROM pg TABLE 'nope.x'") == caused_by(
        "failed to auto derive table schema", "PostgreSQL schema `nope` does not exist"
    )


def test_snapshot_false_and_upstream_restart(rw: RwShim, db: Client, up: tuple[Pg15, str]) -> None:
    """``snapshot = 'false'`` skips the backfill (CdcScanOptions, generic/cdc_scan.rs:69-73);
    an upstream that goes away and comes back: the barriers go on meanwhile, and the changes
    made while rwshim could not read them arrive once it can (the slot kept them)."""
    pg, name = up
    run_on(pg, name, "CREATE TABLE t (id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 1)")
    db.run(f"CREATE SOURCE pg WITH ({with_clause(pg, name)})")
    assert db.error(
        "CREATE TABLE bad (id int PRIMARY KEY, v int) WITH (snapshot = 'yes')"
        " FROM pg TABLE 'public.t'"
    ) == caused_by("Invalid value for snapshot")
    db.run(
        "CREATE TABLE t (id int PRIMARY KEY, v int) WITH (snapshot = 'false')"
        " FROM pg TABLE 'public.t'"
    )
    rw.tick()
    assert db.rows("SELECT * FROM t") == []
    run_on(pg, name, "INSERT INTO t VALUES (2, 2)")
    rw.tick()
    assert db.rows("SELECT * FROM t") == [(2, 2)]
    pg.stop()
    rw.tick(2)  # the upstream is down: the barriers commit without it
    pg.start()
    run_on(pg, name, "UPDATE t SET v = 20 WHERE id = 2; INSERT INTO t VALUES (3, 3)")
    rw.tick()
    assert db.rows("SELECT * FROM t ORDER BY id") == [(2, 20), (3, 3)]


@pytest.mark.parametrize(
    ("version", "connector", "message"),
    [
        (
            "3.0", "postgres-cdc",
            "not supported by rwshim: a table with its own postgres-cdc connector (this release"
            " accepts it; rwshim emulates CREATE SOURCE ... + CREATE TABLE ... FROM <source>"
            " TABLE '...')",
        ),
        (
            "2.8", "sqlserver-cdc",
            "Protocol error: connector sqlserver-cdc does not support `CREATE TABLE`, please use"
            " `CREATE SOURCE` instead",
        ),
    ],
)  # fmt: skip
def test_direct_cdc_table_of_older_releases(version: str, connector: str, message: str) -> None:
    """v3.0.3 and v2.8.5 accept a table with its own mysql-cdc / postgres-cdc connector and
    refuse sqlserver-cdc's (create_source.rs:761-766 there); rwshim says it does not emulate
    the first."""
    import psycopg

    server = RwShim(manual=True, rw_version=version)
    try:
        with psycopg.connect(server.dsn, autocommit=True) as conn:
            opts = (
                f"connector = '{connector}', hostname = 'h', port = '1', username = 'u',"
                " password = 'p', database.name = 'd', table.name = 't'"
            )
            db = Client(conn)
            assert db.error(f"CREATE TABLE t (id int PRIMARY KEY) WITH ({opts})") == caused_by(
                message
            )
    finally:
        server.stop()


def test_changes_between_create_and_snapshot(rw: RwShim, db: Client, up: tuple[Pg15, str]) -> None:
    """Changes committed after the CREATE TABLE (the table is in the publication) and before
    the snapshot is read are in both the slot and the snapshot: the replay over the snapshot
    ends at the upstream's rows, and a reader sees no state in between (one epoch)."""
    pg, name = up
    run_on(
        pg, name, "CREATE TABLE t (id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 1), (2, 2)"
    )
    db.run(f"CREATE SOURCE pg WITH ({with_clause(pg, name)})")
    db.run("CREATE TABLE t (id int PRIMARY KEY, v int) FROM pg TABLE 'public.t'")
    run_on(pg, name, "INSERT INTO t VALUES (3, 3); UPDATE t SET v = 10 WHERE id = 1;"
                     " DELETE FROM t WHERE id = 2; UPDATE t SET id = 4 WHERE id = 3")  # fmt: skip
    rw.tick()
    assert db.rows("SELECT * FROM t ORDER BY id") == [(1, 10), (4, 3)]
    run_on(pg, name, "DELETE FROM t")
    rw.tick()
    assert db.rows("SELECT * FROM t") == []
