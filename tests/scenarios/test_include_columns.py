"""INCLUDE columns in the catalog: RisingWave's default names and types
(src/connector/src/parser/additional_columns.rs:124-302), appended in the reverse of the
statement's order (handle_addition_columns pops its items, create_source/
additional_column.rs:70; e2e_test/source_inline/kafka/alter/alter_table_drop_connector.slt:53
shows the order), the hidden columns of a Kafka source (additional_column.rs:100-130,
e2e_test/source_inline/kafka/alter/add_column.slt:147-155), and the rows: no source produces
here, so an INCLUDE column holds NULL unless DML writes it."""

from __future__ import annotations

from tests.scenarios.drivers import Client
from tests.scenarios.pg15 import Pg15, cdc_options

KAFKA = "connector = 'kafka', topic = 't', properties.bootstrap.server = 'b:9092'"


async def columns(client: Client, name: str) -> list[tuple[object, ...]]:
    return await client.rows(
        "select c.name, c.data_type, c.is_hidden, c.is_primary_key from rw_columns c "
        f"join rw_relations r on r.id = c.relation_id where r.name = '{name}' order by c.position"
    )


async def test_upsert_table_keyed_by_its_include_key(client: Client) -> None:
    """The form RisingWave asks for (create_source.rs:492-509's hint;
    e2e_test/source_inline/kafka/include_key_as.slt:133-150)."""
    assert (
        await client.run(
            'create table upsert_students (primary key (my_key), "ID" int, name varchar) '
            f"include key as my_key with ({KAFKA}) format upsert encode json"
        )
        == "CREATE_TABLE"
    )
    assert await client.rows("describe upsert_students") == [
        ('"ID"', "integer", "false", None),
        ("name", "character varying", "false", None),
        ("my_key", "bytea", "false", None),
        ("_rw_timestamp", "timestamp with time zone", "true", None),
        ("primary key", "my_key", None, None),
        ("distribution key", "my_key", None, None),
        ("table description", "upsert_students", None, None),
    ]
    # e2e_test/source_inline/kafka/include_key_as.slt:152-155 reads it from rw_sources
    # (the table's associated source, which rwshim does not list there)
    assert await client.rows(
        "select substring(definition, 1, position(' WITH' in definition) - 1) from rw_tables"
        " where name = 'upsert_students'"
    ) == [
        (
            'CREATE TABLE upsert_students ("ID" INT, name CHARACTER VARYING, '
            "PRIMARY KEY (my_key)) INCLUDE key AS my_key",
        )
    ]
    assert await client.run(
        "insert into upsert_students values (1, 'a', '\\x01'), (2, 'b', '\\x01')"
    ) == ("INSERT 0 2")
    await client.run("flush")
    # the key overwrites (the table's ON CONFLICT DO UPDATE FULL)
    assert await client.rows("select * from upsert_students") == [(2, "b", b"\x01")]


async def test_default_names_types_and_order(client: Client) -> None:
    assert (
        await client.run(
            "create table plain_students (a int) include key include partition "
            "include timestamp include offset as o include header "
            f"include header 'h1' include header 'h2' varchar include payload with ({KAFKA}) "
            "format plain encode json"
        )
        == "CREATE_TABLE"
    )
    assert await columns(client, "plain_students") == [
        ("a", "integer", False, False),
        ("_rw_kafka_payload", "jsonb", False, False),
        ("_rw_kafka_header_h2_varchar", "character varying", False, False),
        ("_rw_kafka_header_h1", "bytea", False, False),
        ("_rw_kafka_header", 'struct<"key" character varying, "value" bytea>[]', False, False),
        ("o", "character varying", False, False),
        ("_rw_kafka_timestamp", "timestamp with time zone", False, False),
        ("_rw_kafka_partition", "character varying", False, False),
        ("_rw_kafka_key", "bytea", False, False),
        ("_row_id", "serial", True, True),
        ("_rw_timestamp", "timestamp with time zone", True, False),
    ]
    assert await client.rows(
        "select column_name, data_type from information_schema.columns "
        "where table_name = 'plain_students' and column_name <> '_rw_kafka_header' "
        "order by ordinal_position"
    ) == [
        ("a", "integer"),
        ("_rw_kafka_payload", "jsonb"),
        ("_rw_kafka_header_h2_varchar", "character varying"),
        ("_rw_kafka_header_h1", "bytea"),
        ("o", "character varying"),
        ("_rw_kafka_timestamp", "timestamp with time zone"),
        ("_rw_kafka_partition", "character varying"),
        ("_rw_kafka_key", "bytea"),
    ]
    # the definition keeps the INCLUDE clauses and none of their columns
    assert await client.rows("show create table plain_students") == [
        (
            "public.plain_students",
            "CREATE TABLE plain_students (a INT) INCLUDE key INCLUDE partition INCLUDE "
            "timestamp INCLUDE offset AS o INCLUDE header INCLUDE header 'h1' INCLUDE header "
            "'h2' CHARACTER VARYING INCLUDE payload WITH (connector = 'kafka', topic = 't', "
            "properties.bootstrap.server = 'b:9092') FORMAT PLAIN ENCODE JSON",
        )
    ]
    # the rows have the columns; nothing produces, so they are NULL unless written
    assert await client.run("insert into plain_students (a, o) values (1, '7')") == "INSERT 0 1"
    await client.run("flush")
    assert await client.rows(
        "select a, _rw_kafka_payload, _rw_kafka_header_h2_varchar, _rw_kafka_header_h1, o, "
        "_rw_kafka_timestamp, _rw_kafka_partition, _rw_kafka_key from plain_students"
    ) == [(1, None, None, None, "7", None, None, None)]


