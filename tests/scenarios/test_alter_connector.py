"""ALTER {SOURCE | TABLE | SINK} ... CONNECTOR WITH, ALTER TABLE ... DROP CONNECTOR / REFRESH
SCHEMA and ALTER SOURCE ... REFRESH SCHEMA / FORMAT ... ENCODE / RESET over real connections
(src/frontend/src/handler/alter_source_props.rs, alter_table_props.rs, alter_sink_props.rs,
alter_table_drop_connector.rs, alter_table_with_sr.rs, alter_source_with_sr.rs,
reset_source.rs; meta controller/streaming_job.rs; connector allow_alter_on_fly_fields.rs;
e2e_test/source_inline/kafka/alter/alter_connector_props.slt and
e2e_test/sink/kafka/alter_kafka_sink_props.slt for the texts)."""

from __future__ import annotations

from tests.conftest import Running
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

KAFKA = "connector = 'kafka', topic = 't', properties.bootstrap.server = 'b:9092'"
NO_ISSUE = (
    "No tracking issue yet. Feel free to submit a feature request at "
    "https://github.com/risingwavelabs/risingwave/issues/new?labels=type%2Ffeature"
    "&template=feature_request.yml"
)


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


def meta(text: str) -> str:
    return (
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: gRPC request to meta service (call `/meta.StreamManagerService/"
        "AlterConnectorProps`) failed: Internal error\n"
        f"  2: {text}\n"
    )


async def test_table_connector_props(client: Client) -> None:
    assert await client.run("create secret s1 with (backend = 'meta') as 'x'") == "CREATE_SECRET"
    assert await client.run("create secret s2 with (backend = 'meta') as 'y'") == "CREATE_SECRET"
    assert (
        await client.run(
            "create connection conn with (type = 'kafka', properties.bootstrap.server = 'b:9092',"
            " properties.security.protocol = 'plaintext')"
        )
        == "CREATE_CONNECTION"
    )
    assert (
        await client.run(
            "create table by_conn (v int) with (connector = 'kafka', connection = conn, "
            "topic = 't') format plain encode json"
        )
        == "CREATE_TABLE"
    )
    assert await cause(
        client, "alter table by_conn connector with (properties.security.protocol = 'sasl_ssl')"
    ) == (
        "XX000",
        one("Invalid input syntax: Cannot alter connector properties that are set by CONNECTION.."),
    )
    assert (
        await client.run(
            f"create table tk (v int) with ({KAFKA}, properties.receive.message.max.bytes = "
            "secret s1) format plain encode json"
        )
        == "CREATE_TABLE"
    )
    assert await cause(client, "alter table tk connector with (topic = secret s2)") == (
        "XX000",
        meta("Field 'topic' is not allowed to be altered on the fly for connector: kafka"),
    )
    assert (
        await client.run(
            "alter table tk connector with (properties.receive.message.max.bytes = secret s2)"
        )
        == "ALTER_TABLE"
    )
    # the definition is WITH rebuilt as meta prints it: plain options then secrets, by key
    assert await client.rows("select definition from rw_tables where name = 'tk'") == [
        (
            "CREATE TABLE tk (v INT) WITH (\"connector\" = '''kafka''', "
            "properties.bootstrap.server = '''b:9092''', topic = '''t''', "
            'properties.receive."message"."max".bytes = \'SECRET s2\') '
            "FORMAT PLAIN ENCODE JSON",
        )
    ]
    # s1 is no longer referenced; s2 is
    assert await client.run("drop secret s1") == "DROP_SECRET"
    assert await cause(client, "drop secret s2") == (
        "XX000",
        one(
            "Permission denied: secret used by 1 other objects. \n"
            "DETAIL: materialized view public.tk depends on it\n"
            "HINT: DROP the dependent objects first."
        ),
    )
    assert await client.run("create table plain (v int)") == "CREATE_TABLE"
    assert await cause(client, "alter table plain connector with (topic = 'x')") == (
        "XX000",
        one(
            "Invalid input syntax: Only table with connector can use ALTER TABLE CONNECTOR syntax."
        ),
    )
    assert await cause(client, "alter source tk connector with (topic = 'x')") == (
        "XX000",
        one("Invalid input syntax: Use `ALTER TABLE` to alter a table with connector."),
    )
    assert await cause(client, "alter table tk connector with (connection = conn)") == (
        "XX000",
        one("Invalid input syntax: ALTER SOURCE CONNECTOR does not support CONNECTION"),
    )


