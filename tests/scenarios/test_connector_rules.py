"""CREATE SOURCE / CREATE TABLE with a connector: the statements RisingWave refuses before it
contacts anything, with its whole texts (src/frontend/src/handler/create_source.rs,
create_source/validate.rs, create_source/additional_column.rs, create_source/
external_schema.rs, create_table.rs; src/connector/src/parser/additional_columns.rs at
448c657; e2e_test/source_inline/kafka/include_key_as.slt for the UPSERT texts)."""

from __future__ import annotations

from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause
from tests.scenarios.pg15 import Pg15, cdc_options

KAFKA = "connector = 'kafka', topic = 't', properties.bootstrap.server = 'b:9092'"
PG_CDC = (
    "connector = 'postgres-cdc', hostname = 'h', port = '5432', username = 'u', "
    "password = 'p', database.name = 'd'"
)


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


def two(first: str, second: str) -> str:
    return (
        f"\n\nCaused by these errors (recent errors listed first):\n  1: {first}\n  2: {second}\n"
    )


def hint(fmt: str, enc: str) -> str:
    """hint_format_encode (create_source.rs:492-509)."""
    return (
        f"Hint: For FORMAT {fmt} ENCODE {enc}, INCLUDE KEY must be specified and the key column "
        "must be used as primary key.\nexample:\n"
        "    CREATE TABLE <table_name> ( PRIMARY KEY ([rw_key | <key_name>]) )\n"
        "    INCLUDE KEY [AS <key_name>]\n"
        "    WITH (...)\n"
        f"    FORMAT {fmt} ENCODE {enc}\n"
    )


CONNECTORS = (
    '["kafka", "pulsar", "kinesis", "google_pubsub", "nexmark", "datagen", "s3_v2", "gcs", '
    '"azblob", "posix_fs", "__for_testing_only_batch_posix_fs", "mysql-cdc", "postgres-cdc", '
    '"mongodb-cdc", "nats", "mqtt", "test", "iceberg", "adbc_snowflake", "sqlserver-cdc"]'
)

