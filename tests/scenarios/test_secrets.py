"""CREATE / ALTER / DROP SECRET and CONNECTION, and the references sources, sinks and tables
make to them, over real connections (src/frontend/src/handler/create_secret.rs,
alter_secret.rs, drop_secret.rs, create_connection.rs, drop_connection.rs,
alter_connection_props.rs, utils/with_options.rs; catalogs rw_secrets.rs, rw_connections.rs,
rw_sources.rs, pg_class.rs; meta controller/utils.rs check_object_refer_for_drop)."""

from __future__ import annotations

import json

from tests.conftest import Running
from tests.scenarios.conftest import Connect
from tests.scenarios.drivers import Client
from tests.scenarios.helpers import cause, run_ticking

VALUE = "hunter2-0123456789"
SECRET = f"create secret s with (backend = 'meta') as '{VALUE}'"
CONNECTION = (
    "create connection c with (type = 'kafka', properties.bootstrap.server = 'b:9092', "
    "properties.sasl.password = secret s)"
)
SOURCE = (
    "create source src (v int) with (connector = 'kafka', connection = c, topic = 't') "
    "format plain encode json"
)
# acl as text: asyncpg cannot introspect a varchar[] column (as against RisingWave)
ROOT_ACL = "{root=U/root,postgres=U/root,rwadmin=U/root}"


def jsonb(value: object) -> object:
    """A jsonb value as either driver returns it (psycopg decodes it, asyncpg gives text)."""
    return json.loads(value) if isinstance(value, str) else value


def one(text: str) -> str:
    return f"\n\nCaused by:\n  {text}\n"


def catalog(text: str) -> str:
    return (
        "\n\nCaused by these errors (recent errors listed first):\n"
        f"  1: Catalog error\n  2: {text}\n"
    )


async def test_create_secret_and_what_the_catalogs_show(client: Client) -> None:
    assert await client.run(SECRET) == "CREATE_SECRET"
    rows = await client.rows("select id, schema_id, name, owner, acl::varchar from rw_secrets")
    assert len(rows) == 1
    _, schema_id, name, owner, acl = rows[0]
    assert (schema_id, name, owner, acl) == (2, "s", 1, ROOT_ACL)
    assert await client.rows("show secrets") == [("public.s",)]
    assert await client.rows("show secrets like 'x%'") == []
    # the value is in no catalog: every pg_catalog, information_schema and rw_catalog
    # relation, read whole (through psycopg: asyncpg cannot introspect some catalogs' array
    # columns, as against RisingWave)
    relations = (
        []
        if client.name == "asyncpg"
        else await client.rows(
            "select s.name, r.name from rw_relations r join rw_schemas s on s.id = r.schema_id "
            "where s.name in ('pg_catalog', 'information_schema', 'rw_catalog') order by 1, 2"
        )
    )
    assert client.name == "asyncpg" or len(relations) > 100
    for schema, rel in relations:
        text = str(await client.rows(f"select * from {schema}.{rel}"))
        assert VALUE not in text, rel
    # a name apart from relations: a table may be called s too
    assert await client.run("create table s (v int)") == "CREATE_TABLE"
    f = await cause(client, SECRET)
    assert f[1] == catalog("secret named s already exists")
    assert await client.run(SECRET.replace("secret s", "secret if not exists s")) == (
        "CREATE_SECRET"
    )
    assert await client.notices() == [("NOTICE", "00000", 'secret "s" exists, skipping')]