async def test_source_connector_props(client: Client) -> None:
    assert (
        await client.run(f"create source src (v int) with ({KAFKA}) format plain encode json")
        == "CREATE_SOURCE"
    )
    assert (
        await client.run(
            "alter source src connector with (properties.client.id = 'me', group.id.prefix = 'g')"
        )
        == "ALTER_SOURCE"
    )
    assert await client.rows("select definition from rw_sources where name = 'src'") == [
        (
            "CREATE SOURCE src (v INT) WITH (\"connector\" = '''kafka''', "
            "\"group\".id.prefix = '''g''', properties.bootstrap.server = '''b:9092''', "
            "properties.client.id = '''me''', topic = '''t''') FORMAT PLAIN ENCODE JSON",
        )
    ]
    assert await cause(client, "alter source src connector with (connector = 'pulsar')") == (
        "XX000",
        one(
            "Invalid parameter value: Invalid parameter: Cannot change connector type from "
            "'kafka' to 'pulsar'. Drop and recreate the source instead."
        ),
    )
    assert (
        await client.run(
            "create source gen (v int) with (connector = 'datagen') format plain encode json"
        )
        == "CREATE_SOURCE"
    )
    assert await cause(client, "alter source gen connector with (x = '1')") == (
        "XX000",
        meta("No allow_alter_on_fly fields registered for connector: datagen"),
    )
    assert await cause(client, "alter source nope connector with (x = '1')") == (
        "42704",
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: Catalog error\n  2: source not found: nope\n",
    )


async def test_sink_connector_props(client: Client, server: Running) -> None:
    assert await client.run("create table t (v int)") == "CREATE_TABLE"
    sink = (
        "create sink sk from t with (connector = 'kafka', topic = 'x', "
        "properties.bootstrap.server = 'b:9092', type = 'append-only', force_append_only = 'true')"
    )
    assert await run_ticking(client, server, sink) == "CREATE_SINK"
    assert await cause(client, "alter sink sk connector with (topic = 'y')") == (
        "XX000",
        meta(
            "Sink error: config error: Field 'topic' is not allowed to be altered on the fly "
            "for sink: kafka"
        ),
    )
    assert (
        await client.run(
            "alter sink sk connector with "
            "(properties.batch.size = '10', properties.client.id = 'c')"
        )
        == "ALTER_SINK"
    )
    # the sink's WITH keeps its order; the new options come last
    assert await client.rows("select definition from rw_sinks where name = 'sk'") == [
        (
            "CREATE SINK sk FROM t WITH (connector = 'kafka', topic = 'x', "
            "properties.bootstrap.server = 'b:9092', type = 'append-only', "
            "force_append_only = 'true', properties.batch.size = '10', "
            "properties.client.id = 'c')",
        )
    ]
    bh = "create sink bh from t with (connector = 'blackhole')"
    assert await run_ticking(client, server, bh) == "CREATE_SINK"
    assert await cause(client, "alter sink bh connector with (x = '1')") == (
        "XX000",
        meta(
            "Sink error: config error: No allow_alter_on_fly fields registered for sink: blackhole"
        ),
    )
    assert await client.run("create table target (v int)") == "CREATE_TABLE"
    # a row-id target takes append-only sinks only (stream_sink.rs:334-342, basic.slt:51)
    into = (
        "create sink si into target from t with (type = 'append-only', force_append_only = 'true')"
    )
    assert await run_ticking(client, server, into) == "CREATE_SINK"
    assert await cause(client, "alter sink si connector with (x = '1')") == (
        "XX000",
        one("Invalid input syntax: ALTER SINK CONNECTOR is not for SINK INTO TABLE"),
    )