REFUSED: list[tuple[str, str]] = [
    # --- the statement (create_source.rs:1168-1183; validate.rs:130-132)
    (
        "create source s (a int) format plain encode json",
        one("Invalid input syntax: missing WITH clause"),
    ),
    (
        "create source s (a int) with (topic = 't') format plain encode json",
        one("Protocol error: missing field 'connector'"),
    ),
    (
        "create source __iceberg_source_x (a int) with (connector = 'datagen')",
        one(
            "Invalid input syntax: Source name cannot start with reserved prefix "
            "'__iceberg_source_'"
        ),
    ),
    (
        "create table t (v int) with (connector = 'nexmark', nexmark.table.type = 'Bids')",
        one("Protocol error: unsupported table type for nexmark source: bids"),
    ),
    (
        "create table t (id varchar, payload jsonb) with (connector = 'mongodb-cdc', "
        "mongodb.url = 'mongodb://m', collection.name = 'd.c')",
        one(
            "Protocol error: the not generated columns of the source with row format "
            "DebeziumMongoJson\n        must be (_id [Jsonb | Varchar | Int32 | Int64], "
            "payload jsonb)."
        ),
    ),
    # --- FORMAT UPSERT: the key is the INCLUDE KEY column (create_source.rs:553-586)
    (
        f"create table t (a int primary key) include key as rw_key with ({KAFKA}) "
        "format upsert encode json",
        one(
            'Protocol error: Only "rw_key" can be used as primary key\n\n' + hint("UPSERT", "JSON")
        ),
    ),
    (
        f"create table t (a int) include key as rw_key with ({KAFKA}) format upsert encode json",
        one(f"Protocol error: Primary key must be specified to rw_key\n\n{hint('UPSERT', 'JSON')}"),
    ),
    (
        f"create table t (a int primary key) with ({KAFKA}) format upsert encode json",
        one(f"Protocol error: INCLUDE KEY clause not set\n\n{hint('UPSERT', 'JSON')}"),
    ),
    (
        f"create source s (a int) with ({KAFKA}) format upsert encode json",
        one(f"Protocol error: INCLUDE KEY clause not set\n\n{hint('UPSERT', 'JSON')}"),
    ),
    # --- FORMAT DEBEZIUM (create_source.rs:588-602, :908-917)
    (
        f"create table t (a int) with ({KAFKA}) format debezium encode json",
        one(
            "Protocol error: Primary key must be specified when creating source with "
            "FORMAT DEBEZIUM."
        ),
    ),
    (
        f"create table t (a int primary key) include offset with ({KAFKA}) "
        "format debezium encode json",
        one(
            "Protocol error: FORMAT DEBEZIUM forbids additional columns, but got "
            '["_rw_kafka_offset"]'
        ),
    ),
    (
        f"create source s (a int primary key) with ({KAFKA}) format debezium encode json",
        one(
            "Bind error: can't CREATE SOURCE with FORMAT DEBEZIUM.\n\nHint: use CREATE TABLE "
            f"instead\n\n{hint('DEBEZIUM', 'JSON')}"
        ),
    ),
    (
        f"create table t (a int primary key) append only with ({KAFKA}) format upsert encode json",
        one("Bind error: Append only table does not support format UPSERT."),
    ),
    # --- the format a connector implies (src/sqlparser/src/ast/statement.rs:243-291)
    (
        f"create table t (a int primary key) with ({PG_CDC}) format plain encode json",
        "\n\nCaused by:\n  sql parser error: Row format for CDC connectors should be either "
        "omitted or set to `FORMAT DEBEZIUM ENCODE JSON`\n"
        f"LINE 1: create table t (a int primary key) with ({PG_CDC}) format plain encode json\n"
        + " "
        * (
            len(
                f"LINE 1: create table t (a int primary key) with ({PG_CDC}) format plain "
                "encode json"
            )
        )
        + "^\n",
    ),
    (
        "create source s (a int) with (connector = 'webhook')",
        "\n\nCaused by:\n  sql parser error: Source with webhook connector is not supported. "
        "Please use the `CREATE TABLE ... WITH ...` statement instead.\n"
        "LINE 1: create source s (a int) with (connector = 'webhook')\n"
        + " " * len("LINE 1: create source s (a int) with (connector = 'webhook')")
        + "^\n",
    ),
    # --- validate_compatibility (create_source/validate.rs:126-287)
    (
        "create table t (a int) with (connector = 'nope') format plain encode json",
        one(f'Protocol error: connector "nope" is not supported, accept {CONNECTORS}'),
    ),
    (
        "create table t (a int) with (connector = 'datagen') format upsert encode json",
        one("Protocol error: connector datagen does not support format Upsert"),
    ),
    (
        "create table t (a int) with (connector = 'posix_fs', posix_fs.root = '/x') "
        "format plain encode bytes",
        one("Protocol error: connector posix_fs does not support format Plain with encode Bytes"),
    ),
    (
        "create table t (a int) with (connector = 'pulsar', topic = 't') format plain encode "
        "avro (schema.registry = 'http://r')",
        one("Protocol error: The connector must be kafka when schema registry is used"),
    ),
    (
        "create table t (a int) with (connector = 's3_v2') format plain encode json",
        one("s3_v2 has been deprecated, please use s3 instead."),
    ),
    (
        f"create source s with ({PG_CDC}, slot.name = 'Bad-Slot')",
        one(
            'Protocol error: Invalid replication slot name: "Bad-Slot". Valid replication slot '
            "name must contain only digits, lowercase characters and underscores with length "
            "<= 63"
        ),
    ),
    (
        f"create source s with ({PG_CDC}, debezium.max.queue.size = 'lots')",
        one("Invalid value `lots` for `debezium.max.queue.size`"),
    ),
    (
        f"create source s with ({PG_CDC}, auto.schema.change = 'yes')",
        one("Invalid input syntax: invalid value of 'auto.schema.change' option"),
    ),
    (
        f"create table t (a int primary key) with ({PG_CDC}, table.name = 't')",
        one(
            "Protocol error: directly creating a CDC table for connector postgres-cdc is no "
            "longer supported; please `CREATE SOURCE` to create a shared CDC source first, then "
            "`CREATE TABLE ... FROM <source> TABLE '<database>.<table>'`"
        ),
    ),
    # --- refresh modes (src/frontend/src/utils/with_options.rs:434-510)
    (
        "create source s (a int) with (connector = 's3', refresh_mode = 'FULL_RELOAD') "
        "format plain encode json",
        one("Protocol error: `refresh_mode` only supported for CREATE TABLE"),
    ),
    (
        "create table t (a int) with (connector = 's3', refresh_mode = 'sometimes') "
        "format plain encode json",
        one(
            "Invalid parameter value: Invalid key `refresh_mode`: sometimes, accepted values "
            "are 'STREAMING' and 'FULL_RELOAD'"
        ),
    ),
    (
        "create table t (a int) with (connector = 's3', refresh_interval_sec = 'x') "
        "format plain encode json",
        one(
            "Invalid parameter value: `refresh_interval_sec` must be a positive integer and "
            "larger than 0, but got: x (error: invalid digit found in string)"
        ),
    ),
    (
        "create table t (a int) with (connector = 's3', refresh_interval_sec = '60') "
        "format plain encode json",
        one(
            "Invalid parameter value: `refresh_interval_sec` is not allowed when `refresh_mode` "
            "is not 'FULL_RELOAD'"
        ),
    ),
    (
        f"create table t (a int) with ({KAFKA}, refresh_mode = 'full_reload') "
        "format plain encode json",
        one(
            "Invalid parameter value: FULL_RELOAD refresh mode is only supported for "
            "connectors: s3, gcs, __for_testing_only_batch_posix_fs, iceberg, adbc_snowflake, "
            "but got: kafka"
        ),
    ),
    (
        "create table t (a int) with (connector = '__for_testing_only_batch_posix_fs') "
        "format plain encode csv (delimiter = ',')",
        one(
            "Invalid parameter value: Refreshable source __for_testing_only_batch_posix_fs must "
            "be refreshed with 'FULL_RELOAD' refresh mode. Please set `refresh_mode` to "
            "'FULL_RELOAD'."
        ),
    ),
    (
        "create source s (a int) with (connector = '__for_testing_only_batch_posix_fs') "
        "format plain encode csv (delimiter = ',')",
        one(
            "Invalid parameter value: Refreshable source __for_testing_only_batch_posix_fs must "
            "be refreshed with 'FULL_RELOAD' refresh mode. Please set `refresh_mode` to "
            "'FULL_RELOAD'."
        ),
    ),
    # --- FORMAT ... ENCODE options read before any schema (external_schema.rs:92-359)
    (
        f"create table t (a int) with ({KAFKA}) format plain encode avro",
        one("Protocol error: missing either a schema location or a schema registry"),
    ),
    (
        f"create table t (a int) with ({KAFKA}) format plain encode protobuf "
        "(schema.registry = 'http://r')",
        one("Protocol error: missing field message in options"),
    ),
    (
        "create table t (a int) with (connector = 'posix_fs', posix_fs.root = '/x') "
        "format plain encode csv (without_header = 'true')",
        one("Protocol error: missing field delimiter in options"),
    ),
    (
        "create table t (a int) with (connector = 'posix_fs', posix_fs.root = '/x') "
        "format plain encode csv (delimiter = '|')",
        two(
            "failed to parse delimiter",
            "The delimiter should be one of ',', ';', E'\\t', but got \"|\"",
        ),
    ),
    (
        f"create table t (a int) with ({KAFKA}) format plain encode csv (delimiter = ',')",
        one("Protocol error: CSV HEADER is not supported when creating table with Kafka connector"),
    ),
    (
        f"create table t (a int) with ({KAFKA}) format plain encode json "
        "(schema.location = 'file:///x', schema.registry = 'http://r')",
        one("Protocol error: only need either the schema location or the schema registry"),
    ),
    (
        f"create table t (a int) with ({KAFKA}) format plain encode json "
        "(timestamptz.handling.mode = 'nanos')",
        one("Invalid input syntax: unrecognized timestamptz.handling.mode value nanos"),
    ),
    # --- columns (create_source.rs:1202-1210, :339-488, :989-993)
    (
        f"create source s (a int not null) with ({KAFKA}) format plain encode json",
        one("Invalid input syntax: NOT NULL constraint is not supported in source schema"),
    ),
    (
        f"create table t (a int) with ({KAFKA}) format plain encode bytes",
        one("Protocol error: ENCODE BYTES only accepts one BYTEA type column"),
    ),
    (
        f"create source s (*, a int) with ({KAFKA}) format plain encode json",
        one(
            "Not supported: Wildcard in user-defined schema is only allowed when there exists "
            "columns from external schema\nHINT: Remove the wildcard or use a source with "
            "external schema"
        ),
    ),
    (
        f"create table t with ({KAFKA}) format plain encode json",
        one("Protocol error: Schema definition is required, either from SQL or schema registry."),
    ),
    # --- columns RisingWave reads from an external schema: rwshim reaches none
    (
        f"create source s with ({KAFKA}) format plain encode avro (schema.registry = 'http://r')",
        one(
            "rwshim reaches no schema registry: reading a source's or table's schema from one "
            "(REFRESH SCHEMA, FORMAT ... ENCODE ... with a registry) is not emulated"
        ),
    ),
    (
        "create table t with (connector = 'iceberg', warehouse.path = 's3://w', "
        "database.name = 'd', table.name = 't')",
        one(
            "rwshim reaches no iceberg catalog: a source or table whose columns are read from "
            "one is not emulated"
        ),
    ),
    # --- watermarks on a source (create_source.rs:1087-1107)
    (
        f"create source s (a int, ts timestamp, watermark for ts as ts - interval '1' second "
        f"with ttl) with ({KAFKA}) format plain encode json",
        one(
            "Not supported: WITH TTL is not supported in WATERMARK clause for CREATE SOURCE.\n"
            "HINT: Use `CREATE TABLE ... WATERMARK ... WITH TTL` instead."
        ),
    ),
    (
        f"create source s (a int primary key, ts timestamp, watermark for ts as ts) "
        f"with ({KAFKA}) format plain encode json",
        one(
            "Not supported: Defining watermarks on source requires the source connector to be "
            "append only.\nHINT: Use the key words `FORMAT PLAIN`"
        ),
    ),
    # --- INCLUDE (additional_column.rs, additional_columns.rs; create_table.rs:2220-2244)
    (
        "create table t (a int) include key",
        one("Invalid input syntax: INCLUDE should be used with a connector"),
    ),
    (
        "create source s (a int) include offset with (connector = 'datagen')",
        one(
            "Protocol error: Connector datagen accepts no additional column but got "
            '[IncludeOptionItem { column_type: Ident { value: "offset", quote_style: None }, '
            "column_alias: None, inner_field: None, header_inner_expect_type: None }]"
        ),
    ),
    (
        f"create table t (a int) include timestamp 'h' as ts with ({KAFKA}) "
        "format plain encode json",
        one('Protocol error: Only header column can have inner field, but got "timestamp"'),
    ),
    (
        f"create table t (a bytea) include payload with ({KAFKA}) format plain encode bytes",
        one(
            "Protocol error: INCLUDE payload is only allowed when using ENCODE JSON, but got "
            "ENCODE Bytes"
        ),
    ),
    (
        f"create table t (a int) include header 'h' int with ({KAFKA}) format plain encode json",
        one("Bind error: invalid additional column data type: integer"),
    ),
    (
        f"create table t (a int) include file with ({KAFKA}) format plain encode json",
        two(
            "connector error",
            "additional column type file is not supported for connector kafka, acceptable "
            'column types: {"key", "timestamp", "partition", "offset", "header", "payload"}',
        ),
    ),
    (
        f"create table t (a int) include key as a with ({KAFKA}) format plain encode json",
        one('Invalid input syntax: column "a" specified more than once'),
    ),
]