async def test_create_secret_refusals(client: Client) -> None:
    for sql, text in (
        (
            "create secret s2 as 'x'",
            "Invalid parameter value: secret backend is not specified in with clause. "
            "Supported backends are: meta,hashicorp_vault",
        ),
        (
            "create secret s2 with (backend = 'vault9') as 'x'",
            'Invalid parameter value: secret backend "vault9" is not supported. '
            "Supported backends are: meta,hashicorp_vault",
        ),
        (
            "create secret s2 with (backend = 'meta') as 42",
            "Invalid input syntax: secret value should be quoted by ' or \" ",
        ),
        (
            "create secret s2 with (backend = 'meta')",
            "Invalid input syntax: secret value should be quoted by ' or \" ",
        ),
        (
            "create secret s2 with (backend = 'hashicorp_vault') as 'x'",
            "Invalid parameter value: credential must be null for hashicorp_vault backend",
        ),
    ):
        f = await cause(client, sql)
        assert f[1] == one(text), sql
    assert await client.run(SECRET) == "CREATE_SECRET"
    f = await cause(client, "create secret s2 with (backend = 'meta', k = secret s) as 'x'")
    assert f[1] == one(
        "Invalid parameter value: Secret references are not allowed when creating a secret"
    )
    # a double-quoted value is a string value too
    assert await client.run("create secret s3 with (backend = 'meta') as \"x\"") == (
        "CREATE_SECRET"
    )
    assert await client.rows("select name from rw_secrets order by id") == [("s",), ("s3",)]


async def test_alter_secret(client: Client, client_factory: Connect) -> None:
    assert await client.run(SECRET) == "CREATE_SECRET"
    assert await client.run("alter secret s as 'new-value'") == "ALTER_SECRET"
    assert await client.run("alter secret s with (backend = 'meta') as 'v3'") == "ALTER_SECRET"
    assert await client.run("alter secret nope as 'x'") == "ALTER_SECRET"
    assert await client.notices() == [("NOTICE", "00000", 'secret "nope" does not exist, skipping')]
    f = await cause(client, "alter secret s as 7")
    assert f[1] == one("Invalid input syntax: secret value should be quoted by ' or \" ")
    assert await client.run("create user u") == "CREATE_USER"
    assert await client.run("alter secret s owner to u") == "ALTER_SECRET"
    uid = (await client.rows("select id from rw_users where name = 'u'"))[0][0]
    assert await client.rows("select owner from rw_secrets") == [(uid,)]
    u = await client_factory(user="u")
    assert await u.rows("select name from rw_secrets") == [("s",)]
    f = await cause(client, "alter secret s owner to nobody")
    assert f[1] == catalog("user not found: nobody")


async def test_connections_and_references(client: Client) -> None:
    assert await client.run(SECRET) == "CREATE_SECRET"
    assert await client.run(CONNECTION) == "CREATE_CONNECTION"
    sid = (await client.rows("select id from rw_secrets"))[0][0]
    rows = await client.rows(
        "select id, name, schema_id, owner, type_, provider, acl::varchar, connection_params "
        "from rw_connections"
    )
    cid = rows[0][0]
    params = '{"properties.bootstrap.server":"b:9092","properties.sasl.password":"SECRET public.s"}'
    assert [r[1:] for r in rows] == [("c", 2, 1, "CONNECTION_TYPE_KAFKA", "", ROOT_ACL, params)]
    assert await client.rows("show connections") == [("public.c", "CONNECTION_TYPE_KAFKA", params)]
    assert await client.rows("select oid, relname, relkind from pg_class where relkind = 'c'") == [
        (cid, "c", "c")
    ]
    assert await client.run(SOURCE) == "CREATE_SOURCE"
    file_ref = (
        "create source src2 (v int) with (connector = 'kafka', topic = 't', "
        "properties.bootstrap.server = 'x', properties.sasl.password = secret public.s as file) "
        "format plain encode json"
    )
    assert await client.run(file_ref) == "CREATE_SOURCE"
    rows = await client.rows(
        "select id, name, connection_id, connector_props from rw_sources order by id"
    )
    src_id, src2_id = rows[0][0], rows[1][0]

    def props(server: str) -> dict[str, object]:
        return {
            "connector": {"type": "plaintext", "value": "kafka"},
            "properties.bootstrap.server": {"type": "plaintext", "value": server},
            "properties.sasl.password": {"type": "secret", "value": {"value": "s"}},
            "topic": {"type": "plaintext", "value": "t"},
        }

    assert [(r[1], r[2], jsonb(r[3])) for r in rows] == [
        ("src", cid, props("b:9092")),
        ("src2", None, props("x")),
    ]
    assert sorted(await client.rows("select objid, refobjid from rw_depend")) == sorted(
        [(cid, sid), (src_id, sid), (src_id, cid), (src2_id, sid)]
    )
    # SHOW CREATE prints the reference, never the value
    # (as RisingWave's unparser prints it: SqlOptionValue::SecretRef, ast/mod.rs:3357, and
    # SecretRefValue, ast/value.rs:233-240)
    create = await client.rows("show create source src2")
    assert create == [
        (
            "public.src2",
            "CREATE SOURCE src2 (v INT) WITH (connector = 'kafka', topic = 't', "
            "properties.bootstrap.server = 'x', properties.sasl.password = secret public.s "
            "AS FILE) FORMAT PLAIN ENCODE JSON",
        )
    ]