async def test_kafka_source_hidden_columns(client: Client) -> None:
    await client.run("set streaming_use_shared_source to false")
    assert (
        await client.run(f"create source s1 (v1 int) with ({KAFKA}) format plain encode json")
        == "CREATE_SOURCE"
    )
    # the hidden _row_id last, the source's key (create_source.rs:1084-1085; its test
    # test_source_addition_columns, :1540-1600)
    assert await columns(client, "s1") == [
        ("v1", "integer", False, False),
        ("_rw_kafka_timestamp", "timestamp with time zone", True, False),
        ("_row_id", "serial", True, True),
    ]
    # a shared source also carries its partition and offset (create_source.rs:1000-1013);
    # an included timestamp or offset is not added again
    await client.run("set streaming_use_shared_source to true")
    assert (
        await client.run(
            f"create source s2 (v1 int) include timestamp as ts include offset with ({KAFKA}) "
            "format plain encode json"
        )
        == "CREATE_SOURCE"
    )
    assert await columns(client, "s2") == [
        ("v1", "integer", False, False),
        ("_rw_kafka_offset", "character varying", False, False),
        ("ts", "timestamp with time zone", False, False),
        ("_rw_kafka_partition", "character varying", True, False),
        ("_row_id", "serial", True, True),
    ]
    assert await client.rows("show create source s2") == [
        (
            "public.s2",
            "CREATE SOURCE s2 (v1 INT) INCLUDE timestamp AS ts INCLUDE offset WITH (connector "
            "= 'kafka', topic = 't', properties.bootstrap.server = 'b:9092') FORMAT PLAIN "
            "ENCODE JSON",
        )
    ]
    # ALTER SOURCE ... ADD COLUMN purifies without the INCLUDE columns
    assert await client.run("alter source s2 add column v2 int") == "ALTER_SOURCE"
    assert await client.rows("show create source s2") == [
        (
            "public.s2",
            "CREATE SOURCE s2 (v1 INT, v2 INT) INCLUDE timestamp AS ts INCLUDE offset WITH "
            "(connector = 'kafka', topic = 't', properties.bootstrap.server = 'b:9092') FORMAT "
            "PLAIN ENCODE JSON",
        )
    ]


async def test_file_and_cdc_include_columns(client: Client, cdc_upstream: Pg15) -> None:
    assert (
        await client.run(
            "create table f (a int) include file include offset with (connector = 'posix_fs', "
            "posix_fs.root = '/x') format plain encode csv (delimiter = ',')"
        )
        == "CREATE_TABLE"
    )
    assert [c[:2] for c in await columns(client, "f")][:3] == [
        ("a", "integer"),
        ("_rw_posix_fs_offset", "character varying"),
        ("_rw_posix_fs_file", "character varying"),
    ]
    assert (
        await client.run(f"create source pg (*) with ({cdc_options(cdc_upstream)})")
        == "CREATE_SOURCE"
    )
    # a shared CDC source's own columns (ColumnCatalog::debezium_cdc_source_cols,
    # src/common/src/catalog/column.rs:444-464)
    assert await columns(client, "pg") == [
        ("payload", "jsonb", False, False),
        ("_rw_offset", "character varying", True, False),
        ("_rw_table_name", "character varying", True, False),
        ("_row_id", "serial", True, True),  # create_source.rs:1505-1530
    ]
    assert (
        await client.run(
            "create table c (id int primary key, v varchar) include timestamp as commit_ts "
            "include database_name as database_name include table_name as table_name "
            "from pg table 'public.t'"
        )
        == "CREATE_TABLE"
    )
    assert [c[:2] for c in await columns(client, "c")][:5] == [
        ("id", "integer"),
        ("v", "character varying"),
        ("table_name", "character varying"),
        ("database_name", "character varying"),
        ("commit_ts", "timestamp with time zone"),
    ]


async def test_drop_connector_keeps_the_include_columns(client: Client) -> None:
    """rewrite_table_definition (alter_table_drop_connector.rs:67-125;
    e2e_test/source_inline/kafka/alter/alter_table_drop_connector.slt:16-54)."""
    assert (
        await client.run(
            'create table plain_students ("ID" int, age int) include key include partition '
            f"include timestamp with ({KAFKA}) format plain encode json"
        )
        == "CREATE_TABLE"
    )
    assert await client.run("alter table plain_students drop connector") == "ALTER_TABLE"
    assert await client.rows("show create table plain_students") == [
        (
            "public.plain_students",
            'CREATE TABLE plain_students ("ID" INT, age INT, _rw_kafka_timestamp TIMESTAMP '
            "WITH TIME ZONE, _rw_kafka_partition CHARACTER VARYING, _rw_kafka_key BYTEA)",
        )
    ]