REFUSED += [
    # a shared CDC source's columns are the debezium ones (create_source.rs:261-301)
    (
        f"create source s (a int) with ({PG_CDC})",
        one('Protocol error: Column "a" is defined in SQL but not found in the source'),
    ),
    (
        f"create source s (payload int) with ({PG_CDC})",
        one(
            'Protocol error: Data type mismatch for column "payload". Defined in SQL as '
            '"integer", but found in the source as "jsonb"'
        ),
    ),
    (
        f"create source s (*, payload jsonb) with ({PG_CDC})",
        one(
            'Not supported: When there\'s a wildcard ("*"), only generated columns are allowed '
            "in user-defined schema from SQL\nHINT: Remove the non-generated columns"
        ),
    ),
]

# Tables on a shared CDC source (create_table.rs:1378-1617); the source is ``pg``.
REFUSED_ON_CDC: list[tuple[str, str]] = [
    (
        "create table t (a int, b int) from pg table 'public.t'",
        one(
            "Not supported: CDC table without primary key constraint is not supported\n"
            "HINT: Please define a primary key"
        ),
    ),
    (
        "create table t (a int primary key, b int not null) from pg table 'public.t'",
        one(
            "Not supported: CDC table with NOT NULL constraint is not supported\n"
            "HINT: Please remove the NOT NULL constraint for columns"
        ),
    ),
    (
        "create table t (a int primary key, c int as a + 1, b int) from pg table 'public.t'",
        one(
            "Not supported: Non-generated column found after a generated column.\n"
            "HINT: Ensure that all generated columns appear at the end of the cdc table "
            "definition."
        ),
    ),
    (
        "create table t (a int primary key) append only from pg table 'public.t'",
        one(
            "Not supported: append only modifier on the table created from a CDC source\n"
            "HINT: Remove the APPEND ONLY clause"
        ),
    ),
    (
        "create table t (a int primary key, b int default 1) from pg table 'public.t'",
        one(
            "Not supported: Default value for columns defined on the table created from a CDC "
            "source\nHINT: Remove the default value expression in the column definitions"
        ),
    ),
    (
        "create table t (a int primary key) from pg table 't'",
        one("The upstream table name must contain schema name prefix, e.g. 'public.table'"),
    ),
    (
        "create table t (a int primary key) include offset from pg table 'public.t'",
        two(
            "connector error",
            "additional column type offset is not supported for connector postgres-cdc, "
            'acceptable column types: {"timestamp", "database_name", "schema_name", '
            '"table_name"}',
        ),
    ),
    (
        # bind_cdc_table_schema_externally (create_table.rs:1619-1644) reads the columns
        # upstream (PostgresExternalTable::connect, connector_common/postgres.rs:365-371)
        "create table t (*) include timestamp as ts from pg table 'public.missing'",
        two(
            "failed to auto derive table schema",
            "PostgreSQL table `public`.`missing` does not exist",
        ),
    ),
    (
        "create table t (a int primary key) from nope table 'public.t'",
        two("Catalog error", "source not found: nope"),
    ),
]


