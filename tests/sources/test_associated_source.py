"""A table with a connector has an associated source: its own catalog object, made right after
the table (controller/streaming_job.rs:557-571: the table's object, then the source's, then the
job's state tables), that RisingWave's frontend keeps among the schema's sources
(schema_catalog.rs:230-247), so rw_sources, rw_relations, pg_class and SHOW SOURCES list it;
rw_columns does not (rw_columns.rs:159-161).  DROP CONNECTOR and DROP TABLE drop it.  A source
is append-only when its key is the hidden _row_id (source_catalog.rs:187); its FORMAT and
ENCODE are NATIVE when a datagen statement names none (the parser fills them in,
src/sqlparser/src/ast/statement.rs:234-300)."""

from __future__ import annotations

from rwshim.testing import RwShim
from tests.datapath.conftest import Client


def test_table_with_connector_has_its_source(rw: RwShim, db: Client) -> None:
    db.run(
        "CREATE TABLE t (a int) WITH (connector = 'datagen', fields.a.kind = 'sequence')"
        " FORMAT PLAIN ENCODE JSON"
    )
    db.run("CREATE TABLE k (a int PRIMARY KEY) WITH (connector = 'datagen')")
    db.run("CREATE TABLE plain (a int)")
    db.run("CREATE SOURCE s (a int) WITH (connector = 'datagen')")
    ((t,),) = db.rows("SELECT id FROM rw_tables WHERE name = 't'")
    ((k,),) = db.rows("SELECT id FROM rw_tables WHERE name = 'k'")
    ((p,),) = db.rows("SELECT id FROM rw_tables WHERE name = 'plain'")
    assert db.rows(
        "SELECT id, name, connector, columns, format, row_encode, append_only,"
        " associated_table_id, is_shared, definition = (SELECT definition FROM rw_tables"
        " WHERE id = associated_table_id) FROM rw_sources ORDER BY id"
    ) == [
        (t + 1, "t", "DATAGEN", ["a", "_row_id"], "FORMAT_TYPE_PLAIN", "ENCODE_TYPE_JSON",
         True, t, False, True),
        (k + 1, "k", "DATAGEN", ["a"], "FORMAT_TYPE_NATIVE", "ENCODE_TYPE_NATIVE",
         False, k, False, True),
        (p + 1, "s", "DATAGEN", ["a", "_row_id"], "FORMAT_TYPE_NATIVE", "ENCODE_TYPE_NATIVE",
         True, None, False, None),
    ]  # fmt: skip
    # the job's state table comes after the source
    assert db.rows("SELECT id, job_id FROM rw_internal_tables WHERE job_id = %s", (t,)) == [
        (t + 2, t)
    ]
    assert db.rows(
        "SELECT id, name, relation_type FROM rw_relations WHERE id < 1000000 ORDER BY id"
    ) == [
        (t, "t", "table"), (t + 1, "t", "source"), (k, "k", "table"), (k + 1, "k", "source"),
        (p, "plain", "table"), (p + 1, "s", "source"),
    ]  # fmt: skip
    assert db.rows("SELECT oid, relkind FROM pg_class WHERE relname = 't' ORDER BY oid") == [
        (t, "r"),
        (t + 1, "s"),
    ]
    assert db.rows("SELECT count(*) FROM rw_columns WHERE relation_id = %s", (t + 1,)) == [(0,)]
    assert db.rows("SHOW SOURCES") == [("public.k",), ("public.s",), ("public.t",)]
    assert p == k + 3  # k's state table comes between
    # the name still binds to the table
    assert db.rows("SELECT 't'::regclass::int") == [(t,)]
    db.run("ALTER TABLE k DROP CONNECTOR")
    db.run("DROP TABLE t")
    assert db.rows("SELECT id FROM rw_sources") == [(p + 1,)]
    assert db.rows("SHOW SOURCES") == [("public.s",)]