async def test_reference_refusals(client: Client, client_factory: Connect) -> None:
    assert await client.run(SECRET) == "CREATE_SECRET"
    for sql, text in (
        (
            "create source x (v int) with (connector = 'kafka', topic = 't', "
            "properties.sasl.password = secret nope) format plain encode json",
            catalog("secret not found: nope"),
        ),
        (
            "create source x (v int) with (connector = 'kafka', connection = nope) "
            "format plain encode json",
            catalog("connection not found: nope"),
        ),
        (
            "create table x (v int) with (k = secret s)",
            one(
                "Invalid parameter value: Secret reference and Connection reference are not "
                "allowed in options when creating table without external source"
            ),
        ),
        (
            "create connection c2 with (type = 'kafka', connection = c)",
            one(
                "Invalid parameter value: Connection reference is not allowed in options in "
                "CREATE CONNECTION"
            ),
        ),
        (
            "create connection c2 with (properties.bootstrap.server = 'b')",
            one('Protocol error: Required property "type" is not provided'),
        ),
        (
            "create connection c2 with (type = 'mqtt')",
            one('Protocol error: Connection type "mqtt" is not supported'),
        ),
    ):
        f = await cause(client, sql)
        assert f[1] == text, sql
    assert (
        await client.run(
            "create connection sr with (type = 'schema_registry', schema.registry = 'http://r')"
        )
        == "CREATE_CONNECTION"
    )
    f = await cause(
        client,
        "create source x (v int) with (connector = 'kafka', connection = sr) "
        "format plain encode json",
    )
    assert f[1] == one(
        "Protocol error: connection type SchemaRegistry is not allowed, allowed types: "
        "{Kafka, Iceberg, Unspecified}"
    )
    assert await client.run(CONNECTION) == "CREATE_CONNECTION"
    f = await cause(
        client,
        "create source x (v int) with (connector = 'kafka', connection = c, "
        "properties.bootstrap.server = 'y') format plain encode json",
    )
    assert f[1] == one(
        "Invalid parameter value: Duplicated key in both WITH clause and Connection catalog: "
        "properties.bootstrap.server"
    )
    # USAGE is needed to reference a secret someone else owns
    assert await client.run("create user u") == "CREATE_USER"
    assert await client.run("grant create on schema public to u") == "GRANT_PRIVILEGE"
    u = await client_factory(user="u")
    f = await cause(
        u,
        "create source x (v int) with (connector = 'kafka', topic = 't', "
        "properties.sasl.password = secret s) format plain encode json",
    )
    assert f[1] == one('Permission denied: permission denied for secret "s": "USAGE"')
    assert await client.rows("select name from rw_sources") == []
    # GRANT USAGE ON SECRET (handle_privilege.rs: GrantObjects::Secrets) lets it through
    assert await client.run("grant usage on secret s to u") == "GRANT_PRIVILEGE"
    assert (
        await u.run(
            "create source x (v int) with (connector = 'kafka', topic = 't', "
            "properties.sasl.password = secret s) format plain encode json"
        )
        == "CREATE_SOURCE"
    )
    assert await client.run("revoke usage on secret s from u") == "REVOKE_PRIVILEGE"
    f = await cause(u, "grant usage on secret nope to u")
    assert f[1] == catalog("secret not found: nope")


