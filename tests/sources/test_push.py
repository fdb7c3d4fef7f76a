"""RWSHIM PUSH over real clients: messages delivered to Kafka tables and sources as their
connector would, decoded by FORMAT / ENCODE, INCLUDE columns filled, rows seen at the next
barrier, materialized views over sources.  RisingWave: src/connector/src/parser/ (plain,
upsert, debezium, csv, bytes parsers; chunk_builder.rs's INCLUDE columns and NULL padding;
mod.rs's skipped messages)."""

from __future__ import annotations

import psycopg

from rwshim.testing import RwShim
from tests.datapath.conftest import Client, caused_by

KAFKA = "WITH (connector = 'kafka', topic = 't', properties.bootstrap.server = 'localhost:9092')"


def _create_mv(rw: RwShim, db: Client, sql: str) -> None:
    db.run("SET BACKGROUND_DDL = true")
    db.run(sql)
    rw.tick(3)
    db.run("SET BACKGROUND_DDL = false")


def test_plain_json_table_with_include_columns(rw: RwShim, db: Client) -> None:
    db.run(
        "CREATE TABLE t (a int, b varchar) INCLUDE partition INCLUDE offset INCLUDE key"
        f" INCLUDE timestamp AS ts {KAFKA} FORMAT PLAIN ENCODE JSON"
    )
    tag = db.tag(
        """RWSHIM PUSH t KEY 'k1' '{"a": 1, "b": "x"}', '{"A": "2", "b": 3}',"""
        """ 'not json', '{"a": "zz", "b": "y"}'"""
    )
    assert tag == "RWSHIM"
    # not seen before the barrier
    assert db.rows("SELECT count(*) FROM t") == [(0,)]
    rw.tick()
    rows = db.rows(
        "SELECT a, b, _rw_kafka_partition, _rw_kafka_offset, _rw_kafka_key, ts IS NOT NULL"
        " FROM t ORDER BY _rw_kafka_offset"
    )
    # keys matched ignoring case, numbers from strings, varchar from a number, a bad value
    # NULL, the unparsable message skipped (its offset taken)
    assert rows == [
        (1, "x", "0", "0", b"k1", True),
        (2, "3", "0", "1", None, True),
        (None, "y", "0", "3", None, True),
    ]


def test_temporal_values_and_null_padding(rw: RwShim, db: Client) -> None:
    """json.rs:506-625: numbers as days / epoch time guessed by magnitude; a text the type
    cannot read is NULL in its column (chunk_builder.rs:287-305), the row kept."""
    db.run(
        f"CREATE TABLE t (id int, d date, ts timestamptz, n timestamp, i interval) {KAFKA}"
        " FORMAT PLAIN ENCODE JSON"
    )
    rw.push(
        "t",
        '{"id": 1, "d": 19000, "ts": 1700000000, "n": 1700000000123, "i": "1 hour"}',
        '{"id": 2, "d": "2024-02-30", "ts": "2024-01-01 00:00:00+00:00", "i": "soon"}',
    )
    rw.tick()
    db.run("SET TIME ZONE 'UTC'")
    assert db.rows(
        "SELECT id, d::varchar, ts::varchar, n::varchar, i::varchar FROM t ORDER BY id"
    ) == [
        (1, "2022-01-08", "2023-11-14 22:13:20+00:00", "2023-11-14 22:13:20.123", "01:00:00"),
        (2, None, "2024-01-01 00:00:00+00:00", None, None),
    ]


def test_partitions_count_offsets_apart(rw: RwShim, db: Client) -> None:
    db.run(f"CREATE TABLE t (a int) INCLUDE partition AS p INCLUDE offset AS o {KAFKA} "
           "FORMAT PLAIN ENCODE JSON")  # fmt: skip
    db.run("""RWSHIM PUSH t PARTITION '1' '{"a": 1}', '{"a": 2}'""")
    db.run("""RWSHIM PUSH t '{"a": 3}'""")
    db.run("""RWSHIM PUSH t PARTITION '1' '{"a": 4}'""")
    rw.tick()
    assert db.rows("SELECT a, p, o FROM t ORDER BY a") == [
        (1, "1", "0"), (2, "1", "1"), (3, "0", "0"), (4, "1", "2"),
    ]  # fmt: skip


def test_source_and_materialized_view_over_it(rw: RwShim, db: Client) -> None:
    db.run(
        f"CREATE SOURCE s (a int, b varchar) {KAFKA} FORMAT PLAIN ENCODE CSV"
        " (without_header = 'true', delimiter = ',')"
    )
    rw.push("s", "1,x", "2,x")
    rw.tick()
    _create_mv(rw, db, "CREATE MATERIALIZED VIEW m AS SELECT b, sum(a) AS s FROM s GROUP BY b")
    # the job reads the source from its earliest message (Kafka's default startup mode)
    assert db.rows("SELECT * FROM m ORDER BY b") == [("x", 3)]
    assert rw.push("s", "3,y", "4,") == 0
    assert db.rows("SELECT * FROM m ORDER BY b") == [("x", 3)]
    rw.tick()
    assert db.rows("SELECT * FROM m ORDER BY b") == [("x", 3), ("y", 3), (None, 4)]
    assert db.rows("SELECT a, b FROM s ORDER BY a") == [
        (1, "x"), (2, "x"), (3, "y"), (4, None),
    ]  # fmt: skip