async def test_refused_before_contact(client: Client) -> None:
    for sql, text in REFUSED:
        assert await cause(client, sql) == ("XX000", text), sql
    assert await client.rows("select count(*) from rw_relations where name in ('s', 't')") == [(0,)]


async def test_refused_on_a_cdc_source(client: Client, cdc_upstream: Pg15) -> None:
    # the source is made against a real upstream (RisingWave validates it); the tables are
    # refused before anything contacts it
    options = cdc_options(cdc_upstream)
    assert await client.run(f"create source pg (*) with ({options})") == "CREATE_SOURCE"
    for sql, text in REFUSED_ON_CDC:
        code = "42704" if "nope" in sql else "XX000"
        assert await cause(client, sql) == (code, text), sql


async def test_notices(client: Client, cdc_upstream: Pg15) -> None:
    """NOT NULL on a table with connector (create_table.rs:490-500) and FORMAT UPSERT on a
    source (create_source.rs:919-924) are accepted with a notice."""
    await client.notices()
    assert (
        await client.run(f"create table t (a int not null) with ({KAFKA}) format plain encode json")
        == "CREATE_TABLE"
    )
    assert await client.notices() == [
        (
            "NOTICE",
            "00000",
            "The table contains columns with NOT NULL constraints. Any rows from upstream "
            "violating the constraints will be ignored silently.",
        )
    ]
    # a shared CDC source without columns nor `*` (create_source.rs:303-321)
    assert (
        await client.run(f"create source pg with ({cdc_options(cdc_upstream)})") == "CREATE_SOURCE"
    )
    assert await client.notices() == [
        (
            "NOTICE",
            "00000",
            'Neither wildcard ("*") nor regular (non-generated) columns appear in the '
            "user-defined schema from SQL. For backward compatibility, all columns from the "
            "source will be included at the beginning. For clarity, consider adding a wildcard "
            '("*") to indicate where the columns from the source should be included, or '
            "specifying the columns you want to include from the source.\n" + " " * 24,
        )
    ]
    # options no step reads (external_schema.rs:343-356)
    assert (
        await client.run(
            f"create table t2 (a int) with ({KAFKA}) format plain encode json "
            "(timestamptz.handling.mode = 'milli', zeta = '1', alpha = '2')"
        )
        == "CREATE_TABLE"
    )
    assert await client.notices() == [
        ("NOTICE", "00000", "Get unknown format_encode_options for Plain Json: alpha,zeta")
    ]
    assert (
        await client.run(
            f"create source s (a int, primary key (k)) include key as k with ({KAFKA}) "
            "format upsert encode json"
        )
        == "CREATE_SOURCE"
    )
    assert await client.notices() == [
        (
            "NOTICE",
            "00000",
            "Streaming queries on sources with `FORMAT UPSERT` may have limitations. If your "
            "query isn't supported, consider using `CREATE TABLE` instead.",
        )
    ]