async def test_drop_restrict_and_cascade(client: Client, server: Running) -> None:
    assert await client.run(SECRET) == "CREATE_SECRET"
    assert await client.run(CONNECTION) == "CREATE_CONNECTION"
    assert await client.run(SOURCE) == "CREATE_SOURCE"
    mv = "create materialized view mv as select * from src"
    assert await run_ticking(client, server, mv) == "CREATE_MATERIALIZED_VIEW"
    await client.notices()
    f = await cause(client, "drop secret s")
    assert f[1] == one(
        "Permission denied: secret used by 2 other objects. \n"
        "DETAIL: source public.src depends on it\n"
        "connection public.c depends on it\n"
        "HINT: DROP the dependent objects first."
    )
    f = await cause(client, "drop connection c")
    assert f[1] == one(
        "Permission denied: connection used by 1 other objects. \n"
        "DETAIL: source public.src depends on it\n"
        "HINT: DROP the dependent objects first."
    )
    f = await cause(client, "drop schema public")
    assert f[1] == one("Permission denied: schema is not empty")
    assert await client.run("drop connection if exists nope") == "DROP_CONNECTION"
    assert await client.notices() == [
        ("NOTICE", "00000", 'connection "nope" does not exist, skipping')
    ]
    # CASCADE takes the connection, the source and the materialized view on it along
    assert await run_ticking(client, server, "drop secret s cascade") == "DROP_SECRET"
    assert await client.rows("select name from rw_relations where schema_id = 2") == []
    assert await client.rows("select name from rw_connections") == []
    assert await client.rows("select name from rw_secrets") == []
    assert await client.rows("select count(*) from rw_depend") == [(0,)]
    f = await cause(client, "drop secret s")
    assert f[1] == catalog("secret not found: s")


async def test_alter_connection(client: Client) -> None:
    assert await client.run(SECRET) == "CREATE_SECRET"
    assert await client.run(CONNECTION) == "CREATE_CONNECTION"
    assert await client.run(SOURCE) == "CREATE_SOURCE"
    assert (
        await client.run("alter connection c connector with (properties.sasl.username = 'bob')")
        == "ALTER_CONNECTION"
    )
    assert await client.rows("select connection_params from rw_connections") == [
        (
            '{"properties.bootstrap.server":"b:9092","properties.sasl.password":'
            '"SECRET public.s","properties.sasl.username":"bob"}',
        )
    ]
    rows = await client.rows("select connector_props from rw_sources")
    assert jsonb(rows[0][0])["properties.sasl.username"] == {  # type: ignore[index]
        "type": "plaintext",
        "value": "bob",
    }
    f = await cause(client, "alter connection c connector with (properties.bootstrap.server = 'z')")
    assert f[1] == (
        "\n\nCaused by these errors (recent errors listed first):\n"
        "  1: gRPC request to meta service (call `/meta.StreamManagerService/AlterConnectorProps`)"
        " failed: Internal error\n"
        "  2: Field 'properties.bootstrap.server' is not allowed to be altered on the fly for "
        "connection: kafka\n"
    )
    assert await client.run("create schema other") == "CREATE_SCHEMA"
    assert await client.run("alter connection c set schema other") == "ALTER_CONNECTION"
    assert await client.rows("show connections from other") == [
        (
            "other.c",
            "CONNECTION_TYPE_KAFKA",
            '{"properties.bootstrap.server":"b:9092","properties.sasl.password":'
            '"SECRET public.s","properties.sasl.username":"bob"}',
        )
    ]
    assert await client.rows("show connections") == []
    assert await client.run("create user u") == "CREATE_USER"
    assert await client.run("alter connection other.c owner to u") == "ALTER_CONNECTION"
    uid = (await client.rows("select id from rw_users where name = 'u'"))[0][0]
    assert await client.rows("select owner from rw_connections") == [(uid,)]
    f = await cause(client, "alter connection nope owner to u")
    assert f[1] == catalog("connection not found: nope")