def test_csv_fields_by_position(rw: RwShim, db: Client) -> None:
    db.run(
        f"CREATE TABLE t (a int, b varchar, c boolean) {KAFKA} FORMAT PLAIN ENCODE CSV"
        " (delimiter = ';', without_header = 'true')"
    )
    rw.push("t", "1;x;t", 'nope;"y;z";off', "3")
    rw.tick()
    assert db.rows("SELECT a, b, c FROM t ORDER BY b") == [
        (1, "x", True), (None, "y;z", False), (3, None, None),
    ]  # fmt: skip


def test_bytes(rw: RwShim, db: Client) -> None:
    db.run(f"CREATE TABLE t (v bytea) {KAFKA} FORMAT PLAIN ENCODE BYTES")
    rw.push("t", b"\x00\xff", "abc")
    rw.tick()
    assert db.rows("SELECT v FROM t ORDER BY v") == [(b"\x00\xff",), (b"abc",)]


def test_upsert_json(rw: RwShim, db: Client) -> None:
    db.run(
        f"CREATE TABLE u (v int, PRIMARY KEY (rw_key)) INCLUDE key AS rw_key {KAFKA}"
        " FORMAT UPSERT ENCODE JSON"
    )
    db.run("""RWSHIM PUSH u KEY 'a' '{"v": 1}', KEY 'b' '{"v": 2}', KEY 'a' '{"v": 3}'""")
    rw.tick()
    assert db.rows("SELECT v, rw_key FROM u ORDER BY v") == [(2, b"b"), (3, b"a")]
    db.run("RWSHIM PUSH u KEY 'a' NULL")  # a tombstone deletes the key
    rw.tick()
    assert db.rows("SELECT v, rw_key FROM u ORDER BY v") == [(2, b"b")]


def test_debezium_json(rw: RwShim, db: Client) -> None:
    db.run(f"CREATE TABLE d (id int PRIMARY KEY, v varchar) {KAFKA} FORMAT DEBEZIUM ENCODE JSON")
    _create_mv(rw, db, "CREATE MATERIALIZED VIEW dm AS SELECT count(*) AS n FROM d")
    rw.push(
        "d",
        '{"payload": {"before": null, "after": {"id": 1, "v": "a"}, "op": "c"}}',
        '{"before": null, "after": {"id": 2, "v": "b"}, "op": "r"}',
        '{"before": {"id": 1, "v": "a"}, "after": {"id": 1, "v": "a2"}, "op": "u"}',
        '{"before": {"id": 2, "v": "b"}, "after": null, "op": "d"}',
        None,
    )
    rw.tick()
    assert db.rows("SELECT * FROM d") == [(1, "a2")]
    assert db.rows("SELECT n FROM dm") == [(1,)]


def test_refusals(rw: RwShim, db: Client) -> None:
    assert db.error("RWSHIM PUSH nope 'x'") == caused_by(
        "Catalog error", "table or source not found: nope"
    )
    db.run("CREATE TABLE plain (a int)")
    assert db.error("RWSHIM PUSH plain 'x'") == caused_by(
        "not supported by rwshim: RWSHIM PUSH delivers messages to a source or a table with a"
        " connector"
    )
    db.run("CREATE USER bob")
    with psycopg.connect(rw.dsn.replace("user=root", "user=bob"), autocommit=True) as conn:
        bob = Client(conn)
        assert bob.error("RWSHIM PUSH plain 'x'") == caused_by(
            "Permission denied: must be superuser to use rwshim control statements"
        )


def test_fixture_push_counts_skipped(rw: RwShim, db: Client) -> None:
    db.run(f"CREATE TABLE t (a int PRIMARY KEY) {KAFKA} FORMAT PLAIN ENCODE JSON")
    # a key column's value that does not convert fails the row (chunk_builder.rs:287)
    assert rw.push("t", '{"a": 1}', "{", '{"a": "x"}', "[1]") == 3
    rw.tick()
    assert db.rows("SELECT a FROM t") == [(1,)]


def test_ctl_push(rw: RwShim, db: Client) -> None:
    import subprocess
    import sys
    from pathlib import Path

    db.run(f"CREATE TABLE t (a int) INCLUDE key AS k {KAFKA} FORMAT PLAIN ENCODE JSON")
    out = subprocess.run(
        [sys.executable, "-m", "rwshim", "ctl", "--dsn", rw.dsn, "push", "t", "--key", "it's",
         '{"a": 1}', '{"a": 2}'],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (out.returncode, out.stderr) == (0, "")
    rw.tick()
    assert db.rows("SELECT a, k FROM t ORDER BY a") == [(1, b"it's"), (2, b"it's")]