async def test_drop_connector_keeps_the_rows(client: Client) -> None:
    # retention_seconds on a table that is not append only needs this (create_table.rs:789-810)
    await client.run("set unsafe_enable_storage_retention_for_non_append_only_tables to true")
    # FORMAT PLAIN: FORMAT UPSERT needs its key to be the INCLUDE KEY column
    # (create_source.rs:553-586; tests/connectors/test_rules.py)
    assert (
        await client.run(
            f"create table tk (v int primary key) with ({KAFKA}, retention_seconds = 5) "
            "format plain encode json"
        )
        == "CREATE_TABLE"
    )
    assert await client.run("insert into tk values (1)") == "INSERT 0 1"
    assert await client.run("alter table tk drop connector") == "ALTER_TABLE"
    assert await client.rows("show create table tk") == [
        ("public.tk", "CREATE TABLE tk (v INT PRIMARY KEY) WITH (retention_seconds = 5)")
    ]
    assert await client.run("insert into tk values (2)") == "INSERT 0 1"
    await client.run("flush")
    assert await client.rows("select v from tk order by v") == [(1,), (2,)]
    assert await cause(client, "alter table tk drop connector") == (
        "XX000",
        one("Protocol error: Table tk is not associated with a connector"),
    )
    assert await cause(client, "alter table tk connector with (topic = 'x')") == (
        "XX000",
        one(
            "Invalid input syntax: Only table with connector can use ALTER TABLE CONNECTOR syntax."
        ),
    )


async def test_schema_registry_forms(client: Client) -> None:
    assert (
        await client.run(f"create source src (v int) with ({KAFKA}) format plain encode json")
        == "CREATE_SOURCE"
    )
    assert (
        await client.run(
            f"create source sra (v int) with ({KAFKA}) format plain encode avro "
            "(schema.registry = 'http://r')"
        )
        == "CREATE_SOURCE"
    )
    assert (
        await client.run(f"create table tk (v int) with ({KAFKA}) format plain encode json")
        == "CREATE_TABLE"
    )
    no_registry = (
        "rwshim reaches no schema registry: reading a source's or table's schema from one "
        "(REFRESH SCHEMA, FORMAT ... ENCODE ... with a registry) is not emulated"
    )
    cases = [
        (
            "alter table tk refresh schema",
            "Not supported: tables without schema registry cannot be refreshed\n"
            "HINT: try `ALTER TABLE .. ADD/DROP COLUMN ...` instead",
        ),
        (
            "alter source src refresh schema",
            "Not supported: altering a source without schema registry\n"
            "HINT: try `ALTER SOURCE .. ADD COLUMN ...` instead",
        ),
        (
            "alter source src format upsert encode json",
            "Feature is not yet implemented: the original definition is FORMAT Plain ENCODE "
            f"Json, and altering them is not supported yet\n{NO_ISSUE}",
        ),
        (
            "alter source tk format plain encode json",
            "Not supported: alter table with connector using ALTER SOURCE statement\n"
            "HINT: try to use ALTER TABLE instead",
        ),
        ("alter source sra refresh schema", no_registry),
        ("alter source sra format plain encode avro (schema.registry = 'http://s')", no_registry),
    ]
    for sql, text in cases:
        assert await cause(client, sql) == ("XX000", one(text)), sql


async def test_reset_source(client: Client) -> None:
    assert (
        await client.run(f"create source src (v int) with ({KAFKA}) format plain encode json")
        == "CREATE_SOURCE"
    )
    assert (
        await client.run(
            "create source cdc with (connector = 'mysql-cdc', hostname = 'h', port = '3306', "
            "username = 'u', password = 'p', database.name = 'd', server.id = '1')"
        )
        == "CREATE_SOURCE"
    )
    assert await cause(client, "alter source src reset") == (
        "XX000",
        one(
            "Not supported: RESET SOURCE only supports CDC sources\n"
            "HINT: This operation is only for CDC sources when offset has expired"
        ),
    )
    assert await client.run("alter source cdc reset") == "ALTER_SOURCE"
